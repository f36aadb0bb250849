/*
 * dlat: block I/O latency distributions per disk, operation and phase
 * (d2c, q2c, q2d), from hand-assembled eBPF on the block tracepoints.
 */
#include <math.h>

#include "util/util.h"

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

#define NCOLS(c) (sizeof(c) / sizeof((c)[0]))
#define BAR 40

struct dl {
	struct tool t;
	int buckets, who;
	unsigned int phases;		/* DS_BLKLAT_PHASE bits; 0: all */
	struct ds_devsel sel;
	struct ds_blkdisk *disk;
	size_t ndisk;
	struct ds_blklat b;
	struct ds_writer w;
	struct ds_buf out;
	uint64_t missed;		/* events missed in the interval */
};

static const char synopsis[] =
    "dlat [-bHhP] [-O cols] [-o fmt] [-p phases] [-w file] [--utc]\n"
    "            [device|glob ...] [interval [count]]";

static const char optlines[] =
    "  -b            the histogram itself: a row per bucket (bars in table)\n"
    "  -P            per submitting process: pid, command, bytes, q2c\n"
    "  -p phases     only these (d2c,q2c,q2d; default all)\n"
    "  interval      seconds between reports; none: trace until SIGINT\n";

static const struct tool_info info = { synopsis, optlines, TOOL_N_NONE };

/* A disk's name (void *: also ds_blklat_prom's callback). */
static const char *
disk_name(void *arg, uint32_t dev)
{
	const struct dl *d = arg;
	const char *n = ds_blkdisk_name(d->disk, d->ndisk, dev);

	return n != NULL ? n : "-";
}

/* Say why tracing could not start, as precisely as the kernel lets us. */
static void
open_fail(struct dl *d, int e)
{
	char why[256];

	if (e == -EACCES && d->b.log != NULL && d->b.log[0] != '\0')
		fprintf(stderr, "%s", d->b.log);
	ds_blklat_why(&d->b, &d->t.r, e, why, sizeof(why));
	errx(1, "%s", why);
}

static void
start(struct dl *d)
{
	size_t ndevs;
	int e;

	/* The TSV header at once: an unwritable output fails now. */
	if (d->t.fmt == DS_FMT_TSV && d->t.outfile == NULL &&
	    (e = ds_w_report_end(&d->w)) < 0)
		tool_errc(1, e, "write error");
	if ((e = ds_blklat_probe()) < 0)
		open_fail(d, e);
	if ((e = ds_blkdisks_pick(&d->t.r, &d->sel, &d->disk, &d->ndisk,
	    &ndevs)) < 0)
		tool_errc(1, e, "%s", tool_path(&d->t, "sys/block"));
	if (tool_unmatched(&d->sel, "no such device") > 0)
		tool_exit(1);
	if (d->ndisk == 0)
		errx(1, "no block devices to trace");
	ds_blklat_init(&d->b);
	if ((e = ds_blklat_open(&d->b, (d->who ? DS_BLKLAT_WHO : 0) |
	    d->phases, ndevs, d->ndisk)) < 0)
		open_fail(d, e);
	if ((e = ds_blklat_add_disks(&d->b, &d->t.r, d->disk, d->ndisk)) < 0)
		tool_errc(1, e, "device map");
	if ((e = ds_blklat_attach(&d->b)) < 0)
		open_fail(d, e);
}

/* A row's first cells: time, device, op, phase. */
static void
keys(struct dl *d, const struct ds_blklat_row *r, uint64_t now)
{
	ds_w_time(&d->w, now);
	ds_w_str(&d->w, disk_name(d, r->dev));
	ds_w_str(&d->w, ds_blk_op_name(r->op));
	ds_w_str(&d->w, ds_blk_phase_name(r->phase));
}

static void
row_lat(struct dl *d, const struct ds_lat *h)
{
	static const double q[] = { 0.5, 0.9, 0.99, 0.999 };
	size_t i;

	ds_w_f(&d->w, ds_lat_mean(h) / 1000);
	for (i = 0; i < sizeof(q) / sizeof(q[0]); i++)
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
		ds_w_row_end(&d->w);
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
		ds_w_row_end(&d->w);
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
		ds_w_str(&d->w, disk_name(d, w[i].dev));
		ds_w_u64(&d->w, w[i].pid);
		ds_w_str(&d->w, w[i].comm);
		ds_w_u64(&d->w, w[i].h.count);
		ds_w_u64(&d->w, w[i].bytes);
		ds_w_f(&d->w, ds_lat_mean(&w[i].h) / 1000);
		ds_w_f(&d->w, ds_lat_quantile(&w[i].h, 0.5) / 1000);
		ds_w_f(&d->w, ds_lat_quantile(&w[i].h, 0.99) / 1000);
		ds_w_f(&d->w, (double)w[i].h.max_ns / 1000);
		ds_w_u64(&d->w, d->missed);
		ds_w_row_end(&d->w);
	}
	free(w);
}

