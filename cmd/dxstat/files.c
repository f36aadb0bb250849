/*
 * dxstat -f: one snapshot file (a report since boot) or two, the later
 * read line by line and reported against the earlier read along.
 */
#include <errno.h>
#include <string.h>

#include "util/util.h"
#include "dxstat.h"

/* The later file's uptime is below the earlier's: since boot. */
static int
reboot(struct dx_files *f)
{
	struct ds_pair pr = { 0 };
	const struct ds_disk *p;
	int e;

	f->reboot = 1;
	warnx("%s: uptime below %s's (a reboot between them?): reporting "
	    "since boot", f->path[1], f->path[0]);
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

int
dx_files_open(struct dx_files *f, const char *const *path, int n,
    struct ds_buf *window)
{
	const char *what;
	int e;

	memset(f, 0, sizeof(*f));
	f->path = path;
	if ((e = ds_older_open(&f->o, path[0], &f->wa, &f->a)) < 0) {
		f->failed = f->o.what;
		f->head = &f->a;
		return e;
	}
	if (n == 1) {
		f->interval_ns = f->a.uptime_ns;
		f->time_ns = f->a.time_ns;
		ds_rows_init(&f->rows, &f->o.l, NULL, f->o.what);
		return 0;
	}
	what = ds_snapfile_name(path[1]);
	if ((e = ds_snapfile_open(path[1], &f->lb, window, &f->b)) < 0) {
		f->failed = what;
		f->head = &f->b;
		return e;
	}
	if ((e = ds_snap_interval(&f->a, &f->b, &f->interval_ns)) < 0) {
		f->failed = what;
		f->same = 1;
		return e;
	}
	f->time_ns = f->b.time_ns;
	ds_rows_init(&f->rows, &f->lb, e == 1 ? NULL : &f->o, what);
	return e == 1 ? reboot(f) : 0;
}

void
dx_files_fail(const struct dx_files *f, int e)
{
	struct ds_buf msg = { 0 };
	int k;

	if (f->same)
		errx(1, "%s and %s were taken at the same uptime", f->path[0],
		    f->path[1]);
	/* A damaged header: "FILE: line N: REASON"; else strerror's. */
	if (f->head != NULL && (k = ds_snap_bad_msg(f->head, &msg)) != 0) {
		if (k < 0)
			tool_errc(1, k, "%s", f->failed);
		/*
		 * dxstat -s writes its uptime line first: a file refused at
		 * line 1 is no snapshot at all (a report, a copy of
		 * /proc/diskstats, a compressed file, an empty one).
		 */
		if (f->head->why_line == 1)
			errx(1, "%s: neither a snapshot (dxstat -s) nor a "
			    "capture (dcapture): %s", f->failed, msg.data);
		errx(1, "%s: %s", f->failed, msg.data);
	}
	tool_errc(1, e, "%s", f->failed);
}

void
dx_files_close(struct dx_files *f)
{
	ds_lines_close(&f->lb);
	ds_older_close(&f->o);
	ds_buf_free(&f->wa);
}
