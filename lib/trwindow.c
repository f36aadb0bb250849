/*
 * dtriage's inputs from what the other readers give: processes' rates
 * over the window (ds_who_rate on two scans), a filesystem's largest
 * holders of deleted-open space (ds_deleted_scan), and the figures of
 * block-latency tracing over the window.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

int
ds_tr_procs(const struct ds_procs *a, const struct ds_procs *b, double secs,
    long clk_tck, int delay, struct ds_tr_proc **out, size_t *n)
{
	struct ds_tr_proc *p;
	size_t i;

	*out = NULL;
	*n = 0;
	if (b->n == 0)
		return 0;
	if ((p = calloc(b->n, sizeof(*p))) == NULL)
		return -ENOMEM;
	for (i = 0; i < b->n; i++) {
		const struct ds_proc *c = &b->p[i];
		struct ds_tr_proc *t = &p[*n];

		/*
		 * Not in the first scan: born in the window, all of it inside.
		 * secs 0: one scan (a captured tree), each over its own life.
		 */
		ds_who_rate(ds_procs_find(a, c->pid), c, secs > 0 ? secs :
		    ds_proc_age(c, b->uptime_ns, clk_tck), clk_tck, delay,
		    &t->rate);
		if (!t->rate.active)
			continue;
		t->pid = c->pid;
		t->comm = c->comm;
		/* Kernel threads have an empty cmdline (read with DS_WHO_CMDLINE). */
		t->kthread = c->cmdline == NULL;
		(*n)++;
	}
	*out = p;
	return 0;
}

static int
cmp_holder(const void *x, const void *y)
{
	const struct ds_tr_holder *a = x, *b = y;

	if (a->bytes != b->bytes)
		return a->bytes > b->bytes ? -1 : 1;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return (a->fd > b->fd) - (a->fd < b->fd);
}

int
ds_tr_holders(const struct ds_deleted *d, size_t fs, struct ds_tr_holder **out,
    size_t *n)
{
	struct ds_tr_holder *h;
	size_t i, k = 0;

	*out = NULL;
	*n = 0;
	for (i = 0; i < d->n; i++)
		k += d->f[i].fs == fs && !d->f[i].memory;
	if (k == 0)
		return 0;
	if ((h = calloc(k, sizeof(*h))) == NULL)
		return -ENOMEM;
	for (i = k = 0; i < d->n; i++) {
		const struct ds_delfile *f = &d->f[i];

		if (f->fs != fs || f->memory)
			continue;
		h[k].pid = f->pid;
		h[k].fd = f->fd;
		h[k].comm = ds_deleted_str(d, f->comm);
		/* st_blocks is in 512-byte units whatever the block size. */
		h[k].bytes = f->blocks * 512;
		k++;
	}
	qsort(h, k, sizeof(*h), cmp_holder);
	*out = h;
	*n = k;
	return 0;
}

int
ds_tr_fs_held(struct ds_tr_fs *fs, const struct ds_deleted *d,
    const struct ds_delsum *sum, size_t nsum)
{
	struct ds_tr_holder *h;
	size_t k;

	fs->have_deleted = 1;
	for (k = 0; k < nsum; k++) {
		if (d->fs[sum[k].fs].dev != fs->st.dev)
			continue;
		fs->held = sum[k].held;
		fs->held_files = sum[k].files;
		fs->held_procs = sum[k].holders;
		if (ds_tr_holders(d, sum[k].fs, &h, &fs->nholder) < 0)
			return -ENOMEM;
		fs->holder = h;
		return 0;
	}
	return 0;
}

/* dev's histograms of phase ph, read and write merged, b less a. */
static void
blk_phase(const struct ds_blklat_snap *a, const struct ds_blklat_snap *b,
    uint32_t dev, unsigned int ph, struct ds_lat *out)
{
	struct ds_lat h;
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < b->n; i++) {
		const struct ds_blklat_row *r = &b->r[i];

		if (r->dev != dev || r->phase != ph ||
		    (r->op != DS_BLK_READ && r->op != DS_BLK_WRITE))
			continue;
		ds_blklat_delta(a, b, r, &h);
		ds_lat_merge(out, &h);
	}
}

