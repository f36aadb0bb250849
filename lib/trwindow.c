/*
 * dtriage's inputs from what the other readers give: a device's own
 * queue depth and whether it is virtual (sysfs), processes' rates over
 * the window (ds_who_rate on two scans), and a filesystem's largest
 * holders of deleted-open space (ds_deleted_scan).  Pure conversions
 * but for the two sysfs reads.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

static int
name_ok(const char *s)
{
	return *s != '\0' && strchr(s, '/') == NULL && strcmp(s, ".") != 0 &&
	    strcmp(s, "..") != 0;
}

/* sys/block/DISK/device/FILE into b, trailing blanks cut. */
static int
dev_file(const struct ds_root *r, const char *disk, const char *file,
    struct ds_buf *b)
{
	char rel[512];
	int e;

	if (!name_ok(disk))
		return -EINVAL;
	if ((size_t)snprintf(rel, sizeof(rel), "sys/block/%s/device/%s", disk,
	    file) >= sizeof(rel))
		return -ENAMETOOLONG;
	if ((e = ds_read_file(r, rel, b)) < 0)
		return e;
	while (b->len > 0 && (b->data[b->len - 1] == '\n' ||
	    b->data[b->len - 1] == ' ' || b->data[b->len - 1] == '\t'))
		b->data[--b->len] = '\0';
	return 0;
}

int
ds_tr_queue_depth(const struct ds_root *r, const char *disk,
    struct ds_buf *scratch, uint64_t *depth)
{
	int e;

	*depth = 0;
	/* SCSI and ATA disks have it; virtio, NVMe and loop do not. */
	if ((e = dev_file(r, disk, "queue_depth", scratch)) < 0)
		return e;
	return ds_strtou64(scratch->data, depth) < 0 ? -EINVAL : 0;
}

int
ds_tr_virtual(const struct ds_root *r, const char *disk,
    struct ds_buf *scratch)
{
	static const char *const vendors[] = { "QEMU", "VMware", "Msft",
	    "Google", "Amazon", "Xen", "VBOX", "Red Hat" };
	static const char *const models[] = { "Amazon Elastic Block Store",
	    "PersistentDisk", "Virtual disk", "VBOX HARDDISK" };
	char rel[512], link[256];
	ssize_t n;
	size_t i;

	if (!name_ok(disk))
		return -EINVAL;
	/* The driver: virtio_blk, xen's vbd, Hyper-V's storvsc. */
	snprintf(rel, sizeof(rel), "sys/block/%s/device/driver", disk);
	while (rel[0] == '/')
		memmove(rel, rel + 1, strlen(rel));
	n = readlinkat(r->fd, rel, link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = '\0';
		if (strstr(link, "virtio") != NULL || strstr(link, "vbd") !=
		    NULL || strstr(link, "storvsc") != NULL ||
		    strstr(link, "xen") != NULL)
			return 1;
	}
	if (dev_file(r, disk, "vendor", scratch) == 0)
		for (i = 0; i < sizeof(vendors) / sizeof(vendors[0]); i++)
			if (strncmp(scratch->data, vendors[i],
			    strlen(vendors[i])) == 0)
				return 1;
	if (dev_file(r, disk, "model", scratch) == 0)
		for (i = 0; i < sizeof(models) / sizeof(models[0]); i++)
			if (strstr(scratch->data, models[i]) != NULL)
				return 1;
	return 0;
}

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
ds_tr_psi(const struct ds_psi *a, const struct ds_psi *b, uint64_t ns,
    struct ds_tr_psi *out)
{
	const unsigned some = 1u << DS_PSI_SOME, full = 1u << DS_PSI_FULL;

	memset(out, 0, sizeof(*out));
	if (!(b->have & some))
		return -ENODATA;
	if (a == NULL) {
		/* avg10 is hundredths of a percent over the last 10 s. */
		out->some = (double)b->line[DS_PSI_SOME].avg[0] / 100;
		if (b->have & full)
			out->full = (double)b->line[DS_PSI_FULL].avg[0] / 100;
		out->have = 1;
		return 0;
	}
	if (!(a->have & some) || ds_psi_share(a->line[DS_PSI_SOME].total,
	    b->line[DS_PSI_SOME].total, ns, &out->some) < 0)
		return -EINVAL;
	if ((a->have & b->have & full) != 0)
		(void)ds_psi_share(a->line[DS_PSI_FULL].total,
		    b->line[DS_PSI_FULL].total, ns, &out->full);
	out->have = 1;
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

static int
cmpname(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
ds_tr_disks(const struct ds_root *r, struct ds_buf *window,
    struct ds_blockdevs *out)
{
	struct ds_diskstats ds = { 0 };
	size_t i, len = 0, n = 0;
	int e;

	if ((e = ds_blockdevs_read(r, out)) == 0 || e == -ENOMEM)
		return e;
	/* A captured tree without sys/block: diskstats' whole disks. */
	ds_blockdevs_free(out);
	if ((e = ds_diskstats_read(r, window, &ds)) < 0)
		return e;
	for (i = 0; i < ds.n; i++)
		if (!ds_name_is_partition(ds.disk[i].name)) {
			len += strlen(ds.disk[i].name) + 1;
			n++;
		}
	out->name = calloc(n ? n : 1, sizeof(*out->name));
	out->pool = malloc(len ? len : 1);
	if (out->name == NULL || out->pool == NULL) {
		ds_diskstats_free(&ds);
		ds_blockdevs_free(out);
		return -ENOMEM;
	}
	out->cap = n;
	out->poolcap = len;
	for (i = 0, len = 0; i < ds.n; i++)
		if (!ds_name_is_partition(ds.disk[i].name)) {
			out->name[out->n++] = strcpy(out->pool + len,
			    ds.disk[i].name);
			len += strlen(ds.disk[i].name) + 1;
		}
	ds_diskstats_free(&ds);
	qsort(out->name, out->n, sizeof(*out->name), cmpname);
	return 0;
}

int
ds_tr_fs_disk(const char *fstype, unsigned int major)
{
	/* Disk or network filesystems on an anonymous device number. */
	static const char *const anon[] = { "btrfs", "zfs", "bcachefs",
	    "nfs", "nfs4", "cifs", "smb3", "ceph", "glusterfs", "9p" };
	size_t i;

	if (major != 0)
		return 1;
	for (i = 0; fstype != NULL && i < sizeof(anon) / sizeof(anon[0]); i++)
		if (strcmp(fstype, anon[i]) == 0)
			return 1;
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
	size_t ndevs;
	int e;

	memset(t, 0, sizeof(*t));
	ds_blklat_init(&t->b);
	if (ds_blklat_probe() < 0) {
		t->why = "needs CAP_BPF and CAP_PERFMON, or root";
		return 0;
	}
	if ((e = ds_blkdisks_read(r, NULL, NULL, &t->disk, &t->ndisk,
	    &ndevs)) < 0 || t->ndisk == 0) {
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
