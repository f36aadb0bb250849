/*
 * dpsi's own code beside main.c: the report's columns and rows, and
 * the ranking of -C.
 */
#ifndef DPSI_H
#define DPSI_H

#include "diskstat.h"

/*
 * rows.c: the columns of a report of the resources order[0..nres): time,
 * with DPSI_COL_CGROUP cgroup, then resource kind avg10 avg60 avg300
 * total stall% (one row per line); with DPSI_COL_PROM one wide row per
 * cgroup, a family per resource, kind and value (DPSI_PER_LINE of them:
 * the averages, the total in seconds, the share), named in pc.  The
 * count is returned (pc->n).
 */
#define DPSI_COL_CGROUP		0x1
#define DPSI_COL_PROM		0x2
#define DPSI_PER_LINE		5
#define DPSI_NFAM		(DS_PSI_NRES * DS_PSI_NKINDS * DPSI_PER_LINE)
struct dpsi_cols {
	struct ds_col col[2 + DPSI_NFAM];
	char names[DPSI_NFAM][64];
	char helps[DPSI_NFAM][160];
	size_t n;
};
size_t dpsi_columns(unsigned int how, const enum ds_psi_res *order,
    size_t nres, struct dpsi_cols *pc);

/*
 * The rows of a report, in the columns of dpsi_columns(how, order,
 * nres): the resources of order whose bit is in mask (the others null
 * in prom, else left out), at now (realtime ns); with rank the cgroups
 * most stalled first (dpsi_rank of order[0]) when there is a prev or a
 * top; only the first top (0: all).
 */
struct dpsi_rows {
	unsigned int how;		/* DPSI_COL_CGROUP, DPSI_COL_PROM */
	const enum ds_psi_res *order;
	size_t nres;
	unsigned int mask;
	int rank;
	uint64_t top;
	uint64_t now;
};
/* The resources in the default order into order: io memory cpu irq. */
size_t dpsi_order_default(enum ds_psi_res *order);
/*
 * Sort cur, most stalled first, by the share over the interval (avg10
 * without prev) of resource r, kind "some" ("full" where there is only
 * that, as for irq); no such line ranks last; ties by path.  0, -ENOMEM.
 */
int dpsi_rank(const struct ds_psi_sample *prev, struct ds_psi_sample *cur,
    enum ds_psi_res r);
/* The key dpsi_rank sorts c by (-1: no such line). */
double dpsi_rank_key(const struct ds_psi_sample *prev,
    const struct ds_psi_sample *cur, const struct ds_psi_cg *c,
    enum ds_psi_res r);
/*
 * Pair cur with prev (NULL: none), rank it, and say in *n how many of
 * its elements to report.  0 or -ENOMEM.
 */
int dpsi_rows_order(const struct dpsi_rows *rs,
    const struct ds_psi_sample *prev, struct ds_psi_sample *cur, size_t *n);
/*
 * Write the rows of cur's first n elements: one row per line (time,
 * cgroup, resource, kind, avg10 avg60 avg300 in percent, the total in
 * us, the share since prev or null), or in prom one wide row each.
 */
void dpsi_rows_write(struct ds_writer *w, const struct dpsi_rows *rs,
    const struct ds_psi_sample *prev, const struct ds_psi_sample *cur,
    size_t n);

#endif
