/*
 * What the suite's own tools use beyond the API (diskstat.h): layouts
 * of types the API keeps opaque, and shared helpers.  Never installed;
 * may change in any release.  lib/internal.h, the library's own
 * header, includes it too.
 */
#ifndef DISKSTAT_SUITE_H
#define DISKSTAT_SUITE_H

#include "diskstat.h"

/* Captures (dcapture(1)): a top directory of samples 0/, 1/ and capture/ */

#define DS_CAPTURE_META "capture/meta"	/* key value lines */
#define DS_CAPTURE_SAMPLES 2u		/* 0/: the window's start, 1/: end */

#define DS_CAPTURE_MEMBERS 1000000u	/* an archive's members at most */
#define DS_CAPTURE_MEMBER_MAX (64u << 20)	/* bytes of one member */
#define DS_CAPTURE_TOTAL_MAX (2ull << 30)	/* bytes of all members */

/*
 * The archive at path (a regular file, POSIX ustar) extracted into a
 * new private directory (0700, under $TMPDIR or /tmp), its name into
 * tmp; every member checked first (no absolute name, no "..", names in
 * a sample 0/ to 9/ or capture/, no link out of its sample, no path
 * through a link, only files, links and directories, each name once,
 * the bounds above).  -EINVAL for a malformed archive; on any error
 * nothing is left.  ds_capture_check says why.
 */
int ds_capture_extract(const char *path, char *tmp, size_t n);
/*
 * Why ds_root_open(r, path) fails, into why: "member 3 (0/x/f): a path
 * through the link 0/x" for an archive, "not a capture: ..." for an
 * archive or directory without capture/meta or sample 0/; empty when
 * the error is the errno alone (ENOENT, EACCES), or when path opens.
 * The same -errno as ds_root_open, or 0.  It extracts the archive again
 * (and removes it): call it after a failure, for the message.
 */
int ds_capture_check(const char *path, struct ds_buf *why);
/*
 * Two captures (archives or directories, of one sample or two) made one
 * two-sample root: sample 0 the last sample of OLD, sample 1 the last
 * of NEW, capture/meta composed from both (samples 2, uptime0 and time0
 * from OLD's last, uptime1 and time1 from NEW's, window_ns between),
 * nothing else of capture/ (a pair has no ticks nor traces).  Built in
 * one private directory that ds_root_close removes.  -EINVAL when OLD
 * and NEW are of different boots (boot_id; counters restart at boot),
 * when NEW was not taken after OLD, or as ds_root_open (each side's
 * capture/meta checked as ds_root_open checks a capture's).
 * ds_capture_pair_check says why, as ds_capture_check: "OLD: member
 * 3 ...", "OLD and NEW: ...".
 */
int ds_root_open_pair(struct ds_root *r, const char *old, const char *new);
int ds_capture_pair_check(const char *old, const char *new,
    struct ds_buf *why);
/* The directory dir and all below it removed (links not followed). */
int ds_tree_remove(const char *dir);
/* A file of the capture's top (rel "capture/..."): -ENOENT if not one. */
int ds_capture_read(const struct ds_root *r, const char *rel,
    struct ds_buf *b);
/*
 * A capture's meta value for key (a number): 0; -ENOENT when r is not a
 * capture or has no such key; -EINVAL when it is not a number.
 */
int ds_capture_u64(const struct ds_root *r, const char *key,
    struct ds_buf *scratch, uint64_t *v);
/*
 * The wall clock (ns since the epoch) of the root's sample: a capture's
 * meta timeN for sample N; now for the live system, a copied tree, or a
 * capture whose meta lacks it.
 */
uint64_t ds_root_time_ns(const struct ds_root *r);

/* Reading: files a line at a time, device operands, snapshot files */

/*
 * A file read a line at a time through a window of fixed size, so that
 * memory stays the window's whatever the file's size (diskstats of
 * thousands of devices, snapshots of it).  The checks of ds_read_file
 * hold: opened O_NONBLOCK, a FIFO with a silent writer is -EINVAL, a
 * directory -EISDIR, more than DS_READ_MAX bytes -EFBIG.  On an error
 * the window is left empty and the error is returned again by every
 * later ds_lines_next.
 */
#define DS_LINES_WINDOW (64u << 10)	/* doubled once for a long file */

struct ds_lines {
	int fd;
	int own;		/* fd is closed by ds_lines_close */
	struct ds_buf *b;	/* the window: the caller's, reused */
	size_t pos;		/* where the next line starts in b */
	size_t total;		/* bytes read */
	size_t lineno;		/* 1-based number of the last line given */
	int cut;		/* the last line was cut (too long) */
	int skip, eof, err, ready, again;
	char *last;
	size_t lastlen;
};

void ds_lines_close(struct ds_lines *l);

/*
 * The writer's layout, for a writer made by value (ds_writer_init and
 * ds_writer_free) rather than by ds_writer_new.  Held cells: a table's
 * and prom's rows until the report ends.
 */
struct ds_cell {
	enum ds_type type;	/* as given or converted; DS_T_NULL: none */
	union {
		uint64_t u;
		int64_t i;
		double d;
		struct { size_t off, len; } s;
	} v;
};

struct ds_writer {
	FILE *out;
	enum ds_fmt fmt;
	const struct ds_col *cols;
	size_t ncols;
	int header;		/* print the header line (tsv, table) */
	int header_done;
	const char *prefix;	/* metric prefix, e.g. "node_disk" */
	size_t col;		/* next column of the current row */
	int error;		/* first -errno of a failed call, sticky */
	size_t reports;		/* reports ended so far */
	/* held rows (table, prom) */
	struct ds_cell *cells;
	size_t ncells, capcells;
	struct ds_buf text;	/* strings of held cells */
	struct ds_buf line;	/* scratch for one row (tsv, json) */
	/* what a person sees: ds_writer_select(), ds_writer_opts() */
	size_t *view;		/* columns shown, in order */
	size_t nview;
	int viewed;		/* view differs from every column in order */
	unsigned int opts;	/* DS_W_* */
	size_t *width;		/* table: widths, kept across reports */
	int dates;		/* table: times carry their date from now on */
	long day0;		/* table: the local day the writer began */
	/* where rows go: ds_writer_to_file() */
	FILE *stream;		/* the stream given to ds_writer_init() */
	struct ds_atomic *file;	/* the report's file, or NULL: stream */
	int stream_header_done;	/* the stream's, kept while on a file */
	size_t stream_reports;
};

int ds_writer_init(struct ds_writer *w, FILE *out, enum ds_fmt fmt,
    const struct ds_col *cols, size_t ncols, int header, const char *prefix);
void ds_writer_free(struct ds_writer *w);

/*
 * Atomic output file: ds_atomic_open() creates a temporary file beside
 * path; ds_atomic_commit() flushes, fsyncs and renames it over path, or
 * removes it and returns -errno if anything failed, so a reader never
 * sees a half-written file and the old one survives an error.
 */
struct ds_atomic {
	FILE *fp;
	char tmp[4096];
	char path[4096];
};

/*
 * The quiet-time baseline: a directory of snapshot files and captures
 * (DS_BASE_DIR, or DS_BASE_DIR_OLD of older releases), their points
 * (a file, a capture's sample) read in time order and paired one after
 * the other; each device gets one
 * record per interval, of which the last DS_BASE_KEEP are kept (a week
 * of 5-minute snapshots is 2016), so memory is bounded by the devices
 * kept times DS_BASE_KEEP x 28 bytes (56 KiB) whatever the number of
 * files; pass a keep function to hold only the devices asked about.
 */
#define DS_BASE_KEEP 2048
#define DS_BASE_DIR "/var/lib/diskstat"
#define DS_BASE_DIR_OLD "/var/lib/dxstat"

/* One interval of one device; float is enough for medians. */
struct ds_base_iv {
	float aqu;		/* aqu-sz */
	float r_await, w_await;	/* ms */
	float iops;		/* (r + w + d)/s */
	float kbs;		/* (rkB + wkB)/s */
	uint32_t r_ios, w_ios;	/* requests in the interval (capped) */
};

struct ds_base_dev {
	char name[DS_DISK_NAME_MAX];
	char *id;		/* the device's identity; "": none recorded */
	struct ds_base_iv *iv;	/* ring of up to DS_BASE_KEEP */
	size_t niv, ivcap, head;	/* kept, room; the oldest's place when full */
	size_t intervals;	/* paired intervals seen, kept or not */
	size_t resets;		/* intervals skipped: counters restarted */
	/* From ds_base_finish: */
	size_t quiet_r, quiet_w;	/* quiet intervals with reads, writes */
	double r_await, w_await;	/* ms: medians over those; 0 if too few */
	double aqu;		/* median aqu-sz of the quiet intervals */
	double iops_ceil, kbs_ceil;	/* p95 over intervals with I/O */
	/*
	 * aqu-sz range of the intervals at the ceiling (throughput at least
	 * 95% of the p95): a wide range means the throughput stayed flat
	 * while the queue grew.
	 */
	double ceil_aqu_min, ceil_aqu_max;
	size_t ceil_n;
};

