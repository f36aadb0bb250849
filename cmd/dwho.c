/*
 * dwho: who is doing disk I/O, and who is waiting on it.
 * Per process (or thread, or cgroup): block-layer bytes, syscall bytes
 * and counts, an estimated page-cache hit ratio, and the share of time
 * spent waiting for block I/O summed over all threads.
 */
#include <limits.h>
#include <regex.h>

#include "tool.h"

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
	int sort;		/* -s: index into vcols, -1 pid */
	int sort_set;
	uint64_t top;		/* -n, 0: all */
	long clk_tck;
	struct ds_root *r;
	struct ds_users users;
};

/* The value columns, in output order; one per ds_who_col plus hit%. */
#define V_HIT DS_WR_N
#define NV (DS_WR_N + 1)
#define V_TOTAL NV		/* sort key of -n alone: kB_rd/s + kB_wr/s */
static const char *const vname[NV] = {
	"kB_rd/s", "kB_wr/s", "kB_ccwr/s", "kB_rchar/s", "kB_wchar/s",
	"syscr/s", "syscw/s", "%iodelay", "hit%",
};
/* Output order: hit% before %iodelay. */
static const int vorder[NV] = {
	DS_WR_READ, DS_WR_WRITE, DS_WR_CANCELLED, DS_WR_RCHAR, DS_WR_WCHAR,
	DS_WR_SYSCR, DS_WR_SYSCW, V_HIT, DS_WR_DELAY,
};

/* Gauges for rates (used by -g with -o prom, and every other format). */
static const struct ds_col rate_col[NV] = {
	{ "kB_rd/s", DS_T_F2, DS_P_GAUGE, "read_bytes_per_second",
	    "Bytes read from block devices per second.", 0, 1024 },
	{ "kB_wr/s", DS_T_F2, DS_P_GAUGE, "write_bytes_per_second",
	    "Bytes dirtied or written directly per second.", 0, 1024 },
	{ "kB_ccwr/s", DS_T_F2, DS_P_GAUGE, "cancelled_write_bytes_per_second",
	    "Dirtied bytes not written back (truncated) per second.", 0, 1024 },
	{ "kB_rchar/s", DS_T_F2, DS_P_GAUGE, "rchar_bytes_per_second",
	    "Bytes asked for by read syscalls per second.", 0, 1024 },
	{ "kB_wchar/s", DS_T_F2, DS_P_GAUGE, "wchar_bytes_per_second",
	    "Bytes passed to write syscalls per second.", 0, 1024 },
	{ "syscr/s", DS_T_F2, DS_P_GAUGE, "read_syscalls_per_second",
	    "Read syscalls per second.", 0, 0 },
	{ "syscw/s", DS_T_F2, DS_P_GAUGE, "write_syscalls_per_second",
	    "Write syscalls per second.", 0, 0 },
	{ "%iodelay", DS_T_F2, DS_P_GAUGE, "blkio_delay_ratio",
	    "Share of time spent waiting for block I/O, summed over threads.",
	    0, 0.01 },
	{ "hit%", DS_T_F2, DS_P_GAUGE, "page_cache_hit_ratio",
	    "Estimated page cache hit ratio 1 - read_bytes/rchar.", 0, 0.01 },
};

/* Counters since the process started (-o prom per process/thread). */
static const struct ds_col ctr_col[DS_WR_N] = {
	{ "read_bytes", DS_T_U64, DS_P_COUNTER, "read_bytes_total",
	    "Bytes read from block devices.", 0, 0 },
	{ "write_bytes", DS_T_U64, DS_P_COUNTER, "write_bytes_total",
	    "Bytes dirtied or written directly.", 0, 0 },
	{ "cancelled_write_bytes", DS_T_U64, DS_P_COUNTER,
	    "cancelled_write_bytes_total",
	    "Dirtied bytes not written back (truncated).", 0, 0 },
	{ "rchar", DS_T_U64, DS_P_COUNTER, "rchar_bytes_total",
	    "Bytes asked for by read syscalls.", 0, 0 },
	{ "wchar", DS_T_U64, DS_P_COUNTER, "wchar_bytes_total",
	    "Bytes passed to write syscalls.", 0, 0 },
	{ "syscr", DS_T_U64, DS_P_COUNTER, "read_syscalls_total",
	    "Read syscalls.", 0, 0 },
	{ "syscw", DS_T_U64, DS_P_COUNTER, "write_syscalls_total",
	    "Write syscalls.", 0, 0 },
	{ "blkio_delay", DS_T_F2, DS_P_COUNTER, "blkio_delay_seconds_total",
	    "Seconds spent waiting for block I/O, summed over threads.", 0, 0 },
};
static const int io_of[DS_WR_DELAY] = {
	DS_IO_READ_BYTES, DS_IO_WRITE_BYTES, DS_IO_CANCELLED_WRITE_BYTES,
	DS_IO_RCHAR, DS_IO_WCHAR, DS_IO_SYSCR, DS_IO_SYSCW,
};

