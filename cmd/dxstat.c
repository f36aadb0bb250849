/*
 * dxstat: iostat -x per block device, from /proc/diskstats or from
 * snapshot files, with the same figures iostat prints on the same
 * counters.
 */
#include <fcntl.h>
#include <stddef.h>

#include <sys/vfs.h>

#include "util/util.h"

static const struct ds_col cols[] = {
	{ "time", DS_T_TIME, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "device", DS_T_STR, DS_P_LABEL, "device", NULL, 0, 0, 0 },
	{ "r/s", DS_T_F2, DS_P_GAUGE, "reads_per_second",
	    "Reads completed per second.", 0, 0, 0 },
	{ "rkB/s", DS_T_F2, DS_P_GAUGE, "read_bytes_per_second",
	    "Bytes read per second.", 0, 1024, DS_C_KB },
	{ "rrqm/s", DS_T_F2, DS_P_GAUGE, "read_merges_per_second",
	    "Read requests merged per second.", 0, 0, DS_C_WIDE },
	{ "%rrqm", DS_T_F2, DS_P_GAUGE, "read_merged_ratio",
	    "Share of read requests merged before dispatch.", 0, 0.01, DS_C_WIDE },
	{ "r_await", DS_T_F2, DS_P_GAUGE, "read_await_seconds",
	    "Mean time of a completed read, queue included.", 0, 0.001, 0 },
	{ "rareq-sz", DS_T_F2, DS_P_GAUGE, "read_request_size_bytes",
	    "Mean size of a completed read.", 0, 1024, DS_C_KB },
	{ "w/s", DS_T_F2, DS_P_GAUGE, "writes_per_second",
	    "Writes completed per second.", 0, 0, 0 },
	{ "wkB/s", DS_T_F2, DS_P_GAUGE, "written_bytes_per_second",
	    "Bytes written per second.", 0, 1024, DS_C_KB },
	{ "wrqm/s", DS_T_F2, DS_P_GAUGE, "write_merges_per_second",
	    "Write requests merged per second.", 0, 0, DS_C_WIDE },
	{ "%wrqm", DS_T_F2, DS_P_GAUGE, "write_merged_ratio",
	    "Share of write requests merged before dispatch.", 0, 0.01, DS_C_WIDE },
	{ "w_await", DS_T_F2, DS_P_GAUGE, "write_await_seconds",
	    "Mean time of a completed write, queue included.", 0, 0.001, 0 },
	{ "wareq-sz", DS_T_F2, DS_P_GAUGE, "write_request_size_bytes",
	    "Mean size of a completed write.", 0, 1024, DS_C_KB },
	{ "d/s", DS_T_F2, DS_P_GAUGE, "discards_per_second",
	    "Discards completed per second.", 0, 0, 0 },
	{ "dkB/s", DS_T_F2, DS_P_GAUGE, "discarded_bytes_per_second",
	    "Bytes discarded per second.", 0, 1024, DS_C_WIDE | DS_C_KB },
	{ "drqm/s", DS_T_F2, DS_P_GAUGE, "discard_merges_per_second",
	    "Discard requests merged per second.", 0, 0, DS_C_WIDE },
	{ "%drqm", DS_T_F2, DS_P_GAUGE, "discard_merged_ratio",
	    "Share of discard requests merged before dispatch.", 0, 0.01, DS_C_WIDE },
	{ "d_await", DS_T_F2, DS_P_GAUGE, "discard_await_seconds",
	    "Mean time of a completed discard, queue included.", 0, 0.001, DS_C_WIDE },
	{ "dareq-sz", DS_T_F2, DS_P_GAUGE, "discard_request_size_bytes",
	    "Mean size of a completed discard.", 0, 1024, DS_C_WIDE | DS_C_KB },
	{ "f/s", DS_T_F2, DS_P_GAUGE, "flushes_per_second",
	    "Flush requests completed per second.", 0, 0, 0 },
	{ "f_await", DS_T_F2, DS_P_GAUGE, "flush_await_seconds",
	    "Mean time of a completed flush request.", 0, 0.001, DS_C_WIDE },
	{ "aqu-sz", DS_T_F2, DS_P_GAUGE, "queue_depth",
	    "Mean number of requests queued or in service.", 0, 0, 0 },
	{ "%util", DS_T_F2, DS_P_GAUGE, "util_ratio",
	    "Share of the interval with at least one request in flight.",
	    0, 0.01, 0 },
	{ "in_flight", DS_T_U64, DS_P_GAUGE, "in_flight_requests",
	    "Requests in flight when the sample was read.", 0, 0, DS_C_WIDE },
};
#define NCOLS (sizeof(cols) / sizeof(cols[0]))