struct ds_base {
	struct ds_base_dev *d;	/* sorted by name after ds_base_finish */
	size_t n, cap;
	size_t files;		/* points read: snapshot files, capture samples */
	size_t skipped;		/* files that were no snapshot (not counted) */
	size_t damaged;		/* captures refused: damaged, or hostile */
	char damaged_msg[512];	/* the first one's name: why */
	size_t series;		/* runs of one boot each (a reboot splits) */
	size_t pairs;		/* intervals paired */
	size_t id_split;	/* device intervals not paired: the name's
				   identity changed, or is unknown and the
				   directory records several for it */
	uint64_t first_ns, last_ns;	/* wall clock of first and last file,
					   0 when they had no time line */
	char first_bad[256];	/* the first file skipped, for a message */
};

/* Which devices to keep (name: kernel name); NULL keeps every one. */
typedef int (*ds_base_keep)(const char *name, void *arg);
/*
 * Read every regular file of the directory dir (below the root) whose
 * header is a snapshot's, and every capture (an archive: each sample
 * a point, its time meta's or the archive's date, its identities read
 * from its sys/ as ds_devid_read reads them); other files are counted
 * in skipped, damaged captures in damaged.  Points are ordered by
 * their time (a file's mtime when it has no time line), then uptime.
 * A point whose uptime is not above its predecessor's, or whose
 * boot time (time - uptime) moved by more than 60 s, starts a new
 * series: it is not paired with the one before.  A device is paired
 * with its own previous line by name, when both files give the name the
 * same identity (their "id" lines; a file without one for the name is
 * taken to give the one the other files give, when they give only one);
 * a device that appears is paired from its second file on; counters
 * that restarted (ds_disk_delta's reset) skip that interval.  Each
 * identity of a name keeps its own history.  Calls ds_base_finish.
 * Replaces out.
 */
int ds_base_read(const struct ds_root *r, const char *dir, ds_base_keep keep,
    void *arg, struct ds_base *out);
/* The same on an open directory (the caller's; not closed). */
int ds_base_read_fd(int dirfd, ds_base_keep keep, void *arg,
    struct ds_base *out);

/*
 * The baseline of the device name whose identity is now id (NULL or "":
 * unknown), or NULL (after ds_base_finish): the history of that
 * identity; a history no file gave an identity, whatever id is; with id
 * unknown, the name's history when it has only one.
 */
const struct ds_base_dev *ds_base_find(const struct ds_base *b,
    const char *name, const char *id);

/*
 * Each device of a later sample with its line in an earlier one.
 * Devices keep their order between samples, so the search starts where
 * the last match points (shift: its index minus the row's), then just
 * before it (an order turned round): one device removed, added or the
 * whole list reversed costs no scan per row.  compares counts the name
 * comparisons made, so that a test can tell linear from quadratic.
 * Zero it (or its shift) at the start of each report.
 */
struct ds_pair {
	ptrdiff_t shift;
	uint64_t compares;
};
/* c's line in prev (c is row i of its own sample); NULL if none. */
const struct ds_disk *ds_pair_find(struct ds_pair *pr,
    const struct ds_diskstats *prev, const struct ds_disk *c, size_t i);

/*
 * A set of names, exact, in one pool with an open-addressing table of
 * offsets: about 20 bytes a name.  Zeroed is empty.
 */
struct ds_names {
	char *pool;
	size_t len, cap;
	uint32_t *slot;		/* offset + 1; 0 empty */
	size_t nslot, n;
};

/*
 * The earlier of two snapshot files, read along with the later one.
 * Each device of the later file is most often the next one of the
 * earlier: it is then never stored.  Devices read past on the way
 * (removed since) are kept in pend, where a device that moved back is
 * still found; a device new in the later file reads the earlier to its
 * end, into pend.
 *
 * A device of the later file found in neither is new, or listed twice
 * in the later file: its earlier line was used up by the first, and
 * counting it from zero would be a wrong row.  To tell them apart, the
 * names of the whole earlier file are gathered, only then (read again
 * from start), or as it is read when it cannot be read again (a pipe).
 *
 * Opened with ds_older_open.
 */
struct ds_older {
	struct ds_lines l;
	int fd;
	const char *what;		/* the caller's: the file's name */
	struct ds_diskstats pend;	/* read, not yet matched; its bad and
					   first_bad count damaged lines */
	struct ds_disk next;		/* the last one found */
	struct ds_names all;		/* every name of the earlier file */
	struct ds_names fresh;		/* later devices not in the earlier */
	int64_t start;			/* where the file began (fd's offset);
					   -1: unknown, not read again */
	int have_all;			/* all is complete */
	int seekable;
	size_t twice;			/* the caller's: later lines listed
					   again, and the first one's line */
	size_t first_twice;
	int eof;
};

/*
 * The same for one report: procfs's text read whole into s->ds (1, l
 * closed); a file that holds still (a captured tree) left open in l for
 * ds_rows (0).  -errno with *rel as ds_sample_take, nothing left open.
 */
int ds_sample_open(const struct ds_root *r, struct ds_lines *l,
    struct ds_buf *window, struct ds_buf *scratch, struct ds_snap *s,
    const char **rel);

/*
 * The rows of a sample read line by line from l (a file that holds
 * still), each with its line in an earlier snapshot file read along (o;
 * NULL: none, every row counted from zero).
 * ds_rows_next gives the next row in *c and its earlier line in *p
 * (NULL: none; valid until the next call): 1; at the end 0, with o read
 * to its end; -errno with failed the name of the file.  A device listed
 * again in l is no row (counted in o->twice).  Zero it with
 * ds_rows_init.
 */
struct ds_rows {
	struct ds_lines *l;
	struct ds_older *o;
	const char *what;		/* l's name, for messages */
	struct ds_diskstats bad;	/* l's damaged lines (counts only) */
	size_t i;			/* rows given */
	const char *failed;		/* after -errno: whose file */
};
void ds_rows_init(struct ds_rows *rs, struct ds_lines *l, struct ds_older *o,
    const char *what);
int ds_rows_next(struct ds_rows *rs, struct ds_pair *pr, struct ds_disk *c,
    const struct ds_disk **p);

/* Pressure: why a line was refused, triggers, waiting, cgroup samples */

/* Why a line was refused, for the message: what, and which key. */
enum ds_psi_why_kind {
	DS_PSI_WHY_NONE,
	DS_PSI_WHY_FIELDS,	/* more than 16 fields */
	DS_PSI_WHY_KIND,	/* not "some" or "full" */
	DS_PSI_WHY_REPEAT,	/* a second line of its kind */
	DS_PSI_WHY_TWICE,	/* a key twice */
	DS_PSI_WHY_DECIMALS,	/* an average with a third decimal */
	DS_PSI_WHY_PERCENT,	/* an average not 0.00 to 100.00 */
	DS_PSI_WHY_COUNT,	/* total not a u64 */
	DS_PSI_WHY_MISSING	/* a key not there */
};

/*
 * A comma-separated list of resources ("io,cpu") into order, each once,
 * in the order first named; *n of them.  -EINVAL at a name that is not
 * one, with *bad and *badlen on it.
 */
int ds_psi_res_list(const char *arg, enum ds_psi_res *order, size_t *n,
    const char **bad, size_t *badlen);

/* A trigger: "io:some:150ms/2s" is 150000 us of stall within 2 s. */
struct ds_psi_trigger {
	enum ds_psi_res res;
	enum ds_psi_kind kind;
	uint64_t stall_us;
	uint64_t window_us;
};

/*
 * Why the total is to be sampled instead of a trigger armed, from the
 * -errno of ds_psi_trigger_open (arming 0) or of ds_psi_trigger_arm
 * (arming 1): DS_PSI_NOWRITE no write access, DS_PSI_REFUSED a kernel
 * before 5.2 (read-only files); 0 when e is no reason to (an error).
 * DS_PSI_NOTKERNEL is for a file ds_psi_trigger_supported says is not
 * the kernel's.  ds_psi_fallback_msg: the reason into msg, 1; 0 (msg
 * empty) when why is none of them; -ENOMEM.
 */
enum { DS_PSI_NOWRITE = 1, DS_PSI_NOTKERNEL, DS_PSI_REFUSED };
int ds_psi_fallback_msg(int why, struct ds_buf *msg);

/*
 * A trigger's test made from samples of the total, where the kernel has
 * no trigger: a ring of (time, total), sampled every tenth of the
 * window (50 ms at least); a sample crosses the threshold when the
 * total grew by stall_us since the oldest sample within the window
 * (half a period of slack), a total below it counting from zero (a
 * reset).  After a crossing the window starts again at that sample: one
 * event per window, as the kernel's.  Times are CLOCK_BOOTTIME ns.
 */
#define DS_PSI_RING 12
struct ds_psi_window {
	uint64_t total[DS_PSI_RING];	/* oldest first */
	uint64_t t_ns[DS_PSI_RING];
	size_t n;
	uint64_t period_ns, window_ns, stall_us;
};

/*
 * Is an event of the armed trigger real?  The first needs the total
 * grown by the trigger's stall since the baseline (a freshly armed
 * trigger can fire at once); each later one, some stall since the last
 * event (the kernel rate-limits them to one per window).
 */
struct ds_psi_armed {
	uint64_t base;		/* total at the baseline or the last event */
	uint64_t need_us;
};

