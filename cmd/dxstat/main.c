/*
 * dxstat: iostat -x per block device, from /proc/diskstats or from
 * snapshot files, with the same figures iostat prints on the same
 * counters.
 */
#include <stddef.h>

#include "util/util.h"
#include "dxstat.h"

struct dx {
	struct tool t;
	int zero, noboot, snap;
	struct ds_devsel sel;	/* device operands */
	struct dx_disks ds;	/* the devices shown */
	int sel_said;		/* unmatched operands were told */
	int status;		/* 1 once an operand matched nothing */
	const char *files[2];
	int nfiles;
	struct ds_pair pair;	/* prev index minus the row's, last match */
	struct ds_writer w;
	struct ds_buf buf, scratch;
	struct dx_badseen bad;	/* the damaged lines last told */
	int extra_said;		/* a line of 12-14 or 16 values was told */
};

static const char synopsis[] =
    "dxstat [-aHhNpsyz] [-f file [-f file]] [-O cols] [-o fmt] [-R dir]\n"
    "              [-w file] [--utc] [device|glob ...] [interval [count]]";

static const char options[] =
    "  -a            also devices that never did I/O\n"
    "  -f file       report on snapshot files (one: since boot; two: between),\n"
    "                or on two captures (the window between their ends)\n"
    "  -N            device-mapper devices by their dm names\n"
    "  -p            partitions too\n"
    "  -s            write a snapshot of the raw counters\n"
    "  -y            skip the since-boot report\n"
    "  -z            hide devices idle over the interval\n";

static const struct tool_info info = { synopsis, options, TOOL_N_NONE };

/*
 * After the first report: an operand that selected nothing is told
 * once, as dqueue does, and makes the exit status 1; the devices that
 * were found are reported all the same.
 */
static void
say_unmatched(struct dx *x)
{
	if (x->sel_said)
		return;
	x->sel_said = 1;
	if (tool_unmatched(&x->sel, "no such device") > 0)
		x->status = 1;
	/*
	 * Devices come and go on the running system, so a sampling run
	 * waits for them; a captured tree never changes: if nothing named
	 * is there, no later report can hold a row.
	 */
	if (ds_devsel_none_matched(&x->sel) && !x->t.r.live &&
	    x->t.has_interval && x->nfiles == 0)
		errx(1, "%s: none of the devices named is there, and a "
		    "captured tree does not change: nothing to report",
		    x->t.r.path);
}

/*
 * One row: c against p, its previous sample (NULL: counted from zero,
 * since boot or since the device appeared) over interval_ns.
 */
static void
row(struct dx *x, const struct ds_disk *p, const struct ds_disk *c,
    uint64_t interval_ns, uint64_t time_ns)
{
	const char *name;
	int e;

	if (!x->extra_said)
		x->extra_said = dx_warn_extra(c);
	e = dx_disks_pick(&x->ds, c, p != NULL, &name);
	if (x->ds.bd_error != 0) {
		tool_warnc(x->ds.bd_error, "%s", tool_path(&x->t, "sys/block"));
		x->ds.bd_error = 0;
	}
	if (e < 0)
		tool_errc(1, e, NULL);
	if (e > 0)
		(void)dx_row(&x->w, p, c, name, interval_ns, time_ns, x->zero);
}

