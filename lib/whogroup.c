/*
 * dwho -g: which source a per-cgroup report reads, and its two
 * pipelines over successive samples: io.stat of every cgroup, or the
 * processes of /proc/PID/io summed by cgroup.  Each keeps the sample
 * before, so that a report is the difference of two.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The cgroup mount as a message names it (ds_cgroup2_mount's mnt). */
static const char *
slash(const char *mnt)
{
	return mnt[0] == '/' ? "" : "/";
}

int
ds_who_source(const struct ds_root *r, const char *want, int selected,
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
	if ((e = ds_cgio_source(r, mnt, size)) < 0) {
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
ds_whogroup_scan(const struct ds_root *r, const struct ds_whostream *st,
    struct ds_whogroup *g)
{
	if (g->cur == NULL)
		g->cur = &g->s[0];
	return ds_procs_read(r, st->flags, st->pids, st->npids, st->keep,
	    st->arg, g->cur);
}

int
ds_whogroup_rows(const struct ds_whocfg *c, struct ds_whogroup *g,
    int report)
{
	struct ds_procs *done = g->cur;
	int e;

	if (done == NULL)
		return -EINVAL;
	if (report && (e = ds_whorows_cgroups(c, g->prev, done,
	    &g->rows)) < 0)
		return e;
	/* The rows point into done, kept until the scan after next. */
	g->cur = done == &g->s[0] ? &g->s[1] : &g->s[0];
	g->prev = done;
	return 0;
}

void
ds_whogroup_free(struct ds_whogroup *g)
{
	ds_procs_free(&g->s[0]);
	ds_procs_free(&g->s[1]);
	ds_whorows_free(&g->rows);
	memset(g, 0, sizeof(*g));
}

int
ds_cgiorun_read(const struct ds_root *r, struct ds_cgiorun *c)
{
	if (c->cur == NULL)
		c->cur = &c->s[0];
	c->skip_next = 0;
	return ds_cgios_read(r, c->mnt, c->cur);
}

int
ds_cgiorun_skipped(struct ds_cgiorun *c, struct ds_buf *msg)
{
	const struct ds_cgios *cs = c->cur;
	size_t i = c->skip_next;
	int e;

	if (cs == NULL || c->skip_said || i >= cs->nskipped) {
		if (cs != NULL && cs->nskipped > 0)
			c->skip_said = 1;
		return 0;
	}
	c->skip_next++;
	if (cs->skipped_err[i] == -ELOOP)
		e = ds_buf_printf(msg, "cgroup %s: subtree skipped: nested "
		    "deeper than %d levels", cs->skipped[i],
		    DS_CGROUP_DEPTH_MAX);
	else
		e = ds_buf_printf(msg, "cgroup %s: subtree skipped: %s",
		    cs->skipped[i], strerror(-cs->skipped_err[i]));
	return e < 0 ? e : 1;
}

int
ds_cgiorun_rows(const struct ds_root *r, struct ds_cgiorun *c, int report,
    int all, int key, uint64_t top)
{
	struct ds_cgios *done = c->cur;
	int e;

	if (done == NULL)
		return -EINVAL;
	if (report) {
		if ((e = ds_cgio_rows(r, c->prev, done, &c->rows, &c->n,
		    &c->cap)) < 0)
			return e;
		ds_cgio_select(c->rows, &c->n, all, key, top);
	}
	/* The rows point into done, kept until the sample after next. */
	c->cur = done == &c->s[0] ? &c->s[1] : &c->s[0];
	c->prev = done;
	return 0;
}

void
ds_cgiorun_free(struct ds_cgiorun *c)
{
	ds_cgios_free(&c->s[0]);
	ds_cgios_free(&c->s[1]);
	free(c->rows);
	memset(c, 0, sizeof(*c));
}

int
ds_who_key(const char *name, int iostat, int *key, struct ds_buf *msg)
{
	int proc, cg;

	if (ds_who_sort_key(name, &proc, &cg) < 0) {
		ds_buf_printf(msg, "-s '%s': not a sort key (read write reads "
		    "writes discard discards cancelled rchar wchar hit iodelay "
		    "io pid, or a column name)", name);
		return -ENOENT;
	}
	*key = iostat ? cg : proc;
	if (*key != DS_WV_NONE)
		return 0;
	if (iostat)
		ds_buf_printf(msg, "-s '%s': not in io.stat (-G proc sums "
		    "/proc/PID/io by cgroup)", name);
	else
		ds_buf_printf(msg, "-s '%s': discards are counted only in "
		    "io.stat (-g on a kernel with the io controller)", name);
	return -ENOTSUP;
}
