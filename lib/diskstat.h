/*
 * libdiskstat: Linux block-layer, pressure and process I/O accounting
 * read below a root, and one writer for every output format.  It never
 * prints or exits: 0 (or a count) or -errno; a sentence for the caller
 * goes into a struct ds_buf (1).  Nothing is kept but in the caller's
 * structures.  In the order of use: roots, reading, sampling,
 * differencing, deriving, tracing, judging, writing.
 */
#ifndef DISKSTAT_H
#define DISKSTAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define DS_VERSION "0.1.0"

/* Roots and buffers */

/*
 * Files are opened below a root: "/" live, a copied tree of /proc, /sys,
 * or a dcapture(1) capture, whose samples are trees read in turn.
 */
struct ds_root {
	int fd;			/* O_PATH descriptor of the (sample's) tree */
	int live;		/* 1 when the root is "/" */
	int top;		/* a capture's top directory (nsamples > 0) */
	unsigned int sample, nsamples;	/* a capture's: the one at fd */
	char tmp[64];		/* an archive's extraction, removed at close */
	char path[4096];	/* as given, for messages */
};

/* dir NULL: $DISKSTAT_ROOT if set and not empty, else "/". */
int ds_root_open(struct ds_root *r, const char *dir);
/* A capture's next sample: 0, or -ENOENT after its last. */
int ds_root_next(struct ds_root *r);
void ds_root_close(struct ds_root *r);

/* A growing buffer, reused across reads; data is always NUL-terminated. */
struct ds_buf {
	char *data;
	size_t len;
	size_t cap;
};

#define DS_READ_MAX (64u << 20)	/* files larger than this are refused */

void ds_buf_free(struct ds_buf *b);

/*
 * The whole file rel into b (contents replaced), read to EOF since procfs
 * says st_size 0.  Opened O_NONBLOCK: a FIFO cannot hang the caller.
 */
int ds_read_file(const struct ds_root *r, const char *rel, struct ds_buf *b);

/*
 * Checked conversions: an unsigned decimal, leading blanks skipped; a
 * sign, no digits or overflow is -EINVAL or -ERANGE.  *end (if not NULL)
 * is set past the digits; ds_strtou64 wants the whole string one number.
 */
int ds_parse_u64(const char *s, const char **end, uint64_t *out);
int ds_strtou64(const char *s, uint64_t *out);

/* Reading: disks */

/* Counter indices, in the kernel's order (Documentation/admin-guide/iostats). */
enum ds_disk_counter {
	DS_RD_IOS,		/* reads completed */
	DS_RD_MERGES,		/* reads merged */
	DS_RD_SECTORS,		/* 512-byte sectors read */
	DS_RD_TICKS,		/* ms spent reading */
	DS_WR_IOS,
	DS_WR_MERGES,
	DS_WR_SECTORS,
	DS_WR_TICKS,
	DS_IN_FLIGHT,		/* I/Os in progress now */
	DS_IO_TICKS,		/* ms the device had I/O in progress */
	DS_TIME_IN_QUEUE,	/* weighted ms: sum of each I/O's lifetime */
	DS_DC_IOS,		/* discards, 4.18+ */
	DS_DC_MERGES,
	DS_DC_SECTORS,
	DS_DC_TICKS,
	DS_FL_IOS,		/* flushes, 5.5+ */
	DS_FL_TICKS,
	DS_NCOUNTERS
};

#define DS_DISK_NAME_MAX 64

/* One line of /proc/diskstats. */
struct ds_disk {
	unsigned int major;
	unsigned int minor;
	char name[DS_DISK_NAME_MAX];
	/*
	 * Counters after the name: 4 (2.6 partitions), 11, 15, 17, or more
	 * on a newer kernel.  Counters the line lacks are 0, bit clear.
	 */
	unsigned int ncounters;
	uint32_t have;		/* bit i set: v[i] was printed */
	uint64_t v[DS_NCOUNTERS];
};

#define DS_HAVE(d, i) (((d)->have >> (i)) & 1u)

struct ds_diskstats {
	struct ds_disk *disk;
	size_t n;
	size_t cap;
	size_t bad;		/* malformed lines skipped */
	size_t first_bad;	/* 1-based line number of the first, 0 if none */
};

/* proc/diskstats parsed through window, never held whole. */
int ds_diskstats_read(const struct ds_root *r, struct ds_buf *window,
    struct ds_diskstats *out);
void ds_diskstats_free(struct ds_diskstats *s);
/*
 * The device called name, looked for first at index hint (devices keep
 * their order between reads), then from the start; NULL if none.
 */
const struct ds_disk *ds_diskstats_find(const struct ds_diskstats *s,
    const char *name, size_t hint);

/* Names of devices, sorted. */
struct ds_blockdevs {
	char **name;		/* sorted; each points into pool */
	size_t n;
	size_t cap;
	char *pool;
	size_t poolcap;
};
/* The whole disks of sys/block. */
int ds_blockdevs_read(const struct ds_root *r, struct ds_blockdevs *out);
int ds_blockdevs_has(const struct ds_blockdevs *b, const char *name);
void ds_blockdevs_free(struct ds_blockdevs *b);
/* The same, or in a tree without sys/block the diskstats names no partition. */
int ds_whole_disks(const struct ds_root *r, struct ds_buf *window,
    struct ds_blockdevs *out);
