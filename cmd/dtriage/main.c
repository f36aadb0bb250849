/*
 * dtriage: is the disk the problem, and if so, whose?  One window of
 * every figure the other tools read, then the library's judgement
 * (ds_triage) as finding rows.  This file only samples and writes.
 */
#include <fcntl.h>
#include <math.h>
#include <sys/sysmacros.h>
#include <time.h>

#include "util/util.h"
#include "dtriage/dtriage.h"

static const struct ds_col cols[] = {
	{ "severity", DS_T_STR, DS_P_LABEL, "severity", NULL, 0, 0, 0 },
	{ "finding", DS_T_STR, DS_P_LABEL, "finding", NULL, 0, 0, 0 },
	{ "subject", DS_T_STR, DS_P_LABEL, "subject", NULL, 0, 0, 0 },
	{ "value", DS_T_G, DS_P_GAUGE, "finding_value",
	    "The finding's main figure in base units (dtriage(1))", 0, 0, 0 },
	{ "evidence", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "next", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
};

/*
 * For a person: the value in its unit ("98.8%", "10.3 ms"), and the
 * evidence cut to keep a row within 160 columns (whole in tsv, json).
 */
static const struct ds_col table_cols[] = {
	{ "severity", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "finding", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "subject", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "value", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, DS_C_RIGHT },
	{ "evidence", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, DS_C_FILL },
	{ "next", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
};

#define TICK_NS 100000000ull	/* in_flight and procs_blocked: 10 a second */
#define WINDOW_MAX 3600u	/* seconds: samples stay bounded */
#define LOOK_TICKS 10		/* a look at the stalled threads: 1 a second */
#define LOOK_TASKS 65536	/* threads kept over all the looks */
#define LOOK_SPACE 20		/* a look's time: at most 1/20 of the window */
#define KMSG_BACK_US 5000000ull	/* the kernel log's rate-limit interval */

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
	struct dlat dl;	/* dlat's tracing, when it could start */
	struct ds_tr_lat *lat;	/* per bd entry */
	/* The looks at stalled threads: tasks, and in flight at each. */
	struct ds_stalls st;
	struct ds_tr_task *task;
	size_t ntask, taskcap;
	uint32_t *look_fl;
	size_t nlooks, lookcap;
	uint64_t look_next;	/* CLOCK_BOOTTIME of the next look allowed */
	uint64_t mono0_us, mono1_us;	/* the window, the kernel log's clock */
	uint64_t *scsi0;	/* per disk: ioerr_cnt, iotmo_cnt at the start */
	/* Limits and pages read at the start and the end of the window. */
	struct ds_iolimits lim[2];
	struct ds_memcgs mem[2];
	struct ds_dirty dirty[2];
	int have_dirty[2];
	struct ds_ioerrs ioerr;
	char kernel[128];
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
	/* Unreadable limits and pages are judged as absent. */
	(void)ds_iolimits_read(&x->t.r, &x->lim[s - x->s]);
	(void)ds_memcgs_read(&x->t.r, &x->mem[s - x->s]);
	x->have_dirty[s - x->s] = ds_dirty_read(&x->t.r, &x->scratch,
	    &x->dirty[s - x->s]) == 0;
	if ((e = ds_procs_read(&x->t.r, fl, NULL, 0, NULL, NULL, &s->pr)) < 0)
		tool_errc(1, e, "%s", tool_path(&x->t, s->pr.failed ?
		    s->pr.failed : "proc"));
}

/* One disk's dlat figures, into x->lat[i]; NULL without. */
static const struct ds_tr_lat *
lat_dev(struct tr *x, size_t i, struct ds_tr_load *load)
{
	return x->dl.on && dlat_dev(&x->dl, x->bd.name[i], &x->lat[i],
	    load) == 0 ? &x->lat[i] : NULL;
}

/* One tick: each disk's in_flight, and the blocked tasks. */
/*
 * A look at the threads in an I/O wait (D, and io_uring's wait in S)
 * when the kernel counts some.  A look reads every thread's stat: on a
 * host of many threads the looks are spaced so as to take at most 5%
 * of the window.
 */
static void
look(struct tr *x, uint32_t inflight)
{
	uint64_t t0 = ds_boottime_ns(), t1;
	size_t i;
	void *p;

	if (t0 < x->look_next)
		return;
	if (ds_stalls_scan(&x->t.r, 1, &x->scratch, &x->st) < 0)
		return;
	t1 = ds_boottime_ns();
	x->look_next = t1 + LOOK_SPACE * (t1 - t0);
	if (x->nlooks == x->lookcap) {
		x->lookcap = x->lookcap ? x->lookcap * 2 : 16;
		if ((p = realloc(x->look_fl, x->lookcap * sizeof(*x->look_fl))) ==
		    NULL)
			tool_errc(1, -ENOMEM, "looks");
		x->look_fl = p;
	}
	x->look_fl[x->nlooks] = inflight;
	for (i = 0; i < x->st.n && x->ntask < LOOK_TASKS; i++) {
		const struct ds_stall *t = &x->st.t[i];
		struct ds_tr_task *k;

		if (x->ntask == x->taskcap) {
			x->taskcap = x->taskcap ? x->taskcap * 2 : 64;
			if ((p = realloc(x->task, x->taskcap *
			    sizeof(*x->task))) == NULL)
				tool_errc(1, -ENOMEM, "looks");
			x->task = p;
		}
		k = &x->task[x->ntask++];
		memset(k, 0, sizeof(*k));
		k->pid = t->pid;
		k->tid = t->tid;
		k->wait = t->wait;
		k->kthread = t->kthread;
		k->look = (unsigned int)x->nlooks;
		memcpy(k->comm, t->comm, sizeof(k->comm));
	}
	x->nlooks++;
}

static void
tick(struct tr *x, int looking)
{
	struct ds_procstat ps;
	const struct ds_disk *d;
	uint32_t sum = 0;
	size_t i;

	if (x->nfl >= x->nmax)
		return;
	if (ds_diskstats_read(&x->t.r, &x->buf, &x->tick) == 0) {
		for (i = 0; i < x->bd.n; i++) {
			d = ds_diskstats_find(&x->tick, x->bd.name[i], i);
			x->fl[i * x->nmax + x->nfl] = d != NULL &&
			    d->v[DS_IN_FLIGHT] <= UINT32_MAX ?
			    (uint32_t)d->v[DS_IN_FLIGHT] : 0;
			sum += x->fl[i * x->nmax + x->nfl];
		}
		x->nfl++;
	}
	if (ds_procstat_read(&x->t.r, &x->scratch, &ps) == 0 &&
	    (ps.have & DS_PS_BLOCKED) && x->nblocked < x->nmax) {
		x->blocked[x->nblocked++] = ps.procs_blocked > UINT32_MAX ?
		    UINT32_MAX : (uint32_t)ps.procs_blocked;
		if (looking && ps.procs_blocked > 0)
			look(x, sum);
	}
}

static void scsi_counters(struct tr *x, struct ds_tr_err *err);

static uint64_t
mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/*
 * The window.  A captured tree holds still and cannot be sampled: its
 * one read is judged since boot (pressure from avg10).
 */
static void
sample_window(struct tr *x)
{
	uint64_t end, next, n;
	int e;

	x->delay = (e = ds_delayacct_read(&x->t.r, &x->scratch)) >= 0 ? e : -1;
	if ((e = ds_whole_disks(&x->t.r, &x->buf, &x->bd)) < 0 && e != -ENOENT)
		tool_errc(1, e, "%s", tool_path(&x->t, "sys/block"));
	x->nmax = x->t.r.live ? (size_t)(x->window_ns / TICK_NS) + 2 : 1;
	x->fl = calloc(x->bd.n ? x->bd.n * x->nmax : 1, sizeof(*x->fl));
	x->blocked = calloc(x->nmax, sizeof(*x->blocked));
	x->lat = calloc(x->bd.n ? x->bd.n : 1, sizeof(*x->lat));
	if (x->fl == NULL || x->blocked == NULL || x->lat == NULL)
		tool_errc(1, -ENOMEM, "samples");
	if (x->t.r.live && dlat_open(&x->t.r, &x->dl) < 0)
		tool_errc(1, -ENOMEM, "block-latency tracing");
	if (x->t.r.live) {
		take(x, &x->s[0]);
		scsi_counters(x, NULL);
	}
	x->mono0_us = mono_us();
	end = ds_boottime_ns() + (x->t.r.live ? x->window_ns : 0);
	for (next = ds_boottime_ns(), n = 0; !tool_stop && next < end;
	    next += TICK_NS, n++) {
		tick(x, n % LOOK_TICKS == LOOK_TICKS / 2 || next + TICK_NS >= end);
		dlat_tend(&x->dl);
		while (!tool_stop && ds_sleep_until(next + TICK_NS < end ?
		    next + TICK_NS : end) == -EINTR)
			;
	}
	/* Interrupted: the window so far is judged, shorter. */
	x->mono1_us = mono_us();
	if (x->t.r.live)
		dlat_close(&x->t.r, &x->dl);
	take(x, &x->s[1]);
	if (x->t.r.live)
		return;
	tick(x, 1);
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
	(void)ds_disk_queue_depth(&x->t.r, name, &x->scratch, &d->queue_depth);
	d->virt = ds_disk_virtual(&x->t.r, name, &x->scratch);
	d->base = x->have_base ? base_dev(x, name) : NULL;
	d->lat = lat_dev(x, i, &d->load);
}

/*
 * SCSI's error counters of every disk: at the window's start into
 * x->scsi0, and at its end as increments into err (UINT64_MAX: none).
 */
static void
scsi_counters(struct tr *x, struct ds_tr_err *err)
{
	uint64_t ioerr, iotmo;
	size_t i;

	if (err == NULL && (x->scsi0 = calloc(x->bd.n ? 2 * x->bd.n : 1,
	    sizeof(*x->scsi0))) == NULL)
		tool_errc(1, -ENOMEM, "counters");
	for (i = 0; i < x->bd.n; i++) {
		if (ds_scsi_errcnt(&x->t.r, x->bd.name[i], &x->scratch, &ioerr,
		    &iotmo) < 0)
			ioerr = iotmo = UINT64_MAX;
		if (err == NULL) {
			x->scsi0[2 * i] = ioerr;
			x->scsi0[2 * i + 1] = iotmo;
		} else if (x->scsi0 != NULL && ioerr != UINT64_MAX &&
		    x->scsi0[2 * i] != UINT64_MAX) {
			err[i].scsi_ioerr = ioerr >= x->scsi0[2 * i] ?
			    ioerr - x->scsi0[2 * i] : 0;
			err[i].scsi_iotmo = iotmo >= x->scsi0[2 * i + 1] ?
			    iotmo - x->scsi0[2 * i + 1] : 0;
		}
	}
}

/* The whole disk a name in the kernel log is, or of which it is a part. */
static ssize_t
disk_of(const struct ds_blockdevs *bd, const char *dev)
{
	const char *rest;
	size_t i, l;

	for (i = 0; i < bd->n; i++) {
		l = strlen(bd->name[i]);
		if (strncmp(dev, bd->name[i], l) != 0)
			continue;
		rest = dev + l;
		if (*rest == '\0')
			return (ssize_t)i;
		/* sda1 of sda, nvme0n1p1 of nvme0n1. */
		if (*rest == 'p')
			rest++;
		if (*rest != '\0' && strspn(rest, "0123456789") == strlen(rest))
			return (ssize_t)i;
	}
	return -1;
}

/*
 * The kernel log's block I/O errors of the window, per disk (a captured
 * tree: all its log holds), with SCSI's counters.  Live and refused,
 * in->err_why says so.
 */
static struct ds_tr_err *
errors(struct tr *x, struct ds_triage_in *in)
{
	struct ds_tr_err *err;
	ssize_t k;
	size_t i;
	int e;

	if ((err = calloc(x->bd.n ? x->bd.n : 1, sizeof(*err))) == NULL)
		tool_errc(1, -ENOMEM, "errors");
	for (i = 0; i < x->bd.n; i++)
		err[i].disk = x->bd.name[i];
	/*
	 * The kernel logs at most 10 errors of a kind per 5 s: a burst just
	 * before the window can hold back every message of the window, so
	 * the 5 s before it count too.
	 */
	e = ds_kmsg_ioerrs(&x->t.r, x->t.r.live && x->mono0_us > KMSG_BACK_US ?
	    x->mono0_us - KMSG_BACK_US : 0, x->t.r.live ? x->mono1_us :
	    UINT64_MAX, &x->ioerr);
	if (e == -EACCES || e == -EPERM)
		in->err_why = x->t.r.live ? "reading /dev/kmsg needs "
		    "CAP_SYSLOG, or kernel.dmesg_restrict 0" : NULL;
	else if (e < 0 && x->t.r.live)
		in->err_why = "/dev/kmsg could not be read";
	for (i = 0; e == 0 && i < x->ioerr.n; i++) {
		const struct ds_ioerr *o = &x->ioerr.e[i];

		if ((k = disk_of(&x->bd, o->dev)) < 0)
			continue;
		if (err[k].count == 0) {
			err[k].sector = o->sector;
			err[k].have_sector = o->have_sector;
			err[k].op = o->op;
			err[k].kind = o->kind;
		}
		err[k].count += o->count;
		err[k].suppressed += o->suppressed;
	}
	if (x->t.r.live)
		scsi_counters(x, err);
	in->err = err;
	in->nerr = x->bd.n;
	return err;
}

/* A filesystem whose I/O is a network's or a FUSE daemon's. */
static int
netfs_type(const char *fstype)
{
	static const char *const t[] = { "nfs", "nfs4", "cifs", "smb3",
	    "ceph", "9p", "afs", "lustre", "glusterfs", "fuse" };
	size_t i;

	if (strncmp(fstype, "fuse.", 5) == 0)
		return 1;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (strcmp(fstype, t[i]) == 0)
			return 1;
	return 0;
}

/* What pid holds open, with the network or FUSE mount of its files. */
static int
fds_of(struct tr *x, const struct ds_mounts *ms, int pid, struct ds_tr_fds *f)
{
	struct ds_procfds p;
	size_t i, k, net = 0;

	if (ds_procfds_read(&x->t.r, pid, &p) < 0 || p.denied)
		return -1;
	memset(f, 0, sizeof(*f));
	f->pid = pid;
	f->uring = p.uring;
	f->cached = p.cached;
	f->other = p.other;
	for (i = 0; i < p.ndev; i++)
		for (k = 0; k < ms->n; k++) {
			const struct ds_mount *m = &ms->m[k];

			if (m->major != p.dev[i].major ||
			    m->minor != p.dev[i].minor || !netfs_type(m->fstype))
				continue;
			if (f->netfs == NULL) {
				f->netfs = m->mnt;
				f->netfs_type = m->fstype;
			}
			net++;
			break;
		}
	f->netfs_only = p.ndev > 0 && net == p.ndev && !p.more_devs;
	return 0;
}

static int
has_pid(const struct ds_tr_fds *f, size_t n, int pid)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (f[i].pid == pid)
			return 1;
	return 0;
}

