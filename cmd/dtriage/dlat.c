/*
 * Block-latency tracing over the window, as dlat -P does it: every
 * whole disk traced from the window's start to its end, and each one's
 * d2c, q2c and largest submitter taken from the two reads.
 */
#include "util/util.h"
#include "dtriage/dtriage.h"

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

/*
 * The figures of disk dev between two reads: d2c and q2c of the read
 * and write requests merged (us), and the submitter of the most bytes
 * (from the who map).  0; -ENOENT when nothing of dev was timed (*l
 * zeroed); -ENOMEM.
 */
int
dlat_figures(const struct ds_blklat_snap *a, const struct ds_blklat_snap *b,
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

/*
 * Start tracing with the who map and take the first read; without
 * privilege or on any failure t->on stays 0, t->why says why, and
 * nothing is left attached.  0, or -ENOMEM.
 */
int
dlat_open(const struct ds_root *r, struct dlat *t)
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

/* ds_blklat_tend, every tick of the window (a failure ends tracing). */
void
dlat_tend(struct dlat *t)
{
	if (t->on && ds_blklat_tend(&t->b) < 0) {
		t->on = 0;
		t->why = "its maps could not be read";
		ds_blklat_close(&t->b);
	}
}

/* Take the second read and detach everything (always). */
void
dlat_close(const struct ds_root *r, struct dlat *t)
{
	if (t->on && ds_blklat_take(&t->b, r, t->disk, t->ndisk, &t->s[0],
	    &t->s[1]) < 0) {
		t->on = 0;
		t->why = "its maps could not be read";
	}
	ds_blklat_close(&t->b);
}

/* Disk name's figures (dlat_figures); -ENOENT without. */
int
dlat_dev(const struct dlat *t, const char *name,
    struct ds_tr_lat *l, struct ds_tr_load *load)
{
	size_t k;

	for (k = 0; t->on && k < t->ndisk; k++)
		if (strcmp(t->disk[k].name, name) == 0)
			return dlat_figures(&t->s[0], &t->s[1], t->disk[k].dev,
			    l, load);
	return -ENOENT;
}

void
dlat_free(struct dlat *t)
{
	free(t->disk);
	ds_blklat_snap_free(&t->s[0]);
	ds_blklat_snap_free(&t->s[1]);
	t->disk = NULL;
	t->ndisk = 0;
}
