/*
 * Slow block requests one by one, and latency per cgroup: two more
 * ways of block-latency tracing (struct ds_blklat, diskstat.h).
 */
#ifndef DS_BLKSLOW_H
#define DS_BLKSLOW_H

#include "diskstat.h"

/*
 * ds_blklat_open flags, beside DS_BLKLAT_WHO and the phases.
 * DS_BLKLAT_SLOW: no histograms; each request whose longest phase
 * timed reached b->slow_ns (set it before ds_blklat_open) goes to user
 * space through a ring buffer, read with ds_blkslow_read.
 * DS_BLKLAT_CGROUP: the histograms per disk, operation, phase and the
 * cgroup of the task that queued the bio (snapshot rows' cg); the bios'
 * queueing is followed whatever the phases.
 */
#define DS_BLKLAT_SLOW 0x100u
#define DS_BLKLAT_CGROUP 0x200u

/* A duration not timed (a phase not asked for, or not seen). */
#define DS_BLKSLOW_NONE UINT64_MAX

/* A slow request, as its completion's program wrote it. */
struct ds_blkslow {
	uint64_t ns;		/* completion, CLOCK_MONOTONIC ns */
	uint64_t sector;	/* as the completion logs it */
	uint64_t q2d_ns, d2c_ns, q2c_ns;	/* or DS_BLKSLOW_NONE */
	uint64_t cg;		/* the queueing task's cgroup v2 id */
	uint32_t dev;		/* the disk (struct ds_blkdisk's dev) */
	uint32_t op;		/* DS_BLK_READ ... */
	uint32_t bytes;		/* of the completion */
	uint32_t pid;		/* the queueing task's tgid */
	char comm[16];		/* its command name then, NUL-padded */
	uint32_t who;		/* 1: pid, comm and cg known (its bio seen) */
	uint32_t pad;
};

/*
 * Hand each slow request waiting in the ring buffer to fn (a non-zero
 * return stops there: returned); the count handed, or -errno.
 */
int ds_blkslow_read(struct ds_blklat *b,
    int (*fn)(void *, const struct ds_blkslow *), void *arg);
/*
 * Wait up to timeout_ns for a slow request: 1 when one waits, 0 at the
 * timeout, -EINTR on a signal, -errno.
 */
int ds_blkslow_wait(struct ds_blklat *b, uint64_t timeout_ns);
/* The ring buffer's size, bytes (kernel memory, for the man page). */
#define DS_BLKSLOW_RING (1u << 20)

/*
 * The missed events counted so far (cumulative; DS_MISS_LOST is
 * ds_blklat_take's alone and left 0): cheaper than a snapshot.
 */
int ds_blklat_missed(struct ds_blklat *b, uint64_t m[DS_MISS_N]);

/* The count of cur's row r less prev's of the same key (NULL: all). */
uint64_t ds_blklat_count_delta(const struct ds_blklat_snap *prev,
    const struct ds_blklat_snap *cur, const struct ds_blklat_row *r);

/*
 * Cgroup v2 ids and their paths: the id (bpf_get_current_cgroup_id) is
 * the inode number of the cgroup's directory, so a walk of the v2
 * hierarchy below the root, stat by stat, names them.
 */
struct ds_cgids {
	struct ds_cgid { uint64_t id; char *path; } *e;
	size_t n, cap;
};
/*
 * (Re)read every cgroup of the v2 mount, keeping up to DS_CGIDS_GONE
 * of those gone since the last read: 0, or -errno (-ENOENT: no v2).
 */
#define DS_CGIDS_GONE 4096
int ds_cgids_read(const struct ds_root *r, struct ds_cgids *c);
/* id's path ("/", "/a/b"), or NULL when the last read did not see it. */
const char *ds_cgids_find(const struct ds_cgids *c, uint64_t id);
void ds_cgids_free(struct ds_cgids *c);

/*
 * A duration as dpsi --wait takes one: "150ms", "2s", "500us", "1.5s";
 * into microseconds.  -EINVAL when not one.
 */
int ds_parse_duration(const char *s, size_t len, uint64_t *us);

#endif
