/*
 * Private to the library: what the files of block-latency tracing
 * share.  blkprog.c writes the programs, blkmaps.c makes the maps and
 * loads and attaches the programs, blktend.c tends the map of issues,
 * blkread.c reads the maps, blkdisks.c finds the disks' device numbers.
 */
#ifndef DS_BLKLAT_H
#define DS_BLKLAT_H

#include "internal.h"

struct ds_asm;

/*
 * The per-CPU counters.  Issues are counted so that completions never
 * seen can be found: those with a Q are q2d's count, the others here.
 */
enum { ST_UNMATCHED_D2C, ST_UNMATCHED_Q2C, ST_MAP_FULL, ST_ISSUE_NOQ,
	ST_DONE, ST_RING_FULL, ST_N };

/* The maps, as struct ds_blklat's map[] holds their fds. */
enum { M_DEVS, M_ISTART, M_QSTART, M_HIST, M_WHO, M_STATS, M_ZERO, M_RING,
	M_N };

/*
 * Histograms per CPU up to this many CPUs: a plain add instead of a
 * locked one, for 2.2 KB per histogram and CPU.  Above, one value that
 * all CPUs count into atomically keeps the kernel memory in bounds.
 */
#define PCPU_MAX 16

/* Histograms of a disk: an operation's phases, for each operation. */
#define HIST_PER_DISK (DS_BLK_OPS * DS_BLK_PHASES)

static inline int
pcpu(const struct ds_blklat *b)
{
	return b->ncpu <= PCPU_MAX;
}

/* Is phase ph timed? */
static inline int
want(const struct ds_blklat *b, int ph)
{
	return (b->flags & DS_BLKLAT_PHASE(ph)) != 0;
}

/* Are bios' queue times kept (q2c or q2d, or per cgroup)? */
static inline int
want_q(const struct ds_blklat *b)
{
	return want(b, DS_BLK_Q2C) || want(b, DS_BLK_Q2D) ||
	    (b->flags & DS_BLKLAT_CGROUP);
}

/* Slow requests to the ring, no histograms. */
static inline int
slow(const struct ds_blklat *b)
{
	return (b->flags & DS_BLKLAT_SLOW) != 0;
}

/*
 * A bio's Q value: ns, tgid, nr_sector; then for the cgroup modes its
 * cgroup id; then for slow requests the queueing task's comm.
 */
static inline int
q_size(const struct ds_blklat *b)
{
	return slow(b) ? 40 : (b->flags & DS_BLKLAT_CGROUP) ? 24 : 16;
}

/* Does an issue keep its Q for the completion? */
static inline int
d_has_q(const struct ds_blklat *b)
{
	return want(b, DS_BLK_Q2C) ||
	    ((b->flags & (DS_BLKLAT_SLOW | DS_BLKLAT_CGROUP)) && want_q(b));
}

/*
 * The programs, in the order of struct ds_blklat's prog[]: the event
 * each is attached to, its code, its name, whether it reads the comm
 * field (who mode), and the phases it is loaded for.
 */
struct ds_blkprog {
	const char *event;
	void (*gen)(struct ds_asm *, const struct ds_blklat *,
	    const struct ds_blkev *);
	const char *name;
	int comm;
	unsigned int phases;
};
/* The cgroup modes' histogram key: dev, op << 2 | phase, cgroup id. */
#define CG_KEY 16
/* Histograms per cgroup at most (per disk, operation and phase). */
#define DS_BLKLAT_CG_MAX 4096
extern const struct ds_blkprog ds_blkprogs[DS_BLKLAT_PROGS];

/*
 * The dev_t (ds_kdev) of disk and of each of its partitions: out[0] is
 * the disk.  *n is set to the count, which may exceed max (the rest not
 * stored).
 */
int ds_disk_devnums(const struct ds_root *r, const char *disk, uint32_t *out,
    size_t max, size_t *n);

/* The slow requests' ring buffer mapped (lib/blkring.c), and unmapped. */
int ds_blkring_map(struct ds_blklat *b);
void ds_blkring_unmap(struct ds_blklat *b);
/*
 * The records between *cons and *prod of a ring's data (mask + 1 bytes,
 * mapped twice in a row), each of size bytes, handed to fn as *cons
 * moves past them: their count, fn's non-zero return, or -EPROTO for a
 * record of another size (skipped).
 */
int ds_ring_consume(uint64_t *cons, const uint64_t *prod,
    const unsigned char *data, uint64_t mask, size_t size,
    int (*fn)(void *, const void *), void *arg);

#endif
