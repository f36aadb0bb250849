/*
 * dwho: who is doing disk I/O, and who is waiting on it.
 * Per process (or thread, or cgroup): block-layer bytes, syscall bytes
 * and counts, an estimated page-cache hit ratio, and the share of time
 * spent waiting for block I/O summed over all threads.
 */
#include "util/util.h"
#include "cglimit.h"
#include "dwho/dwho.h"

struct opts {
	int all;		/* -a */
	unsigned int flags;	/* -t, -g: DS_WHO_THREADS, DS_WHO_CGROUP */
	struct whosel sel;	/* -p, -u, -c; -l: sel.cmdline */
	const char *sort_name;	/* -s */
	const char *source;	/* -G iostat|proc, NULL: choose */
	const char *files[2];	/* -f OLD -f NEW: two captures */
	int nfiles;
	struct ds_users users;
};

static const char synopsis[] =
    "dwho [-aghlHt] [-c regex] [-f capture -f capture] [-G iostat|proc]\n"
    "            [-n num] [-O cols] [-o fmt] [-p pid,...] [-R dir] [-s key]\n"
    "            [-u user] [-w file] [--utc] [interval [count]]";

static const char options[] =
    "  -a            also processes whose counters did not move\n"
    "  -c regex      only commands matching regex (extended)\n"
    "  -f capture    twice: the window between two captures' ends\n"
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
	unsigned int how;	/* WHOCOL_* of the rows */
	struct whonotes nt;	/* what the notes will say */
	char source_buf[4200];
	uint64_t now;
	int begun, delay;
	struct whostream st;	/* per process or thread */
	struct whogroup g;	/* -g from /proc/PID/io */
	struct cgiorun cg;	/* -g from io.stat */
	int cgsort, rates;
	struct ds_iolimits lims;	/* -g: the cgroups' I/O limits */
	struct ds_buf limit;
};

/* Filter after stat (and cmdline), before the rest is read. */
static int
keep(const struct ds_proc *p, void *arg)
{
	return whosel_keep(&((struct state *)arg)->o->sel, p);
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

	while (who_note(&s->nt, geteuid() == 0, msg, sizeof(msg)))
		warnx("%s", msg);
}

/*
 * The sort key of -s in the figures of a source (iostat: io.stat's),
 * and 0; -ENOTSUP when the source lacks it (with fail, a usage error);
 * a name that is no key is a usage error.
 */
static int
sort_key(const char *name, int iostat, int fail, int *key)
{
	const char *why;
	int e = who_key(name, iostat, key, &why);

	if (e == -ENOENT || (e < 0 && fail))
		tool_usage("-s '%s': %s", name, why);
	return e;
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
	who_note_scan(&s->nt, ps, report);
}

/* Before a report's rows; after them, its end. */
static void
begin(struct state *s)
{
	s->now = ds_root_time_ns(&s->t->r);
	s->begun = 0;
	if (!s->delay)
		s->nt.off_delay = 1;
	/* Unreadable limits are shown as none. */
	if (s->how & WHOCOL_GROUP)
		(void)ds_iolimits_read(&s->t->r, &s->lims);
	if (isatty(STDERR_FILENO))
		notes(s);
}

