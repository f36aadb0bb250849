/*
 * The judgement's inputs besides the disks: the processes' rates, the
 * kernel log's errors and SCSI's counters, the descriptors of the
 * processes it may name, the cgroups' I/O and memory limits over the
 * window, and dirty pages against their limit.
 */
#include "util/util.h"
#include "dtriage/dtriage.h"

/*
 * Rows of the processes of scan b that did something since scan a over
 * secs (ds_who_rate; a process not in a started in the window; secs 0:
 * each process over its own life, for a single scan); capture: b is
 * of a capture, which holds no cmdline.  *out is
 * allocated (free it); its comm pointers point into b.
 */
int
proc_rows(const struct ds_procs *a, const struct ds_procs *b, double secs,
    long clk_tck, int delay, int capture, struct ds_tr_proc **out, size_t *n)
{
	struct ds_tr_proc *p;
	size_t i;

	*out = NULL;
	*n = 0;
	if (b->n == 0)
		return 0;
	if ((p = calloc(b->n, sizeof(*p))) == NULL)
		return -ENOMEM;
	for (i = 0; i < b->n; i++) {
		const struct ds_proc *c = &b->p[i];
		struct ds_tr_proc *t = &p[*n];

		/*
		 * Not in the first scan: born in the window, all of it inside.
		 * secs 0: one scan (a captured tree), each over its own life.
		 */
		ds_who_rate(ds_procs_find(a, c->pid), c, secs > 0 ? secs :
		    ds_proc_age(c, b->uptime_ns, clk_tck), clk_tck, delay,
		    &t->rate);
		if (!t->rate.active)
			continue;
		t->pid = c->pid;
		t->comm = c->comm;
		/*
		 * PF_KTHREAD; in a tree copied without it, an empty cmdline
		 * (read with DS_WHO_CMDLINE).  A capture holds no cmdline.
		 */
		t->kthread = c->kthread || (c->cmdline == NULL && !capture);
		(*n)++;
	}
	*out = p;
	return 0;
}

/*
 * SCSI's error counters of every disk: at the window's start into
 * x->scsi0, and at its end as increments into err (UINT64_MAX: none).
 */
void
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
 * The kernel log's block I/O errors of the window (ds_window_end), per
 * disk (a captured tree: all its log holds), with SCSI's counters.
 * Live and refused, in->err_why says so; a capture says what its
 * capturer was told.
 */
void
errors(struct tr *x, struct ds_triage_in *in)
{
	const struct ds_window *w = &x->win;
	struct ds_tr_err *err;
	ssize_t k;
	size_t i;
	int e = w->kmsg_err;

	if ((err = calloc(x->bd.n ? x->bd.n : 1, sizeof(*err))) == NULL)
		tool_errc(1, -ENOMEM, "errors");
	for (i = 0; i < x->bd.n; i++)
		err[i].disk = x->bd.name[i];
	if (!w->have_kmsg)
		in->err_why = x->windowed ? "the capture holds no kernel log" :
		    NULL;
	else if (e == -EACCES || e == -EPERM)
		in->err_why = x->windowed ? "reading /dev/kmsg needs "
		    "CAP_SYSLOG, or kernel.dmesg_restrict 0" : NULL;
	else if (e < 0 && x->windowed)
		in->err_why = "/dev/kmsg could not be read";
	for (i = 0; w->have_kmsg && e == 0 && i < w->ioerr.n; i++) {
		const struct ds_ioerr *o = &w->ioerr.e[i];

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
	if (x->windowed)
		scsi_counters(x, err);
	in->err = err;
	in->nerr = x->bd.n;
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
	for (i = 0; i < nitems(t); i++)
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
void
fds(struct tr *x, struct ds_triage_in *in, const struct ds_mounts *ms)
{
	struct ds_tr_fds *f;
	size_t i, n = 0;

	if ((f = calloc(FDS_MAX, sizeof(*f))) == NULL)
		tool_errc(1, -ENOMEM, "descriptors");
	for (i = 0; i < x->win.ntask && n < FDS_MAX; i++)
		if (!x->win.task[i].kthread &&
		    !has_pid(f, n, x->win.task[i].pid) &&
		    fds_of(x, ms, x->win.task[i].pid, &f[n]) == 0)
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
void
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
		a = x->windowed ? ds_iolimits_find(&x->lim[0], b) : NULL;
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
}

/* The memory cgroups with their refaults over the window. */
void
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
		a = x->windowed ? ds_memcgs_find(&x->mem[0], b->cgroup,
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
}

/* Dirty pages at the window's end against their limit. */
void
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
	if (x->windowed && x->have_dirty[0] && secs > 0) {
		if (b->nr_dirtied >= a->nr_dirtied)
			o->dirtied_bps = (double)(b->nr_dirtied -
			    a->nr_dirtied) * page / secs;
		if (b->nr_written >= a->nr_written)
			o->written_bps = (double)(b->nr_written -
			    a->nr_written) * page / secs;
	}
}