static const struct ds_col c_time =
	{ "time", DS_T_TIME, DS_P_NONE, NULL, NULL, 0, 0 };
static const struct ds_col c_pid =
	{ "pid", DS_T_U64, DS_P_LABEL, "pid", NULL, 0, 0 };
static const struct ds_col c_tid =
	{ "tid", DS_T_U64, DS_P_LABEL, "tid", NULL, 0, 0 };
static const struct ds_col c_user =
	{ "user", DS_T_STR, DS_P_LABEL, "user", NULL, 0, 0 };
static const struct ds_col c_command =
	{ "command", DS_T_STR, DS_P_LABEL, "command", NULL, 0, 0 };
static const struct ds_col c_cgroup =
	{ "cgroup", DS_T_STR, DS_P_LABEL, "cgroup", NULL, 0, 0 };
static const struct ds_col c_procs =
	{ "procs", DS_T_U64, DS_P_GAUGE, "cgroup_processes",
	    "Processes in the cgroup.", 0, 0 };

struct row {
	const struct ds_proc *p;
	const char *cgroup;	/* M_GROUP */
	uint64_t procs;
	struct ds_who_rate r;
	double v[NV + 1];
	uint32_t have;		/* bit per index of v */
};

static void
usage_to(FILE *f, int status)
{
	fprintf(f, "usage: dwho [-aglHt] [-c regex] [-n num] [-o fmt] "
	    "[-p pid,...] [-R dir] [-s column] [-u user] [-w file] "
	    "[interval [count]]\n");
	if (f == stdout)
		tool_exit(status);
	exit(status);
}

static void
usage(void)
{
	usage_to(stderr, 2);
}

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

/* Filter after stat (and cmdline), before the rest is read. */
static int
keep(const struct ds_proc *p, void *arg)
{
	struct opts *o = arg;
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

static const struct opts *sort_opts;

static int
cmp_row(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int k = sort_opts->sort, hx, hy;

	if (k >= 0) {
		hx = (x->have >> k) & 1;
		hy = (y->have >> k) & 1;
		if (hx != hy)
			return hy - hx;		/* unknown values last */
		if (hx && x->v[k] != y->v[k])
			return x->v[k] < y->v[k] ? 1 : -1;
	}
	if (x->p != NULL && y->p != NULL)
		return (x->p->pid > y->p->pid) - (x->p->pid < y->p->pid);
	return 0;
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

struct state {
	struct tool *t;
	struct opts *o;
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
	int first_bad, noted_bad;
};

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
	s->ncols = n;
	ds_writer_init(&s->w, s->t->out, s->t->fmt, s->cols, s->ncols,
	    s->t->header, "dwho");
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
		warnx("I/O counters of %zu %s unreadable (other users' "
		    "/proc/PID/io needs root): their byte and syscall "
		    "columns are -", s->unreadable,
		    s->unreadable == 1 ? "process are" : "processes are");
	}
}