/*
 * The descriptors of the processes the judgement may name: the user
 * threads seen stalled, and the readers that may be page-cache ones.
 */
#define FDS_MAX 256
static struct ds_tr_fds *
fds(struct tr *x, struct ds_triage_in *in, const struct ds_mounts *ms)
{
	struct ds_tr_fds *f;
	size_t i, n = 0;

	if ((f = calloc(FDS_MAX, sizeof(*f))) == NULL)
		tool_errc(1, -ENOMEM, "descriptors");
	for (i = 0; i < x->ntask && n < FDS_MAX; i++)
		if (!x->task[i].kthread && !has_pid(f, n, x->task[i].pid) &&
		    fds_of(x, ms, x->task[i].pid, &f[n]) == 0)
			n++;
	for (i = 0; i < in->nproc && n < FDS_MAX; i++) {
		const struct ds_who_rate *r = &in->proc[i].rate;

		if ((r->have & (1u << DS_WR_RCHAR)) &&
		    r->v[DS_WR_RCHAR] >= 1048576 && !in->proc[i].kthread &&
		    !has_pid(f, n, in->proc[i].pid) &&
		    fds_of(x, ms, in->proc[i].pid, &f[n]) == 0)
			n++;
	}
	in->fds = f;
	in->nfds = n;
	return f;
}

