/*
 * The judgement of one window: pure functions from its figures to
 * finding rows; nothing here reads a file.  The rules and their reasons
 * are dtriage(1)'s FINDINGS; each threshold below says what it is.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define PSI_INFO	5.0	/* io some, % of the window: info */
#define PSI_WARN	10.0	/* a second in ten lost: warn */
#define PSI_CRIT_FULL	20.0	/* full: no task progressed a fifth of it */

#define PIN_FRAC	0.75	/* samples at the limit: "most of the window" */
#define PIN_MIN_SAMPLES	5	/* fewer samples say nothing of "most" */
#define Q2C_RATIO	1.5	/* q2c mean against d2c mean: a wait */
#define Q2C_MIN_US	500.0	/* and at least this much above it */
#define LAT_MIN_COUNT	50	/* requests dlat must have timed */
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

#define LOAD_MIN_BPS	65536.0	/* block I/O worth naming */
#define LOAD_SHARE	0.10	/* of all block I/O */
#define SUFFER_MIN	0.10	/* %iodelay of a sufferer, as io-pressure */
#define CACHE_MIN_BPS	1048576.0	/* syscall reads of a page-cache reader */
#define CACHE_BLOCK	0.10	/* block reads under this share of them */
#define TOP_N		3	/* rows of one kind */

#define BLOCKED_WARN	4.0	/* procs_blocked mean: a pile-up */

#define FS_WARN		0.90	/* use: time to act */
#define FS_CRIT		0.98	/* writes fail or are about to */
#define HELD_MIN	(1u << 20)	/* deleted-open bytes worth a row */
#define HELD_SHARE_INFO	0.01	/* of the filesystem */
#define HELD_SHARE_WARN	0.10

#define URING_IDLE_BPS	4096.0	/* a ring's process moving less: not disk I/O */
#define URING_OTHER	0.10	/* other waits at most this share: io_uring's */
#define TAG_LOOKS	0.50	/* looks with a thread waiting for a slot */
#define LIMIT_FRAC	0.90	/* a rate at 90% of a limit is held by it */
#define COST_WAIT	0.10	/* iocost: waited a tenth of the window */
#define DIRTY_LOOKS	0.25	/* looks with a writer in balance_dirty_pages */
#define THRASH_MIN_BPS	1048576.0	/* refaults a second worth a row */
#define THRASH_USE	0.90	/* usage against the memory limit */
#define THRASH_SHARE	0.10	/* of the disks' reads: warn */
#define THRASH_CAUSE	0.50	/* of the disks' reads: memory is the cause */

#define FS_WARN		0.90
#define FS_CRIT		0.98
#define HELD_MIN	(1u << 20)
#define HELD_SHARE_INFO	0.01
#define HELD_SHARE_WARN	0.10

static const char *const sev_names[] = { "ok", "info", "warn", "crit" };

const char *
ds_tr_sev_name(enum ds_tr_sev s)
{
	return (unsigned)s < 4 ? sev_names[s] : NULL;
}

/* ---- Findings ---------------------------------------------------------- */

static struct ds_finding *
add(struct ds_findings *out, enum ds_tr_sev sev, const char *finding,
    const char *subject, double value, const char *unit)
{
	struct ds_finding *f;

	if (out->n == out->cap) {
		size_t cap = out->cap ? out->cap * 2 : 32;

		if ((f = realloc(out->f, cap * sizeof(*f))) == NULL)
			return NULL;
		out->f = f;
		out->cap = cap;
	}
	f = &out->f[out->n++];
	memset(f, 0, sizeof(*f));
	f->sev = sev;
	f->finding = finding;
	snprintf(f->subject, sizeof(f->subject), "%s", subject);
	f->value = value;
	f->unit = unit;
	if (sev > out->worst)
		out->worst = sev;
	return f;
}

