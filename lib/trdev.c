/*
 * The judgement's device rules: each disk's state (saturated, plateau,
 * slow, at-limit, queue-long, sync-writes, busy or device-ok) from its
 * figures, its queue and its quiet-time baseline; its settings; its
 * I/O errors.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "triage.h"

#define PIN_FRAC	0.75	/* samples at the limit: "most of the window" */
#define PIN_MIN_SAMPLES	5	/* fewer samples say nothing of "most" */
#define Q2C_RATIO	1.5	/* q2c mean against d2c mean: a wait */
#define Q2C_MIN_US	500.0	/* and at least this much above it */
#define LAT_MIN_COUNT	50	/* requests the tracing must have timed */
#define WAITERS_RATIO	1.5	/* tasks waiting against slots */

#define LAT_RATIO	1.5	/* await against quiet-time await: high */
#define SLOW_RATIO	3.0	/* the device itself slower */
#define AQU_RATIO	2.0	/* queue against quiet-time queue: longer */
#define AQU_LONG	2.0	/* a queue longer than one request */
#define UTIL_BUSY	90.0	/* %util: never idle */

#define SYNC_MIN_WS	5.0	/* w/s of a commit pattern */
#define SYNC_MAX_AQU	1.5	/* a queue of one, flushes counted once */
#define SYNC_MAX_MERGE	5.0	/* %wrqm: records not joined */
#define SYNC_FLUSH	0.4	/* flushes per write */
#define SYNC_MAX_KB	64.0	/* wareq-sz of a record */
#define SYNC_MAX_AWAIT	20.0	/* ms, without a baseline */
#define SYNC_SIZE_RATIO	3.0	/* write call against request size */

#define MERGE_MAX_KB	32.0	/* small requests merging would join */
#define MERGE_MIN_IOPS	100.0	/* and many of them */

#define CEIL_FRAC	0.95	/* throughput at the history's ceiling */
#define CEIL_MIN_N	3	/* intervals that show the ceiling */

#define TAG_LOOKS	0.50	/* looks with a thread waiting for a slot */

uint64_t
ds_tr_limit(const struct ds_tr_dev *d)
{
	uint64_t lim = 0;

	if (d->nr_requests > 0)
		lim = d->nr_requests * (d->nr_hw_queues > 0 ?
		    d->nr_hw_queues : 1);
	if (d->queue_depth > 0 && (lim == 0 || d->queue_depth < lim))
		lim = d->queue_depth;
	return lim;
}

/* A device's state findings, the one that matters most first. */
const char *const ds_tr_dev_order[DS_TR_NDEV] = { "saturated",
    "plateau", "slow", "at-limit", "queue-long", "sync-writes", "busy" };

/* What the in_flight samples say against the limit. */
struct inflight {
	size_t n, at;		/* samples, of them at the limit */
	uint32_t min, max;
	double mean;
};

static void
inflight_sum(const struct ds_tr_dev *d, uint64_t lim, struct inflight *s)
{
	double sum = 0;
	size_t i;

	memset(s, 0, sizeof(*s));
	s->n = d->ninflight;
	for (i = 0; i < d->ninflight; i++) {
		uint32_t v = d->inflight[i];

		if (i == 0 || v < s->min)
			s->min = v;
		if (v > s->max)
			s->max = v;
		if (lim > 0 && v >= lim)
			s->at++;
		sum += v;
	}
	if (s->n > 0)
		s->mean = sum / (double)s->n;
}

static int
pinned(const struct inflight *s)
{
	return s->n >= PIN_MIN_SAMPLES &&
	    (double)s->at >= PIN_FRAC * (double)s->n;
}

/* What one device's figures amount to, before any row is written. */
struct devjudge {
	uint64_t lim;
	struct inflight fl;
	int pinned;
	int dlat_wait;		/* 1 waits, 0 shown not to, -1 unknown */
	double waiters;		/* sum of %iodelay as tasks, -1 unknown */
	int dir;		/* direction of the latency rule: 0 r, 1 w */
	double await, qawait;	/* ms: window, quiet time */
	int lat_high, lat_slow, queue_high, have_base;
	int tagwait;		/* threads waited for a request slot */
	size_t tag, tag_wrk, tag_looks, looks;
	int failing;		/* the kernel logged I/O errors for it */
};