/* The disk of a device number, or NULL. */
static const char *
disk_name(struct tr *x, unsigned int major, unsigned int minor)
{
	const struct ds_disk *d;
	size_t i;

	for (i = 0; i < x->bd.n; i++)
		if ((d = ds_diskstats_find(&x->s[1].ds, x->bd.name[i], i)) !=
		    NULL && d->major == major && d->minor == minor)
			return x->bd.name[i];
	return NULL;
}

/* The cgroups' I/O limits with their rates over the window. */
static struct ds_tr_iolim *
iolimits(struct tr *x, struct ds_triage_in *in, double secs)
{
	struct ds_tr_iolim *t;
	size_t i, n = 0;
	int k;

	if ((t = calloc(x->lim[1].n ? x->lim[1].n : 1, sizeof(*t))) == NULL)
		tool_errc(1, -ENOMEM, "limits");
	for (i = 0; i < x->lim[1].n; i++) {
		const struct ds_iolimit *b = &x->lim[1].l[i], *a;
		struct ds_tr_iolim *o = &t[n];
		double rate[DS_LIM_N];
		int *pids;

		o->cgroup = b->cgroup;
		o->v1 = b->v1;
		o->disk = disk_name(x, b->major, b->minor);
		memcpy(o->lim, b->lim, sizeof(o->lim));
		o->lat_target_us = b->lat_target_us;
		o->have_lat = b->have_lat;
		o->lat_avg_us = (double)b->lat_avg_us;
		o->have_latstat = (b->have_latstat & DS_LATSTAT_AVG) != 0;
		o->lat_depth = (b->have_latstat & DS_LATSTAT_DEPTH) &&
		    b->lat_depth != UINT64_MAX ? b->lat_depth : 0;
		o->cost_wait = -1;
		a = x->t.r.live ? ds_iolimits_find(&x->lim[0], b) : NULL;
		/* cost.wait is microseconds waited, summed over the window. */
		if (a != NULL && secs > 0 && (a->have_cost & b->have_cost &
		    DS_COST_WAIT) && b->cost_wait >= a->cost_wait)
			o->cost_wait = (double)(b->cost_wait - a->cost_wait) /
			    (secs * 1e6);
		if (a != NULL && secs > 0 &&
		    ds_iolimit_rate(a, b, secs, rate) == 0) {
			for (k = 0; k < DS_LIM_N; k++)
				o->rate[k] = rate[k] < 0 ? 0 : rate[k];
			o->have_rate = 1;
		}
		if (ds_cgroup_pids(&x->t.r, "blkio", b->v1, b->cgroup, &pids,
		    &o->npids) == 0)
			o->pids = pids;
		n++;
	}
	in->iolim = t;
	in->niolim = n;
	return t;
}

