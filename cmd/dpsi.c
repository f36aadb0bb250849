/*
 * dpsi: pressure stall information, exactly, over any interval, for
 * the system or for cgroups, and a wait mode on the kernel's triggers.
 */
#include <fcntl.h>
#include <poll.h>

#include "util/util.h"

#define EXIT_TIMEOUT 3

/* Default row order: storage first. */
static const enum ds_psi_res default_order[] = {
	DS_PSI_IO, DS_PSI_MEMORY, DS_PSI_CPU, DS_PSI_IRQ
};

/* One cgroup (or the whole system) in one sample. */
struct cg {
	char *path;		/* NULL: the system, from proc/pressure */
	unsigned int ok;	/* bit r: resource r read */
	struct ds_psi p[DS_PSI_NRES];
	const struct cg *prev;	/* the same cgroup in the previous sample */
	double key;		/* sort key: share or avg10 of order[0] */
};

struct sample {
	struct cg *cg;
	size_t n, cap;
	uint64_t up_ns;		/* ds_uptime_ns when read */
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
	int waiting;		/* -w RESOURCE:KIND:STALL/WINDOW */
	size_t reports;
	struct ds_buf scratch;
	/* reading a walk */
	struct sample *cur;
	int walk_err;
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

/* A trigger that does not parse: which part is wrong, and why. */
static void
bad_trigger(const char *spec)
{
	static const char *const why[] = {
		[DS_TRIG_SHAPE] = "not RESOURCE:KIND:STALL/WINDOW "
		    "(e.g. io:some:150ms/2s)",
		[DS_TRIG_RESOURCE] = "not io, memory, cpu or irq",
		[DS_TRIG_KIND] = "not some or full",
		[DS_TRIG_STALL] = "not a duration (a number and us, ms or s)",
		[DS_TRIG_WINDOW] = "not a duration (a number and us, ms or s)",
	};
	static const char *const part[] = {
		[DS_TRIG_RESOURCE] = "resource", [DS_TRIG_KIND] = "kind",
		[DS_TRIG_STALL] = "stall", [DS_TRIG_WINDOW] = "window",
	};
	struct ds_psi_trigger t;
	struct ds_psi_trigger_bad b;

	if (ds_psi_trigger_parse_part(spec, &t, &b) == 0)
		return;
	if (b.part == DS_TRIG_SHAPE)
		tool_usage("--wait '%s': %s", spec, why[b.part]);
	tool_usage("--wait '%s': %s '%.*s': %s", spec, part[b.part],
	    (int)b.len, b.at, why[b.part]);
}

static void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (p == NULL)
		err(1, NULL);
	return p;
}

static char *
xstrdup(const char *s)
{
	char *p = strdup(s);

	if (p == NULL)
		err(1, NULL);
	return p;
}

static void
parse_resources(struct dpsi *d, const char *arg)
{
	const char *s = arg, *c;
	unsigned int seen = 0;
	size_t len;
	int v;

	d->nres = 0;
	for (;;) {
		c = strchr(s, ',');
		len = c != NULL ? (size_t)(c - s) : strlen(s);
		if ((v = ds_psi_res_parse(s, len)) < 0) {
			tool_usage("-r: resource '%.*s': not io, memory, cpu "
			    "or irq", (int)len, s);
		}
		if (!(seen & (1u << v))) {
			seen |= 1u << v;
			d->order[d->nres++] = (enum ds_psi_res)v;
		}
		if (c == NULL)
			break;
		s = c + 1;
	}
	d->res_explicit = 1;
}

static struct cg *
sample_add(struct sample *s)
{
	struct cg *c;

	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		c = realloc(s->cg, cap * sizeof(*c));
		if (c == NULL)
			err(1, NULL);
		s->cg = c;
		s->cap = cap;
	}
	c = &s->cg[s->n++];
	memset(c, 0, sizeof(*c));
	return c;
}

static void
sample_clear(struct sample *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->cg[i].path);
	s->n = 0;
}

