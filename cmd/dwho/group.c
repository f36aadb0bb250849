/*
 * -g: which source a per-cgroup report reads, and its two pipelines
 * over successive samples: io.stat of every cgroup, or the processes of
 * /proc/PID/io summed by cgroup.  Each keeps the sample before, so that
 * a report is the difference of two.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dwho/dwho.h"

/* The cgroup mount as a message names it (ds_cgroup2_mount's mnt). */
static const char *
slash(const char *mnt)
{
	return mnt[0] == '/' ? "" : "/";
}

int
cgio_source(const struct ds_root *r, char *mnt, size_t size)
{
	struct ds_cgios probe = { 0 };
	struct ds_buf b = { 0 };
	int e, has;

	if ((e = ds_cgroup2_mount(r, mnt, size)) < 0)
		return e;
	has = ds_cgroup2_has_io(r, mnt, &b);
	ds_buf_free(&b);
	if (has < 0 && ds_cgios_read(r, mnt, &probe) == 0 &&
	    probe.with_iostat > 0)
		has = 1;
	ds_cgios_free(&probe);
	return has == 1;
}

int
who_source(const struct ds_root *r, const char *want, int selected,
    int proc_key, char *mnt, size_t size, char *note, size_t nsize)
{
	int forced = want != NULL, e;

	if (forced && strcmp(want, "proc") == 0) {
		snprintf(note, nsize, "-g: summing /proc/PID/io by cgroup "
		    "(-G proc)");
		return 0;
	}
	if (!forced && selected) {
		snprintf(note, nsize, "-g: summing /proc/PID/io by cgroup "
		    "(processes selected)");
		return 0;
	}
	/* A key only /proc/PID/io has (hit, iodelay...) chooses it. */
	if (!forced && proc_key) {
		snprintf(note, nsize, "-g: summing /proc/PID/io by cgroup (the "
		    "sort key is not in io.stat)");
		return 0;
	}
	if ((e = cgio_source(r, mnt, size)) < 0) {
		snprintf(note, nsize, forced ? "-G iostat: no cgroup v2 mount" :
		    "-g: no cgroup v2 mount: summing /proc/PID/io by cgroup");
		return forced ? e : 0;
	}
	if (e == 0 && forced) {
		snprintf(note, nsize, "-G iostat: %s%s: no io controller on "
		    "cgroup v2", slash(mnt), mnt);
		return -ENOTSUP;
	}
	snprintf(note, nsize, e ?
	    "-g: per-cgroup figures from io.stat under %s%s" :
	    "-g: io.stat missing (io controller not enabled on cgroup v2 at "
	    "%s%s): summing /proc/PID/io by cgroup", slash(mnt), mnt);
	return e;
}

int
whogroup_scan(const struct ds_root *r, const struct whostream *st,
    struct whogroup *g)
{
	if (g->cur == NULL)
		g->cur = &g->s[0];
	return ds_procs_read(r, st->flags, st->pids, st->npids, st->keep,
	    st->arg, g->cur);
}

int
whogroup_rows(const struct whocfg *c, struct whogroup *g,
    int report)
{
	struct ds_procs *done = g->cur;
	int e;

	if (done == NULL)
		return -EINVAL;
	if (report && (e = whorows_cgroups(c, g->prev, done,
	    &g->rows)) < 0)
		return e;
	/* The rows point into done, kept until the scan after next. */
	g->cur = done == &g->s[0] ? &g->s[1] : &g->s[0];
	g->prev = done;
	return 0;
}

void
whogroup_free(struct whogroup *g)
{
	ds_procs_free(&g->s[0]);
	ds_procs_free(&g->s[1]);
	whorows_free(&g->rows);
	memset(g, 0, sizeof(*g));
}

int
cgiorun_read(const struct ds_root *r, struct cgiorun *c)
{
	if (c->cur == NULL)
		c->cur = &c->s[0];
	c->skip_next = 0;
	return ds_cgios_read(r, c->mnt, c->cur);
}

const char *
cgiorun_skipped(struct cgiorun *c, int *err)
{
	const struct ds_cgios *cs = c->cur;
	size_t i = c->skip_next;

	if (cs == NULL || c->skip_said || i >= cs->nskipped) {
		if (cs != NULL && cs->nskipped > 0)
			c->skip_said = 1;
		return NULL;
	}
	c->skip_next++;
	*err = cs->skipped_err[i];
	return cs->skipped[i];
}

int
cgiorun_rows(const struct ds_root *r, struct cgiorun *c, int report,
    int all, int key, uint64_t top)
{
	struct ds_cgios *done = c->cur;
	int e;

	if (done == NULL)
		return -EINVAL;
	if (report) {
		if ((e = cgio_rows(r, c->prev, done, &c->rows, &c->n,
		    &c->cap)) < 0)
			return e;
		cgio_select(c->rows, &c->n, all, key, top);
	}
	/* The rows point into done, kept until the sample after next. */
	c->cur = done == &c->s[0] ? &c->s[1] : &c->s[0];
	c->prev = done;
	return 0;
}

void
cgiorun_free(struct cgiorun *c)
{
	ds_cgios_free(&c->s[0]);
	ds_cgios_free(&c->s[1]);
	free(c->rows);
	memset(c, 0, sizeof(*c));
}
