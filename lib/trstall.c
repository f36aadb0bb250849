/*
 * The judgement's rules for stalls that are not a disk's: io_uring's
 * idle waits, network and FUSE mounts, a cgroup held at its own I/O
 * limit, writers held by the dirty-page limit, a memory cgroup that
 * thrashes.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "triage.h"

#define URING_IDLE_BPS	4096.0	/* a ring's process moving less: not disk I/O */
#define URING_OTHER	0.10	/* other waits at most this share: io_uring's */
#define LIMIT_FRAC	0.90	/* a rate at 90% of a limit is held by it */
#define COST_WAIT	0.10	/* iocost: waited a tenth of the window */
#define DIRTY_LOOKS	0.25	/* looks with a writer in balance_dirty_pages */
#define THRASH_MIN_BPS	1048576.0	/* refaults a second worth a row */
#define THRASH_USE	0.90	/* usage against the memory limit */
#define THRASH_SHARE	0.10	/* of the disks' reads: warn */

static const char *
comm_of(const struct ds_triage_in *in, const struct ds_tr_task *t)
{
	const struct ds_tr_proc *p = ds_tr_proc_of(in, t->pid);

	return p != NULL && p->comm != NULL ? p->comm : t->comm;
}

/*
 * An io_uring wait is on a disk only when its process did block I/O in
 * the window and some disk had a request in flight at that look: a ring
 * waiting on a pipe or a socket counts as iowait too (Linux 6.5+).
 */
static int
uring_idle(const struct ds_triage_in *in, const struct ds_tr_task *t)
{
	const struct ds_tr_proc *p = ds_tr_proc_of(in, t->pid);

	if (in->look_inflight != NULL && t->look < in->nlooks &&
	    in->look_inflight[t->look] == 0)
		return 1;
	/* Not among the active processes: it moved nothing. */
	return p == NULL || ds_tr_block_bps(&p->rate) < URING_IDLE_BPS;
}

/* A user thread in a page-cache wait whose files are all on a netfs. */
static const struct ds_tr_fds *
on_netfs(const struct ds_triage_in *in, const struct ds_tr_task *t)
{
	const struct ds_tr_fds *f;

	if (t->kthread)
		return NULL;
	f = ds_tr_fds_of(in, t->pid);
	if (f == NULL || f->netfs == NULL)
		return NULL;
	if (t->wait == DS_WAIT_FUSE || t->wait == DS_WAIT_NFS ||
	    t->wait == DS_WAIT_CIFS || (t->wait == DS_WAIT_BLOCK &&
	    f->netfs_only))
		return f;
	return NULL;
}

/* Counts per look, so that "looks" counts each look once. */
static void
count_look(size_t *looks, unsigned int *last, unsigned int look)
{
	if (*last != look + 1) {
		(*looks)++;
		*last = look + 1;
	}
}

void
ds_tr_stalls_sum(const struct ds_triage_in *in, struct stalls *s)
{
	unsigned int l_any = 0, l_tag = 0, l_uring = 0, l_dirty = 0,
	    l_netfs = 0;
	const struct ds_tr_fds *nf;
	size_t i;

	memset(s, 0, sizeof(*s));
	/* The tasks come in look order. */
	for (i = 0; i < in->ntask; i++) {
		const struct ds_tr_task *t = &in->task[i];

		if (t->wait == DS_WAIT_NONE || t->wait == DS_WAIT_OTHER)
			continue;
		count_look(&s->looks, &l_any, t->look);
		if ((nf = on_netfs(in, t)) != NULL) {
			s->netfs++;
			count_look(&s->netfs_looks, &l_netfs, t->look);
			if (s->netfs_top == NULL) {
				s->netfs_top = t;
				s->netfs_fds = nf;
			}
		} else if (t->wait == DS_WAIT_URING && uring_idle(in, t)) {
			s->uring++;
			count_look(&s->uring_looks, &l_uring, t->look);
			if (s->uring_top == NULL)
				s->uring_top = t;
		} else if (t->wait == DS_WAIT_DIRTY) {
			s->dirty++;
			count_look(&s->dirty_looks, &l_dirty, t->look);
			if (s->dirty_top == NULL)
				s->dirty_top = t;
		} else if (t->wait == DS_WAIT_FUSE || t->wait == DS_WAIT_NFS ||
		    t->wait == DS_WAIT_CIFS) {
			/* A kernel thread serving a loop device's file. */
			s->disk++;
		} else {
			s->disk++;
			if (t->wait == DS_WAIT_TAG) {
				s->tag++;
				if (strncmp(t->comm, "iou-wrk-", 8) == 0)
					s->tag_wrk++;
				count_look(&s->tag_looks, &l_tag, t->look);
			}
		}
	}
}

