/*
 * Reports read line by line: the rows of a sample that holds still (a
 * file, not procfs), each with its line in an earlier snapshot file
 * read along, and dxstat -f's one or two snapshot files made ready to
 * be read so.  What a report must tell afterwards (damaged lines,
 * devices listed twice) is given as sentences, NUL-terminated one after
 * the other in a buffer: the caller prints them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

void
ds_rows_init(struct ds_rows *rs, struct ds_lines *l, struct ds_older *o,
    const char *what)
{
	memset(rs, 0, sizeof(*rs));
	rs->l = l;
	rs->o = o;
	rs->what = what;
}

int
ds_rows_next(struct ds_rows *rs, struct ds_pair *pr, struct ds_disk *c,
    const struct ds_disk **p)
{
	int e;

	*p = NULL;
	for (;;) {
		rs->failed = rs->what;
		if ((e = ds_diskstats_next(rs->l, c, &rs->bad)) < 0)
			return e;
		if (e == 0)
			break;
		if (rs->o == NULL) {
			rs->i++;
			return 1;
		}
		/* Every device, shown or not, keeps o in step. */
		rs->failed = rs->o->what;
		if ((e = ds_older_pair(rs->o, pr, c, rs->i, rs->l->lineno,
		    p)) < 0)
			return e;
		if (e == 0) {
			rs->i++;
			return 1;
		}
		/* Listed again: not a row. */
	}
	/* The rest of the earlier file, for its damaged lines. */
	if (rs->o != NULL) {
		rs->failed = rs->o->what;
		if ((e = ds_older_read(rs->o, pr, NULL, p)) < 0)
			return e;
		*p = NULL;
	}
	rs->failed = NULL;
	return 0;
}

int
ds_rows_said(const struct ds_rows *rs, struct ds_buf *said)
{
	const struct ds_older *o = rs->o;
	int e;

	if (o != NULL) {
		if ((e = ds_said_bad(said, o->what, &o->pend)) < 0)
			return e;
		if (o->twice > 0 && (e = ds_said(said, "%s: line %zu: a device "
		    "listed again (%zu line%s skipped)", rs->what,
		    o->first_twice, o->twice, o->twice == 1 ? "" : "s")) < 0)
			return e;
	}
	if ((e = ds_said_bad(said, rs->what, &rs->bad)) < 0)
		return e;
	/* Since boot after a reboot: the earlier file was only read. */
	if (rs->only_read != NULL)
		return ds_said_bad(said, rs->only_read->what,
		    &rs->only_read->pend);
	return 0;
}

/* A file that could not be opened: why, as the caller will say it. */
static int
open_fail(struct ds_snapfiles *f, int e, const char *what,
    const struct ds_snap *s)
{
	int m;

	f->failed = what;
	if (s->why != NULL && (m = ds_said(&f->why, "%s: line %zu: %s", what,
	    s->why_line, s->why)) < 0)
		return m;
	return e;
}

int
ds_snapfiles_open(struct ds_snapfiles *f, const char *const *path, int n,
    struct ds_buf *window, struct ds_buf *said)
{
	struct ds_pair pr = { 0 };
	const struct ds_disk *p;
	const char *what;
	int e;

	memset(f, 0, sizeof(*f));
	if ((e = ds_older_open(&f->o, path[0], &f->wa, &f->a)) < 0)
		return open_fail(f, e, f->o.what, &f->a);
	if (n == 1) {
		f->interval_ns = f->a.uptime_ns;
		f->time_ns = f->a.time_ns;
		ds_rows_init(&f->rows, &f->o.l, NULL, f->o.what);
		return 0;
	}
	what = ds_snapfile_name(path[1]);
	if ((e = ds_snapfile_open(path[1], &f->lb, window, &f->b)) < 0)
		return open_fail(f, e, what, &f->b);
	if ((e = ds_snap_interval(&f->a, &f->b, &f->interval_ns)) < 0) {
		f->failed = what;
		e = ds_said(&f->why, "%s and %s were taken at the same uptime",
		    path[0], path[1]);
		return e < 0 ? e : -EINVAL;
	}
	f->time_ns = f->b.time_ns;
	ds_rows_init(&f->rows, &f->lb, e == 1 ? NULL : &f->o, what);
	if (e == 0)
		return 0;
	f->reboot = 1;
	f->rows.only_read = &f->o;
	if ((e = ds_said(said, "%s: uptime below %s's (a reboot between them?): "
	    "reporting since boot", path[1], path[0])) < 0)
		return e;
	/*
	 * The earlier file is read whole now, for its damaged lines:
	 * before the report is begun, so that an error aborts nothing.
	 */
	f->failed = f->o.what;
	if ((e = ds_older_read(&f->o, &pr, NULL, &p)) < 0)
		return e;
	f->failed = NULL;
	return 0;
}

void
ds_snapfiles_close(struct ds_snapfiles *f)
{
	ds_lines_close(&f->lb);
	ds_older_close(&f->o);
	ds_buf_free(&f->wa);
	ds_buf_free(&f->why);
}