/* By the name alone: sda1, nvme0n1p2, mmcblk0p1 are; sda, dm-0, loop0 not. */
int ds_name_is_partition(const char *name);
/*
 * sys/block/DEV/dm/name into name: 0; -ENOENT when dev is no dm device,
 * -EINVAL for a name that is none, -ENAMETOOLONG when it does not fit.
 */
int ds_dm_name(const struct ds_root *r, const char *dev,
    struct ds_buf *scratch, char *name, size_t size);

/*
 * What a whole disk is, apart from this boot's kernel name: dm/uuid,
 * wwid, serial or dm/name ("wwid=naa.5000..."); "" for none (loop).
 */
#define DS_DEVID_MAX 256
int ds_devid_read(const struct ds_root *r, const char *name,
    char id[DS_DEVID_MAX]);
/* sys/block/DISK/device/queue_depth (SCSI, ATA); -ENOENT elsewhere. */
int ds_disk_queue_depth(const struct ds_root *r, const char *disk,
    struct ds_buf *scratch, uint64_t *depth);
/* 1 when the disk is virtual (virtio, xen, Hyper-V, a cloud's), else 0. */
int ds_disk_virtual(const struct ds_root *r, const char *disk,
    struct ds_buf *scratch);

/* Reading: pressure stall information (proc/pressure, cgroup *.pressure) */

enum ds_psi_res { DS_PSI_CPU, DS_PSI_IO, DS_PSI_MEMORY, DS_PSI_IRQ,
	DS_PSI_NRES };
enum ds_psi_kind { DS_PSI_SOME, DS_PSI_FULL, DS_PSI_NKINDS };

/* One line: "some avg10=0.18 avg60=0.34 avg300=0.10 total=159886802". */
struct ds_psi_line {
	uint64_t avg[3];	/* avg10, avg60, avg300: hundredths of a percent */
	uint64_t total;		/* cumulative stall, microseconds */
};

/* A file's bad lines: how many, the first, and why (ds_psi_bad_msg). */
struct ds_psi_bad {
	size_t n;		/* malformed or repeated lines skipped */
	size_t first;		/* 1-based line number of the first, 0 if none */
	unsigned char why;	/* the first's reason */
	unsigned char key;	/* the key it is about: 0-3, avg10 .. total */
};

/* One pressure file. */
struct ds_psi {
	unsigned int have;	/* bit k: the line of kind k was there */
	struct ds_psi_bad bad;
	struct ds_psi_line line[DS_PSI_NKINDS];
};

/* rel ("proc/pressure/io") read and parsed into p. */
int ds_psi_read(const struct ds_root *r, const char *rel,
    struct ds_buf *scratch, struct ds_psi *p);
/* "cpu" "io" "memory" "irq"; "some" "full".  NULL when out of range. */
const char *ds_psi_res_name(enum ds_psi_res res);
const char *ds_psi_kind_name(enum ds_psi_kind kind);
/* Why the first bad line was refused, into msg: 1; 0 when none. */
int ds_psi_bad_msg(const struct ds_psi_bad *bad, struct ds_buf *msg);

/* Reading: processes and CPU time */

enum ds_io_field {
	DS_IO_RCHAR, DS_IO_WCHAR, DS_IO_SYSCR, DS_IO_SYSCW,
	DS_IO_READ_BYTES, DS_IO_WRITE_BYTES, DS_IO_CANCELLED_WRITE_BYTES,
	DS_IO_NFIELDS
};
/* /proc/PID/io; a field that is missing or not a number has its bit clear. */
struct ds_io {
	uint64_t v[DS_IO_NFIELDS];
	uint32_t have;
};

/* A process (or thread), known by (pid, starttime): a reused pid is new. */
struct ds_proc {
	int pid;		/* process id; the thread id with DS_WHO_THREADS */
	int tgid;		/* the process a thread belongs to */
	uint64_t starttime;	/* field 22: clock ticks after boot */
	uint32_t uid;		/* owner of /proc/PID, as ps(1) takes it */
	char comm[64];
	size_t comm_len;
	char *cmdline;		/* DS_WHO_CMDLINE: NULs made spaces; or NULL */
	size_t cmdline_len;
	char *cgroup;		/* DS_WHO_CGROUP: the v2 path, or v1 lines */
	struct ds_io io;
	int io_err;		/* 0, or -errno of proc/PID/io (-EACCES) */
	uint64_t blkio_ticks;	/* field 42; summed over the threads of a
				   process when DS_WHO_DELAY is given */
	int have_blkio;
	int kthread;		/* PF_KTHREAD in stat's flags (field 9) */
};

struct ds_procs {
	struct ds_proc *p;	/* sorted by pid */
	size_t n, cap;
	uint64_t uptime_ns;	/* ds_uptime_ns() when the scan began */
	size_t unreadable;	/* kept entries whose io was -EACCES/-EPERM */
	size_t bad;		/* damaged stat (skipped) or io (kept, -) */
	int first_bad;		/* pid of the first, 0 if none */
	const char *failed;	/* on error: the path that failed */
};

