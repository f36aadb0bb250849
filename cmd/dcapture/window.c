/*
 * The window between the two samples, recorded by lib's window API
 * (ds_window_*) as dtriage records it live: each disk's in_flight and
 * procs_blocked ticked 10 times a second, looks at the threads in an
 * I/O wait, block-latency tracing when allowed, the kernel log's I/O
 * errors; written as capture/window, dlat.0, dlat.1 and kmsg, which
 * dtriage and dlat read back under -R.
 */
#include "dcapture.h"

/*
 * Tracing on and its first snapshot, before sample 0.  On a failure
 * (out of memory, sys/block unreadable) the capture has no window
 * members and meta says why; the samples are still taken.
 */
int
cap_window_begin(struct cap *c, uint64_t window_ns)
{
	int e;

	if ((e = ds_window_begin(&c->win, &c->r, window_ns,
	    DS_WINDOW_TRACE)) < 0) {
		ds_window_free(&c->win);
		snprintf(c->win_why, sizeof(c->win_why), "the window could "
		    "not be recorded: %s", strerror(-e));
		return e;
	}
	c->win_on = 1;
	return 0;
}

/*
 * One tick, and when to wake for the next (*until, CLOCK_BOOTTIME):
 * 1 while ticks follow, 0 with the window's end.  The window's ticks
 * count from the first, taken once sample 0 is written, and end at
 * end (sample 0's diskstats read and the seconds asked): the window
 * between the samples is the one asked, however long sample 0 took.
 */
int
cap_window_tick(struct cap *c, uint64_t end, uint64_t *until)
{
	struct ds_window *w = &c->win;
	int first;

	if (!c->win_on) {
		*until = end;
		return 0;
	}
	first = w->ntick == 0;
	ds_window_tick(w);
	if (first)
		w->window_ns = end > w->t0 ? end - w->t0 : 0;
	return ds_window_due(w, until);
}

/* Before sample 1: the last snapshot, tracing off, the kernel log read. */
void
cap_window_end(struct cap *c)
{
	if (c->win_on)
		ds_window_end(&c->win);
}

/* A window member into the archive; which ones, for meta's traced. */
static int
put(void *arg, const char *name, const char *data, size_t len)
{
	struct cap *c = arg;
	int e;

	if ((e = cap_put_top(c, name, data, len)) == 0)
		c->win_dlat += strcmp(name, DS_WINDOW_DLAT0) == 0 ||
		    strcmp(name, DS_WINDOW_DLAT1) == 0;
	return e;
}

/*
 * capture/window, dlat.0, dlat.1 (traced only) and kmsg; *traced when
 * both dlat members are in the archive, else *why says why not.
 */
int
cap_window_emit(struct cap *c, int *traced, const char **why)
{
	struct ds_window *w = &c->win;
	int e;

	*traced = 0;
	if (!c->win_on) {
		*why = c->win_why;
		return 0;
	}
	c->win_dlat = 0;
	e = ds_window_emit(w, put, c);
	*traced = w->traced && c->win_dlat == 2;
	if (*traced)
		*why = NULL;
	else if (w->traced)
		*why = e == -ENOMEM ? "out of memory" : "not written";
	else
		*why = w->why;
	return e;
}

void
cap_window_free(struct cap *c)
{
	if (c->win_on)
		ds_window_free(&c->win);
	c->win_on = 0;
}
