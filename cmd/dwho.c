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
	struct ds_pids pl;	/* -p */
	const char *user;	/* -u */
	int have_uid;
	uint32_t uid;
	regex_t re;		/* -c */
	int have_re;
	const char *sort_name;	/* -s */
	int sort;		/* -s: index of ds_whorow.v, DS_WV_PID */
	int sort_set;
	uint64_t top;		/* -n, 0: all */
	const char *source;	/* -G iostat|proc, NULL: choose */
	long clk_tck;
	struct ds_root *r;
	struct ds_users users;
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

struct state {
	struct tool *t;
	struct opts *o;
	struct ds_writer w;
	struct ds_col cols[32];
	unsigned int how;	/* DS_WHOCOL_* of the rows */
	struct ds_whonotes nt;	/* what the notes will say */
	int skip_said;
	char source_buf[4200];
	uint64_t now;
	int begun, delay;
	struct ds_whostream st;	/* per process or thread */
	struct ds_procs pa, pb, *prev, *cur;	/* -g from /proc/PID/io */
	struct ds_whorows rows;
	char mnt[4096];		/* -g from io.stat */
	struct ds_cgios ca, cb, *cprev, *ccur;
	struct ds_cgrow *cgrows;
	size_t ncg, cgcap;
	int cgsort, rates;
};

/* Filter after stat (and cmdline), before the rest is read. */
static int
keep(const struct ds_proc *p, void *arg)
{
	struct opts *o = ((struct state *)arg)->o;
	char buf[80];
	size_t len;

	if (o->user != NULL && (o->have_uid ? p->uid != o->uid :
	    strcmp(ds_user_name(&o->users, o->r, p->uid), o->user) != 0))
		return 0;
	/* regexec wants a C string; comm and cmdline hold no NUL. */
	return !o->have_re || regexec(&o->re, ds_who_command(p, o->cmdline,
	    buf, sizeof(buf), &len), 0, NULL, 0) == 0;
}

static void
set_writer(struct state *s, size_t n)
{
	ds_writer_init(&s->w, s->t->out, s->t->fmt, s->cols, n, s->t->header,
	    "dwho");
	tool_writer(s->t, &s->w);
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
	char msg[4400];

	while (ds_who_note(&s->nt, geteuid() == 0, msg, sizeof(msg)))
		warnx("%s", msg);
}

/* A sort key's column of the proc source and of io.stat. */
static int
sort_key(const char *name, int *cg)
{
	int proc;

	if (ds_who_sort_key(name, &proc, cg) < 0)
		tool_usage("-s '%s': not a sort key (read write reads writes "
		    "discard discards cancelled rchar wchar hit iodelay io pid, "
		    "or a column name)", name);
	return proc;
}

/* Before a scan: whether delay accounting is on (5.14 added a switch). */
static void
set_delay(struct state *s)
{
	struct ds_buf b = { 0 };
	int e = ds_delayacct_read(&s->t->r, &b);

	ds_buf_free(&b);
	s->delay = s->st.cfg.delay = e == -ENOENT ? 1 : e > 0;
	s->st.flags = s->delay ? s->st.flags | DS_WHO_DELAY :
	    s->st.flags & ~DS_WHO_DELAY;
}

/* After a scan: a failure ends the run; the first damage is noted. */
static void
sampled(struct state *s, int e, const struct ds_procs *ps, int report)
{
	if (s->st.err < 0)
		tool_errc(1, s->st.err, NULL);
	if (e < 0)
		tool_errc(1, e, "%s", tool_path(s->t, ps->failed != NULL ?
		    ps->failed : "proc"));
	if (ps->bad > 0 && s->nt.bad == 0) {
		s->nt.bad = ps->bad;
		s->nt.first_bad = ps->first_bad;
	}
	if (report && ps->unreadable > s->nt.unreadable)
		s->nt.unreadable = ps->unreadable;
}

/* Before a report's rows; after them, its end. */
static void
begin(struct state *s)
{
	s->now = ds_realtime_ns();
	s->begun = 0;
	if (!s->delay)
		s->nt.off_delay = 1;
	if (isatty(STDERR_FILENO))
		notes(s);
}

static int
row_out(const struct ds_whorow *rw, void *arg)
{
	struct state *s = arg;

	if (!s->begun++)
		tool_report_begin(s->t, &s->w);
	ds_whorow_write(&s->w, s->how, &s->st.cfg, &s->o->users, s->o->r, rw,
	    s->now);
	return ds_writer_error(&s->w) != 0;
}

