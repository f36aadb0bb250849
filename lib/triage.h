/*
 * The judgement's own header (never installed), shared by lib/triage.c
 * and its rules' files lib/tr*.c: the thresholds more than one file
 * uses, the helpers that make rows, and each file's rules.
 */
#ifndef DISKSTAT_TRIAGE_H
#define DISKSTAT_TRIAGE_H

#include "internal.h"

#define PSI_INFO	5.0	/* io some, % of the window: info */
#define PSI_WARN	10.0	/* a second in ten lost: warn */
#define PSI_CRIT_FULL	20.0	/* full: no task progressed a fifth of it */
#define TOP_N		3	/* rows of one kind */

/* triage.c: a finding row added to out (NULL: out of memory). */
struct ds_finding *ds_tr_add(struct ds_findings *out, enum ds_tr_sev sev,
    const char *finding, const char *subject, double value,
    const char *unit);
/* dst replaced by, or appended the text of, fmt (cut to size). */
void ds_tr_say(char *dst, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void ds_tr_more(char *dst, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Bytes for a person: "40.0 MiB". */
const char *ds_tr_human(char *b, size_t size, double v);
#define HUMAN(v) ds_tr_human((char[24]){ 0 }, 24, (double)(v))
/* The descriptors read of pid, its process row; NULL without. */
const struct ds_tr_fds *ds_tr_fds_of(const struct ds_triage_in *in, int pid);
const struct ds_tr_proc *ds_tr_proc_of(const struct ds_triage_in *in,
    int pid);
/* What a device finding says of its device ("busy", "slower than..."). */
const char *ds_tr_state_phrase(const char *finding);

static inline int
has(const struct ds_xstat *x, int i)
{
	return (x->have >> i) & 1u;
}

static inline double
xv(const struct ds_xstat *x, int i)
{
	return has(x, i) ? x->v[i] : 0;
}

/* "1 process", "2 processes". */
static inline const char *
plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

static inline double
io_some(const struct ds_triage_in *in)
{
	return in->io.have ? in->io.some : -1;
}

/* Something is held up by I/O (or we cannot tell: -1 counts as yes). */
static inline int
held_up(const struct ds_triage_in *in)
{
	return !in->io.have || in->io.some >= PSI_INFO;
}

/* Bytes a second a process wrote (dirtied), 0 unknown. */
static inline double
xw(const struct ds_tr_proc *p)
{
	return (p->rate.have & (1u << DS_WR_WRITE)) ?
	    p->rate.v[DS_WR_WRITE] : 0;
}

/* What the stalled threads of the window's looks waited on. */
struct stalls {
	size_t looks;		/* looks that found a stalled thread */
	size_t disk;		/* thread-looks on block I/O */
	size_t tag, tag_looks;	/* waiting for a request slot */
	size_t tag_wrk;		/* of them io_uring's workers (iou-wrk-*) */
	size_t uring, uring_looks;	/* io_uring waits with no disk I/O */
	size_t dirty, dirty_looks;	/* held by the dirty limit */
	size_t netfs, netfs_looks;	/* on a network or FUSE mount */
	const struct ds_tr_task *uring_top, *dirty_top, *netfs_top;
	const struct ds_tr_fds *netfs_fds;
};
/* trstall.c: the looks summed; stalls that are not a disk's. */
void ds_tr_stalls_sum(const struct ds_triage_in *in, struct stalls *s);
/* The io pressure is io_uring's idle waits alone. */
int ds_tr_uring_only(const struct stalls *s);
int ds_tr_uring_only_in(const struct ds_triage_in *in);
/* The limit a disk's cgroup is held at, or NULL. */
const struct ds_tr_iolim *ds_tr_limit_on(const struct ds_triage_in *in,
    const char *disk);
/* The process of pids with the most block I/O, or NULL. */
const struct ds_tr_proc *ds_tr_top_of(const struct ds_triage_in *in,
    const int *pids, size_t npids);
/* The writer the dirty limit holds: the stalled one that dirties most. */
const struct ds_tr_proc *ds_tr_dirtier(const struct ds_triage_in *in);
/* The disks' reads, bytes a second. */
double ds_tr_disk_reads(const struct ds_triage_in *in);
int ds_tr_uring_row(const struct ds_triage_in *in, const struct stalls *s,
    struct ds_findings *out);
int ds_tr_netfs_row(const struct ds_triage_in *in, const struct stalls *s,
    struct ds_findings *out);
int ds_tr_dirty_row(const struct ds_triage_in *in, const struct stalls *s,
    struct ds_findings *out);
int ds_tr_cglimit_rows(const struct ds_triage_in *in,
    struct ds_findings *out);
int ds_tr_thrash_rows(const struct ds_triage_in *in, struct ds_findings *out);

/* trdev.c: the device findings, most telling first. */
#define DS_TR_NDEV 7
extern const char *const ds_tr_dev_order[DS_TR_NDEV];
/* The state a device's row gives it, "device-ok" when none. */
const char *ds_tr_dev_finding(const struct ds_findings *out,
    const char *disk);
int ds_tr_dev_rows(const struct ds_triage_in *in, struct ds_findings *out);
int ds_tr_err_rows(const struct ds_triage_in *in, struct ds_findings *out);

/* trpsi.c */
int ds_tr_psi_rows(const struct ds_triage_in *in, struct ds_findings *out);
int ds_tr_task_rows(const struct ds_triage_in *in, struct ds_findings *out);

/* trproc.c: block I/O bytes a second of a rate (cancelled writes off). */
double ds_tr_block_bps(const struct ds_who_rate *r);
int ds_tr_load_rows(const struct ds_triage_in *in, struct ds_findings *out);
int ds_tr_suffer_rows(const struct ds_triage_in *in, struct ds_findings *out);
int ds_tr_cache_rows(const struct ds_triage_in *in, struct ds_findings *out);

/* trfs.c */
int ds_tr_fs_rows(const struct ds_triage_in *in, struct ds_findings *out);

#endif
