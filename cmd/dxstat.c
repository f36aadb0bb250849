/*
 * dxstat: iostat -x per block device, from /proc/diskstats or from
 * snapshot files, with the same figures iostat prints on the same
 * counters.
 */
#include <stddef.h>

#include "util/util.h"

struct sample {
	struct ds_diskstats ds;
	uint64_t uptime_ns;
	uint64_t time_ns;	/* wall clock; 0 unknown */
};

struct dx {
	struct tool t;
	int zero, noboot, snap;
	struct ds_devsel sel;	/* device operands */
	struct ds_disksel ds;	/* the devices shown */
	int sel_said;		/* unmatched operands were told */
	int status;		/* 1 once an operand matched nothing */
	const char *files[2];
	int nfiles;
	struct ds_pair pair;	/* prev index minus the row's, last match */
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
	uint64_t d[DS_NCOUNTERS];
	struct ds_xstat xs;
	const char *name = NULL;
	uint32_t have;
	int j, e;

	if (!x->extra_said && ds_disk_extra(c) > 0) {
		x->extra_said = 1;
		warnx("%s: %u values where the kernel prints %u: read as "
		    "that format, the rest unused (said once)", c->name,
		    c->ncounters, ds_disk_known(c->ncounters));
	}
	e = ds_disksel_show(&x->ds, c, p != NULL);
	if (x->ds.bd_error != 0) {
		tool_warnc(x->ds.bd_error, "%s", tool_path(&x->t, "sys/block"));
		x->ds.bd_error = 0;
	}
	if (e == 0)
		return;
	if (e < 0 || (x->ds.dm && (e = ds_disksel_dm(&x->ds, c->name,
	    &name)) < 0))
		tool_errc(1, e, NULL);
	ds_disk_delta(p, c, d, &have);
	ds_xstat_compute(d, have, interval_ns, &xs);
	if (x->zero && xs.completed == 0)
		return;
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

/*
 * A report with the current sample read as it is reported, line by
 * line: no more memory than one line, whatever the number of devices.
 * Only for text that holds still (files, not procfs): a live sample is
 * read whole first, so that a slow reader of our output can neither
 * stretch it nor make the kernel's listing skip a device removed
 * between two reads.  The previous sample is a file read along (o), or
 * none (since boot).
 */
static void
report_lines(struct dx *x, struct ds_older *o, struct ds_lines *l,
    const char *what, uint64_t interval_ns, uint64_t time_ns)
{
	struct ds_diskstats bad = { 0 };
	const struct ds_disk *p = NULL;
	struct ds_disk c;
	size_t i = 0;
	int e, again = 0;

	report_begin(x);
	while ((e = ds_diskstats_next(l, &c, &bad)) > 0) {
		/* Every device, shown or not, keeps o in step. */
		if (o != NULL && (again = ds_older_pair(o, &x->pair, &c, i,
		    l->lineno, &p)) < 0)
			tool_report_fail(&x->t, again, "%s", o->what);
		if (again)
			continue;	/* listed again */
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

/* Read proc/diskstats and, next to it, the time base. */
static void
take(struct dx *x, struct sample *s)
{
	int e;

	if ((e = ds_diskstats_read(&x->t.r, &x->buf, &s->ds)) < 0)
		tool_errc(1, e, "%s", tool_path(&x->t, "proc/diskstats"));
	if ((e = ds_uptime_ns(&x->t.r, &x->scratch, &s->uptime_ns)) < 0)
		tool_errc(1, e, "%s", tool_path(&x->t, "proc/uptime"));
	s->time_ns = ds_realtime_ns();
	warn_bad(x, tool_path(&x->t, "proc/diskstats"), &s->ds);
}

/*
 * A since-boot report only.  A file that holds still (a captured tree)
 * is reported line by line as it is read; procfs's is read whole first
 * (see report_lines).
 */
static void
since_boot(struct dx *x)
{
	const char *what = tool_path(&x->t, "proc/diskstats");
	struct ds_diskstats ds = { 0 };
	struct ds_lines l;
	uint64_t up, now;
	int e, whole;

	if ((e = ds_lines_open(&l, &x->t.r, "proc/diskstats", &x->buf)) < 0)
		tool_errc(1, e, "%s", what);
	if ((whole = ds_lines_procfs(&l))) {
		if ((e = ds_diskstats_fill(&l, &ds)) < 0)
			tool_errc(1, e, "%s", what);
		ds_lines_close(&l);
	}
	if ((e = ds_uptime_ns(&x->t.r, &x->scratch, &up)) < 0)
		tool_errc(1, e, "%s", tool_path(&x->t, "proc/uptime"));
	now = ds_realtime_ns();
	if (!whole) {
		report_lines(x, NULL, &l, what, up, now);
		ds_lines_close(&l);
		return;
	}
	report(x, NULL, &ds, up, now);
	warn_bad(x, what, &ds);
	ds_diskstats_free(&ds);
}

/* -s: the header lines, then the counters as read, to stdout or -w. */
static void
snapshot_write(struct dx *x, struct ds_buf *out)
{
	struct ds_writer w;

	/* Raw text through a writer of no columns: it owns -w's file. */
	ds_writer_init(&w, x->t.out, DS_FMT_TSV, NULL, 0, 0, "dxstat");
	tool_report_begin(&x->t, &w);
	/* The header, then the text as read (not copied behind it). */
	ds_w_raw(&w, out->data, out->len);
	ds_w_raw(&w, x->buf.data, x->buf.len);
	if (x->buf.len > 0 && x->buf.data[x->buf.len - 1] != '\n')
		ds_w_raw(&w, "\n", 1);
	tool_report_end(&x->t, &w);
	ds_writer_free(&w);
}

static void
snapshot(struct dx *x)
{
	struct ds_buf out = { 0 };
	struct sample s;
	int e;

	if ((e = ds_read_file(&x->t.r, "proc/diskstats", &x->buf)) < 0)
		tool_errc(1, e, "%s", tool_path(&x->t, "proc/diskstats"));
	if ((e = ds_uptime_ns(&x->t.r, &x->scratch, &s.uptime_ns)) < 0)
		tool_errc(1, e, "%s", tool_path(&x->t, "proc/uptime"));
	/*
	 * The time line says when the counters were read.  A captured tree
	 * was read some other time, maybe on another machine: "now" would
	 * be a lie, and the line is optional.
	 */
	if ((e = ds_snap_format(&out, s.uptime_ns,
	    x->t.r.live ? ds_realtime_ns() : 0, "", 0)) < 0)
		tool_errc(1, e, "snapshot");
	snapshot_write(x, &out);
	ds_buf_free(&out);
}

/* A snapshot file opened (e its -errno), its header read into s. */
static void
open_snap(struct dx *x, int e, const char *what, const struct ds_snap *s)
{
	if (e < 0 && s->why != NULL)
		errx(1, "%s: line %zu: %s", what, s->why_line, s->why);
	if (e < 0)
		tool_errc(1, e, "%s", what);
	x->last_bad = 0;
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
	uint64_t ns;
	int e;

	e = ds_older_open(&o, x->files[0], &wa, &a);
	open_snap(x, e, o.what, &a);
	if (x->nfiles == 1) {
		report_lines(x, NULL, &o.l, o.what, a.uptime_ns, a.time_ns);
		goto done;
	}
	what = ds_snapfile_name(x->files[1]);
	open_snap(x, ds_snapfile_open(x->files[1], &lb, &x->buf, &b), what,
	    &b);
	if ((e = ds_snap_interval(&a, &b, &ns)) < 0)
		errx(1, "%s and %s were taken at the same uptime",
		    x->files[0], x->files[1]);
	if (e == 1) {
		warnx("%s: uptime below %s's (a reboot between them?): "
		    "reporting since boot", x->files[1], x->files[0]);
		/* Read before the report is committed: an error aborts it. */
		if ((e = ds_older_read(&o, &x->pair, NULL, &p)) < 0)
			tool_report_fail(&x->t, e, "%s", o.what);
		report_lines(x, NULL, &lb, what, ns, b.time_ns);
		x->last_bad = 0;
		warn_bad(x, o.what, &o.pend);
	} else {
		report_lines(x, &o, &lb, what, ns, b.time_ns);
	}
	ds_lines_close(&lb);
done:
	ds_older_close(&o);
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
	ds_disksel_init(&x.ds, &x.t.r, &x.sel, x.nfiles == 0 ||
	    x.t.root != NULL || (getenv("DISKSTAT_ROOT") != NULL &&
	    *getenv("DISKSTAT_ROOT")));
	cols = ds_xstat_columns(&ncols);
	ds_writer_init(&x.w, x.t.out, x.t.fmt, cols, ncols, x.t.header,
	    "dxstat");
	tool_writer(&x.t, &x.w);
	if (x.nfiles > 0)
		from_files(&x);
	else
		sample_loop(&x);
	ds_writer_free(&x.w);
	ds_disksel_free(&x.ds);
	ds_buf_free(&x.buf);
	ds_buf_free(&x.scratch);
	ds_devsel_free(&x.sel);
	tool_exit(x.status);
}