static int
dlat_wait(const struct ds_tr_dev *d)
{
	const struct ds_tr_lat *l = d->lat;

	if (l == NULL || l->count < LAT_MIN_COUNT)
		return -1;
	return l->q2c_mean >= Q2C_RATIO * l->d2c_mean &&
	    l->q2c_mean - l->d2c_mean >= Q2C_MIN_US;
}

static double
waiters(const struct ds_triage_in *in)
{
	double sum = 0;
	size_t i;

	if (in->delayacct != 1)
		return -1;
	for (i = 0; i < in->nproc; i++)
		if (in->proc[i].rate.have & (1u << DS_WR_DELAY))
			sum += in->proc[i].rate.v[DS_WR_DELAY];
	return sum;
}

/* The latency rule against the baseline, for the direction it can use. */
static void
against_base(const struct ds_triage_in *in, const struct ds_tr_dev *d,
    struct devjudge *j)
{
	const struct ds_base_dev *b = d->base;
	const struct ds_xstat *x = &d->x;
	int k;

	if (b == NULL)
		return;
	for (k = 0; k < 2; k++) {
		size_t quiet = k == 0 ? b->quiet_r : b->quiet_w;
		double qa = k == 0 ? b->r_await : b->w_await;
		double rate = xv(x, k == 0 ? DS_X_RS : DS_X_WS);
		double aw = xv(x, k == 0 ? DS_X_RAWAIT : DS_X_WAWAIT);

		if (quiet < DS_BASE_MIN_QUIET || qa <= 0 ||
		    rate * in->window_s < DS_BASE_MIN_IOS)
			continue;
		/* The direction that is furthest above its quiet time. */
		if (j->have_base && aw / qa <= j->await / j->qawait)
			continue;
		j->have_base = 1;
		j->dir = k;
		j->await = aw;
		j->qawait = qa;
	}
	if (!j->have_base)
		return;
	j->queue_high = xv(x, DS_X_AQUSZ) >= AQU_LONG &&
	    xv(x, DS_X_AQUSZ) >= AQU_RATIO * b->aqu;
	j->lat_high = j->await >= LAT_RATIO * j->qawait;
	j->lat_slow = j->await >= SLOW_RATIO * j->qawait;
}

static const struct ds_tr_err *
err_of(const struct ds_triage_in *in, const char *disk)
{
	size_t i;

	for (i = 0; i < in->nerr; i++)
		if (strcmp(in->err[i].disk, disk) == 0 &&
		    (in->err[i].count > 0 || in->err[i].scsi_ioerr > 0 ||
		    in->err[i].scsi_iotmo > 0))
			return &in->err[i];
	return NULL;
}

static void
judge(const struct ds_triage_in *in, const struct ds_tr_dev *d,
    struct devjudge *j)
{
	struct stalls st;

	memset(j, 0, sizeof(*j));
	j->lim = ds_tr_limit(d);
	inflight_sum(d, j->lim, &j->fl);
	j->pinned = j->lim > 0 && pinned(&j->fl);
	j->dlat_wait = dlat_wait(d);
	j->waiters = waiters(in);
	against_base(in, d, j);
	ds_tr_stalls_sum(in, &st);
	j->tag = st.tag;
	j->tag_wrk = st.tag_wrk;
	j->tag_looks = st.tag_looks;
	j->looks = in->nlooks;
	j->tagwait = st.tag_looks > 0 &&
	    (double)st.tag_looks >= TAG_LOOKS * (double)in->nlooks;
	j->failing = err_of(in, d->name) != NULL;
}

static int
did_io(const struct ds_tr_dev *d)
{
	return d->x.completed > 0;
}

static const char *
aw_name(int dir)
{
	return dir == 0 ? "r_await" : "w_await";
}

