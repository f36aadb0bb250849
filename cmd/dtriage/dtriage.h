/*
 * dtriage's own declarations: the files of cmd/dtriage/ and the unit
 * tests of them.  Never installed.
 */
#ifndef DTRIAGE_H
#define DTRIAGE_H

#include "diskstat.h"

/* dlat.c: block-latency tracing over every whole disk of the window. */
struct dlat {
	struct ds_blklat b;
	struct ds_blkdisk *disk;
	size_t ndisk;
	struct ds_blklat_snap s[2];	/* at the start and the end */
	int on;			/* traced the whole window */
	const char *why;	/* when not: why (static) */
};
int dlat_open(const struct ds_root *r, struct dlat *t);
void dlat_tend(struct dlat *t);
void dlat_close(const struct ds_root *r, struct dlat *t);
int dlat_dev(const struct dlat *t, const char *name, struct ds_tr_lat *l,
    struct ds_tr_load *load);
void dlat_free(struct dlat *t);
int dlat_figures(const struct ds_blklat_snap *a,
    const struct ds_blklat_snap *b, uint32_t dev, struct ds_tr_lat *l,
    struct ds_tr_load *load);

/* fs.c: the holders of deleted-open space of a filesystem. */
int fs_holders(const struct ds_deleted *d, size_t fs,
    struct ds_tr_holder **out, size_t *n);
int fs_held(struct ds_tr_fs *fs, const struct ds_deleted *d,
    const struct ds_delsum *sum, size_t nsum);

/* inputs.c: the processes' rows. */
int proc_rows(const struct ds_procs *a, const struct ds_procs *b,
    double secs, long clk_tck, int delay, struct ds_tr_proc **out,
    size_t *n);

#endif
