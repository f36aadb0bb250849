/*
 * dxstat's own code over libdiskstat: its columns and rows, the devices
 * a report shows, the snapshot files it writes (-s) and reads (-f), and
 * its warnings.
 */
#ifndef DXSTAT_H
#define DXSTAT_H

#include "suite.h"
#include "grow.h"
#include "util/devsel.h"

/*
 * columns.c: time, device, the figures in the order of enum ds_xcol,
 * in_flight; *n of them.
 */
const struct ds_col *dx_columns(size_t *n);

/*
 * row.c: the row of device c against p, its line in the previous sample
 * (NULL: counted from zero, since boot or since the device appeared),
 * over interval_ns: time (time_ns, 0: null), name (NULL: c's kernel
 * name), the figures (null where the line lacks their counters),
 * in_flight.  With busy_only a device that completed no request gets no
 * row.  1 when a row was written, else 0.
 */
int dx_row(struct ds_writer *w, const struct ds_disk *p,
    const struct ds_disk *c, const char *name, uint64_t interval_ns,
    uint64_t time_ns, int busy_only);

/*
 * snapshot.c, -s: proc/diskstats verbatim into text, and into head the
 * snapshot's header lines (its time only on the live system), then an
 * id line per whole disk whose identity sysfs gives.  -errno with *rel
 * the file that failed (NULL: the format).  dx_snap_write writes head
 * and text raw, text ended by a newline if it lacks one.
 */
int dx_snap_take(const struct ds_root *r, struct ds_buf *text,
    struct ds_buf *scratch, struct ds_buf *head, const char **rel);
void dx_snap_write(struct ds_writer *w, const struct ds_buf *head,
    const struct ds_buf *text);

/*
 * disks.c, the devices a report shows: with no operand whole disks (the
 * names in sys/block, read when first needed; without it, partitions are
 * told by their names), partitions too with part; with operands those
 * they name or match (globs select whole disks, all with part).  A
 * device selected only by default or a glob is left out when it never
 * did I/O, unless all.  Zero it, set part, all and dm, then
 * dx_disks_init.
 */
struct dx_dmname;
struct dx_disks {
	const struct ds_root *r;
	struct ds_devsel *sel;		/* the operands (the caller's) */
	int part;			/* partitions too (-p) */
	int all;			/* also devices that never did I/O */
	int dm;				/* dm names wanted (-N) */
	int use_sys;			/* the root's sys is the counters'
					   machine (else no dm names) */
	struct ds_blockdevs bd;
	int bd_state;			/* 0 not read yet, 1 read, -1 none */
	int bd_rescanned;		/* read during this report: the
					   caller zeroes it at each */
	int bd_error;			/* a read of sys/block failed with
					   this -errno: the caller tells it
					   (with the root's sys/block) and
					   zeroes it */
	struct dx_dmname *dmn;		/* dm names read, one per device */
	size_t ndmn, capdmn;
	struct ds_buf scratch;
};
void dx_disks_init(struct dx_disks *s, const struct ds_root *r,
    struct ds_devsel *sel, int use_sys);
void dx_disks_free(struct dx_disks *s);
/*
 * 1 when c is shown (seen: it was in the previous sample), 0 when not,
 * -ENOMEM.  Marks the operands that match it.
 */
int dx_disks_show(struct dx_disks *s, const struct ds_disk *c, int seen);
/*
 * The device-mapper name of dev into *dm (NULL: none, or the counters
 * are from another machine), read once per device.  0 or -ENOMEM.
 */
int dx_disks_dm(struct dx_disks *s, const char *dev, const char **dm);
/*
 * dx_disks_show, then with s->dm the device-mapper name into *name
 * (NULL: none, show c's kernel name): 1 when c is shown, 0 when not,
 * -ENOMEM.
 */
int dx_disks_pick(struct dx_disks *s, const struct ds_disk *c, int seen,
    const char **name);

/*
 * files.c, -f: one snapshot file (n 1: a report since boot) or two, the
 * later reported against the earlier read along.  When the later's
 * uptime is below the earlier's (a reboot between them) that is warned,
 * the later is reported since boot, reboot set and the earlier read to
 * its end, for its damaged lines.  dx_files_open: 0, or -errno with
 * failed the file's name; dx_files_fail says why and exits.  Close f
 * after a report.
 */
struct dx_files {
	const char *const *path;	/* the caller's */
	struct ds_snap a, b;		/* the headers */
	struct ds_older o;		/* the first file */
	struct ds_lines lb;		/* the second */
	struct ds_buf wa;		/* the first file's window */
	int reboot;
	uint64_t interval_ns;		/* the report's interval, its time */
	uint64_t time_ns;
	struct ds_rows rows;		/* the report's rows */
	const char *failed;		/* after -errno: whose file */
	const struct ds_snap *head;	/* and its header (why: damaged) */
	int same;			/* both taken at the same uptime */
};
int dx_files_open(struct dx_files *f, const char *const *path, int n,
    struct ds_buf *window);
_Noreturn void dx_files_fail(const struct dx_files *f, int e);
void dx_files_close(struct dx_files *f);

/*
 * warn.c: what to tell besides the rows.  dx_warn_bad: s's damaged
 * lines (none: nothing), named what; dx_warn_bad_new the same once per
 * change of their count or first line.  dx_warn_extra: a line of more
 * values than its format has, 1 when told.  dx_warn_rows: after a
 * report read by lines, o's damaged lines, devices listed again, l's
 * damaged lines, and those of only_read (NULL: none), a file read but
 * not paired.
 */
struct dx_badseen {
	size_t bad, first_bad;
};
void dx_warn_bad(const char *what, const struct ds_diskstats *s);
void dx_warn_bad_new(const char *what, const struct ds_diskstats *s,
    struct dx_badseen *seen);
int dx_warn_extra(const struct ds_disk *d);
void dx_warn_rows(const struct ds_rows *rs, const struct ds_older *only_read);

#endif