/* "where" for messages: proc/pressure/io, or cgroup /a/b: io.pressure. */
static void
warn_file(struct dpsi *d, const struct cg *c, enum ds_psi_res r,
    const char *fmt, const char *arg)
{
	char what[512];

	if (d->reports > 0)
		return;		/* once, not at every sample */
	snprintf(what, sizeof(what), fmt, arg);
	if (c->path == NULL)
		warnx("proc/pressure/%s: %s", ds_psi_res_name(r), what);
	else
		warnx("cgroup %s: %s.pressure: %s", c->path,
		    ds_psi_res_name(r), what);
}

/*
 * Read the selected pressure files of one cgroup (dirfd) or of the
 * system (dirfd -1).  Returns how many resources were read.  With
 * "walking" set, a missing file is normal (cgroup removed, or its
 * pressure accounting off) and not worth a word.
 */
static int
read_cg(struct dpsi *d, struct cg *c, int dirfd, int walking)
{
	char name[32], rel[64];
	char num[32];
	size_t i;
	int e, n = 0;

	for (i = 0; i < d->nres; i++) {
		enum ds_psi_res r = d->order[i];
		struct ds_psi *p = &c->p[r];

		snprintf(rel, sizeof(rel), "proc/pressure/%s",
		    ds_psi_res_name(r));
		snprintf(name, sizeof(name), "%s.pressure", ds_psi_res_name(r));
		if (dirfd < 0)
			e = ds_psi_read(&d->t.r, rel, &d->scratch, p);
		else
			e = ds_psi_read_at(dirfd, name, &d->scratch, p);
		if (e == 0) {
			c->ok |= 1u << r;
			n++;
			if (p->bad > 0) {
				snprintf(num, sizeof(num), "%zu", p->first_bad);
				warn_file(d, c, r, "line %s malformed, skipped",
				    num);
				d->rc = 1;
			}
			continue;
		}
		if (e == -EOPNOTSUPP) {
			/* 4.20 to 5.5, RHEL 8: files there, PSI off. */
			if (dirfd < 0)
				errx(1, "%s: %s", rel, ds_psi_errmsg(e, 0));
			errx(1, "cgroup %s: %s: %s", c->path, name,
			    ds_psi_errmsg(e, 1));
		}
		if (e == -ENOENT || e == -ENODEV) {
			if (walking || !d->res_explicit)
				continue;
			/*
			 * irq pressure needs 6.1 and IRQ time accounting:
			 * only a resource asked for by name is worth a word.
			 */
			warn_file(d, c, r, "%s", r == DS_PSI_IRQ &&
			    e == -ENOENT ? "not in this kernel (6.1+ with "
			    "CONFIG_IRQ_TIME_ACCOUNTING)" :
			    ds_psi_errmsg(e, dirfd >= 0));
			d->rc = 1;
			continue;
		}
		/* Out of descriptors deep in a walk: the subtree is left out. */
		if (walking && (e == -EMFILE || e == -ENFILE))
			return e;
		warn_file(d, c, r, "%s", e == -EINVAL ?
		    "malformed, no line to report" : strerror(-e));
		d->rc = 1;
	}
	return n;
}

static int
walk_one(void *arg, int dirfd, const char *path)
{
	struct dpsi *d = arg;
	struct cg *c;
	size_t tl = strlen(d->top);
	int e;

	/*
	 * Not the top itself: it holds every cgroup below, so it would
	 * always rank first (the root's files are /proc/pressure's).
	 * "dpsi -c PATH" gives its rows.
	 */
	/* A subtree the walk could not enter: named once, the rest reported. */
	if (dirfd < 0) {
		const char *top = strcmp(d->top, "/") != 0 ? d->top : "";

		if (strcmp(path, "/") == 0 && *top != '\0')
			path = "";
		if (d->reports > 0)
			return 0;
		if (dirfd == -ELOOP)
			warnx("cgroup %s%s: subtree skipped: nested deeper "
			    "than %d levels", top, path, DS_CGROUP_DEPTH_MAX);
		else
			tool_warnc(dirfd, "cgroup %s%s: subtree skipped", top,
			    path);
		return 0;
	}
	if (strcmp(path, "/") == 0)
		return 0;
	c = sample_add(d->cur);
	/* The path below the mount: the top (-c) and the walk's path. */
	c->path = xcalloc(1, tl + strlen(path) + 1);
	if (strcmp(d->top, "/") != 0)
		memcpy(c->path, d->top, tl);
	strcat(c->path, path);
	/* A cgroup whose pressure files are off or gone has no rows. */
	if ((e = read_cg(d, c, dirfd, 1)) < 0) {
		if (d->reports == 0)
			tool_warnc(e, "cgroup %s: subtree skipped", c->path);
		free(c->path);
		d->cur->n--;
		return DS_CGROUP_PRUNE;
	}
	if (e == 0 && c->ok == 0) {
		free(c->path);
		d->cur->n--;
	}
	return 0;
}

