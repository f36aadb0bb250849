/*
 * libdiskstat: parsing of Linux block-layer, pressure and process
 * accounting files, and one writer for every output format.
 *
 * The library never prints and never exits.  Functions return 0 (or a
 * count) on success and -errno on failure; nothing is kept between calls
 * except in the structures the caller owns.
 */
#ifndef DISKSTAT_H
#define DISKSTAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define DS_VERSION "0.1.0"

/* ---- Root prefix ------------------------------------------------------ */

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
/* open(2) below the root; O_CLOEXEC is added. Returns fd or -errno. */
int ds_openat(const struct ds_root *r, const char *rel, int flags);
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

/* ---- Whole-file reading ----------------------------------------------- */

/* A growing buffer, reused across reads; data is always NUL-terminated. */
struct ds_buf {
	char *data;
	size_t len;
	size_t cap;
};

#define DS_READ_MAX (64u << 20)	/* files larger than this are refused */

/*
 * Read a whole file into b (replacing its contents).  procfs and sysfs
 * report st_size 0, so this reads until EOF.  Opened O_NONBLOCK so a
 * FIFO cannot hang us; a directory gives -EISDIR, a file over
 * DS_READ_MAX gives -EFBIG.
 */
int ds_read_file(const struct ds_root *r, const char *rel, struct ds_buf *b);
int ds_read_fd(int fd, struct ds_buf *b);
void ds_buf_free(struct ds_buf *b);
/* Make room for n more bytes; -ENOMEM on failure. */
int ds_buf_reserve(struct ds_buf *b, size_t n);
/* Empty b (still NUL-terminated, as after a failed read); returns e. */
int ds_buf_fail(struct ds_buf *b, int e);

/* ---- Line-by-line reading --------------------------------------------- */

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
#define DS_LINES_CUT (DS_LINES_WINDOW - 1)	/* as long or longer: cut */

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

/* Open rel under the root; -errno (the window emptied) on failure. */
int ds_lines_open(struct ds_lines *l, const struct ds_root *r,
    const char *rel, struct ds_buf *window);
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
void ds_lines_close(struct ds_lines *l);

/* ---- Checked parsing -------------------------------------------------- */

/*
 * Parse an unsigned decimal at s.  Leading blanks are skipped; a '-' or
 * '+' sign, no digits, or overflow past UINT64_MAX is an error (-EINVAL,
 * -ERANGE).  *end (if not NULL) is set past the digits.
 */
int ds_parse_u64(const char *s, const char **end, uint64_t *out);
/* The whole string must be one number (trailing newline allowed). */
int ds_strtou64(const char *s, uint64_t *out);
/*
 * A non-negative decimal with an optional fraction ("12.5", "0.01") as
 * an integer count of 10^-scale units, truncated past scale digits:
 * ds_parse_fixed("12.345", 2, &v) gives 1234.  scale is at most 19
 * (-EINVAL above: 10^20 does not fit in 64 bits).
 */
int ds_parse_fixed(const char *s, const char **end, unsigned scale,
    uint64_t *out);

/*
 * Split s in place on blanks (space, tab), writing at most max field
 * pointers.  Returns the number of fields found, which may exceed max
 * (the extra fields are not stored).
 */
size_t ds_split(char *s, char **fields, size_t max);

/* Return the next line at *cursor (NUL-terminated in place), or NULL. */
char *ds_next_line(char **cursor);

/* ---- Clocks ----------------------------------------------------------- */

/*
 * The time base of every interval: CLOCK_BOOTTIME on a live system
 * (the clock behind /proc/uptime), the tree's proc/uptime otherwise,
 * so that intervals between captured samples are exact.  Nanoseconds.
 */
int ds_uptime_ns(const struct ds_root *r, struct ds_buf *scratch,
    uint64_t *ns);
/* Parse the text of /proc/uptime ("350735.47 234388.90"). */
int ds_uptime_parse(const char *text, uint64_t *ns);
/* Wall clock, for the time column: nanoseconds since the epoch. */
uint64_t ds_realtime_ns(void);
/* CLOCK_BOOTTIME now, nanoseconds. */
uint64_t ds_boottime_ns(void);
/*
 * Sleep until the absolute CLOCK_BOOTTIME deadline.  Returns 0, or
 * -EINTR when a signal arrived first.
 */
int ds_sleep_until(uint64_t deadline_ns);

/* ---- /proc/diskstats -------------------------------------------------- */

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

/* Parse text (need not be NUL-terminated); replaces out's contents. */
int ds_diskstats_parse(const char *text, size_t len, struct ds_diskstats *out);
/*
 * Read and parse proc/diskstats under the root, through window (see
 * ds_lines): the text is never held whole.
 */
int ds_diskstats_read(const struct ds_root *r, struct ds_buf *window,
    struct ds_diskstats *out);
/*
 * The next device of a diskstats text read through l: 1 with *d set, 0
 * at the end, -errno on a read error.  Damaged lines are skipped and
 * counted in bad->bad and bad->first_bad (l's line numbers), as
 * ds_diskstats_parse does; nothing else of *bad is touched.
 */
int ds_diskstats_next(struct ds_lines *l, struct ds_disk *d,
    struct ds_diskstats *bad);
/* Every remaining device of l into out (its contents replaced). */
int ds_diskstats_fill(struct ds_lines *l, struct ds_diskstats *out);
void ds_diskstats_free(struct ds_diskstats *s);
/* Parse one line; 0 or -EINVAL when malformed. */
int ds_disk_parse_line(char *line, struct ds_disk *d);
/*
 * Counters of a line of nc that are used: the longest format a kernel
 * printed that the line holds in full (12 to 14 are read as 11, 16 as
 * 15; the kernel only appends).  ds_disk_extra: how many were left
 * unused that way (0 for 4, 11, 15 and 17 or more, a newer kernel's).
 */
unsigned int ds_disk_known(unsigned int nc);
unsigned int ds_disk_extra(const struct ds_disk *d);

/* ---- Output ----------------------------------------------------------- */

enum ds_fmt { DS_FMT_TSV, DS_FMT_JSON, DS_FMT_TABLE, DS_FMT_PROM };

/* "tsv", "json", "table", "prom"; -EINVAL otherwise. */
int ds_fmt_parse(const char *s, enum ds_fmt *f);
/* table when fd is a terminal, tsv otherwise */
enum ds_fmt ds_fmt_default(int fd);

