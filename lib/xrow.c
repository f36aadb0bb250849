/*
 * dxstat's rows and samples: a device's cells from two of its lines
 * (the iostat -x figures of ds_xstat_compute, in the order of
 * ds_xstat_columns), and the samples a report is made of, each read
 * with its time base.
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

	*rel = "proc/diskstats";
	if ((e = ds_diskstats_read(r, window, &s->ds)) < 0)
		return e;
	*rel = "proc/uptime";
	if ((e = ds_uptime_ns(r, scratch, &s->uptime_ns)) < 0)
		return e;
	s->time_ns = ds_realtime_ns();
	*rel = NULL;
	return 0;
}

int
ds_sample_open(const struct ds_root *r, struct ds_lines *l,
    struct ds_buf *window, struct ds_buf *scratch, struct ds_snap *s,
    const char **rel)
{
	int e, whole;

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
	s->time_ns = ds_realtime_ns();
	*rel = NULL;
	return whole;
}

uint64_t
ds_sample_interval(const struct ds_snap *a, const struct ds_snap *b)
{
	return b->uptime_ns > a->uptime_ns ? b->uptime_ns - a->uptime_ns : 0;
}

int
ds_snap_take(const struct ds_root *r, struct ds_buf *text,
    struct ds_buf *scratch, struct ds_buf *head, const char **rel)
{
	uint64_t up;
	int e;

	*rel = "proc/diskstats";
	if ((e = ds_read_file(r, "proc/diskstats", text)) < 0)
		return e;
	*rel = "proc/uptime";
	if ((e = ds_uptime_ns(r, scratch, &up)) < 0)
		return e;
	*rel = NULL;
	/*
	 * The time line says when the counters were read.  A captured tree
	 * was read some other time, maybe on another machine: "now" would
	 * be a lie, and the line is optional.
	 */
	if ((e = ds_snap_format(head, up, r->live ? ds_realtime_ns() : 0, "",
	    0)) < 0)
		return e;
	/* What each disk is: its history is kept by that, not by name. */
	return ds_snap_ids(r, head);
}

void
ds_snap_write(struct ds_writer *w, const struct ds_buf *head,
    const struct ds_buf *text)
{
	/* The header, then the text as read (not copied behind it). */
	ds_w_raw(w, head->data, head->len);
	ds_w_raw(w, text->data, text->len);
	if (text->len > 0 && text->data[text->len - 1] != '\n')
		ds_w_raw(w, "\n", 1);
}