#define DS_WHO_THREADS	0x1	/* one entry per thread */
#define DS_WHO_DELAY	0x2	/* sum field 42 over proc/PID/task/N/stat */
#define DS_WHO_CMDLINE	0x4	/* read proc/PID/cmdline */
#define DS_WHO_CGROUP	0x8	/* read proc/PID/cgroup */

/* Called after stat (and cmdline), before the rest is read: nonzero keeps. */
typedef int (*ds_who_keep)(const struct ds_proc *p, void *arg);

/* Scan proc (or the pids given); an unreadable io file gives io_err. */
int ds_procs_read(const struct ds_root *r, unsigned int flags,
    const int *pids, size_t npids, ds_who_keep keep, void *arg,
    struct ds_procs *out);
void ds_procs_free(struct ds_procs *ps);
const struct ds_proc *ds_procs_find(const struct ds_procs *ps, int pid);
/* Seconds the process has run at uptime_ns; 0 when not yet a tick. */
double ds_proc_age(const struct ds_proc *p, uint64_t uptime_ns, long clk_tck);
/* proc/sys/kernel/task_delayacct: 1 on, 0 off; -ENOENT before 5.14. */
int ds_delayacct_read(const struct ds_root *r, struct ds_buf *scratch);

/* The cpu line's fields, in the kernel's order (proc(5)); USER_HZ ticks. */
enum ds_cpu_field {
	DS_CPU_USER, DS_CPU_NICE, DS_CPU_SYSTEM, DS_CPU_IDLE, DS_CPU_IOWAIT,
	DS_CPU_IRQ, DS_CPU_SOFTIRQ, DS_CPU_STEAL, DS_CPU_GUEST,
	DS_CPU_GUEST_NICE, DS_CPU_N
};

#define DS_PS_CPU	1u	/* the "cpu" line was read */
#define DS_PS_BLOCKED	4u	/* procs_blocked */

/* proc/stat. */
struct ds_procstat {
	uint64_t cpu[DS_CPU_N];	/* the all-CPU line; fields it lacks are 0 */
	unsigned int ncpu_fields;	/* how many it had (4 on 2.4, 10 now) */
	unsigned int ncpus;	/* "cpuN" lines: online CPUs */
	uint64_t procs_running;	/* tasks runnable now */
	uint64_t procs_blocked;	/* tasks in an I/O wait now (D, or io_uring's
				   completion wait in S since Linux 6.5) */
	unsigned int have;	/* DS_PS_* */
};

int ds_procstat_read(const struct ds_root *r, struct ds_buf *scratch,
    struct ds_procstat *s);
/* proc/sys/kernel/osrelease into out. */
int ds_kernel_release(const struct ds_root *r, struct ds_buf *scratch,
    char *out, size_t size);

/* Reading: mounts and filesystems */

/* One line of mountinfo; strings point into the owner's text, unescaped. */
struct ds_mount {
	unsigned int id;
	unsigned int parent;
	unsigned int major, minor;	/* st_dev of the filesystem */
	char *root;		/* path of the mount's root within its fs */
	char *mnt;		/* mount point */
	char *opts;
	char *fstype;
	char *source;
	char *super_opts;
};

struct ds_mounts {
	struct ds_mount *m;
	size_t n;
	size_t cap;
	size_t bad;		/* malformed lines skipped */
	struct ds_buf text;	/* the file, owned */
};

/* rel ("proc/self/mountinfo", "proc/123/mountinfo") read and parsed. */
int ds_mountinfo_read(const struct ds_root *r, const char *rel,
    struct ds_mounts *out);
void ds_mounts_free(struct ds_mounts *ms);
/* The mount of the filesystem on major:minor (its "/" first); NULL if none. */
const struct ds_mount *ds_mount_by_dev(const struct ds_mounts *ms,
    unsigned int major, unsigned int minor);
/* 1 when a filesystem of that type and st_dev major holds a disk's data. */
int ds_fs_on_disk(const char *fstype, unsigned int major);

struct ds_fsstat {
	uint64_t dev;		/* st_dev of the directory */
	uint64_t magic;		/* f_type */
	uint64_t frsize;	/* bytes per block of the counts below */
	uint64_t blocks, bfree, bavail;	/* bavail: free to non-root */
	uint64_t files, ffree;	/* inodes; files 0: the fs does not count */
};
/* statfs of the directory path below the root. */
int ds_fsstat_read(const struct ds_root *r, const char *path,
    struct ds_fsstat *out);
/* du -sx of dir, bytes; unreadable ones in *errors; -EXDEV off dev (0: any). */
int ds_du(const struct ds_root *r, const char *dir, uint64_t dev,
    uint64_t *bytes, uint64_t *errors);

/* Sampling: clocks */

/*
 * The time base of every interval: CLOCK_BOOTTIME live (proc/uptime's
 * clock), the tree's proc/uptime otherwise.  Nanoseconds.
 */
int ds_uptime_ns(const struct ds_root *r, struct ds_buf *scratch,
    uint64_t *ns);