/*
 * The io pressure is io_uring's idle waits alone: nearly every stalled
 * thread we saw sat in io_uring with nothing on a disk.
 */
int
ds_tr_uring_only(const struct stalls *s)
{
	size_t other = s->disk + s->dirty + s->netfs;

	return s->uring > 0 && (double)other <= URING_OTHER *
	    (double)(s->uring + other);
}

int
ds_tr_uring_only_in(const struct ds_triage_in *in)
{
	struct stalls s;

	ds_tr_stalls_sum(in, &s);
	return ds_tr_uring_only(&s);
}

int
ds_tr_uring_row(const struct ds_triage_in *in, const struct stalls *s,
    struct ds_findings *out)
{
	const struct ds_tr_task *t = s->uring_top;
	struct ds_finding *f;
	char subj[96];
	int kv[2] = { 0, 0 };

	if (t == NULL)
		return 0;
	snprintf(subj, sizeof(subj), "%d %s", t->pid, comm_of(in, t));
	if ((f = ds_tr_add(out, DS_TR_INFO, "io-uring-wait", subj,
	    (double)s->uring / (double)(in->nlooks ? in->nlooks : 1),
	    "count")) == NULL)
		return -ENOMEM;
	ds_tr_say(f->evidence, sizeof(f->evidence), "threads waited in "
	    "io_uring (wchan io_cqring_wait) with no block I/O of theirs in "
	    "flight in %zu of %zu looks: since Linux 6.5 the kernel counts an "
	    "io_uring completion wait as iowait, so PSI io, iowait and "
	    "procs_blocked rise with no disk involved", s->uring_looks,
	    in->nlooks);
	if (in->kernel != NULL && sscanf(in->kernel, "%d.%d", &kv[0],
	    &kv[1]) == 2 && (kv[0] > 6 || (kv[0] == 6 && kv[1] >= 15)))
		ds_tr_more(f->evidence, sizeof(f->evidence), "; the "
		    "application can opt out with IORING_ENTER_NO_IOWAIT (this "
		    "kernel, %s, has it)", in->kernel);
	else
		ds_tr_more(f->evidence, sizeof(f->evidence), "; an application "
		    "can opt out with IORING_ENTER_NO_IOWAIT from Linux "
		    "6.15%s%s%s", in->kernel ? " (this kernel is " : "",
		    in->kernel ? in->kernel : "", in->kernel ? ")" : "");
	ds_tr_say(f->next, sizeof(f->next), "dwho -s %%iodelay -n 10 5 1");
	return 0;
}

int
ds_tr_netfs_row(const struct ds_triage_in *in, const struct stalls *s,
    struct ds_findings *out)
{
	const struct ds_tr_task *t = s->netfs_top;
	struct ds_finding *f;

	if (t == NULL || s->netfs_looks * 2 < s->looks)
		return 0;
	if ((f = ds_tr_add(out, held_up(in) ? DS_TR_WARN : DS_TR_INFO,
	    "netfs-wait", s->netfs_fds->netfs, (double)s->netfs /
	    (double)in->nlooks, "count")) == NULL)
		return -ENOMEM;
	ds_tr_say(f->evidence, sizeof(f->evidence), "tasks waited on files of "
	    "this %s mount in %zu of %zu looks (%d %s, wchan class %s): real "
	    "I/O, of a mount, not of a local disk", s->netfs_fds->netfs_type ?
	    s->netfs_fds->netfs_type : "network", s->netfs_looks, in->nlooks,
	    t->pid, comm_of(in, t), ds_wait_name((enum ds_wait)t->wait));
	ds_tr_say(f->next, sizeof(f->next), "dwho -s %%iodelay -n 10 5 1");
	return 0;
}