static int
row_out(const struct whorow *rw, void *arg)
{
	struct state *s = arg;

	if (!s->begun++)
		tool_report_begin(s->t, &s->w);
	if ((s->how & WHOCOL_GROUP) && ds_iolimit_text(&s->lims, rw->cgroup,
	    0, 0, 0, &s->limit) < 0)
		tool_errc(1, -ENOMEM, "limits");
	whorow_write(&s->w, s->how, &s->st.cfg, &s->o->users, &s->t->r, rw,
	    (s->how & WHOCOL_GROUP) ? s->limit.data : NULL, s->now);
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
 * Per process or thread, made as proc is scanned (stream.c): a
 * report alone writes its rows as they are read, an interval's report
 * once its scan is over.  later: a scan after the first.
 */
static void
proc_report(struct state *s, int later)
{
	int report = later || !s->t->has_interval, e;
	struct ds_procs scan;

	s->delay = whostream_delay(&s->t->r, &s->st);
	if (report)
		begin(s);
	e = whostream_scan(&s->t->r, &s->st, report, s->t->has_interval,
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
	int report = later || !s->t->has_interval, e;
	size_t i;

	s->delay = whostream_delay(&s->t->r, &s->st);
	e = whogroup_scan(&s->t->r, &s->st, &s->g);
	sampled(s, e, s->g.cur, report);
	if ((e = whogroup_rows(&s->st.cfg, &s->g, report)) < 0)
		tool_errc(1, e, NULL);
	if (!report)
		return;
	begin(s);
	for (i = 0; i < s->g.rows.n; i++)
		row_out(&s->g.rows.r[i], s);
	end(s);
}

/*
 * Decide the -g source (group.c).  A sort key not in io.stat
 * chooses /proc/PID/io unless -G iostat; a name that is no key at all
 * is a usage error before the cgroup mount is looked for.
 */
static int
use_iostat(struct state *s, struct opts *o)
{
	int selected = whosel_any(&o->sel), cg, proc_key = 0, e;

	if (o->source == NULL && !selected && o->sort_name != NULL)
		proc_key = sort_key(o->sort_name, 1, 0, &cg) < 0;
	e = who_source(&s->t->r, o->source, selected, proc_key,
	    s->cg.mnt, sizeof(s->cg.mnt), s->source_buf,
	    sizeof(s->source_buf));
	if (e < 0)
		tool_errc(1, e, "%s", s->source_buf);
	s->nt.source = s->source_buf;
	return e;
}

static void
cg_sample(struct state *s)
{
	const char *path;
	int e;

	if ((e = cgiorun_read(&s->t->r, &s->cg)) < 0)
		tool_errc(1, e, "%s%s", s->cg.mnt[0] == '/' ? "" : "/",
		    s->cg.mnt);
	if (s->t->has_interval && s->cg.cur->uptime_ns == 0)
		tool_errc(1, ENOENT, "%s", tool_path(s->t, "proc/uptime"));
	/* Subtrees the walk left out (too deep, out of descriptors). */
	while ((path = cgiorun_skipped(&s->cg, &e)) != NULL)
		if (e == -ELOOP)
			warnx("cgroup %s: subtree skipped: nested deeper than "
			    "%d levels", path, DS_CGROUP_DEPTH_MAX);
		else
			warnx("cgroup %s: subtree skipped: %s", path,
			    strerror(-e));
	who_note_cgios(&s->nt, s->cg.cur);
}

/* -g from io.stat: a row per cgroup and device, and its whole-disk sum. */
static void
iostat_report(struct state *s, int later)
{
	int report = later || !s->t->has_interval, e;
	size_t i;

	cg_sample(s);
	if ((e = cgiorun_rows(&s->t->r, &s->cg, report, s->o->all,
	    s->cgsort, s->t->top)) < 0)
		tool_errc(1, e, NULL);
	if (!report)
		return;
	s->now = ds_root_time_ns(&s->t->r);
	if (isatty(STDERR_FILENO))
		notes(s);
	(void)ds_iolimits_read(&s->t->r, &s->lims);
	tool_report_begin(s->t, &s->w);
	for (i = 0; i < s->cg.n; i++) {
		const struct cgrow *rw = &s->cg.rows[i];

		if (ds_iolimit_text(&s->lims, rw->cgroup, !rw->all, rw->major,
		    rw->minor, &s->limit) < 0)
			tool_errc(1, -ENOMEM, "limits");
		cgrow_write(&s->w, rw, s->rates, s->limit.data, s->now);
	}
	tool_report_end(s->t, &s->w);
}

static void
opt(struct tool *t, struct opts *o, int ch, const char *arg)
{
	char msg[256], bad[4096];
	int e;

	if (tool_option(t, ch, arg))
		return;
	switch (ch) {
	case 'a':
		o->all = 1;
		break;
	case 'c':
		if (whosel_regex(&o->sel, arg, msg, sizeof(msg)) < 0)
			tool_usage("-c %s: %s", arg, msg);
		break;
	case 'f':
		if (o->nfiles == 2)
			tool_usage("-f: two captures, OLD and NEW");
		o->files[o->nfiles++] = arg;
		break;
	case 'G':
		if (strcmp(arg, "iostat") != 0 && strcmp(arg, "proc") != 0)
			tool_usage("-G %s: not a source (iostat, proc)", arg);
		o->source = arg;
		/* FALLTHROUGH */
	case 'g':
		o->flags |= DS_WHO_CGROUP;
		break;
	case 'l':
		o->sel.cmdline = 1;
		break;
	case 'p':
		e = ds_pids_parse(arg, &o->sel.pl, bad, sizeof(bad));
		if (e == -EINVAL)
			tool_usage("-p %s: not a process id", bad);
		else if (e == -ENODATA)
			tool_usage("-p: no process id given");
		else if (e < 0)
			tool_errc(1, e, NULL);
		break;
	case 's':
		o->sort_name = arg;
		break;
	case 't':
		o->flags |= DS_WHO_THREADS;
		break;
	case 'u':
		whosel_user(&o->sel, arg);
		break;
	default:
		usage();
	}
}

/* The checks between options, then the run's set-up. */
static void
setup(struct state *s, struct opts *o, struct tool *t)
{
	if ((o->flags & DS_WHO_CGROUP) && (o->flags & DS_WHO_THREADS))
		tool_usage("-g and -t: cgroups hold processes, not threads");
	if (o->source != NULL && strcmp(o->source, "iostat") == 0 &&
	    whosel_any(&o->sel)) {
		tool_usage("-G iostat: io.stat is per cgroup; -p, -u and -c "
		    "select processes");
	}
	if (o->nfiles == 1)
		tool_usage("-f %s: two captures (-f OLD -f NEW), or -R for one",
		    o->files[0]);
	if (o->nfiles == 2 && t->has_interval)
		tool_usage("-f: two captures give their window: no interval");
	if (o->nfiles == 2)
		tool_start_pair(t, o->files[0], o->files[1]);
	else
		tool_start(t);
	/* A capture of two samples: its window, as "WINDOW 1" would. */
	(void)tool_window(t);
	/* A name is looked up once, in the root's etc/passwd. */
	if (whosel_uid(&o->sel, &o->users, &t->r) < 0)
		errx(1, "%s: no such user", o->sel.user);
	s->t = t;
	s->o = o;
}

/* Per process, thread or cgroup from /proc/PID/io: sort and columns. */
static void
proc_setup(struct state *s, struct opts *o)
{
	struct whostream *st = &s->st;
	int key = WV_PID;

	if (o->sort_name != NULL)
		sort_key(o->sort_name, 0, 1, &key);
	s->how = whostream_setup(st, &o->sel, o->flags, o->all, key,
	    o->sort_name != NULL, s->t->top, s->t->fmt == DS_FMT_PROM);
	st->keep = keep;
	st->row = row_out;
	st->arg = s;
	tool_writer_open(s->t, &s->w, s->cols, who_columns(s->how, s->cols),
	    "dwho");
}

/* -g from io.stat: its own columns, sorted by its own figures. */
static void
iostat_setup(struct state *s)
{
	s->cgsort = -1;
	if (s->o->sort_name != NULL)
		sort_key(s->o->sort_name, 1, 1, &s->cgsort);
	s->rates = s->t->has_interval && s->t->fmt != DS_FMT_PROM;
	tool_writer_open(s->t, &s->w, s->cols, cgio_columns(s->rates,
	    s->cols), "dwho");
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
	while ((ch = getopt_long(argc, argv, TOOL_OPTS "ac:f:gG:ln:p:s:tu:",
	    longopts, NULL)) != -1)
		opt(&t, &o, ch, optarg);
	tool_interval_only(&t, argc - optind, argv + optind);
	setup(&s, &o, &t);
	if ((o.flags & DS_WHO_CGROUP) && use_iostat(&s, &o)) {
		iostat_setup(&s);
		report = iostat_report;
	} else {
		proc_setup(&s, &o);
		report = o.flags & DS_WHO_CGROUP ? group_report : proc_report;
	}
	report(&s, 0);
	deadline = ds_boottime_ns() + t.interval_ns;
	for (n = 0; tool_next(&t, &deadline, n); n++)
		report(&s, 1);
	notes(&s);
	whostream_free(&s.st);
	whogroup_free(&s.g);
	cgiorun_free(&s.cg);
	ds_writer_free(&s.w);
	ds_users_free(&o.users);
	whosel_free(&o.sel);
	tool_exit(0);
}
