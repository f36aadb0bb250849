/*
 * The rows of a report per process, thread or cgroup (dwho): an entry's
 * rates as the columns show them, their order (sort key, then id), the
 * sums per cgroup of a whole sample (-g from /proc/PID/io), the names of
 * the sort keys, and the rows kept to be sorted, with -n in a heap.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* v and have from r. */
static void
ds_whorow_values(struct ds_whorow *rw)
{
	double h;
	int i;

	rw->have = 0;
	for (i = 0; i < DS_WR_N; i++)
		if (rw->r.have & (1u << i)) {
			/* Bytes to kB, seconds per second to percent. */
			rw->v[i] = rw->r.v[i] / (i <= DS_WR_WCHAR ? 1024.0 : 1.0);
			if (i == DS_WR_DELAY)
				rw->v[i] = rw->r.v[i] * 100.0;
			rw->have |= 1u << i;
		}
	if ((rw->have & (1u << DS_WR_READ)) &&
	    (rw->have & (1u << DS_WR_WRITE))) {
		rw->v[DS_WV_TOTAL] = rw->v[DS_WR_READ] + rw->v[DS_WR_WRITE];
		rw->have |= 1u << DS_WV_TOTAL;
	}
	if ((h = ds_who_hit(&rw->r)) >= 0) {
		rw->v[DS_WV_HIT] = h;
		rw->have |= 1u << DS_WV_HIT;
	}
}

static int
make(const struct ds_whocfg *c, int idle, const struct ds_proc *q,
    const struct ds_proc *p, const uint64_t *prev_up, uint64_t up,
    struct ds_whorow *rw)
{
	double secs, age;

	if (prev_up != NULL) {
		secs = (double)(up - *prev_up) / 1e9;
		age = ds_proc_age(p, up, c->clk_tck);
		/*
		 * Not in the first sample, yet older than the interval (it
		 * changed user or name into the selection): no baseline, so
		 * its rates since it started rather than a lifetime in one
		 * interval.  A tick of slack for the start time's resolution.
		 */
		if ((q == NULL || q->starttime != p->starttime) &&
		    age > secs + 2.0 / (double)c->clk_tck) {
			q = NULL;
			secs = age;
		}
	} else {
		secs = ds_proc_age(p, up, c->clk_tck);
	}
	memset(rw, 0, sizeof(*rw));
	rw->p = p;
	rw->procs = 1;
	rw->key = c->key;
	ds_who_rate(q, p, secs, c->clk_tck, c->delay, &rw->r);
	if (!idle && !rw->r.active)
		return 0;
	ds_whorow_values(rw);
	return 1;
}

int
ds_whorow_make(const struct ds_whocfg *c, const struct ds_proc *q,
    const struct ds_proc *p, const uint64_t *prev_up, uint64_t up,
    struct ds_whorow *rw)
{
	return make(c, c->idle, q, p, prev_up, up, rw);
}

int
ds_whorow_cmp(const struct ds_whorow *x, const struct ds_proc *px,
    const struct ds_whorow *y, const struct ds_proc *py)
{
	int k = x->key, hx, hy;

	if (k >= 0) {
		hx = (x->have >> k) & 1;
		hy = (y->have >> k) & 1;
		if (hx != hy)
			return hy - hx;		/* unknown values last */
		if (hx && x->v[k] != y->v[k])
			return x->v[k] < y->v[k] ? 1 : -1;
	}
	if (px != NULL && py != NULL)
		return (px->pid > py->pid) - (px->pid < py->pid);
	if (x->cgroup != NULL && y->cgroup != NULL)
		return strcmp(x->cgroup, y->cgroup);
	return 0;
}

/* Rows whose entries lie outside the array sorted. */
static int
cmp_row(const void *a, const void *b)
{
	const struct ds_whorow *x = a, *y = b;

	return ds_whorow_cmp(x, x->p, y, y->p);
}

static const char *
cgroup_of(const struct ds_whorow *rw)
{
	return rw->p->cgroup != NULL ? rw->p->cgroup : "-";
}

/* By cgroup (an entry without one first), then pid: a total order. */
static int
cmp_cgroup(const void *a, const void *b)
{
	const struct ds_whorow *x = a, *y = b;
	const char *cx = x->p->cgroup ? x->p->cgroup : "";
	const char *cy = y->p->cgroup ? y->p->cgroup : "";
	int c = strcmp(cx, cy);

	if (c != 0)
		return c;
	return (x->p->pid > y->p->pid) - (x->p->pid < y->p->pid);
}