/* Wall clock, nanoseconds since the epoch. */
uint64_t ds_realtime_ns(void);
/* CLOCK_BOOTTIME now, nanoseconds. */
uint64_t ds_boottime_ns(void);
/* Sleep until the CLOCK_BOOTTIME deadline: 0, or -EINTR on a signal. */
int ds_sleep_until(uint64_t deadline_ns);

/* Sampling: diskstats with the time it was read */

struct ds_snap {
	uint64_t uptime_ns;
	uint64_t time_ns;	/* wall clock; 0 when the file had none */
	struct ds_diskstats ds;
	unsigned char why;	/* a file's damaged header: why (0: not), */
	size_t why_line;	/* and on which line (1-based) */
};

/* A live sample into s; -errno with *rel the file that failed. */
int ds_sample_take(const struct ds_root *r, struct ds_buf *window,
    struct ds_buf *scratch, struct ds_snap *s, const char **rel);
/* The uptime from sample a to the later b; 0 if it did not advance. */
uint64_t ds_sample_interval(const struct ds_snap *a, const struct ds_snap *b);
/* "line N: " and why s's file was refused, into msg: 1; 0 when it was not. */
int ds_snap_bad_msg(const struct ds_snap *s, struct ds_buf *msg);

/* Differencing two samples */

enum ds_delta_kind {
	DS_DELTA_OK,		/* every counter forward (ms ones mod 2^32) */
	DS_DELTA_WRAP,		/* a 32-bit request/sector counter wrapped */
	DS_DELTA_RESET,		/* counters restarted: counted from zero */
	DS_DELTA_NEW,		/* no previous sample: counted from zero */
};

/*
 * Per-counter increments from prev to cur into d (prev NULL: d = cur).
 * A counter below its previous value is a 32-bit wrap when both fit in
 * 32 bits and the increment is under 2^31, else a reset (the device was
 * added again).  d[DS_IN_FLIGHT] is cur's.  *have: counters both had.
 */
enum ds_delta_kind ds_disk_delta(const struct ds_disk *prev,
    const struct ds_disk *cur, uint64_t d[DS_NCOUNTERS], uint32_t *have);

/*
 * iowait's share of CPU time between two reads, percent (a field that
 * stepped back counts 0); -EINVAL without iowait or time between them.
 */
int ds_procstat_iowait(const struct ds_procstat *a,
    const struct ds_procstat *b, double *pct);

/* Per-second figures of one process (or a sum of processes). */
enum ds_who_col {
	DS_WR_READ, DS_WR_WRITE, DS_WR_CANCELLED, DS_WR_RCHAR, DS_WR_WCHAR,
	DS_WR_SYSCR, DS_WR_SYSCW, DS_WR_DELAY, DS_WR_N
};
struct ds_who_rate {
	double v[DS_WR_N];	/* bytes/s, calls/s; DS_WR_DELAY: seconds
				   waited per second (1.0 is 100%) */
	uint32_t have;		/* bit i: v[i] is known */
	int active;		/* any counter moved */
};
/*
 * Rates of cur over secs seconds; prev NULL or another process (pid or
 * starttime): cur's own counters.  A counter that went back counts 0.
 * delay: include DS_WR_DELAY.
 */
void ds_who_rate(const struct ds_proc *prev, const struct ds_proc *cur,
    double secs, long clk_tck, int delay, struct ds_who_rate *out);
/* Add b into a (known values only). */
void ds_who_rate_add(struct ds_who_rate *a, const struct ds_who_rate *b);

/* Deriving figures */

/* iostat -x figures of one device, in iostat's column order. */
enum ds_xcol {
	DS_X_RS, DS_X_RKBS, DS_X_RRQMS, DS_X_RRQM_PCT, DS_X_RAWAIT,
	DS_X_RAREQSZ,
	DS_X_WS, DS_X_WKBS, DS_X_WRQMS, DS_X_WRQM_PCT, DS_X_WAWAIT,
	DS_X_WAREQSZ,
	DS_X_DS, DS_X_DKBS, DS_X_DRQMS, DS_X_DRQM_PCT, DS_X_DAWAIT,
	DS_X_DAREQSZ,
	DS_X_FS, DS_X_FAWAIT,
	DS_X_AQUSZ, DS_X_UTIL,
	DS_X_N
};

struct ds_xstat {
	double v[DS_X_N];
	uint32_t have;		/* bit i: v[i] could be computed */
	uint64_t completed;	/* requests completed in the interval */
};

/*
 * iostat -x on increments d over interval_ns: *_await = dticks/dios,
 * aqu-sz = dtime_in_queue/interval, %util = dio_ticks/interval (not
 * capped); 0 when no request completed; have bit clear without counters.
 */
void ds_xstat_compute(const uint64_t d[DS_NCOUNTERS], uint32_t have,
    uint64_t interval_ns, struct ds_xstat *x);

/* A PSI share over a window, percent; have 0 unknown. */
struct ds_tr_psi {
	int have;
	double some, full;
};
/*
 * The stall share between two reads of a pressure file ns apart (a
 * NULL: b's avg10).  -ENODATA without a "some" line; -EINVAL unpaired.
 */
int ds_psi_shares(const struct ds_psi *a, const struct ds_psi *b,
    uint64_t ns, struct ds_tr_psi *out);

