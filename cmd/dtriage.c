/*
 * dtriage: is the disk the problem, and if so, whose?  One window of
 * every figure the other tools read, then the library's judgement
 * (ds_triage) as finding rows.  This file only samples and writes.
 */
#include <fcntl.h>
#include <math.h>
#include <sys/sysmacros.h>

#include "util/util.h"
#include "devid.h"

static const struct ds_col cols[] = {
	{ "severity", DS_T_STR, DS_P_LABEL, "severity", NULL, 0, 0, 0 },
	{ "finding", DS_T_STR, DS_P_LABEL, "finding", NULL, 0, 0, 0 },
	{ "subject", DS_T_STR, DS_P_LABEL, "subject", NULL, 0, 0, 0 },
	{ "value", DS_T_G, DS_P_GAUGE, "finding_value",
	    "The finding's main figure in base units (dtriage(1))", 0, 0, 0 },
	{ "evidence", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "next", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
};

#define TICK_NS 100000000ull	/* in_flight and procs_blocked: 10 a second */
#define WINDOW_MAX 3600u	/* seconds: samples stay bounded */

struct sample {
	struct ds_diskstats ds;
	struct ds_psi io, mem;
	int io_ok, mem_ok;
	struct ds_procstat ps;
	int ps_ok;
	struct ds_procs pr;
	uint64_t up;
};

struct tr {
	struct tool t;
	const char *base_dir;	/* -b DIR; NULL: the default ones */
	uint64_t window_ns;
	int delay;		/* delay accounting: 1, 0, -1 unknown */
	struct ds_blockdevs bd;	/* whole disks */
	struct sample s[2];
	struct ds_diskstats tick;
	uint32_t *fl;		/* in_flight: bd.n rows of nmax */
	size_t nmax, nfl;
	uint32_t *blocked;
	size_t nblocked;
	struct ds_base base;
	int have_base;
	struct ds_tr_dlat dl;	/* dlat's tracing, when it could start */
	struct ds_tr_lat *lat;	/* per bd entry */
	struct ds_buf buf, scratch;
	struct ds_writer w;
};

static const char synopsis[] =
    "dtriage [-Hh] [-b dir] [-O cols] [-o fmt] [-R dir] [-w file] [--utc]\n"
    "               [seconds]";

static const char options[] =
    "  -b dir        quiet-time history: a directory of dxstat -s snapshots\n"
    "  seconds       the window sampled (default 10, 0.1 to 3600)\n";

static const struct tool_info info = { synopsis, options, TOOL_N_NONE };

/* Everything read at the start and at the end of the window. */
static void
take(struct tr *x, struct sample *s)
{
	unsigned int fl = DS_WHO_CMDLINE | (x->delay != 0 ? DS_WHO_DELAY : 0);
	int e;

	/* Without diskstats the rest is still judged; said once. */
	if ((e = ds_diskstats_read(&x->t.r, &x->buf, &s->ds)) < 0 &&
	    s == &x->s[1])
		tool_warnc(e, "%s: devices not judged",
		    tool_path(&x->t, "proc/diskstats"));
	if ((e = ds_uptime_ns(&x->t.r, &x->scratch, &s->up)) < 0)
		tool_errc(1, e, "%s", tool_path(&x->t, "proc/uptime"));
	s->io_ok = ds_psi_read(&x->t.r, "proc/pressure/io", &x->scratch,
	    &s->io) == 0;
	s->mem_ok = ds_psi_read(&x->t.r, "proc/pressure/memory", &x->scratch,
	    &s->mem) == 0;
	s->ps_ok = ds_procstat_read(&x->t.r, &x->scratch, &s->ps) == 0;
	if ((e = ds_procs_read(&x->t.r, fl, NULL, 0, NULL, NULL, &s->pr)) < 0)
		tool_errc(1, e, "%s", tool_path(&x->t, s->pr.failed ?
		    s->pr.failed : "proc"));
}

/* One disk's dlat figures, into x->lat[i]; NULL without. */
static const struct ds_tr_lat *
lat_dev(struct tr *x, size_t i, struct ds_tr_load *load)
{
	return x->dl.on && ds_tr_dlat_dev(&x->dl, x->bd.name[i], &x->lat[i],
	    load) == 0 ? &x->lat[i] : NULL;
}

/* One tick: each disk's in_flight, and the blocked tasks. */
static void
tick(struct tr *x)
{
	struct ds_procstat ps;
	const struct ds_disk *d;
	size_t i;

	if (x->nfl >= x->nmax)
		return;
	if (ds_diskstats_read(&x->t.r, &x->buf, &x->tick) == 0) {
		for (i = 0; i < x->bd.n; i++) {
			d = ds_diskstats_find(&x->tick, x->bd.name[i], i);
			x->fl[i * x->nmax + x->nfl] = d != NULL &&
			    d->v[DS_IN_FLIGHT] <= UINT32_MAX ?
			    (uint32_t)d->v[DS_IN_FLIGHT] : 0;
		}
		x->nfl++;
	}
	if (ds_procstat_read(&x->t.r, &x->scratch, &ps) == 0 &&
	    (ps.have & DS_PS_BLOCKED) && x->nblocked < x->nmax)
		x->blocked[x->nblocked++] = ps.procs_blocked > UINT32_MAX ?
		    UINT32_MAX : (uint32_t)ps.procs_blocked;
}

/*
 * The window.  A captured tree holds still and cannot be sampled: its
 * one read is judged since boot (pressure from avg10).
 */
static void
sample_window(struct tr *x)
{
	uint64_t end, next;
	int e;

	x->delay = (e = ds_delayacct_read(&x->t.r, &x->scratch)) >= 0 ? e : -1;
	if ((e = ds_tr_disks(&x->t.r, &x->buf, &x->bd)) < 0 && e != -ENOENT)
		tool_errc(1, e, "%s", tool_path(&x->t, "sys/block"));
	x->nmax = x->t.r.live ? (size_t)(x->window_ns / TICK_NS) + 2 : 1;
	x->fl = calloc(x->bd.n ? x->bd.n * x->nmax : 1, sizeof(*x->fl));
	x->blocked = calloc(x->nmax, sizeof(*x->blocked));
	x->lat = calloc(x->bd.n ? x->bd.n : 1, sizeof(*x->lat));
	if (x->fl == NULL || x->blocked == NULL || x->lat == NULL)
		tool_errc(1, -ENOMEM, "samples");
	if (x->t.r.live && ds_tr_dlat_open(&x->t.r, &x->dl) < 0)
		tool_errc(1, -ENOMEM, "block-latency tracing");
	if (x->t.r.live)
		take(x, &x->s[0]);
	end = ds_boottime_ns() + (x->t.r.live ? x->window_ns : 0);
	for (next = ds_boottime_ns(); !tool_stop && next < end;
	    next += TICK_NS) {
		tick(x);
		ds_tr_dlat_tend(&x->dl);
		while (!tool_stop && ds_sleep_until(next + TICK_NS < end ?
		    next + TICK_NS : end) == -EINTR)
			;
	}
	/* Interrupted: the window so far is judged, shorter. */
	if (x->t.r.live)
		ds_tr_dlat_close(&x->t.r, &x->dl);
	take(x, &x->s[1]);
	if (x->t.r.live)
		return;
	tick(x);
	/* Since boot: CPU time from zero. */
	x->s[0].ps.have = DS_PS_CPU;
	x->s[0].ps.ncpu_fields = DS_CPU_N;
	x->s[0].ps_ok = 1;
}

static int
keep_disk(const char *name, void *arg)
{
	return ds_blockdevs_has(arg, name);
}

static void
baseline(struct tr *x, struct ds_triage_in *in)
{
	const char *dirs[2] = { DS_BASE_DIR, DS_BASE_DIR_OLD };
	size_t i;
	int e;

	for (i = 0; i < 2; i++) {
		in->base_dir = x->base_dir != NULL ? x->base_dir : dirs[i];
		e = ds_base_read(&x->t.r, in->base_dir, keep_disk, &x->bd,
		    &x->base);
		if (e == 0 && x->base.files > 0) {
			in->have_base = x->have_base = 1;
			return;
		}
		if (x->base_dir != NULL) {
			if (e < 0)
				tool_warnc(e, "%s", x->base_dir);
			return;
		}
	}
	in->base_dir = DS_BASE_DIR;
}

/*
 * The disk's history, found by what the disk is now: its name may have
 * been another device's (dm-3 after a reboot).  An identity that cannot
 * be read is unknown, which the baseline allows for.
 */
static const struct ds_base_dev *
base_dev(struct tr *x, const char *name)
{
	char id[DS_DEVID_MAX];

	if (ds_devid_read(&x->t.r, name, id) < 0)
		id[0] = '\0';
	return ds_base_find(&x->base, name, id);
}

/* One disk's row of input: the window's figures and its queue. */
static void
device(struct tr *x, size_t i, struct ds_tr_dev *d)
{
	const char *name = x->bd.name[i];
	const struct ds_disk *a, *b;
	uint64_t dd[DS_NCOUNTERS];
	struct ds_queue q = { 0 };
	uint32_t have;

	memset(d, 0, sizeof(*d));
	d->name = name;
	d->rotational = d->nomerges = d->virt = -1;
	d->inflight = x->fl + i * x->nmax;
	d->ninflight = x->nfl;
	a = ds_diskstats_find(&x->s[0].ds, name, i);
	if ((b = ds_diskstats_find(&x->s[1].ds, name, i)) != NULL) {
		ds_disk_delta(a, b, dd, &have);
		ds_xstat_compute(dd, have, x->s[1].up - x->s[0].up, &d->x);
	}
	if (ds_queue_read(&x->t.r, name, NULL, &x->scratch, &q) == 0) {
		d->nr_requests = q.err[DS_QA_NR_REQUESTS] ? 0 :
		    q.v[DS_QA_NR_REQUESTS];
		d->nr_hw_queues = q.err[DS_QA_NR_HW_QUEUES] ? 0 :
		    q.v[DS_QA_NR_HW_QUEUES];
		d->rotational = q.err[DS_QA_ROTATIONAL] ? -1 :
		    (int)q.v[DS_QA_ROTATIONAL];
		d->nomerges = q.err[DS_QA_NOMERGES] ? -1 :
		    (int)q.v[DS_QA_NOMERGES];
		/* Static: the queue is freed before the row is judged. */
		if (q.err[DS_QA_SCHEDULER] == 0)
			d->sched = strcmp(q.sched.active, "none") == 0 ? "none" :
			    q.sched.active[0] ? "other" : NULL;
	}
	ds_queue_free(&q);
	(void)ds_tr_queue_depth(&x->t.r, name, &x->scratch, &d->queue_depth);
	d->virt = ds_tr_virtual(&x->t.r, name, &x->scratch);
	d->base = x->have_base ? base_dev(x, name) : NULL;
	d->lat = lat_dev(x, i, &d->load);
}

/* The block filesystems, each once, with their deleted-open space. */
static size_t
filesystems(struct tr *x, struct ds_mounts *ms, struct ds_deleted *del,
    struct ds_tr_fs **out)
{
	struct ds_delsum *sum = NULL;
	struct ds_tr_fs *fs;
	size_t i, j, n = 0, nsum = 0;
	int have_del;

	*out = NULL;
	if (ds_mountinfo_read(&x->t.r, "proc/self/mountinfo", ms) < 0)
		return 0;
	have_del = ds_deleted_scan(&x->t.r, del) == 0 &&
	    ds_deleted_summary(del, &sum, &nsum) == 0;
	if ((fs = calloc(ms->n ? ms->n : 1, sizeof(*fs))) == NULL)
		tool_errc(1, -ENOMEM, "filesystems");
	for (i = 0; i < ms->n; i++) {
		const struct ds_mount *m = &ms->m[i];

		for (j = 0; j < n; j++)
			if (fs[j].st.dev == makedev(m->major, m->minor))
				break;
		if (!ds_tr_fs_disk(m->fstype, m->major) || j < n ||
		    ds_fsstat_read(&x->t.r, m->mnt, &fs[n].st) < 0)
			continue;
		fs[n].mount = m->mnt;
		fs[n].fstype = m->fstype;
		fs[n].have_stat = 1;
		if (have_del && ds_tr_fs_held(&fs[n], del, sum, nsum) < 0)
			tool_errc(1, -ENOMEM, "holders");
		n++;
	}
	free(sum);
	*out = fs;
	return n;
}

static void
write_rows(struct tr *x, const struct ds_findings *f)
{
	struct ds_writer *w = &x->w;
	size_t i;

	tool_report_begin(&x->t, w);
	for (i = 0; i < f->n; i++) {
		ds_w_str(w, ds_tr_sev_name(f->f[i].sev));
		ds_w_str(w, f->f[i].finding);
		ds_w_str(w, f->f[i].subject);
		if (isnan(f->f[i].value))
			ds_w_null(w);
		else
			ds_w_f(w, f->f[i].value);
		ds_w_str(w, f->f[i].evidence);
		ds_w_str(w, f->f[i].next);
		ds_w_row_end(w);
	}
	tool_report_end(&x->t, w);
	ds_writer_free(w);
}

static int
judge(struct tr *x)
{
	struct ds_triage_in in;
	struct ds_findings f = { 0 };
	struct ds_mounts ms = { 0 };
	struct ds_deleted del = { 0 };
	uint64_t ns = x->s[1].up - x->s[0].up;
	long tck = sysconf(_SC_CLK_TCK);
	double secs;
	size_t i;
	int e;

	memset(&in, 0, sizeof(in));
	in.window_s = (double)ns / 1e9;
	in.since_boot = !x->t.r.live;
	baseline(x, &in);
	in.have_dlat = x->dl.on;
	in.dlat_why = x->dl.on ? NULL : x->dl.why;
	if ((in.dev = calloc(x->bd.n ? x->bd.n : 1, sizeof(*in.dev))) == NULL)
		tool_errc(1, -ENOMEM, "devices");
	for (in.ndev = 0; in.ndev < x->bd.n; in.ndev++)
		device(x, in.ndev, &in.dev[in.ndev]);
	if (x->s[1].io_ok)
		(void)ds_tr_psi(x->t.r.live ? &x->s[0].io : NULL, &x->s[1].io,
		    ns, &in.io);
	if (x->s[1].mem_ok)
		(void)ds_tr_psi(x->t.r.live ? &x->s[0].mem : NULL,
		    &x->s[1].mem, ns, &in.mem);
	in.blocked = x->blocked;
	in.nblocked = x->nblocked;
	in.ncpus = x->s[1].ps.ncpus;
	in.have_iowait = x->s[0].ps_ok && x->s[1].ps_ok &&
	    ds_procstat_iowait(&x->s[0].ps, &x->s[1].ps, &in.iowait_pct) == 0;
	in.delayacct = x->delay;
	secs = (double)(x->s[1].pr.uptime_ns - x->s[0].pr.uptime_ns) / 1e9;
	if ((e = ds_tr_procs(&x->s[0].pr, &x->s[1].pr, x->t.r.live ? secs : 0,
	    tck, x->delay != 0, &in.proc, &in.nproc)) < 0)
		tool_errc(1, e, "processes");
	in.procs_unreadable = x->s[1].pr.unreadable;
	in.nfs = filesystems(x, &ms, &del, &in.fs);
	in.fds_unreadable = del.denied;
	if ((e = ds_triage(&in, &f)) < 0)
		tool_errc(1, e, "triage");
	write_rows(x, &f);
	e = ds_triage_exit(&f);
	for (i = 0; i < in.nfs; i++)
		free((void *)in.fs[i].holder);
	free(in.fs);
	free(in.proc);
	free(in.dev);
	free(x->lat);
	ds_tr_dlat_free(&x->dl);
	ds_findings_free(&f);
	ds_deleted_free(&del);
	ds_mounts_free(&ms);
	return e;
}

int
main(int argc, char **argv)
{
	static const struct option lo[] = { TOOL_LONGOPTS };
	struct tr x;
	int ch, st;

	memset(&x, 0, sizeof(x));
	tool_init(&x.t, argv, &info);
	x.window_ns = 10000000000ull;
	while ((ch = getopt_long(argc, argv, TOOL_OPTS "b:", lo, NULL)) != -1) {
		if (tool_option(&x.t, ch, optarg))
			continue;
		if (ch != 'b')
			usage();
		x.base_dir = optarg;
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		tool_usage("extra operand '%s': only the window's seconds",
		    argv[1]);
	if (argc == 1 && (ds_parse_interval(argv[0], &x.window_ns) < 0 ||
	    x.window_ns > WINDOW_MAX * 1000000000ull || x.window_ns < TICK_NS))
		tool_usage("seconds '%s': not a number from 0.1 to %u", argv[0],
		    WINDOW_MAX);
	tool_start(&x.t);
	/* The writer first: -O help and a bad -O answer before the window. */
	if (ds_writer_init(&x.w, stdout, x.t.fmt, cols,
	    sizeof(cols) / sizeof(cols[0]), x.t.header, "dtriage") < 0)
		tool_errc(1, -ENOMEM, "writer");
	tool_writer(&x.t, &x.w);
	sample_window(&x);
	st = judge(&x);
	tool_exit(st);
}