/* Sum the members of each cgroup of rows [0, n) into its first row. */
static size_t
sum_groups(const struct ds_whocfg *c, struct ds_whorow *rows, size_t n)
{
	size_t i, j, g;

	if (n > 1)
		qsort(rows, n, sizeof(*rows), cmp_cgroup);
	for (i = 0, g = 0; i < n; i = j) {
		struct ds_whorow sum = rows[i];

		sum.cgroup = cgroup_of(&sum);
		for (j = i + 1; j < n &&
		    strcmp(sum.cgroup, cgroup_of(&rows[j])) == 0; j++) {
			ds_who_rate_add(&sum.r, &rows[j].r);
			sum.procs++;
		}
		if (!c->idle && !sum.r.active)
			continue;
		sum.p = NULL;
		ds_whorow_values(&sum);
		rows[g++] = sum;
	}
	return g;
}

int
ds_whorows_cgroups(const struct ds_whocfg *c, const struct ds_procs *prev,
    const struct ds_procs *cur, struct ds_whorows *out)
{
	struct ds_whorow *r;
	size_t i, n = 0;

	if (cur->n > out->cap) {
		if ((r = calloc(cur->n, sizeof(*r))) == NULL)
			return -ENOMEM;
		free(out->r);
		out->r = r;
		out->cap = cur->n;
	}
	for (i = 0; i < cur->n; i++) {
		const struct ds_proc *p = &cur->p[i], *q = NULL;

		if (prev != NULL)
			q = ds_procs_find(prev, p->pid);
		if (make(c, 1, q, p, prev != NULL ? &prev->uptime_ns : NULL,
		    cur->uptime_ns, &out->r[n]))
			n++;
	}
	n = sum_groups(c, out->r, n);
	if (n > 1 && c->sorted)
		qsort(out->r, n, sizeof(*out->r), cmp_row);
	out->n = c->top > 0 && c->top < n ? (size_t)c->top : n;
	return 0;
}

void
ds_whorows_free(struct ds_whorows *rs)
{
	free(rs->r);
	rs->r = NULL;
	rs->n = rs->cap = 0;
}

const char *
ds_who_command(const struct ds_proc *p, int cmdline, char *buf, size_t size,
    size_t *len)
{
	int n;

	if (!cmdline) {
		*len = p->comm_len;
		return p->comm;
	}
	if (p->cmdline != NULL) {
		*len = p->cmdline_len;
		return p->cmdline;
	}
	/* Kernel threads have no command line: ps(1) brackets. */
	n = snprintf(buf, size, "[%s]", p->comm);
	*len = n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
	return buf;
}

/* ---- the columns of the rows ---- */

/* The value columns, in output order; one per ds_who_col plus hit%. */
/* Output order: hit% before %iodelay. */
static const int ds_who_vorder[DS_WHO_NV] = {
	DS_WR_READ, DS_WR_WRITE, DS_WR_CANCELLED, DS_WR_RCHAR, DS_WR_WCHAR,
	DS_WR_SYSCR, DS_WR_SYSCW, DS_WV_HIT, DS_WR_DELAY,
};

/* Gauges for rates (used by -g with -o prom, and every other format). */
static const struct ds_col rate_col[DS_WHO_NV] = {
	{ "kB_rd/s", DS_T_F2, DS_P_GAUGE, "read_bytes_per_second",
	    "Bytes read from block devices per second.", 0, 1024, 0 },
	{ "kB_wr/s", DS_T_F2, DS_P_GAUGE, "write_bytes_per_second",
	    "Bytes dirtied or written directly per second.", 0, 1024, 0 },
	{ "kB_ccwr/s", DS_T_F2, DS_P_GAUGE, "cancelled_write_bytes_per_second",
	    "Dirtied bytes not written back (truncated) per second.", 0, 1024, 0 },
	{ "kB_rchar/s", DS_T_F2, DS_P_GAUGE, "rchar_bytes_per_second",
	    "Bytes asked for by read syscalls per second.", 0, 1024, 0 },
	{ "kB_wchar/s", DS_T_F2, DS_P_GAUGE, "wchar_bytes_per_second",
	    "Bytes passed to write syscalls per second.", 0, 1024, 0 },
	{ "syscr/s", DS_T_F2, DS_P_GAUGE, "read_syscalls_per_second",
	    "Read syscalls per second.", 0, 0, 0 },
	{ "syscw/s", DS_T_F2, DS_P_GAUGE, "write_syscalls_per_second",
	    "Write syscalls per second.", 0, 0, 0 },
	{ "%iodelay", DS_T_F2, DS_P_GAUGE, "blkio_delay_ratio",
	    "Share of time spent waiting for block I/O, summed over threads.",
	    0, 0.01, 0 },
	{ "hit%", DS_T_F2, DS_P_GAUGE, "page_cache_hit_ratio",
	    "Estimated page cache hit ratio 1 - read_bytes/rchar.", 0, 0.01, 0 },
};

