/*
 * Disk errors the kernel reported: block I/O errors in its log (per disk,
 * over a window) and the SCSI midlayer's error counters.
 */
#ifndef DISKSTAT_KMSG_H
#define DISKSTAT_KMSG_H

#include "diskstat.h"

struct ds_ioerr {		/* block I/O errors of one disk in a window */
	char dev[32];		/* kernel name in the message: loop3, sda, nvme0n1 */
	uint64_t count;		/* error messages counted for it */
	uint64_t buffer;	/* of them "Buffer I/O error" (a filesystem's
				   buffer, often of the same failed request) */
	uint64_t suppressed;	/* "N callbacks suppressed" notes just before
				   its messages: the ratelimit hid that many
				   messages, of this disk or another */
	uint64_t first_us;	/* kernel timestamp of the first (us since boot) */
	uint64_t last_us;	/* and of the last */
	uint64_t sector;	/* of the first; have_sector 0 when the message has none */
	int have_sector;
	char op[16];		/* of the first: "READ" "WRITE" "FLUSH" "DISCARD"...;
				   "" unknown */
	char kind[32];		/* of the first: "I/O error", "critical medium
				   error", "Buffer I/O error" ... */
};
struct ds_ioerrs {
	struct ds_ioerr *e;	/* in the order first seen */
	size_t n, cap;
	size_t records;		/* kernel log records read */
	size_t malformed;	/* records that did not parse, skipped */
	size_t refused;		/* error messages whose device name is not
				   [A-Za-z0-9_.:-]+ (or too long), skipped */
	size_t ignored;		/* "operation not supported" and "nonblocking
				   retry" errors: a request refused, no data
				   lost; not counted */
	uint64_t suppressed;	/* callbacks-suppressed notes in the window
				   with no error message after them */
	uint64_t pending;	/* a note waiting for its next message */
};
/*
 * The block I/O errors the kernel logged with a timestamp in [from_us,
 * to_us] (us of CLOCK_MONOTONIC, the kernel log's clock), per disk, from
 * dev/kmsg under r: live /dev/kmsg opened O_NONBLOCK and read record by
 * record until -EAGAIN (never blocks; -EPIPE on a record overwritten
 * while reading: skip on), in a captured tree a regular file of the
 * same records one per line.  -EACCES/-EPERM without CAP_SYSLOG.
 * Only the kernel's own records count (facility 0): a process writing
 * to /dev/kmsg is given facility "user" and cannot forge one.
 * Replaces out.
 */
int ds_kmsg_ioerrs(const struct ds_root *r, uint64_t from_us, uint64_t to_us,
    struct ds_ioerrs *out);
/*
 * One record "PRI,SEQ,TS_US,FLAGS[,...];TEXT" (len bytes; what follows
 * a newline, the continuation lines " KEY=V", is ignored), added to out:
 * 1 an error counted, 0 a record that is none (or outside the window,
 * or a continuation line given alone), -EINVAL malformed (counted), or
 * -ENOMEM.
 */
int ds_kmsg_record(const char *rec, size_t len, uint64_t from_us, uint64_t to_us,
    struct ds_ioerrs *out);
void ds_ioerrs_free(struct ds_ioerrs *e);
/*
 * sys/block/DISK/device/ioerr_cnt and iotmo_cnt (SCSI; hex "0x1f"):
 * commands the midlayer saw fail and time out since the device was
 * found.  -ENOENT elsewhere, -EINVAL for a disk name that is none.
 */
int ds_scsi_errcnt(const struct ds_root *r, const char *disk, struct ds_buf *scratch,
    uint64_t *ioerr, uint64_t *iotmo);

#endif