/* The evidence of rule (a): the limit and the wait before dispatch. */
static void
ev_limit(char *e, size_t size, const struct ds_tr_dev *d,
    const struct devjudge *j)
{
	ds_tr_say(e, size, "in_flight at the limit of %llu (nr_requests %llu x "
	    "%llu queues%s) in %zu of %zu samples", (unsigned long long)j->lim,
	    (unsigned long long)d->nr_requests,
	    (unsigned long long)(d->nr_hw_queues ? d->nr_hw_queues : 1),
	    d->queue_depth ? ", or queue_depth" : "", j->fl.at, j->fl.n);
	if (j->dlat_wait == 1)
		ds_tr_more(e, size, "; q2c %.1f ms against d2c %.1f ms: "
		    "requests wait %.1f ms for a slot, which iostat cannot "
		    "show", d->lat->q2c_mean / 1000, d->lat->d2c_mean / 1000,
		    (d->lat->q2c_mean - d->lat->d2c_mean) / 1000);
	else if (j->tagwait) {
		ds_tr_more(e, size, "; %.1f threads blocked waiting for a "
		    "request slot (blk_mq_get_tag) in %zu of %zu looks: "
		    "requests wait for a slot", (double)j->tag /
		    (double)j->looks, j->tag_looks, j->looks);
		/*
		 * A bio that sleeps for a tag keeps its queue time, so q2c
		 * holds the wait; io_uring's retry from a worker does not.
		 */
		if (d->lat != NULL && 2 * j->tag_wrk < j->tag &&
		    d->lat->q2c_mean - d->lat->d2c_mean >= Q2C_MIN_US)
			ds_tr_more(e, size, "; q2c %.1f ms against d2c %.1f ms "
			    "shows %.1f ms of it", d->lat->q2c_mean / 1000,
			    d->lat->d2c_mean / 1000, (d->lat->q2c_mean -
			    d->lat->d2c_mean) / 1000);
		else if (d->lat != NULL && 2 * j->tag_wrk >= j->tag)
			ds_tr_more(e, size, " that dlat's q2c (%.1f ms against "
			    "d2c %.1f ms) cannot see: a submission retried "
			    "after finding no slot (io_uring's) is timed from "
			    "its retry", d->lat->q2c_mean / 1000,
			    d->lat->d2c_mean / 1000);
	} else if (j->waiters >= WAITERS_RATIO * (double)j->lim)
		ds_tr_more(e, size, "; %.1f tasks waiting on I/O for %llu "
		    "slots: the rest wait before dispatch (aqu-sz %.1f counts "
		    "only the slots)", j->waiters, (unsigned long long)j->lim,
		    xv(&d->x, DS_X_AQUSZ));
	else if (j->waiters >= 0)
		ds_tr_more(e, size,
		    "; %.1f tasks waiting on I/O for %llu slots", j->waiters,
		    (unsigned long long)j->lim);
}

static int
row_saturated(const struct ds_triage_in *in, const struct ds_tr_dev *d,
    const struct devjudge *j, int by_limit, struct ds_findings *out)
{
	struct ds_finding *f;
	enum ds_tr_sev s = io_some(in) >= PSI_WARN ? DS_TR_CRIT : DS_TR_WARN;
	double lat;

	if (by_limit)
		/* q2c holds the wait for a slot where it shows any of it. */
		lat = j->dlat_wait == 1 || (j->dlat_wait == 0 &&
		    d->lat->q2c_mean - d->lat->d2c_mean >= Q2C_MIN_US) ?
		    d->lat->q2c_mean / 1e6 :
		    xv(&d->x, has(&d->x, DS_X_RS) && xv(&d->x, DS_X_RS) >=
		    xv(&d->x, DS_X_WS) ? DS_X_RAWAIT : DS_X_WAWAIT) / 1e3;
	else
		lat = j->await / 1e3;
	if ((f = ds_tr_add(out, s, "saturated", d->name, lat, "s")) == NULL)
		return -ENOMEM;
	if (by_limit) {
		ds_tr_say(f->evidence, sizeof(f->evidence),
		    "at the request limit: ");
		ev_limit(f->evidence + strlen(f->evidence),
		    sizeof(f->evidence) - strlen(f->evidence), d, j);
		ds_tr_say(f->next, sizeof(f->next), "dlat 5 1 %s", d->name);
	} else {
		ds_tr_say(f->evidence, sizeof(f->evidence), "by latency: %s "
		    "%.1f ms against %.1f ms quiet-time (%zu quiet intervals), "
		    "aqu-sz %.1f against %.1f quiet", aw_name(j->dir), j->await,
		    j->qawait, j->dir == 0 ? d->base->quiet_r :
		    d->base->quiet_w, xv(&d->x, DS_X_AQUSZ), d->base->aqu);
		ds_tr_say(f->next, sizeof(f->next), "dxstat -y 1 5 %s",
		    d->name);
	}
	return 0;
}