struct dmname {
	char dev[DS_DISK_NAME_MAX];
	char name[256];		/* "" when not a device-mapper device */
};

struct sample {
	struct ds_diskstats ds;
	uint64_t uptime_ns;
	uint64_t time_ns;	/* wall clock; 0 unknown */
};

struct dx {
	struct tool t;
	int part, all, zero, dm, noboot, snap;
	struct ds_devsel sel;	/* device operands */
	int sel_said;		/* unmatched operands were told */
	int status;		/* 1 once an operand matched nothing */
	const char *files[2];
	int nfiles;
	struct ds_blockdevs bd;
	int use_sys;		/* sys is the counters' machine */
	int bd_state;		/* sys/block: 0 not read yet, 1 read, -1 none:
				   whole disks are told by their names */
	int bd_rescanned;	/* sys/block read during this report */
	struct ds_pair pair;	/* prev index minus the row's, last match */
	struct dmname *dmn;
	size_t ndmn, capdmn;
	struct ds_writer w;
	struct ds_buf buf, scratch;
	size_t last_bad, last_first_bad;
	int extra_said;		/* a line of 12-14 or 16 values was told */
};

static const char synopsis[] =
    "dxstat [-aHhNpsyz] [-f file [-f file]] [-O cols] [-o fmt] [-R dir]\n"
    "              [-w file] [--utc] [device|glob ...] [interval [count]]";

static const char options[] =
    "  -a            also devices that never did I/O\n"
    "  -f file       report on snapshot files (one: since boot; two: between)\n"
    "  -N            device-mapper devices by their dm names\n"
    "  -p            partitions too\n"
    "  -s            write a snapshot of the raw counters\n"
    "  -y            skip the since-boot report\n"
    "  -z            hide devices idle over the interval\n";

static const struct tool_info info = { synopsis, options, TOOL_N_NONE };

static const char *rootpath(struct dx *, const char *);

/* statfs(2) f_type of procfs (linux/magic.h). */
#define PROC_MAGIC 0x9fa0

/* sys/block into x->bd; without it (a tree of proc only), names decide. */
static void
read_bd(struct dx *x)
{
	int e;

	x->bd_rescanned = 1;
	if ((e = ds_blockdevs_read(&x->t.r, &x->bd)) == 0) {
		x->bd_state = 1;
		return;
	}
	if (x->bd_state == 1 || (e != -ENOENT && e != -ENOTDIR))
		tool_warnc(e, "%s", rootpath(x, "sys/block"));
	x->bd_state = -1;
}

/*
 * Is name a whole disk?  Whole disks are the names in sys/block, read
 * when first needed (never with -p and no operand).  A name it does not
 * have is a partition, or a disk added since it was read (hot plug, a
 * new loop device): only a device new since the last sample (seen 0)
 * can be such a disk, and for one of those sys/block is read again, at
 * most once per report and only on a live system.
 */
static int
whole_disk(struct dx *x, const char *name, int seen)
{
	if (x->bd_state == 0)
		read_bd(x);
	if (x->bd_state < 0)
		return !ds_name_is_partition(name);
	if (ds_blockdevs_has(&x->bd, name))
		return 1;
	if (seen || !x->t.r.live || x->bd_rescanned)
		return 0;
	read_bd(x);
	if (x->bd_state < 0)
		return !ds_name_is_partition(name);
	return ds_blockdevs_has(&x->bd, name);
}

