/*
 * dpsi: pressure stall information, exactly, over any interval, for
 * the system or for cgroups, and a wait mode on the kernel's triggers.
 */
#include <fcntl.h>

#include "util/util.h"

#define EXIT_TIMEOUT 3

/* Default row order: storage first. */
static const enum ds_psi_res default_order[] = {
	DS_PSI_IO, DS_PSI_MEMORY, DS_PSI_CPU, DS_PSI_IRQ
};

struct dpsi {
	struct tool t;
	enum ds_psi_res order[DS_PSI_NRES];
	size_t nres;
	int res_explicit;
	int cgroup_mode;	/* -c or -C: the cgroup column is there */
	const char *cpath;	/* -c PATH */
	char *top;		/* "/" or "/PATH" */
	int all;		/* -C */
	uint64_t topn;		/* -n, 0: all */
	int topfd;		/* the cgroup of -c, or the v2 mount's top */
	int rc;			/* 1 after a warning: exit status */
	int waiting;		/* -W RESOURCE:KIND:STALL/WINDOW */
	size_t reports;
	struct ds_buf scratch;
	struct ds_buf text;	/* a message from the library */
};

struct waiter {
	struct ds_psi_trigger trig;
	const char *spec;
	uint64_t timeout_ns;	/* -T, 0: none */
	int has_timeout;
	const char *timeout_arg;	/* -T as given, for the message */
};

static const char synopsis[] =
    "dpsi [-CHh] [-c path] [-n count] [-O cols] [-o fmt] [-r resources]\n"
    "            [-R dir] [-w file] [--utc] [interval [count]]\n"
    "       dpsi -W resource:kind:stall/window [-Hh] [-c path] [-O cols]\n"
    "            [-o fmt] [-R dir] [-T seconds] [-w file] [count]";

static const char options[] =
    "  -C            every cgroup below the top (-c), sorted\n"
    "  -c path       the cgroup at path (under the cgroup2 mount)\n"
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
	if (ds_psi_note_msg(n, &d->text) < 0)
		err(1, NULL);
	warnx("%s", d->text.data);
}

static void
fatal_cgroup(struct dpsi *d, int e)
{
	const char *m = ds_psi_errmsg(e, 1);

	if (m != NULL)
		errx(1, "cgroup %s: %s", d->top, m);
	tool_errc(1, e, "cgroup %s", d->top);
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
	for (i = 0; i < s->nnote; i++)
		if (e != -EOPNOTSUPP || i + 1 < s->nnote)
			note_warn(d, &s->note[i]);
	/* PSI off: said however many reports came before. */
	if (e == -EOPNOTSUPP) {
		if (ds_psi_note_msg(&s->note[s->nnote - 1], &d->text) < 0)
			err(1, NULL);
		errx(1, "%s", d->text.data);
	}
	if (e == -ENOMEM)
		tool_errc(1, e, NULL);
	if (e < 0 && d->all)
		tool_errc(1, e, "cgroup %s", d->top);
	/* No PSI, or (-c) the cgroup gone or its accounting off. */
	if (e == -ENOENT && !d->cgroup_mode)
		errx(1, "proc/pressure: %s", ds_psi_errmsg(e, 0));
	if (e == -ENODATA && d->rc == 0 && !d->res_explicit)
		errx(1, "proc/pressure: no pressure files");
	if (e < 0 && d->cgroup_mode && d->rc == 0)
		fatal_cgroup(d, e);
	/* No cgroup below the top (-C) is an empty report, not an error. */
}

/* ---- Output ---- */

static void
write_line(struct ds_writer *w, const struct ds_psi_line *l, double pct)
{
	ds_w_f(w, (double)l->avg[0] / 100);
	ds_w_f(w, (double)l->avg[1] / 100);
	ds_w_f(w, (double)l->avg[2] / 100);
	ds_w_u64(w, l->total);
	if (pct >= 0)
		ds_w_f(w, pct);
	else
		ds_w_null(w);
}

/* Rows of one cgroup (or the system) for the resources of mask. */
static void
write_cg(struct dpsi *d, struct ds_writer *w, const struct ds_psi_sample *prev,
    const struct ds_psi_sample *cur, const struct ds_psi_cg *c,
    unsigned int mask, uint64_t now)
{
	/* Prometheus: one wide row, a family per column, null for none. */
	int prom = d->t.fmt == DS_FMT_PROM, j, k;
	const struct ds_psi_line *l;
	size_t i;

	if (prom) {
		ds_w_time(w, now);
		if (d->cgroup_mode)
			ds_w_str(w, c->path);
	}
	for (i = 0; i < d->nres; i++) {
		enum ds_psi_res r = d->order[i];

		for (k = 0; k < DS_PSI_NKINDS; k++) {
			l = (mask & (1u << r)) ? ds_psi_cg_line(c, r, k) : NULL;
			if (l == NULL) {
				for (j = 0; prom && j < DS_PSI_PER_LINE; j++)
					ds_w_null(w);
				continue;
			}
			if (!prom) {
				ds_w_time(w, now);
				if (d->cgroup_mode)
					ds_w_str(w, c->path);
				ds_w_str(w, ds_psi_res_name(r));
				ds_w_str(w, ds_psi_kind_name(k));
			}
			write_line(w, l, ds_psi_sample_share(prev, cur, c, r, k));
			if (!prom)
				ds_w_row_end(w);
		}
	}
	if (prom)
		ds_w_row_end(w);
}

