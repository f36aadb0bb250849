/*
 * dwho: who is doing disk I/O, and who is waiting on it.
 * Per process (or thread, or cgroup): block-layer bytes, syscall bytes
 * and counts, an estimated page-cache hit ratio, and the share of time
 * spent waiting for block I/O summed over all threads.
 */
#include <limits.h>
#include <regex.h>

#include "util/util.h"

enum mode { M_PROC, M_THREAD, M_GROUP };

struct opts {
	int all;		/* -a */
	int cmdline;		/* -l */
	enum mode mode;
	int threads;		/* -t */
	int *pids;		/* -p */
	size_t npids;
	const char *user;	/* -u */
	int have_uid;
	uint32_t uid;
	regex_t re;		/* -c */
	int have_re;
	const char *sort_name;	/* -s */
	int sort;		/* -s: index into vcols, -1 pid */
	int sort_set;
	uint64_t top;		/* -n, 0: all */
	const char *source;	/* -G iostat|proc, NULL: choose */
	long clk_tck;
	struct ds_root *r;
	struct ds_users users;
};

/* The value columns, in output order; one per ds_who_col plus hit%. */
#define V_HIT DS_WR_N
#define NV (DS_WR_N + 1)
#define V_TOTAL NV		/* sort key of -n alone: kB_rd/s + kB_wr/s */
/* Output order: hit% before %iodelay. */
static const int vorder[NV] = {
	DS_WR_READ, DS_WR_WRITE, DS_WR_CANCELLED, DS_WR_RCHAR, DS_WR_WCHAR,
	DS_WR_SYSCR, DS_WR_SYSCW, V_HIT, DS_WR_DELAY,
};