static void
end(struct state *s)
{
	if (!s->begun)
		tool_report_begin(s->t, &s->w);
	tool_report_end(s->t, &s->w);
}

/*
 * Per process or thread, made as proc is scanned (lib/whostream.c): a
 * report alone writes its rows as they are read, an interval's report
 * once its scan is over.  later: a scan after the first.
 */
static void
proc_report(struct state *s, int later)
{
	int report = later || !s->t->has_interval, e;
	struct ds_procs scan;

	set_delay(s);
	if (report)
		begin(s);
	e = ds_whostream_scan(&s->t->r, &s->st, report, s->t->has_interval,
	    &scan);
	sampled(s, e, &scan, report);
	if (report)
		end(s);
	ds_procs_free(&scan);
}

/* -g from /proc/PID/io: whole samples summed per cgroup. */
static void
group_report(struct state *s, int later)
{
	struct ds_procs *tmp;
	size_t i;
	int e;

	set_delay(s);
	e = ds_procs_read(&s->t->r, s->st.flags, s->st.pids, s->st.npids,
	    keep, s, later ? s->cur : s->prev);
	sampled(s, e, later ? s->cur : s->prev, 0);
	if (!later && s->t->has_interval)
		return;
	if ((e = ds_whorows_cgroups(&s->st.cfg, later ? s->prev : NULL,
	    later ? s->cur : s->prev, &s->rows)) < 0)
		tool_errc(1, e, NULL);
	sampled(s, 0, later ? s->cur : s->prev, 1);
	begin(s);
	for (i = 0; i < s->rows.n; i++)
		row_out(&s->rows.r[i], s);
	end(s);
	tmp = s->prev;
	s->prev = later ? s->cur : s->prev;
	s->cur = later ? tmp : s->cur;
}

static const char *
slash(const struct state *s)
{
	return s->mnt[0] == '/' ? "" : "/";
}

/*
 * Decide the -g source.  io.stat when the io controller is on in v2 (or,
 * in a captured tree without the root's cgroup.controllers, when any
 * cgroup has io.stat), unless processes are selected or -G proc.
 */
static int
use_iostat(struct state *s, struct opts *o)
{
	int forced = o->source != NULL, e, cg;

	if (!forced && (o->pl.n > 0 || o->user != NULL || o->have_re)) {
		s->nt.source = "-g: summing /proc/PID/io by cgroup "
		    "(processes selected)";
		return 0;
	}
	/* A key only /proc/PID/io has (hit, iodelay...) chooses it. */
	if (!forced && o->sort_name != NULL &&
	    (sort_key(o->sort_name, &cg), cg == DS_WV_NONE)) {
		s->nt.source = "-g: summing /proc/PID/io by cgroup (the "
		    "sort key is not in io.stat)";
		return 0;
	}
	if ((e = ds_cgio_source(&s->t->r, s->mnt, sizeof(s->mnt))) < 0) {
		if (forced)
			tool_errc(1, e, "-G iostat: no cgroup v2 mount");
		s->nt.source = "-g: no cgroup v2 mount: summing "
		    "/proc/PID/io by cgroup";
		return 0;
	}
	if (e == 0 && forced)
		tool_errc(1, ENOTSUP, "-G iostat: %s%s: no io controller on "
		    "cgroup v2", slash(s), s->mnt);
	snprintf(s->source_buf, sizeof(s->source_buf), e ?
	    "-g: per-cgroup figures from io.stat under %s%s" :
	    "-g: io.stat missing (io controller not enabled on cgroup v2 at "
	    "%s%s): summing /proc/PID/io by cgroup", slash(s), s->mnt);
	s->nt.source = s->source_buf;
	return e;
}

static void
cg_sample(struct state *s, struct ds_cgios *cs)
{
	size_t i;
	int e;

	if ((e = ds_cgios_read(&s->t->r, s->mnt, cs)) < 0)
		tool_errc(1, e, "%s%s", slash(s), s->mnt);
	if (s->t->has_interval && cs->uptime_ns == 0)
		tool_errc(1, ENOENT, "%s", tool_path(s->t, "proc/uptime"));
	/* Subtrees the walk left out (too deep, out of descriptors). */
	for (i = 0; i < cs->nskipped && !s->skip_said; i++)
		if (cs->skipped_err[i] == -ELOOP)
			warnx("cgroup %s: subtree skipped: nested deeper than "
			    "%d levels", cs->skipped[i], DS_CGROUP_DEPTH_MAX);
		else
			tool_warnc(cs->skipped_err[i], "cgroup %s: subtree "
			    "skipped", cs->skipped[i]);
	s->skip_said |= cs->nskipped > 0;
	if (cs->bad > 0 && s->nt.bad == 0) {
		s->nt.bad = cs->bad;
		s->nt.bad_iostat = 1;
	}
}

