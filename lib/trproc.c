/*
 * The judgement's process rules: who loads the disks (traced per disk,
 * or from /proc), who waits for block I/O, who reads from the page
 * cache, and whose I/O could not be read.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "triage.h"

#define LOAD_MIN_BPS	65536.0	/* block I/O worth naming */
#define LOAD_SHARE	0.10	/* of all block I/O */
#define SUFFER_MIN	0.10	/* %iodelay of a sufferer, as io-pressure */
#define CACHE_MIN_BPS	1048576.0	/* syscall reads of a page-cache reader */
#define CACHE_BLOCK	0.10	/* block reads under this share of them */

double
ds_tr_block_bps(const struct ds_who_rate *r)
{
	double v = 0;

	if (r->have & (1u << DS_WR_READ))
		v += r->v[DS_WR_READ];
	if (r->have & (1u << DS_WR_WRITE))
		v += r->v[DS_WR_WRITE];
	if (r->have & (1u << DS_WR_CANCELLED))
		v -= r->v[DS_WR_CANCELLED];
	return v > 0 ? v : 0;
}

static double
delay(const struct ds_who_rate *r)
{
	return (r->have & (1u << DS_WR_DELAY)) ? r->v[DS_WR_DELAY] : -1;
}

static double
cache_bps(const struct ds_who_rate *r)
{
	double rc, rd;

	if (!(r->have & (1u << DS_WR_RCHAR)) || !(r->have & (1u << DS_WR_READ)))
		return 0;
	rc = r->v[DS_WR_RCHAR];
	rd = r->v[DS_WR_READ];
	return rc >= CACHE_MIN_BPS && rd < CACHE_BLOCK * rc ? rc : 0;
}

/*
 * The n largest of key over the processes at or above min: indexes into
 * top, largest first, ties by pid.  Returns how many.
 */
static size_t
top(const struct ds_triage_in *in, double (*key)(const struct ds_who_rate *),
    double min, size_t *idx, size_t n)
{
	size_t i, k, m = 0;

	for (i = 0; i < in->nproc; i++) {
		double v = key(&in->proc[i].rate);

		if (!(v >= min) || v <= 0)
			continue;
		for (k = m; k > 0; k--) {
			double w = key(&in->proc[idx[k - 1]].rate);

			if (w > v || (w == v &&
			    in->proc[idx[k - 1]].pid < in->proc[i].pid))
				break;
			if (k < n)
				idx[k] = idx[k - 1];
		}
		if (k < n) {
			idx[k] = i;
			if (m < n)
				m++;
		}
	}
	return m;
}

static void
subject(char *b, size_t size, const struct ds_tr_proc *p)
{
	snprintf(b, size, "%d %s", p->pid, p->comm ? p->comm : "?");
}

/* How much a device's judgement matters: dev_order's index, lower first. */
static size_t
dev_rank(const struct ds_findings *out, const char *name)
{
	size_t i, k, best = DS_TR_NDEV;

	for (i = 0; i < out->n; i++)
		for (k = 0; k < best; k++)
			if (strcmp(out->f[i].finding,
			    ds_tr_dev_order[k]) == 0 &&
			    strcmp(out->f[i].subject, name) == 0)
				best = k;
	return best;
}

/* Disk i's largest submitter, if it is one worth a row. */
static int
dlat_load(const struct ds_triage_in *in, size_t i)
{
	const struct ds_tr_load *l = &in->dev[i].load;

	return l->pid != 0 && in->window_s > 0 &&
	    (double)l->bytes / in->window_s >= LOAD_MIN_BPS;
}

/*
 * A disk's load row from its largest traced submitter.  A kernel thread
 * there may only carry others' I/O: blk-throttle releases a cgroup's
 * held bios from a worker, the flusher writes what writers dirtied; the
 * row then names those who caused it.
 */
static struct ds_finding *
load_row(const struct ds_triage_in *in, const struct ds_tr_dev *d, double v,
    struct ds_findings *out)
{
	const struct ds_tr_load *l = &d->load;
	const struct ds_tr_proc *kp = ds_tr_proc_of(in, l->pid), *p = NULL;
	const struct ds_tr_iolim *lim = NULL;
	struct ds_finding *f;
	char s[96];
	int kthread = kp != NULL ? kp->kthread : strncmp(l->comm, "kworker",
	    7) == 0;