static void
say(char *dst, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
say(char *dst, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(dst, size, fmt, ap);
	va_end(ap);
}

/* Append to dst. */
static void
more(char *dst, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
more(char *dst, size_t size, const char *fmt, ...)
{
	size_t l = strlen(dst);
	va_list ap;

	if (l + 1 >= size)
		return;
	va_start(ap, fmt);
	vsnprintf(dst + l, size - l, fmt, ap);
	va_end(ap);
}

/* Bytes for a person: "40.0 MiB". */
static const char *
human(char *b, size_t size, double v)
{
	static const char *const u[] = { "B", "KiB", "MiB", "GiB", "TiB",
	    "PiB" };
	int i = 0;

	while (v >= 1024 && i < 5) {
		v /= 1024;
		i++;
	}
	if (i == 0)
		snprintf(b, size, "%.0f B", v);
	else
		snprintf(b, size, "%.1f %s", v, u[i]);
	return b;
}

#define HUMAN(v) human((char[24]){ 0 }, 24, (double)(v))

static int
has(const struct ds_xstat *x, int i)
{
	return (x->have >> i) & 1u;
}

static double
xv(const struct ds_xstat *x, int i)
{
	return has(x, i) ? x->v[i] : 0;
}

/* The descriptors dtriage read of pid, or NULL. */
static const struct ds_tr_fds *
fds_of(const struct ds_triage_in *in, int pid)
{
	size_t i;

	for (i = 0; i < in->nfds; i++)
		if (in->fds[i].pid == pid)
			return &in->fds[i];
	return NULL;
}

static const struct ds_tr_proc *
proc_of(const struct ds_triage_in *in, int pid)
{
	size_t i;

	for (i = 0; i < in->nproc; i++)
		if (in->proc[i].pid == pid)
			return &in->proc[i];
	return NULL;
}

static const char *
comm_of(const struct ds_triage_in *in, const struct ds_tr_task *t)
{
	const struct ds_tr_proc *p = proc_of(in, t->pid);

	return p != NULL && p->comm != NULL ? p->comm : t->comm;
}

/* "1 process", "2 processes". */
static const char *
plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* ---- Pressure ---------------------------------------------------------- */

/* What the stalled threads of the window's looks waited on. */
struct stalls {
	size_t looks;		/* looks that found a stalled thread */
	size_t disk;		/* thread-looks on block I/O */
	size_t tag, tag_looks;	/* waiting for a request slot */
	size_t uring, uring_looks;	/* io_uring waits with no disk I/O */
	size_t dirty, dirty_looks;	/* held by the dirty limit */
	size_t netfs, netfs_looks;	/* on a network or FUSE mount */
	const struct ds_tr_task *uring_top, *dirty_top, *netfs_top;
	const struct ds_tr_fds *netfs_fds;
};

static void stalls_sum(const struct ds_triage_in *in, struct stalls *s);
static int uring_only(const struct stalls *s);
static int uring_only_in(const struct ds_triage_in *in);
static const struct ds_tr_err *err_of(const struct ds_triage_in *in,
    const char *disk);
static const struct ds_tr_iolim *limit_on(const struct ds_triage_in *in,
    const char *disk);
static const struct ds_tr_proc *top_of(const struct ds_triage_in *in,
    const int *pids, size_t npids);
static const struct ds_tr_proc *dirtier(const struct ds_triage_in *in);
static double xw(const struct ds_tr_proc *p);

static double
io_some(const struct ds_triage_in *in)
{
	return in->io.have ? in->io.some : -1;
}

/* Something is held up by I/O (or we cannot tell: -1 counts as yes). */
static int
held_up(const struct ds_triage_in *in)
{
	return !in->io.have || in->io.some >= PSI_INFO;
}

static int
psi_rows(const struct ds_triage_in *in, struct ds_findings *out)
{
	struct ds_finding *f;
	enum ds_tr_sev s;

	if (!in->io.have) {
		if ((f = add(out, DS_TR_INFO, "psi-unavailable", "io", NAN,
		    "ratio")) == NULL)
			return -ENOMEM;
		say(f->evidence, sizeof(f->evidence), "PSI cannot be read: "
		    "whether I/O holds tasks up is not known (boot with psi=1)");
		say(f->next, sizeof(f->next), "dpsi -r io 10 1");
	} else {
		int uring = uring_only_in(in);

		s = in->io.full >= PSI_CRIT_FULL ? DS_TR_CRIT :
		    in->io.some >= PSI_WARN ? DS_TR_WARN :
		    in->io.some >= PSI_INFO ? DS_TR_INFO : DS_TR_OK;
		/* io_uring's idle waits are iowait, not a disk's stall. */
		if (uring && s > DS_TR_INFO)
			s = DS_TR_INFO;
		if ((f = add(out, s, "io-pressure", "io", in->io.some / 100,
		    "ratio")) == NULL)
			return -ENOMEM;
		say(f->evidence, sizeof(f->evidence), "some %.1f%%, full %.1f%% "
		    "of the %s%s", in->io.some, in->io.full, in->since_boot ?
		    "last 10 s (avg10: a captured tree)" : "window",
		    uring ? ": tasks waited in io_uring with no block I/O in "
		    "flight, which the kernel counts as I/O; no disk held them" :
		    s == DS_TR_OK ? ": I/O holds nothing up" :
		    ": tasks stalled on I/O");
		say(f->next, sizeof(f->next), "dpsi -r io 10 1");
	}
	if (in->mem.have && in->mem.some >= PSI_INFO) {
		s = in->mem.full >= PSI_CRIT_FULL ? DS_TR_CRIT :
		    in->mem.some >= PSI_WARN ? DS_TR_WARN : DS_TR_INFO;
		if ((f = add(out, s, "memory-pressure", "memory",
		    in->mem.some / 100, "ratio")) == NULL)
			return -ENOMEM;
		say(f->evidence, sizeof(f->evidence), "some %.1f%%, full %.1f%%: "
		    "reclaim and refaults make I/O of their own",
		    in->mem.some, in->mem.full);
		say(f->next, sizeof(f->next), "dpsi -r memory 10 1");
	}
	return 0;
}

/* ---- Devices ----------------------------------------------------------- */

uint64_t
ds_tr_limit(const struct ds_tr_dev *d)
{
	uint64_t lim = 0;

	if (d->nr_requests > 0)
		lim = d->nr_requests * (d->nr_hw_queues > 0 ? d->nr_hw_queues : 1);
	if (d->queue_depth > 0 && (lim == 0 || d->queue_depth < lim))
		lim = d->queue_depth;
	return lim;
}

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
	size_t tag, tag_looks, looks;
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
	stalls_sum(in, &st);
	j->tag = st.tag;
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
	say(e, size, "in_flight at the limit of %llu (nr_requests %llu x %llu "
	    "queues%s) in %zu of %zu samples", (unsigned long long)j->lim,
	    (unsigned long long)d->nr_requests,
	    (unsigned long long)(d->nr_hw_queues ? d->nr_hw_queues : 1),
	    d->queue_depth ? ", or queue_depth" : "", j->fl.at, j->fl.n);
	if (j->dlat_wait == 1)
		more(e, size, "; q2c %.1f ms against d2c %.1f ms: requests wait "
		    "%.1f ms for a slot, which iostat cannot show",
		    d->lat->q2c_mean / 1000, d->lat->d2c_mean / 1000,
		    (d->lat->q2c_mean - d->lat->d2c_mean) / 1000);
	else if (j->tagwait) {
		more(e, size, "; %.1f threads blocked waiting for a request slot "
		    "(blk_mq_get_tag) in %zu of %zu looks: requests wait for a "
		    "slot", (double)j->tag / (double)j->looks, j->tag_looks,
		    j->looks);
		if (d->lat != NULL)
			more(e, size, " that dlat's q2c (%.1f ms against d2c %.1f "
			    "ms) cannot see: a submission retried after finding "
			    "no slot (io_uring's) is timed from its retry",
			    d->lat->q2c_mean / 1000, d->lat->d2c_mean / 1000);
	} else if (j->waiters >= WAITERS_RATIO * (double)j->lim)
		more(e, size, "; %.1f tasks waiting on I/O for %llu slots: the "
		    "rest wait before dispatch (aqu-sz %.1f counts only the "
		    "slots)", j->waiters, (unsigned long long)j->lim,
		    xv(&d->x, DS_X_AQUSZ));
	else if (j->waiters >= 0)
		more(e, size, "; %.1f tasks waiting on I/O for %llu slots",
		    j->waiters, (unsigned long long)j->lim);
}

static int
row_saturated(const struct ds_triage_in *in, const struct ds_tr_dev *d,
    const struct devjudge *j, int by_limit, struct ds_findings *out)
{
	struct ds_finding *f;
	enum ds_tr_sev s = io_some(in) >= PSI_WARN ? DS_TR_CRIT : DS_TR_WARN;
	double lat;

	if (by_limit)
		lat = j->dlat_wait == 1 ? d->lat->q2c_mean / 1e6 :
		    xv(&d->x, has(&d->x, DS_X_RS) && xv(&d->x, DS_X_RS) >=
		    xv(&d->x, DS_X_WS) ? DS_X_RAWAIT : DS_X_WAWAIT) / 1e3;
	else
		lat = j->await / 1e3;
	if ((f = add(out, s, "saturated", d->name, lat, "s")) == NULL)
		return -ENOMEM;
	if (by_limit) {
		say(f->evidence, sizeof(f->evidence), "at the request limit: ");
		ev_limit(f->evidence + strlen(f->evidence),
		    sizeof(f->evidence) - strlen(f->evidence), d, j);
		say(f->next, sizeof(f->next), "dlat 5 1 %s", d->name);
	} else {
		say(f->evidence, sizeof(f->evidence), "by latency: %s %.1f ms "
		    "against %.1f ms quiet-time (%zu quiet intervals), aqu-sz "
		    "%.1f against %.1f quiet", aw_name(j->dir), j->await,
		    j->qawait, j->dir == 0 ? d->base->quiet_r : d->base->quiet_w,
		    xv(&d->x, DS_X_AQUSZ), d->base->aqu);
		say(f->next, sizeof(f->next), "dxstat -y 1 5 %s", d->name);
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

	if (j->pinned) {
		if ((f = add(out, s, "at-limit", d->name, (double)j->lim,
		    "count")) == NULL)
			return -ENOMEM;
		ev_limit(f->evidence, sizeof(f->evidence), d, j);
		more(f->evidence, sizeof(f->evidence), "; whether requests wait "
		    "for a slot needs dlat's q2c");
		say(f->next, sizeof(f->next), "dlat 5 1 %s", d->name);
		return 0;
	}
	if ((f = add(out, s, "queue-long", d->name, aqu, "count")) == NULL)
		return -ENOMEM;
	say(f->evidence, sizeof(f->evidence), "a queue of %.1f (aqu-sz; "
	    "in_flight %.1f on average) with %s %.1f ms; the device's "
	    "parallelism is unknown: no quiet-time baseline%s%s, so this is "
	    "not called saturation", aqu, j->fl.mean,
	    xv(&d->x, DS_X_RS) >= xv(&d->x, DS_X_WS) ? "r_await" : "w_await",
	    xv(&d->x, xv(&d->x, DS_X_RS) >= xv(&d->x, DS_X_WS) ?
	    DS_X_RAWAIT : DS_X_WAWAIT), in->base_dir ? " in " : "",
	    in->base_dir ? in->base_dir : "");
	say(f->next, sizeof(f->next), "dxstat -s -w %s/$(date +%%a-%%H%%M).snap",
	    in->base_dir ? in->base_dir : DS_BASE_DIR);
	return 0;
}

static int
row_busy(const struct ds_tr_dev *d, const struct devjudge *j,
    struct ds_findings *out)
{
	struct ds_finding *f;
	double util = xv(&d->x, DS_X_UTIL), aqu = xv(&d->x, DS_X_AQUSZ);

	if ((f = add(out, DS_TR_INFO, "busy", d->name, util / 100,
	    "ratio")) == NULL)
		return -ENOMEM;
	if (j->pinned && j->dlat_wait == 0)
		say(f->evidence, sizeof(f->evidence), "busy, not saturated: "
		    "in_flight at the limit of %llu in %zu of %zu samples, but "
		    "dlat shows no wait before dispatch (q2c %.1f ms, d2c %.1f "
		    "ms)", (unsigned long long)j->lim, j->fl.at, j->fl.n,
		    d->lat->q2c_mean / 1000, d->lat->d2c_mean / 1000);
	else if (aqu >= AQU_LONG && j->have_base && !j->lat_high)
		say(f->evidence, sizeof(f->evidence), "busy, not saturated: "
		    "aqu-sz %.1f served at %s %.1f ms against %.1f ms "
		    "quiet-time (under 1.5x): the device works on them in "
		    "parallel", aqu, aw_name(j->dir), j->await, j->qawait);
	else if (aqu >= AQU_LONG && j->have_base)
		say(f->evidence, sizeof(f->evidence), "busy, not shown "
		    "saturated: %s %.1f ms against %.1f ms quiet-time, but "
		    "aqu-sz %.1f is not twice its quiet %.1f", aw_name(j->dir),
		    j->await, j->qawait, aqu, d->base->aqu);
	else
		say(f->evidence, sizeof(f->evidence), "busy, not saturated: "
		    "%%util %.1f with aqu-sz %.1f: never idle, about %s "
		    "request at a time; %%util cannot show capacity", util, aqu,
		    aqu < 1.5 ? "one" : "one or two");
	say(f->next, sizeof(f->next), "dxstat -y 1 5 %s", d->name);
	return 0;
}

static int
row_slow(const struct ds_tr_dev *d, const struct devjudge *j,
    struct ds_findings *out)
{
	struct ds_finding *f;

	if ((f = add(out, DS_TR_WARN, "slow", d->name, j->await / 1e3,
	    "s")) == NULL)
		return -ENOMEM;
	say(f->evidence, sizeof(f->evidence), "%s %.1f ms against %.1f ms "
	    "quiet-time while aqu-sz %.1f is not twice its quiet %.1f: the "
	    "device itself is slower (media, a throttled or shared volume)",
	    aw_name(j->dir), j->await, j->qawait, xv(&d->x, DS_X_AQUSZ),
	    d->base->aqu);
	say(f->next, sizeof(f->next), "dlat 5 1 %s", d->name);
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
		    !(r->have & (1u << DS_WR_SYSCW)) || r->v[DS_WR_SYSCW] <= 0 ||
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

	if ((f = add(out, DS_TR_INFO, "sync-writes", d->name, xv(x, DS_X_WS),
	    "count")) == NULL)
		return -ENOMEM;
	say(f->evidence, sizeof(f->evidence), "healthy device, application "
	    "commit pattern: %.1f w/s of %.1f KiB, aqu-sz %.2f (%.2f without "
	    "the flushes counted twice), %.1f%% merged, %.1f flushes/s, "
	    "w_await %.2f ms", xv(x, DS_X_WS), xv(x, DS_X_WAREQSZ),
	    xv(x, DS_X_AQUSZ), sync_queue(x), xv(x, DS_X_WRQM_PCT),
	    xv(x, DS_X_FS), xv(x, DS_X_WAWAIT));
	if (p != NULL)
		more(f->evidence, sizeof(f->evidence), "; writer %d %s writes "
		    "%.1f KiB per call: an fsync or O_DSYNC per record; batch "
		    "records per commit", p->pid, p->comm ? p->comm : "?",
		    p->rate.v[DS_WR_WCHAR] / p->rate.v[DS_WR_SYSCW] / 1024);
	else
		more(f->evidence, sizeof(f->evidence), "; a commit (fsync, "
		    "O_DSYNC) per record: batch records per commit");
	say(f->next, sizeof(f->next), "dwho -s kB_wr/s -n 10 5 1");
	return 0;
}

static int
row_ok(const struct ds_tr_dev *d, struct ds_findings *out)
{
	const struct ds_xstat *x = &d->x;
	struct ds_finding *f;

	if ((f = add(out, DS_TR_OK, "device-ok", d->name,
	    xv(x, DS_X_UTIL) / 100, "ratio")) == NULL)
		return -ENOMEM;
	say(f->evidence, sizeof(f->evidence), "%.1f r/s, %.1f w/s, aqu-sz "
	    "%.2f, %%util %.1f", xv(x, DS_X_RS), xv(x, DS_X_WS),
	    xv(x, DS_X_AQUSZ), xv(x, DS_X_UTIL));
	say(f->next, sizeof(f->next), "dxstat -y 1 5 %s", d->name);
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
	/* Pinned, but dlat shows nothing waits for a slot: only busy. */
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
		if ((f = add(out, DS_TR_WARN, "merges-off", d->name,
		    (double)d->nomerges, "count")) == NULL)
			return -ENOMEM;
		say(f->evidence, sizeof(f->evidence), "nomerges %d while %.1f "
		    "requests queue: %.1f w/s of %.1f KiB (%.1f%% merged), "
		    "%.1f r/s of %.1f KiB (%.1f%% merged); sequential neighbours "
		    "are not joined", d->nomerges, aqu, xv(x, DS_X_WS),
		    xv(x, DS_X_WAREQSZ), xv(x, DS_X_WRQM_PCT), xv(x, DS_X_RS),
		    xv(x, DS_X_RAREQSZ), xv(x, DS_X_RRQM_PCT));
		say(f->next, sizeof(f->next), "dqueue %s", d->name);
	}
	if (d->rotational == 1 && d->sched != NULL &&
	    strcmp(d->sched, "none") == 0) {
		if ((f = add(out, aqu >= AQU_LONG ? DS_TR_WARN : DS_TR_INFO,
		    "rotational-none", d->name, aqu, "count")) == NULL)
			return -ENOMEM;
		say(f->evidence, sizeof(f->evidence), "rotational 1 with "
		    "scheduler none: %.1f queued requests go to a seeking disk "
		    "unsorted (or the disk is virtual and says rotational "
		    "wrongly)", aqu);
		say(f->next, sizeof(f->next), "dqueue %s", d->name);
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
	if ((f = add(out, DS_TR_WARN, "plateau", d->name,
	    by_iops ? iops : kbs * 1024, by_iops ? "count" : "bytes/s")) == NULL)
		return -ENOMEM;
	say(f->evidence, sizeof(f->evidence), "virtual disk at %.0f %s, the "
	    "ceiling of its history (p95 %.0f), which held at aqu-sz %.1f to "
	    "%.1f: throughput stopped growing with the queue, a provisioned "
	    "cap rather than the device", by_iops ? iops : kbs,
	    by_iops ? "IOPS" : "kB/s", by_iops ? b->iops_ceil : b->kbs_ceil,
	    b->ceil_aqu_min, b->ceil_aqu_max);
	say(f->next, sizeof(f->next), "dxstat -y 1 5 %s", d->name);
	return 0;
}

static int
dev_rows(const struct ds_triage_in *in, struct ds_findings *out)
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

/* ---- Processes --------------------------------------------------------- */

static double
block_bps(const struct ds_who_rate *r)
{
	double v = 0;

	if (r->have & (1u << DS_WR_READ))
		v += r->v[DS_WR_READ];
	if (r->have & (1u << DS_WR_WRITE))
		v += r->v[DS_WR_WRITE];
	if (r->have & (1u << DS_WR_CANCELLED))
		v -= r->v[DS_WR_CANCELLED];
	return v > 0 ? v : 0;
}

static double
delay(const struct ds_who_rate *r)
{
	return (r->have & (1u << DS_WR_DELAY)) ? r->v[DS_WR_DELAY] : -1;
}

static double
cache_bps(const struct ds_who_rate *r)
{
	double rc, rd;

	if (!(r->have & (1u << DS_WR_RCHAR)) || !(r->have & (1u << DS_WR_READ)))
		return 0;
	rc = r->v[DS_WR_RCHAR];
	rd = r->v[DS_WR_READ];
	return rc >= CACHE_MIN_BPS && rd < CACHE_BLOCK * rc ? rc : 0;
}

/*
 * The n largest of key over the processes at or above min: indexes into
 * top, largest first, ties by pid.  Returns how many.
 */
static size_t
top(const struct ds_triage_in *in, double (*key)(const struct ds_who_rate *),
    double min, size_t *idx, size_t n)
{
	size_t i, k, m = 0;

	for (i = 0; i < in->nproc; i++) {
		double v = key(&in->proc[i].rate);

		if (!(v >= min) || v <= 0)
			continue;
		for (k = m; k > 0; k--) {
			double w = key(&in->proc[idx[k - 1]].rate);

			if (w > v || (w == v &&
			    in->proc[idx[k - 1]].pid < in->proc[i].pid))
				break;
			if (k < n)
				idx[k] = idx[k - 1];
		}
		if (k < n) {
			idx[k] = i;
			if (m < n)
				m++;
		}
	}
	return m;
}

static void
subject(char *b, size_t size, const struct ds_tr_proc *p)
{
	snprintf(b, size, "%d %s", p->pid, p->comm ? p->comm : "?");
}

static const char *const dev_order[] = { "saturated", "plateau", "slow",
    "at-limit", "queue-long", "sync-writes", "busy" };
#define NDEV_ORDER (sizeof(dev_order) / sizeof(dev_order[0]))

/* How much a device's judgement matters: dev_order's index, lower first. */
static size_t
dev_rank(const struct ds_findings *out, const char *name)
{
	size_t i, k, best = NDEV_ORDER;

	for (i = 0; i < out->n; i++)
		for (k = 0; k < best; k++)
			if (strcmp(out->f[i].finding, dev_order[k]) == 0 &&
			    strcmp(out->f[i].subject, name) == 0)
				best = k;
	return best;
}

/* Disk i's largest submitter, if it is one worth a row. */
static int
dlat_load(const struct ds_triage_in *in, size_t i)
{
	const struct ds_tr_load *l = &in->dev[i].load;

	return l->pid != 0 && in->window_s > 0 &&
	    (double)l->bytes / in->window_s >= LOAD_MIN_BPS;
}

/*
 * A disk's load row from dlat's largest submitter.  A kernel thread
 * there may only carry others' I/O: blk-throttle releases a cgroup's
 * held bios from a worker, the flusher writes what writers dirtied; the
 * row then names those who caused it.
 */
static struct ds_finding *
load_row(const struct ds_triage_in *in, const struct ds_tr_dev *d, double v,
    struct ds_findings *out)
{
	const struct ds_tr_load *l = &d->load;
	const struct ds_tr_proc *kp = proc_of(in, l->pid), *p = NULL;
	const struct ds_tr_iolim *lim = NULL;
	struct ds_finding *f;
	char s[96];
	int kthread = kp != NULL ? kp->kthread : strncmp(l->comm, "kworker",
	    7) == 0;

	if (kthread && (lim = limit_on(in, d->name)) != NULL)
		p = top_of(in, lim->pids, lim->npids);
	else if (kthread)
		p = dirtier(in);
	if (p != NULL)
		snprintf(s, sizeof(s), "%d %s", p->pid, p->comm ? p->comm : "?");
	else
		snprintf(s, sizeof(s), "%d %s", l->pid, l->comm);
	if ((f = add(out, DS_TR_INFO, "load", s, p != NULL ? block_bps(&p->rate) :
	    v, "bytes/s")) == NULL)
		return NULL;
	if (p != NULL && lim != NULL)
		say(f->evidence, sizeof(f->evidence), "on %s: %s/s of block I/O "
		    "from /proc, held at its cgroup %s's limit and released by "
		    "%s, the submitter dlat sees (%.0f%% of the disk's %s/s)",
		    d->name, HUMAN(block_bps(&p->rate)), lim->cgroup, l->comm,
		    l->total > 0 ? (double)l->bytes / (double)l->total * 100 :
		    0, HUMAN((double)l->total / in->window_s));
	else if (p != NULL)
		say(f->evidence, sizeof(f->evidence), "on %s: dirtied %s/s that "
		    "%s, the flusher dlat sees, writes back (%.0f%% of the "
		    "disk's %s/s)", d->name, HUMAN(xw(p)), l->comm,
		    l->total > 0 ? (double)l->bytes / (double)l->total * 100 :
		    0, HUMAN((double)l->total / in->window_s));
	else
		say(f->evidence, sizeof(f->evidence), "on %s: submitted %.0f%% "
		    "of its block I/O (%s/s of %s/s), traced per device and "
		    "process by dlat", d->name, l->total > 0 ?
		    (double)l->bytes / (double)l->total * 100 : 0, HUMAN(v),
		    HUMAN((double)l->total / in->window_s));
	return f;
}

/*
 * With dlat: each disk's largest submitter, from the traced requests,
 * one row per process (the subject is its identity, in prom a series):
 * a process that leads several disks is shown on the one judged worst,
 * then the one it sent most, and the others are counted.
 */
static int
rows_load_dlat(const struct ds_triage_in *in, struct ds_findings *out)
{
	struct ds_finding *f;
	size_t i, j, *rank, nmore;

	if ((rank = calloc(in->ndev ? in->ndev : 1, sizeof(*rank))) == NULL)
		return -ENOMEM;
	for (i = 0; i < in->ndev; i++)
		rank[i] = dev_rank(out, in->dev[i].name);
	for (i = 0; i < in->ndev; i++) {
		const struct ds_tr_dev *d = &in->dev[i];
		const struct ds_tr_load *l = &d->load;
		double v;

		if (!dlat_load(in, i))
			continue;
		for (j = 0, nmore = 0; j < in->ndev; j++) {
			const struct ds_tr_load *o = &in->dev[j].load;

			if (j == i || !dlat_load(in, j) || o->pid != l->pid)
				continue;
			if (rank[j] < rank[i] || (rank[j] == rank[i] &&
			    (o->bytes > l->bytes || (o->bytes == l->bytes &&
			    j < i))))
				break;
			nmore++;
		}
		if (j < in->ndev)
			continue;	/* shown on another disk */
		v = (double)l->bytes / in->window_s;
		if ((f = load_row(in, d, v, out)) == NULL) {
			free(rank);
			return -ENOMEM;
		}
		if (nmore > 0)
			more(f->evidence, sizeof(f->evidence), "; the largest "
			    "submitter to %zu more disk%s too", nmore,
			    nmore == 1 ? "" : "s");
		say(f->next, sizeof(f->next), "dlat -P 5 1 %s", d->name);
	}
	free(rank);
	return 0;
}

static int
rows_load(const struct ds_triage_in *in, struct ds_findings *out)
{
	double total = 0, min;
	size_t idx[TOP_N], n, i;
	struct ds_finding *f;
	char s[96];

	if (in->have_dlat)
		return rows_load_dlat(in, out);
	if (in->dlat_why != NULL) {
		if ((f = add(out, DS_TR_INFO, "no-latency", "-", NAN,
		    "count")) == NULL)
			return -ENOMEM;
		say(f->evidence, sizeof(f->evidence), "block-latency tracing "
		    "could not run (%s): no q2c/d2c, and the load below is "
		    "from /proc, not per device", in->dlat_why);
		say(f->next, sizeof(f->next), "dlat -P 5 1");
	}
	for (i = 0; i < in->nproc; i++)
		total += block_bps(&in->proc[i].rate);
	min = total * LOAD_SHARE > LOAD_MIN_BPS ? total * LOAD_SHARE :
	    LOAD_MIN_BPS;
	n = top(in, block_bps, min, idx, TOP_N);
	for (i = 0; i < n; i++) {
		const struct ds_tr_proc *p = &in->proc[idx[i]];
		const struct ds_who_rate *r = &p->rate;
		double v = block_bps(r);

		subject(s, sizeof(s), p);
		if ((f = add(out, DS_TR_INFO, "load", s, v, "bytes/s")) == NULL)
			return -ENOMEM;
		say(f->evidence, sizeof(f->evidence), "causes %.0f%% of the "
		    "block I/O: read %s/s, write %s/s at the block layer%s "
		    "(from /proc: includes children reaped in the window, no "
		    "device named)", total > 0 ? v / total * 100 : 0,
		    HUMAN(r->v[DS_WR_READ]), HUMAN(r->v[DS_WR_WRITE]),
		    p->kthread ? " (kernel thread)" : "");
		say(f->next, sizeof(f->next), "dwho -s %s -n 10 5 1",
		    r->v[DS_WR_READ] >= r->v[DS_WR_WRITE] ? "kB_rd/s" :
		    "kB_wr/s");
	}
	return 0;
}

static int
rows_suffer(const struct ds_triage_in *in, struct ds_findings *out)
{
	size_t idx[TOP_N], n, i;
	struct ds_finding *f;
	char s[96];

	if (in->delayacct == 0) {
		if ((f = add(out, DS_TR_INFO, "delayacct-off", "-", NAN,
		    "ratio")) == NULL)
			return -ENOMEM;
		say(f->evidence, sizeof(f->evidence), "delay accounting is off: "
		    "who waits on I/O cannot be measured; turn it on with "
		    "sysctl -w kernel.task_delayacct=1 (or boot with delayacct)");
		say(f->next, sizeof(f->next), "dwho -s %%iodelay -n 10 5 1");
		return 0;
	}
	n = top(in, delay, SUFFER_MIN, idx, TOP_N);
	for (i = 0; i < n; i++) {
		const struct ds_tr_proc *p = &in->proc[idx[i]];

		subject(s, sizeof(s), p);
		if ((f = add(out, DS_TR_INFO, "sufferer", s,
		    p->rate.v[DS_WR_DELAY], "ratio")) == NULL)
			return -ENOMEM;
		say(f->evidence, sizeof(f->evidence), "waited for block I/O "
		    "%.0f%% of the window (summed over its threads); its own "
		    "block I/O %s/s%s", p->rate.v[DS_WR_DELAY] * 100,
		    HUMAN(block_bps(&p->rate)), p->kthread ?
		    " (kernel thread)" : "");
		say(f->next, sizeof(f->next), "dwho -s %%iodelay -n 10 5 1");
	}
	return 0;
}

static int
rows_cache(const struct ds_triage_in *in, struct ds_findings *out)
{
	size_t idx[TOP_N], n, i;
	struct ds_finding *f;
	char s[96];

	n = top(in, cache_bps, CACHE_MIN_BPS, idx, TOP_N);
	for (i = 0; i < n; i++) {
		const struct ds_tr_proc *p = &in->proc[idx[i]];
		const struct ds_tr_fds *fd = fds_of(in, p->pid);

		/* rchar counts pipes, sockets and /dev/zero too. */
		if (fd != NULL && fd->cached == 0)
			continue;
		subject(s, sizeof(s), p);
		if ((f = add(out, DS_TR_INFO, "page-cache", s,
		    p->rate.v[DS_WR_RCHAR], "bytes/s")) == NULL)
			return -ENOMEM;
		say(f->evidence, sizeof(f->evidence), "reads %s/s through "
		    "syscalls, %s/s of it from the disk: served by the page "
		    "cache, not disk load", HUMAN(p->rate.v[DS_WR_RCHAR]),
		    HUMAN(p->rate.v[DS_WR_READ]));
		say(f->next, sizeof(f->next), "dwho -s kB_rchar/s -n 10 5 1");
	}
	if (in->procs_unreadable > 0) {
		if ((f = add(out, DS_TR_INFO, "unreadable", "-",
		    (double)in->procs_unreadable, "count")) == NULL)
			return -ENOMEM;
		say(f->evidence, sizeof(f->evidence), "the I/O of %zu %s "
		    "could not be read (permission: without root, other users'; "
		    "as root, another namespace's): %s load is not counted",
		    in->procs_unreadable, plural(in->procs_unreadable, "process",
		    "processes"), plural(in->procs_unreadable, "its", "their"));
		say(f->next, sizeof(f->next), "dwho -n 10 5 1");
	}
	if (in->fds_unreadable > 0) {
		if ((f = add(out, DS_TR_INFO, "unreadable", "fd",
		    (double)in->fds_unreadable, "count")) == NULL)
			return -ENOMEM;
		say(f->evidence, sizeof(f->evidence), "the open files of %zu "
		    "%s could not be read: space %s hold%s in deleted files is "
		    "not counted", in->fds_unreadable, plural(in->fds_unreadable,
		    "process", "processes"), plural(in->fds_unreadable, "it",
		    "they"), plural(in->fds_unreadable, "s", ""));
		say(f->next, sizeof(f->next), "ddeleted -s");
	}
	return 0;
}

/* ---- Tasks and CPU ----------------------------------------------------- */

static int
rows_tasks(const struct ds_triage_in *in, struct ds_findings *out)
{
	struct ds_finding *f;
	double sum = 0, mean, warn;
	uint32_t max = 0;
	size_t i;

	for (i = 0; i < in->nblocked; i++) {
		sum += in->blocked[i];
		if (in->blocked[i] > max)
			max = in->blocked[i];
	}
	if (in->nblocked > 0 && max > 0) {
		struct stalls st;

		stalls_sum(in, &st);
		mean = sum / (double)in->nblocked;
		warn = in->ncpus > BLOCKED_WARN ? in->ncpus : BLOCKED_WARN;
		if ((f = add(out, mean >= warn && !uring_only(&st) ?
		    DS_TR_WARN : DS_TR_INFO, "procs-blocked", "-", mean,
		    "count")) == NULL)
			return -ENOMEM;
		say(f->evidence, sizeof(f->evidence), "%.1f tasks in an I/O "
		    "wait on average, %u at most, over %zu samples (vmstat's b: "
		    "the kernel's iowait tasks, in D or in io_uring's wait in "
		    "S)", mean, max, in->nblocked);
		if (in->nlooks > 0)
			more(f->evidence, sizeof(f->evidence), "; at %zu looks "
			    "on average %.1f in block I/O, %.1f waiting for a "
			    "slot, %.1f in io_uring with no disk I/O, %.1f "
			    "held by the dirty limit, %.1f on network or FUSE "
			    "files", in->nlooks, (double)st.disk /
			    (double)in->nlooks, (double)st.tag /
			    (double)in->nlooks, (double)st.uring /
			    (double)in->nlooks, (double)st.dirty /
			    (double)in->nlooks, (double)st.netfs /
			    (double)in->nlooks);
		say(f->next, sizeof(f->next), "dwho -s %%iodelay -n 10 5 1");
	}
	if (in->have_iowait) {
		if ((f = add(out, DS_TR_INFO, "iowait", "cpu",
		    in->iowait_pct / 100, "ratio")) == NULL)
			return -ENOMEM;
		say(f->evidence, sizeof(f->evidence), "CPU iowait %.1f%%: idle "
		    "time while I/O was outstanding; it falls when the CPUs are "
		    "busy, so it measures neither the disk nor the wait",
		    in->iowait_pct);
		say(f->next, sizeof(f->next), "dpsi -r io 10 1");
	}
	return 0;
}

/* ---- Filesystems ------------------------------------------------------- */

static int
row_held(const struct ds_tr_fs *fs, struct ds_findings *out)
{
	struct ds_finding *f;
	double size = fs->have_stat ? (double)ds_fs_size(&fs->st) : 0;
	double use = fs->have_stat ? ds_fs_use(&fs->st) : 0;
	double share = size > 0 ? (double)fs->held / size : 0;
	size_t i;

	if (!fs->have_deleted || fs->held < HELD_MIN ||
	    (share < HELD_SHARE_INFO && use < FS_WARN))
		return 0;
	if ((f = add(out, share >= HELD_SHARE_WARN || use >= FS_WARN ?
	    DS_TR_WARN : DS_TR_INFO, "deleted-held", fs->mount,
	    (double)fs->held, "bytes")) == NULL)
		return -ENOMEM;
	say(f->evidence, sizeof(f->evidence), "%s held by %llu deleted %s of "
	    "%llu %s (%.1f%% of the fs; df counts it, du cannot):",
	    HUMAN(fs->held), (unsigned long long)fs->held_files,
	    plural(fs->held_files, "file", "files"),
	    (unsigned long long)fs->held_procs, plural(fs->held_procs,
	    "process", "processes"), share * 100);
	for (i = 0; i < fs->nholder && i < TOP_N; i++) {
		const struct ds_tr_holder *h = &fs->holder[i];

		if (h->fd >= 0)
			more(f->evidence, sizeof(f->evidence), " pid %d %s fd %d "
			    "%s (ddeleted --truncate %d:%d, or restart it);",
			    h->pid, h->comm ? h->comm : "?", h->fd,
			    HUMAN(h->bytes), h->pid, h->fd);
		else
			more(f->evidence, sizeof(f->evidence), " pid %d %s "
			    "mapped %s (restart it);", h->pid,
			    h->comm ? h->comm : "?", HUMAN(h->bytes));
	}
	say(f->next, sizeof(f->next), "ddeleted -s");
	return 0;
}

static int
fs_rows(const struct ds_triage_in *in, struct ds_findings *out)
{
	struct ds_finding *f;
	size_t i;

	for (i = 0; i < in->nfs; i++) {
		const struct ds_tr_fs *fs = &in->fs[i];
		double use, iuse;

		if (fs->have_stat && fs->st.blocks > 0) {
			use = ds_fs_use(&fs->st);
			if (use >= FS_WARN || fs->st.bavail == 0) {
				if ((f = add(out, use >= FS_CRIT ||
				    fs->st.bavail == 0 ? DS_TR_CRIT : DS_TR_WARN,
				    "fs-full", fs->mount, use, "ratio")) == NULL)
					return -ENOMEM;
				say(f->evidence, sizeof(f->evidence), "%.1f%% used "
				    "(df's Use%%): %s used of %s, %s available "
				    "to users%s", use * 100,
				    HUMAN(ds_fs_used(&fs->st)),
				    HUMAN(ds_fs_size(&fs->st)),
				    HUMAN(ds_fs_avail(&fs->st)), fs->memory ?
				    " (memory-backed)" : "");
				say(f->next, sizeof(f->next), "ddeleted -s");
			}
			iuse = ds_fs_iuse(&fs->st);
			if (iuse >= FS_WARN) {
				if ((f = add(out, iuse >= FS_CRIT ? DS_TR_CRIT :
				    DS_TR_WARN, "fs-inodes", fs->mount, iuse,
				    "ratio")) == NULL)
					return -ENOMEM;
				say(f->evidence, sizeof(f->evidence), "%.1f%% of "
				    "inodes used: %llu free of %llu", iuse * 100,
				    (unsigned long long)fs->st.ffree,
				    (unsigned long long)fs->st.files);
				say(f->next, sizeof(f->next), "ddeleted -s");
			}
		}
		if (row_held(fs, out) < 0)
			return -ENOMEM;
	}
	return 0;
}

static const char *state_phrase(const char *finding);

/* Bytes a second a process wrote (dirtied), 0 unknown. */
static double
xw(const struct ds_tr_proc *p)
{
	return (p->rate.have & (1u << DS_WR_WRITE)) ? p->rate.v[DS_WR_WRITE] : 0;
}

/* ---- Stalls that are not a disk's ------------------------------------- */

/*
 * An io_uring wait is on a disk only when its process did block I/O in
 * the window and some disk had a request in flight at that look: a ring
 * waiting on a pipe or a socket counts as iowait too (Linux 6.5+).
 */
static int
uring_idle(const struct ds_triage_in *in, const struct ds_tr_task *t)
{
	const struct ds_tr_proc *p = proc_of(in, t->pid);

	if (in->look_inflight != NULL && t->look < in->nlooks &&
	    in->look_inflight[t->look] == 0)
		return 1;
	/* Not among the active processes: it moved nothing. */
	return p == NULL || block_bps(&p->rate) < URING_IDLE_BPS;
}

/* A user thread in a page-cache wait whose files are all on a netfs. */
static const struct ds_tr_fds *
on_netfs(const struct ds_triage_in *in, const struct ds_tr_task *t)
{
	const struct ds_tr_fds *f;

	if (t->kthread)
		return NULL;
	f = fds_of(in, t->pid);
	if (f == NULL || f->netfs == NULL)
		return NULL;
	if (t->wait == DS_WAIT_FUSE || t->wait == DS_WAIT_NFS ||
	    t->wait == DS_WAIT_CIFS || (t->wait == DS_WAIT_BLOCK &&
	    f->netfs_only))
		return f;
	return NULL;
}


/* Counts per look, so that "looks" counts each look once. */
static void
count_look(size_t *looks, unsigned int *last, unsigned int look)
{
	if (*last != look + 1) {
		(*looks)++;
		*last = look + 1;
	}
}

static void
stalls_sum(const struct ds_triage_in *in, struct stalls *s)
{
	unsigned int l_any = 0, l_tag = 0, l_uring = 0, l_dirty = 0,
	    l_netfs = 0;
	const struct ds_tr_fds *nf;
	size_t i;

	memset(s, 0, sizeof(*s));
	/* The tasks come in look order. */
	for (i = 0; i < in->ntask; i++) {
		const struct ds_tr_task *t = &in->task[i];

		if (t->wait == DS_WAIT_NONE || t->wait == DS_WAIT_OTHER)
			continue;
		count_look(&s->looks, &l_any, t->look);
		if ((nf = on_netfs(in, t)) != NULL) {
			s->netfs++;
			count_look(&s->netfs_looks, &l_netfs, t->look);
			if (s->netfs_top == NULL) {
				s->netfs_top = t;
				s->netfs_fds = nf;
			}
		} else if (t->wait == DS_WAIT_URING && uring_idle(in, t)) {
			s->uring++;
			count_look(&s->uring_looks, &l_uring, t->look);
			if (s->uring_top == NULL)
				s->uring_top = t;
		} else if (t->wait == DS_WAIT_DIRTY) {
			s->dirty++;
			count_look(&s->dirty_looks, &l_dirty, t->look);
			if (s->dirty_top == NULL)
				s->dirty_top = t;
		} else if (t->wait == DS_WAIT_FUSE || t->wait == DS_WAIT_NFS ||
		    t->wait == DS_WAIT_CIFS) {
			/* A kernel thread serving a loop device's file. */
			s->disk++;
		} else {
			s->disk++;
			if (t->wait == DS_WAIT_TAG) {
				s->tag++;
				count_look(&s->tag_looks, &l_tag, t->look);
			}
		}
	}
}

/*
 * The io pressure is io_uring's idle waits alone: nearly every stalled
 * thread we saw sat in io_uring with nothing on a disk.
 */
static int
uring_only(const struct stalls *s)
{
	size_t other = s->disk + s->dirty + s->netfs;

	return s->uring > 0 && (double)other <= URING_OTHER * (double)(s->uring +
	    other);
}

static int
uring_only_in(const struct ds_triage_in *in)
{
	struct stalls s;

	stalls_sum(in, &s);
	return uring_only(&s);
}

static int
row_uring(const struct ds_triage_in *in, const struct stalls *s,
    struct ds_findings *out)
{
	const struct ds_tr_task *t = s->uring_top;
	struct ds_finding *f;
	char subj[96];
	int kv[2] = { 0, 0 };

	if (t == NULL)
		return 0;
	snprintf(subj, sizeof(subj), "%d %s", t->pid, comm_of(in, t));
	if ((f = add(out, DS_TR_INFO, "io-uring-wait", subj,
	    (double)s->uring / (double)(in->nlooks ? in->nlooks : 1),
	    "count")) == NULL)
		return -ENOMEM;
	say(f->evidence, sizeof(f->evidence), "threads waited in io_uring "
	    "(wchan io_cqring_wait) with no block I/O of theirs in flight in "
	    "%zu of %zu looks: since Linux 6.5 the kernel counts an io_uring "
	    "completion wait as iowait, so PSI io, iowait and procs_blocked "
	    "rise with no disk involved", s->uring_looks, in->nlooks);
	if (in->kernel != NULL && sscanf(in->kernel, "%d.%d", &kv[0],
	    &kv[1]) == 2 && (kv[0] > 6 || (kv[0] == 6 && kv[1] >= 15)))
		more(f->evidence, sizeof(f->evidence), "; the application can "
		    "opt out with IORING_ENTER_NO_IOWAIT (this kernel, %s, has "
		    "it)", in->kernel);
	else
		more(f->evidence, sizeof(f->evidence), "; an application can "
		    "opt out with IORING_ENTER_NO_IOWAIT from Linux 6.15%s%s%s",
		    in->kernel ? " (this kernel is " : "",
		    in->kernel ? in->kernel : "", in->kernel ? ")" : "");
	say(f->next, sizeof(f->next), "dwho -s %%iodelay -n 10 5 1");
	return 0;
}

static int
row_netfs(const struct ds_triage_in *in, const struct stalls *s,
    struct ds_findings *out)
{
	const struct ds_tr_task *t = s->netfs_top;
	struct ds_finding *f;

	if (t == NULL || s->netfs_looks * 2 < s->looks)
		return 0;
	if ((f = add(out, held_up(in) ? DS_TR_WARN : DS_TR_INFO, "netfs-wait",
	    s->netfs_fds->netfs, (double)s->netfs / (double)in->nlooks,
	    "count")) == NULL)
		return -ENOMEM;
	say(f->evidence, sizeof(f->evidence), "tasks waited on files of this "
	    "%s mount in %zu of %zu looks (%d %s, wchan class %s): real I/O, of "
	    "a mount, not of a local disk", s->netfs_fds->netfs_type ?
	    s->netfs_fds->netfs_type : "network", s->netfs_looks, in->nlooks,
	    t->pid, comm_of(in, t), ds_wait_name((enum ds_wait)t->wait));
	say(f->next, sizeof(f->next), "dwho -s %%iodelay -n 10 5 1");
	return 0;
}

/* Thread-looks of s's tasks among pids (a cgroup's). */
static size_t
stalled_in(const struct ds_triage_in *in, const int *pids, size_t npids,
    size_t *looks)
{
	unsigned int last = 0;
	size_t i, k, n = 0;

	*looks = 0;
	for (i = 0; i < in->ntask; i++) {
		const struct ds_tr_task *t = &in->task[i];

		if (t->wait == DS_WAIT_NONE || t->wait == DS_WAIT_OTHER)
			continue;
		for (k = 0; k < npids && pids[k] != t->pid; k++)
			;
		if (k == npids)
			continue;
		n++;
		count_look(looks, &last, t->look);
	}
	return n;
}

static const char *const lim_v2[4] = { "rbps", "wbps", "riops", "wiops" };
static const char *const lim_v1[4] = { "read_bps_device", "write_bps_device",
    "read_iops_device", "write_iops_device" };
static const char *const lim_what[4] = { "bytes/s read", "bytes/s written",
    "reads/s", "writes/s" };

/*
 * The limit l is held at: its index; DS_HELD_LAT when io.latency holds
 * its queue depth, DS_HELD_COST when iocost makes it wait; or -1.
 */
#define DS_HELD_LAT	4
#define DS_HELD_COST	5
static int
held_limit(const struct ds_tr_iolim *l)
{
	double best = 0, r;
	int k, at = -1;

	if (l->cost_wait >= COST_WAIT)
		return DS_HELD_COST;
	if (l->lat_depth > 0)
		return DS_HELD_LAT;
	if (!l->have_rate)
		return -1;
	for (k = 0; k < 4; k++) {
		if (l->lim[k] == UINT64_MAX || l->lim[k] == 0)
			continue;
		r = l->rate[k] / (double)l->lim[k];
		if (r >= LIMIT_FRAC && r > best) {
			best = r;
			at = k;
		}
	}
	return at;
}

/* The process of pids with the most block I/O, or NULL. */
static const struct ds_tr_proc *
top_of(const struct ds_triage_in *in, const int *pids, size_t npids)
{
	const struct ds_tr_proc *best = NULL, *p;
	size_t k;

	for (k = 0; k < npids; k++)
		if ((p = proc_of(in, pids[k])) != NULL && (best == NULL ||
		    block_bps(&p->rate) > block_bps(&best->rate)))
			best = p;
	return best;
}

/* The state a device's row gives it, "device-ok" when it did no I/O. */
static const char *
dev_finding(const struct ds_findings *out, const char *disk)
{
	size_t i, k;

	for (i = 0; disk != NULL && i < out->n; i++)
		for (k = 0; k < NDEV_ORDER; k++)
			if (strcmp(out->f[i].finding, dev_order[k]) == 0 &&
			    strcmp(out->f[i].subject, disk) == 0)
				return dev_order[k];
	return "device-ok";
}

static int
row_cglimit(const struct ds_triage_in *in, const struct ds_tr_iolim *l,
    int k, struct ds_findings *out)
{
	const struct ds_tr_dev *d = NULL;
	const char *state = dev_finding(out, l->disk);
	struct ds_finding *f;
	size_t i, n, looks, shown = 0;

	for (i = 0; l->disk != NULL && i < in->ndev; i++)
		if (strcmp(in->dev[i].name, l->disk) == 0)
			d = &in->dev[i];
	n = stalled_in(in, l->pids, l->npids, &looks);
	if ((f = add(out, held_up(in) || looks * 2 >= in->nlooks ? DS_TR_WARN :
	    DS_TR_INFO, "cgroup-limit", l->cgroup, k == DS_HELD_COST ?
	    l->cost_wait : k == DS_HELD_LAT ? (double)l->lat_depth :
	    l->rate[k], k == DS_HELD_COST ? "ratio" : k < 2 ? "bytes/s" :
	    "count")) == NULL)
		return -ENOMEM;
	if (k == DS_HELD_COST)
		say(f->evidence, sizeof(f->evidence), "held by iocost on %s: "
		    "its I/O waited for its share %.0f%% of the window "
		    "(io.stat cost.wait)", l->disk ? l->disk : "?",
		    l->cost_wait * 100);
	else if (k == DS_HELD_LAT)
		say(f->evidence, sizeof(f->evidence), "held by io.latency on "
		    "%s: its queue depth cut to %llu (io.stat depth) because a "
		    "sibling with a latency target misses it", l->disk ?
		    l->disk : "?", (unsigned long long)l->lat_depth);
	else
		say(f->evidence, sizeof(f->evidence), "held at its own limit on "
		    "%s: %s=%llu (%s), %.1f %s in the window", l->disk ?
		    l->disk : "?", l->v1 ? lim_v1[k] : lim_v2[k],
		    (unsigned long long)l->lim[k], l->v1 ? "blkio.throttle" :
		    "io.max", l->rate[k], lim_what[k]);
	if (l->have_lat && l->have_latstat)
		more(f->evidence, sizeof(f->evidence), "; its io.latency target "
		    "%llu us, average %.0f us", (unsigned long long)
		    l->lat_target_us, l->lat_avg_us);
	for (i = 0; i < l->npids && shown < TOP_N; i++) {
		const struct ds_tr_proc *p = proc_of(in, l->pids[i]);

		if (p == NULL)
			continue;
		more(f->evidence, sizeof(f->evidence), "%s%d %s", shown ? ", " :
		    "; its tasks ", p->pid, p->comm ? p->comm : "?");
		shown++;
	}
	if (l->npids > shown && shown > 0)
		more(f->evidence, sizeof(f->evidence), " and %zu more",
		    l->npids - shown);
	if (n > 0)
		more(f->evidence, sizeof(f->evidence), " waited in %zu of %zu "
		    "looks", looks, in->nlooks);
	if (d != NULL && (strcmp(state, "device-ok") == 0 ||
	    strcmp(state, "busy") == 0 || strcmp(state, "sync-writes") == 0))
		more(f->evidence, sizeof(f->evidence), "; %s has headroom "
		    "(%%util %.1f, aqu-sz %.2f): the wait is the limit's, not "
		    "the disk's", d->name, xv(&d->x, DS_X_UTIL),
		    xv(&d->x, DS_X_AQUSZ));
	else if (d != NULL)
		more(f->evidence, sizeof(f->evidence), "; %s is %s too",
		    d->name, state_phrase(state));
	say(f->next, sizeof(f->next), "dwho -g 5 1");
	return 0;
}

static int
rows_cglimit(const struct ds_triage_in *in, struct ds_findings *out)
{
	size_t i;
	int k, e;

	for (i = 0; i < in->niolim; i++)
		if ((k = held_limit(&in->iolim[i])) >= 0 &&
		    (e = row_cglimit(in, &in->iolim[i], k, out)) < 0)
			return e;
	return 0;
}

/* The limit a disk's cgroup is held at, for its load row. */
static const struct ds_tr_iolim *
limit_on(const struct ds_triage_in *in, const char *disk)
{
	size_t i;

	for (i = 0; i < in->niolim; i++)
		if (in->iolim[i].disk != NULL &&
		    strcmp(in->iolim[i].disk, disk) == 0 &&
		    held_limit(&in->iolim[i]) >= 0)
			return &in->iolim[i];
	return NULL;
}

/* "vm.dirty_bytes 16777216" or "vm.dirty_ratio 20%". */
static void
dirty_setting(char *b, size_t size, uint64_t bytes, uint64_t ratio,
    const char *what)
{
	if (bytes > 0)
		snprintf(b, size, "vm.dirty_%sbytes %llu", what,
		    (unsigned long long)bytes);
	else
		snprintf(b, size, "vm.dirty_%sratio %llu%%", what,
		    (unsigned long long)ratio);
}

/* The writer the dirty limit holds: the stalled one that dirties most. */
static const struct ds_tr_proc *
dirtier(const struct ds_triage_in *in)
{
	const struct ds_tr_proc *best = NULL, *p;
	size_t i;

	for (i = 0; i < in->ntask; i++) {
		if (in->task[i].wait != DS_WAIT_DIRTY ||
		    (p = proc_of(in, in->task[i].pid)) == NULL)
			continue;
		if (best == NULL || xw(p) > xw(best))
			best = p;
	}
	return best;
}

static int
row_dirty(const struct ds_triage_in *in, const struct stalls *s,
    struct ds_findings *out)
{
	const struct ds_tr_dirty *dy = &in->dirty;
	const struct ds_tr_proc *p;
	struct ds_finding *f;
	char subj[96], lim[64], bg[64];

	if (s->dirty_looks == 0 || (double)s->dirty_looks < DIRTY_LOOKS *
	    (double)in->nlooks)
		return 0;
	p = dirtier(in);
	if (p != NULL)
		snprintf(subj, sizeof(subj), "%d %s", p->pid,
		    p->comm ? p->comm : "?");
	else
		snprintf(subj, sizeof(subj), "%d %s", s->dirty_top->pid,
		    comm_of(in, s->dirty_top));
	if ((f = add(out, DS_TR_WARN, "dirty-throttled", subj,
	    p != NULL ? xw(p) : NAN, "bytes/s")) == NULL)
		return -ENOMEM;
	say(f->evidence, sizeof(f->evidence), "held by the dirty-page limit: "
	    "in balance_dirty_pages in %zu of %zu looks", s->dirty_looks,
	    in->nlooks);
	if (dy->have) {
		dirty_setting(lim, sizeof(lim), dy->bytes, dy->ratio, "");
		dirty_setting(bg, sizeof(bg), dy->bg_bytes, dy->bg_ratio,
		    "background_");
		more(f->evidence, sizeof(f->evidence), "; dirty + writeback "
		    "%s against the kernel's limit of %s (%s; %s)",
		    HUMAN(dy->dirty + dy->writeback), HUMAN(dy->thresh), lim, bg);
	}
	if (p != NULL)
		more(f->evidence, sizeof(f->evidence), "; it dirties %s/s, the "
		    "flusher writes back %s/s: it waits for the disk because of "
		    "the limit; write less or sync in larger batches, or raise "
		    "the limit", HUMAN(xw(p)), HUMAN(dy->written_bps));
	say(f->next, sizeof(f->next), "dwho -s kB_wr/s -n 10 5 1");
	return 0;
}

/* The disks' reads, bytes a second. */
static double
disk_reads(const struct ds_triage_in *in)
{
	double v = 0;
	size_t i;

	for (i = 0; i < in->ndev; i++)
		v += xv(&in->dev[i].x, DS_X_RKBS) * 1024;
	return v;
}

/* A memory cgroup that thrashes: at its limit, refaulting. */
static int
thrashing(const struct ds_tr_memcg *m)
{
	return m->have_refault && m->refault_bps >= THRASH_MIN_BPS &&
	    m->limit > 0 && (double)m->usage >= THRASH_USE * (double)m->limit;
}

static int
row_thrash(const struct ds_triage_in *in, const struct ds_tr_memcg *m,
    struct ds_findings *out)
{
	double reads = disk_reads(in), share;
	struct ds_finding *f;
	enum ds_tr_sev sev;

	share = reads > 0 ? m->refault_bps / reads : 0;
	if (share > 1)
		share = 1;
	sev = share >= THRASH_SHARE || (m->have_psi &&
	    m->psi_some >= PSI_INFO) || (in->mem.have &&
	    in->mem.some >= PSI_INFO) ? DS_TR_WARN : DS_TR_INFO;
	if (in->mem.have && in->mem.full >= PSI_CRIT_FULL)
		sev = DS_TR_CRIT;
	if ((f = add(out, sev, "memory-thrash", m->cgroup, m->refault_bps,
	    "bytes/s")) == NULL)
		return -ENOMEM;
	say(f->evidence, sizeof(f->evidence), "at its memory limit of %s (%s), "
	    "using %s: it refaulted %s/s of what it had to drop, %.0f%% of the "
	    "disks' reads", HUMAN(m->limit), m->v1 ? "memory.limit_in_bytes" :
	    "memory.max", HUMAN(m->usage), HUMAN(m->refault_bps), share * 100);
	if (m->have_psi)
		more(f->evidence, sizeof(f->evidence), "; its memory pressure "
		    "some %.1f%%", m->psi_some);
	if (m->failcnt > 0)
		more(f->evidence, sizeof(f->evidence), "; the limit hit %llu "
		    "times", (unsigned long long)m->failcnt);
	more(f->evidence, sizeof(f->evidence), ": the disk serves what memory "
	    "could not keep; raise the limit or shrink the working set");
	say(f->next, sizeof(f->next), "dpsi -r memory 10 1");
	return 0;
}

static int
rows_thrash(const struct ds_triage_in *in, struct ds_findings *out)
{
	size_t i;
	int e;

	for (i = 0; i < in->nmemcg; i++)
		if (thrashing(&in->memcg[i]) &&
		    (e = row_thrash(in, &in->memcg[i], out)) < 0)
			return e;
	return 0;
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

static int
rows_errors(const struct ds_triage_in *in, struct ds_findings *out)
{
	struct ds_finding *f;
	size_t i;

	for (i = 0; i < in->nerr; i++) {
		const struct ds_tr_err *e = &in->err[i];

		if (err_of(in, e->disk) != e)
			continue;
		if ((f = add(out, DS_TR_CRIT, "io-errors", e->disk,
		    (double)(e->count > 0 ? e->count : e->scsi_ioerr +
		    e->scsi_iotmo), "count")) == NULL)
			return -ENOMEM;
		if (e->count > 0) {
			say(f->evidence, sizeof(f->evidence), "%llu I/O %s in "
			    "the kernel log in the window (and the 5 s before "
			    "it, the log's rate-limit interval), the first '%s'",
			    (unsigned long long)e->count,
			    plural(e->count, "error", "errors"),
			    e->kind ? e->kind : "I/O error");
			if (e->have_sector)
				more(f->evidence, sizeof(f->evidence), " at "
				    "sector %llu", (unsigned long long)e->sector);
			if (e->op != NULL && *e->op != '\0')
				more(f->evidence, sizeof(f->evidence), " (%s)",
				    e->op);
			if (e->suppressed > 0)
				more(f->evidence, sizeof(f->evidence), "; %llu "
				    "more messages suppressed by the log's rate "
				    "limit", (unsigned long long)e->suppressed);
		} else
			say(f->evidence, sizeof(f->evidence), "no message in "
			    "the kernel log");
		if (e->scsi_ioerr > 0 || e->scsi_iotmo > 0)
			more(f->evidence, sizeof(f->evidence), "; SCSI "
			    "ioerr_cnt +%llu, iotmo_cnt +%llu",
			    (unsigned long long)e->scsi_ioerr,
			    (unsigned long long)e->scsi_iotmo);
		more(f->evidence, sizeof(f->evidence), ": the disk fails "
		    "requests; a failing disk is slow as well, so its latency "
		    "says nothing of its load");
		say(f->next, sizeof(f->next), "dxstat -y 1 5 %s", e->disk);
	}
	if (in->err_why != NULL) {
		if ((f = add(out, DS_TR_INFO, "unreadable", "kmsg", NAN,
		    "count")) == NULL)
			return -ENOMEM;
		say(f->evidence, sizeof(f->evidence), "the kernel log could not "
		    "be read (%s): I/O errors were not looked for",
		    in->err_why);
		say(f->next, sizeof(f->next), "dtriage");
	}
	return 0;
}

/* ---- The verdict ------------------------------------------------------- */

static const struct ds_finding *
first_of(const struct ds_findings *fs, const char *finding)
{
	size_t i;

	for (i = 0; i < fs->n; i++)
		if (strcmp(fs->f[i].finding, finding) == 0)
			return &fs->f[i];
	return NULL;
}

static const struct ds_finding *
worst_dev(const struct ds_findings *fs)
{
	const struct ds_finding *f;
	size_t i;

	for (i = 0; i < NDEV_ORDER; i++)
		if ((f = first_of(fs, dev_order[i])) != NULL)
			return f;
	return NULL;
}

/* The load row of d's device (dlat's, "on DEV: ..."), else the first. */
static const struct ds_finding *
load_of(const struct ds_findings *fs, const struct ds_finding *d)
{
	size_t i, n = d != NULL ? strlen(d->subject) : 0;

	for (i = 0; d != NULL && i < fs->n; i++)
		if (strcmp(fs->f[i].finding, "load") == 0 &&
		    strncmp(fs->f[i].evidence, "on ", 3) == 0 &&
		    strncmp(fs->f[i].evidence + 3, d->subject, n) == 0 &&
		    fs->f[i].evidence[3 + n] == ':')
			return &fs->f[i];
	return first_of(fs, "load");
}

/* What a device finding says of its device, for the verdict. */
static const char *
state_phrase(const char *finding)
{
	static const char *const ph[][2] = {
		{ "plateau", "at a throughput ceiling (a provisioned cap?)" },
		{ "slow", "slower than at quiet times" },
		{ "at-limit", "at its request limit" },
		{ "queue-long", "queued, with its parallelism unknown" },
		{ "busy", "busy" },
	};
	size_t i;

	for (i = 0; i < sizeof(ph) / sizeof(ph[0]); i++)
		if (strcmp(ph[i][0], finding) == 0)
			return ph[i][1];
	return finding;
}

/* A memory-thrash row whose refaults are most of the disks' reads. */
static const struct ds_finding *
thrash_cause(const struct ds_triage_in *in, const struct ds_findings *fs)
{
	double reads = disk_reads(in);
	size_t i;

	for (i = 0; i < fs->n; i++)
		if (strcmp(fs->f[i].finding, "memory-thrash") == 0 &&
		    reads > 0 && fs->f[i].value >= THRASH_CAUSE * reads)
			return &fs->f[i];
	return NULL;
}

/*
 * The sentence of the verdict row, from the rows already made, and the
 * row it rests on (its subject and next are the verdict's), or NULL.
 * A cause that is not a disk's comes before the disk's state: a
 * failing disk, memory that makes the reads, a cgroup's own limit, the
 * dirty limit, a network mount, io_uring's idle waits.
 */
static const struct ds_finding *
verdict_text(const struct ds_triage_in *in, const struct ds_findings *fs,
    char *e, size_t size)
{
	const struct ds_finding *d = worst_dev(fs), *c, *l, *s, *f;

	if ((c = first_of(fs, "io-errors")) != NULL)
		say(e, size, "the disk is the problem: %s is failing (%.0f I/O "
		    "%s in the window)", c->subject, c->value,
		    c->value == 1 ? "error" : "errors");
	else if ((c = thrash_cause(in, fs)) != NULL)
		say(e, size, "memory is the cause: cgroup %s thrashes at its "
		    "memory limit and its refaults are the disks' reads; %s is "
		    "the symptom", c->subject, d != NULL ? d->subject :
		    "the disk");
	else if (d != NULL && strcmp(d->finding, "saturated") == 0) {
		c = d;
		say(e, size, "the disk is the problem: %s is saturated %s",
		    d->subject, strncmp(d->evidence, "by latency", 10) == 0 ?
		    "(latency and queue well above its quiet time)" :
		    "at its request limit (requests wait for a slot)");
	} else if ((c = first_of(fs, "cgroup-limit")) != NULL &&
	    c->sev >= DS_TR_WARN)
		say(e, size, "not the disk: tasks of cgroup %s are held by "
		    "their own I/O limit (%.*s)", c->subject,
		    (int)strcspn(strstr(c->evidence, " on ") + 1, ";"),
		    strstr(c->evidence, " on ") + 1);
	else if ((c = first_of(fs, "dirty-throttled")) != NULL)
		say(e, size, "writers are held by the dirty-page limit: %s "
		    "dirties faster than %s writes back", c->subject,
		    d != NULL ? d->subject : "the disk");
	else if ((c = first_of(fs, "memory-thrash")) != NULL &&
	    c->sev >= DS_TR_WARN)
		say(e, size, "memory: cgroup %s thrashes at its memory limit; "
		    "its refaults are part of the disks' reads", c->subject);
	else if (d != NULL && strcmp(d->finding, "sync-writes") == 0) {
		c = d;
		say(e, size, "the disk is healthy: writes to %s follow an "
		    "application commit pattern (small synchronous writes); "
		    "batch them", d->subject);
	} else if ((c = first_of(fs, "netfs-wait")) != NULL)
		say(e, size, "not a local disk: tasks stall on I/O of the "
		    "mount %s", c->subject);
	else if (uring_only_in(in) && (c = first_of(fs, "io-uring-wait")) !=
	    NULL)
		say(e, size, "no disk holds anything up: the I/O pressure "
		    "(some %.1f%%) is io_uring waiting with no block I/O in "
		    "flight (%s)", in->io.have ? in->io.some : 0, c->subject);
	else if (d != NULL && held_up(in)) {
		c = d;
		say(e, size, "I/O holds tasks up%s; %s is %s, not shown to be "
		    "saturated", in->io.have ? "" : " (PSI unknown)", d->subject,
		    state_phrase(d->finding));
	} else if (in->io.have && held_up(in))
		say(e, size, "tasks stall on I/O (some %.1f%%) with no device "
		    "busy: look at the sufferers and at memory", in->io.some);
	else if (d != NULL) {
		c = d;
		say(e, size, "the disk is not the problem: %s is %s but nothing "
		    "waits on it (io some %.1f%%)", d->subject,
		    state_phrase(d->finding), in->io.some);
	} else
		say(e, size, "the disk holds nothing up%s", in->io.have ? "" :
		    " that the figures show (PSI unknown)");
	if ((l = load_of(fs, d)) != NULL)
		more(e, size, "; load: %s", l->subject);
	if ((s = first_of(fs, "sufferer")) != NULL)
		more(e, size, "; waiting: %s", s->subject);
	if ((f = first_of(fs, "fs-full")) != NULL)
		more(e, size, "; %s %.0f%% full", f->subject, f->value * 100);
	if ((f = first_of(fs, "deleted-held")) != NULL)
		more(e, size, "; %s held by deleted files on %s",
		    HUMAN(f->value), f->subject);
	return c;
}

static int
cmp_rows(const void *a, const void *b)
{
	const struct ds_finding *x = a, *y = b;

	if (x->sev != y->sev)
		return x->sev > y->sev ? -1 : 1;
	/* The rule order, kept in the evidence of a stable sort below. */
	return 0;
}

/* Stable: insertion sort by severity (a few dozen rows). */
static void
sort_rows(struct ds_findings *fs, size_t from)
{
	struct ds_finding t;
	size_t i, k;

	for (i = from + 1; i < fs->n; i++) {
		t = fs->f[i];
		for (k = i; k > from && cmp_rows(&fs->f[k - 1], &t) > 0; k--)
			fs->f[k] = fs->f[k - 1];
		fs->f[k] = t;
	}
}

static int
verdict(const struct ds_triage_in *in, struct ds_findings *out)
{
	struct ds_finding v, *f;
	const struct ds_finding *d, *c;
	size_t i;

	sort_rows(out, 0);
	memset(&v, 0, sizeof(v));
	v.sev = out->worst;
	v.finding = "verdict";
	v.value = in->io.have ? in->io.some / 100 : NAN;
	v.unit = "ratio";
	c = verdict_text(in, out, v.evidence, sizeof(v.evidence));
	d = c != NULL ? c : worst_dev(out);
	snprintf(v.subject, sizeof(v.subject), "%s", d != NULL &&
	    d->sev >= DS_TR_WARN ? d->subject : "-");
	/* The cause's command: it says most. */
	snprintf(v.next, sizeof(v.next), "%s", d != NULL && (d->sev == v.sev ||
	    (c != NULL && c->sev >= DS_TR_WARN)) ? d->next :
	    v.sev >= DS_TR_WARN && out->n > 0 ? out->f[0].next :
	    "dpsi -r io 10 1");
	if (add(out, v.sev, "verdict", "-", 0, "ratio") == NULL)
		return -ENOMEM;
	for (i = out->n - 1; i > 0; i--)
		out->f[i] = out->f[i - 1];
	f = &out->f[0];
	*f = v;
	return 0;
}

int
ds_triage(const struct ds_triage_in *in, struct ds_findings *out)
{
	struct stalls st;
	int e;

	out->n = 0;
	out->worst = DS_TR_OK;
	stalls_sum(in, &st);
	if ((e = psi_rows(in, out)) < 0 || (e = dev_rows(in, out)) < 0 ||
	    (e = rows_errors(in, out)) < 0 || (e = rows_cglimit(in, out)) < 0 ||
	    (e = rows_thrash(in, out)) < 0 || (e = row_dirty(in, &st, out)) < 0 ||
	    (e = row_netfs(in, &st, out)) < 0 ||
	    (e = row_uring(in, &st, out)) < 0 ||
	    (e = rows_load(in, out)) < 0 || (e = rows_suffer(in, out)) < 0 ||
	    (e = rows_cache(in, out)) < 0 || (e = rows_tasks(in, out)) < 0 ||
	    (e = fs_rows(in, out)) < 0 || (e = verdict(in, out)) < 0)
		return e;
	return 0;
}

int
ds_triage_exit(const struct ds_findings *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (f->f[i].sev >= DS_TR_WARN)
			return 3;
	return 0;
}

void
ds_findings_free(struct ds_findings *f)
{
	free(f->f);
	memset(f, 0, sizeof(*f));
}