/* The device-mapper name of dev, read once per device; NULL if none. */
static const char *
dm_name(struct dx *x, const char *dev)
{
	struct dmname *d;
	size_t i;

	/* A snapshot from elsewhere: the local dm names are not its. */
	if (!x->use_sys || strncmp(dev, "dm-", 3) != 0)
		return NULL;
	for (i = 0; i < x->ndmn; i++)
		if (strcmp(x->dmn[i].dev, dev) == 0)
			return x->dmn[i].name[0] != '\0' ? x->dmn[i].name :
			    NULL;
	if (x->ndmn == x->capdmn) {
		size_t cap = x->capdmn ? x->capdmn * 2 : 16;
		d = realloc(x->dmn, cap * sizeof(*d));
		if (d == NULL)
			err(1, NULL);
		x->dmn = d;
		x->capdmn = cap;
	}
	d = &x->dmn[x->ndmn++];
	snprintf(d->dev, sizeof(d->dev), "%s", dev);
	if (ds_dm_name(&x->t.r, dev, &x->scratch, d->name,
	    sizeof(d->name)) < 0)
		d->name[0] = '\0';
	return d->name[0] != '\0' ? d->name : NULL;
}

/*
 * 0: not shown; 1: shown unless idle since boot; 2: named, always
 * shown.  Operands match kernel names, and dm names with -N or when
 * given as /dev/mapper/NAME; a glob selects whole disks (all with -p).
 */
static int
selected(struct dx *x, const char *name, int seen)
{
	const char *dm = NULL;

	if (x->sel.n == 0)
		return x->part || whole_disk(x, name, seen);
	if (x->dm || x->sel.ndm > 0)
		dm = dm_name(x, name);
	return ds_devsel_match(&x->sel, name, dm, x->sel.nglob == 0 ||
	    x->part || whole_disk(x, name, seen));
}

/*
 * After the first report: an operand that selected nothing is told
 * once, as dqueue does, and makes the exit status 1; the devices that
 * were found are reported all the same.
 */
static void
say_unmatched(struct dx *x)
{
	size_t i;

	if (x->sel_said)
		return;
	x->sel_said = 1;
	for (i = 0; i < x->sel.n; i++) {
		const struct ds_devop *op = &x->sel.op[i];

		if (op->matched)
			continue;
		warnx("%s: %s", op->arg, op->glob ? "no device matches" :
		    "no such device");
		x->status = 1;
	}
	/*
	 * Devices come and go on the running system, so a sampling run
	 * waits for them; a captured tree never changes: if nothing named
	 * is there, no later report can hold a row.
	 */
	for (i = 0; i < x->sel.n; i++)
		if (x->sel.op[i].matched)
			return;
	if (x->sel.n > 0 && !x->t.r.live && x->t.has_interval &&
	    x->nfiles == 0)
		errx(1, "%s: none of the devices named is there, and a "
		    "captured tree does not change: nothing to report",
		    x->t.r.path);
}

static int
never_did_io(const struct ds_disk *d)
{
	return d->v[DS_RD_IOS] == 0 && d->v[DS_WR_IOS] == 0 &&
	    d->v[DS_DC_IOS] == 0 && d->v[DS_FL_IOS] == 0;
}

/*
 * One row: c against p, its previous sample (NULL: counted from zero,
 * since boot or since the device appeared) over interval_ns.
 */
