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

#endif