	if (kthread && (lim = ds_tr_limit_on(in, d->name)) != NULL)
		p = ds_tr_top_of(in, lim->pids, lim->npids);
	else if (kthread)
		p = ds_tr_dirtier(in);
	if (p != NULL)
		snprintf(s, sizeof(s), "%d %s", p->pid, p->comm ? p->comm :
		    "?");
	else
		snprintf(s, sizeof(s), "%d %s", l->pid, l->comm);
	if ((f = ds_tr_add(out, DS_TR_INFO, "load", s, p != NULL ?
	    ds_tr_block_bps(&p->rate) : v, "bytes/s")) == NULL)
		return NULL;
	if (p != NULL && lim != NULL)
		ds_tr_say(f->evidence, sizeof(f->evidence), "on %s: %s/s of "
		    "block I/O from /proc, held at its cgroup %s's limit and "
		    "released by %s, the submitter dlat sees (%.0f%% of the "
		    "disk's %s/s)", d->name, HUMAN(ds_tr_block_bps(&p->rate)),
		    lim->cgroup, l->comm, l->total > 0 ? (double)l->bytes /
		    (double)l->total * 100 : 0,
		    HUMAN((double)l->total / in->window_s));
	else if (p != NULL)
		ds_tr_say(f->evidence, sizeof(f->evidence), "on %s: dirtied "
		    "%s/s that %s, the flusher dlat sees, writes back (%.0f%% "
		    "of the disk's %s/s)", d->name, HUMAN(xw(p)), l->comm,
		    l->total > 0 ? (double)l->bytes /
		    (double)l->total * 100 : 0,
		    HUMAN((double)l->total / in->window_s));
	else
		ds_tr_say(f->evidence, sizeof(f->evidence), "on %s: submitted "
		    "%.0f%% of its block I/O (%s/s of %s/s), traced per device "
		    "and process by dlat", d->name, l->total > 0 ?
		    (double)l->bytes / (double)l->total * 100 : 0, HUMAN(v),
		    HUMAN((double)l->total / in->window_s));
	return f;
}

/*
 * With block-latency tracing: each disk's largest submitter, from the
 * traced requests, one row per process (the subject is its identity,
 * in prom a series): a process that leads several disks is shown on
 * the one judged worst, then the one it sent most, and the others are
 * counted.
 */
static int
load_rows_traced(const struct ds_triage_in *in, struct ds_findings *out)
{
	struct ds_finding *f;
	size_t i, j, *rank, nmore;

	if ((rank = calloc(in->ndev ? in->ndev : 1, sizeof(*rank))) == NULL)
		return -ENOMEM;
	for (i = 0; i < in->ndev; i++)
		rank[i] = dev_rank(out, in->dev[i].name);
	for (i = 0; i < in->ndev; i++) {
		const struct ds_tr_dev *d = &in->dev[i];
		const struct ds_tr_load *l = &d->load;
		double v;

		if (!dlat_load(in, i))
			continue;
		for (j = 0, nmore = 0; j < in->ndev; j++) {
			const struct ds_tr_load *o = &in->dev[j].load;

			if (j == i || !dlat_load(in, j) || o->pid != l->pid)
				continue;
			if (rank[j] < rank[i] || (rank[j] == rank[i] &&
			    (o->bytes > l->bytes || (o->bytes == l->bytes &&
			    j < i))))
				break;
			nmore++;
		}
		if (j < in->ndev)
			continue;	/* shown on another disk */
		v = (double)l->bytes / in->window_s;
		if ((f = load_row(in, d, v, out)) == NULL) {
			free(rank);
			return -ENOMEM;
		}
		if (nmore > 0)
			ds_tr_more(f->evidence, sizeof(f->evidence),
			    "; the largest submitter to %zu more disk%s too",
			    nmore, nmore == 1 ? "" : "s");
		ds_tr_say(f->next, sizeof(f->next), "dlat -P 5 1 %s", d->name);
	}
	free(rank);
	return 0;
}

int
ds_tr_load_rows(const struct ds_triage_in *in, struct ds_findings *out)
{
	double total = 0, min;
	size_t idx[TOP_N], n, i;
	struct ds_finding *f;
	char s[96];

	if (in->have_dlat)
		return load_rows_traced(in, out);
	if (in->dlat_why != NULL) {
		if ((f = ds_tr_add(out, DS_TR_INFO, "no-latency", "-", NAN,
		    "count")) == NULL)
			return -ENOMEM;
		ds_tr_say(f->evidence, sizeof(f->evidence), "block-latency "
		    "tracing could not run (%s): no q2c/d2c, and the load "
		    "below is from /proc, not per device", in->dlat_why);
		ds_tr_say(f->next, sizeof(f->next), "dlat -P 5 1");
	}
	for (i = 0; i < in->nproc; i++)
		total += ds_tr_block_bps(&in->proc[i].rate);
	min = total * LOAD_SHARE > LOAD_MIN_BPS ? total * LOAD_SHARE :
	    LOAD_MIN_BPS;
	n = top(in, ds_tr_block_bps, min, idx, TOP_N);
	for (i = 0; i < n; i++) {
		const struct ds_tr_proc *p = &in->proc[idx[i]];
		const struct ds_who_rate *r = &p->rate;
		double v = ds_tr_block_bps(r);

		subject(s, sizeof(s), p);
		if ((f = ds_tr_add(out, DS_TR_INFO, "load", s, v,
		    "bytes/s")) == NULL)
			return -ENOMEM;
		ds_tr_say(f->evidence, sizeof(f->evidence), "causes %.0f%% of "
		    "the block I/O: read %s/s, write %s/s at the block layer%s "
		    "(from /proc: includes children reaped in the window, no "
		    "device named)", total > 0 ? v / total * 100 : 0,
		    HUMAN(r->v[DS_WR_READ]), HUMAN(r->v[DS_WR_WRITE]),
		    p->kthread ? " (kernel thread)" : "");
		ds_tr_say(f->next, sizeof(f->next), "dwho -s %s -n 10 5 1",
		    r->v[DS_WR_READ] >= r->v[DS_WR_WRITE] ? "kB_rd/s" :
		    "kB_wr/s");
	}
	return 0;
}