int
ds_tr_blklat(const struct ds_blklat_snap *a, const struct ds_blklat_snap *b,
    uint32_t dev, struct ds_tr_lat *l, struct ds_tr_load *load)
{
	struct ds_blklat_who *w = NULL;
	struct ds_lat d2c, q2c;
	size_t n = 0, i;

	memset(l, 0, sizeof(*l));
	memset(load, 0, sizeof(*load));
	blk_phase(a, b, dev, DS_BLK_D2C, &d2c);
	blk_phase(a, b, dev, DS_BLK_Q2C, &q2c);
	if (ds_blklat_who_delta(a, b, &w, &n) < 0)
		return -ENOMEM;
	/* By disk, then most bytes first: dev's first entry is its top. */
	for (i = 0; i < n; i++) {
		if (w[i].dev != dev)
			continue;
		if (load->pid == 0 && w[i].bytes > 0) {
			load->pid = (int)w[i].pid;
			memcpy(load->comm, w[i].comm, sizeof(load->comm));
			load->comm[sizeof(load->comm) - 1] = '\0';
			load->bytes = w[i].bytes;
		}
		load->total += w[i].bytes;
	}
	free(w);
	if (d2c.count == 0 && q2c.count == 0)
		return -ENOENT;
	l->count = d2c.count;
	l->d2c_mean = ds_lat_mean(&d2c) / 1000;
	l->d2c_p99 = ds_lat_quantile(&d2c, 0.99) / 1000;
	l->q2c_mean = ds_lat_mean(&q2c) / 1000;
	l->q2c_p99 = ds_lat_quantile(&q2c, 0.99) / 1000;
	return 0;
}

int
ds_tr_dlat_open(const struct ds_root *r, struct ds_tr_dlat *t)
{
	struct ds_devsel all;
	size_t ndevs;
	int e;

	memset(t, 0, sizeof(*t));
	memset(&all, 0, sizeof(all));
	ds_blklat_init(&t->b);
	if (ds_blklat_probe() < 0) {
		t->why = "needs CAP_BPF and CAP_PERFMON, or root";
		return 0;
	}
	if ((e = ds_blkdisks_pick(r, &all, &t->disk, &t->ndisk, &ndevs)) < 0 ||
	    t->ndisk == 0) {
		t->why = "no disks to trace";
		return e == -ENOMEM ? e : 0;
	}
	if ((e = ds_blklat_open(&t->b, DS_BLKLAT_WHO, ndevs, t->ndisk)) < 0 ||
	    (e = ds_blklat_add_disks(&t->b, r, t->disk, t->ndisk)) < 0 ||
	    (e = ds_blklat_attach(&t->b)) < 0 ||
	    (e = ds_blklat_take(&t->b, r, t->disk, t->ndisk, NULL,
	    &t->s[0])) < 0) {
		t->why = e == -EPERM || e == -EACCES ?
		    "refused: kernel lockdown or missing capabilities" :
		    e == -ENOMEM ? "out of memory" : "the kernel refused it";
		ds_blklat_close(&t->b);
		return 0;
	}
	t->on = 1;
	return 0;
}

void
ds_tr_dlat_tend(struct ds_tr_dlat *t)
{
	if (t->on && ds_blklat_tend(&t->b) < 0) {
		t->on = 0;
		t->why = "its maps could not be read";
		ds_blklat_close(&t->b);
	}
}

void
ds_tr_dlat_close(const struct ds_root *r, struct ds_tr_dlat *t)
{
	if (t->on && ds_blklat_take(&t->b, r, t->disk, t->ndisk, &t->s[0],
	    &t->s[1]) < 0) {
		t->on = 0;
		t->why = "its maps could not be read";
	}
	ds_blklat_close(&t->b);
}

int
ds_tr_dlat_dev(const struct ds_tr_dlat *t, const char *name,
    struct ds_tr_lat *l, struct ds_tr_load *load)
{
	size_t k;

	for (k = 0; t->on && k < t->ndisk; k++)
		if (strcmp(t->disk[k].name, name) == 0)
			return ds_tr_blklat(&t->s[0], &t->s[1], t->disk[k].dev,
			    l, load);
	return -ENOENT;
}

void
ds_tr_dlat_free(struct ds_tr_dlat *t)
{
	free(t->disk);
	ds_blklat_snap_free(&t->s[0]);
	ds_blklat_snap_free(&t->s[1]);
	t->disk = NULL;
	t->ndisk = 0;
}