/* Tracing: latency histograms */

/* Buckets of growing width: ds_lat_bounds gives each one's range. */
#define DS_LAT_NB 280
struct ds_lat {
	uint64_t count;
	uint64_t sum_ns;
	uint64_t max_ns;
	uint64_t b[DS_LAT_NB];
};

/* Bucket i holds [*lo, *hi) ns; *hi is 0 for the last (no bound). */
void ds_lat_bounds(unsigned int i, uint64_t *lo, uint64_t *hi);
/* The first and last buckets in use, the largest count; -ENOENT empty. */
int ds_lat_span(const struct ds_lat *h, unsigned int *first,
    unsigned int *last, uint64_t *top);
/* Mean in ns; NaN when empty. */
double ds_lat_mean(const struct ds_lat *h);
/* The q-quantile (0 < q <= 1) in ns, interpolated in its bucket; NaN empty. */
double ds_lat_quantile(const struct ds_lat *h, double q);
/* Add src into dst. */
void ds_lat_merge(struct ds_lat *dst, const struct ds_lat *src);

/* Tracing: block-layer latency per disk and submitter, with eBPF */

/* Operations, and phases timed (btt's names): issue, queue to completion. */
enum { DS_BLK_READ, DS_BLK_WRITE, DS_BLK_DISCARD, DS_BLK_FLUSH, DS_BLK_OPS };
enum { DS_BLK_D2C, DS_BLK_Q2C, DS_BLK_Q2D, DS_BLK_PHASES };
/* "read" ... "flush", "d2c" "q2c" "q2d"; NULL out of range. */
const char *ds_blk_op_name(unsigned int op);
const char *ds_blk_phase_name(unsigned int ph);
/* "d2c,q2c" into DS_BLKLAT_PHASE bits; -EINVAL for a name not a phase. */
int ds_blk_phases_parse(const char *list, unsigned int *flags);

#define DS_BLKLAT_WHO 1u		/* also per submitting process */
/* The phases timed (none of them: all). */
#define DS_BLKLAT_PHASE(ph) (2u << (ph))
#define DS_BLKLAT_ALL (DS_BLKLAT_PHASE(DS_BLK_D2C) | \
	DS_BLKLAT_PHASE(DS_BLK_Q2C) | DS_BLKLAT_PHASE(DS_BLK_Q2D))
#define DS_BLKLAT_PROGS 4

/* A tracing session: its maps, programs and buffers. */
struct ds_blklat;

/* Missed events, by cause. */
enum {
	DS_MISS_RECURSION,	/* a program skipped: another ran on its CPU */
	DS_MISS_UNMATCHED_D2C,	/* a completion without its issue */
	DS_MISS_UNMATCHED_Q2C,	/* a completion without its queue */
	DS_MISS_MAP_FULL,	/* a histogram or who entry could not be made */
	DS_MISS_LOST,		/* issued, never seen to complete */
	DS_MISS_RING_FULL,	/* a slow request's row found its buffer full */
	DS_MISS_N
};

/* A histogram of a snapshot, its buckets kept compact (ds_blklat_delta). */
struct ds_blklat_row {
	uint32_t dev;		/* the disk (struct ds_blkdisk's dev) */
	unsigned int op, phase;
	uint64_t count, sum_ns, max_ns;
	uint32_t first, nb;	/* buckets first .. first + nb - 1 */
	size_t off;		/* their counts from bk + off (LEB128) */
	uint64_t cg;		/* DS_BLKLAT_CGROUP: the cgroup id, else 0 */
};
struct ds_blklat_who {
	uint32_t dev, pid;	/* pid: the submitter's tgid */
	char comm[16];
	uint64_t bytes;
	struct ds_lat h;
};
/* Everything counted since attach, sorted by key.  Zero it first. */
struct ds_blklat_snap {
	struct ds_blklat_row *r;
	size_t n, cap;
	unsigned char *bk;	/* the rows' bucket counts, bytes */
	size_t nbk, capbk;
	struct ds_blklat_who *w;
	size_t nw, capw;
	uint64_t miss[DS_MISS_N];
	uint64_t issued;	/* requests issued to the traced disks */
	uint64_t done;		/* DS_BLKLAT_SLOW: requests completed */
	int have_recursion;	/* the kernel counts recursion misses */
	uint64_t run_cnt[DS_BLKLAT_PROGS];	/* with BPF_ENABLE_STATS */
	uint64_t run_time_ns[DS_BLKLAT_PROGS];
};

/* A disk to trace: its name and dev_t as the tracepoints log it. */
struct ds_blkdisk {
	char name[DS_DISK_NAME_MAX];
	uint32_t dev;		/* major << 20 | minor */
};
/* sys/block's disks keep accepts (NULL: all); *ndevs with partitions. */
int ds_blkdisks_read(const struct ds_root *r,
    int (*keep)(void *, const char *), void *arg, struct ds_blkdisk **out,
    size_t *n, size_t *ndevs);
/* The name of dev among d; NULL when it is not one of them. */
const char *ds_blkdisk_name(const struct ds_blkdisk *d, size_t n,
    uint32_t dev);