/* Counters since the process started (-o prom per process/thread). */
static const struct ds_col ctr_col[DS_WR_N] = {
	{ "read_bytes", DS_T_U64, DS_P_COUNTER, "read_bytes_total",
	    "Bytes read from block devices.", 0, 0, 0 },
	{ "write_bytes", DS_T_U64, DS_P_COUNTER, "write_bytes_total",
	    "Bytes dirtied or written directly.", 0, 0, 0 },
	{ "cancelled_write_bytes", DS_T_U64, DS_P_COUNTER,
	    "cancelled_write_bytes_total",
	    "Dirtied bytes not written back (truncated).", 0, 0, 0 },
	{ "rchar", DS_T_U64, DS_P_COUNTER, "rchar_bytes_total",
	    "Bytes asked for by read syscalls.", 0, 0, 0 },
	{ "wchar", DS_T_U64, DS_P_COUNTER, "wchar_bytes_total",
	    "Bytes passed to write syscalls.", 0, 0, 0 },
	{ "syscr", DS_T_U64, DS_P_COUNTER, "read_syscalls_total",
	    "Read syscalls.", 0, 0, 0 },
	{ "syscw", DS_T_U64, DS_P_COUNTER, "write_syscalls_total",
	    "Write syscalls.", 0, 0, 0 },
	{ "blkio_delay", DS_T_F2, DS_P_COUNTER, "blkio_delay_seconds_total",
	    "Seconds spent waiting for block I/O, summed over threads.", 0, 0, 0 },
};
static const int ds_who_io_field[DS_WR_DELAY] = {
	DS_IO_READ_BYTES, DS_IO_WRITE_BYTES, DS_IO_CANCELLED_WRITE_BYTES,
	DS_IO_RCHAR, DS_IO_WCHAR, DS_IO_SYSCR, DS_IO_SYSCW,
};

static const struct ds_col c_time =
	{ "time", DS_T_TIME, DS_P_NONE, NULL, NULL, 0, 0, 0 };
static const struct ds_col c_pid =
	{ "pid", DS_T_U64, DS_P_LABEL, "pid", NULL, 0, 0, 0 };
static const struct ds_col c_tid =
	{ "tid", DS_T_U64, DS_P_LABEL, "tid", NULL, 0, 0, 0 };
static const struct ds_col c_user =
	{ "user", DS_T_STR, DS_P_LABEL, "user", NULL, 0, 0, 0 };
static const struct ds_col c_command =
	{ "command", DS_T_STR, DS_P_LABEL, "command", NULL, 0, 0, 0 };
/*
 * At the end, so that TSV fields keep their numbers.  start labels a
 * series in prom: a pid is reused, a pid with its start time is not.
 */
static const struct ds_col c_carries =
	{ "carries", DS_T_STR, DS_P_NONE, NULL,
	    "a kernel thread doing others' I/O: loop, flush, journal", 0, 0,
	    0 };
static const struct ds_col c_start =
	{ "start", DS_T_U64, DS_P_LABEL, "start",
	    "start time, clock ticks after boot (stat field 22)", 0, 0,
	    DS_C_WIDE };
static const struct ds_col c_cgroup =
	{ "cgroup", DS_T_STR, DS_P_LABEL, "cgroup", NULL, 0, 0, 0 };
static const struct ds_col c_procs =
	{ "procs", DS_T_U64, DS_P_GAUGE, "cgroup_processes",
	    "Processes in the cgroup.", 0, 0, 0 };
static const struct ds_col c_limit =
	{ "limit", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 };



size_t
ds_who_columns(unsigned int how, struct ds_col *cols)
{
	int group = (how & DS_WHOCOL_GROUP) != 0, i;
	size_t n = 0;

	cols[n++] = c_time;
	if (group) {
		cols[n++] = c_cgroup;
		cols[n++] = c_procs;
	} else {
		cols[n++] = c_pid;
		if (how & DS_WHOCOL_THREAD)
			cols[n++] = c_tid;
		cols[n++] = c_user;
		cols[n++] = c_command;
	}
	if (how & DS_WHOCOL_COUNTERS)
		for (i = 0; i < DS_WR_N; i++)
			cols[n++] = ctr_col[i];
	else
		for (i = 0; i < DS_WHO_NV; i++)
			cols[n++] = rate_col[ds_who_vorder[i]];
	if (!group) {
		cols[n++] = c_carries;
		cols[n++] = c_start;
	} else
		cols[n++] = c_limit;
	return n;
}