enum ds_type {
	DS_T_STR,		/* text, escaped per format */
	DS_T_U64,		/* exact unsigned integer */
	DS_T_I64,
	DS_T_F2,		/* double, two decimals (iostat's precision) */
	DS_T_TIME,		/* Unix time in ns, printed as seconds.millis */
	DS_T_G,			/* double, ten significant digits (ds_w_f) */
	DS_T_F3,		/* double, three decimals (ns given in us);
				   cells given with ds_w_f */
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
#define DS_C_KEEP	8u	/* always shown (a prom label of identity) */

/*
 * Rows are given one cell at a time, in column order, then ended with
 * ds_w_row_end().  TSV and JSON go straight to the stream; table and
 * prom are held until ds_w_report_end(), which aligns the table or
 * groups the metric families.  Memory is the caller's struct plus what
 * it allocates; nothing is global.
 */
struct ds_cell {
	unsigned char kind;	/* 0 null, else the column's type + 1 */
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
/* A byte count in human units as df -h prints it: 4G, 251.9G, 512. */
size_t ds_fmt_human(char *buf, size_t sz, double bytes);
/* Unix ns as local (utc: UTC) "HH:MM:SS", with date "YYYY-MM-DD HH:MM:SS". */
size_t ds_fmt_clock(char *buf, size_t sz, uint64_t unix_ns, int utc,
    int date);
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
 * Escaping, exposed for tests and for tools that write text themselves.
 * Each appends to b; -ENOMEM on failure.
 *   tsv:  tab, newline, CR, backslash and NUL as \t \n \r \\ \0; the
 *         other bytes table escapes (control bytes, C1, invalid UTF-8,
 *         the bidi controls) as \xHH, since TSV reaches a terminal
 *         through a pipe; other bytes kept.
 *   json: a quoted string: " \ and bytes below 0x20 escaped, DEL as
 *         \u007f, the C1 and bidi controls as \u0080-\u009f, \u202e
 *         and so on (the same text), invalid UTF-8 as U+FFFD.
 *   prom: a label value: \ " and newline escaped, invalid UTF-8 as U+FFFD.
 */
int ds_esc_tsv(struct ds_buf *b, const char *s, size_t len);
int ds_esc_json(struct ds_buf *b, const char *s, size_t len);
int ds_esc_prom(struct ds_buf *b, const char *s, size_t len);
/*
 * table: the TSV escapes, and other control bytes (C0, DEL, C1), bytes
 * of invalid UTF-8 and the bidi controls (see ds_esc_msg) as \xHH.
 */
int ds_esc_table(struct ds_buf *b, const char *s, size_t len);
/*
 * A message for stderr: as table (control bytes, ESC, C1, invalid UTF-8
 * as \xHH, the bidi controls U+061C U+200E U+200F U+202A-U+202E
 * U+2066-U+2069 as their bytes in \xHH).  The one escaping every tool
 * puts its messages through.
 */
int ds_esc_msg(struct ds_buf *b, const char *s, size_t len);
/* Length of the valid UTF-8 sequence at s (1 to 4), or 0 if invalid. */
size_t ds_utf8_len(const unsigned char *s, size_t avail);

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
int ds_atomic_open(struct ds_atomic *a, const char *path);
int ds_atomic_commit(struct ds_atomic *a);
void ds_atomic_abort(struct ds_atomic *a);

/* ---- Command-line values ---------------------------------------------- */

/*
 * An interval in seconds ("2", "0.5", "0.01"): 10 ms to 31 days, in ns.
 * -EINVAL when not a number, -ERANGE when outside.
 */
int ds_parse_interval(const char *s, uint64_t *ns);
/* A report count: 1 to UINT32_MAX. */
int ds_parse_count(const char *s, uint64_t *n);
/* True when s looks like a number (an interval or count operand). */
int ds_is_number(const char *s);

/* ==== Sections below are added by each tool's library module. ========= */

/* ---- Block devices (sysfs) -------------------------------------------- */

/* The names in sys/block (whole disks), sorted. */
struct ds_blockdevs {
	char **name;		/* sorted; each points into pool */
	size_t n;
	size_t cap;
	char *pool;		/* the names, one after the other */
	size_t poolcap;
};
int ds_blockdevs_read(const struct ds_root *r, struct ds_blockdevs *out);
/*
 * The entries of directory rel below the directory fd at, sorted, dot
 * files left out; with dirs_only, directories only (holders, mq/N).
 */
int ds_dir_names(int at, const char *rel, int dirs_only,
    struct ds_blockdevs *out);
/* The same, every path resolved inside the root r (NULL: as given). */
int ds_dir_names_in(const struct ds_root *r, int at, const char *rel,
    int dirs_only, struct ds_blockdevs *out);
int ds_blockdevs_has(const struct ds_blockdevs *b, const char *name);
void ds_blockdevs_free(struct ds_blockdevs *b);
/*
 * For trees without /sys: is this kernel name a partition?  sda1,
 * vdb2, xvda3, nvme0n1p2, mmcblk0p1 are; sda, nvme0n1, dm-0, loop0 not.
 */
int ds_name_is_partition(const char *name);
/*
 * sys/block/DEV/dm/name into name; -ENOENT when not a dm device,
 * -EINVAL for a name that cannot be a device ("", ".", "..", holding '/').
 */
int ds_dm_name(const struct ds_root *r, const char *dev,
    struct ds_buf *scratch, char *name, size_t size);

/*
 * Device operands (dxstat, dqueue): a kernel name ("sda"), the same
 * with "/dev/" before it, "/dev/mapper/NAME" for the device-mapper
 * device named NAME, or a shell glob (fnmatch(3)) of any of these.
 */
struct ds_devop {
	const char *arg;	/* as given, for messages */
	const char *pat;	/* name or glob, /dev/ or /dev/mapper/ cut */
	int glob;		/* pat holds '*', '?' or '[' */
	int dm;			/* given as /dev/mapper/: dm names only */
	int matched;		/* it selected a device (ds_devsel_match) */
};
struct ds_devsel {
	struct ds_devop *op;
	size_t n;
	size_t nglob;		/* operands that are globs */
	size_t ndm;		/* operands given as /dev/mapper/ */
};
/* The operands args[0..n-1] (kept, not copied).  -ENOMEM. */
int ds_devsel_init(struct ds_devsel *s, char *const *args, size_t n);
void ds_devsel_free(struct ds_devsel *s);
/*
 * 1 when op names or matches the device with kernel name name and dm
 * name dm (NULL: none known): a /dev/mapper/ operand looks at dm only,
 * others at both.  Marks nothing.
 */
int ds_devop_match(const struct ds_devop *op, const char *name,
    const char *dm);
/*
 * A device against every operand: 2 when one names it (not a glob), 1
 * when only globs match it and whole is set (globs select whole disks;
 * the caller says whether this one counts as such), 0 otherwise.  Each
 * operand that selected it gets matched set.
 */
int ds_devsel_match(struct ds_devsel *s, const char *name, const char *dm,
    int whole);

/* ---- Devices a report shows (lib/disksel.c) --------------------------- */

/*
 * dxstat's choice of rows: with no operand whole disks (the names in
 * sys/block, read when first needed; without it, partitions are told by
 * their names), partitions too with part; with operands those they name
 * or match (ds_devsel_match: globs select whole disks, all with part).
 * A device selected only by default or a glob is left out when it never
 * did I/O, unless all.  Zero it, set part, all and dm, then
 * ds_disksel_init.
 */
struct ds_dmname;
struct ds_disksel {
	const struct ds_root *r;
	struct ds_devsel *sel;		/* the operands (the caller's) */
	int part;			/* partitions too */
	int all;			/* also devices that never did I/O */
	int dm;				/* dm names wanted (-N) */
	int use_sys;			/* the root's sys is the counters'
					   machine (else no dm names) */
	struct ds_blockdevs bd;
	int bd_state;			/* 0 not read yet, 1 read, -1 none */
	int bd_rescanned;		/* read during this report: the
					   caller zeroes it at each */
	int bd_error;			/* a read of sys/block failed with
					   this -errno: the caller tells it
					   (with the root's sys/block) and
					   zeroes it */
	struct ds_dmname *dmn;		/* dm names read, one per device */
	size_t ndmn, capdmn;
	struct ds_buf scratch;
};
void ds_disksel_init(struct ds_disksel *s, const struct ds_root *r,
    struct ds_devsel *sel, int use_sys);
void ds_disksel_free(struct ds_disksel *s);
/*
 * 1 when c is shown (seen: it was in the previous sample), 0 when not,
 * -ENOMEM.  Marks the operands that match it.
 */
int ds_disksel_show(struct ds_disksel *s, const struct ds_disk *c, int seen);
/*
 * The device-mapper name of dev into *dm (NULL: none, or the counters
 * are from another machine), read once per device.  0 or -ENOMEM.
 */
int ds_disksel_dm(struct ds_disksel *s, const char *dev, const char **dm);
/* 1 when there are operands and none has matched a device yet. */
int ds_devsel_none_matched(const struct ds_devsel *sel);

/* ---- dxstat: snapshots and deltas ------------------------------------- */

/*
 * A snapshot: /proc/diskstats with the time it was read.  As a file:
 *
 *	uptime 350735.47		(seconds since boot, CLOCK_BOOTTIME)
 *	time 1764470000.123		(optional: Unix time, seconds)
 *	   8       0 sda 1 2 3 ...	(the verbatim /proc/diskstats text)
 */
struct ds_snap {
	uint64_t uptime_ns;
	uint64_t time_ns;	/* wall clock; 0 when the file had none */
	struct ds_diskstats ds;
	const char *why;	/* after -EINVAL from ds_snap_parse: what */
	size_t why_line;	/* and on which line (1-based) */
};

/*
 * Parse a snapshot file.  The header lines ("uptime", "time") come
 * before the first diskstats line, in any order; a missing or damaged
 * uptime line is -EINVAL with why set.  Damaged diskstats lines are
 * skipped and counted in ds.bad, as ds_diskstats_parse does.
 */
int ds_snap_parse(const char *text, size_t len, struct ds_snap *s);
/*
 * The same from a file read through l: the header lines into s (s->ds
 * untouched but for its counts, zeroed), leaving l at the first
 * diskstats line, to be read with ds_diskstats_next or _fill.
 */
int ds_snap_head(struct ds_lines *l, struct ds_snap *s);
/*
 * 1 when l reads procfs: a live sample, to be read whole before it is
 * reported (a slow reader must not stretch it), not line by line.
 */
int ds_lines_procfs(const struct ds_lines *l);
/* Append a snapshot to out: header lines, then the diskstats text. */
int ds_snap_format(struct ds_buf *out, uint64_t uptime_ns, uint64_t time_ns,
    const char *diskstats, size_t len);
void ds_snap_free(struct ds_snap *s);

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
 * dxstat's columns (*n of them): time, device, the figures in the order
 * of enum ds_xcol, in_flight; with their Prometheus names and help.
 */
const struct ds_col *ds_xstat_columns(size_t *n);

/* ---- Pressure stall information --------------------------------------- */

enum ds_psi_res { DS_PSI_CPU, DS_PSI_IO, DS_PSI_MEMORY, DS_PSI_IRQ,
	DS_PSI_NRES };
enum ds_psi_kind { DS_PSI_SOME, DS_PSI_FULL, DS_PSI_NKINDS };

/* One line: "some avg10=0.18 avg60=0.34 avg300=0.10 total=159886802". */
struct ds_psi_line {
	uint64_t avg[3];	/* avg10, avg60, avg300: hundredths of a percent */
	uint64_t total;		/* cumulative stall, microseconds */
};

/* One pressure file. */
struct ds_psi {
	unsigned int have;	/* bit k: the line of kind k was there */
	size_t bad;		/* malformed or repeated lines skipped */
	size_t first_bad;	/* 1-based line number of the first, 0 if none */
	struct ds_psi_line line[DS_PSI_NKINDS];
};

/* "cpu" "io" "memory" "irq"; "some" "full".  NULL when out of range. */
const char *ds_psi_res_name(enum ds_psi_res res);
const char *ds_psi_kind_name(enum ds_psi_kind kind);
/* The index of a name of len bytes, or -EINVAL. */
int ds_psi_res_parse(const char *s, size_t len);
int ds_psi_kind_parse(const char *s, size_t len);
/*
 * A comma-separated list of resources ("io,cpu") into order, each once,
 * in the order first named; *n of them.  -EINVAL at a name that is not
 * one, with *bad and *badlen on it.
 */
int ds_psi_res_list(const char *arg, enum ds_psi_res *order, size_t *n,
    const char **bad, size_t *badlen);
/* Parse one line in place; -EINVAL when any of the four values is missing. */
int ds_psi_parse_line(char *line, enum ds_psi_kind *kind,
    struct ds_psi_line *l);
/* Parse a file's text in place; -EINVAL when it has no good line. */
int ds_psi_parse(char *text, struct ds_psi *p);
/* Read and parse rel under the root, name under dirfd, or an open fd. */
int ds_psi_read(const struct ds_root *r, const char *rel,
    struct ds_buf *scratch, struct ds_psi *p);
int ds_psi_read_at(int dirfd, const char *name, struct ds_buf *scratch,
    struct ds_psi *p);
int ds_psi_read_fd(int fd, struct ds_buf *scratch, struct ds_psi *p);
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
/*
 * What an errno from opening or reading a pressure file means, for a
 * message: ENOENT, EOPNOTSUPP (4.20 to 5.5 and RHEL 8 booted without
 * psi), ENODEV (cgroup.pressure 0).  NULL for other errors.
 */
const char *ds_psi_errmsg(int e, int cgroup);

/* A trigger: "io:some:150ms/2s" is 150000 us of stall within 2 s. */
struct ds_psi_trigger {
	enum ds_psi_res res;
	enum ds_psi_kind kind;
	uint64_t stall_us;
	uint64_t window_us;
};

#define DS_PSI_WINDOW_MIN 500000u	/* us */
#define DS_PSI_WINDOW_MAX 10000000u

/* RESOURCE:KIND:STALL/WINDOW, durations with us, ms or s. */
int ds_psi_trigger_parse(const char *spec, struct ds_psi_trigger *t);
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
/* A part's name ("stall"), and why it is wrong, for a message; or NULL. */
const char *ds_psi_trigger_part_name(enum ds_trig_part part);
const char *ds_psi_trigger_part_why(enum ds_trig_part part);
/*
 * The kernel's rules, checked before arming: -ERANGE window outside
 * 500 ms to 10 s, -EDOM stall 0 or over the window, -EPERM window not a
 * multiple of 2 s when not privileged (no CAP_SYS_RESOURCE).
 */
int ds_psi_trigger_check(const struct ds_psi_trigger *t, int privileged);
/* "some 150000 2000000" and its NUL; returns the bytes to write. */
int ds_psi_trigger_format(const struct ds_psi_trigger *t, char *buf,
    size_t size);
/* Write the trigger to a pressure file opened O_RDWR; 0 or -errno. */
int ds_psi_trigger_arm(int fd, const struct ds_psi_trigger *t);
/* 1 when fd is on procfs or cgroup2, where triggers can exist. */
int ds_psi_trigger_supported(int fd);
/* 1 when this process has CAP_SYS_RESOURCE in its effective set. */
int ds_psi_privileged(void);
/* A message for an errno of ds_psi_trigger_check or _arm, or NULL. */
const char *ds_psi_trigger_errmsg(int e);
/*
 * Is a trigger event real?  A freshly armed trigger can fire at once;
 * an event counts when the total grew by at least stall_us.
 */
int ds_psi_confirm(uint64_t before, uint64_t after, uint64_t stall_us);

/* ---- Mount table and cgroups ------------------------------------------ */

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

/* Parse one line in place. */
int ds_mountinfo_parse_line(char *line, struct ds_mount *m);
/* Parse text in place (it must outlive out's strings). */
int ds_mountinfo_parse(char *text, struct ds_mounts *out);
/* Read rel ("proc/self/mountinfo", "proc/123/mountinfo") and parse. */
int ds_mountinfo_read(const struct ds_root *r, const char *rel,
    struct ds_mounts *out);
void ds_mounts_free(struct ds_mounts *ms);
const struct ds_mount *ds_mount_by_id(const struct ds_mounts *ms,
    unsigned int id);
/* The cgroup v2 hierarchy's mount, or NULL when there is none. */
const struct ds_mount *ds_mount_cgroup2(const struct ds_mounts *ms);
/*
 * Open the cgroup at path (relative to the v2 mount m, "" or "/" for
 * its top) as a directory; fd or -errno (-EINVAL for ".." in path).
 */
int ds_cgroup_open(const struct ds_root *r, const struct ds_mount *m,
    const char *path);
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
int ds_cgroup_walk(int topfd, int (*fn)(void *arg, int dirfd,
    const char *path), void *arg);
/*
 * The cgroup v2 mount point, copied to mnt: the cgroup2 mount of
 * proc/self/mountinfo under the root (ds_mount_cgroup2).  Only a
 * captured tree without that file falls back to "/sys/fs/cgroup".
 * -ENOENT when the table has no cgroup2 mount; -errno when the table
 * cannot be read.
 */
int ds_cgroup2_mount(const struct ds_root *r, char *mnt, size_t size);

/* ---- Processes -------------------------------------------------------- */

struct ds_pids {
	int *pid;
	size_t n;
	size_t cap;
};
/* Numeric entries of a directory ("proc", "proc/123/task"), sorted. */
int ds_pids_read(const struct ds_root *r, const char *rel,
    struct ds_pids *out);
void ds_pids_free(struct ds_pids *p);
/*
 * Add the ids of a list ("12,340,5") to out, then sort out and drop
 * repeats.  -EINVAL at an id that is not one (1 to INT_MAX), copied to
 * bad; -ENODATA when the list holds none.
 */
int ds_pids_parse(const char *list, struct ds_pids *out, char *bad,
    size_t size);

/* The fields of /proc/PID/stat that the tools use. */
struct ds_stat {
	int pid;
	char comm[64];		/* may hold any byte but NUL */
	size_t comm_len;
	char state;
	int ppid;
	uint64_t utime, stime;	/* clock ticks */
	uint64_t num_threads;
	uint64_t starttime;	/* clock ticks after boot */
	uint64_t blkio_ticks;	/* field 42, delayacct_blkio_ticks */
	int have_blkio;		/* field 42 was present */
	unsigned int nfields;
};
/* Parse stat text; comm runs to the last ')'.  -EINVAL when damaged. */
int ds_stat_parse(const char *text, size_t len, struct ds_stat *st);

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
int ds_io_parse(const char *text, struct ds_io *io);

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
/* The uid of a name in the same table; -ENOENT when there is none. */
int ds_user_uid(struct ds_users *u, const struct ds_root *r, const char *name,
    uint32_t *uid);
void ds_users_free(struct ds_users *u);

/*
 * dwho: a sample of processes (or threads) with their I/O counters.
 * A process is known by (pid, starttime): a reused pid is a new one.
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
/* Binary search by pid. */
const struct ds_proc *ds_procs_find(const struct ds_procs *ps, int pid);

/*
 * The cgroup of a proc/PID/cgroup text: the v2 line ("0::/path"); on a
 * v1-only host the blkio controller's line, then name=systemd's, then
 * the first.  *path points into text.  -EINVAL when none parses.
 */
int ds_proc_cgroup_parse(const char *text, const char **path, size_t *len);

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
/*
 * Page-cache hit ratio in percent, 100 * (1 - read/rchar) clamped to
 * 0..100; -1 when rchar is 0 or unknown.
 */
double ds_who_hit(const struct ds_who_rate *r);
/*
 * A kernel thread that does I/O on behalf of others, told by its name
 * (comm, as ps shows it): "loop" for a loop device's worker (loopN, or a
 * kworker whose work item names loopN), "flush" for a writeback flusher
 * (kworker/u*:*+flush-MAJ:MIN), "journal" for jbd2/DEV; NULL otherwise.
 */
const char *ds_who_carrier(const char *comm, size_t len);
/*
 * The length of comm a stable name keeps: a kworker's current work item
 * ("kworker/u8:2+flush-253:0" is "kworker/u8:2") changes from one
 * moment to the next, so it is cut; other names are kept whole.
 */
size_t ds_who_stable_len(const char *comm, size_t len);
/* Seconds the process has run at uptime_ns; 0 when not yet a tick. */
double ds_proc_age(const struct ds_proc *p, uint64_t uptime_ns, long clk_tck);

/* cgroup v2 io.stat (dwho -g): per cgroup and device, since creation. */
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
/* Parse io.stat text; unknown keys are ignored.  Replaces out's rows. */
int ds_iostat_parse(const char *text, struct ds_iostat *out);
void ds_iostat_free(struct ds_iostat *s);

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
/* Walk the cgroup2 hierarchy mounted at mnt, reading each io.stat. */
int ds_cgios_read(const struct ds_root *r, const char *mnt,
    struct ds_cgios *out);
void ds_cgios_free(struct ds_cgios *cs);
const struct ds_cgio *ds_cgios_find(const struct ds_cgios *cs,
    const char *path);
/* mnt/cgroup.controllers lists "io": 1, 0 if not, -errno unreadable. */
int ds_cgroup2_has_io(const struct ds_root *r, const char *mnt,
    struct ds_buf *scratch);

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

/* ---- Queue attributes ------------------------------------------------- */

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
/* 0, or -EINVAL for a damaged line (unbalanced or two brackets, too long). */
int ds_sched_parse(const char *text, struct ds_sched *s);
/* The available schedulers joined by one space into out; -ENOMEM. */
int ds_sched_join(const struct ds_sched *s, struct ds_buf *out);
/* names[0..n-1] joined by sep into out ("" for none); -ENOMEM. */
int ds_qnames_join(char *const *names, size_t n, const char *sep,
    struct ds_buf *out);

/*
 * Find the whole disk whose queue serves name: name itself when it is
 * in disks (the sorted sys/block listing), else the disk D holding
 * sys/block/D/name/partition (a partition).  -ENOENT when neither, -EINVAL for a
 * name that cannot be a device ("", ".", "..", holding '/').
 */
int ds_queue_resolve(const struct ds_root *r, const struct ds_blockdevs *disks,
    const char *name, char *disk, size_t size);

/* A device operand resolved: its name as given, the disk owning its queue. */
struct ds_qtarget {
	char *name;
	char disk[DS_DISK_NAME_MAX * 4];
};
struct ds_qtargets {
	struct ds_qtarget *t;
	size_t n, cap;
	int *err;		/* per operand of the selection: 0 or -errno */
	size_t nops;
};
/*
 * The devices of sel in operand order (lib/qtarget.c): a glob or a
 * /dev/mapper/ operand the whole disks of disks it matches (dm devices
 * by their dm name), a plain name that device, which may be a
 * partition (ds_queue_resolve); sel NULL or empty: every whole disk.
 * err[k] for operand k: 0, -ENOENT nothing matched or no such device,
 * -EINVAL a name that cannot be a device, another -errno of
 * ds_queue_resolve.  Operands that selected a device get matched set.
 * Returns 0 or -ENOMEM.
 */
int ds_qtargets_pick(const struct ds_root *r, const struct ds_blockdevs *disks,
    struct ds_devsel *sel, struct ds_buf *scratch, struct ds_qtargets *out);
void ds_qtargets_free(struct ds_qtargets *t);

/* The settings of the listing, in its column order. */
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

/* The attribute's file name ("nr_requests"); NULL when out of range. */
const char *ds_qattr_name(enum ds_qattr a);
/* 1 when the attribute holds a number (in ds_queue.v). */
int ds_qattr_numeric(enum ds_qattr a);

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
/*
 * The error of attribute a worth a message in a listing, or 0: none
 * when it was read, is missing (-ENOENT) or not applicable (-ENODATA),
 * or is queue/'s own error (qerr, to be said once for all).
 */
int ds_queue_attr_err(const struct ds_queue *q, enum ds_qattr a);
/*
 * The next message a listing of q says, into out as "dev: attr: why":
 * queue/ itself when it could not be opened, then each attribute
 * ds_queue_attr_err names.  *k is the cursor, -1 at the start.  1 when
 * out holds one, 0 at the end, -ENOMEM.
 */
int ds_queue_problem(const struct ds_queue *q, const char *dev, int *k,
    struct ds_buf *out);

/* A listing's cell: attribute a, its schedulers (avail), KiB as bytes. */
struct ds_qcell {
	enum ds_qattr a;
	int avail;
	int kib;
};
/* A listing's columns ("device" first) and the cell of each further one. */
struct ds_qlisting {
	const struct ds_col *cols;
	size_t ncols;
	const struct ds_qcell *cells;
	size_t ncells;
};
/*
 * The listing (lib/qlist.c); for Prometheus, the info family (the text
 * settings as labels, then the value 1: ncols is ncells + 2) and the
 * gauges in base units.
 */
extern const struct ds_qlisting ds_qlist_plain, ds_qlist_info,
    ds_qlist_gauge;
/*
 * Columns without cells: -a (device attribute value writable), --check
 * (device attribute want got), --set (device attribute old new status).
 */
extern const struct ds_qlisting ds_qlist_long, ds_qcheck_rows, ds_qset_rows;
/*
 * The value of cell c of q: 0 none (missing, unreadable, too large in
 * bytes), 1 text into text, 2 a number into *v; -ENOMEM.
 */
int ds_queue_cell(const struct ds_queue *q, const struct ds_qcell *c,
    struct ds_buf *text, uint64_t *v);

/* One file of queue/ or queue/iosched/, for the long listing. */
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
/* f's read error worth a message, or 0 (the kernel had no value to show). */
int ds_qfile_err(const struct ds_qfile *f);

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
/* The scheduler line of disk read (into scratch) and parsed into s. */
int ds_queue_sched_read(const struct ds_root *r, const char *disk,
    struct ds_buf *scratch, struct ds_sched *s);
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
/* 1 when want and got (as read) mean the same setting, else 0. */
int ds_queue_value_eq(const char *attr, const char *want, const char *got);

/* ---- Setting queue attributes: validate, apply, prove (queueset.c) ---- */

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

/* One attr=value of --check or --set, blanks around each part cut. */
struct ds_qsetting {
	char *attr;
	char *value;
};
struct ds_qsettings {
	struct ds_qsetting *s;
	size_t n, cap;
};
enum ds_qsp_why {
	DS_QSP_OK,
	DS_QSP_NOEQ,		/* an item without '=' */
	DS_QSP_EMPTY,		/* an empty value */
	DS_QSP_NAME,		/* not an attribute name: [a-z0-9_], iosched/ */
};
/*
 * attr=value[,attr=value...] appended to out, empty items skipped.
 * -EINVAL at the first malformed item: *why says how, bad holds the
 * item (DS_QSP_NOEQ) or its attribute name; -ENOMEM.
 */
int ds_qsettings_parse(struct ds_qsettings *out, const char *arg,
    enum ds_qsp_why *why, struct ds_buf *bad);
void ds_qsettings_free(struct ds_qsettings *s);
/* "not attr=value", "empty value", "not an attribute name". */
const char *ds_qsp_why_name(enum ds_qsp_why why);
/*
 * The settings as the request of each of copies disks, one after the
 * other (s->n items each) in one calloc'd array: free it; NULL: ENOMEM.
 */
struct ds_qs_item *ds_qsettings_request(const struct ds_qsettings *s,
    size_t copies);

/* --check of one setting. */
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
/* The first item ds_qset_prepare refused, or NULL. */
const struct ds_qs_item *ds_qset_refusal(const struct ds_qs_item *it,
    size_t n);
/*
 * After ds_qset_apply of one disk: DS_QSO_STOPPED when some setting
 * failed or does not hold (no further disk is written), DS_QSO_HALTED
 * when a write failed or was skipped, or the last write does not hold.
 */
#define DS_QSO_STOPPED 1
#define DS_QSO_HALTED 2
int ds_qset_outcome(const struct ds_qs_item *it, size_t n);
/*
 * The message for setting it of device dev (on disk's queue) into out,
 * as "dev: attr: why", without the program's name: why it was refused
 * before any write (it->why), or why it does not hold after the last
 * (failed, changed).  1 when out holds one, 0 when there is nothing to
 * say (it NULL too), -ENOMEM.
 */
int ds_qset_msg(const struct ds_root *r, const char *disk, const char *dev,
    const struct ds_qs_item *it, struct ds_buf *scratch, struct ds_buf *out);
/*
 * Append to b what the kernel now holds of disk dev's request, for the
 * message a stopped request ends with: "dev attr=value" for each
 * setting set or rounded, with " (asked value)" for one the kernel
 * stored differently; entries joined by ", ".  -ENOMEM.
 */
int ds_qset_applied(struct ds_buf *b, const char *dev,
    const struct ds_qs_item *it, size_t n);
/*
 * The last word of a stopped request (outcome: the ds_qset_outcome bits
 * of every disk, applied: the ds_qset_applied of each), into out: 1, 0
 * when it was not stopped, -ENOMEM.
 */
int ds_qset_summary(int outcome, const struct ds_buf *applied,
    struct ds_buf *out);
/* The new column of a row of --set: want, now or old; NULL when none. */
const char *ds_qs_new(const struct ds_qs_item *it);

/* ---- Deleted open files ----------------------------------------------- */

/*
 * ddeleted: files deleted (st_nlink 0) but still held open or mapped.
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
#define DS_FDI_POS	1u
#define DS_FDI_FLAGS	2u
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
/* Add a string to the pool; its offset, or DS_DEL_NONE on ENOMEM. */
size_t ds_deleted_intern(struct ds_deleted *d, const char *s, size_t len);
/* Sort holders by pid, then descriptor, mappings last. */
void ds_deleted_sort(struct ds_deleted *d);
/* ddeleted's reports: the listing, the summary (with du's) and --truncate. */
enum ds_delcols { DS_DELCOLS_LIST, DS_DELCOLS_SUM, DS_DELCOLS_SUM_DU,
	DS_DELCOLS_TRUNC };
/* The columns of a report (*n of them), with their Prometheus names. */
const struct ds_col *ds_deleted_columns(enum ds_delcols which, size_t *n);

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
/* statfs and st_dev of a path below the root, as a ds_delfs entry. */
int ds_delfs_stat(const struct ds_root *r, const char *path,
    struct ds_delfs *fs);

/* A size: "1048576", "512K", "10M", "2G" (powers of 1024).  -ERANGE. */
int ds_parse_size(const char *s, uint64_t *out);

/* A filesystem asked for (a mount point operand). */
struct ds_delwant {
	const char *path;	/* the operand, made absolute when live */
	char *abs;		/* the absolute copy, allocated */
	int ok;			/* fs was read */
	struct ds_delfs fs;
};
/*
 * The operand arg (a path below the root; live, a relative one is taken
 * from the current directory) statted into w.  On -errno, w->path is
 * still set: a holder's mount point can match it by name.
 */
int ds_delwant_stat(const struct ds_root *r, const char *arg,
    struct ds_delwant *w);
/* The allocations of w[0..n-1]. */
void ds_delwant_free(struct ds_delwant *w, size_t n);
/*
 * Keep the holders of d that hold min bytes or more, on a filesystem of
 * w[0..nw-1] (any when nw is 0), memory-backed ones only with memory.
 */
void ds_deleted_filter(struct ds_deleted *d, const struct ds_delwant *w,
    size_t nw, uint64_t min, int memory);

/* A row of the per-filesystem summary, with df's and du's figures. */
struct ds_delsumrow {
	const char *mount, *fstype;	/* NULL: unknown */
	size_t mount_len, fstype_len;
	int have_df;			/* a mount, and its statfs */
	uint64_t size, used, avail;	/* df's, bytes */
	struct ds_delsum s;		/* held, files, holders */
	int du_error;			/* with du: ds_du's -errno, or 0 */
	int have_reach;
	uint64_t reachable, du_errors;	/* du -sx, and entries not read */
	int have_unexplained;
	int64_t unexplained;		/* used - reachable - held */
};
struct ds_delsumrows {
	struct ds_delsumrow *row;
	size_t n;
	struct ds_mounts ms;		/* names the rows may point into */
};
/*
 * The summary of d (ds_deleted_summary's order), then a row of zeros for
 * each filesystem of w[0..nw-1] holding nothing deleted; with du, each
 * row with a mount walked by ds_du.  Strings point into d, w and out.
 */
int ds_deleted_sumrows(const struct ds_root *r, const struct ds_deleted *d,
    const struct ds_delwant *w, size_t nw, int du, struct ds_delsumrows *out);
void ds_delsumrows_free(struct ds_delsumrows *rs);

/*
 * Like du -sx: bytes allocated (st_blocks x 512) by every inode
 * reachable by name from dir (below the root), each inode once,
 * without crossing into other filesystems.  Unreadable directories are
 * counted in *errors and skipped.  dev not 0: -EXDEV when dir is not on
 * that device (another mount stacked over the mount point).
 */
int ds_du(const struct ds_root *r, const char *dir, uint64_t dev,
    uint64_t *bytes, uint64_t *errors);

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
struct ds_mapcheck {
	int mapped;
	int pid;
	size_t unreadable;
	int unreadable_pid;
};
/* b is scratch.  0, or -errno when proc cannot be listed. */
int ds_deleted_mapper(const struct ds_root *r, uint64_t dev, uint64_t ino,
    struct ds_buf *b, struct ds_mapcheck *c);

/* What --truncate checks before it acts. */
struct ds_delprobe {
	uint64_t dev, ino, size, blocks, nlink;
	int regular;		/* S_ISREG */
	int memory;		/* memory-backed (see ds_deleted_memory) */
	struct ds_mapcheck map;	/* filled for a regular deleted disk file */
	struct ds_fdinfo fi;
	char path[4096];	/* link target, suffix stripped */
};
/* "PID:FD" (--truncate's operand): -EINVAL when not that. */
int ds_parse_pidfd(const char *s, int *pid, int *fd);
/*
 * proc/PID/fd of the live system, checked to be procfs (an O_PATH fd):
 * -EPERM under any other root, -EXDEV when proc is not procfs.  The
 * probe and the truncation both refuse without it.
 */
int ds_deleted_fddir(const struct ds_root *r, int pid);
int ds_deleted_probe(const struct ds_root *r, int pid, int fd,
    struct ds_delprobe *p);
/*
 * Whether --truncate may act on the file probed: DS_TRUNC_GO, or why
 * not (root: the caller is root, whom only protected processes refuse
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

/* ---- /proc/stat: CPU time and task counts ----------------------------- */

/* The cpu line's fields, in the kernel's order (proc(5)); USER_HZ ticks. */
enum ds_cpu_field {
	DS_CPU_USER, DS_CPU_NICE, DS_CPU_SYSTEM, DS_CPU_IDLE, DS_CPU_IOWAIT,
	DS_CPU_IRQ, DS_CPU_SOFTIRQ, DS_CPU_STEAL, DS_CPU_GUEST,
	DS_CPU_GUEST_NICE, DS_CPU_N
};

#define DS_PS_CPU	1u	/* the "cpu" line was read */
#define DS_PS_RUNNING	2u	/* procs_running */
#define DS_PS_BLOCKED	4u	/* procs_blocked */

struct ds_procstat {
	uint64_t cpu[DS_CPU_N];	/* the all-CPU line; fields it lacks are 0 */
	unsigned int ncpu_fields;	/* how many it had (4 on 2.4, 10 now) */
	unsigned int ncpus;	/* "cpuN" lines: online CPUs */
	uint64_t procs_running;	/* tasks runnable now */
	uint64_t procs_blocked;	/* tasks in uninterruptible I/O wait now */
	unsigned int have;	/* DS_PS_* */
};
/* Parse the text (need not be NUL-terminated); -EINVAL without a cpu line. */
int ds_procstat_parse(const char *text, size_t len, struct ds_procstat *s);
int ds_procstat_read(const struct ds_root *r, struct ds_buf *scratch,
    struct ds_procstat *s);
/*
 * The share of CPU time that was iowait between two reads, in percent:
 * the iowait increment over the sum of the increments of user to steal
 * (guest time is already inside user and nice).  The kernel's iowait
 * can step back on a tickless CPU: a field that went backwards counts
 * 0.  -EINVAL when either lacks the iowait field or no time passed.
 */
int ds_procstat_iowait(const struct ds_procstat *a,
    const struct ds_procstat *b, double *pct);

/* ---- Filesystem space (statfs) ---------------------------------------- */

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

/* ---- Quiet-time baseline from dxstat snapshot files ------------------- */

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
/* A lightly queued interval: aqu-sz at most this ... */
#define DS_BASE_QUIET_AQU 1.5
/* ... with at least this many requests of the direction measured. */
#define DS_BASE_MIN_IOS 50
/* A baseline latency needs this many such intervals. */
#define DS_BASE_MIN_QUIET 3

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
 * with its own previous line by name; a device that appears is paired
 * from its second file on; counters that restarted (ds_disk_delta's
 * reset) skip that interval.  Calls ds_base_finish.  Replaces out.
 */
int ds_base_read(const struct ds_root *r, const char *dir, ds_base_keep keep,
    void *arg, struct ds_base *out);
/* The same on an open directory (the caller's; not closed). */
int ds_base_read_fd(int dirfd, ds_base_keep keep, void *arg,
    struct ds_base *out);
/* Add one interval of one device (for callers that pair themselves). */
int ds_base_add(struct ds_base *b, const char *name,
    const struct ds_xstat *x, const uint64_t d[DS_NCOUNTERS]);
/* Compute the medians and ceilings of every device; sorts by name. */
int ds_base_finish(struct ds_base *b);
/* The device's baseline, or NULL (after ds_base_finish). */
const struct ds_base_dev *ds_base_find(const struct ds_base *b,
    const char *name);
void ds_base_free(struct ds_base *b);

/* ---- dtriage: the judgement ------------------------------------------- */

enum ds_tr_sev { DS_TR_OK, DS_TR_INFO, DS_TR_WARN, DS_TR_CRIT };

/* "ok" "info" "warn" "crit"; NULL out of range. */
const char *ds_tr_sev_name(enum ds_tr_sev s);

/* Optional per-device latency from dlat over the same window, in us. */
struct ds_tr_lat {
	double d2c_mean, d2c_p99;	/* issue to completion */
	double q2c_mean, q2c_p99;	/* bio queued to completion */
	uint64_t count;		/* requests timed */
};

/* dlat's submitter of the most bytes to one disk over the window. */
struct ds_tr_load {
	int pid;		/* 0: none */
	char comm[16];
	uint64_t bytes;		/* its bytes to the disk */
	uint64_t total;		/* every submitter's bytes to the disk */
};

struct ds_tr_dev {
	const char *name;	/* kernel name */
	struct ds_xstat x;	/* the dxstat figures over the window */
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
	const struct ds_tr_lat *lat;	/* NULL: no dlat */
	struct ds_tr_load load;	/* with dlat: the disk's largest load */
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
	int have_dlat;		/* dlat could run */
	const char *dlat_why;	/* live without dlat: why (a no-latency row) */
};

/* One finding row. */
struct ds_finding {
	enum ds_tr_sev sev;
	const char *finding;	/* a stable keyword (static) */
	char subject[128];	/* device, "PID COMM", mount point, or "-" */
	double value;		/* in base units: see the finding's unit */
	const char *unit;	/* "s", "bytes", "bytes/s", "ratio", "count" */
	char evidence[320];
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
/* 3 when some finding is warn or above, else 0 (dtriage's exit status). */
int ds_triage_exit(const struct ds_findings *f);
void ds_findings_free(struct ds_findings *f);
/*
 * The request limit the in-flight count is held to: nr_requests times
 * the hardware queues (nr_requests is per queue), or the device's own
 * queue_depth when that is lower; 0 when unknown.
 */
uint64_t ds_tr_limit(const struct ds_tr_dev *d);


/* ---- dtriage: the window's inputs ------------------------------------- */

/*
 * The device called name in s, looked for first at index hint (devices
 * keep their order between reads), then from the start; NULL if none.
 */
const struct ds_disk *ds_diskstats_find(const struct ds_diskstats *s,
    const char *name, size_t hint);
/*
 * The whole disks: sys/block's names, or, for a captured tree without
 * sys/block, the diskstats names that are no partition; sorted.
 */
int ds_tr_disks(const struct ds_root *r, struct ds_buf *window,
    struct ds_blockdevs *out);
/* sys/block/DISK/device/queue_depth (SCSI, ATA); -ENOENT elsewhere. */
int ds_tr_queue_depth(const struct ds_root *r, const char *disk,
    struct ds_buf *scratch, uint64_t *depth);
/*
 * 1 when the disk is virtual: its driver is virtio, xen or Hyper-V's,
 * or its vendor or model is a hypervisor's or a cloud's; else 0.
 */
int ds_tr_virtual(const struct ds_root *r, const char *disk,
    struct ds_buf *scratch);
/*
 * Rows of the processes of scan b that did something since scan a over
 * secs (ds_who_rate; a process not in a started in the window; secs 0:
 * each process over its own life, for a single scan).  *out
 * is allocated (free it); its comm pointers point into b.
 */
int ds_tr_procs(const struct ds_procs *a, const struct ds_procs *b,
    double secs, long clk_tck, int delay, struct ds_tr_proc **out,
    size_t *n);
/*
 * The pressure share of a window from two reads of a pressure file
 * (a NULL: b's avg10, for a captured tree that cannot be sampled).
 * -ENODATA without a "some" line; -EINVAL when the two do not pair.
 */
int ds_tr_psi(const struct ds_psi *a, const struct ds_psi *b, uint64_t ns,
    struct ds_tr_psi *out);
/*
 * 1 when a mount holds a disk's (or the network's) filesystem: a block
 * device number, or btrfs, zfs, nfs and the like, whose st_dev is
 * anonymous (major 0); 0 for proc, sysfs, tmpfs, overlay and the rest.
 */
int ds_tr_fs_disk(const char *fstype, unsigned int major);
/*
 * Fill fs's deleted-open figures from a scan and its summary: the row
 * of the same st_dev, its holders allocated (free fs->holder).
 */
int ds_tr_fs_held(struct ds_tr_fs *fs, const struct ds_deleted *d,
    const struct ds_delsum *sum, size_t nsum);
/*
 * The holders of deleted-open disk files (memory-backed left out) on
 * filesystem fs of d, largest first: *out allocated, comm into d's pool.
 */
int ds_tr_holders(const struct ds_deleted *d, size_t fs,
    struct ds_tr_holder **out, size_t *n);
/* ---- Pairing two diskstats samples (lib/snapdiff.c) ------------------- */

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
/* 1 if name is in the set, else 0 (with add, put there); -ENOMEM. */
int ds_names_has(struct ds_names *ns, const char *name, int add);
void ds_names_free(struct ds_names *ns);

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
 * Zero it, set up l at the file's diskstats text (past its header,
 * ds_snap_head), then ds_older_init.
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
/* fd is the file l reads, start its offset where the file began. */
void ds_older_init(struct ds_older *o, int fd, int64_t start);
/*
 * Read on to the device called name, returned in *found (valid until
 * the next call), keeping the devices read past in pend; with name
 * NULL, to the end.  0 or -errno.
 */
int ds_older_read(struct ds_older *o, struct ds_pair *pr, const char *name,
    const struct ds_disk **found);
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
 * A snapshot file ("-": standard input) opened into l, its header lines
 * read into s (ds_snap_head): l is left at its diskstats text, window
 * its buffer, and ds_lines_close closes the file (not standard input).
 * -errno; -EINVAL with s->why set for a damaged header.
 */
int ds_snapfile_open(const char *path, struct ds_lines *l,
    struct ds_buf *window, struct ds_snap *s);
/* The name of path for messages: "stdin" for "-". */
const char *ds_snapfile_name(const char *path);
/*
 * The earlier of two snapshot files opened as ds_snapfile_open does and
 * made ready to be read along (o zeroed, o->what its name, then
 * ds_older_init).  Close it with ds_older_close.
 */
int ds_older_open(struct ds_older *o, const char *path,
    struct ds_buf *window, struct ds_snap *s);
void ds_older_close(struct ds_older *o);
/*
 * ds_older_find for c, line lineno of the later file: 1 when c is
 * listed again there (not to be reported; counted in o->twice, the
 * first in o->first_twice), else 0 with *found (NULL: new since).
 */
int ds_older_pair(struct ds_older *o, struct ds_pair *pr,
    const struct ds_disk *c, size_t i, size_t lineno,
    const struct ds_disk **found);
/*
 * The interval from snapshot a to the later b into *ns: 0; or 1 when
 * b's uptime is below a's (a reboot between them, or the files
 * swapped), *ns then b's uptime, for a report since boot; -EINVAL when
 * both were taken at the same uptime.
 */
int ds_snap_interval(const struct ds_snap *a, const struct ds_snap *b,
    uint64_t *ns);

/* ---- Process samples kept between scans (lib/whobase.c) --------------- */

/*
 * Of a scan, what a rate needs: per entry its process and thread ids,
 * start time, the io counters present, io_err and field 42, as varints
 * in the order added (process ascending, a process's threads
 * ascending).  About 20 bytes an idle process, where a struct ds_proc
 * takes 208.  Zeroed is empty; ds_whobase_reset before each scan.
 */
struct ds_whobase {
	unsigned char *d;
	size_t len, cap;
	uint64_t uptime_ns;	/* the caller's: when the scan was read */
	int sorted;		/* (tgid, pid) ascending: a cursor finds them */
	int lt, lp;		/* the last (tgid, pid) added */
	size_t off;		/* cursor: the next entry to decode */
	int have_at, qt, qp;	/* qt, qp: the last (tgid, pid) looked up */
	struct ds_proc at;	/* the entry decoded before off */
};
void ds_whobase_reset(struct ds_whobase *b);
/* The lookup cursor back to the start (before a scan's lookups). */
void ds_whobase_rewind(struct ds_whobase *b);
void ds_whobase_free(struct ds_whobase *b);
/* Append p's counters; 0 or -ENOMEM. */
int ds_whobase_add(struct ds_whobase *b, const struct ds_proc *p);
/*
 * The entry at *off into p (ids, starttime, io, io_err, have_blkio and
 * blkio_ticks; the rest zeroed); *off moves to the next.  Entries are
 * read from offset 0 while *off < b->len.
 */
void ds_whobase_get(const struct ds_whobase *b, size_t *off,
    struct ds_proc *p);
/*
 * The entry of (tgid, pid), or NULL; valid until the next call.  Made
 * for lookups in the order entries were added: then one walk of the base
 * serves a whole scan (a lookup out of order starts again from the top,
 * and a base added out of order is searched whole).
 */
const struct ds_proc *ds_whobase_find(struct ds_whobase *b, int tgid,
    int pid);

/*
 * What a row shows of an entry besides its counters (owner, name, with
 * cmdline the command line), kept beside a base in the same order.  Per
 * entry: uid; comm_len << 2 | same; the name unless same & 1; with
 * cmdline, unless same & 2, the command line's length with its NUL (0:
 * none) and its bytes.  A name or command line equal to the entry's
 * before is not stored again: the threads of a process, the workers of
 * a server.  Zeroed is empty.
 */
struct ds_whonames {
	struct ds_whobase b;	/* its d, len and cap */
	size_t off;		/* reading: the next entry */
	int any;		/* an entry stored (read) yet */
	size_t comm, comm_len;	/* the last entry's, as offset and length */
	size_t cmd, cmd_len;	/* the same, with the NUL; cmd_len 0: none */
};
void ds_whonames_reset(struct ds_whonames *n);
void ds_whonames_free(struct ds_whonames *n);
/* 0 or -ENOMEM. */
int ds_whonames_add(struct ds_whonames *n, const struct ds_proc *p,
    int cmdline);
/*
 * The next entry's uid, comm and (with cmdline) command line into p,
 * which ds_whobase_get filled; p->cmdline points into n.
 */
void ds_whonames_get(struct ds_whonames *n, struct ds_proc *p, int cmdline);

/*
 * The first top elements in cmp's order (all with top 0) of those
 * offered, elements of size bytes.  With top set they are kept in a
 * heap whose root is the worst of them, so memory follows top, not the
 * number offered.  Elements are copied (moved with memcpy): an element
 * must not point into itself, and cmp sees elements only.
 */
struct ds_topn {
	void *v;		/* n elements; in order after ds_topn_sort */
	size_t size, n, cap;
	uint64_t top;
	int (*cmp)(const void *, const void *);
	void *tmp;
};
void ds_topn_init(struct ds_topn *t, size_t size, uint64_t top,
    int (*cmp)(const void *, const void *));
void ds_topn_free(struct ds_topn *t);
/* 1 if ds_topn_offer would keep elem (room, or better than the worst). */
int ds_topn_wants(const struct ds_topn *t, const void *elem);
/*
 * Keep a copy of elem if wanted: 0 not kept; 1 kept; 2 kept in place of
 * the worst, copied to *evicted (for the caller to release what it
 * holds); -ENOMEM.
 */
int ds_topn_offer(struct ds_topn *t, const void *elem, void *evicted);
/*
 * The kept elements in cmp's order, by a stable sort of its own (not
 * qsort): equal elements keep the order they had.  v moves (read it
 * after the call).  0 or -ENOMEM.  Set n to 0 to start again.
 */
int ds_topn_sort(struct ds_topn *t);

/* ---- Rows of a report per process or cgroup (lib/whorow.c) ----------- */

/*
 * A row's values: those of ds_who_rate as the columns show them (bytes
 * as kB, DS_WR_DELAY as percent), then the page-cache hit ratio and the
 * block-layer total, kB read plus kB written per second.
 */
#define DS_WV_HIT	DS_WR_N
#define DS_WV_TOTAL	(DS_WR_N + 1)
#define DS_WV_N		(DS_WR_N + 2)
#define DS_WV_PID	(-1)	/* sort key: the id alone */
#define DS_WV_NONE	(-3)	/* sort key: a figure the source lacks */

struct ds_whorow {
	const struct ds_proc *p;	/* its entry; NULL in a cgroup's row */
	const char *cgroup;	/* a cgroup's row: its path, "-" if none */
	uint64_t procs;		/* entries summed */
	struct ds_who_rate r;
	double v[DS_WV_N];
	uint32_t have;		/* bit per index of v */
	int key;		/* the sort key: index of v, or DS_WV_PID */
};
/* How rows are made and ordered. */
struct ds_whocfg {
	long clk_tck;
	int delay;		/* delay accounting on: DS_WR_DELAY wanted */
	int idle;		/* rows whose counters did not move too (-a) */
	int key;		/* index of v, or DS_WV_PID */
	int sorted;		/* rows sorted by key; else in the scan's order */
	uint64_t top;		/* only the first top rows; 0: all */
	int cmdline;		/* names hold the command line */
};
/* v and have from r. */
void ds_whorow_values(struct ds_whorow *rw);
/*
 * The row of p against q, its entry of the scan before (prev_up: that
 * scan's uptime; NULL: rates since each process started).  An entry
 * that q does not match but older than the interval has its rates since
 * it started.  0 when it is not shown (idle, without c->idle), else 1.
 */
int ds_whorow_make(const struct ds_whocfg *c, const struct ds_proc *q,
    const struct ds_proc *p, const uint64_t *prev_up, uint64_t up,
    struct ds_whorow *rw);
/*
 * x (of entry px) before y (of entry py): x->key's value, larger first,
 * unknown last; then the id (pid, or tid per thread); cgroup rows (no
 * entries) by their names.  The entries are passed apart from the rows
 * because a kept row's own is stored beside it (struct ds_whokept).
 */
int ds_whorow_cmp(const struct ds_whorow *x, const struct ds_proc *px,
    const struct ds_whorow *y, const struct ds_proc *py);

struct ds_whorows {
	struct ds_whorow *r;
	size_t n, cap;
};
/*
 * dwho -g from /proc/PID/io: cur's entries (read with DS_WHO_CGROUP)
 * against prev (NULL: since each started) summed per cgroup, the idle
 * ones left out unless c->idle, in cgroup order or sorted by c->key,
 * the first c->top of them.  Rows point into cur.  0 or -ENOMEM.
 */
int ds_whorows_cgroups(const struct ds_whocfg *c, const struct ds_procs *prev,
    const struct ds_procs *cur, struct ds_whorows *out);
void ds_whorows_free(struct ds_whorows *rs);

/*
 * A sort key's name (a word, or a column of either source): *proc the
 * index of ds_whorow.v (DS_WV_PID, or DS_WV_NONE: io.stat only), *cg
 * that of ds_cgrow.v (DS_WV_NONE: /proc/PID/io only).  -ENOENT if none.
 */
int ds_who_sort_key(const char *name, int *proc, int *cg);
/*
 * The command a row shows: comm, or with cmdline the command line (in
 * brackets, as ps(1) has it, comm of a kernel thread, which has none:
 * made in buf).  *len its length; it holds no NUL, and ends with one.
 */
const char *ds_who_command(const struct ds_proc *p, int cmdline, char *buf,
    size_t size, size_t *len);

/*
 * The columns of the rows: time, then pid (tid) user command, or cgroup
 * procs; then the values in the order of ds_who_vorder (indexes of
 * ds_whorow.v), or with DS_WHOCOL_COUNTERS the counters since each
 * process started (those of ds_who_io_field in struct ds_io, then field
 * 42 in seconds); then carries and start.  cols has room for
 * DS_WHO_NCOLS; the count is returned.
 */
#define DS_WHOCOL_THREAD	0x1	/* a tid column */
#define DS_WHOCOL_GROUP		0x2	/* per cgroup */
#define DS_WHOCOL_COUNTERS	0x4	/* counters, not rates (prom) */
#define DS_WHO_NV		(DS_WR_N + 1)
#define DS_WHO_NCOLS		(7 + DS_WHO_NV)
extern const int ds_who_vorder[DS_WHO_NV];
extern const int ds_who_io_field[DS_WR_DELAY];
size_t ds_who_columns(unsigned int how, struct ds_col *cols);
/*
 * Write rw as a row of the columns ds_who_columns(how) makes, at now:
 * the user's name through u (looked up under r), the command as
 * c->cmdline has it, the counters' seconds by c->clk_tck (c->delay).
 */
void ds_whorow_write(struct ds_writer *w, unsigned int how,
    const struct ds_whocfg *c, struct ds_users *u, const struct ds_root *r,
    const struct ds_whorow *rw, uint64_t now);
/* What dwho says on standard error about a run, each note once. */
struct ds_whonotes {
	const char *source;	/* which -g source */
	size_t bad;		/* malformed files (or io.stat lines) */
	int first_bad;		/* the first malformed file's pid */
	int bad_iostat;		/* bad counts io.stat lines */
	int off_delay;		/* delay accounting was off */
	size_t unreadable;	/* processes whose io was refused */
	int said;		/* a bit per note said */
};
/* The next note not yet said into msg, and 1; 0 when none is left. */
int ds_who_note(struct ds_whonotes *n, int root, char *msg, size_t size);

/* A row kept to be sorted, with a copy of its entry (cgroup NULL). */
struct ds_whokept {
	struct ds_whorow rw;	/* rw.p: p below after ds_whokept_sort */
	struct ds_proc p;	/* its cmdline its own, or NULL */
};
int ds_whokept_cmp(const void *a, const void *b);
/*
 * Keep rw (of entry p) in t, a zeroed ds_topn the first time: with top
 * the best top rows so far, else all.  0 or -ENOMEM.
 */
int ds_whokept_offer(struct ds_topn *t, uint64_t top, const struct ds_whorow *rw,
    const struct ds_proc *p);
/* t's rows (struct ds_whokept) in order, each row pointing at its entry. */
int ds_whokept_sort(struct ds_topn *t);
/* Forget the kept rows (n to 0), freeing their command lines. */
void ds_whokept_clear(struct ds_topn *t);

/*
 * A report per process or thread made while proc is scanned (lib/
 * whostream.c).  A report alone (no interval) makes its rows as
 * entries are read: its rates are since each process started, so a
 * wait for the reader moves them by next to nothing.  With more (a
 * report follows), a compact base of the scan is kept; an interval's
 * report reads its whole scan, then makes its rows from the two bases.
 * Rows go to row (arg) at once, or with cfg.sorted are kept (with top,
 * the best so far) and handed out sorted once the scan is over; a
 * nonzero return of row for a row made at once ends the scan (a write
 * error).  Set the fields before the first scan (cfg.delay before
 * each); zeroed state, freed by ds_whostream_free.
 */
typedef int (*ds_who_row)(const struct ds_whorow *rw, void *arg);
struct ds_whostream {
	struct ds_whocfg cfg;
	unsigned int flags;	/* DS_WHO_* of ds_procs_each */
	const int *pids;
	size_t npids;
	ds_who_keep keep;	/* NULL: all; called with arg */
	ds_who_row row;
	void *arg;
	int err;		/* the scan's own failure (-ENOMEM), or 0 */
	/* Between scans. */
	struct ds_whobase bases[2];
	struct ds_whobase *prev; /* the scan before, NULL in one report */
	struct ds_whobase *next; /* this scan's, NULL when none follows */
	struct ds_whonames names;	/* this scan's, when late */
	struct ds_topn heap;
	int reporting, late;
};
/*
 * One scan into scan (its counters; freed by the caller): report: make
 * this scan's rows; more: keep its base.  -errno of the scan (with
 * scan->failed), or s->err; else 0.
 */
int ds_whostream_scan(const struct ds_root *r, struct ds_whostream *s,
    int report, int more, struct ds_procs *scan);
void ds_whostream_free(struct ds_whostream *s);

/* ---- Per-cgroup I/O over an interval (lib/cgio.c) -------------------- */

/* One row: a cgroup on one device, or its whole-disk sum ("all"). */
struct ds_cgrow {
	const char *cgroup;	/* points into the ds_cgios sample */
	char device[64];	/* sysfs name, "MAJ:MIN" without one, "all" */
	int all;		/* the cgroup's whole-disk sum */
	unsigned int major, minor;
	double v[DS_IOS_N];	/* per second (bytes as kB), or the total */
	uint64_t u[DS_IOS_N];	/* total since the cgroup's creation */
	uint32_t have;		/* bit per key known */
	int active;		/* a counter moved (since creation: nonzero) */
	int key;		/* the sort key (ds_cgio_select) */
};
/*
 * The rows of cur against prev over the interval of their uptimes (prev
 * NULL: v holds the totals) into *rows (an array of *cap, reused between
 * calls; free it), *n of them: per cgroup with io.stat, in cur's order,
 * its all row then a row per io.stat line.  A device absent before
 * counts from zero, as does a counter that went backwards (the device
 * removed and added again) and a cgroup recreated under the same path
 * (another inode).  A line without keys has a row with nothing known.
 * The all row sums the devices at the top of their stacks (not
 * partitions, nor a disk a listed dm or md device sits on, nor a device
 * sys/dev/block does not know); a cgroup without I/O yet has an all row
 * of zeros.  0 or -ENOMEM.
 */
int ds_cgio_rows(const struct ds_root *r, const struct ds_cgios *prev,
    const struct ds_cgios *cur, struct ds_cgrow **rows, size_t *n,
    size_t *cap);
/*
 * The rows shown: the active ones (all of them with all), sorted by key
 * (an index of v, larger first, unknown last; -1: none), then cgroup,
 * its all row first, then device number; the first top (0: all).
 */
void ds_cgio_select(struct ds_cgrow *rows, size_t *n, int all, int key,
    uint64_t top);
/*
 * Where dwho -g finds per-cgroup I/O: the cgroup v2 mount into mnt, then
 * 1 when the io controller is on there (or, in a captured tree without
 * the root's cgroup.controllers, some cgroup has io.stat), 0 when not;
 * -errno without a cgroup v2 mount.
 */
int ds_cgio_source(const struct ds_root *r, char *mnt, size_t size);
/*
 * The columns of ds_cgrow rows: time cgroup device, then per key the
 * rate (rkB/s...: rates) or the counter (rbytes...).  cols has room for
 * 3 + DS_IOS_N, which is returned.
 */
size_t ds_cgio_columns(int rates, struct ds_col *cols);
/* Write rw as a row of those columns, at now: rates or counters. */
void ds_cgrow_write(struct ds_writer *w, const struct ds_cgrow *rw, int rates,
    uint64_t now);

/* ---- Waiting for pressure (lib/psiwatch.c) ---------------------------- */

/*
 * The pressure file of res opened read-write for a trigger
 * (ds_psi_trigger_arm): dirfd's res.pressure when dirfd >= 0 (a
 * cgroup), else proc/pressure/res under the root.  fd or -errno:
 * -EACCES, -EPERM, -EROFS without write access (sample instead),
 * -ENOENT, -ENODEV, -EOPNOTSUPP as for reading.
 */
int ds_psi_trigger_open(const struct ds_root *r, int dirfd,
    enum ds_psi_res res);
/*
 * Why the total is to be sampled instead of a trigger armed, from the
 * -errno of ds_psi_trigger_open (arming 0) or of ds_psi_trigger_arm
 * (arming 1): DS_PSI_NOWRITE no write access, DS_PSI_REFUSED a kernel
 * before 5.2 (read-only files); 0 when e is no reason to (an error).
 * DS_PSI_NOTKERNEL is for a file ds_psi_trigger_supported says is not
 * the kernel's.  ds_psi_fallback_why: the reason said, or NULL.
 */
enum { DS_PSI_NOWRITE = 1, DS_PSI_NOTKERNEL, DS_PSI_REFUSED };
int ds_psi_fallback(int e, int arming);
const char *ds_psi_fallback_why(int why);

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
void ds_psi_armed_init(struct ds_psi_armed *a,
    const struct ds_psi_trigger *tr, uint64_t base);
/* 1 when total makes an event (it becomes the new base), else 0. */
int ds_psi_armed_add(struct ds_psi_armed *a, uint64_t total);
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

/*
 * Pair the elements of two samples by path, each of size bytes with a
 * char * path at path_off (NULL, the system, pairs with NULL): for each
 * of cur's ncur elements, a pointer to prev's element of the same path
 * (or NULL) is stored at link_off.  With no prev element nothing is
 * stored.  In n log n.  0 or -ENOMEM.
 */
int ds_psi_pair(const void *prev, size_t nprev, void *cur, size_t ncur,
    size_t size, size_t path_off, size_t link_off);

/* ---- Samples of pressure (lib/psisample.c) --------------------------- */

/* One cgroup (or the whole system) in one sample. */
struct ds_psi_cg {
	char *path;		/* NULL: the system, from proc/pressure */
	unsigned int ok;	/* bit r: resource r read */
	struct ds_psi p[DS_PSI_NRES];
	const struct ds_psi_cg *prev;	/* the same cgroup the sample before */
	double key;		/* ds_psi_sample_rank's key */
};
/* A problem met reading a sample, in the order met. */
struct ds_psi_note {
	char *path;		/* the cgroup's, NULL: the system's */
	int res;		/* the file's resource; -1: a subtree left out */
	int e;			/* -errno; 0: malformed lines skipped */
	size_t line;		/* with e 0: the first (1-based) */
};
struct ds_psi_sample {
	struct ds_psi_cg *cg;
	size_t n, cap;
	uint64_t up_ns;		/* ds_uptime_ns when read, 0: unknown */
	struct ds_psi_note *note;
	size_t nnote, capnote;
};
/*
 * A new, zeroed element at the end of s.  path NULL is the system; a
 * cgroup's path is top (NULL or "/": none) followed by path, copied.
 * NULL when out of memory.
 */
struct ds_psi_cg *ds_psi_sample_add(struct ds_psi_sample *s, const char *top,
    const char *path);
/* What a sample reads. */
struct ds_psi_src {
	const struct ds_root *r;
	int topfd;		/* the cgroup (-c) or the walk's top; -1: system */
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
/*
 * Why the cgroup directory cgfd has no pressure files: -ENOENT it was
 * removed (no cgroup.procs either), else -ENODEV (accounting off).
 */
int ds_psi_cgroup_nofiles(int cgfd);
/* Drop the last element; empty s (keeping its array); free it all. */
void ds_psi_sample_pop(struct ds_psi_sample *s);
void ds_psi_sample_clear(struct ds_psi_sample *s);
void ds_psi_sample_free(struct ds_psi_sample *s);
/* Link each of cur's elements to prev's of the same path (ds_psi_pair). */
int ds_psi_sample_pair(const struct ds_psi_sample *prev,
    struct ds_psi_sample *cur);
/* The line of resource r, kind k, of c; NULL when c has none (or c NULL). */
const struct ds_psi_line *ds_psi_cg_line(const struct ds_psi_cg *c,
    enum ds_psi_res r, enum ds_psi_kind k);
/*
 * The stall share (percent) of c's line r, k between prev and cur (c in
 * cur, paired); -1 when there is no prev, no such line in both, or no
 * time between the samples.
 */
double ds_psi_sample_share(const struct ds_psi_sample *prev,
    const struct ds_psi_sample *cur, const struct ds_psi_cg *c,
    enum ds_psi_res r, enum ds_psi_kind k);
/*
 * Sort cur, most stalled first, by the share over the interval (avg10
 * without prev) of resource r, kind "some" ("full" where there is only
 * that, as for irq); no such line ranks last; ties by path.
 */
void ds_psi_sample_rank(const struct ds_psi_sample *prev,
    struct ds_psi_sample *cur, enum ds_psi_res r);

/* ---- The report of pressure (lib/psirow.c) --------------------------- */

/*
 * The columns of a report of the resources order[0..nres): time, with
 * DS_PSICOL_CGROUP cgroup, then resource kind avg10 avg60 avg300 total
 * stall% (one row per line); with DS_PSICOL_PROM one wide row per
 * cgroup, a family per resource, kind and value (DS_PSI_PER_LINE of
 * them: the averages, the total in seconds, the share), named in pc.
 * The count is returned (pc->n).
 */
#define DS_PSICOL_CGROUP	0x1
#define DS_PSICOL_PROM		0x2
#define DS_PSI_PER_LINE		5
#define DS_PSI_NFAM		(DS_PSI_NRES * DS_PSI_NKINDS * DS_PSI_PER_LINE)
struct ds_psi_cols {
	struct ds_col col[2 + DS_PSI_NFAM];
	char names[DS_PSI_NFAM][64];
	char helps[DS_PSI_NFAM][160];
	size_t n;
};
size_t ds_psi_columns(unsigned int how, const enum ds_psi_res *order,
    size_t nres, struct ds_psi_cols *pc);
/*
 * The message for a note of ds_psi_sample_read into out, without the
 * program's name: "proc/pressure/io: why", "cgroup /a: io.pressure:
 * why", "cgroup /a: subtree skipped: why".  1, or -ENOMEM.
 */
int ds_psi_note_msg(const struct ds_psi_note *n, struct ds_buf *out);
/*
 * Parse spec into t and check it (as privileged: the rest is the
 * kernel's to say): 0 when it will do, else 1 with out holding why, as
 * "stall '0ms': why" (ds_psi_trigger_parse_part, _check), or -ENOMEM.
 */
int ds_psi_trigger_msg(const char *spec, struct ds_psi_trigger *t,
    struct ds_buf *out);

/* ---- Mounts by device (lib/mount.c) ----------------------------------- */

/* The root's proc/self/mountinfo, read and parsed (ds_mountinfo_read). */
int ds_mounts_self(const struct ds_root *r, struct ds_mounts *out);
/*
 * The mount of the filesystem on device major:minor: the last of its
 * mounts whose root is the filesystem's "/", else its first; NULL when
 * none.
 */
const struct ds_mount *ds_mount_by_dev(const struct ds_mounts *ms,
    unsigned int major, unsigned int minor);
/*
 * The host's mount of the filesystem that mount m (read in another
 * mount namespace) shows: same device and root, else same device and
 * root "/", else the first of that device.  NULL when the host has none.
 */
const struct ds_mount *ds_mount_host_view(const struct ds_mounts *host,
    const struct ds_mount *m);
/* ---- Latency histograms (dlat) ---------------------------------------- */

/*
 * Log-linear histograms of nanoseconds: one bucket per value below 16,
 * then DS_LAT_SUB buckets to each power of two up to 2^37 ns (137 s;
 * the last bucket holds everything above).  A bucket is 1/8 of its
 * lower bound wide, so a percentile is known within about 6%.  The
 * struct is also the value the in-kernel program counts into.
 */
#define DS_LAT_SUB 8
#define DS_LAT_NB 280
struct ds_lat {
	uint64_t count;
	uint64_t sum_ns;
	uint64_t max_ns;
	uint64_t b[DS_LAT_NB];
};
/* The bucket of a value. */
unsigned int ds_lat_bucket(uint64_t ns);
/* Bucket i holds [*lo, *hi) ns; *hi is 0 for the last (no bound). */
void ds_lat_bounds(unsigned int i, uint64_t *lo, uint64_t *hi);
void ds_lat_add(struct ds_lat *h, uint64_t ns);
void ds_lat_merge(struct ds_lat *dst, const struct ds_lat *src);
/*
 * What cur counted since prev (NULL: everything).  A counter gone back
 * (an entry made anew) takes cur whole.  out->max_ns is exact when the
 * interval raised the maximum, else the top of the highest bucket that
 * gained (capped by cur's maximum): within a bucket of the truth.
 */
void ds_lat_delta(const struct ds_lat *prev, const struct ds_lat *cur,
    struct ds_lat *out);
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
 * Append h as the samples of a Prometheus histogram NAME (seconds):
 * NAME_bucket{LABELS,le} cumulative at each power of two from 2^10 to
 * 2^37 ns and +Inf, NAME_sum, NAME_count.  labels: escaped label pairs
 * ('device="sda",op="read"'), or "".  The HELP and TYPE lines are the
 * caller's.  -ENOMEM.
 */
int ds_lat_prom(struct ds_buf *b, const char *name, const char *labels,
    const struct ds_lat *h);

/* ---- Tracepoints (tracefs) -------------------------------------------- */

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

/* ---- eBPF (bpf(2) without libbpf) ------------------------------------- */

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
int ds_bpf_map_delete(int fd, const void *key);
/* The key after key (NULL: the first); -ENOENT after the last. */
int ds_bpf_map_next(int fd, const void *key, void *next);
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
/* BPF_ENABLE_STATS: run counters on while the returned fd is open. */
int ds_bpf_enable_stats(void);
/* The id after id (0: the first) of the programs loaded; -ENOENT at the end. */
int ds_bpf_prog_next_id(uint32_t id, uint32_t *next);
/* An fd of the program with this id (needs CAP_SYS_ADMIN). */
int ds_bpf_prog_fd_by_id(uint32_t id);
/* Programs loaded in the kernel now, every user's (BPF_PROG_GET_NEXT_ID). */
int ds_bpf_prog_count(uint64_t *n);
/* Attach a tracepoint program: the perf event's fd (close to detach). */
int ds_bpf_attach_tp(uint32_t tp_id, int prog_fd);
/* Possible CPUs (the per-CPU values of a lookup). */
int ds_bpf_ncpus(void);

/* ---- Block latency tracing (dlat) ------------------------------------- */

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
enum { DS_BLK_READ, DS_BLK_WRITE, DS_BLK_DISCARD, DS_BLK_FLUSH, DS_BLK_OPS };
enum { DS_BLK_D2C, DS_BLK_Q2C, DS_BLK_Q2D, DS_BLK_PHASES };
/* "read" ... "flush", "d2c" "q2c" "q2d"; NULL out of range. */
const char *ds_blk_op_name(unsigned int op);
const char *ds_blk_phase_name(unsigned int ph);

/* The fields of a block event the programs read, checked. */
struct ds_blkev {
	uint32_t id;		/* tracepoint id */
	uint32_t dev, sector, nr_sector, rwbs, rwbs_len, comm;	/* offsets */
};
/*
 * From an event's format: dev (4 bytes), sector (8), nr_sector (4),
 * rwbs (a char array of 2 or more), comm (char[16], when want_comm),
 * each naturally aligned, at 8 or above, inside the record; -EPROTO
 * otherwise.
 */
int ds_blkev_layout(const struct ds_tpfmt *f, int want_comm,
    struct ds_blkev *ev);

#define DS_BLKLAT_WHO 1u		/* also per submitting process */
#define DS_BLKLAT_PROGS 4
#define DS_BLKLAT_STARTS 32768		/* starts kept (each LRU map) */
#define DS_BLKLAT_WHO_MAX 4096		/* (disk, process) entries */
#define DS_BLKLAT_LOG (1u << 22)	/* verifier log on a failed load */

/* The value of the who map. */
struct ds_blklat_whoval {
	struct ds_lat h;	/* q2c */
	uint64_t bytes;		/* of the bios completed, as queued */
	char comm[16];		/* at the first bio */
};

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
};

/* Missed events, by cause. */
enum {
	DS_MISS_RECURSION,	/* a program skipped: another ran on its CPU */
	DS_MISS_UNMATCHED_D2C,	/* a completion without its issue */
	DS_MISS_UNMATCHED_Q2C,	/* a completion without its queue */
	DS_MISS_MAP_FULL,	/* a histogram or who entry could not be made */
	DS_MISS_LOST,		/* issued, never seen completing (ds_blklat_lost) */
	DS_MISS_N
};

struct ds_blklat_row {
	uint32_t dev;		/* the disk, as ds_kdev */
	unsigned int op, phase;
	struct ds_lat h;
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
/* Trace dev (a disk or partition, ds_kdev) as disk. */
int ds_blklat_dev(struct ds_blklat *b, uint32_t dev, uint32_t disk);
int ds_blklat_attach(struct ds_blklat *b);
void ds_blklat_close(struct ds_blklat *b);
int ds_blklat_read(struct ds_blklat *b, struct ds_blklat_snap *s);
void ds_blklat_snap_free(struct ds_blklat_snap *s);
/* prev's entry with r's (w's) key, or NULL. */
const struct ds_blklat_row *ds_blklat_find(const struct ds_blklat_snap *prev,
    const struct ds_blklat_row *r);
const struct ds_blklat_who *ds_blklat_find_who(
    const struct ds_blklat_snap *prev, const struct ds_blklat_who *w);
/*
 * The completions never seen, into s->miss[DS_MISS_LOST]: issued less
 * d2c counted, when idle says s is complete (the traced disks had
 * nothing in flight before and after a read, and a second read, s,
 * found no request issued since); else prev's figure (NULL: 0).
 */
void ds_blklat_lost(const struct ds_blklat_snap *prev,
    struct ds_blklat_snap *s, int idle);
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
 * Append the Prometheus text of s (counts since attach): the histogram
 * dlat_latency_seconds{device,op,phase} (see ds_lat_prom) and
 * dlat_missed_events_total{reason}.  name(arg, dev) names a disk.
 */
int ds_blklat_prom(struct ds_buf *out, const struct ds_blklat_snap *s,
    const char *(*name)(void *, uint32_t), void *arg);
/* A disk to trace: its name and dev_t (ds_kdev). */
struct ds_blkdisk {
	char name[DS_DISK_NAME_MAX];
	uint32_t dev;
};
/*
 * Every whole disk of sys/block, or those sel selects (its operands
 * marked as ds_devsel_match does); *ndevs their devices with their
 * partitions.  *out is allocated (free it).
 */
int ds_blkdisks_pick(const struct ds_root *r, struct ds_devsel *sel,
    struct ds_blkdisk **out, size_t *n, size_t *ndevs);
/* Trace each disk and its partitions (counted as the disk). */
int ds_blklat_add_disks(struct ds_blklat *b, const struct ds_root *r,
    const struct ds_blkdisk *d, size_t n);
/* The name of dev among d; NULL when it is not one of them. */
const char *ds_blkdisk_name(const struct ds_blkdisk *d, size_t n,
    uint32_t dev);
/* 1 when no disk of d has a request in flight now, else 0. */
int ds_blkdisks_idle(const struct ds_root *r, const struct ds_blkdisk *d,
    size_t n);
/*
 * The lockdown mode ("none", "integrity", "confidentiality": what
 * sys/kernel/security/lockdown brackets); -ENOENT without the file.
 */
int ds_lockdown_mode(const struct ds_root *r, char *mode, size_t size);
/*
 * ds_blklat_read, and ds_blklat_lost brought up to date when the disks
 * d (those traced) are idle: nothing in flight before and after a read,
 * and a second read (the one kept) finding no request issued since.
 */
int ds_blklat_take(struct ds_blklat *b, const struct ds_root *r,
    const struct ds_blkdisk *d, size_t n, const struct ds_blklat_snap *prev,
    struct ds_blklat_snap *s);
/*
 * dlat's figures of disk dev between two reads (ds_blklat_take): d2c
 * and q2c of the read and write requests merged (us), and the
 * submitter of the most bytes (from the who map).  0; -ENOENT when
 * nothing of dev was timed (*l zeroed); -ENOMEM.
 */
int ds_tr_blklat(const struct ds_blklat_snap *a, const struct ds_blklat_snap *b,
    uint32_t dev, struct ds_tr_lat *l, struct ds_tr_load *load);
/* dtriage's window of block-latency tracing over every whole disk. */
struct ds_tr_dlat {
	struct ds_blklat b;
	struct ds_blkdisk *disk;
	size_t ndisk;
	struct ds_blklat_snap s[2];	/* at the start and the end */
	int on;			/* traced the whole window */
	const char *why;	/* when not: why (static) */
};
/*
 * Start tracing with the who map and take the first read; without
 * privilege or on any failure t->on stays 0, t->why says why, and
 * nothing is left attached.  0, or -ENOMEM.
 */
int ds_tr_dlat_open(const struct ds_root *r, struct ds_tr_dlat *t);
/* Take the second read and detach everything (always). */
void ds_tr_dlat_close(const struct ds_root *r, struct ds_tr_dlat *t);
/* Disk name's figures (ds_tr_blklat); -ENOENT without. */
int ds_tr_dlat_dev(const struct ds_tr_dlat *t, const char *name,
    struct ds_tr_lat *l, struct ds_tr_load *load);
void ds_tr_dlat_free(struct ds_tr_dlat *t);
/* Requests in flight on disk now (sys/block/DISK/inflight, R + W). */
int ds_disk_inflight(const struct ds_root *r, const char *disk, uint64_t *n);
/* The kernel's internal dev_t (20-bit minor), as block events log it. */
uint32_t ds_kdev(unsigned int major, unsigned int minor);
/*
 * The dev_t (ds_kdev) of sys/block/DISK and of each of its partitions
 * into out (out[0] the disk); *n the count, which may exceed max.
 */
int ds_disk_devnums(const struct ds_root *r, const char *disk, uint32_t *out,
    size_t max, size_t *n);

#endif