/* 0 when bpf(2) can be used here; -EPERM without the capabilities. */
int ds_blklat_probe(void);
/* A session, closed; NULL with errno ENOMEM.  Delete closes it. */
struct ds_blklat *ds_blklat_new(void);
void ds_blklat_delete(struct ds_blklat *b);
/*
 * Find tracefs (mounted in a namespace of the process's own when it is
 * not: call before starting threads), make the maps for ndevs devices
 * of ndisks disks, load the programs.
 */
int ds_blklat_open(struct ds_blklat *b, unsigned int flags, size_t ndevs,
    size_t ndisks);
/* Trace each disk and its partitions (counted as the disk). */
int ds_blklat_add_disks(struct ds_blklat *b, const struct ds_root *r,
    const struct ds_blkdisk *d, size_t n);
int ds_blklat_attach(struct ds_blklat *b);
void ds_blklat_close(struct ds_blklat *b);
/* Drop issues never seen to complete; call at least every 5 s. */
int ds_blklat_tend(struct ds_blklat *b);
/* Everything counted since attach into s, the disks d idle-checked. */
int ds_blklat_take(struct ds_blklat *b, const struct ds_root *r,
    const struct ds_blkdisk *d, size_t n, const struct ds_blklat_snap *prev,
    struct ds_blklat_snap *s);
void ds_blklat_snap_free(struct ds_blklat_snap *s);
/* What cur's row r counted since prev (NULL: all); count 0: nothing. */
void ds_blklat_delta(const struct ds_blklat_snap *prev,
    const struct ds_blklat_snap *cur, const struct ds_blklat_row *r,
    struct ds_lat *out);
/*
 * "recursion", "unmatched_d2c", "unmatched_q2c", "map_full",
 * "lost_completion", "ring_full".
 */
const char *ds_blklat_miss_name(unsigned int i);
/* cur's missed events less prev's (NULL: all of them), and their sum. */
void ds_blklat_miss_delta(const struct ds_blklat_snap *prev,
    const struct ds_blklat_snap *cur, uint64_t m[DS_MISS_N],
    uint64_t *total);
/* Each submitter's figures, cur less prev, by disk then most bytes. */
int ds_blklat_who_delta(const struct ds_blklat_snap *prev,
    const struct ds_blklat_snap *cur, struct ds_blklat_who **out, size_t *n);

/* Judging: a window's findings from what was read over it */

enum ds_tr_sev { DS_TR_OK, DS_TR_INFO, DS_TR_WARN, DS_TR_CRIT };
/* "ok" "info" "warn" "crit"; NULL out of range. */
const char *ds_tr_sev_name(enum ds_tr_sev s);

/* A disk's latency traced over the window, in us. */
struct ds_tr_lat {
	double d2c_mean, d2c_p99;	/* issue to completion */
	double q2c_mean, q2c_p99;	/* bio queued to completion */
	uint64_t count;		/* requests timed */
};

/* The traced submitter of the most bytes to one disk over the window. */
struct ds_tr_load {
	int pid;		/* 0: none */
	char comm[16];
	uint64_t bytes;		/* its bytes to the disk */
	uint64_t total;		/* every submitter's bytes to the disk */
};

/* A disk's quiet-time history, from the snapshots kept of it. */
struct ds_base_dev;

struct ds_tr_dev {
	const char *name;	/* kernel name */
	struct ds_xstat x;	/* the iostat -x figures over the window */
	const uint32_t *inflight;	/* in_flight, read often in the window */
	size_t ninflight;
	/* Queue attributes; 0 where unknown. */
	uint64_t nr_requests;	/* per hardware queue */
	uint64_t nr_hw_queues;	/* mq/N directories; 0 unknown (or bio) */
	uint64_t queue_depth;	/* device/queue_depth (SCSI, ATA) */
	int rotational;		/* 1, 0; -1 unknown */
	const char *sched;	/* active scheduler ("none"); NULL unknown */
	int nomerges;		/* 0, 1, 2; -1 unknown */
	int virt;		/* a virtual disk: 1, 0, -1 unknown */
	const struct ds_tr_lat *lat;	/* NULL: not traced */
	struct ds_tr_load load;	/* traced: the disk's largest load */
	const struct ds_base_dev *base;	/* NULL: no quiet-time baseline */
};

struct ds_tr_proc {
	int pid;
	const char *comm;
	int kthread;		/* a kernel thread (jbd2, kworker, kswapd) */
	struct ds_who_rate rate;	/* over the window */
};

/* A holder of deleted-open space on a filesystem. */
struct ds_tr_holder {
	int pid;
	int fd;			/* -1: a mapping */
	const char *comm;
	uint64_t bytes;		/* allocated, bytes */
};

struct ds_tr_fs {
	const char *mount;	/* mount point */
	const char *fstype;
	int memory;		/* tmpfs and the like: RAM, not disk */
	int have_stat;
	struct ds_fsstat st;
	int have_deleted;	/* deleted-open files were looked for */
	uint64_t held;		/* bytes allocated by deleted-open files */
	uint64_t held_files, held_procs;
	const struct ds_tr_holder *holder;	/* largest first */
	size_t nholder;
};