/*
 * Either of the two, one way to wait: the trigger armed on fd, or with
 * fd -1 the total sampled (ds_psi_window), from the baseline base read
 * at now_ns.  ds_psi_wait_next waits for an event or the next sample
 * (ds_psi_trigger_poll, ds_psi_window_wait: 1 when the total is to be
 * read); ds_psi_wait_add takes the total read at now_ns: 1 when it is
 * an event.
 */
struct ds_psi_wait {
	int fd;			/* the armed trigger; -1: sampling */
	struct ds_psi_armed armed;
	struct ds_psi_window win;
};
void ds_psi_wait_init(struct ds_psi_wait *pw, int fd,
    const struct ds_psi_trigger *tr, uint64_t base, uint64_t now_ns);
int ds_psi_wait_next(const struct ds_psi_wait *pw, uint64_t deadline_ns);
int ds_psi_wait_add(struct ds_psi_wait *pw, uint64_t total, uint64_t now_ns);

/* One cgroup (or the whole system) in one sample. */
struct ds_psi_cg {
	char *path;		/* NULL: the system, from proc/pressure */
	unsigned int ok;	/* bit r: resource r read */
	struct ds_psi p[DS_PSI_NRES];
	const struct ds_psi_cg *prev;	/* the same cgroup the sample before */
};
/* A problem met reading a sample, in the order met. */
struct ds_psi_note {
	char *path;		/* the cgroup's, NULL: the system's */
	int res;		/* the file's resource; -1: a subtree left out */
	int e;			/* -errno; 0: malformed lines skipped */
	struct ds_psi_bad bad;	/* with e 0 or -EINVAL: the bad lines (none:
				   an empty file) */
};
struct ds_psi_sample {
	struct ds_psi_cg *cg;
	size_t n, cap;
	uint64_t up_ns;		/* ds_uptime_ns when read, 0: unknown */
	struct ds_psi_note *note;
	size_t nnote, capnote;
};

/* What a sample reads. */
struct ds_psi_src {
	const struct ds_root *r;
	int topfd;		/* the cgroup or the walk's top; -1: the system */
	const char *top;	/* its path below the mount: "/" or "/PATH" */
	int all;		/* each cgroup below top (not top itself) */
	const enum ds_psi_res *order;	/* the resources, in order */
	size_t nres;
	int explicit;		/* resources named: a missing file is noted */
	struct ds_buf *scratch;
};
/*
 * Read a sample afresh (s cleared first, up_ns left alone): the system,
 * the cgroup topfd, or with all each cgroup below it (one without any
 * pressure file left out).  Problems go to s->note: a file that could
 * not be read or had malformed lines, a subtree the walk could not
 * enter or left out for want of descriptors; a missing file only when
 * resources are explicit and not in a walk.  0, or -errno: -EOPNOTSUPP
 * when a file says PSI is off (its note last), -ENOMEM, the walk's
 * error.  When the system or the cgroup gave nothing (s empty):
 * -ENOENT no proc/pressure (no PSI in this kernel), -ENODATA
 * proc/pressure without the files; for a cgroup, as
 * ds_psi_cgroup_nofiles.
 */
int ds_psi_sample_read(const struct ds_psi_src *src, struct ds_psi_sample *s);

void ds_psi_sample_free(struct ds_psi_sample *s);
/* The line of resource r, kind k, of c; NULL when c has none (or c NULL). */
const struct ds_psi_line *ds_psi_cg_line(const struct ds_psi_cg *c,
    enum ds_psi_res r, enum ds_psi_kind k);

/*
 * A cgroup opened by its path (NULL: ""), made "/" followed by it
 * without leading or trailing '/' ("a/b/" is "/a/b"): its directory
 * below the cgroup2 mount of the mount table, with *top its path and
 * mnt (size bytes) the mount point; or -errno: -ENOMEM with *top NULL,
 * with mnt "" the mount table's (-ENOENT: no cgroup2 mount), else the
 * directory's (-EINVAL: ".." leaves the hierarchy).  *top is the
 * caller's to free, whatever the return.
 */
int ds_cgroup_top_open(const struct ds_root *r, const char *path,
    char **top, char *mnt, size_t size);

/*
 * Processes and cgroups: process scans and their I/O rates, the cgroup
 * v2 tree and its io.stat, CPU time from /proc/stat.
 */

/*
 * Walk every cgroup below and including the directory topfd, parents
 * first, siblings in name order, by openat() from the parent's fd.  fn
 * gets each cgroup's directory fd (valid during the call) and its path
 * relative to the top ("/", "/system.slice").  A cgroup removed during
 * the walk is skipped.  A subtree that cannot be walked (deeper than
 * DS_CGROUP_DEPTH_MAX: -ELOOP; out of descriptors: -EMFILE; unreadable)
 * is left out and fn is called with that -errno as dirfd and the
 * subtree's path, so the caller can name it.  fn returning
 * DS_CGROUP_PRUNE leaves the cgroup's children out; any other non-zero
 * return ends the walk and is returned; otherwise 0 or -errno.
 */
#define DS_CGROUP_DEPTH_MAX 512
#define DS_CGROUP_PRUNE 1

struct ds_pids {
	int *pid;
	size_t n;
	size_t cap;
};

/* uid to name from the root's etc/passwd (no NSS), cached. */
struct ds_user {
	uint32_t uid;
	char *name;
};
struct ds_users {
	struct ds_user *u;
	size_t n, cap;
	int loaded;
	char num[16];
};
/* The name, or the number as text; valid until the next call. */
const char *ds_user_name(struct ds_users *u, const struct ds_root *r,
    uint32_t uid);
void ds_users_free(struct ds_users *u);
/* cgroup v2 io.stat: per cgroup and device, since creation. */
enum ds_iostat_key {
	DS_IOS_RBYTES, DS_IOS_WBYTES, DS_IOS_RIOS, DS_IOS_WIOS,
	DS_IOS_DBYTES, DS_IOS_DIOS, DS_IOS_N
};
struct ds_iostat_dev {
	unsigned int major, minor;
	uint64_t v[DS_IOS_N];
	uint32_t have;		/* bit per key the line had */
};
struct ds_iostat {
	struct ds_iostat_dev *d;
	size_t n, cap;
	size_t bad;		/* lines that did not start with MAJ:MIN */
};

struct ds_cgio {
	char *path;		/* "/" or "/system.slice/..." below the mount */
	uint64_t ino;		/* a recreated cgroup has a new inode */
	int have;		/* io.stat was read */
	struct ds_iostat st;
};
struct ds_cgios {
	struct ds_cgio *c;	/* sorted by path */
	size_t n, cap;
	size_t with_iostat;	/* cgroups that had io.stat */
	size_t bad;		/* malformed io.stat lines */
	uint64_t uptime_ns;	/* 0 when proc/uptime is unreadable */
	char **skipped;		/* subtrees left out (ds_cgroup_walk) */
	int *skipped_err;	/* and why: -errno */
	size_t nskipped;
};

/*
 * Queue settings: a disk's queue attributes: reading, listing, and
 * applying settings with a verdict per attribute.
 */

/*
 * sys/block/DISK/queue: the request queue a whole disk and its
 * partitions share.  Values are read once each (one open, read, close
 * per file, relative to the queue directory).
 */
#define DS_SCHED_NAME_MAX 32	/* the kernel's ELV_NAME_MAX is 16 */
#define DS_SCHED_MAX 16

/*
 * The scheduler line: "none [mq-deadline] kyber bfq".  The active one
 * is bracketed; the order is the kernel's (before about 6.2 "none" came
 * last).  A line with no brackets ("none" on old kernels for bio-based
 * devices) has no active scheduler: active is "".
 */
struct ds_sched {
	char active[DS_SCHED_NAME_MAX];
	char name[DS_SCHED_MAX][DS_SCHED_NAME_MAX];	/* unbracketed */
	size_t n;
};

/* The attributes a struct ds_queue holds, indexing err and v. */
enum ds_qattr {
	DS_QA_ROTATIONAL,
	DS_QA_SCHEDULER,	/* text: ds_queue.sched */
	DS_QA_NR_REQUESTS,
	DS_QA_READ_AHEAD_KB,
	DS_QA_MAX_SECTORS_KB,
	DS_QA_MAX_HW_SECTORS_KB,
	DS_QA_LOGICAL_BLOCK_SIZE,	/* bytes */
	DS_QA_PHYSICAL_BLOCK_SIZE,
	DS_QA_MINIMUM_IO_SIZE,
	DS_QA_OPTIMAL_IO_SIZE,
	DS_QA_NOMERGES,
	DS_QA_NR_HW_QUEUES,	/* count of sys/block/DISK/mq/N directories */
	DS_QA_WRITE_CACHE,	/* text: "write back", "write through" */
	DS_QA_DISCARD_MAX_BYTES,
	DS_QA_WBT_LAT_USEC,
	DS_QA_ZONED,		/* text: "none", "host-managed", ... */
	DS_QA_HOLDERS,		/* names below sys/block/DEV/holders */
	DS_QA_SLAVES,
	DS_QA_N
};