static int
row_queue(const struct ds_triage_in *in, const struct ds_tr_dev *d,
    const struct devjudge *j, struct ds_findings *out)
{
	struct ds_finding *f;
	enum ds_tr_sev s = held_up(in) ? DS_TR_WARN : DS_TR_INFO;
	double aqu = xv(&d->x, DS_X_AQUSZ);
	char fl[64] = "";

	if (j->pinned) {
		if ((f = ds_tr_add(out, s, "at-limit", d->name, (double)j->lim,
		    "count")) == NULL)
			return -ENOMEM;
		ev_limit(f->evidence, sizeof(f->evidence), d, j);
		ds_tr_more(f->evidence, sizeof(f->evidence), "; whether "
		    "requests wait for a slot needs dlat's q2c");
		ds_tr_say(f->next, sizeof(f->next), "dlat 5 1 %s", d->name);
		return 0;
	}
	if ((f = ds_tr_add(out, s, "queue-long", d->name, aqu,
	    "count")) == NULL)
		return -ENOMEM;
	/* No ticks (a pair of captures): no in_flight to average. */
	if (j->fl.n > 0)
		snprintf(fl, sizeof(fl), "; in_flight %.1f on average",
		    j->fl.mean);
	ds_tr_say(f->evidence, sizeof(f->evidence), "a queue of %.1f "
	    "(aqu-sz%s) with %s %.1f ms; the device's parallelism is "
	    "unknown: no quiet-time baseline%s%s, so this is not called "
	    "saturation", aqu, fl,
	    xv(&d->x, DS_X_RS) >= xv(&d->x, DS_X_WS) ? "r_await" : "w_await",
	    xv(&d->x, xv(&d->x, DS_X_RS) >= xv(&d->x, DS_X_WS) ?
	    DS_X_RAWAIT : DS_X_WAWAIT), in->base_dir ? " in " : "",
	    in->base_dir ? in->base_dir : "");
	ds_tr_say(f->next, sizeof(f->next),
	    "dxstat -s -w %s/$(date +%%a-%%H%%M).snap", in->base_dir ?
	    in->base_dir : DS_BASE_DIR);
	return 0;
}

static int
row_busy(const struct ds_tr_dev *d, const struct devjudge *j,
    struct ds_findings *out)
{
	struct ds_finding *f;
	double util = xv(&d->x, DS_X_UTIL), aqu = xv(&d->x, DS_X_AQUSZ);

	if ((f = ds_tr_add(out, DS_TR_INFO, "busy", d->name, util / 100,
	    "ratio")) == NULL)
		return -ENOMEM;
	if (j->pinned && j->dlat_wait == 0)
		ds_tr_say(f->evidence, sizeof(f->evidence), "busy, not "
		    "saturated: in_flight at the limit of %llu in %zu of %zu "
		    "samples, but dlat shows no wait before dispatch (q2c %.1f "
		    "ms, d2c %.1f ms)", (unsigned long long)j->lim, j->fl.at,
		    j->fl.n, d->lat->q2c_mean / 1000, d->lat->d2c_mean / 1000);
	else if (aqu >= AQU_LONG && j->have_base && !j->lat_high)
		ds_tr_say(f->evidence, sizeof(f->evidence), "busy, not "
		    "saturated: aqu-sz %.1f served at %s %.1f ms against %.1f "
		    "ms quiet-time (under 1.5x): the device works on them in "
		    "parallel", aqu, aw_name(j->dir), j->await, j->qawait);
	else if (aqu >= AQU_LONG && j->have_base)
		ds_tr_say(f->evidence, sizeof(f->evidence), "busy, not shown "
		    "saturated: %s %.1f ms against %.1f ms quiet-time, but "
		    "aqu-sz %.1f is not twice its quiet %.1f", aw_name(j->dir),
		    j->await, j->qawait, aqu, d->base->aqu);
	else
		ds_tr_say(f->evidence, sizeof(f->evidence), "busy, not "
		    "saturated: %%util %.1f with aqu-sz %.1f: never idle, "
		    "about %s at a time; %%util cannot show capacity", util,
		    aqu, aqu < 1.5 ? "one request" : "one or two requests");
	ds_tr_say(f->next, sizeof(f->next), "dxstat -y 1 5 %s", d->name);
	return 0;
}

