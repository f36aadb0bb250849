/*
 * dlat -t: a row per slow request as it completes, from the ring
 * buffer its programs fill, with the events missed since the last row.
 */
#include <time.h>

#include "dlat.h"

#define COL(name, type) { name, type, DS_P_NONE, NULL, NULL, 0, 0, 0 }

static const struct ds_col scols[] = {
	COL("time", DS_T_TIME),
	COL("device", DS_T_STR),
	COL("op", DS_T_STR),
	COL("sector", DS_T_U64),
	COL("bytes", DS_T_U64),
	COL("pid", DS_T_U64),
	COL("comm", DS_T_STR),
	COL("cgroup", DS_T_STR),
	COL("q2d_us", DS_T_F2),
	COL("d2c_us", DS_T_F2),
	COL("q2c_us", DS_T_F2),
	COL("missed", DS_T_U64),
};

void
dlat_slow_writer_open(struct dl *d)
{
	tool_writer_open(&d->t, &d->w, scols, sizeof(scols) / sizeof(scols[0]),
	    "dlat");
}

/* The events missed since the last said (read before the rows). */
static uint64_t
missed_new(struct dl *d)
{
	uint64_t m[DS_MISS_N], total = 0;
	size_t i;
	int e;

	if ((e = ds_blklat_missed(&d->b, m)) < 0)
		tool_errc(1, e, "reading the maps");
	for (i = 0; i < DS_MISS_N; i++)
		total += m[i];
	if (total <= d->seen)
		return 0;
	total -= d->seen;
	d->seen += total;
	return total;
}

static void
dur(struct ds_writer *w, uint64_t ns)
{
	if (ns == DS_BLKSLOW_NONE)
		ds_w_null(w);
	else
		ds_w_f(w, (double)ns / 1000);
}

/* The wall clock of a CLOCK_MONOTONIC time (the programs' ktime). */
static uint64_t
wall(uint64_t mono)
{
	struct timespec ts;
	uint64_t now;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	return ds_realtime_ns() - (now > mono ? now - mono : 0);
}

struct batch {
	struct dl *d;
	uint64_t missed;	/* for the batch's first row */
};

static int
row(void *arg, const struct ds_blkslow *s)
{
	struct batch *bt = arg;
	struct dl *d = bt->d;
	char cg[32];
	const char *op = ds_blk_op_name(s->op);

	ds_w_time(&d->w, wall(s->ns));
	ds_w_str(&d->w, dlat_disk_name(d, s->dev));
	ds_w_str(&d->w, op != NULL ? op : "-");
	/* A flush logs no sector: (sector_t)-1. */
	if (s->sector == UINT64_MAX)
		ds_w_null(&d->w);
	else
		ds_w_u64(&d->w, s->sector);
	ds_w_u64(&d->w, s->bytes);
	if (s->who) {
		ds_w_u64(&d->w, s->pid);
		ds_w_str(&d->w, s->comm);
		ds_w_str(&d->w, dlat_cg_name(d, s->cg, cg, sizeof(cg)));
	} else {
		ds_w_null(&d->w);
		ds_w_null(&d->w);
		ds_w_null(&d->w);
	}
	dur(&d->w, s->q2d_ns);
	dur(&d->w, s->d2c_ns);
	dur(&d->w, s->q2c_ns);
	ds_w_u64(&d->w, bt->missed);
	bt->missed = 0;
	ds_w_row_end(&d->w);
	return 0;
}

/* A row of the missed events alone, when no slow row carried them. */
static void
missed_row(struct dl *d, uint64_t n)
{
	size_t i;

	ds_w_time(&d->w, ds_realtime_ns());
	for (i = 1; i < sizeof(scols) / sizeof(scols[0]) - 1; i++)
		ds_w_null(&d->w);
	ds_w_u64(&d->w, n);
	ds_w_row_end(&d->w);
}

/* The rows waiting, the missed events first counted; 1 if any row. */
static int
drain(struct dl *d)
{
	struct batch bt = { d, missed_new(d) };
	int n;

	if ((n = ds_blkslow_read(&d->b, row, &bt)) < 0)
		tool_errc(1, n, "reading the ring buffer");
	if (bt.missed > 0)
		missed_row(d, bt.missed);
	/* Each row as it comes, but a table is aligned at the report's end. */
	if (n > 0 && d->t.outfile == NULL && d->t.fmt != DS_FMT_TABLE &&
	    (fflush(stdout) == EOF || ferror(stdout)))
		err(1, "write error");
	return n > 0;
}

/*
 * The completions never seen (lost_completion), which the kernel can
 * skip without counting: known only when the disks are idle, so at
 * each report's end, as a row of their own.  With last, in table mode
 * the run's missed events by reason (as without -t).
 */
static void
lost(struct dl *d, int last)
{
	struct ds_blklat_snap s;
	uint64_t n;

	memset(&s, 0, sizeof(s));
	dlat_take(d, NULL, &s);
	if (s.miss[DS_MISS_LOST] > d->lost) {
		n = s.miss[DS_MISS_LOST] - d->lost;
		d->lost = s.miss[DS_MISS_LOST];
		if (!last)
			missed_row(d, n);
	}
	if (last)
		dlat_say_missed(d, &s);
	ds_blklat_snap_free(&s);
}

/*
 * Until the interval's end (or SIGINT), rows as they come, the issue
 * map tended on the way; each interval a report (with -w, a file).
 */
void
dlat_slow_run(struct dl *d)
{
	uint64_t deadline, now, step, reports = 0;
	int e;

	deadline = ds_boottime_ns() + d->t.interval_ns;
	tool_report_begin(&d->t, &d->w);
	while (!tool_stop) {
		now = ds_boottime_ns();
		if (d->t.has_interval && now >= deadline) {
			drain(d);
			lost(d, 0);
			tool_report_end(&d->t, &d->w);
			if (d->t.count != 0 && ++reports >= d->t.count) {
				lost(d, 1);
				return;
			}
			deadline += d->t.interval_ns;
			if (deadline <= now)
				deadline = now + d->t.interval_ns;
			tool_report_begin(&d->t, &d->w);
			continue;
		}
		step = 1000000000u;
		if (d->t.has_interval && deadline - now < step)
			step = deadline - now;
		if ((e = ds_blkslow_wait(&d->b, step)) < 0 && e != -EINTR)
			tool_errc(1, e, "waiting on the ring buffer");
		drain(d);
		if ((e = ds_blklat_tend(&d->b)) < 0)
			tool_errc(1, e, "reading the maps");
	}
	drain(d);
	lost(d, 0);
	tool_report_end(&d->t, &d->w);
	lost(d, 1);
}