struct ds_queue {
	/*
	 * Per attribute: 0 read; -ENOENT the file is missing; -ENODATA the
	 * kernel declined to answer (a read giving EINVAL, as wbt_lat_usec
	 * does without writeback throttling); -EINVAL the text was not
	 * what the attribute holds (not a number, empty, a damaged
	 * scheduler line); another -errno from open or read.
	 */
	int err[DS_QA_N];
	/*
	 * 0, or -errno of opening queue/ itself (-ENOTDIR: a file in its
	 * place); then every attribute read from it has this error.
	 */
	int qerr;
	uint64_t v[DS_QA_N];	/* numeric attributes */
	struct ds_sched sched;
	char write_cache[32];
	char zoned[32];
	struct ds_blockdevs holders;	/* sorted */
	struct ds_blockdevs slaves;
};

/*
 * Read the queue of disk; holders and slaves come from dev's own
 * directory (dev NULL or equal to disk: the disk; else a partition of
 * it).  Returns 0 even when single attributes or queue/ itself failed
 * (see err[] and qerr); -errno when sys/block/DISK cannot be opened.
 */
int ds_queue_read(const struct ds_root *r, const char *disk, const char *dev,
    struct ds_buf *scratch, struct ds_queue *q);
void ds_queue_free(struct ds_queue *q);

/* One file of queue/ or queue/iosched/, as ds_queue_files lists it. */
struct ds_qfile {
	char *name;		/* "nr_requests", "iosched/read_expire" */
	char *value;		/* trailing newline removed; NULL if unreadable */
	int err;		/* 0, or -errno of the read */
	int writable;		/* from the file mode: some write bit set */
};
struct ds_qfiles {
	struct ds_qfile *f;
	size_t n, cap;
};
/*
 * Every regular file in queue/ (sorted), then in queue/iosched/
 * (sorted; the directory is absent without a scheduler).  On failure
 * out is left empty.
 */
int ds_queue_files(const struct ds_root *r, const char *disk,
    struct ds_buf *scratch, struct ds_qfiles *out);
void ds_qfiles_free(struct ds_qfiles *fs);

enum ds_qs_state {
	DS_QS_PENDING,		/* validated, not applied */
	DS_QS_ALREADY,		/* held before: nothing written */
	DS_QS_SET,		/* written; read back equal */
	DS_QS_ROUNDED,		/* written; read back within its granularity */
	DS_QS_CHANGED,		/* does not hold after the last write */
	DS_QS_FAILED,		/* the kernel refused the write: err */
	DS_QS_SKIPPED,		/* not tried: an earlier write failed */
	DS_QS_WOULD,		/* dry run: would be written */
};

/* Why a setting was refused before anything was written. */
enum ds_qs_why {
	DS_QSV_OK,
	DS_QSV_NOATTR,		/* no such attribute */
	DS_QSV_READONLY,	/* mode without write bits */
	DS_QSV_SYNTAX,		/* not a value this attribute takes */
	DS_QSV_SCHED,		/* not an available scheduler */
	DS_QSV_IO,		/* could not be read: err */
};

struct ds_qs_item {
	const char *attr;	/* as asked: read_expire, iosched/x, ... */
	const char *value;	/* as asked */
	char rel[256];		/* below queue/ */
	char want[256];		/* value in comparable form */
	char old[512];		/* before; "" when not there yet */
	char now[512];		/* after the last write */
	int written;
	int err;		/* -errno of a failure */
	enum ds_qs_why why;
	enum ds_qs_state state;
};

/*
 * Validate the settings of one disk (scheduler first, order kept
 * otherwise): 0, or the first refusal (that item's why and err set).
 * Reads only.
 */
int ds_qset_prepare(const struct ds_root *r, const char *disk,
    struct ds_qs_item *it, size_t n, struct ds_buf *scratch);
/*
 * Write in order, skipping what already holds, stopping at a refused
 * write; then read every setting back and give each its state.
 */
int ds_qset_apply(const struct ds_root *r, const char *disk,
    struct ds_qs_item *it, size_t n, struct ds_buf *scratch);
/* The states a dry run gives: already or would-set. */
int ds_qset_dry(const struct ds_root *r, const char *disk,
    struct ds_qs_item *it, size_t n, struct ds_buf *scratch);
const char *ds_qs_state_name(enum ds_qs_state s);

/* What ds_qset_check finds of one setting. */
enum ds_qc_verdict {
	DS_QC_HOLDS,		/* ds_queue_value_holds */
	DS_QC_DIFFERS,
	DS_QC_DAMAGED,		/* a scheduler line naming no one active */
};
/*
 * What attr of disk holds now against want: a verdict, with got the
 * comparable form of what was read (as read when it has none); -ENOENT
 * no such attribute, another -errno of reading.
 */
int ds_qset_check(const struct ds_root *r, const char *disk, const char *attr,
    const char *want, struct ds_buf *scratch, struct ds_buf *got);

/*
 * Files deleted (st_nlink 0) but still held open or mapped.
 * A process or descriptor can vanish at any moment; the scan counts
 * such cases and goes on.
 */

/* The fields of /proc/PID/fdinfo/N the scan uses. */
struct ds_fdinfo {
	uint64_t pos;		/* file offset, bytes */
	uint32_t flags;		/* open(2) flags (the file prints octal) */
	uint32_t mnt_id;	/* mount id, as in mountinfo's first field */
	unsigned int have;	/* DS_FDI_* bits of the fields found */
};

#define DS_FDI_FLAGS	2u

#define DS_DEL_NONE ((size_t)-1)	/* no string */

/* A filesystem holding deleted files, keyed by st_dev. */
struct ds_delfs {
	uint64_t dev;			/* st_dev */
	size_t mount, mount_len;	/* in the pool; DS_DEL_NONE if unknown */
	size_t fstype, fstype_len;
	uint64_t magic;			/* statfs f_type */
	int have_statfs;
	uint64_t frsize, blocks, bfree, bavail;	/* statfs, f_frsize units */
};

/* One holder (a descriptor or a mapping) of a deleted file. */
struct ds_delfile {
	int pid;
	int fd;			/* -1: a mapping without descriptor ("mem") */
	uint32_t uid;		/* owner of /proc/PID */
	uint64_t dev, ino;	/* st_dev, st_ino */
	uint64_t size;		/* st_size, bytes */
	uint64_t blocks;	/* st_blocks, 512-byte units */
	int memory;		/* class memory, not disk */
	struct ds_fdinfo fi;	/* descriptors only (fi.have 0 for mem) */
	size_t fs;		/* index in ds_deleted.fs */
	size_t path, path_len;	/* without " (deleted)" */
	size_t comm, comm_len;
	size_t mount, mount_len;
	size_t fstype, fstype_len;
};

struct ds_deleted {
	struct ds_delfile *f;
	size_t n, cap;
	struct ds_delfs *fs;
	size_t nfs, capfs;
	struct ds_buf pool;	/* the strings, by offset */
	size_t procs;		/* processes looked at */
	size_t denied;		/* their descriptors not readable (EACCES) */
	size_t vanished;	/* gone during the scan: normal */
	size_t unconfirmed;	/* mappings marked deleted that map_files
				   could not confirm (needs root) */
};

/* The thread count (field 20) of a proc/PID/stat text; -EINVAL. */
int ds_stat_threads(const char *text, size_t len, uint64_t *n);

/*
 * The descriptor name of fdd (an open proc/PID/fd): 1 when its link
 * names a path marked deleted, the target as read (" (deleted)" kept)
 * in link, NUL-terminated, and *len its length without the mark; 0 when
 * not (a pipe, a socket, a file still linked by that name); -errno.
 * Only the mark: the file's statx (nlink 0) confirms it.
 */
int ds_deleted_link(int fdd, const char *name, char *link, size_t size,
    size_t *len);

/* Scan every process under the root's proc.  Replaces d's contents. */
int ds_deleted_scan(const struct ds_root *r, struct ds_deleted *d);
void ds_deleted_free(struct ds_deleted *d);
/* The string at off in the pool ("" for DS_DEL_NONE). */
const char *ds_deleted_str(const struct ds_deleted *d, size_t off);

/* Sort holders by pid, then descriptor, mappings last. */
void ds_deleted_sort(struct ds_deleted *d);

/* Per filesystem: each deleted inode counted once. */
struct ds_delsum {
	size_t fs;		/* index in ds_deleted.fs */
	uint64_t held;		/* bytes allocated, each inode once */
	uint64_t size;		/* st_size, each inode once */
	uint64_t files;		/* distinct inodes */
	uint64_t holders;	/* distinct processes */
	int memory;		/* every file of it memory-backed */
};
/*
 * *out is allocated (free it); *n rows: filesystems holding disk space
 * first, then memory-backed ones, each in the order of d->fs.
 */
int ds_deleted_summary(const struct ds_deleted *d, struct ds_delsum **out,
    size_t *n);

struct ds_mapcheck {
	int mapped;
	int pid;
	size_t unreadable;
	int unreadable_pid;
};

/* The file behind proc/PID/fd/FD, as a truncation checks it first. */
struct ds_delprobe {
	uint64_t dev, ino, size, blocks, nlink;
	int regular;		/* S_ISREG */
	int memory;		/* memory-backed: tmpfs, memfd, shm... */
	struct ds_mapcheck map;	/* filled for a regular deleted disk file */
	struct ds_fdinfo fi;
	char path[4096];	/* link target, suffix stripped */
};
int ds_deleted_probe(const struct ds_root *r, int pid, int fd,
    struct ds_delprobe *p);
