/*
 * ddeleted's own code over the library's scan of deleted files: its
 * reports' columns, its operands and the holders they keep, and the
 * summary's rows with df's and du's figures.
 */
#ifndef DDELETED_H
#define DDELETED_H

#include "suite.h"
#include "grow.h"

/* columns.c: the listing, the summary (with du's) and --truncate's row. */
enum del_cols { DEL_COLS_LIST, DEL_COLS_SUM, DEL_COLS_SUM_DU, DEL_COLS_TRUNC };
/* The columns of a report (*n of them), with their Prometheus names. */
const struct ds_col *del_columns(enum del_cols which, size_t *n);

/* operands.c: a filesystem asked for (a mount point operand). */
struct del_want {
	const char *path;	/* the operand, made absolute when live */
	char *abs;		/* the absolute copy, allocated */
	int ok;			/* fs was read */
	struct ds_delfs fs;
};
/*
 * The operand arg (a path below the root; live, a relative one is taken
 * from the current directory) statted into w.  On -errno, w->path is
 * still set: a holder's mount point can match it by name.
 */
int del_want_stat(const struct ds_root *r, const char *arg,
    struct del_want *w);
/* The allocations of w[0..n-1]. */
void del_want_free(struct del_want *w, size_t n);
/*
 * Keep the holders of d that hold min bytes or more, on a filesystem of
 * w[0..nw-1] (any when nw is 0), memory-backed ones only with memory.
 */
void del_filter(struct ds_deleted *d, const struct del_want *w, size_t nw,
    uint64_t min, int memory);
/* "PID:FD" (--truncate's operand): -EINVAL when not that. */
int del_parse_pidfd(const char *s, int *pid, int *fd);

/* summary.c: a row of the summary, with df's and du's figures. */
struct del_sumrow {
	const char *mount, *fstype;	/* NULL: unknown */
	size_t mount_len, fstype_len;
	int have_df;			/* a mount, and its statfs */
	uint64_t size, used, avail;	/* df's, bytes */
	struct ds_delsum s;		/* held, files, holders */
	int du_error;			/* with du: ds_du's -errno, or 0 */
	int have_reach;
	uint64_t reachable, du_errors;	/* du -sx, and entries not read */
	int have_unexplained;
	int64_t unexplained;		/* used - reachable - held */
};
struct del_sumrows {
	struct del_sumrow *row;
	size_t n;
	struct ds_mounts ms;		/* names the rows may point into */
};
/*
 * The summary of d (ds_deleted_summary's order), then a row of zeros for
 * each filesystem of w[0..nw-1] holding nothing deleted; with du, each
 * row with a mount walked by ds_du.  Strings point into d, w and out.
 */
int del_sumrows(const struct ds_root *r, const struct ds_deleted *d,
    const struct del_want *w, size_t nw, int du, struct del_sumrows *out);
void del_sumrows_free(struct del_sumrows *rs);

#endif