/* Gauges for rates (used by -g with -o prom, and every other format). */
static const struct ds_col rate_col[NV] = {
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
static const int io_of[DS_WR_DELAY] = {
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

struct row {
	const struct ds_proc *p;
	const char *cgroup;	/* M_GROUP */
	uint64_t procs;
	struct ds_who_rate r;
	double v[NV + 1];
	uint32_t have;		/* bit per index of v */
};

static const char synopsis[] =
    "dwho [-aghlHt] [-c regex] [-G iostat|proc] [-n num] [-O cols]\n"
    "            [-o fmt] [-p pid,...] [-R dir] [-s key] [-u user] [-w file]\n"
    "            [--utc] [interval [count]]";

static const char options[] =
    "  -a            also processes whose counters did not move\n"
    "  -c regex      only commands matching regex (extended)\n"
    "  -g            per cgroup (io.stat where the kernel has it)\n"
    "  -G source     -g from iostat (io.stat) or proc (/proc/PID/io)\n"
    "  -l            the whole command line\n"
    "  -n num        the num rows that did most I/O (or most by -s)\n"
    "  -p pid,...    only these processes\n"
    "  -s key        sort: read write reads writes discard discards\n"
    "                cancelled rchar wchar hit iodelay io pid, or a column\n"
    "  -t            per thread\n"
    "  -u user       only processes of user (a name or a uid)\n";

static const struct tool_info info = { synopsis, options, TOOL_N_COUNT };

static int
cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static void
parse_pids(struct opts *o, const char *arg)
{
	char *s, *tok, *save, *copy;
	uint64_t v;
	size_t i, j;

	if ((copy = strdup(arg)) == NULL)
		err(1, NULL);
	for (s = copy; (tok = strtok_r(s, ",", &save)) != NULL; s = NULL) {
		if (ds_strtou64(tok, &v) < 0 || v < 1 || v > INT_MAX) {
			warnx("-p %s: not a process id", tok);
			usage();
		}
		o->pids = reallocarray(o->pids, o->npids + 1, sizeof(int));
		if (o->pids == NULL)
			err(1, NULL);
		o->pids[o->npids++] = (int)v;
	}
	free(copy);
	if (o->npids == 0) {
		warnx("-p: no process id given");
		usage();
	}
	/* Sorted and unique, so each is read once. */
	qsort(o->pids, o->npids, sizeof(int), cmp_int);
	for (i = j = 0; i < o->npids; i++)
		if (j == 0 || o->pids[j - 1] != o->pids[i])
			o->pids[j++] = o->pids[i];
	o->npids = j;
}

static const char *
shown_command(const struct ds_proc *p, const struct opts *o, size_t *len,
    char *buf, size_t size)
{
	int n;

	if (o->cmdline) {
		if (p->cmdline != NULL) {
			*len = p->cmdline_len;
			return p->cmdline;
		}
		/* Kernel threads have no command line: ps(1) brackets. */
		n = snprintf(buf, size, "[%s]", p->comm);
		*len = n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
		return buf;
	}
	*len = p->comm_len;
	return p->comm;
}

static const struct opts *sort_opts;

/*
 * x (of entry px) before y (of entry py): the sort column, then the id;
 * cgroup rows (no entry) by their names, the order they were summed in.
 * The entries are passed apart from the rows because a kept row's own
 * is stored beside it (struct hrow): qsort moves it, and a pointer to it
 * would name the element that was there before (C11 7.22.5p4).
 */
static int
cmp_rows(const struct row *x, const struct ds_proc *px, const struct row *y,
    const struct ds_proc *py)
{
	int k = sort_opts->sort, hx, hy;

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

/* Rows whose entries lie outside the array sorted (report()). */
static int
cmp_row(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	return cmp_rows(x, x->p, y, y->p);
}

static int
cmp_cgroup(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	const char *cx = x->p->cgroup ? x->p->cgroup : "";
	const char *cy = y->p->cgroup ? y->p->cgroup : "";
	int c = strcmp(cx, cy);

	if (c != 0)
		return c;
	return (x->p->pid > y->p->pid) - (x->p->pid < y->p->pid);
}

static void
fill_values(struct row *rw)
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
		rw->v[V_TOTAL] = rw->v[DS_WR_READ] + rw->v[DS_WR_WRITE];
		rw->have |= 1u << V_TOTAL;
	}
	if ((h = ds_who_hit(&rw->r)) >= 0) {
		rw->v[V_HIT] = h;
		rw->have |= 1u << V_HIT;
	}
}

/* A row kept to be sorted (-s, -t, -n), with a copy of its entry. */
struct hrow {
	struct row rw;		/* rw.p points at p below */
	struct ds_proc p;
};

struct state {
	struct tool *t;
	struct opts *o;
	int skip_said;		/* skipped cgroup subtrees named once */
	struct ds_writer w;
	struct ds_col cols[32];
	size_t ncols;
	int prom_ctr;		/* per-entry counters (prom, not -g) */
	struct row *rows;
	size_t cap;
	/* What the notes will say, and whether each was said. */
	int off_delay, noted_delay;
	size_t unreadable;
	int noted_unreadable;
	size_t bad;
	int first_bad, noted_bad, bad_iostat;
	const char *source_note;	/* which -g source, said once */
	char source_buf[4200];
	int noted_source;
	/* Rows made as entries are read (all but -g). */
	struct ds_whobase bases[2];
	struct ds_whobase *prev; /* the scan before, NULL in one report */
	struct ds_whobase *next; /* this scan's, NULL when none follows */
	struct ds_whonames names;	/* this scan's, when late */
	int reporting, begun, delay;
	int late;		/* rows made from the bases after the scan */
	uint64_t now;
	struct ds_topn heap;	/* rows to sort; with -n a heap, worst on top */
};

/* Filter after stat (and cmdline), before the rest is read. */
static int
keep(const struct ds_proc *p, void *arg)
{
	struct state *s = arg;
	struct opts *o = s->o;
	char buf[80];
	size_t len;
	const char *cmd;

	if (o->user != NULL) {
		if (o->have_uid ? p->uid != o->uid :
		    strcmp(ds_user_name(&o->users, o->r, p->uid), o->user) != 0)
			return 0;
	}
	if (o->have_re) {
		cmd = shown_command(p, o, &len, buf, sizeof(buf));
		/* regexec wants a C string; comm and cmdline hold no NUL. */
		if (regexec(&o->re, cmd, 0, NULL, 0) != 0)
			return 0;
	}
	return 1;
}

static void
setup_columns(struct state *s)
{
	size_t n = 0;
	int i;

	s->cols[n++] = c_time;
	if (s->o->mode == M_GROUP) {
		s->cols[n++] = c_cgroup;
		s->cols[n++] = c_procs;
	} else {
		s->cols[n++] = c_pid;
		if (s->o->mode == M_THREAD)
			s->cols[n++] = c_tid;
		s->cols[n++] = c_user;
		s->cols[n++] = c_command;
	}
	s->prom_ctr = s->t->fmt == DS_FMT_PROM && s->o->mode != M_GROUP;
	if (s->prom_ctr)
		for (i = 0; i < DS_WR_N; i++)
			s->cols[n++] = ctr_col[i];
	else
		for (i = 0; i < NV; i++)
			s->cols[n++] = rate_col[vorder[i]];
	if (s->o->mode != M_GROUP) {
		s->cols[n++] = c_carries;
		s->cols[n++] = c_start;
	}
	s->ncols = n;
	ds_writer_init(&s->w, s->t->out, s->t->fmt, s->cols, s->ncols,
	    s->t->header, "dwho");
	tool_writer(s->t, &s->w);
}

static void
write_value(struct state *s, const struct row *rw, int vi)
{
	if (rw->have & (1u << vi))
		ds_w_f(&s->w, rw->v[vi]);
	else
		ds_w_null(&s->w);
}

static void
write_row(struct state *s, const struct row *rw, uint64_t now, int delay)
{
	const struct ds_proc *p = rw->p;
	char buf[80];
	const char *cmd;
	size_t len;
	int i;

	ds_w_time(&s->w, now);
	if (s->o->mode == M_GROUP) {
		ds_w_str(&s->w, rw->cgroup);
		ds_w_u64(&s->w, rw->procs);
	} else {
		ds_w_u64(&s->w, (uint64_t)p->tgid);
		if (s->o->mode == M_THREAD)
			ds_w_u64(&s->w, (uint64_t)p->pid);
		ds_w_str(&s->w, ds_user_name(&s->o->users, s->o->r, p->uid));
		cmd = shown_command(p, s->o, &len, buf, sizeof(buf));
		/* A series keeps its name while a kworker changes work. */
		if (s->t->fmt == DS_FMT_PROM && !s->o->cmdline)
			len = ds_who_stable_len(cmd, len);
		ds_w_strn(&s->w, cmd, len);
	}
	if (s->prom_ctr) {
		for (i = 0; i < DS_WR_DELAY; i++)
			if (p->io_err == 0 && (p->io.have & (1u << io_of[i])))
				ds_w_u64(&s->w, p->io.v[io_of[i]]);
			else
				ds_w_null(&s->w);
		if (delay && p->have_blkio)
			ds_w_f(&s->w, (double)p->blkio_ticks /
			    (double)s->o->clk_tck);
		else
			ds_w_null(&s->w);
	} else {
		for (i = 0; i < NV; i++)
			write_value(s, rw, vorder[i]);
	}
	if (s->o->mode != M_GROUP) {
		ds_w_str(&s->w, ds_who_carrier(p->comm, p->comm_len));
		ds_w_u64(&s->w, p->starttime);
	}
	ds_w_row_end(&s->w);
}

/*
 * The notes on standard error, each once.  A person at a terminal gets
 * them before the first report; a pipe, a file or cron gets them after
 * the data, at the end of the run (also on SIGINT or SIGTERM), so that
 * "dwho 1 | head -1" ends quietly.
 */
static void
notes(struct state *s)
{
	if (s->source_note != NULL && !s->noted_source) {
		s->noted_source = 1;
		warnx("%s", s->source_note);
	}
	if (s->bad > 0 && !s->noted_bad && s->bad_iostat) {
		s->noted_bad = 1;
		warnx("%zu malformed io.stat %s skipped", s->bad,
		    s->bad == 1 ? "line" : "lines");
	}
	if (s->bad > 0 && !s->noted_bad) {
		s->noted_bad = 1;
		warnx("%zu malformed proc/PID/stat or io %s (first: pid %d): "
		    "shown as - or skipped", s->bad,
		    s->bad == 1 ? "file" : "files", s->first_bad);
	}
	if (s->off_delay && !s->noted_delay) {
		s->noted_delay = 1;
		warnx("delay accounting is off, %%iodelay is -: enable it with "
		    "'sysctl kernel.task_delayacct=1' or the 'delayacct' boot "
		    "option; only tasks started after enabling it are "
		    "accounted");
	}
	if (s->unreadable > 0 && !s->noted_unreadable) {
		s->noted_unreadable = 1;
		/*
		 * Unprivileged, other users' io files are closed to us; as
		 * root, only processes that refuse ptrace access (another
		 * user namespace's init, say) remain.
		 */
		warnx("I/O counters of %zu %s unreadable (%s): their byte "
		    "and syscall columns are -", s->unreadable,
		    s->unreadable == 1 ? "process are" : "processes are",
		    geteuid() == 0 ? "/proc/PID/io refused even to root" :
		    "other users' /proc/PID/io needs root");
	}
}

/*
 * The row of p, against q of the scan before (prev_up: its uptime, NULL
 * in a report since each process started).  0 when it is not shown.
 */
static int
entry_row(struct state *s, const uint64_t *prev_up, const struct ds_proc *q,
    const struct ds_proc *p, uint64_t up, int delay, struct row *rw)
{
	struct opts *o = s->o;
	double secs, age;

	if (prev_up != NULL) {
		secs = (double)(up - *prev_up) / 1e9;
		age = ds_proc_age(p, up, o->clk_tck);
		/*
		 * Not in the first sample, yet older than the interval (it
		 * changed user or name into the selection): no baseline, so
		 * its rates since it started rather than a lifetime in one
		 * interval.  A tick of slack for the start time's resolution.
		 */
		if ((q == NULL || q->starttime != p->starttime) &&
		    age > secs + 2.0 / (double)o->clk_tck) {
			q = NULL;
			secs = age;
		}
	} else {
		secs = ds_proc_age(p, up, o->clk_tck);
	}
	memset(rw, 0, sizeof(*rw));
	rw->p = p;
	rw->procs = 1;
	ds_who_rate(q, p, secs, o->clk_tck, delay, &rw->r);
	if (!o->all && !rw->r.active && o->mode != M_GROUP)
		return 0;
	fill_values(rw);
	return 1;
}

/* One report: cur against prev (NULL: since each process started). */
static void
report(struct state *s, const struct ds_procs *prev,
    const struct ds_procs *cur, int delay)
{
	struct opts *o = s->o;
	size_t i, n = 0, g, j, shown;
	uint64_t now = ds_realtime_ns();

	if (cur->n > s->cap) {
		free(s->rows);
		s->cap = cur->n;
		if ((s->rows = calloc(s->cap, sizeof(*s->rows))) == NULL)
			err(1, NULL);
	}
	for (i = 0; i < cur->n; i++) {
		const struct ds_proc *p = &cur->p[i], *q = NULL;

		if (prev != NULL)
			q = ds_procs_find(prev, p->pid);
		if (entry_row(s, prev != NULL ? &prev->uptime_ns : NULL, q, p,
		    cur->uptime_ns, delay, &s->rows[n]))
			n++;
	}
	if (o->mode == M_GROUP) {
		/* Sum the members of each cgroup into its first row. */
		if (n > 1)
			qsort(s->rows, n, sizeof(*s->rows), cmp_cgroup);
		for (i = 0, g = 0; i < n; i = j) {
			struct row sum = s->rows[i];

			sum.cgroup = sum.p->cgroup != NULL ? sum.p->cgroup : "-";
			for (j = i + 1; j < n && strcmp(sum.cgroup,
			    s->rows[j].p->cgroup != NULL ?
			    s->rows[j].p->cgroup : "-") == 0; j++) {
				ds_who_rate_add(&sum.r, &s->rows[j].r);
				sum.procs++;
			}
			if (!o->all && !sum.r.active)
				continue;
			sum.p = NULL;
			fill_values(&sum);
			s->rows[g++] = sum;
		}
		n = g;
	}
	sort_opts = o;
	if (n > 1 && (o->sort_set || o->mode != M_GROUP))
		qsort(s->rows, n, sizeof(*s->rows), cmp_row);
	shown = o->top > 0 && o->top < n ? (size_t)o->top : n;

	if (!delay)
		s->off_delay = 1;
	if (cur->unreadable > s->unreadable)
		s->unreadable = cur->unreadable;
	if (isatty(STDERR_FILENO))
		notes(s);
	tool_report_begin(s->t, &s->w);
	for (i = 0; i < shown; i++)
		write_row(s, &s->rows[i], now, delay);
	tool_report_end(s->t, &s->w);
}

/*
 * Sort keys: one set of names on every host.  Each name gives the
 * column of the proc source (/proc/PID/io) and of io.stat (-g where the
 * kernel has it); a name of either source, or a plain word, works with
 * both.  Reads and writes pair syscalls with io.stat's I/Os: the
 * nearest count each source has.
 */
#define SK_NONE (-3)		/* the source has no such figure */
static const struct skey {
	const char *name;
	int proc;		/* vname index, -1 pid, V_TOTAL */
	int cg;			/* cg_rate_name index */
} skeys[] = {
	{ "read", DS_WR_READ, 0 }, { "kB_rd/s", DS_WR_READ, 0 },
	{ "rkB/s", DS_WR_READ, 0 }, { "rbytes", DS_WR_READ, 0 },
	{ "write", DS_WR_WRITE, 1 }, { "kB_wr/s", DS_WR_WRITE, 1 },
	{ "wkB/s", DS_WR_WRITE, 1 }, { "wbytes", DS_WR_WRITE, 1 },
	{ "reads", DS_WR_SYSCR, 2 }, { "syscr/s", DS_WR_SYSCR, 2 },
	{ "r/s", DS_WR_SYSCR, 2 }, { "rios", DS_WR_SYSCR, 2 },
	{ "writes", DS_WR_SYSCW, 3 }, { "syscw/s", DS_WR_SYSCW, 3 },
	{ "w/s", DS_WR_SYSCW, 3 }, { "wios", DS_WR_SYSCW, 3 },
	{ "discard", SK_NONE, 4 }, { "dkB/s", SK_NONE, 4 },
	{ "dbytes", SK_NONE, 4 }, { "discards", SK_NONE, 5 },
	{ "d/s", SK_NONE, 5 }, { "dios", SK_NONE, 5 },
	{ "cancelled", DS_WR_CANCELLED, SK_NONE },
	{ "kB_ccwr/s", DS_WR_CANCELLED, SK_NONE },
	{ "rchar", DS_WR_RCHAR, SK_NONE }, { "kB_rchar/s", DS_WR_RCHAR, SK_NONE },
	{ "wchar", DS_WR_WCHAR, SK_NONE }, { "kB_wchar/s", DS_WR_WCHAR, SK_NONE },
	{ "hit", V_HIT, SK_NONE }, { "hit%", V_HIT, SK_NONE },
	{ "iodelay", DS_WR_DELAY, SK_NONE }, { "%iodelay", DS_WR_DELAY, SK_NONE },
	{ "io", V_TOTAL, SK_NONE }, { "pid", -1, SK_NONE },
};
#define NSKEYS (sizeof(skeys) / sizeof(skeys[0]))

static const struct skey *
sort_key(const char *name)
{
	size_t i;

	for (i = 0; i < NSKEYS; i++)
		if (strcmp(name, skeys[i].name) == 0)
			return &skeys[i];
	tool_usage("-s '%s': not a sort key (read write reads writes "
	    "discard discards cancelled rchar wchar hit iodelay io pid, or a "
	    "column name)", name);
	return NULL;
}

static int
sort_column(const char *name)
{
	const struct skey *k = sort_key(name);

	if (k->proc == SK_NONE)
		tool_usage("-s '%s': discards are counted only in io.stat "
		    "(-g on a kernel with the io controller)", name);
	return k->proc;
}

static int
delay_state(struct tool *t, struct ds_buf *b)
{
	int e = ds_delayacct_read(&t->r, b);

	/* Before 5.14 there was no switch: the boot option decided. */
	return e == -ENOENT ? 1 : e > 0;
}

/* After a scan: a failure ends the run; the first damage is noted. */
static void
sampled(struct state *s, int e, const struct ds_procs *ps)
{
	if (e < 0)
		tool_errc(1, e, "%s", tool_path(s->t, ps->failed != NULL ?
		    ps->failed : "proc"));
	if (ps->bad > 0 && s->bad == 0) {
		s->bad = ps->bad;
		s->first_bad = ps->first_bad;
	}
}

static void
sample(struct state *s, unsigned int flags, struct ds_procs *ps)
{
	int e;

	e = ds_procs_read(&s->t->r, flags, s->o->pids, s->o->npids, keep,
	    s, ps);
	sampled(s, e, ps);
}

/* Heap rows: each compared through its own entry, wherever it lies. */
static int
cmp_hrow(const void *a, const void *b)
{
	const struct hrow *x = a, *y = b;

	return cmp_rows(&x->rw, &x->p, &y->rw, &y->p);
}

/*
 * A row to sort on the streamed path (-s, -t, -n).  With -n the best
 * rows so far are kept in a heap whose root is the worst of them, so
 * memory follows -n, not the number of processes; otherwise every row
 * shown is kept (without -a, the few that did I/O), sorted at the end.
 */
static void
heap_offer(struct state *s, const struct row *rw, const struct ds_proc *p)
{
	struct hrow h, out;
	int e;

	if (s->heap.size == 0)
		ds_topn_init(&s->heap, sizeof(h), s->o->top, cmp_hrow);
	h.rw = *rw;
	h.p = *p;
	h.p.cgroup = NULL;
	if (!ds_topn_wants(&s->heap, &h))
		return;
	/* The scan frees its entry's command line after the call. */
	if (p->cmdline != NULL && (h.p.cmdline = strdup(p->cmdline)) == NULL)
		err(1, NULL);
	if ((e = ds_topn_offer(&s->heap, &h, &out)) < 0)
		tool_errc(1, e, NULL);
	if (e == 2)
		free(out.p.cmdline);
}

/* The kept rows of the streamed path, sorted, then forgotten. */
static void
heap_write(struct state *s)
{
	struct hrow *h;
	size_t i;
	int e;

	if ((e = ds_topn_sort(&s->heap)) < 0)
		tool_errc(1, e, NULL);
	h = s->heap.v;
	for (i = 0; i < s->heap.n; i++) {
		/* Each row's entry is the one beside it, wherever it lies. */
		h[i].rw.p = &h[i].p;
		if (!s->begun) {
			s->begun = 1;
			tool_report_begin(s->t, &s->w);
		}
		write_row(s, &h[i].rw, s->now, s->delay);
		free(h[i].p.cmdline);
	}
	s->heap.n = 0;
}

/*
 * The row of entry p (q: the same of the scan before, or NULL) written,
 * or kept to be sorted.  Nonzero after a write error (a full disk): no
 * use going on.
 */
static int
entry_out(struct state *s, const struct ds_proc *q, const struct ds_proc *p,
    uint64_t up)
{
	struct row rw;

	if (!entry_row(s, s->prev != NULL ? &s->prev->uptime_ns : NULL, q, p,
	    up, s->delay, &rw))
		return 0;
	if (s->o->top > 0 || s->o->sort_set || s->o->mode != M_PROC) {
		heap_offer(s, &rw, p);
		return 0;
	}
	if (!s->begun) {
		s->begun = 1;
		tool_report_begin(s->t, &s->w);
	}
	write_row(s, &rw, s->now, s->delay);
	return ds_writer_error(&s->w) != 0;
}

/* The streamed path: an entry as it is read. */
static int
each_entry(const struct ds_procs *scan, const struct ds_proc *p, void *arg)
{
	struct state *s = arg;
	const struct ds_proc *q = NULL;
	int e;

	if (s->next != NULL && (e = ds_whobase_add(s->next, p)) < 0)
		tool_errc(1, e, NULL);
	if (s->late && (e = ds_whonames_add(&s->names, p, s->o->cmdline)) < 0)
		tool_errc(1, e, NULL);
	if (!s->reporting || s->late)
		return 0;
	if (s->prev != NULL)
		q = ds_whobase_find(s->prev, p->tgid, p->pid);
	return entry_out(s, q, p, scan->uptime_ns);
}

/*
 * The rows of an interval's report, from the bases of this scan and the
 * one before, once the scan is over.  Rows written while it ran would
 * let a slow reader of the output hold it up, and the counters of the
 * processes read after the wait would take I/O from beyond the interval
 * measured (from proc/uptime at its start) into their rates.
 */
static void
late_rows(struct state *s, uint64_t up)
{
	const struct ds_whobase *b = s->next;
	const struct ds_proc *q = NULL;
	struct ds_proc p;
	size_t off = 0;

	while (off < b->len) {
		ds_whobase_get(b, &off, &p);
		ds_whonames_get(&s->names, &p, s->o->cmdline);
		if (s->prev != NULL)
			q = ds_whobase_find(s->prev, p.tgid, p.pid);
		if (entry_out(s, q, &p, up))
			break;
	}
}

/*
 * A scan on the streamed path.  Of the scan nothing is stored but the
 * compact base for the next report (more: one follows) and, for an
 * interval's report, the names its rows show.  report 0: an interval's
 * first sample.  A report alone (no interval) makes its rows
 * as each process is read, in pid order written at once, else kept to
 * be sorted (see heap_offer): its rates are since each process started,
 * so a wait for the reader moves them by next to nothing.  An interval's
 * report reads the whole scan first, then makes its rows (late_rows).
 */
static void
stream_scan(struct state *s, unsigned int flags, int report, int delay,
    int more)
{
	struct ds_procs scan = { 0 };
	int e;

	s->next = NULL;
	if (more) {
		s->next = s->prev == &s->bases[0] ? &s->bases[1] :
		    &s->bases[0];
		ds_whobase_reset(s->next);
	}
	if (s->prev != NULL)
		ds_whobase_rewind(s->prev);
	s->reporting = report;
	s->late = report && more;
	ds_whonames_reset(&s->names);
	s->delay = delay;
	s->begun = 0;
	if (report) {
		s->now = ds_realtime_ns();
		if (!delay)
			s->off_delay = 1;
		if (isatty(STDERR_FILENO))
			notes(s);
	}
	e = ds_procs_each(&s->t->r, flags, s->o->pids, s->o->npids, keep,
	    each_entry, s, &scan);
	sampled(s, e, &scan);
	if (s->late)
		late_rows(s, scan.uptime_ns);
	if (report) {
		if (scan.unreadable > s->unreadable)
			s->unreadable = scan.unreadable;
		heap_write(s);
		if (!s->begun)
			tool_report_begin(s->t, &s->w);
		tool_report_end(s->t, &s->w);
	}
	if (s->next != NULL) {
		s->next->uptime_ns = scan.uptime_ns;
		s->prev = s->next;
	}
	ds_procs_free(&scan);
}

/* ---- -g from cgroup v2 io.stat ---------------------------------------- */

static const char *const cg_rate_name[DS_IOS_N] = {
	"rkB/s", "wkB/s", "r/s", "w/s", "dkB/s", "d/s",
};
static const struct ds_col cg_ctr_col[DS_IOS_N] = {
	{ "rbytes", DS_T_U64, DS_P_COUNTER, "cgroup_read_bytes_total",
	    "Bytes read by the cgroup's I/O, per device (io.stat).", 0, 0, 0 },
	{ "wbytes", DS_T_U64, DS_P_COUNTER, "cgroup_write_bytes_total",
	    "Bytes written by the cgroup's I/O, per device (io.stat).", 0, 0, 0 },
	{ "rios", DS_T_U64, DS_P_COUNTER, "cgroup_reads_total",
	    "Read I/Os of the cgroup, per device (io.stat).", 0, 0, 0 },
	{ "wios", DS_T_U64, DS_P_COUNTER, "cgroup_writes_total",
	    "Write I/Os of the cgroup, per device (io.stat).", 0, 0, 0 },
	{ "dbytes", DS_T_U64, DS_P_COUNTER, "cgroup_discard_bytes_total",
	    "Bytes discarded by the cgroup, per device (io.stat).", 0, 0, 0 },
	{ "dios", DS_T_U64, DS_P_COUNTER, "cgroup_discards_total",
	    "Discard I/Os of the cgroup, per device (io.stat).", 0, 0, 0 },
};
static const struct ds_col c_device =
	{ "device", DS_T_STR, DS_P_LABEL, "device", NULL, 0, 0, 0 };

struct cgstate {
	char mnt[4096];
	struct ds_cgrow *rows;
	size_t n, cap;
	int sort;		/* index, or -1 */
	int rates;		/* interval given */
};

static int
cg_sort_column(const char *name)
{
	return sort_key(name)->cg;
}

static struct cgstate cgs;

/*
 * Decide the -g source.  io.stat when the io controller is on in v2 (or,
 * in a captured tree without the root's cgroup.controllers, when any
 * cgroup has io.stat), unless processes are selected or -G proc.
 */
static int
use_iostat(struct state *s, struct opts *o, struct tool *t)
{
	int forced = o->source != NULL, e, has;
	struct ds_cgios probe = { 0 };
	struct ds_buf b = { 0 };

	if (!forced && (o->npids > 0 || o->user != NULL || o->have_re)) {
		s->source_note = "-g: summing /proc/PID/io by cgroup "
		    "(processes selected)";
		return 0;
	}
	/* A key only /proc/PID/io has (hit, iodelay...) chooses it. */
	if (!forced && o->sort_name != NULL &&
	    sort_key(o->sort_name)->cg == SK_NONE) {
		s->source_note = "-g: summing /proc/PID/io by cgroup (the "
		    "sort key is not in io.stat)";
		return 0;
	}
	if ((e = ds_cgroup2_mount(&t->r, cgs.mnt, sizeof(cgs.mnt))) < 0) {
		if (forced)
			tool_errc(1, e, "-G iostat: no cgroup v2 mount");
		s->source_note = "-g: no cgroup v2 mount: summing "
		    "/proc/PID/io by cgroup";
		return 0;
	}
	has = ds_cgroup2_has_io(&t->r, cgs.mnt, &b);
	ds_buf_free(&b);
	if (has < 0 && ds_cgios_read(&t->r, cgs.mnt, &probe) == 0 &&
	    probe.with_iostat > 0)
		has = 1;
	ds_cgios_free(&probe);
	if (has == 1) {
		snprintf(s->source_buf, sizeof(s->source_buf),
		    "-g: per-cgroup figures from io.stat under %s%s",
		    cgs.mnt[0] == '/' ? "" : "/", cgs.mnt);
		s->source_note = s->source_buf;
		return 1;
	}
	if (forced)
		tool_errc(1, ENOTSUP, "-G iostat: %s%s: no io controller on "
		    "cgroup v2", cgs.mnt[0] == '/' ? "" : "/", cgs.mnt);
	snprintf(s->source_buf, sizeof(s->source_buf), "-g: io.stat missing "
	    "(io controller not enabled on cgroup v2 at %s%s): summing "
	    "/proc/PID/io by cgroup", cgs.mnt[0] == '/' ? "" : "/", cgs.mnt);
	s->source_note = s->source_buf;
	return 0;
}

static int
cmp_cgrow(const void *a, const void *b)
{
	const struct ds_cgrow *x = a, *y = b;
	int k = cgs.sort, c, hx, hy;

	if (k >= 0) {
		hx = (x->have >> k) & 1;
		hy = (y->have >> k) & 1;
		if (hx != hy)
			return hy - hx;
		if (hx && x->v[k] != y->v[k])
			return x->v[k] < y->v[k] ? 1 : -1;
	}
	if ((c = strcmp(x->cgroup, y->cgroup)) != 0)
		return c;
	if (x->all != y->all)
		return y->all - x->all;		/* "all" first */
	if (x->major != y->major)
		return x->major < y->major ? -1 : 1;
	return (x->minor > y->minor) - (x->minor < y->minor);
}

static void
cg_report(struct state *s, struct tool *t, const struct ds_cgios *prev,
    const struct ds_cgios *cur)
{
	size_t i, j, shown;
	uint64_t now = ds_realtime_ns();
	int x, e;

	if ((e = ds_cgio_rows(&t->r, prev, cur, &cgs.rows, &cgs.n,
	    &cgs.cap)) < 0)
		tool_errc(1, e, NULL);
	for (i = j = 0; i < cgs.n; i++)
		if (s->o->all || cgs.rows[i].active)
			cgs.rows[j++] = cgs.rows[i];
	cgs.n = j;
	if (cgs.n > 1)
		qsort(cgs.rows, cgs.n, sizeof(*cgs.rows), cmp_cgrow);
	shown = s->o->top > 0 && s->o->top < cgs.n ? (size_t)s->o->top : cgs.n;
	if (isatty(STDERR_FILENO))
		notes(s);
	tool_report_begin(t, &s->w);
	for (i = 0; i < shown; i++) {
		const struct ds_cgrow *rw = &cgs.rows[i];

		ds_w_time(&s->w, now);
		ds_w_str(&s->w, rw->cgroup);
		ds_w_str(&s->w, rw->device);
		for (x = 0; x < DS_IOS_N; x++) {
			if (!(rw->have & (1u << x)))
				ds_w_null(&s->w);
			else if (t->fmt == DS_FMT_PROM || !cgs.rates)
				ds_w_u64(&s->w, rw->u[x]);
			else
				ds_w_f(&s->w, rw->v[x]);
		}
		ds_w_row_end(&s->w);
	}
	tool_report_end(t, &s->w);
}

static void
cg_sample(struct state *s, struct tool *t, struct ds_cgios *cs)
{
	size_t i;
	int e;

	if ((e = ds_cgios_read(&t->r, cgs.mnt, cs)) < 0)
		tool_errc(1, e, "%s%s", cgs.mnt[0] == '/' ? "" : "/",
		    cgs.mnt);
	if (t->has_interval && cs->uptime_ns == 0)
		tool_errc(1, ENOENT, "%s", tool_path(t, "proc/uptime"));
	/* Subtrees the walk left out (too deep, out of descriptors). */
	for (i = 0; i < cs->nskipped && !s->skip_said; i++)
		if (cs->skipped_err[i] == -ELOOP)
			warnx("cgroup %s: subtree skipped: nested deeper than "
			    "%d levels", cs->skipped[i], DS_CGROUP_DEPTH_MAX);
		else
			tool_warnc(cs->skipped_err[i], "cgroup %s: subtree "
			    "skipped", cs->skipped[i]);
	if (cs->nskipped > 0)
		s->skip_said = 1;
	if (cs->bad > 0 && s->bad == 0) {
		s->bad = cs->bad;
		s->bad_iostat = 1;
	}
}

static void
cg_main(struct state *s, struct opts *o, struct tool *t)
{
	struct ds_cgios a = { 0 }, b = { 0 }, *prev = &a, *cur = &b, *tmp;
	struct ds_col cols[3 + DS_IOS_N];
	uint64_t deadline, n;
	int i;

	cgs.sort = -1;
	if (o->sort_name != NULL &&
	    (cgs.sort = cg_sort_column(o->sort_name)) == SK_NONE)
		tool_usage("-s '%s': not in io.stat (-G proc sums "
		    "/proc/PID/io by cgroup)", o->sort_name);
	cgs.rates = t->has_interval && t->fmt != DS_FMT_PROM;
	cols[0] = c_time;
	cols[1] = c_cgroup;
	cols[2] = c_device;
	for (i = 0; i < DS_IOS_N; i++) {
		cols[3 + i] = cg_ctr_col[i];
		if (cgs.rates) {
			cols[3 + i].name = cg_rate_name[i];
			cols[3 + i].type = DS_T_F2;
			cols[3 + i].prom = DS_P_NONE;
		}
	}
	ds_writer_free(&s->w);
	ds_writer_init(&s->w, t->out, t->fmt, cols, 3 + DS_IOS_N, t->header,
	    "dwho");
	tool_writer(t, &s->w);
	cg_sample(s, t, prev);
	if (!t->has_interval) {
		cg_report(s, t, NULL, prev);
	} else {
		deadline = ds_boottime_ns() + t->interval_ns;
		for (n = 0; t->count == 0 || n < t->count; n++) {
			if (tool_wait(t, &deadline))
				break;
			cg_sample(s, t, cur);
			cg_report(s, t, prev, cur);
			tmp = prev;
			prev = cur;
			cur = tmp;
		}
	}
	notes(s);
	ds_cgios_free(&a);
	ds_cgios_free(&b);
	free(cgs.rows);
	ds_writer_free(&s->w);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = { TOOL_LONGOPTS };
	struct ds_procs a = { 0 }, b = { 0 }, *prev = &a, *cur = &b, *tmp;
	struct ds_buf scratch = { 0 };
	struct state s;
	struct tool t;
	struct opts o;
	uint64_t deadline, n, v;
	unsigned int flags = 0;
	int ch, e, delay, stream;

	tool_init(&t, argv, &info);
	memset(&o, 0, sizeof(o));
	memset(&s, 0, sizeof(s));
	o.sort = -1;
	while ((ch = getopt_long(argc, argv, TOOL_OPTS "ac:gG:ln:p:s:tu:",
	    longopts, NULL)) != -1) {
		if (tool_option(&t, ch, optarg))
			continue;
		switch (ch) {
		case 'a':
			o.all = 1;
			break;
		case 'c':
			if (o.have_re)
				regfree(&o.re);
			if ((e = regcomp(&o.re, optarg,
			    REG_EXTENDED | REG_NOSUB)) != 0) {
				char msg[256];

				regerror(e, &o.re, msg, sizeof(msg));
				warnx("-c %s: %s", optarg, msg);
				usage();
			}
			o.have_re = 1;
			break;
		case 'g':
			o.mode = M_GROUP;
			break;
		case 'l':
			o.cmdline = 1;
			break;
		case 'p':
			parse_pids(&o, optarg);
			break;
		case 's':
			o.sort_name = optarg;
			o.sort_set = 1;
			break;
		case 'G':
			if (strcmp(optarg, "iostat") != 0 &&
			    strcmp(optarg, "proc") != 0) {
				warnx("-G %s: not a source (iostat, proc)",
				    optarg);
				usage();
			}
			o.source = optarg;
			o.mode = M_GROUP;
			break;
		case 't':
			o.threads = 1;
			if (o.mode != M_GROUP)
				o.mode = M_THREAD;
			break;
		case 'u':
			o.user = optarg;
			if (ds_is_number(optarg) && ds_strtou64(optarg, &v) == 0 &&
			    v <= UINT32_MAX) {
				o.have_uid = 1;
				o.uid = (uint32_t)v;
			}
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	o.top = t.top;
	tool_interval_only(&t, argc, argv);
	if (o.mode == M_GROUP && o.threads) {
		warnx("-g and -t: cgroups hold processes, not threads");
		usage();
	}
	if (o.source != NULL && strcmp(o.source, "iostat") == 0 &&
	    (o.npids > 0 || o.user != NULL || o.have_re)) {
		warnx("-G iostat: io.stat is per cgroup; -p, -u and -c "
		    "select processes");
		usage();
	}
	tool_start(&t);
	o.r = &t.r;
	/* A name is looked up once, in the root's etc/passwd. */
	if (o.user != NULL && !o.have_uid) {
		if (ds_user_uid(&o.users, &t.r, o.user, &o.uid) < 0)
			errx(1, "%s: no such user", o.user);
		o.have_uid = 1;
	}
	s.t = &t;
	s.o = &o;
	if (o.mode == M_GROUP && o.source != NULL &&
	    strcmp(o.source, "proc") == 0)
		s.source_note = "-g: summing /proc/PID/io by cgroup (-G proc)";
	if (o.mode == M_GROUP && (o.source == NULL ||
	    strcmp(o.source, "iostat") == 0) && use_iostat(&s, &o, &t)) {
		cg_main(&s, &o, &t);
		tool_exit(0);
	}
	if (o.sort_name != NULL)
		o.sort = sort_column(o.sort_name);
	/* -n alone: the heaviest block-layer users first. */
	if (o.top > 0 && !o.sort_set) {
		o.sort = V_TOTAL;
		o.sort_set = 1;
	}
	if ((o.clk_tck = sysconf(_SC_CLK_TCK)) <= 0)
		o.clk_tck = 100;
	setup_columns(&s);

	if (o.mode == M_THREAD)
		flags |= DS_WHO_THREADS;
	if (o.cmdline)
		flags |= DS_WHO_CMDLINE;
	if (o.mode == M_GROUP)
		flags |= DS_WHO_CGROUP;
	delay = delay_state(&t, &scratch);
	if (delay)
		flags |= DS_WHO_DELAY;
	/*
	 * Without -g, a report alone makes its rows as processes are
	 * read: in pid order they go out at once; sorted (-s, -t), only
	 * the rows shown are kept, and with -n only the best so far.  An
	 * interval keeps of each scan a compact base, and makes a report's
	 * rows from two of them once its scan is over.  -g sums whole
	 * samples.
	 */
	stream = o.mode != M_GROUP;
	sort_opts = &o;
	if (stream)
		stream_scan(&s, flags, !t.has_interval, delay, t.has_interval);
	else
		sample(&s, flags, prev);
	if (!t.has_interval) {
		if (!stream)
			report(&s, NULL, prev, delay);
	} else {
		deadline = ds_boottime_ns() + t.interval_ns;
		for (n = 0; t.count == 0 || n < t.count; n++) {
			if (tool_wait(&t, &deadline))
				break;
			delay = delay_state(&t, &scratch);
			flags = delay ? flags | DS_WHO_DELAY :
			    flags & ~DS_WHO_DELAY;
			if (stream) {
				stream_scan(&s, flags, 1, delay, 1);
				continue;
			}
			sample(&s, flags, cur);
			report(&s, prev, cur, delay);
			tmp = prev;
			prev = cur;
			cur = tmp;
		}
	}
	notes(&s);
	ds_procs_free(&a);
	ds_procs_free(&b);
	ds_buf_free(&scratch);
	ds_writer_free(&s.w);
	ds_users_free(&o.users);
	free(s.rows);
	free(s.bases[0].d);
	free(s.bases[1].d);
	free(s.names.b.d);
	ds_topn_free(&s.heap);
	free(o.pids);
	if (o.have_re)
		regfree(&o.re);
	tool_exit(0);
}
