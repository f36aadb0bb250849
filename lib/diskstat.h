/*
 * libdiskstat: parsing of Linux block-layer, pressure and process
 * accounting files, and one writer for every output format.
 *
 * The library never prints and never exits.  Functions return 0 (or a
 * count) on success and -errno on failure; nothing is kept between calls
 * except in the structures the caller owns.
 *
 * This is the installed interface; lib/internal.h holds what the
 * library's own files share, and is never installed.
 */
#ifndef DISKSTAT_H
#define DISKSTAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Declared further down, used before. */
struct ds_atomic;
struct ds_disk;
struct ds_mount;

#define DS_VERSION "0.1.0"

/*
 * Roots and paths: every file the library opens is below a root: "/" on
 * a live system, or a captured tree of /proc and /sys (--root,
 * DISKSTAT_ROOT).
 */

/*
 * Every file is opened relative to a root directory: "/" on a live
 * system, or a captured tree of /proc and /sys.  Paths given to the
 * library are relative ("proc/diskstats"); a leading '/' is ignored.
 */
struct ds_root {
	int fd;			/* O_PATH descriptor of the root directory */
	int live;		/* 1 when the root is "/" */
	char path[4096];	/* as given, for messages */
};

/* dir NULL: $DISKSTAT_ROOT if set and not empty, else "/". */
int ds_root_open(struct ds_root *r, const char *dir);
void ds_root_close(struct ds_root *r);

/*
 * Reading files: whole files into a growing buffer, large files a line
 * at a time through a window of fixed size, and numbers parsed with
 * every check.
 */

/* A growing buffer, reused across reads; data is always NUL-terminated. */
struct ds_buf {
	char *data;
	size_t len;
	size_t cap;
};

#define DS_READ_MAX (64u << 20)	/* files larger than this are refused */

void ds_buf_free(struct ds_buf *b);

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

/* Clocks: the clocks a sample is stamped with, sleeping to a deadline. */

/*
 * The time base of every interval: CLOCK_BOOTTIME on a live system
 * (the clock behind /proc/uptime), the tree's proc/uptime otherwise,
 * so that intervals between captured samples are exact.  Nanoseconds.
 */
int ds_uptime_ns(const struct ds_root *r, struct ds_buf *scratch,
    uint64_t *ns);

/* Wall clock, for the time column: nanoseconds since the epoch. */
uint64_t ds_realtime_ns(void);
/* CLOCK_BOOTTIME now, nanoseconds. */
uint64_t ds_boottime_ns(void);
/*
 * Sleep until the absolute CLOCK_BOOTTIME deadline.  Returns 0, or
 * -EINTR when a signal arrived first.
 */
int ds_sleep_until(uint64_t deadline_ns);

/*
 * Output: the writer and escaping: one writer for every format (TSV,
 * JSON lines, table, Prometheus text), its columns and cells, atomic
 * output files, and escaping.
 */

enum ds_fmt { DS_FMT_TSV, DS_FMT_JSON, DS_FMT_TABLE, DS_FMT_PROM };

enum ds_type {
	DS_T_STR,		/* text, escaped per format */
	DS_T_U64,		/* exact unsigned integer */
	DS_T_I64,
	DS_T_F2,		/* double, two decimals (iostat's precision) */
	DS_T_TIME,		/* Unix time in ns, printed as seconds.millis */
	DS_T_G,			/* double, ten significant digits (ds_w_f) */
	DS_T_F3,		/* double, three decimals (ns given in us);
				   cells given with ds_w_f */
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
	 * Conversion to base units for Prometheus: a U64 value is divided
	 * by 10^div10 exactly (ms to s: 3, us to s: 6); a F2 value is
	 * multiplied by scale when scale is not 0 (kB to bytes: 1024,
	 * percent to ratio: 0.01).
	 */
	unsigned int div10;
	double scale;
	unsigned int flags;	/* DS_C_* */
};

/* ds_col flags */
#define DS_C_WIDE	1u	/* left out of the default table (-O +COL) */
#define DS_C_KB		2u	/* value in KiB: -h shows it in human units */
#define DS_C_BYTES	4u	/* value in bytes: likewise */
#define DS_C_FILL	16u	/* table: cut with "..." (U+2026) so that a row
				   fits DS_TABLE_COLS; whole in other formats */
#define DS_C_RIGHT	32u	/* table: a text column aligned right */

#define DS_TABLE_COLS	160	/* the width a default table keeps within */

/*
 * Rows are given one cell at a time, in column order, then ended with
 * ds_w_row_end().  TSV and JSON go straight to the stream; table and
 * prom are held until ds_w_report_end(), which aligns the table or
 * groups the metric families.  Memory is the caller's struct plus what
 * it allocates; nothing is global.
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
	const char *prefix;	/* metric prefix, e.g. "dxstat" */
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

#define DS_W_HUMAN	1u	/* table: DS_C_KB/DS_C_BYTES as 4G, 251.9M */
#define DS_W_UTC	2u	/* table: time in UTC, not local time */

int ds_writer_init(struct ds_writer *w, FILE *out, enum ds_fmt fmt,
    const struct ds_col *cols, size_t ncols, int header, const char *prefix);