/*
 * Whether the file probed may be truncated: DS_TRUNC_GO, or why not
 * (root: the caller is root, whom only protected processes refuse
 * their maps).
 */
enum ds_trunc_verdict {
	DS_TRUNC_GO,
	DS_TRUNC_NOT_REGULAR,
	DS_TRUNC_LINKED,	/* not deleted: p->nlink names left */
	DS_TRUNC_MEMORY,	/* memory-backed: it holds no disk space */
	DS_TRUNC_MAPPED,	/* p->map.pid maps it */
	DS_TRUNC_MAPPED_MAYBE,	/* p->map.pid maps that inode number */
	DS_TRUNC_MAPS_UNREAD,	/* p->map.unreadable processes' maps unread */
};
int ds_deltrunc_verdict(const struct ds_delprobe *p, int root);
/*
 * Truncate to 0 bytes through proc/PID/fd/FD, after checking it is
 * still the inode probed.  *freed: bytes of allocation released.
 */
int ds_deleted_truncate(const struct ds_root *r, int pid, int fd,
    const struct ds_delprobe *p, uint64_t *freed);

/*
 * Where tracefs is: /sys/kernel/tracing, or below debugfs.  When it is
 * not mounted, ds_tracefs_find moves the process into a mount namespace
 * of its own (unshare(CLONE_NEWNS), every mount made private first) and
 * mounts it there: the host's mounts never change.  Call it before any
 * thread is started.
 */
struct ds_tracefs {
	char path[64];
	int mounted;		/* 1: mounted by us, in our namespace */
};

/* The fields of a block event the programs read, checked. */
struct ds_blkev {
	uint32_t id;		/* tracepoint id */
	uint32_t dev, sector, nr_sector, rwbs, rwbs_len, comm;	/* offsets */
};

#define DS_BLKLAT_RQ_INLINE 8		/* disks compared in the programs */

struct ds_blklat {
	unsigned int flags;
	int ncpu;
	int map[8];
	int prog[DS_BLKLAT_PROGS];
	int link[DS_BLKLAT_PROGS];	/* perf events */
	size_t insns[DS_BLKLAT_PROGS];	/* program sizes */
	struct ds_blkev ev[DS_BLKLAT_PROGS];
	struct ds_tracefs tfs;
	char *log;		/* after a failed load: the verifier's log */
	const char *what;	/* after a failure: the step that failed */
	uint32_t rq[DS_BLKLAT_RQ_INLINE];	/* the disks traced */
	size_t nrq;		/* their count (above: the devs map alone) */
	void *rbuf;		/* the histograms' keys and values, as read */
	struct ds_lat rlat;	/* a histogram's CPUs summed */
	uint32_t rmax;		/* entries rbuf holds */
	int nobatch;		/* the kernel has no BPF_MAP_LOOKUP_BATCH */
	int harr;		/* the histograms are an array (few disks) */
	uint32_t nhist;		/* histograms the map holds */
	uint64_t tend_next;	/* CLOCK_MONOTONIC ns: ds_blklat_tend's next */
	void *tbuf;		/* ds_blklat_tend's keys and values */
	size_t tcap;		/* entries tbuf holds */
	uint64_t slow_ns;	/* DS_BLKLAT_SLOW's threshold (blkslow.h) */
	struct ds_blkring *ring;	/* its ring buffer, mapped */
};

void ds_blklat_init(struct ds_blklat *b);
/*
 * The lockdown mode ("none", "integrity", "confidentiality": what
 * sys/kernel/security/lockdown brackets); -ENOENT without the file.
 */
int ds_lockdown_mode(const struct ds_root *r, char *mode, size_t size);

/*
 * Stalled threads and what they wait in: PSI io, CPU iowait and
 * procs_blocked count every task in an I/O wait, a disk's or not
 * (io_uring's completion wait, dirty-page throttling, a driver tag,
 * FUSE and network filesystems); a look at each thread's state and
 * wchan tells them apart.  And what a process's descriptors are.
 */
enum ds_wait {
	DS_WAIT_NONE,	/* no wchan, "0", running, or another state */
	DS_WAIT_BLOCK,	/* any other wait in D: folio_wait_bit_common,
			   submit_bio_wait, __wait_on_buffer... */
	DS_WAIT_TAG,	/* blk_mq_get_tag: a request waits for a driver tag */
	DS_WAIT_URING,	/* io_cqring_wait*: io_uring's completion wait */
	DS_WAIT_DIRTY,	/* balance_dirty_pages: held by the dirty-page limit */
	DS_WAIT_FUSE,	/* fuse_*, request_wait_answer (the daemon's own
			   fuse_dev_do_read is OTHER) */
	DS_WAIT_NFS,	/* nfs*, rpc_* (sunrpc); nfsd* is OTHER */
	DS_WAIT_CIFS,	/* cifs_*, smb2_*, smb3_*, wait_for_response... */
	DS_WAIT_OTHER,	/* a thread in S sleeping in anything else, or in D
			   in a wait known not to be I/O (vfork, RCU) */
	DS_WAIT_N
};
struct ds_stall {
	int pid, tid;
	char state;		/* stat's state letter */
	enum ds_wait wait;
	int kthread;		/* PF_KTHREAD in stat's flags (field 9) */
	char comm[16];		/* the thread's comm, as the kernel has it
				   (cut to 15 bytes, NUL-terminated) */
	char wchan[64];		/* proc/PID/task/TID/wchan; "" unreadable */
};
struct ds_stalls {
	struct ds_stall *t;	/* by pid, then tid */
	size_t n, cap;
	size_t threads;		/* threads looked at */
	size_t nd;		/* of them in D */
	size_t wchan_denied;	/* wchan unreadable (permission: the kernel
				   shows "0" to who may not ptrace) */
	size_t bad;		/* stat files that did not parse (a tree) */
};
/*
 * One look at every thread under r (proc/PID/task/TID/stat): every
 * thread in D is kept with its wchan; with sleeping nonzero, threads in
 * S are looked at too and kept when their wchan is an I/O wait
 * (DS_WAIT_URING and the network/FUSE classes), since io_uring's
 * completion wait sleeps in S yet counts as iowait.  Kernel threads in S
 * are left out (a filesystem's own idle helpers).  Threads that vanish
 * mid-scan are skipped.  Replaces out.  0 or -errno.
 */
int ds_stalls_scan(const struct ds_root *r, int sleeping,
    struct ds_buf *scratch, struct ds_stalls *out);
void ds_stalls_free(struct ds_stalls *s);

/* What a process's open descriptors are (proc/PID/fd). */
#define DS_PROCFDS_DEVS 8
#define DS_PROCFDS_MAX	65536	/* descriptors looked at, at most */
struct ds_procfds {
	size_t uring;		/* anon_inode:[io_uring] instances */
	size_t cached;		/* regular files and block devices: a page
				   cache can serve them */
	size_t other;		/* pipes, sockets, character devices, other
				   anon inodes */
	size_t unknown;		/* a path whose file could not be looked at */
	size_t ndev;		/* distinct st_dev of its regular files, at
				   most DS_PROCFDS_DEVS */
	struct { unsigned int major, minor; } dev[DS_PROCFDS_DEVS];
	int more_devs;		/* more than DS_PROCFDS_DEVS st_dev seen */
	int truncated;		/* more than DS_PROCFDS_MAX descriptors */
	int denied;		/* its fd directory could not be read */
};
/*
 * proc/PID/fd under r: each descriptor's link text classified, and a
 * path's file looked at through the root (live, the magic link; in a
 * tree, what the link names inside it).  0 (denied set when the
 * directory, or a link, may not be read), -ENOENT when the process is
 * gone, or -errno.
 */
int ds_procfds_read(const struct ds_root *r, int pid, struct ds_procfds *out);
/*
 * A capture keeps no descriptor's target: its summary instead, for
 * the processes a judgement looks at, a line of capture/procfds
 * appended to b ("PID uring cached other unknown more_devs truncated
 * denied MAJ:MIN..."), which ds_procfds_read of a capture reads back
 * (-ENOENT for a process it does not list).
 */
int ds_procfds_line(struct ds_buf *b, int pid, const struct ds_procfds *p);
#define DS_PROCFDS_LINES 1024	/* a capture's lines, at most */

/*
 * Disk errors the kernel reported: block I/O errors in its log (per disk,
 * over a window) and the SCSI midlayer's error counters.
 */
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
void ds_ioerrs_free(struct ds_ioerrs *e);
/*
 * sys/block/DISK/device/ioerr_cnt and iotmo_cnt (SCSI; hex "0x1f"):
 * commands the midlayer saw fail and time out since the device was
 * found.  -ENOENT elsewhere, -EINVAL for a disk name that is none.
 */
int ds_scsi_errcnt(const struct ds_root *r, const char *disk,
    struct ds_buf *scratch, uint64_t *ioerr, uint64_t *iotmo);

/*
 * cgroup limits that hold I/O back while the disk is not at fault: I/O
 * limits of cgroups with their counters for the device, memory limits
 * with the refaults that become the disk's reads, and a cgroup's
 * processes.  Both hierarchies: v2 (io, memory) and v1 (blkio, memory),
 * each found from the root's mount table.
 */