/*
 * Sort keys: one set of names on every host.  Each name gives the
 * column of the proc source (/proc/PID/io) and of io.stat (-g where the
 * kernel has it); a name of either source, or a plain word, works with
 * both.  Reads and writes pair syscalls with io.stat's I/Os: the
 * nearest count each source has.
 */
static const struct skey {
	const char *name;
	int proc;		/* index of ds_whorow.v, DS_WV_PID */
	int cg;			/* enum ds_iostat_key */
} skeys[] = {
	{ "read", DS_WR_READ, 0 }, { "kB_rd/s", DS_WR_READ, 0 },
	{ "rkB/s", DS_WR_READ, 0 }, { "rbytes", DS_WR_READ, 0 },
	{ "write", DS_WR_WRITE, 1 }, { "kB_wr/s", DS_WR_WRITE, 1 },
	{ "wkB/s", DS_WR_WRITE, 1 }, { "wbytes", DS_WR_WRITE, 1 },
	{ "reads", DS_WR_SYSCR, 2 }, { "syscr/s", DS_WR_SYSCR, 2 },
	{ "r/s", DS_WR_SYSCR, 2 }, { "rios", DS_WR_SYSCR, 2 },
	{ "writes", DS_WR_SYSCW, 3 }, { "syscw/s", DS_WR_SYSCW, 3 },
	{ "w/s", DS_WR_SYSCW, 3 }, { "wios", DS_WR_SYSCW, 3 },
	{ "discard", DS_WV_NONE, 4 }, { "dkB/s", DS_WV_NONE, 4 },
	{ "dbytes", DS_WV_NONE, 4 }, { "discards", DS_WV_NONE, 5 },
	{ "d/s", DS_WV_NONE, 5 }, { "dios", DS_WV_NONE, 5 },
	{ "cancelled", DS_WR_CANCELLED, DS_WV_NONE },
	{ "kB_ccwr/s", DS_WR_CANCELLED, DS_WV_NONE },
	{ "rchar", DS_WR_RCHAR, DS_WV_NONE },
	{ "kB_rchar/s", DS_WR_RCHAR, DS_WV_NONE },
	{ "wchar", DS_WR_WCHAR, DS_WV_NONE },
	{ "kB_wchar/s", DS_WR_WCHAR, DS_WV_NONE },
	{ "hit", DS_WV_HIT, DS_WV_NONE }, { "hit%", DS_WV_HIT, DS_WV_NONE },
	{ "iodelay", DS_WR_DELAY, DS_WV_NONE },
	{ "%iodelay", DS_WR_DELAY, DS_WV_NONE },
	{ "io", DS_WV_TOTAL, DS_WV_NONE }, { "pid", DS_WV_PID, DS_WV_NONE },
};

int
ds_who_sort_key(const char *name, int *proc, int *cg)
{
	size_t i;

	for (i = 0; i < sizeof(skeys) / sizeof(skeys[0]); i++)
		if (strcmp(name, skeys[i].name) == 0) {
			*proc = skeys[i].proc;
			*cg = skeys[i].cg;
			return 0;
		}
	return -ENOENT;
}

/* ---- rows kept to be sorted ---- */

/*
 * Each compared through its own entry, wherever it lies: a pointer
 * from the row to it would name the element that was there before the
 * row moved (C11 7.22.5p4).
 */
static int
ds_whokept_cmp(const void *a, const void *b)
{
	const struct ds_whokept *x = a, *y = b;

	return ds_whorow_cmp(&x->rw, &x->p, &y->rw, &y->p);
}

int
ds_whokept_offer(struct ds_topn *t, uint64_t top, const struct ds_whorow *rw,
    const struct ds_proc *p)
{
	struct ds_whokept h, out;
	int e;

	if (t->size == 0)
		ds_topn_init(t, sizeof(h), top, ds_whokept_cmp);
	h.rw = *rw;
	h.p = *p;
	h.p.cgroup = NULL;
	if (!ds_topn_wants(t, &h))
		return 0;
	/* The scan frees its entry's command line after the call. */
	if (p->cmdline != NULL && (h.p.cmdline = strdup(p->cmdline)) == NULL)
		return -ENOMEM;
	if ((e = ds_topn_offer(t, &h, &out)) < 0) {
		free(h.p.cmdline);
		return e;
	}
	if (e == 2)
		free(out.p.cmdline);
	return 0;
}

int
ds_whokept_sort(struct ds_topn *t)
{
	struct ds_whokept *h;
	size_t i;
	int e;

	if ((e = ds_topn_sort(t)) < 0)
		return e;
	h = t->v;
	for (i = 0; i < t->n; i++)
		h[i].rw.p = &h[i].p;
	return 0;
}

