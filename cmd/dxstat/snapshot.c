/*
 * dxstat -s: a snapshot of the root's proc/diskstats in the snapshot
 * file format (lib/snap.c), with the id lines that keep each disk's
 * history by what it is (dtriage's baseline reads them).
 */
#include "dxstat.h"

int
dx_snap_take(const struct ds_root *r, struct ds_buf *text,
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
	 * be a lie, and the line is optional.  A capture knows its time.
	 */
	if ((e = ds_snap_format(head, up, r->live || r->nsamples > 0 ?
	    ds_root_time_ns(r) : 0, "", 0)) < 0)
		return e;
	/* What each disk is: its history is kept by that, not by name. */
	return ds_snap_ids(r, head);
}

void
dx_snap_write(struct ds_writer *w, const struct ds_buf *head,
    const struct ds_buf *text)
{
	/* The header, then the text as read (not copied behind it). */
	ds_w_raw(w, head->data, head->len);
	ds_w_raw(w, text->data, text->len);
	if (text->len > 0 && text->data[text->len - 1] != '\n')
		ds_w_raw(w, "\n", 1);
}
