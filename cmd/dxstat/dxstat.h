/*
 * dxstat's own code over libdiskstat: its columns and rows, the devices
 * a report shows, the snapshot files it writes (-s) and reads (-f), and
 * its warnings.
 */
#ifndef DXSTAT_H
#define DXSTAT_H

#include "diskstat.h"

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

#endif