/* The memory cgroups with their refaults over the window. */
static struct ds_tr_memcg *
memcgs(struct tr *x, struct ds_triage_in *in, double secs)
{
	uint64_t page = x->have_dirty[1] && x->dirty[1].page_size > 0 ?
	    x->dirty[1].page_size : 4096;
	struct ds_tr_memcg *t;
	size_t i;
	int *pids;

	if ((t = calloc(x->mem[1].n ? x->mem[1].n : 1, sizeof(*t))) == NULL)
		tool_errc(1, -ENOMEM, "memory cgroups");
	for (i = 0; i < x->mem[1].n; i++) {
		const struct ds_memcg *b = &x->mem[1].m[i], *a;
		struct ds_tr_memcg *o = &t[i];

		o->cgroup = b->cgroup;
		o->v1 = b->v1;
		o->limit = b->limit != UINT64_MAX ? b->limit : b->high;
		o->usage = b->usage;
		a = x->t.r.live ? ds_memcgs_find(&x->mem[0], b->cgroup,
		    b->v1) : NULL;
		if (a != NULL && a->ino == b->ino && secs > 0 &&
		    a->have_refault && b->have_refault &&
		    b->refault_file + b->refault_anon >=
		    a->refault_file + a->refault_anon) {
			o->refault_bps = (double)(b->refault_file +
			    b->refault_anon - a->refault_file -
			    a->refault_anon) * (double)page / secs;
			o->have_refault = 1;
		}
		if (a != NULL && secs > 0 && (a->have_psi & b->have_psi &
		    (1u << DS_PSI_SOME)) && b->psi_some_us >= a->psi_some_us) {
			o->psi_some = (double)(b->psi_some_us - a->psi_some_us) /
			    (secs * 1e4);
			o->have_psi = 1;
		}
		if (a != NULL && a->have_failcnt && b->have_failcnt &&
		    b->failcnt >= a->failcnt)
			o->failcnt = b->failcnt - a->failcnt;
		if (ds_cgroup_pids(&x->t.r, "memory", b->v1, b->cgroup, &pids,
		    &o->npids) == 0)
			o->pids = pids;
	}
	in->memcg = t;
	in->nmemcg = x->mem[1].n;
	return t;
}

