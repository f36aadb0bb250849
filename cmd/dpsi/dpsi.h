/*
 * dpsi's own code beside main.c: the report's columns and rows, the
 * ranking of -C, the messages, and arming the trigger of --wait.
 */
#ifndef DPSI_H
#define DPSI_H

#include "suite.h"
#include "grow.h"

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

/*
 * msg.c: each message is a sentence without the program's name, put
 * into *msg (malloc'd, the one before freed): the function returns 1
 * when it made one, 0 when it has none, or -ENOMEM with *msg NULL.
 */
int dpsi_say(char **msg, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* "PRE NAME: why", why the library's sentence for e or strerror's. */
int dpsi_say_why(char **msg, const char *pre, const char *name, int e,
    int cgroup);
/*
 * A note of ds_psi_sample_read: "proc/pressure/io: why", "cgroup /a:
 * io.pressure: why", "cgroup /a: subtree skipped: why".
 */
int dpsi_note_msg(const struct ds_psi_note *n, char **msg);
/*
 * Parse spec into t and check it (as privileged: the rest is the
 * kernel's to say): 0 when it will do, else why ("stall '0ms': why").
 */
int dpsi_trigger_msg(const char *spec, struct ds_psi_trigger *t,
    char **msg);
/*
 * What ends a report after ds_psi_sample_read(src, s) returned e: the
 * message (PSI off, no PSI or no pressure files, the walk failed, the
 * cgroup gone or its accounting off: these last unless warned, a note
 * already said), 0 when a report is to be made (e 0, a problem noted,
 * no cgroup below the top), -ENOMEM.
 */
int dpsi_sample_fatal(const struct ds_psi_src *src,
    const struct ds_psi_sample *s, int e, int warned, char **msg);
/*
 * 0 when the first element of s has the trigger's line; else that
 * there is no such line in the cgroup top (NULL: the system's file).
 */
int dpsi_noline_msg(const struct ds_psi_sample *s,
    const struct ds_psi_trigger *tr, const char *top, char **msg);
/*
 * The cgroup at path opened (ds_cgroup_top_open): its fd with *top its
 * path, or -errno with *top NULL and *msg why (NULL: out of memory).
 */
int dpsi_top_open(const struct ds_root *r, const char *path, char **top,
    char **msg);

/*
 * arm.c: arming the trigger on the pressure file of the cgroup dirfd
 * (its path top, for messages) or with dirfd -1 of the system.  Each
 * returns 0 with *fd ready (opened and the trigger checked as this
 * process may set it; armed), a reason to sample the total instead with
 * *fd -1 (DS_PSI_NOWRITE, DS_PSI_NOTKERNEL from opening, DS_PSI_REFUSED
 * from arming), or -errno with *fd closed and *msg the message
 * ("proc/pressure/io: why", "cgroup /a: why", "SPEC: why"; NULL when
 * it could not be made).
 */
struct dpsi_arming {
	const struct ds_root *r;
	int dirfd;
	const char *top;
	const struct ds_psi_trigger *tr;
	const char *spec;		/* the trigger as given */
};
int dpsi_arm_open(const struct dpsi_arming *a, int *fd, char **msg);
int dpsi_arm(const struct dpsi_arming *a, int *fd, char **msg);

#endif