/* -g from io.stat: a row per cgroup and device, and its whole-disk sum. */
static void
iostat_report(struct state *s, int later)
{
	struct ds_cgios *tmp = s->cprev;
	size_t i;
	int e;

	cg_sample(s, later ? s->ccur : s->cprev);
	if (!later && s->t->has_interval)
		return;
	if ((e = ds_cgio_rows(&s->t->r, later ? s->cprev : NULL, later ?
	    s->ccur : s->cprev, &s->cgrows, &s->ncg, &s->cgcap)) < 0)
		tool_errc(1, e, NULL);
	ds_cgio_select(s->cgrows, &s->ncg, s->o->all, s->cgsort, s->o->top);
	s->now = ds_realtime_ns();
	if (isatty(STDERR_FILENO))
		notes(s);
	tool_report_begin(s->t, &s->w);
	for (i = 0; i < s->ncg; i++)
		ds_cgrow_write(&s->w, &s->cgrows[i], s->rates, s->now);
	tool_report_end(s->t, &s->w);
	s->cprev = later ? s->ccur : s->cprev;
	s->ccur = later ? tmp : s->ccur;
}

static void
opt_regex(struct opts *o, const char *arg)
{
	char msg[256];
	int e;

	if (o->have_re)
		regfree(&o->re);
	if ((e = regcomp(&o->re, arg, REG_EXTENDED | REG_NOSUB)) != 0) {
		regerror(e, &o->re, msg, sizeof(msg));
		warnx("-c %s: %s", arg, msg);
		usage();
	}
	o->have_re = 1;
}

static void
opt_pids(struct opts *o, const char *arg)
{
	char bad[4096];
	int e = ds_pids_parse(arg, &o->pl, bad, sizeof(bad));

	if (e == -EINVAL)
		warnx("-p %s: not a process id", bad);
	else if (e == -ENODATA)
		warnx("-p: no process id given");
	else if (e < 0)
		tool_errc(1, e, NULL);
	if (e < 0)
		usage();
}

static void
opt(struct tool *t, struct opts *o, int ch, const char *arg)
{
	uint64_t v;

	if (tool_option(t, ch, arg))
		return;
	switch (ch) {
	case 'a':
		o->all = 1;
		break;
	case 'c':
		opt_regex(o, arg);
		break;
	case 'G':
		if (strcmp(arg, "iostat") != 0 && strcmp(arg, "proc") != 0) {
			warnx("-G %s: not a source (iostat, proc)", arg);
			usage();
		}
		o->source = arg;
		/* FALLTHROUGH */
	case 'g':
		o->mode = M_GROUP;
		break;
	case 'l':
		o->cmdline = 1;
		break;
	case 'p':
		opt_pids(o, arg);
		break;
	case 's':
		o->sort_name = arg;
		break;
	case 't':
		o->threads = 1;
		if (o->mode != M_GROUP)
			o->mode = M_THREAD;
		break;
	case 'u':
		o->user = arg;
		if (ds_is_number(arg) && ds_strtou64(arg, &v) == 0 &&
		    v <= UINT32_MAX) {
			o->have_uid = 1;
			o->uid = (uint32_t)v;
		}
		break;
	default:
		usage();
	}
}

/* The checks between options, then the run's set-up. */
static void
setup(struct state *s, struct opts *o, struct tool *t)
{
	struct ds_whostream *st = &s->st;

	if (o->mode == M_GROUP && o->threads) {
		warnx("-g and -t: cgroups hold processes, not threads");
		usage();
	}
	if (o->source != NULL && strcmp(o->source, "iostat") == 0 &&
	    (o->pl.n > 0 || o->user != NULL || o->have_re)) {
		warnx("-G iostat: io.stat is per cgroup; -p, -u and -c "
		    "select processes");
		usage();
	}
	tool_start(t);
	o->r = &t->r;
	/* A name is looked up once, in the root's etc/passwd. */
	if (o->user != NULL && !o->have_uid) {
		if (ds_user_uid(&o->users, &t->r, o->user, &o->uid) < 0)
			errx(1, "%s: no such user", o->user);
		o->have_uid = 1;
	}
	s->t = t;
	s->o = o;
	if ((o->clk_tck = sysconf(_SC_CLK_TCK)) <= 0)
		o->clk_tck = 100;
	st->flags = (o->mode == M_THREAD ? DS_WHO_THREADS : 0) |
	    (o->cmdline ? DS_WHO_CMDLINE : 0) |
	    (o->mode == M_GROUP ? DS_WHO_CGROUP : 0);
	st->pids = o->pl.pid;
	st->npids = o->pl.n;
	st->keep = keep;
	st->row = row_out;
	st->arg = s;
	s->prev = &s->pa;
	s->cur = &s->pb;
	s->cprev = &s->ca;
	s->ccur = &s->cb;
}