static void
row(struct dx *x, const struct ds_disk *p, const struct ds_disk *c,
    uint64_t interval_ns, uint64_t time_ns)
{
	uint64_t d[DS_NCOUNTERS];
	struct ds_xstat xs;
	uint32_t have;
	const char *name;
	int j, sel;

	if (!x->extra_said && ds_disk_extra(c) > 0) {
		x->extra_said = 1;
		warnx("%s: %u values where the kernel prints %u: read as "
		    "that format, the rest unused (said once)", c->name,
		    c->ncounters, ds_disk_known(c->ncounters));
	}
	if ((sel = selected(x, c->name, p != NULL)) == 0)
		return;
	if (sel == 1 && !x->all && never_did_io(c))
		return;
	ds_disk_delta(p, c, d, &have);
	ds_xstat_compute(d, have, interval_ns, &xs);
	if (x->zero && xs.completed == 0)
		return;
	name = x->dm ? dm_name(x, c->name) : NULL;
	if (time_ns != 0)
		ds_w_time(&x->w, time_ns);
	else
		ds_w_null(&x->w);
	ds_w_str(&x->w, name != NULL ? name : c->name);
	for (j = 0; j < DS_X_N; j++) {
		if ((xs.have >> j) & 1u)
			ds_w_f(&x->w, xs.v[j]);
		else
			ds_w_null(&x->w);
	}
	if (DS_HAVE(c, DS_IN_FLIGHT))
		ds_w_u64(&x->w, c->v[DS_IN_FLIGHT]);
	else
		ds_w_null(&x->w);
	ds_w_row_end(&x->w);
}

static void
report_begin(struct dx *x)
{
	x->bd_rescanned = 0;
	x->pair.shift = 0;
	tool_report_begin(&x->t, &x->w);
}

static void
report_end(struct dx *x)
{
	tool_report_end(&x->t, &x->w);
	say_unmatched(x);
}

/* One report: cur against prev (NULL: since boot) over interval_ns. */
static void
report(struct dx *x, const struct ds_diskstats *prev,
    const struct ds_diskstats *cur, uint64_t interval_ns, uint64_t time_ns)
{
	size_t i;

	report_begin(x);
	for (i = 0; i < cur->n; i++)
		row(x, ds_pair_find(&x->pair, prev, &cur->disk[i], i),
		    &cur->disk[i], interval_ns, time_ns);
	report_end(x);
}

static void warn_bad(struct dx *, const char *, const struct ds_diskstats *);

/*
 * A report with the current sample read as it is reported, line by
 * line: no more memory than one line, whatever the number of devices.
 * Only for text that holds still (files, not procfs): a live sample is
 * read whole first, so that a slow reader of our output can neither
 * stretch it nor make the kernel's listing skip a device removed
 * between two reads.  The previous sample is an array (prev), a file
 * read along (o), or neither (since boot).
 */
static void
report_lines(struct dx *x, const struct ds_diskstats *prev,
    struct ds_older *o, struct ds_lines *l, const char *what,
    uint64_t interval_ns, uint64_t time_ns)
{
	struct ds_diskstats bad = { 0 };
	const struct ds_disk *p;
	struct ds_disk c;
	size_t i = 0;
	int e, twice = 0;

	report_begin(x);
	while ((e = ds_diskstats_next(l, &c, &bad)) > 0) {
		if (o != NULL) {
			/* Every device, shown or not, keeps o in step. */
			if ((e = ds_older_find(o, &x->pair, &c, i, &p,
			    &twice)) < 0)
				tool_report_fail(&x->t, e, "%s", o->what);
			if (twice) {
				if (o->twice++ == 0)
					o->first_twice = l->lineno;
				continue;
			}
		} else {
			p = ds_pair_find(&x->pair, prev, &c, i);
		}
		row(x, p, &c, interval_ns, time_ns);
		i++;
	}
	if (e < 0)
		tool_report_fail(&x->t, e, "%s", what);
	/* The rest of the earlier file, for its damaged lines. */
	if (o != NULL && (e = ds_older_read(o, &x->pair, NULL, &p)) < 0)
		tool_report_fail(&x->t, e, "%s", o->what);
	report_end(x);
	if (o != NULL) {
		x->last_bad = 0;
		warn_bad(x, o->what, &o->pend);
		if (o->twice > 0)
			warnx("%s: line %zu: a device listed again (%zu line%s "
			    "skipped)", what, o->first_twice, o->twice,
			    o->twice == 1 ? "" : "s");
		x->last_bad = 0;
	}
	warn_bad(x, what, &bad);
}