static int
row_slow(const struct ds_tr_dev *d, const struct devjudge *j,
    struct ds_findings *out)
{
	struct ds_finding *f;

	if ((f = ds_tr_add(out, DS_TR_WARN, "slow", d->name, j->await / 1e3,
	    "s")) == NULL)
		return -ENOMEM;
	ds_tr_say(f->evidence, sizeof(f->evidence), "%s %.1f ms against %.1f "
	    "ms quiet-time while aqu-sz %.1f is not twice its quiet %.1f: the "
	    "device itself is slower (media, a throttled or shared volume)",
	    aw_name(j->dir), j->await, j->qawait, xv(&d->x, DS_X_AQUSZ),
	    d->base->aqu);
	ds_tr_say(f->next, sizeof(f->next), "dlat 5 1 %s", d->name);
	return 0;
}

/* The process whose write syscalls look like the device's requests. */
static const struct ds_tr_proc *
sync_writer(const struct ds_triage_in *in, double kb)
{
	const struct ds_tr_proc *best = NULL;
	size_t i;

	for (i = 0; i < in->nproc; i++) {
		const struct ds_who_rate *r = &in->proc[i].rate;
		double sz;

		if (!(r->have & (1u << DS_WR_WCHAR)) ||
		    !(r->have & (1u << DS_WR_SYSCW)) ||
		    r->v[DS_WR_SYSCW] <= 0 ||
		    !(r->have & (1u << DS_WR_WRITE)) || r->v[DS_WR_WRITE] <= 0)
			continue;
		sz = r->v[DS_WR_WCHAR] / r->v[DS_WR_SYSCW] / 1024;
		if (sz <= 0 || sz > kb * SYNC_SIZE_RATIO ||
		    sz * SYNC_SIZE_RATIO < kb)
			continue;
		if (best == NULL || r->v[DS_WR_WRITE] >
		    best->rate.v[DS_WR_WRITE])
			best = &in->proc[i];
	}
	return best;
}

/*
 * The queue without the flushes counted twice: a flush is carried out
 * for a write that is in flight all the while (the empty write with
 * REQ_PREFLUSH of fsync, or the data write that asked for it), so each
 * flush's time is in aqu-sz twice, once as the write and once as the
 * flush.  ext4's fdatasync per record, one request at a time, shows
 * aqu-sz 1.5 (a write, then the empty write and its flush together)
 * with a queue of one: f/s x f_await is the part counted twice.
 */
static double
sync_queue(const struct ds_xstat *x)
{
	double q = xv(x, DS_X_AQUSZ);

	if (has(x, DS_X_FAWAIT) && xv(x, DS_X_FS) > 0 &&
	    xv(x, DS_X_FAWAIT) > 0)
		q -= xv(x, DS_X_FS) * xv(x, DS_X_FAWAIT) / 1e3;
	return q < 0 ? 0 : q;
}

static int
sync_pattern(const struct ds_tr_dev *d)
{
	const struct ds_xstat *x = &d->x;
	double ws = xv(x, DS_X_WS), lim;

	if (ws < SYNC_MIN_WS || !has(x, DS_X_FS) || !has(x, DS_X_AQUSZ) ||
	    !has(x, DS_X_WRQM_PCT))
		return 0;
	lim = d->base != NULL && d->base->quiet_w >= DS_BASE_MIN_QUIET &&
	    d->base->w_await > 0 ? 2 * d->base->w_await : SYNC_MAX_AWAIT;
	return sync_queue(x) <= SYNC_MAX_AQU &&
	    xv(x, DS_X_WRQM_PCT) < SYNC_MAX_MERGE &&
	    xv(x, DS_X_FS) >= SYNC_FLUSH * ws &&
	    xv(x, DS_X_WAREQSZ) <= SYNC_MAX_KB && xv(x, DS_X_WAWAIT) <= lim;
}

