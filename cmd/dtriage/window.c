/*
 * The window: the figures read at its start and its end, and between
 * them the library's window (ds_window: ticks of each disk's in_flight
 * and procs_blocked, looks at the threads in an I/O wait, block-latency
 * tracing, the kernel log's errors) -- live, or read back from a
 * capture of two samples.
 */
#include "util/util.h"
#include "dtriage/dtriage.h"

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
 * A capture of two samples: the figures of samples 0 and 1, the window
 * its members recorded.  A pair of captures (-f) has no ticks, looks,
 * trace or log: said, and the rest judged.
 */
static void
capture(struct tr *x)
{
	struct ds_window *w = &x->win;
	int e;

	if ((e = ds_window_load(w, &x->t.r)) < 0)
		tool_errx(1, "%s: %s", x->t.r.path, w->err[0] ? w->err :
		    strerror(-e));
	x->windowed = 1;
	take(x, &x->s[0]);
	scsi_counters(x, NULL);
	if ((e = ds_root_next(&x->t.r)) < 0)
		tool_errc(1, e, "%s: sample 1", x->t.r.path);
	take(x, &x->s[1]);
	if (!w->have_ticks && x->pair)
		tool_warnx("-f OLD -f NEW: a pair of captures records no ticks "
		    "nor looks: in_flight, procs_blocked and stalled threads "
		    "are not judged");
	else if (!w->have_ticks)
		tool_warnx("%s: no ticks nor looks recorded (a pair of "
		    "captures?): in_flight, procs_blocked and stalled threads "
		    "are not judged", x->t.r.path);
}

/*
 * The window.  A captured tree (or a capture of one sample) holds still
 * and cannot be sampled: its one read is judged since boot (pressure
 * from avg10).
 */
void
sample_window(struct tr *x)
{
	struct ds_window *w = &x->win;
	uint64_t until;
	int e, more;

	x->delay = (e = ds_delayacct_read(&x->t.r, &x->scratch)) >= 0 ? e : -1;
	if ((e = ds_whole_disks(&x->t.r, &x->buf, &x->bd)) < 0 && e != -ENOENT)
		tool_errc(1, e, "%s", tool_path(&x->t, "sys/block"));
	if ((x->lat = calloc(x->bd.n ? x->bd.n : 1, sizeof(*x->lat))) == NULL)
		tool_errc(1, -ENOMEM, "samples");
	if (x->t.r.nsamples >= 2) {
		capture(x);
		return;
	}
	x->windowed = x->t.r.live;
	if ((e = ds_window_begin(w, &x->t.r, x->window_ns,
	    DS_WINDOW_TRACE)) < 0)
		tool_errc(1, e, "%s", e == -ENOMEM ? "samples" :
		    tool_path(&x->t, "sys/block"));
	if (x->windowed) {
		take(x, &x->s[0]);
		scsi_counters(x, NULL);
	}
	/* Interrupted: the window so far is judged, shorter. */
	while (!tool_stop) {
		ds_window_tick(w);
		more = ds_window_due(w, &until);
		while (!tool_stop && ds_sleep_until(until) == -EINTR)
			;
		if (!more)
			break;
	}
	ds_window_end(w);
	take(x, &x->s[1]);
	if (x->windowed)
		return;
	/* Since boot: CPU time from zero. */
	x->s[0].ps.have = DS_PS_CPU;
	x->s[0].ps.ncpu_fields = DS_CPU_N;
	x->s[0].ps_ok = 1;
}