static void
report(struct dpsi *d, struct ds_writer *w, const struct ds_psi_sample *prev,
    struct ds_psi_sample *cur, unsigned int mask)
{
	uint64_t now = ds_realtime_ns();
	size_t i, n = cur->n;
	int e;

	/* Each cgroup of cur with its previous sample, by path. */
	if (prev != NULL && (e = ds_psi_sample_pair(prev, cur)) < 0)
		tool_errc(1, e, NULL);
	/*
	 * -C: the most stalled first, of the first resource of -r: "which
	 * workload is stalled on I/O" with the default order, not
	 * whichever resource is busiest (cpu).
	 */
	if (d->all && (prev != NULL || d->topn > 0))
		ds_psi_sample_rank(prev, cur, d->order[0]);
	if (d->topn > 0 && d->topn < n)
		n = (size_t)d->topn;
	tool_report_begin(&d->t, w);
	for (i = 0; i < n; i++)
		write_cg(d, w, prev, cur, &cur->cg[i], mask, now);
	tool_report_end(&d->t, w);
	d->reports++;
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
	const struct ds_psi_line *l;

	read_sample(d, s);
	l = ds_psi_cg_line(s->n > 0 ? &s->cg[0] : NULL, tr->res, tr->kind);
	if (l == NULL)
		errx(1, "%s %s: no such line in %s%s", ds_psi_res_name(tr->res),
		    ds_psi_kind_name(tr->kind), d->cgroup_mode ? "cgroup " :
		    "proc/pressure/", d->cgroup_mode ? d->top :
		    ds_psi_res_name(tr->res));
	return l->total;
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

/*
 * The trigger's pressure file, opened to arm it; -1 with *why set when
 * there can be no trigger and the total is to be sampled instead.
 */
static int
wait_open(struct dpsi *d, struct waiter *wt, const char **why)
{
	const struct ds_psi_trigger *tr = &wt->trig;
	const char *rn = ds_psi_res_name(tr->res);
	int fd, e;

	fd = ds_psi_trigger_open(&d->t.r, d->cgroup_mode ? d->topfd : -1,
	    tr->res);
	e = fd < 0 ? fd : 0;
	if (e == -ENOENT || e == -ENODEV || e == -EOPNOTSUPP) {
		if (d->cgroup_mode)
			fatal_cgroup(d, e == -ENOENT ?
			    ds_psi_cgroup_nofiles(d->topfd) : e);
		errx(1, "proc/pressure/%s: %s", rn, ds_psi_errmsg(e, 0));
	}
	if (ds_psi_fallback(e, 0) != 0) {
		*why = ds_psi_fallback_why(ds_psi_fallback(e, 0));
		return -1;
	}
	if (e < 0) {
		if (d->cgroup_mode)
			tool_errc(1, e, "%s.pressure", rn);
		tool_errc(1, e, "proc/pressure/%s", rn);
	}
	if (ds_psi_trigger_supported(fd) != 1) {
		close(fd);
		*why = ds_psi_fallback_why(DS_PSI_NOTKERNEL);
		return -1;
	}
	if ((e = ds_psi_trigger_check(tr, ds_psi_privileged())) < 0)
		errx(1, "%s: %s", wt->spec, ds_psi_trigger_errmsg(e));
	return fd;
}

/* Wait mode: arm the trigger (or sample), report each event. */
static int
run_wait(struct dpsi *d, struct waiter *wt, struct ds_writer *w)
{
	struct ds_psi_sample a = { 0 }, b = { 0 }, *prev = &a, *cur = &b;
	const char *why = NULL;
	uint64_t base, events;
	int fd, e;

	/* Only the trigger's resource is read and reported. */
	d->order[0] = wt->trig.res;
	d->nres = 1;
	d->res_explicit = 1;
	/* Every row carries the share since the previous event (or arming). */
	d->t.has_interval = 1;
	d->waiting = 1;

	fd = wait_open(d, wt, &why);
	/* The baseline, read before arming: the event must exceed it. */
	base = wait_total(d, prev, &wt->trig);
	if (fd >= 0 && (e = ds_psi_trigger_arm(fd, &wt->trig)) < 0) {
		if (e == -EBUSY || e == -EOPNOTSUPP)
			errx(1, "%s: %s", wt->spec, ds_psi_trigger_errmsg(e));
		if (ds_psi_fallback(e, 1) == 0)
			tool_errc(1, e, "%s: arming the trigger", wt->spec);
		why = ds_psi_fallback_why(ds_psi_fallback(e, 1));
		close(fd);
		fd = -1;
	}
	events = wait_events(d, wt, w, fd, base, why, &prev, &cur);
	if (fd >= 0)
		close(fd);
	ds_psi_sample_free(&a);
	ds_psi_sample_free(&b);
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

	while ((ch = getopt_long(argc, argv, TOOL_OPTS "Cc:n:r:T:W:", longopts,
	    NULL)) != -1) {
		/* The trigger has its own option: -w is the output file. */
		if (ch == 'W') {
			if ((e = ds_psi_trigger_msg(optarg, &wt->trig,
			    &d->text)) < 0)
				err(1, NULL);
			if (e > 0)
				tool_usage("--wait '%s': %s", optarg,
				    d->text.data);
			wt->spec = optarg;
			continue;
		}
		if (tool_option(&d->t, ch, optarg))
			continue;
		switch (ch) {
		case 'C':
			d->all = 1;
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
			if ((e = ds_parse_interval(optarg, &wt->timeout_ns)) < 0)
				tool_usage("-T '%s': %s", optarg, e == -ERANGE ?
				    "out of range (0.01 to 2678400 seconds)" :
				    "not a number");
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
	if (d->topn > 0 && !d->all) {
		warnx("-n needs -C");
		usage();
	}
	d->cgroup_mode = d->cpath != NULL || d->all;
}

/* -c or -C: the top cgroup opened, below the v2 mount. */
static void
open_top(struct dpsi *d)
{
	struct ds_mount m;
	char mnt[4096];
	const char *p = d->cpath != NULL ? d->cpath : "";
	size_t i;
	int e;

	/* The v2 hierarchy is wherever the mount table says. */
	if ((e = ds_cgroup2_mount(&d->t.r, mnt, sizeof(mnt))) == -ENOENT)
		errx(1, "proc/self/mountinfo: no cgroup2 mount "
		    "(no cgroup v2 hierarchy to read)");
	if (e < 0)
		tool_errc(1, e, "proc/self/mountinfo");
	memset(&m, 0, sizeof(m));
	m.mnt = mnt;
	while (*p == '/')
		p++;
	if ((d->top = malloc(strlen(p) + 2)) == NULL)
		err(1, NULL);
	d->top[0] = '/';
	strcpy(d->top + 1, p);
	/* "/a/b/" and "/a/b" are one cgroup. */
	for (i = strlen(d->top); i > 1 && d->top[i - 1] == '/'; i--)
		d->top[i - 1] = '\0';
	d->topfd = ds_cgroup_open(&d->t.r, &m, d->top);
	if (d->topfd == -EINVAL)
		errx(1, "cgroup %s: \"..\" leaves the hierarchy", d->top);
	if (d->topfd < 0)
		tool_errc(1, d->topfd, "cgroup %s (under %s)", d->top, m.mnt);
}

int
main(int argc, char **argv)
{
	struct waiter wt = { 0 };
	struct ds_writer w;
	struct ds_psi_cols pc;
	struct dpsi d;
	size_t i;
	int status;

	memset(&d, 0, sizeof(d));
	tool_init(&d.t, argv, &info);
	d.topfd = -1;
	for (i = 0; i < DS_PSI_NRES; i++)
		d.order[i] = default_order[i];
	d.nres = DS_PSI_NRES;
	options_parse(&d, &wt, argc, argv);
	d.topn = d.t.top;
	operands(&d, &wt, argc - optind, argv + optind);
	tool_start(&d.t);
	if (d.cgroup_mode)
		open_top(&d);
	if (wt.spec != NULL && d.t.fmt == DS_FMT_PROM) {
		d.order[0] = wt.trig.res;
		d.nres = 1;
	}
	ds_psi_columns((d.cgroup_mode ? DS_PSICOL_CGROUP : 0) |
	    (d.t.fmt == DS_FMT_PROM ? DS_PSICOL_PROM : 0), d.order, d.nres, &pc);
	ds_writer_init(&w, d.t.out, d.t.fmt, pc.col, pc.n, d.t.header, "dpsi");
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
	ds_buf_free(&d.text);
	if (d.topfd >= 0)
		close(d.topfd);
	free(d.top);
	ds_root_close(&d.t.r);
	tool_exit(status != 0 ? status : d.rc);
}