static void
fatal_cgroup(struct dpsi *d, int e)
{
	const char *m = ds_psi_errmsg(e, 1);

	if (m != NULL)
		errx(1, "cgroup %s: %s", d->top, m);
	tool_errc(1, e, "cgroup %s", d->top);
}

/* A cgroup without its pressure files: removed, or accounting off. */
static void
fatal_nofiles(struct dpsi *d)
{
	int fd;

	fd = openat(d->topfd, "cgroup.procs", O_PATH | O_CLOEXEC);
	if (fd < 0)
		fatal_cgroup(d, -ENOENT);
	close(fd);
	fatal_cgroup(d, -ENODEV);
}

static void
read_sample(struct dpsi *d, struct sample *s)
{
	struct cg *c;
	int e, fd;

	sample_clear(s);
	if (d->t.has_interval &&
	    (e = ds_uptime_ns(&d->t.r, &d->scratch, &s->up_ns)) < 0) {
		/* Waiting needs no interval: the share is then unknown. */
		if (!d->waiting)
			tool_errc(1, e, "proc/uptime");
		s->up_ns = 0;
	}
	if (!d->cgroup_mode) {
		c = sample_add(s);
		if (read_cg(d, c, -1, 0) > 0)
			return;
		/* Nothing at all: is PSI there? */
		fd = ds_openat(&d->t.r, "proc/pressure",
		    O_RDONLY | O_DIRECTORY);
		if (fd < 0 && fd == -ENOENT)
			errx(1, "proc/pressure: %s", ds_psi_errmsg(fd, 0));
		if (fd >= 0)
			close(fd);
		if (d->rc == 0 && fd >= 0 && !d->res_explicit)
			errx(1, "proc/pressure: no pressure files");
		s->n = 0;
		return;
	}
	if (!d->all) {
		c = sample_add(s);
		c->path = xstrdup(d->top);
		if (read_cg(d, c, d->topfd, 0) > 0)
			return;
		/* Every file missing: off, or the cgroup is gone. */
		if (c->ok == 0 && d->rc == 0)
			fatal_nofiles(d);
		s->n = 0;
		return;
	}
	d->cur = s;
	if ((e = ds_cgroup_walk(d->topfd, walk_one, d)) < 0)
		tool_errc(1, e, "cgroup %s", d->top);
	/* No cgroup below the top is an empty report, not an error. */
}

/* The stall share of one line over the interval; -1 when none. */
static double
share(const struct sample *prev,
    const struct sample *cur, const struct cg *c, enum ds_psi_res r,
    enum ds_psi_kind k)
{
	const struct cg *p = c->prev;
	double pct;

	if (prev == NULL || p == NULL || !(p->ok & (1u << r)) ||
	    !(p->p[r].have & (1u << k)) || !(c->p[r].have & (1u << k)))
		return -1;
	if (cur->up_ns <= prev->up_ns ||
	    ds_psi_share(p->p[r].line[k].total, c->p[r].line[k].total,
	    cur->up_ns - prev->up_ns, &pct) < 0)
		return -1;
	return pct;
}

static int
key_cmp(const void *a, const void *b)
{
	const struct cg *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? 1 : -1;
	return strcmp(x->path, y->path);
}

/* ---- Output ---- */

static const struct ds_col cols_sys[] = {
	{ "time", DS_T_TIME, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "resource", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "kind", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "avg10", DS_T_F2, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "avg60", DS_T_F2, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "avg300", DS_T_F2, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "total", DS_T_U64, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "stall%", DS_T_F2, DS_P_NONE, NULL, NULL, 0, 0, 0 },
};
static const struct ds_col cols_cg[] = {
	{ "time", DS_T_TIME, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "cgroup", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "resource", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "kind", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "avg10", DS_T_F2, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "avg60", DS_T_F2, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "avg300", DS_T_F2, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "total", DS_T_U64, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "stall%", DS_T_F2, DS_P_NONE, NULL, NULL, 0, 0, 0 },
};