/* One report: cur against prev (NULL: since each process started). */
static void
report(struct state *s, const struct ds_procs *prev,
    const struct ds_procs *cur, int delay)
{
	struct opts *o = s->o;
	size_t i, n = 0, g, j, shown;
	uint64_t now = ds_realtime_ns();
	double secs;

	if (cur->n > s->cap) {
		free(s->rows);
		s->cap = cur->n;
		if ((s->rows = calloc(s->cap, sizeof(*s->rows))) == NULL)
			err(1, NULL);
	}
	for (i = 0; i < cur->n; i++) {
		const struct ds_proc *p = &cur->p[i], *q = NULL;
		struct row *rw = &s->rows[n];

		if (prev != NULL) {
			q = ds_procs_find(prev, p->pid);
			secs = (double)(cur->uptime_ns - prev->uptime_ns) / 1e9;
		} else {
			secs = ds_proc_age(p, cur->uptime_ns, o->clk_tck);
		}
		memset(rw, 0, sizeof(*rw));
		rw->p = p;
		rw->procs = 1;
		ds_who_rate(q, p, secs, o->clk_tck, delay, &rw->r);
		if (!o->all && !rw->r.active && o->mode != M_GROUP)
			continue;
		fill_values(rw);
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

static int
sort_column(const char *name)
{
	int i;

	if (strcmp(name, "pid") == 0)
		return -1;
	for (i = 0; i < NV; i++)
		if (strcmp(name, vname[i]) == 0)
			return i;
	return -2;
}

static int
delay_state(struct tool *t, struct ds_buf *b)
{
	int e = ds_delayacct_read(&t->r, b);

	/* Before 5.14 there was no switch: the boot option decided. */
	return e == -ENOENT ? 1 : e > 0;
}

static void
sample(struct state *s, unsigned int flags, struct ds_procs *ps)
{
	int e;

	e = ds_procs_read(&s->t->r, flags, s->o->pids, s->o->npids, keep,
	    s->o, ps);
	if (e < 0)
		tool_errc(1, e, "%s%s%s", s->t->r.live ? "/" : s->t->r.path,
		    s->t->r.live ? "" : "/", ps->failed != NULL ? ps->failed :
		    "proc");
	if (ps->bad > 0 && s->bad == 0) {
		s->bad = ps->bad;
		s->first_bad = ps->first_bad;
	}
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
	int ch, e, delay;

	tool_init(&t);
	memset(&o, 0, sizeof(o));
	memset(&s, 0, sizeof(s));
	o.sort = -1;
	while ((ch = getopt_long(argc, argv, TOOL_OPTS "ac:gln:p:s:tu:",
	    longopts, NULL)) != -1) {
		if (tool_option(&t, ch, optarg, usage))
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
		case 'n':
			if (ds_parse_count(optarg, &o.top) < 0) {
				warnx("-n %s: not a count (1 to 4294967295)",
				    optarg);
				usage();
			}
			break;
		case 'p':
			parse_pids(&o, optarg);
			break;
		case 's':
			if ((o.sort = sort_column(optarg)) == -2) {
				warnx("-s %s: not a column (pid, kB_rd/s, "
				    "kB_wr/s, kB_ccwr/s, kB_rchar/s, "
				    "kB_wchar/s, syscr/s, syscw/s, hit%%, "
				    "%%iodelay)", optarg);
				usage();
			}
			o.sort_set = 1;
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
		case 'h':
			usage_to(stdout, 0);
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	tool_interval(&t, &argc, argv, usage);
	if (argc > 0)
		usage();
	if (o.mode == M_GROUP && o.threads) {
		warnx("-g and -t: cgroups hold processes, not threads");
		usage();
	}
	/* -n alone: the heaviest block-layer users first. */
	if (o.top > 0 && !o.sort_set) {
		o.sort = V_TOTAL;
		o.sort_set = 1;
	}
	tool_start(&t);
	o.r = &t.r;
	if ((o.clk_tck = sysconf(_SC_CLK_TCK)) <= 0)
		o.clk_tck = 100;
	s.t = &t;
	s.o = &o;
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
	sample(&s, flags, prev);
	if (!t.has_interval) {
		report(&s, NULL, prev, delay);
	} else {
		deadline = ds_boottime_ns() + t.interval_ns;
		for (n = 0; t.count == 0 || n < t.count; n++) {
			if (tool_wait(&t, &deadline))
				break;
			delay = delay_state(&t, &scratch);
			flags = delay ? flags | DS_WHO_DELAY :
			    flags & ~DS_WHO_DELAY;
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
	free(o.pids);
	if (o.have_re)
		regfree(&o.re);
	tool_exit(0);
}