enum { DS_LIM_RBPS, DS_LIM_WBPS, DS_LIM_RIOPS, DS_LIM_WIOPS, DS_LIM_N };
#define DS_LIM_ALL	((1u << DS_LIM_N) - 1)

/* have_cost bits: which iocost keys io.stat had. */
#define DS_COST_VRATE	1u	/* the root cgroup's line only */
#define DS_COST_USAGE	2u
#define DS_COST_WAIT	4u	/* wait, indebt, indelay: with debug stats */
#define DS_COST_INDEBT	8u
#define DS_COST_INDELAY	16u
/* have_latstat bits: which io.latency keys io.stat had (debug stats). */
#define DS_LATSTAT_DEPTH	1u
#define DS_LATSTAT_AVG		2u	/* rotational devices */
#define DS_LATSTAT_WIN		4u
#define DS_LATSTAT_MISSED	8u	/* non-rotational devices */
#define DS_LATSTAT_TOTAL	16u

struct ds_iolimit {		/* one cgroup's I/O limit on one device */
	char *cgroup;		/* path below its hierarchy's mount: "/", "/a/b" */
	int v1;			/* 1 blkio.throttle.*_device, 0 io.max */
	unsigned int major, minor;
	uint64_t ino;		/* the cgroup directory's: a new one is a new cgroup */
	uint64_t lim[DS_LIM_N];	/* UINT64_MAX: none ("max", or no line) */
	uint64_t done[DS_LIM_N];/* counters at the read: bytes read, written, reads, writes
				   (v2 io.stat rbytes wbytes rios wios; v1
				   blkio.throttle.io_service_bytes / io_serviced Read, Write) */
	int have_done;		/* bit (1 << DS_LIM_x): done[x] read; DS_LIM_ALL all */
	uint64_t lat_target_us;	/* v2 io.latency "MAJ:MIN target=N" (µs); have_lat */
	int have_lat;
	/* v2 io.stat of io.latency: depth= (UINT64_MAX: "max"), avg_lat= (µs), win= (ms),
	   missed= total= (non-rotational); have_latstat: DS_LATSTAT_* */
	uint64_t lat_depth, lat_avg_us, lat_win_ms, lat_missed, lat_total;
	int have_latstat;
	/* v2 io.stat of iocost: cost.vrate (percent) cost.usage cost.wait cost.indebt
	   cost.indelay (µs, cumulative); have_cost: DS_COST_* */
	uint64_t cost_usage, cost_wait, cost_indebt, cost_indelay;
	double cost_vrate;
	int have_cost;
};

/* hier bits: the hierarchies walked. */
#define DS_CG_V2	1u
#define DS_CG_V1	2u

struct ds_iolimits {
	struct ds_iolimit *l;	/* sorted by cgroup, then device, v2 first */
	size_t n, cap;
	size_t bad;		/* malformed lines skipped */
	unsigned int hier;	/* DS_CG_V2, DS_CG_V1: hierarchies walked */
	size_t skipped;		/* subtrees the walk could not enter */
	int truncated;		/* more than DS_CG_WALK_MAX cgroups: the rest unread */
};

/* A walk reads at most this many cgroups of a hierarchy. */
#define DS_CG_WALK_MAX 65536
/*
 * Every cgroup with an I/O limit, a latency target or iocost keys (or
 * io.latency's keys in io.stat): v2 io.max / io.latency / io.stat under
 * the cgroup2 mount (when it has the io controller), v1
 * blkio.throttle.{read,write}_{bps,iops}_device under the blkio mount,
 * with the cgroup's counters for that device.  Replaces out.  0, or
 * -errno when the mount table cannot be read or out of memory; no
 * hierarchy at all is 0 with hier 0.
 */
int ds_iolimits_read(const struct ds_root *r, struct ds_iolimits *out);
/* The same cgroup and device in s (NULL when gone). */
const struct ds_iolimit *ds_iolimits_find(const struct ds_iolimits *s,
    const struct ds_iolimit *l);
/*
 * Rates over secs from a (earlier) to b: bytes/s and IOs/s per DS_LIM_*,
 * -1 for those without both counters.  A counter that went back or
 * another directory (a recreated cgroup) is a reset: -ERANGE, the rate
 * from b alone over secs is not taken.  -EINVAL for secs <= 0 or
 * different cgroups, -ENODATA when no counter is in both.
 */
int ds_iolimit_rate(const struct ds_iolimit *a, const struct ds_iolimit *b,
    double secs, double rate[DS_LIM_N]);
void ds_iolimits_free(struct ds_iolimits *s);

/* have_refault bits. */
#define DS_REFAULT_FILE	1u
#define DS_REFAULT_ANON	2u
/* have_events bits. */
#define DS_MEMEV_MAX	1u
#define DS_MEMEV_OOM	2u
#define DS_MEMEV_HIGH	4u
#define DS_MEMEV_OOM_KILL 8u

struct ds_memcg {		/* a cgroup with a memory limit */
	char *cgroup;
	int v1;
	uint64_t ino;
	uint64_t limit;		/* bytes: memory.max, memory.limit_in_bytes;
				   UINT64_MAX none (v2 with memory.high only) */
	uint64_t high;		/* v2 memory.high; UINT64_MAX none */
	uint64_t usage;		/* memory.current, memory.usage_in_bytes */
	uint64_t refault_file, refault_anon;	/* memory.stat workingset_refault_file/_anon
				   (v1: total_workingset_refault_*, hierarchical like v2);
				   before 5.9 workingset_refault, file pages only */
	int have_refault;	/* DS_REFAULT_FILE, DS_REFAULT_ANON */
	uint64_t failcnt;	/* v1 memory.failcnt */
	int have_failcnt;
	uint64_t psi_some_us, psi_full_us;	/* v2 memory.pressure totals */
	int have_psi;		/* bit (1 << DS_PSI_SOME), (1 << DS_PSI_FULL) */
	uint64_t ev_max, ev_oom;	/* v2 memory.events "max N", "oom N" */
	uint64_t ev_high, ev_oom_kill;	/* "high N", "oom_kill N" (4.13+) */
	int have_events;	/* DS_MEMEV_* */
};
struct ds_memcgs {
	struct ds_memcg *m;	/* sorted by cgroup, v2 first */
	size_t n, cap;
	size_t bad;		/* malformed values */
	unsigned int hier;	/* DS_CG_V2, DS_CG_V1 */
	size_t skipped;
	int truncated;
};
/*
 * Every cgroup whose memory limit (or v2 memory.high) is set, v2 and
 * v1.  A limit of 2^62 bytes or more is none (v1 prints PAGE_COUNTER_MAX
 * pages as 9223372036854771712).  Replaces out; errors as
 * ds_iolimits_read.
 */
int ds_memcgs_read(const struct ds_root *r, struct ds_memcgs *out);
const struct ds_memcg *ds_memcgs_find(const struct ds_memcgs *s,
    const char *cgroup, int v1);
void ds_memcgs_free(struct ds_memcgs *s);
/*
 * The processes of a cgroup (its cgroup.procs) in the hierarchy of
 * controller ctl, v1 or the v2 one: *pids allocated (free it), *n.
 */
int ds_cgroup_pids(const struct ds_root *r, const char *ctl, int v1,
    const char *cgroup, int **pids, size_t *n);
/*
 * The limits of cgroup (either hierarchy) as io.max writes them: with
 * dev, those on major:minor ("riops=50 wbps=1048576"); else every
 * device's, "MAJ:MIN keys" joined by ", ".  Empty when none.  -ENOMEM.
 */
int ds_iolimit_text(const struct ds_iolimits *s, const char *cgroup, int dev,
    unsigned int major, unsigned int minor, struct ds_buf *out);

/*
 * Dirty pages: how many the page cache holds and is writing back, the
 * thresholds past which writers are made to wait (balance_dirty_pages),
 * and the vm.dirty_* settings the thresholds come from.
 */
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
 * A non-negative decimal with an optional fraction ("12.5", "0.01") as
 * an integer count of 10^-scale units, truncated past scale digits:
 * ds_parse_fixed("12.345", 2, &v) gives 1234.  scale is at most 19
 * (-EINVAL above: 10^20 does not fit in 64 bits).
 */
int ds_parse_fixed(const char *s, const char **end, unsigned scale,
    uint64_t *out);

/*
 * Append a snapshot to out: its uptime line, its time line (time_ns 0:
 * none), then the diskstats text (len bytes, a newline added if it
 * lacks one).  0 or -ENOMEM.
 */
int ds_snap_format(struct ds_buf *out, uint64_t uptime_ns, uint64_t time_ns,
    const char *diskstats, size_t len);
/*
 * Append to head an "id NAME IDENTITY" line for each whole disk of
 * sys/block (in name order) whose identity is known.  A disk whose
 * identity cannot be read, or whose name cannot be written on the line,
 * gets none (unknown is always valid), and a root without sys/block
 * gives none.  0 or -ENOMEM.
 */
int ds_snap_ids(const struct ds_root *r, struct ds_buf *head);

/* Helpers: buffers, sizes, Prometheus text, snapshot files */

/* Make room in b for n more bytes (and the NUL); -ENOMEM. */
int ds_buf_reserve(struct ds_buf *b, size_t n);
/* v bytes in 1024-based units for a person: the value, *unit "B".."PiB". */
double ds_human_scale(double v, const char **unit);
/*
 * Append s as a Prometheus label value: \ " and newline escaped,
 * invalid UTF-8 as U+FFFD; -ENOMEM.
 */