/* A thread seen in an I/O wait (D, or io_uring's wait in S) at a look. */
struct ds_tr_task {
	int pid, tid;
	int wait;		/* what it waits in: a disk, a tag, io_uring.. */
	int kthread;
	unsigned int look;	/* which look of the window */
	char comm[16];		/* the thread's */
};

/* What a process the judgement names holds open. */
struct ds_tr_fds {
	int pid;
	size_t uring;		/* io_uring instances */
	size_t cached;		/* files a page cache can serve */
	size_t other;		/* pipes, sockets, character devices */
	const char *netfs;	/* a network or FUSE mount its files are on */
	const char *netfs_type;	/* its fstype */
	int netfs_only;		/* every cached file is on such a mount */
};

/* A cgroup's I/O limit on a disk and its rate over the window. */
struct ds_tr_iolim {
	const char *cgroup;
	int v1;			/* blkio.throttle, else io.max */
	const char *disk;	/* the disk's name; NULL not a whole disk */
	uint64_t lim[4];	/* rbps wbps riops wiops; UINT64_MAX none */
	double rate[4];		/* over the window, the same units */
	int have_rate;
	uint64_t lat_target_us;	/* io.latency */
	int have_lat;
	double lat_avg_us;	/* io.stat avg_lat */
	int have_latstat;
	uint64_t lat_depth;	/* io.stat depth io.latency allows; 0 unknown */
	double cost_wait;	/* iocost: share of the window waited; -1 */
	const int *pids;	/* its tasks */
	size_t npids;
};

/* A cgroup with a memory limit, over the window. */
struct ds_tr_memcg {
	const char *cgroup;
	int v1;
	uint64_t limit, usage;	/* bytes, at the window's end */
	double refault_bps;	/* bytes refaulted a second (file + anon) */
	int have_refault;
	double psi_some, psi_full;	/* percent of the window; have_psi */
	int have_psi;
	uint64_t failcnt;	/* v1: hits of the limit in the window */
	const int *pids;
	size_t npids;
};

/* Dirty pages against their limit (proc/vmstat, proc/sys/vm). */
struct ds_tr_dirty {
	int have;
	double dirty, writeback;	/* bytes, at the window's end */
	double thresh, bg_thresh;	/* bytes: the kernel's limits */
	double dirtied_bps, written_bps;	/* over the window */
	uint64_t bytes, ratio;		/* vm.dirty_bytes, vm.dirty_ratio */
	uint64_t bg_bytes, bg_ratio;	/* the background pair */
};

/* Block I/O errors of a disk in the window. */
struct ds_tr_err {
	const char *disk;
	uint64_t count;		/* kernel log messages */
	uint64_t suppressed;	/* ratelimited: more may have happened */
	uint64_t sector;
	int have_sector;
	const char *op, *kind;	/* of the first */
	uint64_t scsi_ioerr, scsi_iotmo;	/* SCSI counters' increments */
};

/* Everything known of the window; pointers NULL and counts 0 unknown. */
struct ds_triage_in {
	double window_s;	/* length of the window, seconds */
	int since_boot;		/* a captured tree: counters since boot */
	struct ds_tr_dev *dev;
	size_t ndev;
	struct ds_tr_psi io, mem;
	const uint32_t *blocked;	/* procs_blocked samples */
	size_t nblocked;
	unsigned int ncpus;	/* 0 unknown */
	int have_iowait;
	double iowait_pct;	/* ds_procstat_iowait */
	struct ds_tr_proc *proc;
	size_t nproc;
	int delayacct;		/* 1 on, 0 off, -1 unknown */
	size_t procs_unreadable;	/* processes whose io was unreadable */
	size_t fds_unreadable;	/* processes whose descriptors were */
	struct ds_tr_fs *fs;
	size_t nfs;
	const char *base_dir;	/* where the baseline was looked for */
	int have_base;		/* a baseline directory was read */
	int have_dlat;		/* block-latency tracing ran */
	const char *dlat_why;	/* live without tracing: why */
	const struct ds_tr_task *task;	/* who waited, at which look */
	size_t ntask;
	size_t nlooks;
	const uint32_t *look_inflight;	/* per look: in flight on all disks */
	const struct ds_tr_fds *fds;
	size_t nfds;
	const char *kernel;	/* proc/sys/kernel/osrelease; NULL unknown */
	const struct ds_tr_iolim *iolim;
	size_t niolim;
	const struct ds_tr_memcg *memcg;
	size_t nmemcg;
	struct ds_tr_dirty dirty;
	const struct ds_tr_err *err;
	size_t nerr;
	const char *err_why;	/* the kernel log unread live: why */
};

/* One finding row. */
struct ds_finding {
	enum ds_tr_sev sev;
	const char *finding;	/* a stable keyword (static) */
	char subject[128];	/* device, "PID COMM", mount point, or "-" */
	double value;		/* in base units: see the finding's unit */
	const char *unit;	/* "s", "bytes", "bytes/s", "ratio", "count" */
	char evidence[640];
	char next[192];		/* the command of this suite that shows more */
};

struct ds_findings {
	struct ds_finding *f;
	size_t n, cap;
	enum ds_tr_sev worst;
};