static int
row_sync(const struct ds_tr_dev *d, const struct ds_tr_proc *p,
    struct ds_findings *out)
{
	const struct ds_xstat *x = &d->x;
	struct ds_finding *f;

	if ((f = ds_tr_add(out, DS_TR_INFO, "sync-writes", d->name,
	    xv(x, DS_X_WS), "count")) == NULL)
		return -ENOMEM;
	ds_tr_say(f->evidence, sizeof(f->evidence), "healthy device, "
	    "application commit pattern: %.1f w/s of %.1f KiB, aqu-sz %.2f "
	    "(%.2f without the flushes counted twice), %.1f%% merged, %.1f "
	    "flushes/s, w_await %.2f ms", xv(x, DS_X_WS), xv(x, DS_X_WAREQSZ),
	    xv(x, DS_X_AQUSZ), sync_queue(x), xv(x, DS_X_WRQM_PCT),
	    xv(x, DS_X_FS), xv(x, DS_X_WAWAIT));
	if (p != NULL)
		ds_tr_more(f->evidence, sizeof(f->evidence), "; writer %d %s "
		    "writes %.1f KiB per call: an fsync or O_DSYNC per record; "
		    "batch records per commit", p->pid, p->comm ? p->comm : "?",
		    p->rate.v[DS_WR_WCHAR] / p->rate.v[DS_WR_SYSCW] / 1024);
	else
		ds_tr_more(f->evidence, sizeof(f->evidence), "; a commit "
		    "(fsync, O_DSYNC) per record: batch records per commit");
	ds_tr_say(f->next, sizeof(f->next), "dwho -s kB_wr/s -n 10 5 1");
	return 0;
}

static int
row_ok(const struct ds_tr_dev *d, struct ds_findings *out)
{
	const struct ds_xstat *x = &d->x;
	struct ds_finding *f;

	if ((f = ds_tr_add(out, DS_TR_OK, "device-ok", d->name,
	    xv(x, DS_X_UTIL) / 100, "ratio")) == NULL)
		return -ENOMEM;
	ds_tr_say(f->evidence, sizeof(f->evidence),
	    "%.1f r/s, %.1f w/s, aqu-sz %.2f, %%util %.1f", xv(x, DS_X_RS),
	    xv(x, DS_X_WS), xv(x, DS_X_AQUSZ), xv(x, DS_X_UTIL));
	ds_tr_say(f->next, sizeof(f->next), "dxstat -y 1 5 %s", d->name);
	return 0;
}

/* The device's state: one row of saturated .. device-ok. */
static int
dev_state(const struct ds_triage_in *in, const struct ds_tr_dev *d,
    const struct devjudge *j, size_t npinned, struct ds_findings *out)
{
	double aqu = xv(&d->x, DS_X_AQUSZ);
	int hidden = j->dlat_wait == 1 || (j->tagwait && npinned == 1) ||
	    (j->dlat_wait < 0 && npinned == 1 &&
	    j->waiters >= WAITERS_RATIO * (double)j->lim);

	if (j->pinned && hidden)
		return row_saturated(in, d, j, 1, out);
	if (j->have_base && j->lat_high && j->queue_high)
		return row_saturated(in, d, j, 0, out);
	if (sync_pattern(d)) {
		const struct ds_tr_proc *p = sync_writer(in,
		    xv(&d->x, DS_X_WAREQSZ));

		if (p != NULL || in->nproc == 0)
			return row_sync(d, p, out);
	}
	/* A disk that fails requests is failing (io-errors), not slow. */
	if (j->have_base && j->lat_slow && !j->failing)
		return row_slow(d, j, out);
	/* Pinned, but tracing shows nothing waits for a slot: only busy. */
	if (j->pinned && j->dlat_wait == 0)
		return row_busy(d, j, out);
	if (j->pinned || (aqu >= AQU_LONG && !j->have_base))
		return row_queue(in, d, j, out);
	if (xv(&d->x, DS_X_UTIL) >= UTIL_BUSY || (aqu >= AQU_LONG) ||
	    j->pinned)
		return row_busy(d, j, out);
	return row_ok(d, out);
}

