/*
 * cgroup limits that hold I/O back while the disk is not at fault: I/O
 * limits of cgroups with their counters for the device, memory limits
 * with the refaults that become the disk's reads, and a process's
 * cgroup for a controller.  Both hierarchies: v2 (io, memory) and v1
 * (blkio, memory), each found from the root's mount table.
 */
#ifndef DISKSTAT_CGLIMIT_H
#define DISKSTAT_CGLIMIT_H

#include "diskstat.h"

enum { DS_LIM_RBPS, DS_LIM_WBPS, DS_LIM_RIOPS, DS_LIM_WIOPS, DS_LIM_N };
#define DS_LIM_ALL	((1u << DS_LIM_N) - 1)

/* have_cost bits: which iocost keys io.stat had. */
#define DS_COST_VRATE	1u	/* the root cgroup's line only */
#define DS_COST_USAGE	2u
#define DS_COST_WAIT	4u	/* wait, indebt, indelay: with debug stats */
#define DS_COST_INDEBT	8u
#define DS_COST_INDELAY	16u
/* have_latstat bits: which io.latency keys io.stat had (debug stats). */
#define DS_LATSTAT_DEPTH	1u
#define DS_LATSTAT_AVG		2u	/* rotational devices */
#define DS_LATSTAT_WIN		4u
#define DS_LATSTAT_MISSED	8u	/* non-rotational devices */
#define DS_LATSTAT_TOTAL	16u

struct ds_iolimit {		/* one cgroup's I/O limit on one device */
	char *cgroup;		/* path below its hierarchy's mount: "/", "/a/b" */
	int v1;			/* 1 blkio.throttle.*_device, 0 io.max */
	unsigned int major, minor;
	uint64_t ino;		/* the cgroup directory's: a new one is a new cgroup */
	uint64_t lim[DS_LIM_N];	/* UINT64_MAX: none ("max", or no line) */
	uint64_t done[DS_LIM_N];/* counters at the read: bytes read, written, reads, writes
				   (v2 io.stat rbytes wbytes rios wios; v1
				   blkio.throttle.io_service_bytes / io_serviced Read, Write) */
	int have_done;		/* bit (1 << DS_LIM_x): done[x] read; DS_LIM_ALL all */
	uint64_t lat_target_us;	/* v2 io.latency "MAJ:MIN target=N" (µs); have_lat */
	int have_lat;
	/* v2 io.stat of io.latency: depth= (UINT64_MAX: "max"), avg_lat= (µs), win= (ms),
	   missed= total= (non-rotational); have_latstat: DS_LATSTAT_* */
	uint64_t lat_depth, lat_avg_us, lat_win_ms, lat_missed, lat_total;
	int have_latstat;
	/* v2 io.stat of iocost: cost.vrate (percent) cost.usage cost.wait cost.indebt
	   cost.indelay (µs, cumulative); have_cost: DS_COST_* */
	uint64_t cost_usage, cost_wait, cost_indebt, cost_indelay;
	double cost_vrate;
	int have_cost;
};

/* hier bits: the hierarchies walked. */
#define DS_CG_V2	1u
#define DS_CG_V1	2u

struct ds_iolimits {
	struct ds_iolimit *l;	/* sorted by cgroup, then device, v2 first */
	size_t n, cap;
	size_t bad;		/* malformed lines skipped */
	unsigned int hier;	/* DS_CG_V2, DS_CG_V1: hierarchies walked */
	size_t skipped;		/* subtrees the walk could not enter */
	int truncated;		/* more than DS_CG_WALK_MAX cgroups: the rest unread */
};

/* A walk reads at most this many cgroups of a hierarchy. */
#define DS_CG_WALK_MAX 65536
/* Devices kept of one cgroup's file; further lines count as bad. */
#define DS_CG_DEVS_MAX 4096

/*
 * Every cgroup with an I/O limit, a latency target or iocost keys (or
 * io.latency's keys in io.stat): v2 io.max / io.latency / io.stat under
 * the cgroup2 mount (when it has the io controller), v1
 * blkio.throttle.{read,write}_{bps,iops}_device under the blkio mount,
 * with the cgroup's counters for that device.  Replaces out.  0, or
 * -errno when the mount table cannot be read or out of memory; no
 * hierarchy at all is 0 with hier 0.
 */