void ds_writer_free(struct ds_writer *w);
/*
 * The columns shown, in every format: spec NULL or "" is the default
 * (in table format the columns without DS_C_WIDE, otherwise all of
 * them); "+A,B" the default and A and B; "A,B" A and B in that order.
 * Prom always keeps its DS_P_LABEL columns (a series' identity).  On an
 * unknown or repeated name, -EINVAL with *bad at the name and *badlen
 * its length.  Rows are still given every column; the writer drops and
 * orders cells.  Call before the first cell.
 */
int ds_writer_select(struct ds_writer *w, const char *spec,
    const char **bad, size_t *badlen);
/* DS_W_HUMAN, DS_W_UTC; only table format uses them. */
void ds_writer_opts(struct ds_writer *w, unsigned int opts);

void ds_w_str(struct ds_writer *w, const char *s);
void ds_w_strn(struct ds_writer *w, const char *s, size_t len);
void ds_w_u64(struct ds_writer *w, uint64_t v);
void ds_w_i64(struct ds_writer *w, int64_t v);
void ds_w_f(struct ds_writer *w, double v);	/* F2 or TIME columns */
void ds_w_time(struct ds_writer *w, uint64_t unix_ns);
void ds_w_null(struct ds_writer *w);
/* End a row.  Returns 0, or -errno (also kept in w->error). */
int ds_w_row_end(struct ds_writer *w);
/*
 * End a report: print held rows, then fflush.  Returns 0 or -errno of
 * the first failure of any call since init (a full disk gives -ENOSPC).
 */
int ds_w_report_end(struct ds_writer *w);
/*
 * The same, for a second writer whose rows follow those of w in w's
 * destination (two sets of columns in one output, as dqueue's prom
 * families): w2's held rows go where w writes now, and a failure is
 * kept in w too.
 */
int ds_w_report_end_into(struct ds_writer *w2, struct ds_writer *w);
/* Bytes as they are, where the rows go (text a caller made itself). */
void ds_w_raw(struct ds_writer *w, const void *p, size_t len);
/* The first failure (-errno) since init or the last commit, or 0. */
int ds_writer_error(const struct ds_writer *w);
/*
 * The writer owns its destination.  Rows go to the stream given to
 * ds_writer_init(), or, after ds_writer_to_file(), to a temporary file
 * beside path (see ds_atomic_open; the file gets its own header).
 * ds_writer_commit() ends the report (ds_w_report_end) and renames the
 * file over path; on any failure the file is removed and the old one
 * stays.  ds_writer_abort() removes it unrenamed (a report that failed
 * half way).  Both leave the writer on its stream again, with no error
 * kept, ready for the next report.  Without a file, ds_writer_commit()
 * is ds_w_report_end() and abort does nothing.  Returns 0 or -errno.
 */
int ds_writer_to_file(struct ds_writer *w, const char *path);
int ds_writer_commit(struct ds_writer *w);
void ds_writer_abort(struct ds_writer *w);
/*
 * The columns (-O help): a line each, the name, "(+) " for DS_C_WIDE,
 * the help text.  Returns 0 or -errno.
 */
int ds_writer_help(const struct ds_writer *w, FILE *fp);

/*
 * A message for stderr: as table (control bytes, ESC, C1, invalid UTF-8
 * as \xHH, the bidi controls U+061C U+200E U+200F U+202A-U+202E
 * U+2066-U+2069 as their bytes in \xHH).  The one escaping every tool
 * puts its messages through.
 */
int ds_esc_msg(struct ds_buf *b, const char *s, size_t len);

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
 * Block devices and device operands: the disks sysfs shows, what a
 * device number is, and the operands (names, /dev paths, dm names,
 * globs) that pick devices for a report.
 */

/* The names in sys/block (whole disks), sorted. */
struct ds_blockdevs {
	char **name;		/* sorted; each points into pool */
	size_t n;
	size_t cap;
	char *pool;		/* the names, one after the other */
	size_t poolcap;
};
int ds_blockdevs_read(const struct ds_root *r, struct ds_blockdevs *out);

int ds_blockdevs_has(const struct ds_blockdevs *b, const char *name);
void ds_blockdevs_free(struct ds_blockdevs *b);


/*
 * Reading devices and snapshots: /proc/diskstats read a device at a
 * time, snapshot files of it, the pairing of two samples, and the quiet-
 * time baseline kept from them.
 */

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

