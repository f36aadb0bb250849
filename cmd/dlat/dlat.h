/*
 * dlat's own code: its state, and what the files of cmd/dlat/ give
 * each other (rows.c the report, prom.c its Prometheus text, disks.c
 * the disks traced, trace.c tracing itself, capture.c a capture's).
 */
#ifndef DLAT_H
#define DLAT_H

#include "util/util.h"
#include "blkslow.h"

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
	int cg;				/* -g: per cgroup */
	int slow;			/* -t: slow requests */
	uint64_t slow_ns;		/* -t's threshold */
	struct ds_cgids ids;		/* cgroup ids named */
	uint64_t ids_ns;		/* when last read (boottime) */
	uint64_t unknown;		/* the last id they did not name */
	uint64_t seen;			/* -t: missed events said so far */
	uint64_t lost;			/* -t: lost_completion said so far */
};

/* rows.c: the report's columns and rows in every format. */
void dlat_writer_open(struct dl *d);
void dlat_report(struct dl *d, const struct ds_blklat_snap *prev,
    const struct ds_blklat_snap *cur);
void dlat_say_missed(const struct dl *d, const struct ds_blklat_snap *last);

/* prom.c: a snapshot as Prometheus text, appended to out; -ENOMEM. */
int dlat_prom(struct dl *d, const struct ds_blklat_snap *s,
    struct ds_buf *out);

/* disks.c: the disks the operands select (exits when none), named. */
void dlat_disks_pick(struct dl *d, size_t *ndevs);
const char *dlat_disk_name(const struct dl *d, uint32_t dev);

/* trace.c: tracing started, read, and waited on (exits on failure). */
void dlat_start(struct dl *d);
void dlat_take(struct dl *d, const struct ds_blklat_snap *prev,
    struct ds_blklat_snap *s);
void dlat_nap(struct dl *d, uint64_t deadline);

/* capture.c: -R CAPTURE, the window a capture traced (exits on failure). */
void dlat_capture_run(struct dl *d);

/* slow.c: -t, rows of slow requests as they complete, until the end. */
void dlat_slow_writer_open(struct dl *d);
void dlat_slow_run(struct dl *d);

/* cgroup.c: -g's rows, and the name of a cgroup id (NULL: none). */
void dlat_cg_writer_open(struct dl *d);
void dlat_cg_report(struct dl *d, const struct ds_blklat_snap *prev,
    const struct ds_blklat_snap *cur, uint64_t now);
const char *dlat_cg_name(struct dl *d, uint64_t id, char *buf, size_t size);
/*
 * The cgroups of s's rows ranked by their count less prev's (NULL:
 * all), most first, at most top (0: all): ids into *out (free it).
 */
size_t dlat_cg_rank(const struct dl *d, const struct ds_blklat_snap *prev,
    const struct ds_blklat_snap *s, uint64_t **out);

#endif
