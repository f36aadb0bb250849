/*
 * The window: the figures read at its start and its end, the ticks
 * between (each disk's in_flight and procs_blocked, 10 a second), the
 * looks at the threads in an I/O wait, and block-latency tracing.
 */
#include <time.h>

#include "util/util.h"
#include "dtriage/dtriage.h"

#define LOOK_TICKS 10		/* a look at the stalled threads: 1 a second */
#define LOOK_TASKS 65536	/* threads kept over all the looks */
#define LOOK_SPACE 20		/* a look's time: at most 1/20 of the window */

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

	if (t0 < x->look_next)
		return;
	if (ds_stalls_scan(&x->t.r, 1, &x->scratch, &x->st) < 0)
		return;
	t1 = ds_boottime_ns();
	x->look_next = t1 + LOOK_SPACE * (t1 - t0);
	if (ds_grow(&x->look_fl, &x->lookcap, x->nlooks + 1,
	    sizeof(*x->look_fl)) < 0)
		tool_errc(1, -ENOMEM, "looks");
	x->look_fl[x->nlooks] = inflight;
	for (i = 0; i < x->st.n && x->ntask < LOOK_TASKS; i++) {
		const struct ds_stall *t = &x->st.t[i];
		struct ds_tr_task *k;

		if (ds_grow(&x->task, &x->taskcap, x->ntask + 1,
		    sizeof(*x->task)) < 0)
			tool_errc(1, -ENOMEM, "looks");
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

/* One tick: each disk's in_flight, and the blocked tasks. */
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
void
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