/* Say once per change that lines were skipped; the rest is reported. */
static void
warn_bad(struct dx *x, const char *what, const struct ds_diskstats *s)
{
	if (s->bad == 0 || (s->bad == x->last_bad &&
	    s->first_bad == x->last_first_bad))
		return;
	x->last_bad = s->bad;
	x->last_first_bad = s->first_bad;
	warnx("%s: line %zu: not a diskstats line (%zu line%s skipped)",
	    what, s->first_bad, s->bad, s->bad == 1 ? "" : "s");
}

/* A path under the root, for messages. */
static const char *
rootpath(struct dx *x, const char *rel)
{
	return tool_path(&x->t, rel);
}

/* Read proc/diskstats and, next to it, the time base. */
static void
take(struct dx *x, struct sample *s)
{
	int e;

	if ((e = ds_diskstats_read(&x->t.r, &x->buf, &s->ds)) < 0)
		tool_errc(1, e, "%s", rootpath(x, "proc/diskstats"));
	if ((e = ds_uptime_ns(&x->t.r, &x->scratch, &s->uptime_ns)) < 0)
		tool_errc(1, e, "%s", rootpath(x, "proc/uptime"));
	s->time_ns = ds_realtime_ns();
	warn_bad(x, rootpath(x, "proc/diskstats"), &s->ds);
}

/*
 * A since-boot report only.  A file that holds still (a captured tree)
 * is reported line by line as it is read; procfs's is read whole first
 * (see report_lines).
 */
static void
since_boot(struct dx *x)
{
	const char *what = rootpath(x, "proc/diskstats");
	struct ds_diskstats ds = { 0 };
	struct ds_lines l;
	struct statfs sf;
	uint64_t up, now;
	int e;

	if ((e = ds_lines_open(&l, &x->t.r, "proc/diskstats", &x->buf)) < 0)
		tool_errc(1, e, "%s", what);
	if (fstatfs(l.fd, &sf) == 0 && sf.f_type == PROC_MAGIC) {
		if ((e = ds_diskstats_fill(&l, &ds)) < 0)
			tool_errc(1, e, "%s", what);
		ds_lines_close(&l);
		if ((e = ds_uptime_ns(&x->t.r, &x->scratch, &up)) < 0)
			tool_errc(1, e, "%s", rootpath(x, "proc/uptime"));
		report(x, NULL, &ds, up, ds_realtime_ns());
		warn_bad(x, what, &ds);
		ds_diskstats_free(&ds);
		return;
	}
	if ((e = ds_uptime_ns(&x->t.r, &x->scratch, &up)) < 0)
		tool_errc(1, e, "%s", rootpath(x, "proc/uptime"));
	now = ds_realtime_ns();
	report_lines(x, NULL, NULL, &l, what, up, now);
	ds_lines_close(&l);
}