static void
report_begin(struct dx *x)
{
	x->ds.bd_rescanned = 0;
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

/*
 * A report with the current sample read as it is reported, line by
 * line: no more memory than one line, whatever the number of devices.
 * Only for text that holds still (files, not procfs): a live sample is
 * read whole first, so that a slow reader of our output can neither
 * stretch it nor make the kernel's listing skip a device removed
 * between two reads.  The previous sample is a file read along, or
 * none (since boot): see ds_rows_next.  only_read: a file read but not
 * paired, whose damaged lines are told last (NULL: none).
 */
static void
report_lines(struct dx *x, struct ds_rows *rs,
    const struct ds_older *only_read, uint64_t interval_ns, uint64_t time_ns)
{
	const struct ds_disk *p;
	struct ds_disk c;
	int e;

	report_begin(x);
	while ((e = ds_rows_next(rs, &x->pair, &c, &p)) > 0)
		row(x, p, &c, interval_ns, time_ns);
	if (e < 0)
		tool_report_fail(&x->t, e, "%s", rs->failed);
	report_end(x);
	dx_warn_rows(rs, only_read);
}

/* Read proc/diskstats and, next to it, the time base. */
static void
take(struct dx *x, struct ds_snap *s)
{
	const char *rel;
	int e;

	if ((e = ds_sample_take(&x->t.r, &x->buf, &x->scratch, s, &rel)) < 0)
		tool_errc(1, e, "%s", tool_path(&x->t, rel));
	/* Told once per change; the rest is reported. */
	dx_warn_bad_new(tool_path(&x->t, "proc/diskstats"), &s->ds, &x->bad);
}

/*
 * A since-boot report only.  A file that holds still (a captured tree)
 * is reported line by line as it is read; procfs's is read whole first
 * (see report_lines).
 */
static void
since_boot(struct dx *x)
{
	const char *what = tool_path(&x->t, "proc/diskstats"), *rel;
	struct ds_snap s = { 0 };
	struct ds_rows rs;
	struct ds_lines l;
	int e;

	if ((e = ds_sample_open(&x->t.r, &l, &x->buf, &x->scratch, &s,
	    &rel)) < 0)
		tool_errc(1, e, "%s", tool_path(&x->t, rel));
	if (e == 0) {
		ds_rows_init(&rs, &l, NULL, what);
		report_lines(x, &rs, NULL, s.uptime_ns, s.time_ns);
		ds_lines_close(&l);
		return;
	}
	report(x, NULL, &s.ds, s.uptime_ns, s.time_ns);
	dx_warn_bad_new(what, &s.ds, &x->bad);
	ds_diskstats_free(&s.ds);
}

/* -s: the header lines, then the counters as read, to stdout or -w. */
static void
snapshot(struct dx *x)
{
	struct ds_buf head = { 0 };
	struct ds_writer w;
	const char *rel;
	int e;

	if ((e = dx_snap_take(&x->t.r, &x->buf, &x->scratch, &head,
	    &rel)) < 0)
		tool_errc(1, e, "%s", rel != NULL ? tool_path(&x->t, rel) :
		    "snapshot");
	/* Raw text through a writer of no columns: it owns -w's file. */
	if ((e = ds_writer_init(&w, x->t.out, DS_FMT_TSV, NULL, 0, 0,
	    "dxstat")) < 0)
		tool_errc(1, e, "writer");
	tool_report_begin(&x->t, &w);
	dx_snap_write(&w, &head, &x->buf);
	tool_report_end(&x->t, &w);
	ds_writer_free(&w);
	ds_buf_free(&head);
}

/* -f: one snapshot file (since boot) or two (the later against the first). */
static void
from_files(struct dx *x)
{
	struct dx_files f;
	int e;

	if ((e = dx_files_open(&f, x->files, x->nfiles, &x->buf)) < 0)
		dx_files_fail(&f, e);
	report_lines(x, &f.rows, f.reboot ? &f.o : NULL, f.interval_ns,
	    f.time_ns);
	dx_files_close(&f);
}

static void
sample_loop(struct dx *x)
{
	struct ds_snap s[2];
	uint64_t reports = 0, deadline;
	int cur = 0;

	memset(s, 0, sizeof(s));
	take(x, &s[0]);
	deadline = ds_boottime_ns() + x->t.interval_ns;
	if (!x->noboot) {
		report(x, NULL, &s[0].ds, s[0].uptime_ns, s[0].time_ns);
		reports++;
	}
	while (x->t.count == 0 || reports < x->t.count) {
		if (tool_wait(&x->t, &deadline))
			break;
		take(x, &s[!cur]);
		report(x, &s[cur].ds, &s[!cur].ds,
		    ds_sample_interval(&s[cur], &s[!cur]), s[!cur].time_ns);
		cur = !cur;
		reports++;
	}
	ds_diskstats_free(&s[0].ds);
	ds_diskstats_free(&s[1].ds);
}

static void
options_parse(struct dx *x, int argc, char **argv)
{
	static const struct option longopts[] = { TOOL_LONGOPTS };
	int ch;

	while ((ch = getopt_long(argc, argv, TOOL_OPTS "af:Npsyz", longopts,
	    NULL)) != -1) {
		if (tool_option(&x->t, ch, optarg))
			continue;
		switch (ch) {
		case 'a':
			x->ds.all = 1;
			break;
		case 'f':
			if (x->nfiles == 2)
				tool_usage("-f: at most two snapshots");
			x->files[x->nfiles++] = optarg;
			break;
		case 'N':
			x->ds.dm = 1;
			break;
		case 'p':
			x->ds.part = 1;
			break;
		case 's':
			x->snap = 1;
			break;
		case 'y':
			x->noboot = 1;
			break;
		case 'z':
			x->zero = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	tool_interval(&x->t, &argc, argv);
	if (ds_devsel_init(&x->sel, argv, (size_t)argc) < 0)
		err(1, NULL);
}

static void
options_check(struct dx *x)
{
	if (x->snap && (x->nfiles > 0 || x->t.has_interval || x->sel.n > 0))
		tool_usage("-s takes no snapshot file, device or interval");
	if (x->nfiles > 0 && x->t.has_interval)
		tool_usage("-f reports on snapshots: no interval");
	if (x->nfiles == 2 && strcmp(x->files[0], "-") == 0 &&
	    strcmp(x->files[1], "-") == 0)
		tool_usage("-f: only one snapshot can come from stdin");
}

/*
 * Open the root: -R's (a capture of two samples reports its window
 * only, as "-y WINDOW 1" would), or for -f OLD -f NEW naming two
 * captures rather than snapshot files, the pair of their last samples.
 */
static void
start(struct dx *x)
{
	int c0, c1;

	c0 = x->nfiles > 0 && tool_is_capture(x->files[0]);
	c1 = x->nfiles > 1 && tool_is_capture(x->files[1]);
	if (x->nfiles == 1 && c0)
		tool_usage("-f %s: a capture; -R reads one, -f OLD -f NEW two",
		    x->files[0]);
	if (x->nfiles == 2 && c0 != c1)
		tool_usage("-f: %s is a capture and %s is not", x->files[c1],
		    x->files[c0]);
	if (x->nfiles == 2 && c0) {
		tool_start_pair(&x->t, x->files[0], x->files[1]);
		x->nfiles = 0;
	} else
		tool_start(&x->t);
	if (x->snap) {
		tool_root_last(&x->t);	/* a capture's latest counters */
		return;
	}
	if (tool_window(&x->t))
		x->noboot = 1;
	if (x->noboot && !x->t.has_interval)
		tool_usage("-y needs an interval");
}

int
main(int argc, char **argv)
{
	const struct ds_col *cols;
	struct dx x;
	size_t ncols;

	memset(&x, 0, sizeof(x));
	tool_init(&x.t, argv, &info);
	options_parse(&x, argc, argv);
	options_check(&x);
	start(&x);
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
	dx_disks_init(&x.ds, &x.t.r, &x.sel, x.nfiles == 0 ||
	    x.t.root != NULL || (getenv("DISKSTAT_ROOT") != NULL &&
	    *getenv("DISKSTAT_ROOT")));
	cols = dx_columns(&ncols);
	tool_writer_open(&x.t, &x.w, cols, ncols, "dxstat");
	if (x.nfiles > 0)
		from_files(&x);
	else if (!x.t.has_interval)
		since_boot(&x);
	else
		sample_loop(&x);
	ds_writer_free(&x.w);
	dx_disks_free(&x.ds);
	ds_buf_free(&x.buf);
	ds_buf_free(&x.scratch);
	ds_devsel_free(&x.sel);
	tool_exit(x.status);
}
