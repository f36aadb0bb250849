/*
 * cgroup limits, the library's own parts: a process's cgroup for a
 * controller, each file's parser (for the tests and fuzzers), where a
 * controller's hierarchies are mounted and the walk of them.  The
 * readers of limits and memory cgroups are diskstat.h's.
 */
#ifndef DISKSTAT_CGLIMIT_H
#define DISKSTAT_CGLIMIT_H

#include "diskstat.h"

/* Devices kept of one cgroup's file; further lines count as bad. */
#define DS_CG_DEVS_MAX 4096

/*
 * A process's cgroup for a controller, "blkio"/"io" or "memory": the v1
 * line of that controller when a v1 hierarchy has it, else the v2 "0::"
 * path; *v1 says which.  text is proc/PID/cgroup; *path points into it,
 * *len bytes.  -ENOENT when neither, -EINVAL for another controller.
 */
int ds_proc_cgroup_for(const char *text, const char *controller,
    const char **path, size_t *len, int *v1);

/*
 * The parts, for the tests and fuzzers.  The parsers add a cgroup's
 * lines to cg (its entries have cgroup NULL; one per device, made as
 * needed, at most DS_CG_DEVS_MAX), count malformed lines in cg->bad and
 * return 0 or -ENOMEM.
 */
/* io.max: "MAJ:MIN rbps=N|max wbps= riops= wiops=" (other keys skipped). */
int ds_iomax_parse(const char *text, struct ds_iolimits *cg);
/* io.latency: "MAJ:MIN target=N" (µs). */
int ds_iolatency_parse(const char *text, struct ds_iolimits *cg);
/* io.stat: the counters (ds_iostat_parse) and the iocost, io.latency keys. */
int ds_iostat_limits_parse(const char *text, struct ds_iolimits *cg);
/* blkio.throttle.<k>_device, k a DS_LIM_*: "MAJ:MIN N"; 0 is none. */
int ds_blkio_limit_parse(const char *text, int k, struct ds_iolimits *cg);
/*
 * blkio.throttle.io_service_bytes (bytes 1) or io_serviced (0): the Read
 * and Write rows of the devices cg already has; "Total N" and the other
 * rows skipped.
 */
int ds_blkio_rwstat_parse(const char *text, int bytes, struct ds_iolimits *cg);

/* A limit's text: "max" or >= 2^62 is none (UINT64_MAX).  -EINVAL. */
int ds_memlimit_parse(const char *text, uint64_t *out);
/* memory.stat's refaults (v1: the total_ keys) into m; -EINVAL for a
   bad value of those keys (the others are not looked at). */
int ds_memstat_parse(const char *text, int v1, struct ds_memcg *m);
/* memory.events into m; -EINVAL for a bad value of the keys read. */
int ds_memevents_parse(const char *text, struct ds_memcg *m);

/*
 * Where a controller's hierarchies are mounted, below the root: the v2
 * mount when it is there and has v2ctl enabled (or cannot say), the v1
 * mount of v1ctl; "" when none.  A tree without a mount table has them
 * where hybrid hosts do (sys/fs/cgroup/unified, sys/fs/cgroup/v1ctl),
 * or v2 at sys/fs/cgroup.
 */
struct ds_cgmounts {
	char v2[4096], v1[4096];
};
int ds_cgmounts_find(const struct ds_root *r, const char *v1ctl,
    const char *v2ctl, struct ds_cgmounts *out);
/*
 * ds_cgroup_walk of the hierarchy mounted at mnt (below the root); fn
 * may return DS_CG_WALK_STOP to end the walk there, which is then 0.
 * -ENOENT when mnt is not there.
 */
#define DS_CG_WALK_STOP 2
int ds_cgwalk_mount(const struct ds_root *r, const char *mnt,
    int (*fn)(void *arg, int dirfd, const char *path), void *arg);
/*
 * ds_cgwalk_mount of m's v2 then v1 hierarchy, *v1 set and *count zeroed
 * before each, the ones walked added to *hier (DS_CG_V2, DS_CG_V1).  A
 * mount the table names but a captured tree lacks is skipped.
 */
int ds_cgwalk_mounts(const struct ds_root *r, const struct ds_cgmounts *m,
    int (*fn)(void *arg, int dirfd, const char *path), void *arg, int *v1,
    size_t *count, unsigned int *hier);
/* A file of the cgroup directory dirfd (no symlink) into b. */
int ds_cgfile_read(int dirfd, const char *name, struct ds_buf *b);
/*
 * The next line of the text at *p copied into buf (size bytes, newline
 * cut): 1, 0 at the end, -1 for a line of size bytes or more (skipped).
 */
int ds_cgtext_line(const char **p, char *buf, size_t size);

/* The same readers with a bound on the cgroups each walk reads. */
int ds_iolimits_read_max(const struct ds_root *r, struct ds_iolimits *out,
    size_t max);
int ds_memcgs_read_max(const struct ds_root *r, struct ds_memcgs *out,
    size_t max);

#endif