/* Dirty pages at the window's end against their limit. */
static void
dirty(struct tr *x, struct ds_triage_in *in, double secs)
{
	const struct ds_dirty *a = &x->dirty[0], *b = &x->dirty[1];
	double page = b->page_size > 0 ? (double)b->page_size : 4096;
	struct ds_tr_dirty *o = &in->dirty;

	if (!x->have_dirty[1])
		return;
	o->have = 1;
	o->dirty = (double)b->nr_dirty * page;
	o->writeback = (double)b->nr_writeback * page;
	o->thresh = (double)b->thresh * page;
	o->bg_thresh = (double)b->bg_thresh * page;
	o->bytes = b->bytes;
	o->ratio = b->ratio;
	o->bg_bytes = b->bg_bytes;
	o->bg_ratio = b->bg_ratio;
	if (x->t.r.live && x->have_dirty[0] && secs > 0) {
		if (b->nr_dirtied >= a->nr_dirtied)
			o->dirtied_bps = (double)(b->nr_dirtied -
			    a->nr_dirtied) * page / secs;
		if (b->nr_written >= a->nr_written)
			o->written_bps = (double)(b->nr_written -
			    a->nr_written) * page / secs;
	}
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
		if (!ds_fs_on_disk(m->fstype, m->major) || j < n ||
		    ds_fsstat_read(&x->t.r, m->mnt, &fs[n].st) < 0)
			continue;
		fs[n].mount = m->mnt;
		fs[n].fstype = m->fstype;
		fs[n].have_stat = 1;
		if (have_del && fs_held(&fs[n], del, sum, nsum) < 0)
			tool_errc(1, -ENOMEM, "holders");
		n++;
	}
	free(sum);
	*out = fs;
	return n;
}

