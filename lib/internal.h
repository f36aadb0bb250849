/*
 * libdiskstat's private interface: what the library's files share and
 * the unit tests and fuzzers may call, but no tool.  Never installed;
 * the installed interface is diskstat.h.
 */
#ifndef DISKSTAT_INTERNAL_H
#define DISKSTAT_INTERNAL_H

#include <stdarg.h>

#include "suite.h"

/*
 * Roots and paths: every file the library opens is below a root: "/" on
 * a live system, or a captured tree of /proc and /sys (--root,
 * DISKSTAT_ROOT).
 */

/*
 * rel from at (r->fd or a directory opened below it), never leaving the
 * root of a tree: RESOLVE_IN_ROOT from the root, RESOLVE_BENEATH from
 * below, no magic links; the live root as plain openat(2).
 */
int ds_openat_in(const struct ds_root *r, int at, const char *rel, int flags);
/* The fallback without openat2(2): no symlink, no "..", per component. */
int ds_openat_walk(int at, const char *rel, int flags);
struct stat;
int ds_fstatat_in(const struct ds_root *r, int at, const char *rel,
    struct stat *st);
/* readlinkat(2) of a link reached inside the root; length or -errno. */
long ds_readlink_in(const struct ds_root *r, int at, const char *rel,
    char *buf, size_t size);
/*
 * 1 when s can be one path component (a disk, a device, an attribute
 * named by its caller): not empty, no '/', not "." or "..".
 */
int ds_component_ok(const char *s);

/*
 * Captures' archives (lib/tarread.c): a private directory made in tmp
 * (ds_capture_mkdtemp); the archive at path read into the directory
 * top, with the reason of a refusal into why (NULL: none wanted), as
 * ds_capture_extract but into a directory of the caller's; and
 * ds_capture_extract with a why.
 */
int ds_capture_mkdtemp(char *tmp, size_t n);
int ds_tar_extract_at(const char *path, int top, struct ds_buf *why);
int ds_capture_extract_why(const char *path, char *tmp, size_t n,
    struct ds_buf *why);
/*
 * An archive read in place, a member at a time, with every check of
 * ds_tar_extract_at and nothing written: the data of a member not asked
 * for is passed over (lseek), so that a reader wanting a few members of
 * many pays for their headers alone.  fd (a regular file, read from
 * its offset) stays the caller's; why as above.  ds_tar_next: 1 with
 * the member in m (its strings valid until the next call), 0 at the
 * archive's end, -errno (-EINVAL with why); ds_tar_data: the member's
 * data into b, once, 0 or -errno.
 */
struct ds_tar;
struct ds_tar_member {
	const char *path;	/* relative, "." and empty components out */
	const char *link;	/* a link's target */
	int type;		/* '0' file, '2' link, '5' directory */
	uint64_t size;		/* bytes of data */
	uint64_t mtime;		/* seconds since the epoch; 0 unknown */
};
int ds_tar_open(int fd, struct ds_buf *why, struct ds_tar **t);
int ds_tar_next(struct ds_tar *t, struct ds_tar_member *m);
int ds_tar_data(struct ds_tar *t, struct ds_buf *b);
void ds_tar_close(struct ds_tar *t);
/*
 * The next component of the path at *p: *p moved past slashes and "."
 * components to it, its length returned (0 at the end); the caller
 * steps over it (*p += n).
 */
size_t ds_path_comp(const char **p);
/*
 * A capture directory's capture/meta checked against its nsamples sample
 * directories: format 1, samples, uptimes, window_ns, numbers where
 * numbers belong.  0, or -EINVAL with the reason into why (NULL: none).
 */
int ds_capture_meta_check(int top, unsigned int nsamples, struct ds_buf *why);

/*
 * Reading files: whole files into a growing buffer, large files a line
 * at a time through a window of fixed size, and numbers parsed with
 * every check.
 */

int ds_read_fd(int fd, struct ds_buf *b);

/* Empty b (still NUL-terminated, as after a failed read); returns e. */
int ds_buf_fail(struct ds_buf *b, int e);
/*
 * printf into out, replacing its contents (a message: the library never
 * prints, so where a tool needs a sentence the library makes it here):
 * 1, or -ENOMEM with out empty.
 */