/*
 * Prometheus: one metric family per resource, kind and value, so the
 * names are made here; each cgroup is one wide row, and the writer
 * prints each column as one family (HELP and TYPE once).
 */
#define PROM_PER_LINE 5
struct prom_cols {
	struct ds_col col[2 + DS_PSI_NRES * DS_PSI_NKINDS * PROM_PER_LINE];
	char names[DS_PSI_NRES * DS_PSI_NKINDS * PROM_PER_LINE][64];
	char helps[DS_PSI_NRES * DS_PSI_NKINDS * PROM_PER_LINE][160];
	size_t n;
};

static void
prom_build(struct dpsi *d, struct prom_cols *pc)
{
	static const char *const what[PROM_PER_LINE] = {
	    "avg10_ratio", "avg60_ratio", "avg300_ratio",
	    "stall_seconds_total", "stall_ratio" };
	static const char *const help[PROM_PER_LINE] = {
	    "kernel's 10 s exponential moving average of the stalled share",
	    "kernel's 60 s exponential moving average of the stalled share",
	    "kernel's 300 s exponential moving average of the stalled share",
	    "cumulative stall time",
	    "share of the last interval stalled, from the total" };
	size_t i, k, j, m = 0;

	memset(pc, 0, sizeof(*pc));
	pc->col[pc->n++] = (struct ds_col){ "time", DS_T_TIME, DS_P_NONE,
	    NULL, NULL, 0, 0, 0 };
	if (d->cgroup_mode)
		pc->col[pc->n++] = (struct ds_col){ "cgroup", DS_T_STR,
		    DS_P_LABEL, "cgroup", NULL, 0, 0, 0 };
	for (i = 0; i < d->nres; i++)
		for (k = 0; k < DS_PSI_NKINDS; k++)
			for (j = 0; j < PROM_PER_LINE; j++, m++) {
				const char *rn = ds_psi_res_name(d->order[i]);
				const char *kn = ds_psi_kind_name(k);
				struct ds_col *c = &pc->col[pc->n++];

				snprintf(pc->names[m], sizeof(pc->names[m]),
				    "%s_%s_%s", rn, kn, what[j]);
				snprintf(pc->helps[m], sizeof(pc->helps[m]),
				    "PSI %s %s: %s%s.", rn, kn, help[j],
				    j < 3 ? " (0 to 1)" : j == 3 ?
				    ", seconds" : " (0 to 1)");
				c->name = pc->names[m];
				c->metric = pc->names[m];
				c->help = pc->helps[m];
				if (j == 3) {
					c->type = DS_T_U64;
					c->prom = DS_P_COUNTER;
					c->div10 = 6;	/* us to s */
				} else {
					c->type = DS_T_F2;
					c->prom = DS_P_GAUGE;
					c->scale = 0.01;	/* % to ratio */
				}
			}
}

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
write_cg(struct dpsi *d, struct ds_writer *w, const struct sample *prev,
    const struct sample *cur, const struct cg *c, unsigned int mask,
    uint64_t now)
{
	size_t i;
	int k;

	if (d->t.fmt == DS_FMT_PROM) {
		ds_w_time(w, now);
		if (d->cgroup_mode)
			ds_w_str(w, c->path);
		for (i = 0; i < d->nres; i++) {
			enum ds_psi_res r = d->order[i];
			for (k = 0; k < DS_PSI_NKINDS; k++) {
				if (!(mask & (1u << r)) ||
				    !(c->ok & (1u << r)) ||
				    !(c->p[r].have & (1u << k))) {
					int j;
					for (j = 0; j < PROM_PER_LINE; j++)
						ds_w_null(w);
					continue;
				}
				write_line(w, &c->p[r].line[k],
				    share(prev, cur, c, r, k));
			}
		}
		ds_w_row_end(w);
		return;
	}
	for (i = 0; i < d->nres; i++) {
		enum ds_psi_res r = d->order[i];

		if (!(mask & (1u << r)) || !(c->ok & (1u << r)))
			continue;
		for (k = 0; k < DS_PSI_NKINDS; k++) {
			if (!(c->p[r].have & (1u << k)))
				continue;
			ds_w_time(w, now);
			if (d->cgroup_mode)
				ds_w_str(w, c->path);
			ds_w_str(w, ds_psi_res_name(r));
			ds_w_str(w, ds_psi_kind_name(k));
			write_line(w, &c->p[r].line[k],
			    share(prev, cur, c, r, k));
			ds_w_row_end(w);
		}
	}
}

