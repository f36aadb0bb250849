/*
 * Dirty pages: how many the page cache holds and is writing back, the
 * thresholds past which writers are made to wait (balance_dirty_pages),
 * and the vm.dirty_* settings the thresholds come from.
 */
#ifndef DISKSTAT_DIRTY_H
#define DISKSTAT_DIRTY_H

#include "diskstat.h"

/* have bits: what was read. */
#define DS_DIRTY_NR_DIRTY	0x0001u
#define DS_DIRTY_NR_WRITEBACK	0x0002u
#define DS_DIRTY_THRESH		0x0004u
#define DS_DIRTY_BG_THRESH	0x0008u
#define DS_DIRTY_DIRTIED	0x0010u
#define DS_DIRTY_WRITTEN	0x0020u
#define DS_DIRTY_RATIO		0x0040u
#define DS_DIRTY_BG_RATIO	0x0080u
#define DS_DIRTY_BYTES		0x0100u
#define DS_DIRTY_BG_BYTES	0x0200u
#define DS_DIRTY_EXPIRE		0x0400u
#define DS_DIRTY_WRITEBACK_CS	0x0800u
#define DS_DIRTY_PAGE_SIZE	0x1000u
#define DS_DIRTY_VMSTAT		0x003fu	/* the proc/vmstat ones */

struct ds_dirty {
	uint64_t nr_dirty, nr_writeback;	/* pages, proc/vmstat */
	uint64_t thresh, bg_thresh;		/* nr_dirty_threshold, nr_dirty_background_threshold */
	uint64_t nr_dirtied, nr_written;	/* counters since boot */
	uint64_t ratio, bg_ratio, bytes, bg_bytes;	/* proc/sys/vm/dirty_{ratio,background_ratio,bytes,background_bytes} */
	uint64_t expire_cs, writeback_cs;	/* dirty_expire_centisecs, dirty_writeback_centisecs */
	unsigned int have;			/* DS_DIRTY_* bits of what was read */
	unsigned int bad;			/* DS_DIRTY_* bits of values there but malformed */
	uint64_t page_size;			/* bytes per page */
};

/*
 * proc/vmstat and proc/sys/vm/dirty_* below the root.  The page size is
 * this machine's on the live system; in a tree, KernelPageSize of
 * proc/self/smaps when it is there, else unknown.  -errno when
 * proc/vmstat cannot be read; a setting missing is only not in have.
 * The thresholds are the kernel's for the reading task (a real-time
 * task is allowed a quarter more).
 */
int ds_dirty_read(const struct ds_root *r, struct ds_buf *scratch,
    struct ds_dirty *out);
/*
 * The dirty and writeback pages past which a writer is throttled:
 * (thresh + bg_thresh) / 2, balance_dirty_pages' freerun ceiling.  0
 * when the thresholds were not read.
 */
uint64_t ds_dirty_freerun(const struct ds_dirty *d);

/* proc/vmstat's keys into d (have and bad bits); the others skipped. */
void ds_dirty_parse_vmstat(const char *text, struct ds_dirty *d);

#endif