static int
row_settings(const struct ds_tr_dev *d, struct ds_findings *out)
{
	const struct ds_xstat *x = &d->x;
	double aqu = xv(x, DS_X_AQUSZ);
	struct ds_finding *f;
	int small_w = xv(x, DS_X_WS) >= MERGE_MIN_IOPS &&
	    xv(x, DS_X_WAREQSZ) <= MERGE_MAX_KB;
	int small_r = xv(x, DS_X_RS) >= MERGE_MIN_IOPS &&
	    xv(x, DS_X_RAREQSZ) <= MERGE_MAX_KB;

	if (d->nomerges > 0 && aqu >= AQU_LONG && (small_w || small_r)) {
		if ((f = ds_tr_add(out, DS_TR_WARN, "merges-off", d->name,
		    (double)d->nomerges, "count")) == NULL)
			return -ENOMEM;
		ds_tr_say(f->evidence, sizeof(f->evidence), "nomerges %d while "
		    "%.1f requests queue: %.1f w/s of %.1f KiB (%.1f%% "
		    "merged), %.1f r/s of %.1f KiB (%.1f%% merged); sequential "
		    "neighbours are not joined", d->nomerges, aqu,
		    xv(x, DS_X_WS), xv(x, DS_X_WAREQSZ), xv(x, DS_X_WRQM_PCT),
		    xv(x, DS_X_RS), xv(x, DS_X_RAREQSZ), xv(x, DS_X_RRQM_PCT));
		ds_tr_say(f->next, sizeof(f->next), "dqueue %s", d->name);
	}
	if (d->rotational == 1 && d->sched != NULL &&
	    strcmp(d->sched, "none") == 0) {
		if ((f = ds_tr_add(out, aqu >= AQU_LONG ? DS_TR_WARN :
		    DS_TR_INFO, "rotational-none", d->name, aqu,
		    "count")) == NULL)
			return -ENOMEM;
		ds_tr_say(f->evidence, sizeof(f->evidence), "rotational 1 with "
		    "scheduler none: %.1f queued requests go to a seeking disk "
		    "unsorted (or the disk is virtual and says rotational "
		    "wrongly)", aqu);
		ds_tr_say(f->next, sizeof(f->next), "dqueue %s", d->name);
	}
	return 0;
}

static int
row_plateau(const struct ds_tr_dev *d, struct ds_findings *out)
{
	const struct ds_base_dev *b = d->base;
	const struct ds_xstat *x = &d->x;
	double iops = xv(x, DS_X_RS) + xv(x, DS_X_WS) + xv(x, DS_X_DS);
	double kbs = xv(x, DS_X_RKBS) + xv(x, DS_X_WKBS);
	struct ds_finding *f;
	int by_iops;

	if (d->virt != 1 || b == NULL || b->ceil_n < CEIL_MIN_N ||
	    b->ceil_aqu_max < AQU_RATIO * b->ceil_aqu_min ||
	    xv(x, DS_X_AQUSZ) < AQU_LONG ||
	    xv(x, DS_X_AQUSZ) < AQU_RATIO * b->aqu)
		return 0;
	by_iops = b->iops_ceil > 0 && iops >= CEIL_FRAC * b->iops_ceil;
	if (!by_iops && !(b->kbs_ceil > 0 && kbs >= CEIL_FRAC * b->kbs_ceil))
		return 0;
	if ((f = ds_tr_add(out, DS_TR_WARN, "plateau", d->name,
	    by_iops ? iops : kbs * 1024, by_iops ? "count" :
	    "bytes/s")) == NULL)
		return -ENOMEM;
	ds_tr_say(f->evidence, sizeof(f->evidence), "virtual disk at %.0f %s, "
	    "the ceiling of its history (p95 %.0f), which held at aqu-sz %.1f "
	    "to %.1f: throughput stopped growing with the queue, a provisioned "
	    "cap rather than the device", by_iops ? iops : kbs, by_iops ?
	    "IOPS" : "kB/s", by_iops ? b->iops_ceil : b->kbs_ceil,
	    b->ceil_aqu_min, b->ceil_aqu_max);
	ds_tr_say(f->next, sizeof(f->next), "dxstat -y 1 5 %s", d->name);
	return 0;
}

