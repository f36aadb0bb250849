/*
 * Test oracles: whole-text parsers of diskstats and snapshot files, to
 * hold the library's line-at-a-time readers against.  Not part of the
 * library; linked into the unit tests and the fuzzers (t/unit/oracle.c).
 */
#ifndef DISKSTAT_ORACLE_H
#define DISKSTAT_ORACLE_H

#include "internal.h"

/* Parse text (need not be NUL-terminated); replaces out's contents. */
int ds_diskstats_parse(const char *text, size_t len, struct ds_diskstats *out);
/*
 * A snapshot file's text: its header through ds_snap_head, then the
 * diskstats text with ds_diskstats_parse (line numbers of the file).
 */
int ds_snap_parse(const char *text, size_t len, struct ds_snap *s);
void ds_snap_free(struct ds_snap *s);

#endif