static void
snapshot(struct dx *x)
{
	struct ds_buf out = { 0 };
	struct ds_writer w;
	struct sample s;
	int e;

	if ((e = ds_read_file(&x->t.r, "proc/diskstats", &x->buf)) < 0)
		tool_errc(1, e, "%s", rootpath(x, "proc/diskstats"));
	if ((e = ds_uptime_ns(&x->t.r, &x->scratch, &s.uptime_ns)) < 0)
		tool_errc(1, e, "%s", rootpath(x, "proc/uptime"));
	/*
	 * The time line says when the counters were read.  A captured tree
	 * was read some other time, maybe on another machine: "now" would
	 * be a lie, and the line is optional.
	 */
	if ((e = ds_snap_format(&out, s.uptime_ns,
	    x->t.r.live ? ds_realtime_ns() : 0, "", 0)) < 0)
		tool_errc(1, e, "snapshot");
	/* Raw text through a writer of no columns: it owns -w's file. */
	ds_writer_init(&w, x->t.out, DS_FMT_TSV, NULL, 0, 0, "dxstat");
	tool_report_begin(&x->t, &w);
	/* The header, then the text as read (not copied behind it). */
	ds_w_raw(&w, out.data, out.len);
	ds_w_raw(&w, x->buf.data, x->buf.len);
	if (x->buf.len > 0 && x->buf.data[x->buf.len - 1] != '\n')
		ds_w_raw(&w, "\n", 1);
	tool_report_end(&x->t, &w);
	ds_writer_free(&w);
	ds_buf_free(&out);
}

/*
 * Open a snapshot file and read its header lines into s; l is left at
 * its diskstats text.  Returns the fd to close (-1 for stdin).
 */
static int
open_snap(struct dx *x, const char *path, struct ds_lines *l,
    struct ds_buf *window, struct ds_snap *s)
{
	const char *what = strcmp(path, "-") == 0 ? "stdin" : path;
	int fd, e;

	if (strcmp(path, "-") == 0)
		fd = STDIN_FILENO;
	else if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		err(1, "%s", path);
	ds_lines_fd(l, fd, window);
	if ((e = ds_snap_head(l, s)) < 0) {
		if (s->why != NULL)
			errx(1, "%s: line %zu: %s", what, s->why_line, s->why);
		tool_errc(1, e, "%s", what);
	}
	x->last_bad = 0;
	return fd == STDIN_FILENO ? -1 : fd;
}

static void
from_files(struct dx *x)
{
	struct ds_snap a = { 0 }, b = { 0 };
	struct ds_buf wa = { 0 };
	struct ds_older o;
	struct ds_lines lb;
	const struct ds_disk *p;
	const char *what;
	int fa, fb, e;

	memset(&o, 0, sizeof(o));
	o.what = strcmp(x->files[0], "-") == 0 ? "stdin" : x->files[0];
	/* Standard input need not start at its file's beginning. */
	o.start = strcmp(x->files[0], "-") == 0 ?
	    lseek(STDIN_FILENO, 0, SEEK_CUR) : 0;
	fa = open_snap(x, x->files[0], &o.l, &wa, &a);
	ds_older_init(&o, fa >= 0 ? fa : STDIN_FILENO, o.start);
	if (x->nfiles == 1) {
		report_lines(x, NULL, NULL, &o.l, o.what, a.uptime_ns,
		    a.time_ns);
		goto done;
	}
	what = strcmp(x->files[1], "-") == 0 ? "stdin" : x->files[1];
	fb = open_snap(x, x->files[1], &lb, &x->buf, &b);
	if (b.uptime_ns == a.uptime_ns)
		errx(1, "%s and %s were taken at the same uptime",
		    x->files[0], x->files[1]);
	if (b.uptime_ns < a.uptime_ns) {
		/* Uptime went back: a reboot, or the files swapped. */
		warnx("%s: uptime below %s's (a reboot between them?): "
		    "reporting since boot", x->files[1], x->files[0]);
		/* Read before the report is committed: an error aborts it. */
		if ((e = ds_older_read(&o, &x->pair, NULL, &p)) < 0)
			tool_report_fail(&x->t, e, "%s", o.what);
		report_lines(x, NULL, NULL, &lb, what, b.uptime_ns, b.time_ns);
		x->last_bad = 0;
		warn_bad(x, o.what, &o.pend);
	} else {
		report_lines(x, NULL, &o, &lb, what,
		    b.uptime_ns - a.uptime_ns, b.time_ns);
	}
	if (fb >= 0)
		close(fb);
done:
	if (fa >= 0)
		close(fa);
	ds_older_free(&o);
	ds_buf_free(&wa);
}

