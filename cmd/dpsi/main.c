/*
 * dpsi: pressure stall information, exactly, over any interval, for
 * the system or for cgroups, and a wait mode on the kernel's triggers.
 */
#include <fcntl.h>

#include "util/util.h"
#include "dpsi.h"

#define EXIT_TIMEOUT 3

struct dpsi {
	struct tool t;
	enum ds_psi_res order[DS_PSI_NRES];
	size_t nres;
	int res_explicit;
	int cgroup_mode;	/* -c or -C: the cgroup column is there */
	const char *cpath;	/* -c PATH */
	const char *files[2];	/* -f OLD -f NEW: two captures */
	int nfiles;
	char *top;		/* "/" or "/PATH" */
	int all;		/* -C */
	uint64_t topn;		/* -n, 0: all */
	int topfd;		/* the cgroup of -c, or the v2 mount's top */
	int rc;			/* 1 after a warning: exit status */
	int waiting;		/* -W RESOURCE:KIND:STALL/WINDOW */
	unsigned int how;	/* the columns: DPSI_COL_CGROUP, _PROM */
	size_t reports;
	struct ds_buf scratch;
	char *text;		/* a message (msg.c, arm.c) */
};

struct waiter {
	struct ds_psi_trigger trig;
	const char *spec;
	uint64_t timeout_ns;	/* -T, 0: none */
	int has_timeout;
	const char *timeout_arg;	/* -T as given, for the message */
};

static const char synopsis[] =
    "dpsi [-CHh] [-c path] [-f capture -f capture] [-n count] [-O cols]\n"
    "            [-o fmt] [-r resources] [-R dir] [-w file] [--utc]\n"
    "            [interval [count]]\n"
    "       dpsi -W resource:kind:stall/window [-Hh] [-c path] [-O cols]\n"
    "            [-o fmt] [-R dir] [-T seconds] [-w file] [count]";

static const char options[] =
    "  -C            every cgroup below the top (-c), sorted\n"
    "  -c path       the cgroup at path (under the cgroup2 mount)\n"
    "  -f capture    twice: the window between two captures' ends\n"
    "  -n count      with -C: the count cgroups that stalled most\n"
    "  -r resources  io,memory,cpu,irq (default: all the kernel has)\n"
    "  -W trigger, --wait trigger\n"
    "                wait for resource:kind:stall/window (io:some:150ms/2s)\n"
    "  -T seconds    with -W: give up after seconds (exit 3)\n";

static const struct tool_info info = { synopsis, options, TOOL_N_COUNT };

/* A problem met reading, said once (at the first report), not each time. */
static void
note_warn(struct dpsi *d, const struct ds_psi_note *n)
{
	if (n->res >= 0)
		d->rc = 1;
	if (d->reports > 0)
		return;
	if (dpsi_note_msg(n, &d->text) < 0)
		err(1, NULL);
	warnx("%s", d->text);
}

/* The message m said, or e's when it could not be made. */
static _Noreturn void
fatal(int e, const char *m)
{
	if (m == NULL)
		tool_errc(1, e, NULL);
	errx(1, "%s", m);
}

/* A sample read, its problems said; exit on what leaves nothing to say. */
static void
read_sample(struct dpsi *d, struct ds_psi_sample *s)
{
	struct ds_psi_src src = { &d->t.r, d->cgroup_mode ? d->topfd : -1,
	    d->top, d->all, d->order, d->nres, d->res_explicit, &d->scratch };
	size_t i;
	int e;

	if (d->t.has_interval &&
	    (e = ds_uptime_ns(&d->t.r, &d->scratch, &s->up_ns)) < 0) {
		/* Waiting needs no interval: the share is then unknown. */
		if (!d->waiting)
			tool_errc(1, e, "proc/uptime");
		s->up_ns = 0;
	}
	e = ds_psi_sample_read(&src, s);
	/* PSI off: its note is said as the error, below. */
	for (i = 0; i < s->nnote; i++)
		if (e != -EOPNOTSUPP || i + 1 < s->nnote)
			note_warn(d, &s->note[i]);
	if ((e = dpsi_sample_fatal(&src, s, e, d->rc, &d->text)) != 0)
		fatal(e, d->text);
}

