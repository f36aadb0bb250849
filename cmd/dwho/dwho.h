/*
 * dwho's own code over the library's process scans and io.stat samples:
 * the rows of its reports and their columns, the report made while proc
 * is scanned, the per-cgroup reports (-g), which processes a run reads,
 * and the notes it says on standard error.
 */
#ifndef DWHO_H
#define DWHO_H

#include "suite.h"
#include "grow.h"

/* topn.c: the first N of those offered, kept in a heap. */

/*
 * The first top elements in cmp's order (all with top 0) of those
 * offered, elements of size bytes.  With top set they are kept in a
 * heap whose root is the worst of them, so memory follows top, not the
 * number offered.  Elements are copied (moved with memcpy): an element
 * must not point into itself, and cmp sees elements only.
 */
struct topn {
	void *v;		/* n elements; in order after topn_sort */
	size_t size, n, cap;
	uint64_t top;
	int (*cmp)(const void *, const void *);
	void *tmp;
};
void topn_init(struct topn *t, size_t size, uint64_t top,
    int (*cmp)(const void *, const void *));
void topn_free(struct topn *t);
/* 1 if topn_offer would keep elem (room, or better than the worst). */
int topn_wants(const struct topn *t, const void *elem);
/*
 * Keep a copy of elem if wanted: 0 not kept; 1 kept; 2 kept in place of
 * the worst, copied to *evicted (for the caller to release what it
 * holds); -ENOMEM.
 */
int topn_offer(struct topn *t, const void *elem, void *evicted);
/*
 * The kept elements in cmp's order, by a stable sort of its own (not
 * qsort): equal elements keep the order they had.  v moves (read it
 * after the call).  0 or -ENOMEM.  Set n to 0 to start again.
 */
int topn_sort(struct topn *t);

/* rows.c: a row per process, thread or cgroup from /proc/PID/io. */

/*
 * A row's values: those of ds_who_rate as the columns show them (bytes
 * as kB, DS_WR_DELAY as percent), then the page-cache hit ratio and the
 * block-layer total, kB read plus kB written per second.
 */
#define WV_HIT		DS_WR_N
#define WV_TOTAL	(DS_WR_N + 1)
#define WV_N		(DS_WR_N + 2)
#define WV_PID		(-1)	/* sort key: the id alone */
#define WV_NONE		(-3)	/* sort key: a figure the source lacks */

struct whorow {
	const struct ds_proc *p;	/* its entry; NULL in a cgroup's row */
	const char *cgroup;	/* a cgroup's row: its path, "-" if none */
	uint64_t procs;		/* entries summed */
	struct ds_who_rate r;
	double v[WV_N];
	uint32_t have;		/* bit per index of v */
	int key;		/* the sort key: index of v, or WV_PID */
};
/* How rows are made and ordered. */
struct whocfg {
	long clk_tck;
	int delay;		/* delay accounting on: DS_WR_DELAY wanted */
	int idle;		/* rows whose counters did not move too (-a) */
	int key;		/* index of v, or WV_PID */
	int sorted;		/* rows sorted by key; else in the scan's order */
	uint64_t top;		/* only the first top rows; 0: all */
	int cmdline;		/* names hold the command line */
};
struct whorows {
	struct whorow *r;
	size_t n, cap;
};

/*
 * The row of p against q, its entry of the scan before (prev_up: that
 * scan's uptime; NULL: rates since each process started).  An entry
 * that q does not match but older than the interval has its rates since
 * it started.  0 when it is not shown (idle, without c->idle), else 1.
 */
int whorow_make(const struct whocfg *c, const struct ds_proc *q,
    const struct ds_proc *p, const uint64_t *prev_up, uint64_t up,
    struct whorow *rw);
/*
 * x (of entry px) before y (of entry py): x->key's value, larger first,
 * unknown last; then the id (pid, or tid per thread); cgroup rows (no
 * entries) by their names.  The entries are passed apart from the rows
 * because a kept row's own is stored beside it (struct whokept).
 */
int whorow_cmp(const struct whorow *x, const struct ds_proc *px,
    const struct whorow *y, const struct ds_proc *py);
/*
 * -g from /proc/PID/io: cur's entries (read with DS_WHO_CGROUP) against
 * prev (NULL: since each started) summed per cgroup, the idle ones left
 * out unless c->idle, in cgroup order or sorted by c->key, the first
 * c->top of them.  Rows point into cur.  0 or -ENOMEM.
 */
