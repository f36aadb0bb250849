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

/*
 * What only the tests call, kept out of the shipped archive: a value
 * counted into a histogram, a trigger parsed without its message, a
 * number's shape, the dirty pages' freerun ceiling.
 */
void ds_lat_add(struct ds_lat *h, uint64_t ns);
/* RESOURCE:KIND:STALL/WINDOW, durations with us, ms or s. */
int ds_psi_trigger_parse(const char *spec, struct ds_psi_trigger *t);
/* 1 when s is digits and dots with at least one digit ("2", ".5", "1.2.3"). */
int ds_is_number(const char *s);
/* (thresh + bg_thresh) / 2, balance_dirty_pages' freerun ceiling; 0 unread. */
uint64_t ds_dirty_freerun(const struct ds_dirty *d);

#endif