static void
report(struct dpsi *d, struct ds_writer *w, struct sample *prev,
    struct sample *cur, unsigned int mask)
{
	uint64_t now = ds_realtime_ns();
	size_t i, n = cur->n;
	int k, e;

	/* Each cgroup of cur with its previous sample, by path. */
	if (prev != NULL && (e = ds_psi_pair(prev->cg, prev->n, cur->cg,
	    cur->n, sizeof(*cur->cg), offsetof(struct cg, path),
	    offsetof(struct cg, prev))) < 0)
		tool_errc(1, e, NULL);
	/*
	 * -C: the most stalled first, by the interval's share (or avg10)
	 * of the first resource of -r, kind "some" ("full" where there is
	 * only that, as for irq): "which workload is stalled on I/O" with
	 * the default order, not whichever resource is busiest (cpu).
	 */
	if (d->all && (prev != NULL || d->topn > 0)) {
		enum ds_psi_res r = d->order[0];

		for (i = 0; i < cur->n; i++) {
			struct cg *c = &cur->cg[i];

			c->key = -1;
			k = (c->p[r].have & (1u << DS_PSI_SOME)) ? DS_PSI_SOME :
			    DS_PSI_FULL;
			if (!(c->p[r].have & (1u << k)))
				continue;
			c->key = prev != NULL ? share(prev, cur, c, r, k) :
			    (double)c->p[r].line[k].avg[0];
		}
		/* prev pointers stay valid: they point into prev. */
		if (cur->n > 1)
			qsort(cur->cg, cur->n, sizeof(*cur->cg), key_cmp);
	}
	if (d->topn > 0 && d->topn < n)
		n = (size_t)d->topn;
	tool_report_begin(&d->t, w);
	for (i = 0; i < n; i++)
		write_cg(d, w, prev, cur, &cur->cg[i], mask, now);
	tool_report_end(&d->t, w);
	d->reports++;
}

/* ---- Wait mode ---- */

struct waiter {
	struct ds_psi_trigger trig;
	const char *spec;
	uint64_t timeout_ns;	/* -T, 0: none */
	int has_timeout;
	const char *timeout_arg;	/* -T as given, for the message */
};

/* The total of the trigger's line now (re-read), or exit. */
static uint64_t
wait_total(struct dpsi *d, struct sample *s, const struct ds_psi_trigger *tr)
{
	const struct cg *c;

	read_sample(d, s);
	c = s->n > 0 ? &s->cg[0] : NULL;
	if (c == NULL || !(c->ok & (1u << tr->res)) ||
	    !(c->p[tr->res].have & (1u << tr->kind)))
		errx(1, "%s %s: no such line in %s%s", ds_psi_res_name(tr->res),
		    ds_psi_kind_name(tr->kind), d->cgroup_mode ? "cgroup " :
		    "proc/pressure/", d->cgroup_mode ? d->top :
		    ds_psi_res_name(tr->res));
	return c->p[tr->res].line[tr->kind].total;
}

/* An event: its report; 1 once the events asked for are reported. */
static int
wait_event(struct dpsi *d, struct ds_writer *w, struct sample **prev,
    struct sample **cur, const struct ds_psi_trigger *tr, uint64_t *events)
{
	struct sample *tmp;

	report(d, w, *prev, *cur, 1u << tr->res);
	(*events)++;
	tmp = *prev;
	*prev = *cur;
	*cur = tmp;
	return *events >= (d->t.count ? d->t.count : 1);
}

