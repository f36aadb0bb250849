/*
 * dlat -g: the distributions per cgroup v2 of the task that queued the
 * bio, the cgroups with the most requests first, and cgroup ids named.
 */
#include <math.h>

#include "dlat.h"

#define COL(name, type) { name, type, DS_P_NONE, NULL, NULL, 0, 0, 0 }

static const struct ds_col gcols[] = {
	COL("time", DS_T_TIME),
	COL("device", DS_T_STR),
	COL("op", DS_T_STR),
	COL("phase", DS_T_STR),
	COL("cgroup", DS_T_STR),
	COL("count", DS_T_U64),
	COL("mean_us", DS_T_F2),
	COL("p50_us", DS_T_F2),
	COL("p90_us", DS_T_F2),
	COL("p99_us", DS_T_F2),
	COL("p999_us", DS_T_F2),
	COL("max_us", DS_T_F2),
	COL("missed", DS_T_U64),
};

void
dlat_cg_writer_open(struct dl *d)
{
	tool_writer_open(&d->t, &d->w, gcols, sizeof(gcols) / sizeof(gcols[0]),
	    "dlat");
}

/*
 * The path of cgroup id below the v2 mount; the hierarchy read again
 * for an id not seen yet: a cgroup made since.
 * One removed before it was named is "#ID".  NULL for id 0 (the bio's
 * queueing not seen).
 */
const char *
dlat_cg_name(struct dl *d, uint64_t id, char *buf, size_t size)
{
	const char *p;
	uint64_t now;

	if (id == 0)
		return NULL;
	if ((p = ds_cgids_find(&d->ids, id)) != NULL)
		return p;
	/*
	 * Once for each new id (a cgroup made since the last read), else
	 * at most once a second (not a walk per row of one removed).
	 */
	now = ds_boottime_ns();
	if (id != d->unknown || now - d->ids_ns >= 1000000000u) {
		d->ids_ns = now;
		d->unknown = id;
		/* Unreadable: the ids are said as numbers. */
		(void)ds_cgids_read(&d->t.r, &d->ids);
		if ((p = ds_cgids_find(&d->ids, id)) != NULL)
			return p;
	}
	snprintf(buf, size, "#%llu", (unsigned long long)id);
	return buf;
}

struct rank {
	uint64_t cg, n;
};

static int
cmp_rank(const void *x, const void *y)
{
	const struct rank *a = x, *b = y;

	if (a->n != b->n)
		return a->n > b->n ? -1 : 1;
	return (a->cg > b->cg) - (a->cg < b->cg);
}

size_t
dlat_cg_rank(const struct dl *d, const struct ds_blklat_snap *prev,
    const struct ds_blklat_snap *s, uint64_t **out)
{
	struct rank *k;
	size_t i, j, n = 0;
	uint64_t c;

	if ((k = calloc(s->n + 1, sizeof(*k))) == NULL ||
	    (*out = calloc(s->n + 1, sizeof(**out))) == NULL)
		err(1, NULL);
	for (i = 0; i < s->n; i++) {
		if ((c = ds_blklat_count_delta(prev, s, &s->r[i])) == 0)
			continue;
		for (j = 0; j < n && k[j].cg != s->r[i].cg; j++)
			;
		if (j == n)
			k[n++].cg = s->r[i].cg;
		k[j].n += c;
	}
	if (n > 1)
		qsort(k, n, sizeof(*k), cmp_rank);
	if (d->t.top != 0 && n > d->t.top)
		n = (size_t)d->t.top;
	for (i = 0; i < n; i++)
		(*out)[i] = k[i].cg;
	free(k);
	return n;
}

/* The interval's rows of each cgroup ranked, in the snapshot's order. */
void
dlat_cg_report(struct dl *d, const struct ds_blklat_snap *prev,
    const struct ds_blklat_snap *cur, uint64_t now)
{
	static const double q[] = { 0.5, 0.9, 0.99, 0.999 };
	struct ds_lat *h;
	uint64_t *cg;
	size_t i, j, k, n;
	char buf[32];

	if ((h = malloc(sizeof(*h))) == NULL)
		err(1, NULL);
	n = dlat_cg_rank(d, prev, cur, &cg);
	for (j = 0; j < n; j++) {
		for (i = 0; i < cur->n; i++) {
			const struct ds_blklat_row *r = &cur->r[i];

			if (r->cg != cg[j])
				continue;
			ds_blklat_delta(prev, cur, r, h);
			if (h->count == 0)
				continue;
			ds_w_time(&d->w, now);
			ds_w_str(&d->w, dlat_disk_name(d, r->dev));
			ds_w_str(&d->w, ds_blk_op_name(r->op));
			ds_w_str(&d->w, ds_blk_phase_name(r->phase));
			ds_w_str(&d->w, dlat_cg_name(d, r->cg, buf, sizeof(buf)));
			ds_w_u64(&d->w, h->count);
			ds_w_f(&d->w, ds_lat_mean(h) / 1000);
			for (k = 0; k < sizeof(q) / sizeof(q[0]); k++)
				ds_w_f(&d->w, ds_lat_quantile(h, q[k]) / 1000);
			ds_w_f(&d->w, (double)h->max_ns / 1000);
			ds_w_u64(&d->w, d->missed);
			ds_w_row_end(&d->w);
		}
	}
	free(cg);
	free(h);
}