int whorows_cgroups(const struct whocfg *c, const struct ds_procs *prev,
    const struct ds_procs *cur, struct whorows *out);
void whorows_free(struct whorows *rs);
/*
 * Page-cache hit ratio in percent, 100 * (1 - read/rchar) clamped to
 * 0..100; -1 when rchar is 0 or unknown.
 */
double who_hit(const struct ds_who_rate *r);
/*
 * The command a row shows: comm, or with cmdline the command line (in
 * brackets, as ps(1) has it, comm of a kernel thread, which has none:
 * made in buf).  *len its length; it holds no NUL, and ends with one.
 */
const char *who_command(const struct ds_proc *p, int cmdline, char *buf,
    size_t size, size_t *len);

/* A row kept to be sorted, with a copy of its entry (cgroup NULL). */
struct whokept {
	struct whorow rw;	/* rw.p: p below after whokept_sort */
	struct ds_proc p;	/* its cmdline its own, or NULL */
};
/*
 * Keep rw (of entry p) in t, a zeroed topn the first time: with top the
 * best top rows so far, else all.  0 or -ENOMEM.
 */
int whokept_offer(struct topn *t, uint64_t top, const struct whorow *rw,
    const struct ds_proc *p);
/* t's rows (struct whokept) in order, each row pointing at its entry. */
int whokept_sort(struct topn *t);
/* Forget the kept rows (n to 0), freeing their command lines. */
void whokept_clear(struct topn *t);

/* iostat.c: a row per cgroup and device from two io.stat samples. */