/* Thread-looks of s's tasks among pids (a cgroup's). */
static size_t
stalled_in(const struct ds_triage_in *in, const int *pids, size_t npids,
    size_t *looks)
{
	unsigned int last = 0;
	size_t i, k, n = 0;

	*looks = 0;
	for (i = 0; i < in->ntask; i++) {
		const struct ds_tr_task *t = &in->task[i];

		if (t->wait == DS_WAIT_NONE || t->wait == DS_WAIT_OTHER)
			continue;
		for (k = 0; k < npids && pids[k] != t->pid; k++)
			;
		if (k == npids)
			continue;
		n++;
		count_look(looks, &last, t->look);
	}
	return n;
}

static const char *const lim_v2[4] = { "rbps", "wbps", "riops", "wiops" };
static const char *const lim_v1[4] = { "read_bps_device", "write_bps_device",
    "read_iops_device", "write_iops_device" };
static const char *const lim_what[4] = { "bytes/s read", "bytes/s written",
    "reads/s", "writes/s" };

/*
 * The limit l is held at: its index; DS_HELD_LAT when io.latency holds
 * its queue depth, DS_HELD_COST when iocost makes it wait; or -1.
 */
#define DS_HELD_LAT	4
#define DS_HELD_COST	5
static int
held_limit(const struct ds_tr_iolim *l)
{
	double best = 0, r;
	int k, at = -1;

	if (l->cost_wait >= COST_WAIT)
		return DS_HELD_COST;
	if (l->lat_depth > 0)
		return DS_HELD_LAT;
	if (!l->have_rate)
		return -1;
	for (k = 0; k < 4; k++) {
		if (l->lim[k] == UINT64_MAX || l->lim[k] == 0)
			continue;
		r = l->rate[k] / (double)l->lim[k];
		if (r >= LIMIT_FRAC && r > best) {
			best = r;
			at = k;
		}
	}
	return at;
}

/* The process of pids with the most block I/O, or NULL. */
const struct ds_tr_proc *
ds_tr_top_of(const struct ds_triage_in *in, const int *pids, size_t npids)
{
	const struct ds_tr_proc *best = NULL, *p;
	size_t k;

	for (k = 0; k < npids; k++)
		if ((p = ds_tr_proc_of(in, pids[k])) != NULL && (best == NULL ||
		    ds_tr_block_bps(&p->rate) > ds_tr_block_bps(&best->rate)))
			best = p;
	return best;
}

static int
row_cglimit(const struct ds_triage_in *in, const struct ds_tr_iolim *l,
    int k, struct ds_findings *out)
{
	const struct ds_tr_dev *d = NULL;
	const char *state = ds_tr_dev_finding(out, l->disk);
	struct ds_finding *f;
	size_t i, n, looks, shown = 0;

	for (i = 0; l->disk != NULL && i < in->ndev; i++)
		if (strcmp(in->dev[i].name, l->disk) == 0)
			d = &in->dev[i];
	n = stalled_in(in, l->pids, l->npids, &looks);
	if ((f = ds_tr_add(out, held_up(in) || looks * 2 >= in->nlooks ?
	    DS_TR_WARN : DS_TR_INFO, "cgroup-limit", l->cgroup,
	    k == DS_HELD_COST ? l->cost_wait : k == DS_HELD_LAT ?
	    (double)l->lat_depth : l->rate[k],
	    k == DS_HELD_COST ? "ratio" : k < 2 ? "bytes/s" : "count")) == NULL)
		return -ENOMEM;
	if (k == DS_HELD_COST)
		ds_tr_say(f->evidence, sizeof(f->evidence), "held by iocost on "
		    "%s: its I/O waited for its share %.0f%% of the window "
		    "(io.stat cost.wait)", l->disk ? l->disk : "?",
		    l->cost_wait * 100);
	else if (k == DS_HELD_LAT)
		ds_tr_say(f->evidence, sizeof(f->evidence), "held by "
		    "io.latency on %s: its queue depth cut to %llu (io.stat "
		    "depth) because a sibling with a latency target misses it",
		    l->disk ? l->disk : "?", (unsigned long long)l->lat_depth);
	else
		ds_tr_say(f->evidence, sizeof(f->evidence), "held at its own "
		    "limit on %s: %s=%llu (%s), %.1f %s in the window",
		    l->disk ? l->disk : "?", l->v1 ? lim_v1[k] : lim_v2[k],
		    (unsigned long long)l->lim[k], l->v1 ? "blkio.throttle" :
		    "io.max", l->rate[k], lim_what[k]);
	if (l->have_lat && l->have_latstat)
		ds_tr_more(f->evidence, sizeof(f->evidence),
		    "; its io.latency target %llu us, average %.0f us",
		    (unsigned long long)l->lat_target_us, l->lat_avg_us);
	for (i = 0; i < l->npids && shown < TOP_N; i++) {
		const struct ds_tr_proc *p = ds_tr_proc_of(in, l->pids[i]);

		if (p == NULL)
			continue;
		ds_tr_more(f->evidence, sizeof(f->evidence), "%s%d %s", shown ?
		    ", " : "; its tasks ", p->pid, p->comm ? p->comm : "?");
		shown++;
	}
	if (l->npids > shown && shown > 0)
		ds_tr_more(f->evidence, sizeof(f->evidence), " and %zu more",
		    l->npids - shown);
	if (n > 0)
		ds_tr_more(f->evidence, sizeof(f->evidence),
		    " waited in %zu of %zu looks", looks, in->nlooks);
	if (d != NULL && (strcmp(state, "device-ok") == 0 ||
	    strcmp(state, "busy") == 0 || strcmp(state, "sync-writes") == 0))
		ds_tr_more(f->evidence, sizeof(f->evidence), "; %s has "
		    "headroom (%%util %.1f, aqu-sz %.2f): the wait is the "
		    "limit's, not the disk's", d->name, xv(&d->x, DS_X_UTIL),
		    xv(&d->x, DS_X_AQUSZ));
	else if (d != NULL)
		ds_tr_more(f->evidence, sizeof(f->evidence), "; %s is %s too",
		    d->name, ds_tr_state_phrase(state));
	ds_tr_say(f->next, sizeof(f->next), "dwho -g 5 1");
	return 0;
}

