/*
 * The disks' rows of input: each one's figures over the window, its
 * queue, its quiet-time baseline (found by what the disk is) and its
 * block-latency figures.
 */
#include "util/util.h"
#include "dtriage/dtriage.h"

static int
keep_disk(const char *name, void *arg)
{
	return ds_blockdevs_has(arg, name);
}

/*
 * A capture holds no history: -b names a directory of this machine
 * (the timer's, where the capture may sit too), and without -b there is
 * none, rather than this machine's history taken for another's.
 */
static int
base_here(struct tr *x)
{
	int fd, e;

	if ((fd = open(x->base_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -errno;
	e = ds_base_read_fd(fd, keep_disk, &x->bd, &x->base);
	close(fd);
	return e;
}

void
baseline(struct tr *x, struct ds_triage_in *in)
{
	const char *dirs[2] = { DS_BASE_DIR, DS_BASE_DIR_OLD };
	size_t i;
	int e;

	for (i = 0; i < 2; i++) {
		in->base_dir = x->base_dir != NULL ? x->base_dir : dirs[i];
		if (x->t.r.nsamples > 0 && x->base_dir == NULL) {
			in->base_dir = NULL;
			return;
		}
		e = x->t.r.nsamples > 0 ? base_here(x) : ds_base_read(&x->t.r,
		    in->base_dir, keep_disk, &x->bd, &x->base);
		/* Damaged captures are left out of the history, said once. */
		if (e == 0 && x->base.damaged > 0)
			tool_warnx("%s: %zu damaged capture%s left out of the "
			    "quiet-time history: %s", in->base_dir,
			    x->base.damaged, x->base.damaged > 1 ? "s" : "",
			    x->base.damaged_msg);
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

/* One disk's dlat figures, into x->lat[i]; NULL without. */
static const struct ds_tr_lat *
lat_dev(struct tr *x, size_t i, struct ds_tr_load *load)
{
	return x->win.traced && dlat_dev(&x->win, x->bd.name[i], &x->lat[i],
	    load) == 0 ? &x->lat[i] : NULL;
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
	d->inflight = ds_window_inflight(&x->win, name, &d->ninflight);
	a = ds_diskstats_find(&x->s[0].ds, name, i);
	if ((b = ds_diskstats_find(&x->s[1].ds, name, i)) != NULL) {
		/* A wrap or a reset is in dd already. */
		(void)ds_disk_delta(a, b, dd, &have);
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

/* A row per whole disk. */
void
devices(struct tr *x, struct ds_triage_in *in)
{
	if ((in->dev = calloc(x->bd.n ? x->bd.n : 1, sizeof(*in->dev))) == NULL)
		tool_errc(1, -ENOMEM, "devices");
	for (in->ndev = 0; in->ndev < x->bd.n; in->ndev++)
		device(x, in->ndev, &in->dev[in->ndev]);
}