int ds_esc_prom(struct ds_buf *b, const char *s, size_t len);
/*
 * Append h as the samples of a Prometheus histogram NAME (seconds):
 * NAME_bucket{LABELS,le} cumulative at each power of two from 2^10 to
 * 2^37 ns and +Inf, NAME_sum, NAME_count.  labels: escaped label pairs
 * ('device="sda",op="read"'), or "".  The HELP and TYPE lines are the
 * caller's.  -ENOMEM.
 */
int ds_lat_prom(struct ds_buf *b, const char *name, const char *labels,
    const struct ds_lat *h);

/*
 * Counters of a line of nc that are used: the longest format a kernel
 * printed that the line holds in full (12 to 14 are read as 11, 16 as
 * 15; the kernel only appends).  ds_disk_extra: how many were left
 * unused that way (0 for 4, 11, 15 and 17 or more, a newer kernel's).
 */
unsigned int ds_disk_known(unsigned int nc);
unsigned int ds_disk_extra(const struct ds_disk *d);

/* Why a snapshot file's header was refused (ds_snap_bad_msg says it). */
enum ds_snap_why_kind {
	DS_SNAP_WHY_NONE,
	DS_SNAP_WHY_UPTIME_TWICE,	/* a second uptime line */
	DS_SNAP_WHY_TIME_TWICE,		/* a second time line */
	DS_SNAP_WHY_HEAD_LONG,		/* an uptime or time line too long */
	DS_SNAP_WHY_UPTIME,		/* uptime not seconds */
	DS_SNAP_WHY_TIME,		/* time not seconds */
	DS_SNAP_WHY_ID_NAME,		/* id line: not a device name */
	DS_SNAP_WHY_ID_NONE,		/* id line: no identity */
	DS_SNAP_WHY_ID_BAD,		/* id line: identity not printable */
	DS_SNAP_WHY_ID_TWICE,		/* id line: a device named twice */
	DS_SNAP_WHY_ID_LONG,		/* id line too long */
	DS_SNAP_WHY_NO_UPTIME		/* no uptime line */
};
/*
 * A snapshot file ("-": standard input) opened into l, its header lines
 * read into s: l is left at its diskstats text, window its buffer, and
 * ds_lines_close closes the file (not standard input).  -errno; -EINVAL
 * with s->why and s->why_line set for a damaged header.
 */
int ds_snapfile_open(const char *path, struct ds_lines *l,
    struct ds_buf *window, struct ds_snap *s);
/* The name of path for messages: "stdin" for "-". */
const char *ds_snapfile_name(const char *path);
/*
 * The interval from snapshot a to the later b into *ns: 0; or 1 when
 * b's uptime is below a's (a reboot between them, or the files
 * swapped), *ns then b's uptime, for a report since boot; -EINVAL when
 * both were taken at the same uptime.
 */
int ds_snap_interval(const struct ds_snap *a, const struct ds_snap *b,
    uint64_t *ns);
/*
 * The earlier of two snapshot files opened as ds_snapfile_open does and
 * made ready to be read along (o->what its name for messages), for
 * ds_rows.  Close it with ds_older_close, also after a failure.
 */
int ds_older_open(struct ds_older *o, const char *path,
    struct ds_buf *window, struct ds_snap *s);
void ds_older_close(struct ds_older *o);
/*
 * Read o on to the device called name, returned in *found (valid until
 * the next call), keeping the devices read past in o->pend; with name
 * NULL, to the end (its damaged lines counted in o->pend).  0 or -errno.
 */
int ds_older_read(struct ds_older *o, struct ds_pair *pr, const char *name,
    const struct ds_disk **found);

/* Helpers: paths and processes */

/* open(2) below the root; O_CLOEXEC is added. Returns fd or -errno. */
int ds_openat(const struct ds_root *r, const char *rel, int flags);


/*
 * ds_procs_read without the array: each kept entry is handed to each
 * (with arg, and out for uptime_ns, read before the first entry) as soon
 * as it is read, in the order read: the pids given, or proc's ascending;
 * with DS_WHO_THREADS a process's threads by thread id after it.  The
 * entry is valid during the call only.  Nothing is stored (out->n is
 * 0); out's counters and failed are set as by ds_procs_read.  each
 * returns 0 to go on; anything else ends the scan and is returned.
 */
typedef int (*ds_who_each)(const struct ds_procs *scan,
    const struct ds_proc *p, void *arg);
int ds_procs_each(const struct ds_root *r, unsigned int flags,
    const int *pids, size_t npids, ds_who_keep keep, ds_who_each each,
    void *arg, struct ds_procs *out);

/*
 * Add the ids of a list ("12,340,5") to out, then sort out and drop
 * repeats.  -EINVAL at an id that is not one (1 to INT_MAX), copied to
 * bad; -ENODATA when the list holds none.
 */
int ds_pids_parse(const char *list, struct ds_pids *out, char *bad,
    size_t size);
void ds_pids_free(struct ds_pids *p);
/* The uid of a name in ds_user_name's table; -ENOENT when there is none. */
int ds_user_uid(struct ds_users *u, const struct ds_root *r, const char *name,
    uint32_t *uid);

/*
 * The cgroup v2 mount point, copied to mnt: the cgroup2 mount of
 * proc/self/mountinfo under the root.  Only a captured tree without
 * that file falls back to "/sys/fs/cgroup".  -ENOENT when the table has
 * no cgroup2 mount; -errno when the table cannot be read.
 */
int ds_cgroup2_mount(const struct ds_root *r, char *mnt, size_t size);
/* mnt/cgroup.controllers lists "io": 1, 0 if not, -errno unreadable. */
int ds_cgroup2_has_io(const struct ds_root *r, const char *mnt,
    struct ds_buf *scratch);
/*
 * Walk the cgroup2 hierarchy mounted at mnt, reading each io.stat into
 * out (replacing its contents), sorted by path.
 */
int ds_cgios_read(const struct ds_root *r, const char *mnt,
    struct ds_cgios *out);
void ds_cgios_free(struct ds_cgios *cs);
/* The cgroup at path ("/", "/system.slice") of a sample, or NULL. */
const struct ds_cgio *ds_cgios_find(const struct ds_cgios *cs,
    const char *path);

/*
 * What sys/dev/block/MAJ:MIN is: its name, whether it is a partition,
 * and the whole disks it sits on (slaves/, partitions taken to their
 * disk) when it is a dm or md device.  -errno when the entry is gone.
 */
#define DS_BELOW_MAX 16
struct ds_devinfo {
	unsigned int major, minor;
	char name[64];
	int partition;
	char below[DS_BELOW_MAX][64];
	size_t nbelow;
};
int ds_blockdev_info(const struct ds_root *r, unsigned int major,
    unsigned int minor, struct ds_devinfo *out);

/*
 * What an errno of opening or reading a pressure file means, into msg:
 * ENOENT, EOPNOTSUPP (4.20 to 5.5 and RHEL 8 booted without psi),
 * ENODEV (cgroup.pressure 0), for a cgroup's file or the system's.  1,
 * 0 (msg empty) for another errno, or -ENOMEM.
 */
int ds_psi_err_msg(int e, int cgroup, struct ds_buf *msg);

/*
 * Parse spec (RESOURCE:KIND:STALL/WINDOW, durations with us, ms or s)
 * into t: 0 (msg empty), or 1 with msg saying which part is wrong and
 * why ("stall '0ms': ..."), or -ENOMEM.
 */
int ds_psi_trigger_parse_msg(const char *spec, struct ds_psi_trigger *t,
    struct ds_buf *msg);
/*
 * The kernel's rules, checked before arming: -ERANGE window outside
 * 500 ms to 10 s, -EDOM stall 0 or over the window, -EPERM window not a
 * multiple of 2 s when not privileged (no CAP_SYS_RESOURCE).
 */
int ds_psi_trigger_check(const struct ds_psi_trigger *t, int privileged);
/* What an errno of checking or arming a trigger means: as ds_psi_err_msg. */
int ds_psi_trigger_err_msg(int e, struct ds_buf *msg);
/* 1 when this process has CAP_SYS_RESOURCE in its effective set. */
int ds_psi_privileged(void);

/*
 * The pressure file of res opened read-write for a trigger: dirfd's
 * res.pressure when dirfd >= 0 (a cgroup), else proc/pressure/res under
 * the root.  fd or -errno: -EACCES, -EPERM, -EROFS without write access
 * (sample instead), -ENOENT, -ENODEV, -EOPNOTSUPP as for reading.
 */
int ds_psi_trigger_open(const struct ds_root *r, int dirfd,
    enum ds_psi_res res);
/* 1 when fd is on procfs or cgroup2, where triggers can exist. */
int ds_psi_trigger_supported(int fd);
/* Write the trigger to a pressure file opened for it; 0 or -errno. */
int ds_psi_trigger_arm(int fd, const struct ds_psi_trigger *t);
/*
 * The reason to sample instead of arming for e of ds_psi_trigger_open
 * (arming 0) or of ds_psi_trigger_arm (arming 1): DS_PSI_NOWRITE,
 * DS_PSI_REFUSED; 0 when e is an error.
 */
