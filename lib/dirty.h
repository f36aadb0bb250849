/*
 * Dirty pages, the parts the library and its tests use: the freerun
 * ceiling of balance_dirty_pages and proc/vmstat's parser.  The reader
 * is diskstat.h's.
 */
#ifndef DISKSTAT_DIRTY_H
#define DISKSTAT_DIRTY_H

#include "diskstat.h"

/*
 * The dirty and writeback pages past which a writer is throttled:
 * (thresh + bg_thresh) / 2, balance_dirty_pages' freerun ceiling.  0
 * when the thresholds were not read.
 */
uint64_t ds_dirty_freerun(const struct ds_dirty *d);

/* proc/vmstat's keys into d (have and bad bits); the others skipped. */
void ds_dirty_parse_vmstat(const char *text, struct ds_dirty *d);

#endif
