/*
 * dlat's own code: its state, and what the files of cmd/dlat/ give
 * each other (rows.c the report, prom.c its Prometheus text, disks.c
 * the disks traced, trace.c tracing itself).
 */
#ifndef DLAT_H
#define DLAT_H

#include "util/util.h"

struct dl {
	struct tool t;
	int buckets, who;
	unsigned int phases;		/* DS_BLKLAT_PHASE bits; 0: all */
	struct ds_devsel sel;
	struct ds_blkdisk *disk;
	size_t ndisk;
	struct ds_blklat b;
	struct ds_writer w;
	struct ds_buf out;
	uint64_t missed;		/* events missed in the interval */
};

/* rows.c: the report's columns and rows in every format. */
void dlat_writer_open(struct dl *d);
void dlat_report(struct dl *d, const struct ds_blklat_snap *prev,
    const struct ds_blklat_snap *cur);
void dlat_say_missed(const struct dl *d, const struct ds_blklat_snap *last);

/* prom.c: a snapshot as Prometheus text, appended to out; -ENOMEM. */
int dlat_prom(const struct dl *d, const struct ds_blklat_snap *s,
    struct ds_buf *out);

/* disks.c: the disks the operands select (exits when none), named. */
void dlat_disks_pick(struct dl *d, size_t *ndevs);
const char *dlat_disk_name(const struct dl *d, uint32_t dev);

/* trace.c: tracing started, read, and waited on (exits on failure). */
void dlat_start(struct dl *d);
void dlat_take(struct dl *d, const struct ds_blklat_snap *prev,
    struct ds_blklat_snap *s);
void dlat_nap(struct dl *d, uint64_t deadline);

#endif