int ds_psi_fallback(int e, int arming);

/*
 * Why the cgroup directory cgfd has no pressure files: -ENOENT it was
 * removed (no cgroup.procs either), else -ENODEV (accounting off).
 */
int ds_psi_cgroup_nofiles(int cgfd);
/* Link each of cur's elements to prev's of the same path: 0, -ENOMEM. */
int ds_psi_sample_pair(const struct ds_psi_sample *prev,
    struct ds_psi_sample *cur);
/*
 * The stall share (percent) of c's line r, k between prev and cur (c in
 * cur, paired); -1 when there is no prev, no such line in both, or no
 * time between the samples.
 */
double ds_psi_sample_share(const struct ds_psi_sample *prev,
    const struct ds_psi_sample *cur, const struct ds_psi_cg *c,
    enum ds_psi_res r, enum ds_psi_kind k);


/* Helpers: queue settings */

/*
 * Find the whole disk whose queue serves name: name itself when it is
 * in disks (the sorted sys/block listing), else the disk D holding
 * sys/block/D/name/partition (a partition).  -ENOENT when neither,
 * -EINVAL for a name that cannot be a device ("", ".", "..", holding '/').
 */
int ds_queue_resolve(const struct ds_root *r, const struct ds_blockdevs *disks,
    const char *name, char *disk, size_t size);
/* The attribute's file name ("nr_requests"); NULL when out of range. */
const char *ds_qattr_name(enum ds_qattr a);
/* 1 when the attribute holds a number (in ds_queue.v), else 0. */
int ds_qattr_numeric(enum ds_qattr a);
/*
 * The error of attribute a worth a message, or 0: none when it was
 * read, is missing (-ENOENT) or not applicable (-ENODATA), or is
 * queue/'s own error (qerr, to be said once for all).
 */
int ds_queue_attr_err(const struct ds_queue *q, enum ds_qattr a);
/* 0, or -EINVAL for a damaged line (unbalanced or two brackets, too long). */
int ds_sched_parse(const char *text, struct ds_sched *s);
/* The scheduler line of disk read (into scratch) and parsed into s. */
int ds_queue_sched_read(const struct ds_root *r, const char *disk,
    struct ds_buf *scratch, struct ds_sched *s);
/* The available schedulers joined by one space into out; -ENOMEM. */
int ds_sched_join(const struct ds_sched *s, struct ds_buf *out);
/* names[0..n-1] joined by sep into out ("" for none); -ENOMEM. */
int ds_qnames_join(char *const *names, size_t n, const char *sep,
    struct ds_buf *out);
/*
 * 1 when values want and got (as read) of attribute attr mean the same
 * setting (blanks, leading zeros, a scheduler line's bracketed name, the
 * alias "deadline"), else 0.
 */
int ds_queue_value_eq(const char *attr, const char *want, const char *got);

/*
 * A window as a triage judges it and a capture records it: each whole
 * disk's in_flight and procs_blocked every tick (DS_WINDOW_TICK_NS),
 * looks at the threads in an I/O wait, block-latency tracing from its
 * start to its end, and the kernel log's I/O errors of the window.
 * Live: ds_window_begin, then ds_window_tick at each time
 * ds_window_due gives until it says the ticks are over, then
 * ds_window_end.  Under a captured tree (not live, no capture) the
 * window is one tick and the log's every record.  A capture's window is
 * ds_window_load's.  Zero the struct first; ds_window_free it always.
 */
#define DS_WINDOW_TRACE 1u		/* try block-latency tracing */
#define DS_WINDOW_TICK_NS 100000000ull	/* 10 ticks a second */
#define DS_WINDOW_TICKS_MAX 36002u	/* an hour's ticks, and both ends */
#define DS_WINDOW_DISKS_MAX 65536u
#define DS_WINDOW_TASKS_MAX 65536u	/* threads kept over all the looks */
#define DS_WINDOW_ROWS_MAX 65536u	/* a loaded snapshot's histograms */

struct ds_window {
	const struct ds_root *r;
	uint64_t window_ns;
	unsigned int flags;
	/* The disks ticked, each one's in_flight per tick (nfl of nmax). */
	char (*disk)[DS_DISK_NAME_MAX];
	size_t ndisk;
	uint32_t *fl;		/* ndisk rows of nmax */
	size_t nmax, nfl;
	uint32_t *blocked;	/* procs_blocked per tick */
	size_t nblocked;
	/* The looks at stalled threads: who, and in flight at each look. */
	struct ds_tr_task *task;
	size_t ntask, taskcap;
	uint32_t *look_fl;
	size_t nlooks, lookcap;
	int have_ticks;		/* ticks were taken (loaded: recorded) */
	/* Block-latency tracing: snapshots at the start and the end. */
	int traced;		/* the whole window traced: s[0], s[1] */
	char why[160];		/* when not: why */
	struct ds_blkdisk *tdisk;	/* the disks traced */
	size_t ntdisk;
	struct ds_blklat_snap s[2];
	/* The kernel log's block I/O errors of the window. */
	struct ds_ioerrs ioerr;
	int kmsg_err;		/* ds_kmsg_ioerrs's error, or 0 */
	int have_kmsg;		/* read (loaded: recorded) */
	uint64_t kmsg_from_us, kmsg_to_us;
	uint64_t mono0_us, mono1_us;	/* the window, the kernel log's clock */
	char err[256];		/* ds_window_load's failure, said */
	/* Live state. */
	uint64_t t0, ntick, look_next;
	struct ds_blklat b;
	int tracing;
	struct ds_diskstats tick;
	struct ds_stalls st;
	struct ds_buf buf, scratch;
};

/*
 * Start a window of window_ns over r (0 for a tree: one tick): its
 * disks, and with DS_WINDOW_TRACE and live, tracing and the first
 * snapshot (w->traced 0 and w->why when it could not start).  0 or
 * -errno (-ENOMEM; sys/block unreadable).
 */
int ds_window_begin(struct ds_window *w, const struct ds_root *r,
    uint64_t window_ns, unsigned int flags);
/* One tick: in_flight, procs_blocked, a look now and then. */
void ds_window_tick(struct ds_window *w);
/*
 * When to wake (CLOCK_BOOTTIME ns) after a tick: 1 with the next
 * tick's time, 0 with the window's end once the ticks are over.
 */
int ds_window_due(const struct ds_window *w, uint64_t *until);
/* The last snapshot, the kernel log's errors read (tracing: until free). */
void ds_window_end(struct ds_window *w);
/* The in_flight ticks of disk name (*n of them); NULL when not ticked. */
const uint32_t *ds_window_inflight(const struct ds_window *w,
    const char *name, size_t *n);
/*
 * The window as capture members: emit(arg, name, data, len) for
 * capture/window, capture/dlat.0 and capture/dlat.1 (traced only) and
 * capture/kmsg.  0, -ENOMEM, or emit's nonzero return.
 */
#define DS_WINDOW_MEMBER "capture/window"
#define DS_WINDOW_DLAT0 "capture/dlat.0"
#define DS_WINDOW_DLAT1 "capture/dlat.1"
#define DS_WINDOW_KMSG "capture/kmsg"
int ds_window_emit(const struct ds_window *w,
    int (*emit)(void *arg, const char *name, const char *data, size_t len),
    void *arg);
/*
 * A capture's window read back from its members: those missing are
 * left out (have_ticks, traced, have_kmsg 0; w->why from meta's
 * traced_why).  0; -ENOENT when r is not a capture; -EINVAL with
 * w->err saying where for a damaged member; -ENOMEM.
 */
int ds_window_load(struct ds_window *w, const struct ds_root *r);
/* One member's text (name one of the four) parsed into w, as by load. */
int ds_window_parse(struct ds_window *w, const char *name, const char *text,
    size_t len);
void ds_window_free(struct ds_window *w);

/* Writing a capture: a streaming POSIX ustar archive (lib/tarwrite.c) */

struct ds_tarw {
	int fd;			/* written with write(2), never closed here */
	uint64_t mtime;		/* every member's, seconds since the epoch */
	uint64_t bytes;		/* written so far */
	size_t len;		/* bytes in buf not yet written */
	int err;		/* the first write error, sticky */
	char buf[65536];
};

/*
 * Members: regular files (mode 0600), symbolic links, directories
 * (0700); owner uid/gid 0 with empty names.  name is relative, at most
 * 255 bytes (ustar's prefix/name split): -ENAMETOOLONG otherwise, as
 * for a link target over 100 bytes, and nothing is written.  -EINVAL
 * for an absolute name or a ".." component; -errno of a write.
 */
void ds_tarw_init(struct ds_tarw *w, int fd, uint64_t mtime);
int ds_tarw_file(struct ds_tarw *w, const char *name, const void *data,
    size_t len);
/* A file whose mode is 0400 (mode has no owner write bit) or 0600. */
int ds_tarw_file_mode(struct ds_tarw *w, const char *name, unsigned mode,
    const void *data, size_t len);
int ds_tarw_link(struct ds_tarw *w, const char *name, const char *target);
int ds_tarw_dir(struct ds_tarw *w, const char *name);
/* The two zero blocks that end an archive, then everything written. */
int ds_tarw_end(struct ds_tarw *w);


#endif