/* A window's findings, the verdict first, then by severity; pure. */
int ds_triage(const struct ds_triage_in *in, struct ds_findings *out);
/* 3 when some finding is warn or above, else 0: an exit status. */
int ds_triage_exit(const struct ds_findings *f);
void ds_findings_free(struct ds_findings *f);

/* Writing: one writer for TSV, JSON lines, a table and Prometheus text */

enum ds_fmt { DS_FMT_TSV, DS_FMT_JSON, DS_FMT_TABLE, DS_FMT_PROM };

enum ds_type {
	DS_T_STR,		/* text, escaped per format */
	DS_T_U64,		/* exact unsigned integer */
	DS_T_I64,
	DS_T_F2,		/* double, two decimals (iostat's precision) */
	DS_T_TIME,		/* Unix time in ns, printed as seconds.millis */
	DS_T_G,			/* double, ten significant digits (ds_w_f) */
	DS_T_F3,		/* double, three decimals (ds_w_f) */
	DS_T_NULL,		/* a cell with no value; no column's type */
};

enum ds_prom {
	DS_P_NONE,		/* not exported to Prometheus */
	DS_P_LABEL,		/* becomes a label of every metric of the row */
	DS_P_GAUGE,
	DS_P_COUNTER,		/* name must end in _total */
};

struct ds_col {
	const char *name;	/* column name: TSV header, JSON key */
	enum ds_type type;
	enum ds_prom prom;
	const char *metric;	/* metric name without the writer's prefix,
				   or the label name for DS_P_LABEL */
	const char *help;
	/*
	 * To base units for Prometheus: a U64 divided by 10^div10 (ms to
	 * s: 3); a F2 multiplied by scale when not 0 (percent: 0.01).
	 */
	unsigned int div10;
	double scale;
	unsigned int flags;	/* DS_C_* */
};

#define DS_C_WIDE	1u	/* left out of the default table (-O +COL) */
#define DS_C_KB		2u	/* value in KiB: DS_W_HUMAN shows human units */
#define DS_C_BYTES	4u	/* value in bytes: likewise */
#define DS_C_FILL	16u	/* table: cut with "..." to fit DS_TABLE_COLS */
#define DS_C_RIGHT	32u	/* table: a text column aligned right */

#define DS_TABLE_COLS	160	/* the width a default table keeps within */

#define DS_W_HUMAN	1u	/* table: DS_C_KB/DS_C_BYTES as 4G, 251.9M */
#define DS_W_UTC	2u	/* table: time in UTC, not local time */

/*
 * Rows are given a cell at a time in column order, then ended.  TSV and
 * JSON go straight to out; table and prom are held until the report
 * ends (aligned, grouped by metric).
 */
struct ds_writer;

/* prefix: the metrics' ("node_disk"); NULL with errno EINVAL, ENOMEM. */
struct ds_writer *ds_writer_new(FILE *out, enum ds_fmt fmt,
    const struct ds_col *cols, size_t ncols, int header, const char *prefix);
void ds_writer_delete(struct ds_writer *w);
/*
 * The columns shown: spec NULL or "" the default (a table leaves out
 * DS_C_WIDE), "+A,B" the default and A, B; "A,B" those.  -EINVAL with
 * *bad, *badlen at an unknown name.  Before the first cell.
 */
int ds_writer_select(struct ds_writer *w, const char *spec,
    const char **bad, size_t *badlen);
/* DS_W_HUMAN, DS_W_UTC; only table format uses them. */
void ds_writer_opts(struct ds_writer *w, unsigned int opts);

void ds_w_str(struct ds_writer *w, const char *s);
void ds_w_strn(struct ds_writer *w, const char *s, size_t len);
void ds_w_u64(struct ds_writer *w, uint64_t v);
void ds_w_i64(struct ds_writer *w, int64_t v);
void ds_w_f(struct ds_writer *w, double v);	/* F2 G F3 or TIME columns */
void ds_w_time(struct ds_writer *w, uint64_t unix_ns);
void ds_w_null(struct ds_writer *w);
/* End a row: 0, or the first failure (-errno) since the writer began. */
int ds_w_row_end(struct ds_writer *w);
/* End a report: held rows printed, then fflush.  0 or the first -errno. */
int ds_w_report_end(struct ds_writer *w);
/* The same for w2, whose rows follow w's where w writes. */
int ds_w_report_end_into(struct ds_writer *w2, struct ds_writer *w);
/* Bytes as they are, where the rows go. */
void ds_w_raw(struct ds_writer *w, const void *p, size_t len);
/* The first failure (-errno) since the start or the last commit, or 0. */
int ds_writer_error(const struct ds_writer *w);
/*
 * After ds_writer_to_file, rows go to a file beside path that commit
 * renames over it (the report ended), abort removes: then the stream.
 */
int ds_writer_to_file(struct ds_writer *w, const char *path);
int ds_writer_commit(struct ds_writer *w);
void ds_writer_abort(struct ds_writer *w);
/* A line a column: its name, "(+) " for DS_C_WIDE, its help. */
int ds_writer_help(const struct ds_writer *w, FILE *fp);

/* Text for a terminal: control bytes, bad UTF-8, bidi controls as \xHH. */
int ds_esc_msg(struct ds_buf *b, const char *s, size_t len);

#endif
