/*
 * dlat's report: its columns, and each interval's rows per disk,
 * operation and phase (-b a row per bucket, -P per process), or the
 * Prometheus text of everything counted.
 */
#include <math.h>

#include "dlat.h"

/* Every row's first columns (in prom, the histograms' labels). */
#define KEY_COLS \
	{ "time", DS_T_TIME, DS_P_NONE, NULL, NULL, 0, 0, 0 }, \
	{ "device", DS_T_STR, DS_P_LABEL, "device", NULL, 0, 0, 0 }, \
	{ "op", DS_T_STR, DS_P_LABEL, "op", NULL, 0, 0, 0 }, \
	{ "phase", DS_T_STR, DS_P_LABEL, "phase", NULL, 0, 0, 0 }
#define COL(name, type) { name, type, DS_P_NONE, NULL, NULL, 0, 0, 0 }

static const struct ds_col cols[] = {
	KEY_COLS,
	COL("count", DS_T_U64),
	COL("mean_us", DS_T_F2),
	COL("p50_us", DS_T_F2),
	COL("p90_us", DS_T_F2),
	COL("p99_us", DS_T_F2),
	COL("p999_us", DS_T_F2),
	COL("max_us", DS_T_F2),
	COL("missed", DS_T_U64),
};

/* -b: a row per bucket; the bar column in table mode only. */
static const struct ds_col bcols[] = {
	KEY_COLS,
	COL("lo_us", DS_T_F3),
	COL("hi_us", DS_T_F3),
	COL("count", DS_T_U64),
	COL("missed", DS_T_U64),
	COL("distribution", DS_T_STR),
};

/* -P: per submitting process (q2c).  -o prom writes the histograms. */
static const struct ds_col pcols[] = {
	COL("time", DS_T_TIME),
	COL("device", DS_T_STR),
	COL("pid", DS_T_U64),
	COL("comm", DS_T_STR),
	COL("count", DS_T_U64),
	COL("bytes", DS_T_U64),
	COL("mean_us", DS_T_F2),
	COL("p50_us", DS_T_F2),
	COL("p99_us", DS_T_F2),
	COL("max_us", DS_T_F2),
	COL("missed", DS_T_U64),
};

#define BAR 40

/* The writer over the columns of the report -b or -P asks for. */
void
dlat_writer_open(struct dl *d)
{
	if (d->slow) {
		dlat_slow_writer_open(d);
		return;
	}
	if (d->cg) {
		dlat_cg_writer_open(d);
		return;
	}
	tool_writer_open(&d->t, &d->w, d->who ? pcols : d->buckets ? bcols :
	    cols, d->who ? nitems(pcols) : d->buckets ? nitems(bcols) :
	    nitems(cols), "dlat");
}

/* A row's first cells: time, device, op, phase. */
static void
keys(struct dl *d, const struct ds_blklat_row *r, uint64_t now)
{
	ds_w_time(&d->w, now);
	ds_w_str(&d->w, dlat_disk_name(d, r->dev));
	ds_w_str(&d->w, ds_blk_op_name(r->op));
	ds_w_str(&d->w, ds_blk_phase_name(r->phase));
}

static void
row_lat(struct dl *d, const struct ds_lat *h)
{
	static const double q[] = { 0.5, 0.9, 0.99, 0.999 };
	size_t i;

	ds_w_f(&d->w, ds_lat_mean(h) / 1000);
	for (i = 0; i < nitems(q); i++)
		ds_w_f(&d->w, ds_lat_quantile(h, q[i]) / 1000);
	ds_w_f(&d->w, (double)h->max_ns / 1000);
	ds_w_u64(&d->w, d->missed);
}