struct ds_disk {
	unsigned int major;
	unsigned int minor;
	char name[DS_DISK_NAME_MAX];
	/*
	 * How many counters the line had after the name: 4 (2.6 partition
	 * lines: reads, read sectors, writes, write sectors), 11, 15, 17, or
	 * more on a future kernel (the extras are ignored); 12 to 14 and 16
	 * are read as 11 and 15 (ds_disk_known).  Counters the
	 * line did not have are 0 and their bit is clear in `have`.
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

/*
 * Read and parse proc/diskstats under the root, through window (see
 * ds_lines): the text is never held whole.
 */
int ds_diskstats_read(const struct ds_root *r, struct ds_buf *window,
    struct ds_diskstats *out);
/* Every remaining device of l into out (its contents replaced). */
void ds_diskstats_free(struct ds_diskstats *s);

/*
 * A snapshot: /proc/diskstats with the time it was read.  As a file:
 *
 *	uptime 350735.47		(seconds since boot, CLOCK_BOOTTIME)
 *	time 1764470000.123		(optional: Unix time, seconds)
 *	id sda wwid=naa.5000c500a1b2c3d4	(optional: what a disk is)
 *	   8       0 sda 1 2 3 ...	(the verbatim /proc/diskstats text)
 */
struct ds_snap {
	uint64_t uptime_ns;
	uint64_t time_ns;	/* wall clock; 0 when the file had none */
	struct ds_diskstats ds;
	const char *why;	/* after -EINVAL from reading the header: what */
	size_t why_line;	/* and on which line (1-based) */
};

/*
 * A directory of files as dxstat -s writes them (README's cron line:
 * /var/lib/dxstat; the packaged timer: /var/lib/diskstat), read in
 * time order and paired one after the other; each device gets one
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
	size_t files;		/* snapshot files read */
	size_t skipped;		/* files that were no snapshot (not counted) */
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
 * header is a snapshot's; others are counted in skipped.  Files are
 * ordered by their time line (the file's mtime when it has none), then
 * uptime.  A file whose uptime is not above its predecessor's, or whose
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

/*
 * The baseline of the device name whose identity is now id (NULL or "":
 * unknown), or NULL (after ds_base_finish): the history of that
 * identity; a history no file gave an identity, whatever id is; with id
 * unknown, the name's history when it has only one.
 */
const struct ds_base_dev *ds_base_find(const struct ds_base *b,
    const char *name, const char *id);

/*
 * The device called name in s, looked for first at index hint (devices
 * keep their order between reads), then from the start; NULL if none.
 */
const struct ds_disk *ds_diskstats_find(const struct ds_diskstats *s,
    const char *name, size_t hint);

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
 * A live sample into s: proc/diskstats read whole into s->ds, uptime and
 * the wall clock next to it.  0, or -errno with *rel the file (relative
 * to the root) that failed.
 */
int ds_sample_take(const struct ds_root *r, struct ds_buf *window,
    struct ds_buf *scratch, struct ds_snap *s, const char **rel);
/*
 * The same for one report: procfs's text read whole into s->ds (1, l
 * closed); a file that holds still (a captured tree) left open in l for
 * ds_rows (0).  -errno with *rel as ds_sample_take, nothing left open.
 */
int ds_sample_open(const struct ds_root *r, struct ds_lines *l,
    struct ds_buf *window, struct ds_buf *scratch, struct ds_snap *s,
    const char **rel);
/* The uptime from sample a to the later b; 0 if it did not advance. */
uint64_t ds_sample_interval(const struct ds_snap *a, const struct ds_snap *b);

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

/*
 * Rates and iostat figures: counter increments between two samples
 * (wraps told from resets) and the iostat -x figures as pure functions
 * of them and an interval.
 */

/* How a device's counters moved between two samples. */
enum ds_delta_kind {
	DS_DELTA_OK,		/* every counter forward (ms ones mod 2^32) */
	DS_DELTA_WRAP,		/* a 32-bit request/sector counter wrapped */
	DS_DELTA_RESET,		/* counters restarted: counted from zero */
	DS_DELTA_NEW,		/* no previous sample: counted from zero */
};

/*
 * Per-counter increments from prev to cur into d (prev NULL: since the
 * device appeared, d = cur).  Millisecond counters are 32-bit in every
 * kernel and are taken modulo 2^32 when the wrapped increment is under
 * 2^31.  A request or sector counter below
 * its previous value is a 32-bit kernel's wrap when both values fit in
 * 32 bits, no counter of the line is wider, and the wrapped increment
 * is under 2^31; anything else is a reset (the device was removed and
 * added again) and every counter of the device counts from zero.
 * d[DS_IN_FLIGHT] is cur's value, a gauge.  *have gets the counters
 * both samples printed.
 */
enum ds_delta_kind ds_disk_delta(const struct ds_disk *prev,
    const struct ds_disk *cur, uint64_t d[DS_NCOUNTERS], uint32_t *have);

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
 * The iostat -x formulas on counter increments d over interval_ns:
 * rates are d/interval, *_await = dticks/dios and *areq-sz =
 * dsectors/2/dios (both 0 when no request completed), %Xrqm =
 * dmerges/(dmerges+dios)*100, aqu-sz = dtime_in_queue/interval,
 * %util = dio_ticks/interval*100 (not capped).  A figure whose
 * counters the line did not print has its have bit clear.
 */
void ds_xstat_compute(const uint64_t d[DS_NCOUNTERS], uint32_t have,
    uint64_t interval_ns, struct ds_xstat *x);

/*
 * Pressure: pressure stall information: reading, triggers, waiting for
 * pressure (with a sampling fallback), samples over an interval.
 */

enum ds_psi_res { DS_PSI_CPU, DS_PSI_IO, DS_PSI_MEMORY, DS_PSI_IRQ,
	DS_PSI_NRES };
enum ds_psi_kind { DS_PSI_SOME, DS_PSI_FULL, DS_PSI_NKINDS };

/* One line: "some avg10=0.18 avg60=0.34 avg300=0.10 total=159886802". */
struct ds_psi_line {
	uint64_t avg[3];	/* avg10, avg60, avg300: hundredths of a percent */
	uint64_t total;		/* cumulative stall, microseconds */
};

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
/* A file's bad lines: how many, the first, and why it was refused. */
struct ds_psi_bad {
	size_t n;		/* malformed or repeated lines skipped */
	size_t first;		/* 1-based line number of the first, 0 if none */
	unsigned char why;	/* the first's reason: enum ds_psi_why_kind */
	unsigned char key;	/* the key it is about: 0-3, avg10 .. total */
};

/* One pressure file. */
struct ds_psi {
	unsigned int have;	/* bit k: the line of kind k was there */
	struct ds_psi_bad bad;
	struct ds_psi_line line[DS_PSI_NKINDS];
};

/*
 * A comma-separated list of resources ("io,cpu") into order, each once,
 * in the order first named; *n of them.  -EINVAL at a name that is not
 * one, with *bad and *badlen on it.
 */
int ds_psi_res_list(const char *arg, enum ds_psi_res *order, size_t *n,
    const char **bad, size_t *badlen);

/* Read and parse rel under the root, name under dirfd, or an open fd. */
int ds_psi_read(const struct ds_root *r, const char *rel,
    struct ds_buf *scratch, struct ds_psi *p);

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

/*
 * A sample of processes (or threads) with their I/O counters.  A
 * process is known by (pid, starttime): a reused pid is a new one.
 */
struct ds_proc {
	int pid;		/* process id; the thread id with DS_WHO_THREADS */
	int tgid;		/* the process a thread belongs to */
	uint64_t starttime;	/* field 22: clock ticks after boot */
	uint32_t uid;		/* owner of /proc/PID, as ps(1) takes it */
	char comm[64];
	size_t comm_len;
	char *cmdline;		/* DS_WHO_CMDLINE: NULs turned to spaces;
				   NULL when empty (kernel threads) */
	size_t cmdline_len;
	char *cgroup;		/* DS_WHO_CGROUP: see ds_proc_cgroup_parse */
	struct ds_io io;
	int io_err;		/* 0, or -errno of proc/PID/io (-EACCES) */
	uint64_t blkio_ticks;	/* field 42; summed over the threads of a
				   process when DS_WHO_DELAY is given */
	int have_blkio;
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

/*
 * Decides after stat (and cmdline) whether an entry is wanted, before
 * io, thread stats and cgroup are read.  Nonzero keeps it.
 */
typedef int (*ds_who_keep)(const struct ds_proc *p, void *arg);

/*
 * Scan proc (or only the pids given, npids > 0).  Entries that vanish
 * during the scan (ENOENT, ESRCH) are skipped; an unreadable io file is
 * kept with io_err set.  Replaces out's contents.
 */
int ds_procs_read(const struct ds_root *r, unsigned int flags,
    const int *pids, size_t npids, ds_who_keep keep, void *arg,
    struct ds_procs *out);
void ds_procs_free(struct ds_procs *ps);

/*
 * proc/sys/kernel/task_delayacct: 1 on, 0 off; -ENOENT before 5.14,
 * when there was no switch and accounting followed the boot option.
 */
int ds_delayacct_read(const struct ds_root *r, struct ds_buf *scratch);

/* Per-second figures of one entry (or a sum of entries). */
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

/* The cpu line's fields, in the kernel's order (proc(5)); USER_HZ ticks. */
enum ds_cpu_field {
	DS_CPU_USER, DS_CPU_NICE, DS_CPU_SYSTEM, DS_CPU_IDLE, DS_CPU_IOWAIT,
	DS_CPU_IRQ, DS_CPU_SOFTIRQ, DS_CPU_STEAL, DS_CPU_GUEST,
	DS_CPU_GUEST_NICE, DS_CPU_N
};

#define DS_PS_CPU	1u	/* the "cpu" line was read */

#define DS_PS_BLOCKED	4u	/* procs_blocked */

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
/* The kernel's release (proc/sys/kernel/osrelease) into out; -EINVAL. */
int ds_kernel_release(const struct ds_root *r, struct ds_buf *scratch,
    char *out, size_t size);
/*
 * The share of CPU time that was iowait between two reads, in percent:
 * the iowait increment over the sum of the increments of user to steal
 * (guest time is already inside user and nice).  The kernel's iowait
 * can step back on a tickless CPU: a field that went backwards counts
 * 0.  -EINVAL when either lacks the iowait field or no time passed.
 */
int ds_procstat_iowait(const struct ds_procstat *a,
    const struct ds_procstat *b, double *pct);

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
 * Mounts, filesystems and deleted files: the mount table, filesystem
 * space, and files deleted but still held open or mapped: scanning,
 * summing and truncating them.
 */

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

/* Read rel ("proc/self/mountinfo", "proc/123/mountinfo") and parse. */
int ds_mountinfo_read(const struct ds_root *r, const char *rel,
    struct ds_mounts *out);
void ds_mounts_free(struct ds_mounts *ms);

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

struct ds_fsstat {
	uint64_t dev;		/* st_dev of the directory */
	uint64_t magic;		/* f_type */
	uint64_t frsize;	/* bytes per block of the counts below */
	uint64_t blocks, bfree, bavail;	/* bavail: free to non-root */
	uint64_t files, ffree;	/* inodes; files 0: the fs does not count */
};
/* statfs of the directory path below the root (O_PATH, no follow). */
int ds_fsstat_read(const struct ds_root *r, const char *path,
    struct ds_fsstat *out);

/*
 * Latency tracing: latency histograms, tracepoint formats, bpf(2)
 * without libbpf, and block-layer latency traced per disk and per
 * process.
 */

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
/*
 * The q-quantile (0 < q <= 1) in ns: the rank ceil(q * count) value as
 * its bucket places it (interpolated inside it, never above max_ns).
 * NaN when empty.
 */
double ds_lat_quantile(const struct ds_lat *h, double q);

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

/*
 * The operations of a request, and the phases timed (btt's names): d2c
 * issue to completion, q2c queue to completion, q2d queue to issue.
 */
enum { DS_BLK_READ, DS_BLK_WRITE, DS_BLK_DISCARD, DS_BLK_FLUSH, DS_BLK_OPS };
enum { DS_BLK_D2C, DS_BLK_Q2C, DS_BLK_Q2D, DS_BLK_PHASES };
/* "read" ... "flush", "d2c" "q2c" "q2d"; NULL out of range. */
const char *ds_blk_op_name(unsigned int op);
const char *ds_blk_phase_name(unsigned int ph);
/* "d2c,q2c" into DS_BLKLAT_PHASE bits; -EINVAL for a name not a phase. */
int ds_blk_phases_parse(const char *list, unsigned int *flags);

/* The fields of a block event the programs read, checked. */
struct ds_blkev {
	uint32_t id;		/* tracepoint id */
	uint32_t dev, sector, nr_sector, rwbs, rwbs_len, comm;	/* offsets */
};

#define DS_BLKLAT_WHO 1u		/* also per submitting process */
/* The phases timed (none of them: all); programs only for those. */
#define DS_BLKLAT_PHASE(ph) (2u << (ph))
#define DS_BLKLAT_ALL (DS_BLKLAT_PHASE(DS_BLK_D2C) | \
	DS_BLKLAT_PHASE(DS_BLK_Q2C) | DS_BLKLAT_PHASE(DS_BLK_Q2D))
#define DS_BLKLAT_PROGS 4
#define DS_BLKLAT_RQ_INLINE 8		/* disks compared in the programs */

struct ds_blklat {
	unsigned int flags;
	int ncpu;
	int map[7];
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
};

/* Missed events, by cause. */
enum {
	DS_MISS_RECURSION,	/* a program skipped: another ran on its CPU */
	DS_MISS_UNMATCHED_D2C,	/* a completion without its issue */
	DS_MISS_UNMATCHED_Q2C,	/* a completion without its queue */
	DS_MISS_MAP_FULL,	/* a histogram or who entry could not be made */
	DS_MISS_LOST,		/* issued, never seen to complete */
	DS_MISS_N
};

/*
 * A histogram of a snapshot, its buckets from the first to the last
 * holding a value kept in the snapshot's bk, a byte or two each (a few
 * dozen of DS_LAT_NB as a rule: 100 busy disks' two snapshots took
 * 1.4 MB whole); ds_blklat_row_lat makes the struct ds_lat of it.
 */
struct ds_blklat_row {
	uint32_t dev;		/* the disk (struct ds_blkdisk's dev) */
	unsigned int op, phase;
	uint64_t count, sum_ns, max_ns;
	uint32_t first, nb;	/* buckets first .. first + nb - 1 */
	size_t off;		/* their counts from bk + off (LEB128) */
};
struct ds_blklat_who {
	uint32_t dev, pid;	/* pid: the submitter's tgid */
	char comm[16];
	uint64_t bytes;
	struct ds_lat h;
};
/* Everything counted since attach, sorted by key. */
struct ds_blklat_snap {
	struct ds_blklat_row *r;
	size_t n, cap;
	unsigned char *bk;	/* the rows' bucket counts, bytes */
	size_t nbk, capbk;
	struct ds_blklat_who *w;
	size_t nw, capw;
	uint64_t miss[DS_MISS_N];
	uint64_t issued;	/* requests issued to the traced disks */
	int have_recursion;	/* the kernel counts recursion misses */
	uint64_t run_cnt[DS_BLKLAT_PROGS];	/* with BPF_ENABLE_STATS */
	uint64_t run_time_ns[DS_BLKLAT_PROGS];
};

void ds_blklat_init(struct ds_blklat *b);
/* 0 when bpf(2) can be used here; -EPERM without the capabilities. */
int ds_blklat_probe(void);
/*
 * Find tracefs (see ds_tracefs_find), read the formats, make the maps
 * for ndevs devices (disks and partitions) of ndisks disks, load the
 * programs.  On failure b->what names the step (and b->log holds the
 * verifier's log after a refused program); ds_blklat_close after.
 */
int ds_blklat_open(struct ds_blklat *b, unsigned int flags, size_t ndevs,
    size_t ndisks);
int ds_blklat_attach(struct ds_blklat *b);
void ds_blklat_close(struct ds_blklat *b);
/*
 * Take out the issues whose completion was never seen (the kernel
 * skips a program that fires while another runs on its CPU): those
 * older than 5 minutes, and the oldest while the map is over half full.
 * Call it at least every 5 s while tracing (it does the work at most
 * that often; ds_blklat_take calls it too).  A request in flight for
 * longer is then counted as an unmatched completion, never timed.
 */
int ds_blklat_tend(struct ds_blklat *b);
void ds_blklat_snap_free(struct ds_blklat_snap *s);
/*
 * What cur's row r counted since prev's of the same key (prev NULL or
 * without it: all), as ds_lat_delta; out->count 0 when nothing.
 */
void ds_blklat_delta(const struct ds_blklat_snap *prev,
    const struct ds_blklat_snap *cur, const struct ds_blklat_row *r,
    struct ds_lat *out);
/* "recursion", "unmatched_d2c", "unmatched_q2c", "map_full", "lost_completion". */
const char *ds_blklat_miss_name(unsigned int i);
/* cur's missed events less prev's (NULL: all of them), and their sum. */
void ds_blklat_miss_delta(const struct ds_blklat_snap *prev,
    const struct ds_blklat_snap *cur, uint64_t m[DS_MISS_N],
    uint64_t *total);
/*
 * The interval's figures of each submitter (cur less prev; NULL: all),
 * those with nothing completed left out, by disk then most bytes
 * first.  *out is allocated (free it).
 */
int ds_blklat_who_delta(const struct ds_blklat_snap *prev,
    const struct ds_blklat_snap *cur, struct ds_blklat_who **out, size_t *n);
/*
 * A disk to trace: its name and dev_t as the block tracepoints log it
 * (major << 20 | minor).
 */
struct ds_blkdisk {
	char name[DS_DISK_NAME_MAX];
	uint32_t dev;
};
/*
 * The whole disks of sys/block that can be traced: every one, or those
 * keep(arg, name) accepts (nonzero); *ndevs their devices with their
 * partitions.  *out is allocated (free it).
 */
int ds_blkdisks_read(const struct ds_root *r,
    int (*keep)(void *, const char *), void *arg, struct ds_blkdisk **out,
    size_t *n, size_t *ndevs);
/* Trace each disk and its partitions (counted as the disk). */
int ds_blklat_add_disks(struct ds_blklat *b, const struct ds_root *r,
    const struct ds_blkdisk *d, size_t n);
/* The name of dev among d; NULL when it is not one of them. */
const char *ds_blkdisk_name(const struct ds_blkdisk *d, size_t n,
    uint32_t dev);
/*
 * The lockdown mode ("none", "integrity", "confidentiality": what
 * sys/kernel/security/lockdown brackets); -ENOENT without the file.
 */
int ds_lockdown_mode(const struct ds_root *r, char *mode, size_t size);
/*
 * Everything counted since attach into s (ds_blklat_tend first), and
 * the completions never seen (DS_MISS_LOST) brought up to date when the
 * disks d (those traced) are idle: nothing in flight before and after
 * a read, and a second read (the one kept) finding no request issued
 * since.
 */
int ds_blklat_take(struct ds_blklat *b, const struct ds_root *r,
    const struct ds_blkdisk *d, size_t n, const struct ds_blklat_snap *prev,
    struct ds_blklat_snap *s);

/*
 * Triage: the judgement of a window, from what the other readers
 * gathered over it.
 */

enum ds_tr_sev { DS_TR_OK, DS_TR_INFO, DS_TR_WARN, DS_TR_CRIT };

/* "ok" "info" "warn" "crit"; NULL out of range. */
const char *ds_tr_sev_name(enum ds_tr_sev s);

/* Optional per-device latency traced over the same window, in us. */
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

struct ds_tr_dev {
	const char *name;	/* kernel name */
	struct ds_xstat x;	/* the iostat -x figures over the window */
	/* in_flight read several times a second during the window */
	const uint32_t *inflight;
	size_t ninflight;
	/* Queue attributes; 0 where unknown. */
	uint64_t nr_requests;	/* per hardware queue */
	uint64_t nr_hw_queues;	/* mq/N directories; 0 unknown (or bio) */
	uint64_t queue_depth;	/* device/queue_depth (SCSI, ATA) */
	int rotational;		/* 1, 0; -1 unknown */
	const char *sched;	/* active scheduler ("none"); NULL unknown */
	int nomerges;		/* 0, 1, 2; -1 unknown */
	int virt;		/* a virtual disk (virtio, xen, cloud): 1, 0,
				   -1 unknown */
	const struct ds_tr_lat *lat;	/* NULL: not traced */
	struct ds_tr_load load;	/* traced: the disk's largest load */
	const struct ds_base_dev *base;	/* NULL: no quiet-time baseline */
};

struct ds_tr_proc {
	int pid;
	const char *comm;
	int kthread;		/* a kernel thread (jbd2, kworker, kswapd) */
	struct ds_who_rate rate;	/* over the window (ds_who_rate) */
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
	int have_deleted;	/* the deleted-open scan covered this fs */
	uint64_t held;		/* bytes allocated by deleted-open files */
	uint64_t held_files, held_procs;
	const struct ds_tr_holder *holder;	/* largest first */
	size_t nholder;
};

/* A PSI share over the window, percent; have 0 unknown. */
struct ds_tr_psi {
	int have;
	double some, full;
};

/*
 * A thread seen in an I/O wait at one of the window's looks: D, or S
 * in io_uring's completion wait (ds_stalls_scan).
 */
struct ds_tr_task {
	int pid, tid;
	int wait;		/* enum ds_wait */
	int kthread;
	unsigned int look;	/* which look of the window */
	char comm[16];		/* the thread's */
};

/* What a process the judgement names holds open (ds_procfds_read). */
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
	uint64_t lat_depth;	/* io.stat depth: below max, io.latency holds
				   it to that many requests; 0 unknown */
	double cost_wait;	/* iocost: share of the window its I/O waited
				   for its budget (cost.wait); -1 unknown */
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

struct ds_triage_in {
	double window_s;	/* length of the window, seconds */
	int since_boot;		/* a captured tree: counters since boot,
				   pressure from avg10 */
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
	size_t procs_unreadable;	/* processes whose io we could not read */
	size_t fds_unreadable;	/* processes whose descriptors the deleted
				   scan could not read (ds_deleted.denied) */
	struct ds_tr_fs *fs;
	size_t nfs;
	const char *base_dir;	/* where the baseline was looked for */
	int have_base;		/* a baseline directory was read */
	int have_dlat;		/* block-latency tracing ran */
	const char *dlat_why;	/* live without tracing: why (a no-latency row) */
	/* Who waited, and on what, at the looks of the window. */
	const struct ds_tr_task *task;
	size_t ntask;
	size_t nlooks;
	const uint32_t *look_inflight;	/* per look: requests in flight on
					   every disk together */
	const struct ds_tr_fds *fds;
	size_t nfds;
	const char *kernel;	/* proc/sys/kernel/osrelease; NULL unknown */
	/* Limits of the cgroups, dirty pages, errors. */
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

/*
 * The judgement: findings of one window, the verdict row first, then
 * by severity (highest first), in the order the rules run.  Pure: reads
 * only in.  Replaces out; -ENOMEM.
 */
int ds_triage(const struct ds_triage_in *in, struct ds_findings *out);
/* 3 when some finding is warn or above, else 0: an exit status. */
int ds_triage_exit(const struct ds_findings *f);
void ds_findings_free(struct ds_findings *f);

/*
 * The whole disks: sys/block's names, or, for a captured tree without
 * sys/block, the diskstats names that are no partition; sorted.
 */
int ds_whole_disks(const struct ds_root *r, struct ds_buf *window,
    struct ds_blockdevs *out);
/* sys/block/DISK/device/queue_depth (SCSI, ATA); -ENOENT elsewhere. */
int ds_disk_queue_depth(const struct ds_root *r, const char *disk,
    struct ds_buf *scratch, uint64_t *depth);
/*
 * 1 when the disk is virtual: its driver is virtio, xen or Hyper-V's,
 * or its vendor or model is a hypervisor's or a cloud's; else 0.
 */
int ds_disk_virtual(const struct ds_root *r, const char *disk,
    struct ds_buf *scratch);
/*
 * The pressure share of a window from two reads of a pressure file
 * (a NULL: b's avg10, for a captured tree that cannot be sampled).
 * -ENODATA without a "some" line; -EINVAL when the two do not pair.
 */
int ds_psi_shares(const struct ds_psi *a, const struct ds_psi *b,
    uint64_t ns, struct ds_tr_psi *out);
/*
 * 1 when a mount holds a disk's (or the network's) filesystem: a block
 * device number, or btrfs, zfs, nfs and the like, whose st_dev is
 * anonymous (major 0); 0 for proc, sysfs, tmpfs, overlay and the rest.
 */
int ds_fs_on_disk(const char *fstype, unsigned int major);

/* ---- public since the split of dtriage (to be grouped) */

/* Add src's counts into dst (its maximum the larger of the two). */
void ds_lat_merge(struct ds_lat *dst, const struct ds_lat *src);

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
 * Device identity: what a whole disk is, apart from the kernel name it
 * has this boot (dm-3 may be another volume after a reboot).
 */
/* An identity and its NUL; a longer one is not used (never cut). */
#define DS_DEVID_MAX 256

/*
 * The identity of the whole disk name (sys/block/NAME) into id: the
 * first there is of dm/uuid ("dm-uuid=..."), wwid or device/wwid
 * ("wwid=..."), serial or device/serial ("serial=..."), dm/name
 * ("dm-name=..."); "" for none (loop, zram, a partition).  Values are
 * trimmed, blank runs made one space, other bytes outside printable
 * ASCII and '\\' written \xHH.  A value that is empty, over a page,
 * too long for id, absent or unreadable (SCSI wwid without VPD page
 * 0x83: ENXIO) is passed over for the next.  0; -EINVAL for a name that
 * is no single path component; -errno (id "") when an attribute cannot
 * be opened for another reason: a weaker identity would be another.
 */
int ds_devid_read(const struct ds_root *r, const char *name,
    char id[DS_DEVID_MAX]);

/* ---- public since the split of util (to be grouped) */

/*
 * Checked conversions.  ds_parse_u64: an unsigned decimal at s, leading
 * blanks skipped; a '-' or '+' sign, no digits, or overflow past
 * UINT64_MAX is an error (-EINVAL, -ERANGE).  *end (if not NULL) is set
 * past the digits.
 */
int ds_parse_u64(const char *s, const char **end, uint64_t *out);
/*
 * A non-negative decimal with an optional fraction ("12.5", "0.01") as
 * an integer count of 10^-scale units, truncated past scale digits:
 * ds_parse_fixed("12.345", 2, &v) gives 1234.  scale is at most 19
 * (-EINVAL above: 10^20 does not fit in 64 bits).
 */
int ds_parse_fixed(const char *s, const char **end, unsigned scale,
    uint64_t *out);
/* The whole string one number (blanks around it, a newline after). */
int ds_strtou64(const char *s, uint64_t *out);
/* ---- public since the split of dxstat (to be grouped) */

/*
 * Read the whole file rel below the root into b (its contents
 * replaced).  procfs and sysfs report st_size 0, so this reads until
 * EOF.  Opened O_NONBLOCK so a FIFO cannot hang us; a directory gives
 * -EISDIR, a file over DS_READ_MAX -EFBIG.
 */
int ds_read_file(const struct ds_root *r, const char *rel, struct ds_buf *b);

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

/*
 * For trees without /sys: is this kernel name a partition?  sda1,
 * vdb2, xvda3, nvme0n1p2, mmcblk0p1 are; sda, nvme0n1, dm-0, loop0 not.
 */
int ds_name_is_partition(const char *name);
/*
 * The first line of sys/block/DEV/dm/name into name (size bytes; the
 * file read into scratch): 0; -ENOENT when dev is no dm device, -EINVAL
 * for a dev that cannot be a device name ("", ".", "..", holding '/'),
 * -ENAMETOOLONG when the name does not fit.
 */
int ds_dm_name(const struct ds_root *r, const char *dev,
    struct ds_buf *scratch, char *name, size_t size);
/* ---- public since the split of dlat (to be grouped) */
/* Make room in b for n more bytes (and the NUL); -ENOMEM. */
int ds_buf_reserve(struct ds_buf *b, size_t n);
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
/* ---- public since the split of ddeleted (to be grouped) */

/* open(2) below the root; O_CLOEXEC is added. Returns fd or -errno. */
int ds_openat(const struct ds_root *r, const char *rel, int flags);

/*
 * The mount of the filesystem on device major:minor: the last of its
 * mounts whose root is the filesystem's "/", else its first; NULL when
 * none.
 */
const struct ds_mount *ds_mount_by_dev(const struct ds_mounts *ms,
    unsigned int major, unsigned int minor);

/*
 * Like du -sx: bytes allocated (st_blocks x 512) by every inode
 * reachable by name from dir (below the root), each inode once,
 * without crossing into other filesystems.  Unreadable directories are
 * counted in *errors and skipped.  dev not 0: -EXDEV when dir is not on
 * that device (another mount stacked over the mount point).
 */
int ds_du(const struct ds_root *r, const char *dir, uint64_t dev,
    uint64_t *bytes, uint64_t *errors);
/* ---- public since the split of dwho (to be grouped) */

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
/* The entry of pid in a scan read by ds_procs_read, or NULL. */
const struct ds_proc *ds_procs_find(const struct ds_procs *ps, int pid);
/*
 * Rates of cur over secs seconds.  prev NULL, or a different process
 * (pid or starttime differ): cur's own counters, which all fall inside
 * the span.  A counter that went backwards counts as 0 (the delay sum
 * drops when a thread exits).  delay: include DS_WR_DELAY.
 */
void ds_who_rate(const struct ds_proc *prev, const struct ds_proc *cur,
    double secs, long clk_tck, int delay, struct ds_who_rate *out);
/* Add b into a (known values only); a's active becomes a OR b. */
void ds_who_rate_add(struct ds_who_rate *a, const struct ds_who_rate *b);
/* Seconds the process has run at uptime_ns; 0 when not yet a tick. */
double ds_proc_age(const struct ds_proc *p, uint64_t uptime_ns, long clk_tck);

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
/* ---- public since the split of dpsi (to be grouped) */

/* "cpu" "io" "memory" "irq"; "some" "full".  NULL when out of range. */
const char *ds_psi_res_name(enum ds_psi_res res);
const char *ds_psi_kind_name(enum ds_psi_kind kind);

/*
 * What an errno of opening or reading a pressure file means, into msg:
 * ENOENT, EOPNOTSUPP (4.20 to 5.5 and RHEL 8 booted without psi),
 * ENODEV (cgroup.pressure 0), for a cgroup's file or the system's.  1,
 * 0 (msg empty) for another errno, or -ENOMEM.
 */
int ds_psi_err_msg(int e, int cgroup, struct ds_buf *msg);
/* Why a file's first bad line was refused, into msg: 1, 0 when none. */
int ds_psi_bad_msg(const struct ds_psi_bad *bad, struct ds_buf *msg);

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

/* ---- public since the split of dqueue (to be grouped) */
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

#endif