int ds_buf_printf(struct ds_buf *out, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int ds_buf_vprintf(struct ds_buf *out, const char *fmt, va_list ap);
/* The same appended to out's contents: 1, or -ENOMEM (out unchanged). */
int ds_buf_vappendf(struct ds_buf *out, const char *fmt, va_list ap);
int ds_buf_appendf(struct ds_buf *out, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#define DS_LINES_CUT (DS_LINES_WINDOW - 1)	/* as long or longer: cut */

/* Read from fd, which stays the caller's. */
void ds_lines_fd(struct ds_lines *l, int fd, struct ds_buf *window);
/*
 * The next line: 1, with *line its text in the window, newline removed
 * and NUL-terminated, valid until the next call; 0 at the end; -errno.
 * A last line without a newline counts.  A line of DS_LINES_CUT bytes
 * or more comes cut to its first DS_LINES_CUT bytes with l->cut set,
 * and its rest is skipped.
 */
int ds_lines_next(struct ds_lines *l, char **line, size_t *len);
/* Give the last line again at the next ds_lines_next. */
void ds_lines_again(struct ds_lines *l);

/*
 * Split s in place on blanks (space, tab), writing at most max field
 * pointers.  Returns the number of fields found, which may exceed max
 * (the extra fields are not stored).
 */
size_t ds_split(char *s, char **fields, size_t max);

/* Return the next line at *cursor (NUL-terminated in place), or NULL. */
char *ds_next_line(char **cursor);



/* Open rel under the root; -errno (the window emptied) on failure. */
int ds_lines_open(struct ds_lines *l, const struct ds_root *r,
    const char *rel, struct ds_buf *window);

/* Clocks: the clocks a sample is stamped with, sleeping to a deadline. */

/* Parse the text of /proc/uptime ("350735.47 234388.90"). */
int ds_uptime_parse(const char *text, uint64_t *ns);

/*
 * Output: the writer and escaping: one writer for every format (TSV,
 * JSON lines, table, Prometheus text), its columns and cells, atomic
 * output files, and escaping.
 */

/* A byte count in human units as df -h prints it: 4G, 251.9G, 512. */
size_t ds_fmt_human(char *buf, size_t sz, double bytes);

/*
 * Escaping, exposed for tests and for tools that write text themselves
 * (ds_esc_prom: lib/diskstat.h).  Each appends to b; -ENOMEM on failure.
 *   tsv:  tab, newline, CR, backslash and NUL as \t \n \r \\ \0; the
 *         other bytes table escapes (control bytes, C1, invalid UTF-8,
 *         the bidi controls) as \xHH, since TSV reaches a terminal
 *         through a pipe; other bytes kept.
 *   json: a quoted string: " \ and bytes below 0x20 escaped, DEL as
 *         \u007f, the C1 and bidi controls as \u0080-\u009f, \u202e
 *         and so on (the same text), invalid UTF-8 as U+FFFD.
 */
int ds_esc_tsv(struct ds_buf *b, const char *s, size_t len);
int ds_esc_json(struct ds_buf *b, const char *s, size_t len);
/*
 * table: the TSV escapes, and other control bytes (C0, DEL, C1), bytes
 * of invalid UTF-8 and the bidi controls (see ds_esc_msg) as \xHH.
 */
int ds_esc_table(struct ds_buf *b, const char *s, size_t len);

/* Length of the valid UTF-8 sequence at s (1 to 4), or 0 if invalid. */
size_t ds_utf8_len(const unsigned char *s, size_t avail);

int ds_atomic_open(struct ds_atomic *a, const char *path);
int ds_atomic_commit(struct ds_atomic *a);
void ds_atomic_abort(struct ds_atomic *a);

/*
 * Block devices and device operands: the disks sysfs shows, what a
 * device number is, and the operands (names, /dev paths, dm names,
 * globs) that pick devices for a report.
 */

/*
 * The entries of directory rel below the directory fd at, sorted, dot
 * files left out; with dirs_only, directories only (holders, mq/N).
 */
int ds_dir_names(int at, const char *rel, int dirs_only,
    struct ds_blockdevs *out);
/* The same, every path resolved inside the root r (NULL: as given). */
int ds_dir_names_in(const struct ds_root *r, int at, const char *rel,
    int dirs_only, struct ds_blockdevs *out);

/*
 * Reading devices and snapshots: /proc/diskstats read a device at a
 * time, snapshot files of it, the pairing of two samples, and the quiet-
 * time baseline kept from them.
 */

/* Parse one line; 0 or -EINVAL when malformed. */
int ds_disk_parse_line(char *line, struct ds_disk *d);

/*
 * The same from a file read through l: the header lines into s (s->ds
 * untouched but for its counts, zeroed), leaving l at the first
 * diskstats line, to be read with ds_diskstats_next or _fill.
 */
int ds_snap_head(struct ds_lines *l, struct ds_snap *s);

/* A lightly queued interval: aqu-sz at most this ... */
#define DS_BASE_QUIET_AQU 1.5
/* ... with at least this many requests of the direction measured. */
#define DS_BASE_MIN_IOS 50
/* A baseline latency needs this many such intervals. */
#define DS_BASE_MIN_QUIET 3

/* Add one interval of one device (for callers that pair themselves). */
int ds_base_add(struct ds_base *b, const char *name,
    const struct ds_xstat *x, const uint64_t d[DS_NCOUNTERS]);
/* Compute the medians and ceilings of every device; sorts by name. */
int ds_base_finish(struct ds_base *b);

void ds_base_free(struct ds_base *b);

/* 1 if name is in the set, else 0 (with add, put there); -ENOMEM. */
int ds_names_has(struct ds_names *ns, const char *name, int add);
void ds_names_free(struct ds_names *ns);

/* fd is the file l reads, start its offset where the file began. */
void ds_older_init(struct ds_older *o, int fd, int64_t start);

/*
 * c's line in the earlier file into *found (valid until the next call),
 * NULL for a device new since, or with *twice set for a device listed
 * again in the later file (not to be reported).  c is row i of the
 * later file, counting rows not skipped.  0 or -errno.
 */
int ds_older_find(struct ds_older *o, struct ds_pair *pr,
    const struct ds_disk *c, size_t i, const struct ds_disk **found,
    int *twice);
void ds_older_free(struct ds_older *o);

/*
 * The next device of a diskstats text read through l: 1 with *d set, 0
 * at the end, -errno on a read error.  Damaged lines are skipped and
 * counted in bad->bad and bad->first_bad (l's line numbers, the
 * first damaged one); nothing else of *bad is touched.
 */
int ds_diskstats_next(struct ds_lines *l, struct ds_disk *d,
    struct ds_diskstats *bad);

int ds_diskstats_fill(struct ds_lines *l, struct ds_diskstats *out);

/*
 * 1 when l reads procfs: a live sample, to be read whole before it is
 * reported (a slow reader must not stretch it), not line by line.
 */
int ds_lines_procfs(const struct ds_lines *l);

/*
 * ds_older_find for c, line lineno of the later file: 1 when c is
 * listed again there (not to be reported; counted in o->twice, the
 * first in o->first_twice), else 0 with *found (NULL: new since).
 */
int ds_older_pair(struct ds_older *o, struct ds_pair *pr,
    const struct ds_disk *c, size_t i, size_t lineno,
    const struct ds_disk **found);

/*
 * Pressure: pressure stall information: reading, triggers, waiting for
 * pressure (with a sampling fallback), samples over an interval.
 */

/* The index of a name of len bytes, or -EINVAL. */
int ds_psi_res_parse(const char *s, size_t len);

/*
 * Parse one line in place; -EINVAL when any of the four values is missing
 * or not the kernel's, with why and key of *why (may be NULL) saying which.
 */
int ds_psi_parse_line(char *line, enum ds_psi_kind *kind,
    struct ds_psi_line *l, struct ds_psi_bad *why);
/* Parse a file's text in place; -EINVAL when it has no good line. */
int ds_psi_parse(char *text, struct ds_psi *p);

/*
 * Read and parse the pressure file of res: dirfd's res.pressure when
 * dirfd >= 0 (a cgroup), else proc/pressure/res under the root.
 */
int ds_psi_read_res(const struct ds_root *r, int dirfd, enum ds_psi_res res,
    struct ds_buf *scratch, struct ds_psi *p);
/*
 * The share of an interval spent stalled, in percent (0 to 100), from
 * two totals (us) and the interval (ns).  A total that went backwards
 * (cgroup made again) counts from 0.  -EINVAL when interval_ns is 0.
 */
int ds_psi_share(uint64_t before, uint64_t after, uint64_t interval_ns,
    double *pct);

#define DS_PSI_WINDOW_MIN 500000u	/* us */
#define DS_PSI_WINDOW_MAX 10000000u

/* Which part of a trigger is wrong: the part, where it is and its length. */
enum ds_trig_part {
	DS_TRIG_OK, DS_TRIG_SHAPE, DS_TRIG_RESOURCE, DS_TRIG_KIND,
	DS_TRIG_STALL, DS_TRIG_WINDOW,
};
struct ds_psi_trigger_bad {
	enum ds_trig_part part;
	const char *at;		/* into spec */
	size_t len;
};
int ds_psi_trigger_parse_part(const char *spec, struct ds_psi_trigger *t,
    struct ds_psi_trigger_bad *bad);

/* "some 150000 2000000" and its NUL; returns the bytes to write. */
int ds_psi_trigger_format(const struct ds_psi_trigger *t, char *buf,
    size_t size);

/*
 * Is a trigger event real?  A freshly armed trigger can fire at once;
 * an event counts when the total grew by at least stall_us.
 */
int ds_psi_confirm(uint64_t before, uint64_t after, uint64_t stall_us);

/* The ring holding total, read at now_ns (the baseline). */
void ds_psi_window_init(struct ds_psi_window *w,
    const struct ds_psi_trigger *tr, uint64_t total, uint64_t now_ns);
/* When the next sample is due: a period after the last. */
uint64_t ds_psi_window_next(const struct ds_psi_window *w);
/* Add a sample; 1 when it crosses the threshold, else 0. */
int ds_psi_window_add(struct ds_psi_window *w, uint64_t total,
    uint64_t now_ns);
/*
 * Sleep until the next sample is due (ds_psi_window_next), or the
 * deadline (CLOCK_BOOTTIME ns, 0: none) if sooner: 1 when a sample is
 * due, 0 when the deadline has passed, -EINTR when a signal came.
 */
int ds_psi_window_wait(const struct ds_psi_window *w, uint64_t deadline_ns);

/*
 * The kernel's trigger armed on fd: wait for its event (POLLPRI) until
 * the deadline (CLOCK_BOOTTIME ns, 0: none).  1 on an event, 0 when the
 * deadline has passed, -ENODEV when the file went away (its cgroup was
 * removed), -EINTR when a signal came, or poll's -errno.
 */
int ds_psi_trigger_poll(int fd, uint64_t deadline_ns);

void ds_psi_armed_init(struct ds_psi_armed *a,
    const struct ds_psi_trigger *tr, uint64_t base);
/* 1 when total makes an event (it becomes the new base), else 0. */
int ds_psi_armed_add(struct ds_psi_armed *a, uint64_t total);

/*
 * Pair the elements of two samples by path, each of size bytes with a
 * char * path at path_off (NULL, the system, pairs with NULL): for each
 * of cur's ncur elements, a pointer to prev's element of the same path
 * (or NULL) is stored at link_off.  With no prev element nothing is
 * stored.  In n log n.  0 or -ENOMEM.
 */
int ds_psi_pair(const void *prev, size_t nprev, void *cur, size_t ncur,
    size_t size, size_t path_off, size_t link_off);

/*
 * A new, zeroed element at the end of s.  path NULL is the system; a
 * cgroup's path is top (NULL or "/": none) followed by path, copied.
 * NULL when out of memory.
 */
struct ds_psi_cg *ds_psi_sample_add(struct ds_psi_sample *s, const char *top,
    const char *path);

/* Drop the last element; empty s (keeping its array); free it all. */
void ds_psi_sample_pop(struct ds_psi_sample *s);
void ds_psi_sample_clear(struct ds_psi_sample *s);

/*
 * path (NULL: "") as "/" followed by it without leading or trailing
 * '/' ("a/b/" is "/a/b", "" is "/"); malloc'd, NULL when out of memory.
 */
char *ds_cgroup_path_top(const char *path);

/*
 * Processes and cgroups: process scans and their I/O rates, the cgroup
 * v2 tree and its io.stat, CPU time from /proc/stat.
 */

int ds_cgroup_walk(int topfd, int (*fn)(void *arg, int dirfd,
    const char *path), void *arg);

/* Numeric entries of a directory ("proc", "proc/123/task"), sorted. */
int ds_pids_read(const struct ds_root *r, const char *rel,
    struct ds_pids *out);

/* The fields of /proc/PID/stat that the tools use. */
struct ds_stat {
	int pid;
	char comm[64];		/* may hold any byte but NUL */
	size_t comm_len;
	char state;
	int ppid;
	uint64_t utime, stime;	/* clock ticks */
	uint64_t num_threads;
	int kthread;		/* PF_KTHREAD in field 9, flags */
	uint64_t starttime;	/* clock ticks after boot */
	uint64_t blkio_ticks;	/* field 42, delayacct_blkio_ticks */
	int have_blkio;		/* field 42 was present */
	unsigned int nfields;
};
/* Parse stat text; comm runs to the last ')'.  -EINVAL when damaged. */
int ds_stat_parse(const char *text, size_t len, struct ds_stat *st);

int ds_io_parse(const char *text, struct ds_io *io);

/*
 * The cgroup of a proc/PID/cgroup text: the v2 line ("0::/path"); on a
 * v1-only host the blkio controller's line, then name=systemd's, then
 * the first.  *path points into text.  -EINVAL when none parses.
 */
int ds_proc_cgroup_parse(const char *text, const char **path, size_t *len);

/* Parse io.stat text; unknown keys are ignored.  Replaces out's rows. */
int ds_iostat_parse(const char *text, struct ds_iostat *out);
void ds_iostat_free(struct ds_iostat *s);

#define DS_PS_RUNNING	2u	/* procs_running */

/* Parse the text (need not be NUL-terminated); -EINVAL without a cpu line. */
int ds_procstat_parse(const char *text, size_t len, struct ds_procstat *s);

/*
 * Open the cgroup at path (relative to the v2 mount m, "" or "/" for
 * its top) as a directory; fd or -errno (-EINVAL for ".." in path).
 */
int ds_cgroup_open(const struct ds_root *r, const struct ds_mount *m,
    const char *path);

/*
 * Queue settings: a disk's queue attributes: reading, listing, and
 * applying settings with a verdict per attribute.
 */

/*
 * An attribute named by a user: "nr_requests", "iosched/read_expire",
 * or a scheduler tunable's bare name ("read_expire") when queue/ has no
 * such file.  Writes the path below the queue directory into rel.
 * -EINVAL for a name outside [a-z0-9_] (with one "iosched/" prefix),
 * -ENOENT when the device has no such attribute.
 */
int ds_queue_attr_path(const struct ds_root *r, const char *disk,
    const char *attr, char *rel, size_t size);
/*
 * Read an attribute (rel from ds_queue_attr_path); trailing blanks cut.
 * This and the two below refuse a disk that cannot be a device name
 * ("", ".", "..", holding '/') with -EINVAL.
 */
int ds_queue_attr_read(const struct ds_root *r, const char *disk,
    const char *rel, struct ds_buf *b);
/* 1 when some write bit of the file's mode is set, 0 if not, -errno. */
int ds_queue_attr_writable(const struct ds_root *r, const char *disk,
    const char *rel);
/*
 * Write value (blanks around it cut, then a newline, as echo(1) does)
 * in one write(2).  Returns 0 or the kernel's -errno (-EINVAL for a
 * scheduler it does not know, -EACCES for a read-only attribute).
 */
int ds_queue_attr_write(const struct ds_root *r, const char *disk,
    const char *rel, const char *value);
/*
 * The comparable form of a value of attribute attr: blanks around cut
 * and runs of blanks inside made one space; a number in canonical
 * decimal ("0128" is "128"); for the scheduler the bracketed name of a
 * scheduler line, and the kernel's alias "deadline" as "mq-deadline".
 * -ENAMETOOLONG when out is too small; -EINVAL for a scheduler value
 * whose brackets do not make one active name ("[x] [y]", "none [bfq").
 */
int ds_queue_value_canon(const char *attr, const char *value, char *out,
    size_t size);

/*
 * want holds got: equal (ds_queue_value_eq), or for a tunable the kernel
 * keeps in jiffies (ds_queue_attr_jiffies: read_expire, write_expire,
 * prio_aging_expire, timeout_sync, io_timeout) got is want in ms rounded
 * up to jiffies and back, for HZ 100, 250, 300 or 1000.  --check and
 * --set both judge by it.
 */
int ds_queue_value_holds(const char *attr, const char *want, const char *got);
int ds_queue_attr_jiffies(const char *attr);
/* ms -> jiffies -> ms as the kernel rounds both (up) at the given HZ. */
uint64_t ds_jiffies_round_ms(uint64_t ms, unsigned hz);

/*
 * Mounts, filesystems and deleted files: the mount table, filesystem
 * space, and files deleted but still held open or mapped: scanning,
 * summing and truncating them.
 */

/* Parse text in place (it must outlive out's strings). */
int ds_mountinfo_parse(char *text, struct ds_mounts *out);

const struct ds_mount *ds_mount_by_id(const struct ds_mounts *ms,
    unsigned int id);
/* The cgroup v2 hierarchy's mount, or NULL when there is none. */
const struct ds_mount *ds_mount_cgroup2(const struct ds_mounts *ms);

#define DS_FDI_POS	1u

#define DS_FDI_MNT	4u
/* -EINVAL when none of the three fields is there. */
int ds_fdinfo_parse(const char *text, struct ds_fdinfo *fi);

/* One line of /proc/PID/maps; path points into the line (not copied). */
struct ds_map {
	uint64_t start, end, offset, inode;
	unsigned int major, minor;	/* hexadecimal in the file */
	char perms[5];
	const char *path;	/* "" for an anonymous mapping */
	size_t path_len;
};
/* Parse one line (len bytes, no newline).  -EINVAL when malformed. */
int ds_map_parse(const char *line, size_t len, struct ds_map *m);

/*
 * Does the name (a link target) end in " (deleted)"?  Returns 1 and
 * shortens *len by the suffix, or 0.  Only the last suffix is taken:
 * a deleted "x (deleted)" reads "x (deleted) (deleted)".
 */
int ds_deleted_strip(const char *s, size_t *len);
/*
 * Memory-backed: a filesystem type of tmpfs, ramfs, hugetlbfs or
 * devtmpfs, a statfs magic of those (fs_magic 0: unknown), or a name
 * of memfd ("/memfd:"), SysV shm ("/SYSV") or POSIX shm ("/dev/shm/").
 */
int ds_deleted_memory(const char *path, size_t len, const char *fstype,
    uint64_t fs_magic);

/* Add a string to the pool; its offset, or DS_DEL_NONE on ENOMEM. */
size_t ds_deleted_intern(struct ds_deleted *d, const char *s, size_t len);

/*
 * Does any process map the file (dev, ino)?  A maps line with its inode
 * number is confirmed through map_files.  mapped: 0 when none does,
 * DS_MAPPED when pid does, DS_MAPPED_MAYBE when pid's maps names the
 * inode but map_files cannot be read (not root).  Processes whose maps
 * cannot be read at all are counted in unreadable (the first in
 * unreadable_pid): without root, another user's.
 */
#define DS_MAPPED	1
#define DS_MAPPED_MAYBE	2

/*
 * A capture's statfs of a mount (capture/statfs of the sample): by its
 * mount point path, or path NULL by dev.  -ENOENT when not recorded.
 */
int ds_fsstat_captured(const struct ds_root *r, const char *path,
    uint64_t dev, struct ds_fsstat *out);
/* Sizes in bytes: size, used (blocks - bfree), avail (bavail). */
uint64_t ds_fs_size(const struct ds_fsstat *s);
uint64_t ds_fs_used(const struct ds_fsstat *s);
uint64_t ds_fs_avail(const struct ds_fsstat *s);
/*
 * Use% as df(1) computes it: used / (used + avail), so the blocks
 * reserved for root count as full (a filesystem at 100% can still have
 * free blocks).  0..1; 0 when used + avail is 0.
 */
double ds_fs_use(const struct ds_fsstat *s);
/* IUse%: (files - ffree) / files; -1 when the fs counts no inodes. */
double ds_fs_iuse(const struct ds_fsstat *s);

/*
 * The host's mount of the filesystem that mount m (read in another
 * mount namespace) shows: same device and root, else same device and
 * root "/", else the first of that device.  NULL when the host has none.
 */
const struct ds_mount *ds_mount_host_view(const struct ds_mounts *host,
    const struct ds_mount *m);

/*
 * Latency tracing: latency histograms, tracepoint formats, bpf(2)
 * without libbpf, and block-layer latency traced per disk and per
 * process.
 */

/*
 * Log-linear histograms of nanoseconds: one bucket per value below 16,
 * then DS_LAT_SUB buckets to each power of two up to 2^37 ns (137 s;
 * the last bucket holds everything above).  A bucket is 1/8 of its
 * lower bound wide, so a percentile is known within about 6%.  The
 * struct is also the value the in-kernel program counts into.
 */
#define DS_LAT_SUB 8

/* The bucket of a value. */
unsigned int ds_lat_bucket(uint64_t ns);

int ds_tracefs_find(struct ds_tracefs *t);

/* One field of an event's record, as its `format` file gives it. */
struct ds_tpfield {
	char name[64];
	char type[64];		/* "unsigned int", "__data_loc char[]" */
	uint32_t offset, size;	/* bytes */
	uint32_t array;		/* N of name[N]; 0 when not an array */
	int is_signed;		/* 1, 0, or -1 when the file does not say */
	int data_loc;		/* a dynamic array: 4 bytes of offset, length */
};
#define DS_TP_FIELDS_MAX 32
struct ds_tpfmt {
	char name[64];
	uint32_t id;		/* the perf tracepoint id (ID:) */
	struct ds_tpfield f[DS_TP_FIELDS_MAX];
	size_t n;
};
/* Parse a `format` file: -EINVAL without an ID or any field. */
int ds_tpfmt_parse(const char *text, struct ds_tpfmt *out);
/* events/SYS/EVENT/format below tracefs. */
int ds_tpfmt_read(const struct ds_tracefs *t, const char *sys,
    const char *event, struct ds_buf *scratch, struct ds_tpfmt *out);
/* The field called name; NULL when the event has none. */
const struct ds_tpfield *ds_tpfmt_field(const struct ds_tpfmt *f,
    const char *name);
/* The end of the last field: the bytes a program may read. */
uint32_t ds_tpfmt_size(const struct ds_tpfmt *f);
/*
 * Thin wrappers of bpf(2); each returns an fd or 0, or -errno.  Objects
 * live as long as their fds: nothing is pinned.  Programs are built
 * with the library's private assembler (lib/bpfasm.h).
 */
struct bpf_insn;
int ds_bpf_map_create(unsigned int type, unsigned int key_size,
    unsigned int value_size, unsigned int max_entries, unsigned int flags,
    const char *name);
int ds_bpf_map_lookup(int fd, const void *key, void *value);
int ds_bpf_map_update(int fd, const void *key, const void *value,
    uint64_t flags);
/* -ENOENT when key is not there. */
int ds_bpf_map_delete(int fd, const void *key);
/* The key after key (NULL: the first); -ENOENT after the last. */
int ds_bpf_map_next(int fd, const void *key, void *next);
/*
 * Up to *count entries at once from the token in_batch (NULL: the
 * first) into keys and values, the next token into out_batch; *count
 * set to those had; -ENOENT at the end (with entries still, maybe).
 */
int ds_bpf_map_lookup_batch(int fd, const void *in_batch, void *out_batch,
    void *keys, void *values, uint32_t *count);
/*
 * Load a program; on failure it is tried once more with the verifier's
 * log into log (logsize bytes, NUL-terminated), so the caller can say
 * why.
 */
int ds_bpf_prog_load(unsigned int type, const struct bpf_insn *ins, size_t n,
    const char *name, char *log, size_t logsize);
struct ds_bpf_prog_stats {
	uint32_t id;
	char name[16];			/* as loaded (4.15+) */
	uint64_t run_cnt, run_time_ns;	/* counted while stats are enabled */
	uint64_t recursion_misses;	/* runs skipped: another program was
					   running on the CPU (6.7+) */
	int have_misses;		/* the kernel reports them */
};
int ds_bpf_prog_info(int fd, struct ds_bpf_prog_stats *st);
/* Attach a tracepoint program: the perf event's fd (close to detach). */
int ds_bpf_attach_tp(uint32_t tp_id, int prog_fd);
/* Possible CPUs (the per-CPU values of a lookup). */
int ds_bpf_ncpus(void);

/*
 * Four tracepoint programs (block_bio_queue, block_rq_issue,
 * block_rq_complete, block_bio_complete), hand-assembled and loaded
 * through bpf(2), count latencies into struct ds_lat histograms per
 * disk, operation and phase (btt's names):
 *   d2c  request issued to the driver -> completed;
 *   q2c  bio queued -> completed (the request's completion, or the
 *        bio's on a bio-based device: dm, md, zram);
 *   q2d  bio queued -> its request issued.
 * Needs CAP_BPF and CAP_PERFMON (or CAP_SYS_ADMIN).  Nothing is pinned:
 * ds_blklat_close (or the process's end) removes every trace of it.
 */
/* The operations and phases: lib/diskstat.h. */

/*
 * From an event's format: dev (4 bytes), sector (8), nr_sector (4),
 * rwbs (a char array of 2 or more), comm (char[16], when want_comm),
 * each naturally aligned, at 8 or above, inside the record; -EPROTO
 * otherwise.
 */
int ds_blkev_layout(const struct ds_tpfmt *f, int want_comm,
    struct ds_blkev *ev);

#define DS_BLKLAT_STARTS 32768		/* starts kept (each map) */
/* ds_blklat_tend: at most this often, issues older than this go. */
#define DS_BLKLAT_TEND_NS 5000000000ull
#define DS_BLKLAT_STALE_NS 300000000000ull
#define DS_BLKLAT_WHO_MAX 4096		/* (disk, process) entries */
#define DS_BLKLAT_LOG (1u << 22)	/* verifier log on a failed load */

/* The value of the who map. */
struct ds_blklat_whoval {
	struct ds_lat h;	/* q2c */
	uint64_t bytes;		/* of the bios completed, as queued */
	char comm[16];		/* at the first bio */
};

/*
 * What cur counted since prev (NULL: everything).  A counter gone back
 * (an entry made anew) takes cur whole.  out->max_ns is exact when the
 * interval raised the maximum, else the top of the highest bucket that
 * gained (capped by cur's maximum): within a bucket of the truth.
 */
void ds_lat_delta(const struct ds_lat *prev, const struct ds_lat *cur,
    struct ds_lat *out);

/* prev's entry with r's (w's) key, or NULL. */
const struct ds_blklat_row *ds_blklat_find(const struct ds_blklat_snap *prev,
    const struct ds_blklat_row *r);

/*
 * The request limit the in-flight count is held to: nr_requests times
 * the hardware queues (nr_requests is per queue), or the device's own
 * queue_depth when that is lower; 0 when unknown.
 */
uint64_t ds_tr_limit(const struct ds_tr_dev *d);

/* A snapshot row's histogram (lib/blkread.c), made whole and set. */
/* The histogram of s's row r. */
void ds_blklat_row_lat(const struct ds_blklat_snap *s,
    const struct ds_blklat_row *r, struct ds_lat *h);
/* h as r's histogram, its buckets appended to s's; -ENOMEM. */
int ds_blklat_row_set(struct ds_blklat_snap *s, struct ds_blklat_row *r,
    const struct ds_lat *h);

#include "stall.h"
#include "kmsg.h"
#include "cglimit.h"
#include "dirty.h"
#include "devid.h"

#include "blkslow.h"
#include "grow.h"

/*
 * A capture's samples as history points (lib/caphist.c): each one's
 * devices kept by keep, their identities as ds_devid_read reads them
 * from the sample's sys/, its uptime and wall clock (meta's, else the
 * archive's date on by uptime).  The archive fd is read in place up to
 * what the points need.  The number of points (1 or 2); 0 when the file
 * is no capture (no ustar header of a member in capture/ or a sample
 * at its start); -EINVAL with why for a damaged or hostile one; -errno.
 */
struct ds_histpt {
	struct ds_diskstats ds;
	struct ds_devids ids;
	uint64_t uptime_ns, time_ns;
	unsigned int sample;	/* the capture's sample: 0/, 1/ */
};
int ds_histpt_read(int fd, ds_base_keep keep, void *arg,
    struct ds_histpt pt[DS_CAPTURE_SAMPLES], struct ds_buf *why);
void ds_histpt_free(struct ds_histpt *pt);
/*
 * A point kept for later with its devices dropped and its identities
 * at their size; ds_histpt_disks reads the devices of sample n again
 * (its diskstats comes first: a few headers), into ds (buf: scratch).
 * 0, -ENOENT without it, -EINVAL, -ENOMEM.
 */
void ds_histpt_slim(struct ds_histpt *pt);
int ds_histpt_disks(int fd, unsigned int n, ds_base_keep keep, void *arg,
    struct ds_diskstats *ds, struct ds_buf *buf);
/* A number of capture/meta's text for key: 0, -ENOENT, -EINVAL. */
int ds_meta_u64(const char *text, const char *key, uint64_t *v);

#endif