/* ---- Output ---- */

static void
report(struct dpsi *d, struct ds_writer *w, const struct ds_psi_sample *prev,
    struct ds_psi_sample *cur, unsigned int mask)
{
	/* -C: the most stalled first, of the first resource of -r. */
	struct dpsi_rows rs = { d->how, d->order, d->nres, mask, d->all,
	    d->topn, ds_root_time_ns(&d->t.r) };
	size_t n;
	int e;

	if ((e = dpsi_rows_order(&rs, prev, cur, &n)) < 0)
		tool_errc(1, e, NULL);
	tool_report_begin(&d->t, w);
	dpsi_rows_write(w, &rs, prev, cur, n);
	tool_report_end(&d->t, w);
	d->reports++;
}

/*
 * -c or -C: the top cgroup opened, below the v2 mount; again at each
 * sample of a capture, whose samples are trees of their own.
 */
static void
top_open(struct dpsi *d)
{
	if (!d->cgroup_mode)
		return;
	if (d->topfd >= 0)
		close(d->topfd);
	free(d->top);
	d->top = NULL;
	if ((d->topfd = dpsi_top_open(&d->t.r, d->cpath, &d->top,
	    &d->text)) < 0)
		fatal(d->topfd, d->text);
}

/* The interval report: interval apart, count times (or until a signal). */
static int
run_report(struct dpsi *d, struct ds_writer *w)
{
	struct ds_psi_sample sa = { 0 }, sb = { 0 }, *prev = &sa, *cur = &sb;
	struct ds_psi_sample *tmp;
	uint64_t deadline, n;

	if (d->t.has_interval)
		read_sample(d, prev);
	deadline = ds_boottime_ns() + d->t.interval_ns;
	for (n = 0;; n++) {
		if (d->t.has_interval && tool_wait(&d->t, &deadline))
			break;
		if (d->t.r.nsamples > 0 && d->t.has_interval)
			top_open(d);
		read_sample(d, cur);
		report(d, w, d->t.has_interval ? prev : NULL, cur, ~0u);
		if (!d->t.has_interval ||
		    (d->t.count != 0 && n + 1 >= d->t.count))
			break;
		tmp = prev;
		prev = cur;
		cur = tmp;
	}
	ds_psi_sample_free(&sa);
	ds_psi_sample_free(&sb);
	return d->rc;
}

/* ---- Wait mode ---- */

/* The total of the trigger's line now (re-read), or exit. */
static uint64_t
wait_total(struct dpsi *d, struct ds_psi_sample *s,
    const struct ds_psi_trigger *tr)
{
	int e;

	read_sample(d, s);
	if ((e = dpsi_noline_msg(s, tr, d->cgroup_mode ? d->top : NULL,
	    &d->text)) != 0)
		fatal(e, d->text);
	return ds_psi_cg_line(&s->cg[0], tr->res, tr->kind)->total;
}

/*
 * Waiting on the kernel's trigger armed on fd, or without one (fd -1)
 * on the total sampled; a report for each event.  The events reported.
 */
static uint64_t
wait_events(struct dpsi *d, struct waiter *wt, struct ds_writer *w, int fd,
    uint64_t base, const char *why, struct ds_psi_sample **prev,
    struct ds_psi_sample **cur)
{
	struct ds_psi_sample *tmp;
	struct ds_psi_wait pw;
	uint64_t total, deadline = 0, events = 0;
	int e;