/* Waiting on the kernel's trigger armed on fd; the events reported. */
static uint64_t
wait_trigger(struct dpsi *d, struct waiter *wt, struct ds_writer *w, int fd,
    uint64_t base, struct sample **prev, struct sample **cur)
{
	const struct ds_psi_trigger *tr = &wt->trig;
	uint64_t now, now_total, deadline = 0, events = 0;
	int e, timeout_ms, first = 1;

	if (wt->has_timeout)
		deadline = ds_boottime_ns() + wt->timeout_ns;
	while (!tool_stop) {
		struct pollfd pfd = { .fd = fd, .events = POLLPRI };

		now = ds_boottime_ns();
		timeout_ms = -1;
		if (wt->has_timeout) {
			if (now >= deadline)
				break;
			/* poll() takes int ms: wait at most an hour at a time. */
			timeout_ms = (deadline - now) / 1000000 >= 3600000 ?
			    3600000 : (int)((deadline - now + 999999) / 1000000);
		}
		e = poll(&pfd, 1, timeout_ms);
		if (e < 0) {
			if (errno == EINTR)
				continue;
			err(1, "poll");
		}
		if (e == 0)
			continue;
		if (pfd.revents & (POLLERR | POLLNVAL)) {
			/* The cgroup was removed under us. */
			errx(1, "%s: the pressure file went away%s",
			    wt->spec, d->cgroup_mode ?
			    " (cgroup removed?)" : "");
		}
		if (!(pfd.revents & POLLPRI))
			continue;
		now_total = wait_total(d, *cur, tr);
		/*
		 * A new trigger may fire at once; later events are
		 * rate-limited to one per window by the kernel, and
		 * need only show some stall since the last one.
		 */
		if (!ds_psi_confirm(base, now_total, first ? tr->stall_us : 1))
			continue;
		first = 0;
		base = now_total;
		if (wait_event(d, w, prev, cur, tr, &events))
			break;
	}
	return events;
}

/* Without a trigger: the total sampled (ds_psi_window); the events. */
static uint64_t
wait_sampling(struct dpsi *d, struct waiter *wt, struct ds_writer *w,
    uint64_t base, const char *why, struct sample **prev,
    struct sample **cur)
{
	const struct ds_psi_trigger *tr = &wt->trig;
	struct ds_psi_window win;
	uint64_t next, now_total, deadline = 0, events = 0;

	ds_psi_window_init(&win, tr, base, ds_boottime_ns());
	warnx("%s: %s: sampling total every %llu ms instead",
	    wt->spec, why, (unsigned long long)(win.period_ns / 1000000));
	if (wt->has_timeout)
		deadline = ds_boottime_ns() + wt->timeout_ns;
	while (!tool_stop) {
		if (wt->has_timeout && ds_boottime_ns() >= deadline)
			break;
		next = ds_psi_window_next(&win);
		if (wt->has_timeout && next > deadline)
			next = deadline;
		if (ds_sleep_until(next) == -EINTR)
			continue;
		if (wt->has_timeout && ds_boottime_ns() >= deadline)
			break;
		now_total = wait_total(d, *cur, tr);
		if (!ds_psi_window_add(&win, now_total, ds_boottime_ns()))
			continue;
		if (wait_event(d, w, prev, cur, tr, &events))
			break;
	}
	return events;
}

