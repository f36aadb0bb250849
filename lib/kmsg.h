/*
 * Disk errors in the kernel log, the part the tests and fuzzers use:
 * one record parsed.  The reader of the log and the SCSI counters are
 * diskstat.h's.
 */
#ifndef DISKSTAT_KMSG_H
#define DISKSTAT_KMSG_H

#include "diskstat.h"

/*
 * One record "PRI,SEQ,TS_US,FLAGS[,...];TEXT" (len bytes; what follows
 * a newline, the continuation lines " KEY=V", is ignored), added to out:
 * 1 an error counted, 0 a record that is none (or outside the window,
 * or a continuation line given alone), -EINVAL malformed (counted), or
 * -ENOMEM.
 */
int ds_kmsg_record(const char *rec, size_t len, uint64_t from_us, uint64_t to_us,
    struct ds_ioerrs *out);

#endif