/* Per process, thread or cgroup from /proc/PID/io: sort and columns. */
static void
proc_setup(struct state *s, struct opts *o)
{
	int cg;

	if ((o->sort_set = o->sort_name != NULL) &&
	    (o->sort = sort_key(o->sort_name, &cg)) == DS_WV_NONE)
		tool_usage("-s '%s': discards are counted only in io.stat "
		    "(-g on a kernel with the io controller)", o->sort_name);
	/* -n alone: the heaviest block-layer users first. */
	if (o->top > 0 && !o->sort_set) {
		o->sort = DS_WV_TOTAL;
		o->sort_set = 1;
	}
	s->st.cfg = (struct ds_whocfg){ o->clk_tck, 0, o->all, o->sort,
	    o->sort_set || o->mode == M_THREAD, o->top, o->cmdline };
	/* prom per process or thread: counters since each started. */
	s->how = (o->mode == M_THREAD ? DS_WHOCOL_THREAD : 0) |
	    (o->mode == M_GROUP ? DS_WHOCOL_GROUP : 0) |
	    (s->t->fmt == DS_FMT_PROM && o->mode != M_GROUP ?
	    DS_WHOCOL_COUNTERS : 0);
	set_writer(s, ds_who_columns(s->how, s->cols));
}

/* -g from io.stat: its own columns, sorted by its own figures. */
static void
iostat_setup(struct state *s)
{
	struct opts *o = s->o;

	s->cgsort = -1;
	if (o->sort_name != NULL &&
	    (sort_key(o->sort_name, &s->cgsort), s->cgsort == DS_WV_NONE))
		tool_usage("-s '%s': not in io.stat (-G proc sums "
		    "/proc/PID/io by cgroup)", o->sort_name);
	s->rates = s->t->has_interval && s->t->fmt != DS_FMT_PROM;
	set_writer(s, ds_cgio_columns(s->rates, s->cols));
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = { TOOL_LONGOPTS };
	void (*report)(struct state *, int) = proc_report;
	struct state s;
	struct tool t;
	struct opts o;
	uint64_t deadline, n;
	int ch;

	tool_init(&t, argv, &info);
	memset(&o, 0, sizeof(o));
	memset(&s, 0, sizeof(s));
	o.sort = DS_WV_PID;
	while ((ch = getopt_long(argc, argv, TOOL_OPTS "ac:gG:ln:p:s:tu:",
	    longopts, NULL)) != -1)
		opt(&t, &o, ch, optarg);
	tool_interval_only(&t, argc - optind, argv + optind);
	o.top = t.top;
	setup(&s, &o, &t);
	if (o.mode == M_GROUP && o.source != NULL &&
	    strcmp(o.source, "proc") == 0)
		s.nt.source = "-g: summing /proc/PID/io by cgroup (-G proc)";
	if (o.mode == M_GROUP && (o.source == NULL ||
	    strcmp(o.source, "iostat") == 0) && use_iostat(&s, &o)) {
		iostat_setup(&s);
		report = iostat_report;
	} else {
		proc_setup(&s, &o);
		report = o.mode == M_GROUP ? group_report : proc_report;
	}
	report(&s, 0);
	deadline = ds_boottime_ns() + t.interval_ns;
	for (n = 0; t.has_interval && (t.count == 0 || n < t.count); n++) {
		if (tool_wait(&t, &deadline))
			break;
		report(&s, 1);
	}
	notes(&s);
	ds_whostream_free(&s.st);
	ds_procs_free(&s.pa);
	ds_procs_free(&s.pb);
	ds_whorows_free(&s.rows);
	ds_cgios_free(&s.ca);
	ds_cgios_free(&s.cb);
	free(s.cgrows);
	ds_writer_free(&s.w);
	ds_users_free(&o.users);
	ds_pids_free(&o.pl);
	if (o.have_re)
		regfree(&o.re);
	tool_exit(0);
}