static int
run_wait(struct dpsi *d, struct waiter *wt, struct ds_writer *w)
{
	struct sample a = { 0 }, b = { 0 }, *prev = &a, *cur = &b;
	const struct ds_psi_trigger *tr = &wt->trig;
	char rel[64], name[32];
	uint64_t base, events;
	int fd, e, sampling = 0;
	const char *why = NULL;

	/* Only the trigger's resource is read and reported. */
	d->order[0] = tr->res;
	d->nres = 1;
	d->res_explicit = 1;
	/* Every row carries the share since the previous event (or arming). */
	d->t.has_interval = 1;
	d->waiting = 1;

	snprintf(name, sizeof(name), "%s.pressure", ds_psi_res_name(tr->res));
	snprintf(rel, sizeof(rel), "proc/pressure/%s",
	    ds_psi_res_name(tr->res));
	fd = ds_psi_trigger_open(&d->t.r, d->cgroup_mode ? d->topfd : -1,
	    tr->res);
	e = fd < 0 ? fd : 0;
	if (e == -ENOENT || e == -ENODEV || e == -EOPNOTSUPP) {
		if (d->cgroup_mode && e == -ENOENT)
			fatal_nofiles(d);
		if (d->cgroup_mode)
			fatal_cgroup(d, e);
		errx(1, "%s: %s", rel, ds_psi_errmsg(e, 0));
	}
	if (e == -EACCES || e == -EPERM || e == -EROFS) {
		sampling = 1;
		why = "no write access to the pressure file (triggers need "
		    "5.2+, and root before 6.5)";
	} else if (e < 0) {
		tool_errc(1, e, "%s", d->cgroup_mode ? name : rel);
	}
	if (!sampling && ds_psi_trigger_supported(fd) != 1) {
		sampling = 1;
		why = "not a kernel pressure file (a captured tree)";
	}
	if (!sampling && (e = ds_psi_trigger_check(tr,
	    ds_psi_privileged())) < 0)
		errx(1, "%s: %s", wt->spec, ds_psi_trigger_errmsg(e));

	/* The baseline, read before arming: the event must exceed it. */
	base = wait_total(d, prev, tr);
	if (!sampling && (e = ds_psi_trigger_arm(fd, tr)) < 0) {
		if (e == -EBUSY || e == -EOPNOTSUPP)
			errx(1, "%s: %s", wt->spec, ds_psi_trigger_errmsg(e));
		if (e == -EINVAL || e == -EPERM || e == -EACCES) {
			/* 4.20 to 5.1 have read-only files: no triggers. */
			sampling = 1;
			why = "the kernel refused the trigger (no triggers "
			    "before 5.2)";
		} else {
			tool_errc(1, e, "%s: arming the trigger", wt->spec);
		}
	}
	if (sampling && fd >= 0) {
		close(fd);
		fd = -1;
	}
	if (sampling)
		events = wait_sampling(d, wt, w, base, why, &prev, &cur);
	else
		events = wait_trigger(d, wt, w, fd, base, &prev, &cur);
	if (fd >= 0)
		close(fd);
	sample_clear(&a);
	sample_clear(&b);
	free(a.cg);
	free(b.cg);
	return events > 0 ? 0 : EXIT_TIMEOUT;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "wait", required_argument, NULL, 'W' },
		TOOL_LONGOPTS
	};
	struct sample sa = { 0 }, sb = { 0 }, *prev, *cur, *tmp;
	struct waiter wt = { 0 };
	struct prom_cols pc;
	struct ds_mount cm;
	const struct ds_mount *m;
	char cgmnt[4096];
	struct ds_writer w;
	struct dpsi d;
	uint64_t deadline, n;
	size_t i;
	int ch, e, status;

	memset(&d, 0, sizeof(d));
	tool_init(&d.t, argv, &info);
	d.topfd = -1;
	for (i = 0; i < DS_PSI_NRES; i++)
		d.order[i] = default_order[i];
	d.nres = DS_PSI_NRES;
	while ((ch = getopt_long(argc, argv, TOOL_OPTS "Cc:n:r:T:W:", longopts,
	    NULL)) != -1) {
		/* The trigger has its own option: -w is the output file. */
		if (ch == 'W') {
			bad_trigger(optarg);
			(void)ds_psi_trigger_parse(optarg, &wt.trig);
			if ((e = ds_psi_trigger_check(&wt.trig, 1)) < 0)
				tool_usage("--wait '%s': %s", optarg,
				    ds_psi_trigger_errmsg(e));
			wt.spec = optarg;
			continue;
		}
		if (tool_option(&d.t, ch, optarg))
			continue;
		switch (ch) {
		case 'C':
			d.all = 1;
			break;
		case 'c':
			d.cpath = optarg;
			break;
		case 'r':
			parse_resources(&d, optarg);
			break;
		case 'T':
			if ((e = ds_parse_interval(optarg, &wt.timeout_ns)) < 0)
				tool_usage("-T '%s': %s", optarg, e == -ERANGE ?
				    "out of range (0.01 to 2678400 seconds)" :
				    "not a number");
			wt.has_timeout = 1;
			wt.timeout_arg = optarg;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	d.topn = d.t.top;
	if (wt.spec != NULL) {
		/* Wait mode: the only operand is how many events to report. */
		if (argc > 1)
			tool_usage("extra operand '%s': with --wait only a "
			    "count", argv[1]);
		if (argc == 1)
			tool_set_count(&d.t, argv[0]);
		argc = 0;
		if (d.all || d.topn > 0 || d.res_explicit)
			tool_usage("--wait RESOURCE:KIND:STALL/WINDOW names one "
			    "line: no -C, -n or -r");
	} else {
		tool_interval_only(&d.t, argc, argv);
		argc = 0;
		if (wt.has_timeout)
			tool_usage("-T needs --wait RESOURCE:KIND:STALL/WINDOW");
	}
	if (d.topn > 0 && !d.all) {
		warnx("-n needs -C");
		usage();
	}
	d.cgroup_mode = d.cpath != NULL || d.all;
	tool_start(&d.t);

	if (d.cgroup_mode) {
		/* The v2 hierarchy is wherever the mount table says. */
		if ((e = ds_cgroup2_mount(&d.t.r, cgmnt, sizeof(cgmnt))) ==
		    -ENOENT)
			errx(1, "proc/self/mountinfo: no cgroup2 mount "
			    "(no cgroup v2 hierarchy to read)");
		if (e < 0)
			tool_errc(1, e, "proc/self/mountinfo");
		memset(&cm, 0, sizeof(cm));
		cm.mnt = cgmnt;
		m = &cm;
		d.top = xcalloc(1, (d.cpath ? strlen(d.cpath) : 0) + 2);
		strcpy(d.top, "/");
		if (d.cpath != NULL) {
			const char *p = d.cpath;
			while (*p == '/')
				p++;
			strcat(d.top, p);
			/* "/a/b/" and "/a/b" are one cgroup. */
			for (i = strlen(d.top); i > 1 && d.top[i - 1] == '/';
			    i--)
				d.top[i - 1] = '\0';
		}
		d.topfd = ds_cgroup_open(&d.t.r, m, d.top);
		if (d.topfd == -EINVAL)
			errx(1, "cgroup %s: \"..\" leaves the hierarchy",
			    d.top);
		if (d.topfd < 0)
			tool_errc(1, d.topfd, "cgroup %s (under %s)", d.top,
			    m->mnt);
	}

	if (d.t.fmt == DS_FMT_PROM) {
		if (wt.spec != NULL) {
			d.order[0] = wt.trig.res;
			d.nres = 1;
		}
		prom_build(&d, &pc);
		ds_writer_init(&w, d.t.out, d.t.fmt, pc.col, pc.n,
		    d.t.header, "dpsi");
	} else if (d.cgroup_mode) {
		ds_writer_init(&w, d.t.out, d.t.fmt, cols_cg,
		    sizeof(cols_cg) / sizeof(cols_cg[0]), d.t.header, "dpsi");
	} else {
		ds_writer_init(&w, d.t.out, d.t.fmt, cols_sys,
		    sizeof(cols_sys) / sizeof(cols_sys[0]), d.t.header, "dpsi");
	}

	tool_writer(&d.t, &w);
	if (wt.spec != NULL) {
		status = run_wait(&d, &wt, &w);
		if (status == EXIT_TIMEOUT && !tool_stop && wt.has_timeout)
			warnx("--wait %s: timed out after %s s: the threshold "
			    "was not crossed", wt.spec, wt.timeout_arg);
	} else {
		prev = &sa;
		cur = &sb;
		if (d.t.has_interval)
			read_sample(&d, prev);
		deadline = ds_boottime_ns() + d.t.interval_ns;
		for (n = 0;; n++) {
			if (d.t.has_interval && tool_wait(&d.t, &deadline))
				break;
			read_sample(&d, cur);
			report(&d, &w, d.t.has_interval ? prev : NULL, cur,
			    ~0u);
			if (!d.t.has_interval ||
			    (d.t.count != 0 && n + 1 >= d.t.count))
				break;
			tmp = prev;
			prev = cur;
			cur = tmp;
		}
		status = d.rc;
		sample_clear(&sa);
		sample_clear(&sb);
		free(sa.cg);
		free(sb.cg);
	}
	ds_writer_free(&w);
	ds_buf_free(&d.scratch);
	if (d.topfd >= 0)
		close(d.topfd);
	free(d.top);
	ds_root_close(&d.t.r);
	tool_exit(status != 0 ? status : d.rc);
}