int ds_iolimits_read(const struct ds_root *r, struct ds_iolimits *out);
/* The same cgroup and device in s (NULL when gone). */
const struct ds_iolimit *ds_iolimits_find(const struct ds_iolimits *s,
    const struct ds_iolimit *l);
/*
 * Rates over secs from a (earlier) to b: bytes/s and IOs/s per DS_LIM_*,
 * -1 for those without both counters.  A counter that went back or
 * another directory (a recreated cgroup) is a reset: -ERANGE, the rate
 * from b alone over secs is not taken.  -EINVAL for secs <= 0 or
 * different cgroups, -ENODATA when no counter is in both.
 */
int ds_iolimit_rate(const struct ds_iolimit *a, const struct ds_iolimit *b,
    double secs, double rate[DS_LIM_N]);
void ds_iolimits_free(struct ds_iolimits *s);

/* have_refault bits. */
#define DS_REFAULT_FILE	1u
#define DS_REFAULT_ANON	2u
/* have_events bits. */
#define DS_MEMEV_MAX	1u
#define DS_MEMEV_OOM	2u
#define DS_MEMEV_HIGH	4u
#define DS_MEMEV_OOM_KILL 8u

struct ds_memcg {		/* a cgroup with a memory limit */
	char *cgroup;
	int v1;
	uint64_t ino;
	uint64_t limit;		/* bytes: memory.max, memory.limit_in_bytes;
				   UINT64_MAX none (v2 with memory.high only) */
	uint64_t high;		/* v2 memory.high; UINT64_MAX none */
	uint64_t usage;		/* memory.current, memory.usage_in_bytes */
	uint64_t refault_file, refault_anon;	/* memory.stat workingset_refault_file/_anon
				   (v1: total_workingset_refault_*, hierarchical like v2);
				   before 5.9 workingset_refault, file pages only */
	int have_refault;	/* DS_REFAULT_FILE, DS_REFAULT_ANON */
	uint64_t failcnt;	/* v1 memory.failcnt */
	int have_failcnt;
	uint64_t psi_some_us, psi_full_us;	/* v2 memory.pressure totals */
	int have_psi;		/* bit (1 << DS_PSI_SOME), (1 << DS_PSI_FULL) */
	uint64_t ev_max, ev_oom;	/* v2 memory.events "max N", "oom N" */
	uint64_t ev_high, ev_oom_kill;	/* "high N", "oom_kill N" (4.13+) */
	int have_events;	/* DS_MEMEV_* */
};
struct ds_memcgs {
	struct ds_memcg *m;	/* sorted by cgroup, v2 first */
	size_t n, cap;
	size_t bad;		/* malformed values */
	unsigned int hier;	/* DS_CG_V2, DS_CG_V1 */
	size_t skipped;
	int truncated;
};
/*
 * Every cgroup whose memory limit (or v2 memory.high) is set, v2 and
 * v1.  A limit of 2^62 bytes or more is none (v1 prints PAGE_COUNTER_MAX
 * pages as 9223372036854771712).  Replaces out; errors as
 * ds_iolimits_read.
 */
int ds_memcgs_read(const struct ds_root *r, struct ds_memcgs *out);
const struct ds_memcg *ds_memcgs_find(const struct ds_memcgs *s,
    const char *cgroup, int v1);
void ds_memcgs_free(struct ds_memcgs *s);

/*
 * A process's cgroup for a controller, "blkio"/"io" or "memory": the v1
 * line of that controller when a v1 hierarchy has it, else the v2 "0::"
 * path; *v1 says which.  text is proc/PID/cgroup; *path points into it,
 * *len bytes.  -ENOENT when neither, -EINVAL for another controller.
 */
/*
 * The processes of a cgroup (its cgroup.procs) in the hierarchy of
 * controller ctl, v1 or the v2 one: *pids allocated (free it), *n.
 */
int ds_cgroup_pids(const struct ds_root *r, const char *ctl, int v1,
    const char *cgroup, int **pids, size_t *n);
/*
 * The limits of cgroup (either hierarchy) as io.max writes them: with
 * dev, those on major:minor ("riops=50 wbps=1048576"); else every
 * device's, "MAJ:MIN keys" joined by ", ".  Empty when none.  -ENOMEM.
 */
int ds_iolimit_text(const struct ds_iolimits *s, const char *cgroup, int dev,
    unsigned int major, unsigned int minor, struct ds_buf *out);
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