static void
row_buckets(struct dl *d, const struct ds_blklat_row *r,
    const struct ds_lat *h, uint64_t now)
{
	uint64_t lo, hi, top;
	unsigned int i, first, last;
	char bar[BAR + 1];
	size_t n;

	if (ds_lat_span(h, &first, &last, &top) < 0)
		return;
	for (i = first; i <= last; i++) {
		ds_lat_bounds(i, &lo, &hi);
		keys(d, r, now);
		ds_w_f(&d->w, (double)lo / 1000);
		ds_w_f(&d->w, hi != 0 ? (double)hi / 1000 : NAN);
		ds_w_u64(&d->w, h->b[i]);
		ds_w_u64(&d->w, d->missed);
		n = (size_t)((h->b[i] * BAR + top - 1) / top);
		memset(bar, '*', n);
		bar[n] = '\0';
		ds_w_str(&d->w, d->t.fmt == DS_FMT_TABLE ? bar : NULL);
		(void)ds_w_row_end(&d->w);
	}
}

static void
report_rows(struct dl *d, const struct ds_blklat_snap *prev,
    const struct ds_blklat_snap *cur, uint64_t now)
{
	struct ds_lat h;
	size_t i;

	for (i = 0; i < cur->n; i++) {
		const struct ds_blklat_row *r = &cur->r[i];

		ds_blklat_delta(prev, cur, r, &h);
		if (h.count == 0)
			continue;
		if (d->buckets) {
			row_buckets(d, r, &h, now);
			continue;
		}
		keys(d, r, now);
		ds_w_u64(&d->w, h.count);
		row_lat(d, &h);
		(void)ds_w_row_end(&d->w);
	}
}

/* -P: the interval's figures of each submitter, most bytes first. */
static void
report_who(struct dl *d, const struct ds_blklat_snap *prev,
    const struct ds_blklat_snap *cur, uint64_t now)
{
	struct ds_blklat_who *w;
	size_t i, n;

	if (ds_blklat_who_delta(prev, cur, &w, &n) < 0)
		err(1, NULL);
	for (i = 0; i < n; i++) {
		ds_w_time(&d->w, now);
		ds_w_str(&d->w, dlat_disk_name(d, w[i].dev));
		ds_w_u64(&d->w, w[i].pid);
		ds_w_str(&d->w, w[i].comm);
		ds_w_u64(&d->w, w[i].h.count);
		ds_w_u64(&d->w, w[i].bytes);
		ds_w_f(&d->w, ds_lat_mean(&w[i].h) / 1000);
		ds_w_f(&d->w, ds_lat_quantile(&w[i].h, 0.5) / 1000);
		ds_w_f(&d->w, ds_lat_quantile(&w[i].h, 0.99) / 1000);
		ds_w_f(&d->w, (double)w[i].h.max_ns / 1000);
		ds_w_u64(&d->w, d->missed);
		(void)ds_w_row_end(&d->w);
	}
	free(w);
}

/*
 * At the end, in table mode (a person reading), the missed events of
 * the whole run are said too; the other formats carry them in their
 * rows (missed) or metrics.
 */
void
dlat_say_missed(const struct dl *d, const struct ds_blklat_snap *last)
{
	uint64_t m[DS_MISS_N], total;
	size_t i;

	ds_blklat_miss_delta(NULL, last, m, &total);
	if (total == 0 || d->t.fmt != DS_FMT_TABLE)
		return;
	fprintf(stderr, "dlat: missed events: %llu (", (unsigned long long)total);
	for (i = 0; i < DS_MISS_N; i++)
		fprintf(stderr, "%s%s %llu", i ? ", " : "",
		    ds_blklat_miss_name((unsigned int)i), (unsigned long long)m[i]);
	fprintf(stderr, ")\n");
}

void
dlat_report(struct dl *d, const struct ds_blklat_snap *prev,
    const struct ds_blklat_snap *cur)
{
	uint64_t now = ds_root_time_ns(&d->t.r), m[DS_MISS_N];

	ds_blklat_miss_delta(prev, cur, m, &d->missed);
	tool_report_begin(&d->t, &d->w);
	if (d->t.fmt == DS_FMT_PROM) {
		/* The counters since tracing began. */
		d->out.len = 0;
		if (dlat_prom(d, cur, &d->out) < 0)
			errx(1, "out of memory");
		ds_w_raw(&d->w, d->out.data, d->out.len);
	} else if (d->who)
		report_who(d, prev, cur, now);
	else if (d->cg)
		dlat_cg_report(d, prev, cur, now);
	else
		report_rows(d, prev, cur, now);
	tool_report_end(&d->t, &d->w);
}