	ds_psi_wait_init(&pw, fd, &wt->trig, base, ds_boottime_ns());
	if (fd < 0)
		warnx("%s: %s: sampling total every %llu ms instead", wt->spec,
		    why, (unsigned long long)(pw.win.period_ns / 1000000));
	if (wt->has_timeout)
		deadline = ds_boottime_ns() + wt->timeout_ns;
	while (!tool_stop) {
		if ((e = ds_psi_wait_next(&pw, deadline)) == -EINTR)
			continue;
		if (e == 0)
			break;
		if (e == -ENODEV)
			errx(1, "%s: the pressure file went away%s", wt->spec,
			    d->cgroup_mode ? " (cgroup removed?)" : "");
		if (e < 0)
			tool_errc(1, e, "poll");
		total = wait_total(d, *cur, &wt->trig);
		if (!ds_psi_wait_add(&pw, total, ds_boottime_ns()))
			continue;
		report(d, w, *prev, *cur, 1u << wt->trig.res);
		tmp = *prev;
		*prev = *cur;
		*cur = tmp;
		if (++events >= (d->t.count ? d->t.count : 1))
			break;
	}
	return events;
}

/* Wait mode: arm the trigger (or sample), report each event. */
static int
run_wait(struct dpsi *d, struct waiter *wt, struct ds_writer *w)
{
	struct ds_psi_sample a = { 0 }, b = { 0 }, *prev = &a, *cur = &b;
	struct dpsi_arming arm = { &d->t.r, d->cgroup_mode ? d->topfd : -1,
	    d->top, &wt->trig, wt->spec };
	struct ds_buf whymsg = { 0 };
	uint64_t base, events;
	int e, fd, why;

	/* Only the trigger's resource is read and reported. */
	d->order[0] = wt->trig.res;
	d->nres = 1;
	d->res_explicit = 1;
	/* Every row carries the share since the previous event (or arming). */
	d->t.has_interval = 1;
	d->waiting = 1;

	/* Without a trigger to arm (why), the total is sampled. */
	if ((why = dpsi_arm_open(&arm, &fd, &d->text)) < 0)
		fatal(why, d->text);
	/* The baseline, read before arming: the event must exceed it. */
	base = wait_total(d, prev, &wt->trig);
	if (fd >= 0 && (why = dpsi_arm(&arm, &fd, &d->text)) < 0)
		fatal(why, d->text);
	if (fd < 0 && (e = ds_psi_fallback_msg(why, &whymsg)) < 0)
		tool_errc(1, e, NULL);
	events = wait_events(d, wt, w, fd, base, whymsg.data, &prev, &cur);
	if (fd >= 0)
		close(fd);
	ds_psi_sample_free(&a);
	ds_psi_sample_free(&b);
	ds_buf_free(&whymsg);
	return events > 0 ? 0 : EXIT_TIMEOUT;
}

/* ---- Options ---- */

static void
options_parse(struct dpsi *d, struct waiter *wt, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "wait", required_argument, NULL, 'W' },
		TOOL_LONGOPTS
	};
	const char *bad;
	size_t len;
	int ch, e;

	while ((ch = getopt_long(argc, argv, TOOL_OPTS "Cc:f:n:r:T:W:", longopts,
	    NULL)) != -1) {
		/* The trigger has its own option: -w is the output file. */
		if (ch == 'W') {
			if ((e = dpsi_trigger_msg(optarg, &wt->trig,
			    &d->text)) < 0)
				err(1, NULL);
			if (e > 0)
				tool_usage("--wait '%s': %s", optarg, d->text);
			wt->spec = optarg;
			continue;
		}
		if (tool_option(&d->t, ch, optarg))
			continue;
		switch (ch) {
		case 'C':
			d->all = 1;
			break;
		case 'f':
			if (d->nfiles == 2)
				tool_usage("-f: two captures, OLD and NEW");
			d->files[d->nfiles++] = optarg;
			break;
		case 'c':
			d->cpath = optarg;
			break;
		case 'r':
			if (ds_psi_res_list(optarg, d->order, &d->nres, &bad,
			    &len) < 0)
				tool_usage("-r: resource '%.*s': not io, memory, "
				    "cpu or irq", (int)len, bad);
			d->res_explicit = 1;
			break;
		case 'T':
			wt->timeout_ns = tool_seconds("-T", optarg);
			wt->has_timeout = 1;
			wt->timeout_arg = optarg;
			break;
		default:
			usage();
		}
	}
}

