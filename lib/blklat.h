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
enum { ST_UNMATCHED_D2C, ST_UNMATCHED_Q2C, ST_MAP_FULL, ST_ISSUE_NOQ, ST_N };

/* The maps, as struct ds_blklat's map[] holds their fds. */
enum { M_DEVS, M_ISTART, M_QSTART, M_HIST, M_WHO, M_STATS, M_ZERO, M_N };

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

/* Are bios' queue times kept (q2c or q2d)? */
static inline int
want_q(const struct ds_blklat *b)
{
	return want(b, DS_BLK_Q2C) || want(b, DS_BLK_Q2D);
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
extern const struct ds_blkprog ds_blkprogs[DS_BLKLAT_PROGS];

/*
 * The dev_t (ds_kdev) of disk and of each of its partitions: out[0] is
 * the disk.  *n is set to the count, which may exceed max (the rest not
 * stored).
 */
int ds_disk_devnums(const struct ds_root *r, const char *disk, uint32_t *out,
    size_t max, size_t *n);

#endif