static void
sample_loop(struct dx *x)
{
	struct sample s[2];
	uint64_t reports = 0, deadline;
	int cur = 0;

	if (!x->t.has_interval) {
		since_boot(x);
		return;
	}
	memset(s, 0, sizeof(s));
	take(x, &s[0]);
	deadline = ds_boottime_ns() + x->t.interval_ns;
	if (!x->noboot) {
		report(x, NULL, &s[0].ds, s[0].uptime_ns, s[0].time_ns);
		reports++;
	}
	while (x->t.has_interval && (x->t.count == 0 ||
	    reports < x->t.count)) {
		if (tool_wait(&x->t, &deadline))
			break;
		take(x, &s[!cur]);
		report(x, &s[cur].ds, &s[!cur].ds,
		    s[!cur].uptime_ns > s[cur].uptime_ns ?
		    s[!cur].uptime_ns - s[cur].uptime_ns : 0, s[!cur].time_ns);
		cur = !cur;
		reports++;
	}
	ds_diskstats_free(&s[0].ds);
	ds_diskstats_free(&s[1].ds);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = { TOOL_LONGOPTS };
	struct dx x;
	int ch;

	memset(&x, 0, sizeof(x));
	tool_init(&x.t, argv, &info);
	while ((ch = getopt_long(argc, argv, TOOL_OPTS "af:Npsyz", longopts,
	    NULL)) != -1) {
		if (tool_option(&x.t, ch, optarg))
			continue;
		switch (ch) {
		case 'a':
			x.all = 1;
			break;
		case 'f':
			if (x.nfiles == 2) {
				warnx("-f: at most two snapshots");
				usage();
			}
			x.files[x.nfiles++] = optarg;
			break;
		case 'N':
			x.dm = 1;
			break;
		case 'p':
			x.part = 1;
			break;
		case 's':
			x.snap = 1;
			break;
		case 'y':
			x.noboot = 1;
			break;
		case 'z':
			x.zero = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	tool_interval(&x.t, &argc, argv);
	if (ds_devsel_init(&x.sel, argv, (size_t)argc) < 0)
		err(1, NULL);
	if (x.snap && (x.nfiles > 0 || x.t.has_interval || x.sel.n > 0)) {
		warnx("-s takes no snapshot file, device or interval");
		usage();
	}
	if (x.nfiles > 0 && x.t.has_interval) {
		warnx("-f reports on snapshots: no interval");
		usage();
	}
	if (x.nfiles == 2 && strcmp(x.files[0], "-") == 0 &&
	    strcmp(x.files[1], "-") == 0) {
		warnx("-f: only one snapshot can come from stdin");
		usage();
	}
	if (x.noboot && !x.t.has_interval) {
		warnx("-y needs an interval");
		usage();
	}
	tool_start(&x.t);
	if (x.snap) {
		snapshot(&x);
		tool_exit(0);
	}
	/*
	 * Whole disks are the names in sys/block.  Snapshot files may come
	 * from another machine, so only a root given on purpose is trusted
	 * for them; otherwise, and in a tree without sys/block, partitions
	 * are told by their names, and -N keeps the kernel names.
	 */
	x.use_sys = x.nfiles == 0 || x.t.root != NULL ||
	    (getenv("DISKSTAT_ROOT") != NULL && *getenv("DISKSTAT_ROOT"));
	x.bd_state = x.use_sys ? 0 : -1;
	ds_writer_init(&x.w, x.t.out, x.t.fmt, cols, NCOLS, x.t.header,
	    "dxstat");
	tool_writer(&x.t, &x.w);
	if (x.nfiles > 0)
		from_files(&x);
	else
		sample_loop(&x);
	ds_writer_free(&x.w);
	ds_blockdevs_free(&x.bd);
	ds_buf_free(&x.buf);
	ds_buf_free(&x.scratch);
	free(x.dmn);
	ds_devsel_free(&x.sel);
	tool_exit(x.status);
}