/* The operands: interval and count, or with --wait a count of events. */
static void
operands(struct dpsi *d, struct waiter *wt, int argc, char **argv)
{
	if (wt->spec != NULL) {
		if (argc > 1)
			tool_usage("extra operand '%s': with --wait only a "
			    "count", argv[1]);
		if (argc == 1)
			tool_set_count(&d->t, argv[0]);
		if (d->all || d->topn > 0 || d->res_explicit)
			tool_usage("--wait RESOURCE:KIND:STALL/WINDOW names one "
			    "line: no -C, -n or -r");
	} else {
		tool_interval_only(&d->t, argc, argv);
		if (wt->has_timeout)
			tool_usage("-T needs --wait RESOURCE:KIND:STALL/WINDOW");
	}
	if (d->topn > 0 && !d->all)
		tool_usage("-n needs -C");
	d->cgroup_mode = d->cpath != NULL || d->all;
}

/*
 * The root: -R's, or -f OLD -f NEW's two captures.  A capture of two
 * samples is reported over its window, as "WINDOW 1" would be live;
 * --wait waits for what is still to come, which a capture cannot hold.
 */
static void
start(struct dpsi *d, const struct waiter *wt)
{
	if (d->nfiles == 1)
		tool_usage("-f %s: two captures (-f OLD -f NEW), or -R for one",
		    d->files[0]);
	if (d->nfiles == 2 && d->t.has_interval)
		tool_usage("-f: two captures give their window: no interval");
	if (d->nfiles == 2 && wt->spec != NULL)
		tool_usage("--wait waits for the future: not with -f");
	if (d->nfiles == 2)
		tool_start_pair(&d->t, d->files[0], d->files[1]);
	else
		tool_start(&d->t);
	if (wt->spec != NULL && d->t.r.nsamples > 0)
		tool_usage("--wait waits for the future: a capture (%s) holds "
		    "only the past", d->t.r.path);
	(void)tool_window(&d->t);
}

int
main(int argc, char **argv)
{
	struct waiter wt = { 0 };
	struct ds_writer w;
	struct dpsi_cols pc;
	struct dpsi d;
	int e, status;

	memset(&d, 0, sizeof(d));
	tool_init(&d.t, argv, &info);
	d.topfd = -1;
	d.nres = dpsi_order_default(d.order);
	options_parse(&d, &wt, argc, argv);
	d.topn = d.t.top;
	operands(&d, &wt, argc - optind, argv + optind);
	start(&d, &wt);
	top_open(&d);
	if (wt.spec != NULL && d.t.fmt == DS_FMT_PROM) {
		d.order[0] = wt.trig.res;
		d.nres = 1;
	}
	d.how = (d.cgroup_mode ? DPSI_COL_CGROUP : 0) |
	    (d.t.fmt == DS_FMT_PROM ? DPSI_COL_PROM : 0);
	dpsi_columns(d.how, d.order, d.nres, &pc);
	if ((e = ds_writer_init(&w, d.t.out, d.t.fmt, pc.col, pc.n,
	    d.t.header, "dpsi")) < 0)
		tool_errc(1, e, "writer");
	tool_writer(&d.t, &w);
	if (wt.spec != NULL) {
		status = run_wait(&d, &wt, &w);
		if (status == EXIT_TIMEOUT && !tool_stop && wt.has_timeout)
			warnx("--wait %s: timed out after %s s: the threshold "
			    "was not crossed", wt.spec, wt.timeout_arg);
	} else {
		status = run_report(&d, &w);
	}
	ds_writer_free(&w);
	ds_buf_free(&d.scratch);
	free(d.text);
	if (d.topfd >= 0)
		close(d.topfd);
	free(d.top);
	ds_root_close(&d.t.r);
	tool_exit(status != 0 ? status : d.rc);
}
