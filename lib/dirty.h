/*
 * Dirty pages, the parts the library and its tests use: the freerun
 * ceiling of balance_dirty_pages and proc/vmstat's parser.  The reader
 * is diskstat.h's.
 */
#ifndef DISKSTAT_DIRTY_H
#define DISKSTAT_DIRTY_H

#include "diskstat.h"


/* proc/vmstat's keys into d (have and bad bits); the others skipped. */
void ds_dirty_parse_vmstat(const char *text, struct ds_dirty *d);

#endif