/* One row: a cgroup on one device, or its whole-disk sum ("all"). */
struct cgrow {
	const char *cgroup;	/* points into the ds_cgios sample */
	char device[64];	/* sysfs name, "MAJ:MIN" without one, "all" */
	int all;		/* the cgroup's whole-disk sum */
	unsigned int major, minor;
	double v[DS_IOS_N];	/* per second (bytes as kB), or the total */
	uint64_t u[DS_IOS_N];	/* total since the cgroup's creation */
	uint32_t have;		/* bit per key known */
	int active;		/* a counter moved (since creation: nonzero) */
	int key;		/* the sort key (cgio_select) */
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
int cgio_rows(const struct ds_root *r, const struct ds_cgios *prev,
    const struct ds_cgios *cur, struct cgrow **rows, size_t *n,
    size_t *cap);
/*
 * The rows shown: the active ones (all of them with all), sorted by key
 * (an index of v, larger first, unknown last; -1: none), then cgroup,
 * its all row first, then device number; the first top (0: all).
 */
void cgio_select(struct cgrow *rows, size_t *n, int all, int key,
    uint64_t top);

/* columns.c: the columns of the reports, their sort keys, a row written. */

/*
 * The columns of the rows: time, then pid (tid) user command, or cgroup
 * procs; then the values (indexes of whorow.v, hit% before %iodelay),
 * or with WHOCOL_COUNTERS the counters since each process started (the
 * io fields, then field 42 in seconds); then carries and start, or a
 * cgroup's limit.  cols has room for WHO_NCOLS; the count is returned.
 */
#define WHOCOL_THREAD	0x1	/* a tid column */
#define WHOCOL_GROUP	0x2	/* per cgroup */
#define WHOCOL_COUNTERS	0x4	/* counters, not rates (prom) */
#define WHO_NV		(DS_WR_N + 1)
#define WHO_NCOLS	(7 + WHO_NV)
size_t who_columns(unsigned int how, struct ds_col *cols);
/*
 * Write rw as a row of the columns who_columns(how) makes, at now: the
 * user's name through u (looked up under r), the command as c->cmdline
 * has it, the counters' seconds by c->clk_tck (c->delay); a cgroup's
 * row ends with limit (ds_iolimit_text; NULL or "": none).
 */
void whorow_write(struct ds_writer *w, unsigned int how,
    const struct whocfg *c, struct ds_users *u, const struct ds_root *r,
    const struct whorow *rw, const char *limit, uint64_t now);
/*
 * The columns of cgrow rows: time cgroup device, then per key the rate
 * (rkB/s...: rates) or the counter (rbytes...), then the limit.  cols
 * has room for 4 + DS_IOS_N, which is returned.
 */
size_t cgio_columns(int rates, struct ds_col *cols);
/*
 * Write rw as a row of those columns, at now: rates or counters, and
 * the cgroup's limit on the device (ds_iolimit_text; NULL or "": none).
 */
void cgrow_write(struct ds_writer *w, const struct cgrow *rw, int rates,
    const char *limit, uint64_t now);
/*
 * A sort key's name (a word, or a column of either source): *proc the
 * index of whorow.v (WV_PID, or WV_NONE: io.stat only), *cg that of
 * cgrow.v (WV_NONE: /proc/PID/io only).  -ENOENT if none.
 */
int who_sort_key(const char *name, int *proc, int *cg);
/*
 * The sort key of -s name for a source: of io.stat (iostat; cgrow.v)
 * or of /proc/PID/io (whorow.v).  -ENOENT for no key, -ENOTSUP for one
 * the source lacks (*key WV_NONE), with *why saying so for a message
 * after "-s 'name': ".
 */
int who_key(const char *name, int iostat, int *key, const char **why);
/*
 * A kernel thread that does I/O on behalf of others, told by its name
 * (comm, as ps shows it): "loop" for a loop device's worker (loopN, or a
 * kworker whose work item names loopN), "flush" for a writeback flusher
 * (kworker/u*:*+flush-MAJ:MIN), "journal" for jbd2/DEV; NULL otherwise.
 */
const char *who_carrier(const char *comm, size_t len);
/*
 * The length of comm a stable name keeps: a kworker's current work item
 * ("kworker/u8:2+flush-253:0" is "kworker/u8:2") changes from one
 * moment to the next, so it is cut; other names are kept whole.
 */
size_t who_stable_len(const char *comm, size_t len);

/* base.c: what a scan keeps for the next one. */

/*
 * Of a scan, what a rate needs: per entry its process and thread ids,
 * start time, the io counters present, io_err and field 42, as varints
 * in the order added (process ascending, a process's threads
 * ascending).  About 20 bytes an idle process, where a struct ds_proc
 * takes 208.  Zeroed is empty; whobase_reset before each scan.
 */
struct whobase {
	unsigned char *d;
	size_t len, cap;
	uint64_t uptime_ns;	/* the caller's: when the scan was read */
	int sorted;		/* (tgid, pid) ascending: a cursor finds them */
	int lt, lp;		/* the last (tgid, pid) added */
	size_t off;		/* cursor: the next entry to decode */
	int have_at, qt, qp;	/* qt, qp: the last (tgid, pid) looked up */
	struct ds_proc at;	/* the entry decoded before off */
};
void whobase_reset(struct whobase *b);
/* The lookup cursor back to the start (before a scan's lookups). */
void whobase_rewind(struct whobase *b);
void whobase_free(struct whobase *b);
/* Append p's counters; 0 or -ENOMEM. */
int whobase_add(struct whobase *b, const struct ds_proc *p);
/*
 * The entry at *off into p (ids, starttime, io, io_err, have_blkio and
 * blkio_ticks; the rest zeroed); *off moves to the next.  Entries are
 * read from offset 0 while *off < b->len.
 */
void whobase_get(const struct whobase *b, size_t *off, struct ds_proc *p);
/*
 * The entry of (tgid, pid), or NULL; valid until the next call.  Made
 * for lookups in the order entries were added: then one walk of the base
 * serves a whole scan (a lookup out of order starts again from the top,
 * and a base added out of order is searched whole).
 */
const struct ds_proc *whobase_find(struct whobase *b, int tgid, int pid);

/*
 * What a row shows of an entry besides its counters (owner, name, with
 * cmdline the command line), kept beside a base in the same order.  Per
 * entry: uid; comm_len << 2 | same; the name unless same & 1; with
 * cmdline, unless same & 2, the command line's length with its NUL (0:
 * none) and its bytes.  A name or command line equal to the entry's
 * before is not stored again: the threads of a process, the workers of
 * a server.  Zeroed is empty.
 */
struct whonames {
	struct whobase b;	/* its d, len and cap */
	size_t off;		/* reading: the next entry */
	int any;		/* an entry stored (read) yet */
	size_t comm, comm_len;	/* the last entry's, as offset and length */
	size_t cmd, cmd_len;	/* the same, with the NUL; cmd_len 0: none */
};
void whonames_reset(struct whonames *n);
void whonames_free(struct whonames *n);
/* 0 or -ENOMEM. */
int whonames_add(struct whonames *n, const struct ds_proc *p, int cmdline);
/*
 * The next entry's uid, comm and (with cmdline) command line into p,
 * which whobase_get filled; p->cmdline points into n.
 */
void whonames_get(struct whonames *n, struct ds_proc *p, int cmdline);

/* select.c: the processes a run reads (-p, -u, -c). */

/*
 * -p's pids, -u's user, -c's regular expression (extended) matched
 * against the command as cmdline has it (who_command).  Zeroed: all;
 * freed by whosel_free.
 */
struct whosel {
	struct ds_pids pl;	/* these only (ds_pids_parse); n 0: any */
	const char *user;	/* a name or a uid; NULL: any user */
	int have_uid;		/* uid holds the user's */
	uint32_t uid;
	void *re;		/* a regex_t, or NULL */
	int cmdline;		/* match the command line, not comm */
};
/*
 * Compile pattern (replacing one before); -EINVAL (or -ENOMEM) with
 * regerror's message in msg.
 */
int whosel_regex(struct whosel *s, const char *pattern, char *msg,
    size_t size);
/* Only user's processes: a number (to 4294967295) is a uid. */
void whosel_user(struct whosel *s, const char *user);
/* A user's name to its uid in the root's etc/passwd, once; -ENOENT. */
int whosel_uid(struct whosel *s, struct ds_users *u, const struct ds_root *r);
/* Processes are selected (by pid, user or command). */
int whosel_any(const struct whosel *s);
/* p is one of them (a ds_who_keep, after whosel_uid). */
int whosel_keep(const struct whosel *s, const struct ds_proc *p);
void whosel_free(struct whosel *s);

/* stream.c: a report per process or thread made while proc is scanned. */

/*
 * A report alone (no interval) makes its rows as entries are read: its
 * rates are since each process started, so a wait for the reader moves
 * them by next to nothing.  With more (a report follows), a compact
 * base of the scan is kept; an interval's report reads its whole scan,
 * then makes its rows from the two bases.  Rows go to row (arg) at
 * once, or with cfg.sorted are kept (with top, the best so far) and
 * handed out sorted once the scan is over; a nonzero return of row for
 * a row made at once ends the scan (a write error).  Set the fields
 * before the first scan (cfg.delay before each); zeroed state, freed by
 * whostream_free.
 */
typedef int (*who_row)(const struct whorow *rw, void *arg);
struct whostream {
	struct whocfg cfg;
	unsigned int flags;	/* DS_WHO_* of ds_procs_each */
	const int *pids;
	size_t npids;
	ds_who_keep keep;	/* NULL: all; called with arg */
	who_row row;
	void *arg;
	int err;		/* the scan's own failure (-ENOMEM), or 0 */
	/* Between scans. */
	struct whobase bases[2];
	struct whobase *prev;	/* the scan before, NULL in one report */
	struct whobase *next;	/* this scan's, NULL when none follows */
	struct whonames names;	/* this scan's, when late */
	struct topn heap;
	int reporting, late;
};
/*
 * st's flags (DS_WHO_THREADS per thread, DS_WHO_CGROUP per cgroup;
 * DS_WHO_CMDLINE with sel->cmdline), pids (sel's) and cfg for the rows:
 * clk_tck (sysconf), idle rows too with idle, sorted by key when
 * key_set (else per thread by id, per process in the scan's order); top
 * alone sorts by the most block-layer bytes (WV_TOTAL).  Returns the
 * WHOCOL_* of the rows' columns; with prom, not per cgroup, the
 * counters since each started.
 */
unsigned int whostream_setup(struct whostream *st, const struct whosel *sel,
    unsigned int flags, int idle, int key, int key_set, uint64_t top,
    int prom);
/*
 * Before a scan: whether delay accounting is on (kernel.task_delayacct;
 * on before 5.14, which has no switch) into st->cfg.delay and
 * DS_WHO_DELAY of st->flags; returned.
 */
int whostream_delay(const struct ds_root *r, struct whostream *st);
/*
 * One scan into scan (its counters; freed by the caller): report: make
 * this scan's rows; more: keep its base.  -errno of the scan (with
 * scan->failed), or s->err; else 0.
 */
int whostream_scan(const struct ds_root *r, struct whostream *s, int report,
    int more, struct ds_procs *scan);
void whostream_free(struct whostream *s);

/* group.c: the per-cgroup reports (-g): their source and pipelines. */

/*
 * The source of -g, want "iostat", "proc" or NULL (choose): 1 io.stat
 * of the cgroup v2 mount copied to mnt, 0 the processes' /proc/PID/io
 * summed by cgroup; note the sentence saying which and why.  Chosen:
 * io.stat when the io controller is on (or, in a captured tree without
 * the root's cgroup.controllers, some cgroup has io.stat), unless
 * processes are selected or proc_key (the sort key is not in io.stat).
 * -errno when want is "iostat" and there is none, with note the message.
 */
int who_source(const struct ds_root *r, const char *want, int selected,
    int proc_key, char *mnt, size_t size, char *note, size_t nsize);
/*
 * The cgroup v2 mount into mnt, then 1 when the io controller is on
 * there (or, in a captured tree without the root's cgroup.controllers,
 * some cgroup has io.stat), 0 when not; -errno without a cgroup v2 mount.
 */
int cgio_source(const struct ds_root *r, char *mnt, size_t size);

/* -g from /proc/PID/io: successive scans and their rows. */
struct whogroup {
	struct ds_procs s[2];
	struct ds_procs *prev;	/* the scan before; NULL before one */
	struct ds_procs *cur;	/* the scan in hand */
	struct whorows rows;
};
/* Scan proc as st selects (flags, pids, keep and arg) into g->cur. */
int whogroup_scan(const struct ds_root *r, const struct whostream *st,
    struct whogroup *g);
/*
 * report: g->rows of g->cur against g->prev (whorows_cgroups), valid
 * until the scan after next; then g->cur is the scan before.  0 or
 * -errno.
 */
int whogroup_rows(const struct whocfg *c, struct whogroup *g, int report);
void whogroup_free(struct whogroup *g);

/* -g from io.stat: successive samples of mnt and their rows. */
struct cgiorun {
	char mnt[4096];		/* the cgroup v2 mount (who_source) */
	struct ds_cgios s[2];
	struct ds_cgios *prev;	/* the sample before; NULL before one */
	struct ds_cgios *cur;	/* the sample in hand */
	struct cgrow *rows;	/* cgio_rows, then cgio_select */
	size_t n, cap;
	size_t skip_next;	/* cgiorun_skipped */
	int skip_said;
};
/* Read every cgroup's io.stat into c->cur (ds_cgios_read). */
int cgiorun_read(const struct ds_root *r, struct cgiorun *c);
/*
 * The next subtree that c->cur's walk left out, its path, with *err why
 * (-ELOOP: deeper than DS_CGROUP_DEPTH_MAX); NULL when none is left, or
 * they were said for a sample before.
 */
const char *cgiorun_skipped(struct cgiorun *c, int *err);
/*
 * report: c->rows of c->cur against c->prev, those cgio_select shows
 * (all, key, top), valid until the sample after next; then c->cur is
 * the sample before.  0 or -errno.
 */
int cgiorun_rows(const struct ds_root *r, struct cgiorun *c, int report,
    int all, int key, uint64_t top);
void cgiorun_free(struct cgiorun *c);

/* notes.c: what a run says on standard error, each note once. */

struct whonotes {
	const char *source;	/* which -g source */
	size_t bad;		/* malformed files (or io.stat lines) */
	int first_bad;		/* the first malformed file's pid */
	int bad_iostat;		/* bad counts io.stat lines */
	int off_delay;		/* delay accounting was off */
	size_t unreadable;	/* processes whose io was refused */
	int said;		/* a bit per note said */
};
/* The next note not yet said into msg, and 1; 0 when none is left. */
int who_note(struct whonotes *n, int root, char *msg, size_t size);
/* A scan's damage into the notes: the first bad, the most unreadable. */
void who_note_scan(struct whonotes *n, const struct ds_procs *ps, int report);
/* An io.stat sample's malformed lines, unless a file was noted first. */
void who_note_cgios(struct whonotes *n, const struct ds_cgios *cs);

#endif