void
ds_whokept_clear(struct ds_topn *t)
{
	struct ds_whokept *h = t->v;
	size_t i;

	for (i = 0; i < t->n; i++)
		free(h[i].p.cmdline);
	t->n = 0;
}

/* Counters since the process started (DS_WHOCOL_COUNTERS). */
static void
write_counters(struct ds_writer *w, const struct ds_whocfg *c,
    const struct ds_proc *p)
{
	int i;

	for (i = 0; i < DS_WR_DELAY; i++)
		if (p->io_err == 0 && (p->io.have & (1u << ds_who_io_field[i])))
			ds_w_u64(w, p->io.v[ds_who_io_field[i]]);
		else
			ds_w_null(w);
	/* Field 42 is in clock ticks. */
	if (c->delay && p->have_blkio)
		ds_w_f(w, (double)p->blkio_ticks / (double)c->clk_tck);
	else
		ds_w_null(w);
}

void
ds_whorow_write(struct ds_writer *w, unsigned int how,
    const struct ds_whocfg *c, struct ds_users *u, const struct ds_root *r,
    const struct ds_whorow *rw, const char *limit, uint64_t now)
{
	const struct ds_proc *p = rw->p;
	char buf[80];
	const char *cmd;
	size_t len;
	int i;

	ds_w_time(w, now);
	if (how & DS_WHOCOL_GROUP) {
		ds_w_str(w, rw->cgroup);
		ds_w_u64(w, rw->procs);
	} else {
		ds_w_u64(w, (uint64_t)p->tgid);
		if (how & DS_WHOCOL_THREAD)
			ds_w_u64(w, (uint64_t)p->pid);
		ds_w_str(w, ds_user_name(u, r, p->uid));
		cmd = ds_who_command(p, c->cmdline, buf, sizeof(buf), &len);
		/* A series keeps its name while a kworker changes work. */
		if (w->fmt == DS_FMT_PROM && !c->cmdline)
			len = ds_who_stable_len(cmd, len);
		ds_w_strn(w, cmd, len);
	}
	if (how & DS_WHOCOL_COUNTERS)
		write_counters(w, c, p);
	for (i = 0; !(how & DS_WHOCOL_COUNTERS) && i < DS_WHO_NV; i++)
		if (rw->have & (1u << ds_who_vorder[i]))
			ds_w_f(w, rw->v[ds_who_vorder[i]]);
		else
			ds_w_null(w);
	if (!(how & DS_WHOCOL_GROUP)) {
		ds_w_str(w, ds_who_carrier(p->comm, p->comm_len));
		ds_w_u64(w, p->starttime);
	} else if (limit != NULL && *limit != '\0')
		ds_w_str(w, limit);
	else
		ds_w_null(w);
	ds_w_row_end(w);
}

/* Each note once: 1 when bit is yet to be said. */
static int
unsaid(struct ds_whonotes *n, int bit)
{
	return !(n->said & bit) && (n->said |= bit);
}

int
ds_who_note(struct ds_whonotes *n, int root, char *msg, size_t size)
{
	if (n->source != NULL && unsaid(n, 1))
		snprintf(msg, size, "%s", n->source);
	else if (n->bad > 0 && n->bad_iostat && unsaid(n, 2))
		snprintf(msg, size, "%zu malformed io.stat %s skipped", n->bad,
		    n->bad == 1 ? "line" : "lines");
	else if (n->bad > 0 && unsaid(n, 2))
		snprintf(msg, size, "%zu malformed proc/PID/stat or io %s "
		    "(first: pid %d): shown as - or skipped", n->bad,
		    n->bad == 1 ? "file" : "files", n->first_bad);
	else if (n->off_delay && unsaid(n, 4))
		snprintf(msg, size, "delay accounting is off, %%iodelay is -: "
		    "enable it with 'sysctl kernel.task_delayacct=1' or the "
		    "'delayacct' boot option; only tasks started after enabling "
		    "it are accounted");
	/*
	 * Unprivileged, other users' io files are closed to us; as root,
	 * only processes that refuse ptrace access (another user
	 * namespace's init, say) remain.
	 */
	else if (n->unreadable > 0 && unsaid(n, 8))
		snprintf(msg, size, "I/O counters of %zu %s unreadable (%s): "
		    "their byte and syscall columns are -", n->unreadable,
		    n->unreadable == 1 ? "process are" : "processes are",
		    root ? "/proc/PID/io refused even to root" :
		    "other users' /proc/PID/io needs root");
	else
		return 0;
	return 1;
}