int
ds_tr_dev_rows(const struct ds_triage_in *in, struct ds_findings *out)
{
	struct devjudge j;
	size_t i, npinned = 0;
	int e;

	for (i = 0; i < in->ndev; i++) {
		judge(in, &in->dev[i], &j);
		npinned += j.pinned ? 1 : 0;
	}
	for (i = 0; i < in->ndev; i++) {
		const struct ds_tr_dev *d = &in->dev[i];

		if (!did_io(d) && d->ninflight == 0)
			continue;
		judge(in, d, &j);
		if (!did_io(d) && !j.pinned)
			continue;
		if ((e = dev_state(in, d, &j, npinned, out)) < 0 ||
		    (e = row_settings(d, out)) < 0 ||
		    (e = row_plateau(d, out)) < 0)
			return e;
	}
	return 0;
}

int
ds_tr_err_rows(const struct ds_triage_in *in, struct ds_findings *out)
{
	struct ds_finding *f;
	size_t i;

	for (i = 0; i < in->nerr; i++) {
		const struct ds_tr_err *e = &in->err[i];

		if (err_of(in, e->disk) != e)
			continue;
		if ((f = ds_tr_add(out, DS_TR_CRIT, "io-errors", e->disk,
		    (double)(e->count > 0 ? e->count : e->scsi_ioerr +
		    e->scsi_iotmo), "count")) == NULL)
			return -ENOMEM;
		if (e->count > 0) {
			ds_tr_say(f->evidence, sizeof(f->evidence), "%llu I/O "
			    "%s in the kernel log in the window (and the 5 s "
			    "before it, the log's rate-limit interval), the "
			    "first '%s'", (unsigned long long)e->count,
			    plural(e->count, "error", "errors"), e->kind ?
			    e->kind : "I/O error");
			if (e->have_sector)
				ds_tr_more(f->evidence, sizeof(f->evidence),
				    " at sector %llu",
				    (unsigned long long)e->sector);
			if (e->op != NULL && *e->op != '\0')
				ds_tr_more(f->evidence, sizeof(f->evidence),
				    " (%s)", e->op);
			if (e->suppressed > 0)
				ds_tr_more(f->evidence, sizeof(f->evidence),
				    "; %llu more messages suppressed by the "
				    "log's rate limit",
				    (unsigned long long)e->suppressed);
		} else
			ds_tr_say(f->evidence, sizeof(f->evidence),
			    "no message in the kernel log");
		if (e->scsi_ioerr > 0 || e->scsi_iotmo > 0)
			ds_tr_more(f->evidence, sizeof(f->evidence), "; SCSI "
			    "ioerr_cnt +%llu, iotmo_cnt +%llu",
			    (unsigned long long)e->scsi_ioerr,
			    (unsigned long long)e->scsi_iotmo);
		ds_tr_more(f->evidence, sizeof(f->evidence), ": the disk fails "
		    "requests; a failing disk is slow as well, so its latency "
		    "says nothing of its load");
		ds_tr_say(f->next, sizeof(f->next), "dxstat -y 1 5 %s",
		    e->disk);
	}
	if (in->err_why != NULL) {
		if ((f = ds_tr_add(out, DS_TR_INFO, "unreadable", "kmsg", NAN,
		    "count")) == NULL)
			return -ENOMEM;
		ds_tr_say(f->evidence, sizeof(f->evidence), "the kernel log "
		    "could not be read (%s): I/O errors were not looked for",
		    in->err_why);
		ds_tr_say(f->next, sizeof(f->next), "dtriage");
	}
	return 0;
}

/* The state a device's row gives it, "device-ok" when it did no I/O. */
const char *
ds_tr_dev_finding(const struct ds_findings *out, const char *disk)
{
	size_t i, k;

	for (i = 0; disk != NULL && i < out->n; i++)
		for (k = 0; k < DS_TR_NDEV; k++)
			if (strcmp(out->f[i].finding,
			    ds_tr_dev_order[k]) == 0 &&
			    strcmp(out->f[i].subject, disk) == 0)
				return ds_tr_dev_order[k];
	return "device-ok";
}
