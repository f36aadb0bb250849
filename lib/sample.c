/*
 * Samples of proc/diskstats, each read with its time base: the uptime
 * that intervals are measured on and the wall clock of its time column.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int
ds_sample_take(const struct ds_root *r, struct ds_buf *window,
    struct ds_buf *scratch, struct ds_snap *s, const char **rel)
{
	int e;

	/* A live sample has no header to be damaged (ds_snap_bad_msg: 0). */
	s->why = DS_SNAP_WHY_NONE;
	s->why_line = 0;
	*rel = "proc/diskstats";
	if ((e = ds_diskstats_read(r, window, &s->ds)) < 0)
		return e;
	*rel = "proc/uptime";
	if ((e = ds_uptime_ns(r, scratch, &s->uptime_ns)) < 0)
		return e;
	s->time_ns = ds_root_time_ns(r);
	*rel = NULL;
	return 0;
}

int
ds_sample_open(const struct ds_root *r, struct ds_lines *l,
    struct ds_buf *window, struct ds_buf *scratch, struct ds_snap *s,
    const char **rel)
{
	int e, whole;

	s->why = DS_SNAP_WHY_NONE;
	s->why_line = 0;
	*rel = "proc/diskstats";
	if ((e = ds_lines_open(l, r, "proc/diskstats", window)) < 0)
		return e;
	/* procfs's text is read whole first (see ds_lines_procfs). */
	if ((whole = ds_lines_procfs(l))) {
		e = ds_diskstats_fill(l, &s->ds);
		ds_lines_close(l);
		if (e < 0)
			return e;
	}
	*rel = "proc/uptime";
	if ((e = ds_uptime_ns(r, scratch, &s->uptime_ns)) < 0) {
		if (!whole)
			ds_lines_close(l);
		return e;
	}
	s->time_ns = ds_root_time_ns(r);
	*rel = NULL;
	return whole;
}

uint64_t
ds_sample_interval(const struct ds_snap *a, const struct ds_snap *b)
{
	return b->uptime_ns > a->uptime_ns ? b->uptime_ns - a->uptime_ns : 0;
}