int
ds_tr_cglimit_rows(const struct ds_triage_in *in, struct ds_findings *out)
{
	size_t i;
	int k, e;

	for (i = 0; i < in->niolim; i++)
		if ((k = held_limit(&in->iolim[i])) >= 0 &&
		    (e = row_cglimit(in, &in->iolim[i], k, out)) < 0)
			return e;
	return 0;
}

/* The limit a disk's cgroup is held at, for its load row. */
const struct ds_tr_iolim *
ds_tr_limit_on(const struct ds_triage_in *in, const char *disk)
{
	size_t i;

	for (i = 0; i < in->niolim; i++)
		if (in->iolim[i].disk != NULL &&
		    strcmp(in->iolim[i].disk, disk) == 0 &&
		    held_limit(&in->iolim[i]) >= 0)
			return &in->iolim[i];
	return NULL;
}

/* "vm.dirty_bytes 16777216" or "vm.dirty_ratio 20%". */
static void
dirty_setting(char *b, size_t size, uint64_t bytes, uint64_t ratio,
    const char *what)
{
	if (bytes > 0)
		snprintf(b, size, "vm.dirty_%sbytes %llu", what,
		    (unsigned long long)bytes);
	else
		snprintf(b, size, "vm.dirty_%sratio %llu%%", what,
		    (unsigned long long)ratio);
}

/* The writer the dirty limit holds: the stalled one that dirties most. */
const struct ds_tr_proc *
ds_tr_dirtier(const struct ds_triage_in *in)
{
	const struct ds_tr_proc *best = NULL, *p;
	size_t i;

	for (i = 0; i < in->ntask; i++) {
		if (in->task[i].wait != DS_WAIT_DIRTY ||
		    (p = ds_tr_proc_of(in, in->task[i].pid)) == NULL)
			continue;
		if (best == NULL || xw(p) > xw(best))
			best = p;
	}
	return best;
}

int
ds_tr_dirty_row(const struct ds_triage_in *in, const struct stalls *s,
    struct ds_findings *out)
{
	const struct ds_tr_dirty *dy = &in->dirty;
	const struct ds_tr_proc *p;
	struct ds_finding *f;
	char subj[96], lim[64], bg[64];

