/*
 * Block-latency figures of the window, as dlat -P gives them: every
 * whole disk traced from the window's start to its end (ds_window), and
 * each one's d2c, q2c and largest submitter taken from the two reads.
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

/* Disk name's figures (dlat_figures); -ENOENT without. */
int
dlat_dev(const struct ds_window *w, const char *name,
    struct ds_tr_lat *l, struct ds_tr_load *load)
{
	size_t k;

	for (k = 0; w->traced && k < w->ntdisk; k++)
		if (strcmp(w->tdisk[k].name, name) == 0)
			return dlat_figures(&w->s[0], &w->s[1], w->tdisk[k].dev,
			    l, load);
	return -ENOENT;
}