/*
 * At the end, in table mode (a person reading), the missed events of
 * the whole run are said too; the other formats carry them in their
 * rows (missed) or metrics.
 */
static void
say_missed(const struct dl *d, const struct ds_blklat_snap *last)
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

static void
report(struct dl *d, const struct ds_blklat_snap *prev,
    const struct ds_blklat_snap *cur)
{
	uint64_t now = ds_realtime_ns(), m[DS_MISS_N];

	ds_blklat_miss_delta(prev, cur, m, &d->missed);
	tool_report_begin(&d->t, &d->w);
	if (d->t.fmt == DS_FMT_PROM) {
		/* The counters since tracing began. */
		d->out.len = 0;
		if (ds_blklat_prom(&d->out, cur, disk_name, d) < 0)
			errx(1, "out of memory");
		ds_w_raw(&d->w, d->out.data, d->out.len);
	} else if (d->who)
		report_who(d, prev, cur, now);
	else
		report_rows(d, prev, cur, now);
	tool_report_end(&d->t, &d->w);
}

static void
take(struct dl *d, const struct ds_blklat_snap *prev, struct ds_blklat_snap *s)
{
	int e;

	if ((e = ds_blklat_take(&d->b, &d->t.r, d->disk, d->ndisk, prev,
	    s)) < 0)
		tool_errc(1, e, "reading the maps");
}

/* Until deadline, the maps tended on the way; a signal ends it early. */
static void
nap(struct dl *d, uint64_t deadline)
{
	int e = ds_blklat_sleep_until(&d->b, deadline);

	if (e < 0 && e != -EINTR)
		tool_errc(1, e, "reading the maps");
}

/*
 * A report each interval; without one, a report when SIGINT or SIGTERM
 * comes (the sleep is cut short by the signal, and is of a second so
 * that one arriving just before it is not waited on for ever).
 */
static void
run(struct dl *d)
{
	struct ds_blklat_snap s[2];
	uint64_t deadline, reports = 0;
	int cur = 0;

	memset(s, 0, sizeof(s));
	take(d, NULL, &s[0]);
	deadline = ds_boottime_ns() + d->t.interval_ns;
	while (d->t.count == 0 || reports < d->t.count) {
		while (!d->t.has_interval && !tool_stop)
			nap(d, ds_boottime_ns() + 1000000000u);
		if (d->t.has_interval && !tool_stop)
			nap(d, deadline);
		if (d->t.has_interval && tool_wait(&d->t, &deadline))
			break;
		take(d, &s[cur], &s[!cur]);
		report(d, &s[cur], &s[!cur]);
		cur = !cur;
		reports++;
		if (!d->t.has_interval)
			break;
	}
	say_missed(d, &s[cur]);
	ds_blklat_snap_free(&s[0]);
	ds_blklat_snap_free(&s[1]);
}

static void
options(struct dl *d, int argc, char **argv)
{
	static const struct option longopts[] = { TOOL_LONGOPTS };
	int ch;

	while ((ch = getopt_long(argc, argv, TOOL_OPTS "bPp:", longopts,
	    NULL)) != -1) {
		if (tool_option(&d->t, ch, optarg))
			continue;
		switch (ch) {
		case 'b':
			d->buckets = 1;
			break;
		case 'P':
			d->who = 1;
			break;
		case 'p':
			if (ds_blk_phases_parse(optarg, &d->phases) < 0)
				tool_usage("-p %s: phases are d2c, q2c, q2d, "
				    "comma-separated", optarg);
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	tool_interval(&d->t, &argc, argv);
	if (d->buckets && d->who)
		tool_usage("-b and -P: one or the other");
	if (d->who && d->phases != 0 &&
	    !(d->phases & DS_BLKLAT_PHASE(DS_BLK_Q2C)))
		tool_usage("-P times q2c: -p must include it");
	if (ds_devsel_init(&d->sel, argv, (size_t)argc) < 0)
		err(1, NULL);
}

int
main(int argc, char **argv)
{
	struct dl d;

	memset(&d, 0, sizeof(d));
	tool_init(&d.t, argv, &info);
	options(&d, argc, argv);
	tool_start(&d.t);
	if (!d.t.r.live)
		errx(1, "%s: dlat traces the running kernel, not a tree",
		    d.t.r.path);
	tool_writer_open(&d.t, &d.w, d.who ? pcols : d.buckets ? bcols : cols,
	    d.who ? NCOLS(pcols) : d.buckets ? NCOLS(bcols) : NCOLS(cols),
	    "dlat");
	start(&d);
	run(&d);
	ds_blklat_close(&d.b);
	ds_writer_free(&d.w);
	ds_buf_free(&d.out);
	ds_devsel_free(&d.sel);
	free(d.disk);
	tool_exit(0);
}