int
ds_tr_suffer_rows(const struct ds_triage_in *in, struct ds_findings *out)
{
	size_t idx[TOP_N], n, i;
	struct ds_finding *f;
	char s[96];

	if (in->delayacct == 0) {
		if ((f = ds_tr_add(out, DS_TR_INFO, "delayacct-off", "-", NAN,
		    "ratio")) == NULL)
			return -ENOMEM;
		ds_tr_say(f->evidence, sizeof(f->evidence), "delay accounting "
		    "is off: who waits on I/O cannot be measured; turn it on "
		    "with sysctl -w kernel.task_delayacct=1 (or boot with "
		    "delayacct)");
		ds_tr_say(f->next, sizeof(f->next),
		    "dwho -s %%iodelay -n 10 5 1");
		return 0;
	}
	n = top(in, delay, SUFFER_MIN, idx, TOP_N);
	for (i = 0; i < n; i++) {
		const struct ds_tr_proc *p = &in->proc[idx[i]];

		subject(s, sizeof(s), p);
		if ((f = ds_tr_add(out, DS_TR_INFO, "sufferer", s,
		    p->rate.v[DS_WR_DELAY], "ratio")) == NULL)
			return -ENOMEM;
		ds_tr_say(f->evidence, sizeof(f->evidence), "waited for block "
		    "I/O %.0f%% of the window (summed over its threads); its "
		    "own block I/O %s/s%s", p->rate.v[DS_WR_DELAY] * 100,
		    HUMAN(ds_tr_block_bps(&p->rate)), p->kthread ?
		    " (kernel thread)" : "");
		ds_tr_say(f->next, sizeof(f->next),
		    "dwho -s %%iodelay -n 10 5 1");
	}
	return 0;
}

int
ds_tr_cache_rows(const struct ds_triage_in *in, struct ds_findings *out)
{
	size_t idx[TOP_N], n, i;
	struct ds_finding *f;
	char s[96];

	n = top(in, cache_bps, CACHE_MIN_BPS, idx, TOP_N);
	for (i = 0; i < n; i++) {
		const struct ds_tr_proc *p = &in->proc[idx[i]];
		const struct ds_tr_fds *fd = ds_tr_fds_of(in, p->pid);

		/* rchar counts pipes, sockets and /dev/zero too. */
		if (fd != NULL && fd->cached == 0)
			continue;
		subject(s, sizeof(s), p);
		if ((f = ds_tr_add(out, DS_TR_INFO, "page-cache", s,
		    p->rate.v[DS_WR_RCHAR], "bytes/s")) == NULL)
			return -ENOMEM;
		ds_tr_say(f->evidence, sizeof(f->evidence), "reads %s/s "
		    "through syscalls, %s/s of it from the disk: served by the "
		    "page cache, not disk load", HUMAN(p->rate.v[DS_WR_RCHAR]),
		    HUMAN(p->rate.v[DS_WR_READ]));
		ds_tr_say(f->next, sizeof(f->next),
		    "dwho -s kB_rchar/s -n 10 5 1");
	}
	if (in->procs_unreadable > 0) {
		if ((f = ds_tr_add(out, DS_TR_INFO, "unreadable", "-",
		    (double)in->procs_unreadable, "count")) == NULL)
			return -ENOMEM;
		ds_tr_say(f->evidence, sizeof(f->evidence), "the I/O of %zu %s "
		    "could not be read (permission: without root, other "
		    "users'; as root, another namespace's): %s load is not "
		    "counted", in->procs_unreadable,
		    plural(in->procs_unreadable, "process", "processes"),
		    plural(in->procs_unreadable, "its", "their"));
		ds_tr_say(f->next, sizeof(f->next), "dwho -n 10 5 1");
	}
	if (in->fds_unreadable > 0) {
		if ((f = ds_tr_add(out, DS_TR_INFO, "unreadable", "fd",
		    (double)in->fds_unreadable, "count")) == NULL)
			return -ENOMEM;
		ds_tr_say(f->evidence, sizeof(f->evidence), "the open files of "
		    "%zu %s could not be read: space %s hold%s in deleted "
		    "files is not counted", in->fds_unreadable,
		    plural(in->fds_unreadable, "process", "processes"),
		    plural(in->fds_unreadable, "it", "they"),
		    plural(in->fds_unreadable, "s", ""));
		ds_tr_say(f->next, sizeof(f->next), "ddeleted -s");
	}
	return 0;
}