	if (s->dirty_looks == 0 || (double)s->dirty_looks < DIRTY_LOOKS *
	    (double)in->nlooks)
		return 0;
	p = ds_tr_dirtier(in);
	if (p != NULL)
		snprintf(subj, sizeof(subj), "%d %s", p->pid,
		    p->comm ? p->comm : "?");
	else
		snprintf(subj, sizeof(subj), "%d %s", s->dirty_top->pid,
		    comm_of(in, s->dirty_top));
	if ((f = ds_tr_add(out, DS_TR_WARN, "dirty-throttled", subj,
	    p != NULL ? xw(p) : NAN, "bytes/s")) == NULL)
		return -ENOMEM;
	ds_tr_say(f->evidence, sizeof(f->evidence), "held by the dirty-page "
	    "limit: in balance_dirty_pages in %zu of %zu looks", s->dirty_looks,
	    in->nlooks);
	if (dy->have) {
		dirty_setting(lim, sizeof(lim), dy->bytes, dy->ratio, "");
		dirty_setting(bg, sizeof(bg), dy->bg_bytes, dy->bg_ratio,
		    "background_");
		ds_tr_more(f->evidence, sizeof(f->evidence), "; dirty + "
		    "writeback %s against the kernel's limit of %s (%s; %s)",
		    HUMAN(dy->dirty + dy->writeback), HUMAN(dy->thresh), lim,
		    bg);
	}
	if (p != NULL)
		ds_tr_more(f->evidence, sizeof(f->evidence), "; it dirties "
		    "%s/s, the flusher writes back %s/s: it waits for the disk "
		    "because of the limit; write less or sync in larger "
		    "batches, or raise the limit", HUMAN(xw(p)),
		    HUMAN(dy->written_bps));
	ds_tr_say(f->next, sizeof(f->next), "dwho -s kB_wr/s -n 10 5 1");
	return 0;
}

/* The disks' reads, bytes a second. */
double
ds_tr_disk_reads(const struct ds_triage_in *in)
{
	double v = 0;
	size_t i;

	for (i = 0; i < in->ndev; i++)
		v += xv(&in->dev[i].x, DS_X_RKBS) * 1024;
	return v;
}

/* A memory cgroup that thrashes: at its limit, refaulting. */
static int
thrashing(const struct ds_tr_memcg *m)
{
	return m->have_refault && m->refault_bps >= THRASH_MIN_BPS &&
	    m->limit > 0 && (double)m->usage >= THRASH_USE * (double)m->limit;
}

static int
row_thrash(const struct ds_triage_in *in, const struct ds_tr_memcg *m,
    struct ds_findings *out)
{
	double reads = ds_tr_disk_reads(in), share;
	struct ds_finding *f;
	enum ds_tr_sev sev;

	share = reads > 0 ? m->refault_bps / reads : 0;
	if (share > 1)
		share = 1;
	sev = share >= THRASH_SHARE || (m->have_psi &&
	    m->psi_some >= PSI_INFO) || (in->mem.have &&
	    in->mem.some >= PSI_INFO) ? DS_TR_WARN : DS_TR_INFO;
	if (in->mem.have && in->mem.full >= PSI_CRIT_FULL)
		sev = DS_TR_CRIT;
	if ((f = ds_tr_add(out, sev, "memory-thrash", m->cgroup, m->refault_bps,
	    "bytes/s")) == NULL)
		return -ENOMEM;
	ds_tr_say(f->evidence, sizeof(f->evidence), "at its memory limit of %s "
	    "(%s), using %s: it refaulted %s/s of what it had to drop, %.0f%% "
	    "of the disks' reads", HUMAN(m->limit), m->v1 ?
	    "memory.limit_in_bytes" : "memory.max", HUMAN(m->usage),
	    HUMAN(m->refault_bps), share * 100);
	if (m->have_psi)
		ds_tr_more(f->evidence, sizeof(f->evidence),
		    "; its memory pressure some %.1f%%", m->psi_some);
	if (m->failcnt > 0)
		ds_tr_more(f->evidence, sizeof(f->evidence),
		    "; the limit hit %llu times",
		    (unsigned long long)m->failcnt);
	ds_tr_more(f->evidence, sizeof(f->evidence), ": the disk serves what "
	    "memory could not keep; raise the limit or shrink the working set");
	ds_tr_say(f->next, sizeof(f->next), "dpsi -r memory 10 1");
	return 0;
}

int
ds_tr_thrash_rows(const struct ds_triage_in *in, struct ds_findings *out)
{
	size_t i;
	int e;

	for (i = 0; i < in->nmemcg; i++)
		if (thrashing(&in->memcg[i]) &&
		    (e = row_thrash(in, &in->memcg[i], out)) < 0)
			return e;
	return 0;
}