/* Bytes for a person, 1024-based: "4.0 MiB", "118 KiB". */
static void
human_bytes(char *b, size_t size, double v, const char *per)
{
	static const char *const u[] = { "B", "KiB", "MiB", "GiB", "TiB",
	    "PiB" };
	int i = 0;

	while (v >= 1024 && i < 5) {
		v /= 1024;
		i++;
	}
	snprintf(b, size, i == 0 || v >= 100 ? "%.0f %s%s" : "%.1f %s%s", v,
	    u[i], per);
}

/* A finding's value in its unit, as the evidence speaks it. */
static void
value_text(char *b, size_t size, const struct ds_finding *f)
{
	double v = f->value;

	if (strcmp(f->unit, "ratio") == 0)
		snprintf(b, size, "%.1f%%", v * 100);
	else if (strcmp(f->unit, "s") == 0)
		snprintf(b, size, v >= 1 ? "%.2f s" : v >= 1e-3 ?
		    "%.1f ms" : "%.0f us", v >= 1 ? v : v >= 1e-3 ?
		    v * 1e3 : v * 1e6);
	else if (strcmp(f->unit, "bytes") == 0)
		human_bytes(b, size, v, "");
	else if (strcmp(f->unit, "bytes/s") == 0)
		human_bytes(b, size, v, "/s");
	else
		snprintf(b, size, v > -1e15 && v < 1e15 &&
		    v == (double)(long long)v ? "%.0f" : "%.1f", v);
}

static void
write_rows(struct tr *x, const struct ds_findings *f)
{
	struct ds_writer *w = &x->w;
	char val[32];
	size_t i;

	tool_report_begin(&x->t, w);
	for (i = 0; i < f->n; i++) {
		ds_w_str(w, ds_tr_sev_name(f->f[i].sev));
		ds_w_str(w, f->f[i].finding);
		ds_w_str(w, f->f[i].subject);
		if (isnan(f->f[i].value))
			ds_w_null(w);
		else if (x->t.fmt == DS_FMT_TABLE) {
			value_text(val, sizeof(val), &f->f[i]);
			ds_w_str(w, val);
		} else
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
	struct ds_tr_err *err;
	struct ds_tr_fds *fd;
	struct ds_tr_iolim *lim;
	struct ds_tr_memcg *mem;
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
		(void)ds_psi_shares(x->t.r.live ? &x->s[0].io : NULL, &x->s[1].io,
		    ns, &in.io);
	if (x->s[1].mem_ok)
		(void)ds_psi_shares(x->t.r.live ? &x->s[0].mem : NULL,
		    &x->s[1].mem, ns, &in.mem);
	in.blocked = x->blocked;
	in.nblocked = x->nblocked;
	in.ncpus = x->s[1].ps.ncpus;
	in.have_iowait = x->s[0].ps_ok && x->s[1].ps_ok &&
	    ds_procstat_iowait(&x->s[0].ps, &x->s[1].ps, &in.iowait_pct) == 0;
	in.delayacct = x->delay;
	secs = (double)(x->s[1].pr.uptime_ns - x->s[0].pr.uptime_ns) / 1e9;
	if ((e = proc_rows(&x->s[0].pr, &x->s[1].pr, x->t.r.live ? secs : 0,
	    tck, x->delay != 0, &in.proc, &in.nproc)) < 0)
		tool_errc(1, e, "processes");
	in.procs_unreadable = x->s[1].pr.unreadable;
	in.nfs = filesystems(x, &ms, &del, &in.fs);
	in.fds_unreadable = del.denied;
	in.task = x->task;
	in.ntask = x->ntask;
	in.nlooks = x->nlooks;
	in.look_inflight = x->look_fl;
	if (ds_kernel_release(&x->t.r, &x->scratch, x->kernel,
	    sizeof(x->kernel)) == 0)
		in.kernel = x->kernel;
	err = errors(x, &in);
	fd = fds(x, &in, &ms);
	lim = iolimits(x, &in, x->t.r.live ? in.window_s : 0);
	mem = memcgs(x, &in, x->t.r.live ? in.window_s : 0);
	dirty(x, &in, x->t.r.live ? in.window_s : 0);
	if ((e = ds_triage(&in, &f)) < 0)
		tool_errc(1, e, "triage");
	write_rows(x, &f);
	e = ds_triage_exit(&f);
	for (i = 0; i < in.niolim; i++)
		free((void *)lim[i].pids);
	for (i = 0; i < in.nmemcg; i++)
		free((void *)mem[i].pids);
	free(lim);
	free(mem);
	free(fd);
	free(err);
	for (i = 0; i < 2; i++) {
		ds_iolimits_free(&x->lim[i]);
		ds_memcgs_free(&x->mem[i]);
	}
	ds_ioerrs_free(&x->ioerr);
	ds_stalls_free(&x->st);
	free(x->task);
	free(x->look_fl);
	free(x->scsi0);
	for (i = 0; i < in.nfs; i++)
		free((void *)in.fs[i].holder);
	free(in.fs);
	free(in.proc);
	free(in.dev);
	free(x->lat);
	dlat_free(&x->dl);
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
	if (ds_writer_init(&x.w, stdout, x.t.fmt, x.t.fmt == DS_FMT_TABLE ?
	    table_cols : cols, sizeof(cols) / sizeof(cols[0]), x.t.header,
	    "dtriage") < 0)
		tool_errc(1, -ENOMEM, "writer");
	tool_writer(&x.t, &x.w);
	sample_window(&x);
	st = judge(&x);
	tool_exit(st);
}
