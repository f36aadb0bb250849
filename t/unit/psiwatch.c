/*
 * lib/psiwatch.c: the sampling fallback of a wait decides as the
 * kernel's trigger does (a crossing exactly at the threshold counts,
 * only growth within the window counts, the ring wraps, a total that
 * went back counts from zero, one event per window); the cgroups of
 * two samples are paired by path; the pressure file is opened for
 * arming under the root or a cgroup directory; an armed trigger's
 * events are confirmed from the totals; which errors mean sampling
 * instead; both waits end at a deadline.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"

#define MS 1000000ull

static void
test_window(void)
{
	struct ds_psi_trigger tr = { DS_PSI_IO, DS_PSI_SOME, 100000, 1000000 };
	struct ds_psi_window w;
	uint64_t t = 5000 * MS, total = 7000000;
	int i, fired;

	ds_psi_window_init(&w, &tr, total, t);
	is_u64(w.period_ns, 100 * MS, "period: a tenth of a 1 s window");
	is_u64(ds_psi_window_next(&w), t + 100 * MS, "next: a period on");
	tr.window_us = 500000;
	ds_psi_window_init(&w, &tr, total, t);
	is_u64(w.period_ns, 50 * MS, "period: 50 ms for a 500 ms window");
	tr.window_us = 10000000;
	ds_psi_window_init(&w, &tr, total, t);
	is_u64(w.period_ns, 1000 * MS, "period: 1 s for a 10 s window");

	/* Exactly at the threshold: 100 ms of stall in the window. */
	tr.window_us = 1000000;
	ds_psi_window_init(&w, &tr, total, t);
	is_int(ds_psi_window_add(&w, total + 60000, t + 100 * MS), 0,
	    "60 ms stalled: no");
	is_int(ds_psi_window_add(&w, total + 99999, t + 200 * MS), 0,
	    "1 us short of the threshold: no");
	is_int(ds_psi_window_add(&w, total + 100000, t + 300 * MS), 1,
	    "exactly at the threshold: crossed");
	is_int(w.n, 1, "after an event the window starts again");
	is_u64(w.total[0], total + 100000, "at the event's sample");
	is_int(ds_psi_window_add(&w, total + 199999, t + 400 * MS), 0,
	    "the stall before the event does not count again");
	is_int(ds_psi_window_add(&w, total + 200000, t + 500 * MS), 1,
	    "another 100 ms: the next event");

	/*
	 * Slow growth, 9 ms a period: the window (1 s and half a period)
	 * holds at most 10 periods, 90 ms; the ring wraps at 12 samples
	 * and what fell out of the window never adds up to a crossing.
	 */
	ds_psi_window_init(&w, &tr, total, t);
	fired = 0;
	for (i = 1; i <= 40; i++)
		fired += ds_psi_window_add(&w, total + 9000 * (uint64_t)i,
		    t + (uint64_t)i * 100 * MS);
	is_int(fired, 0, "9 ms a period for 4 s (360 ms in all): no event");
	is_int(w.n, DS_PSI_RING, "the ring wrapped, full");
	is_u64(w.t_ns[0], t + 29 * 100 * MS, "oldest kept: 11 periods back");
	is_u64(w.t_ns[DS_PSI_RING - 1], t + 40 * 100 * MS, "newest last");
	/* 19 ms in one period: 100 ms within the window, exactly. */
	is_int(ds_psi_window_add(&w, total + 9000 * 40 + 19000,
	    t + 41 * 100 * MS), 1, "the window's growth crosses: event");

	/* Late samples (a slow sleep): the window keeps half a period. */
	ds_psi_window_init(&w, &tr, total, t);
	is_int(ds_psi_window_add(&w, total + 100000, t + 1050 * MS), 1,
	    "1.05 s after the baseline: still in the window");
	ds_psi_window_init(&w, &tr, total, t);
	ds_psi_window_add(&w, total + 1000, t + 1051 * MS);
	is_int(w.n, 2, "1.051 s: two samples");
	is_int(ds_psi_window_add(&w, total + 100500, t + 1100 * MS), 0,
	    "past the window, the baseline does not count: no event");

	/* A total that went back (a reset) counts from zero. */
	ds_psi_window_init(&w, &tr, total, t);
	is_int(ds_psi_window_add(&w, 50000, t + 100 * MS), 0,
	    "reset to 50 ms: 50 ms of stall, no event, no huge value");
	is_int(ds_psi_window_add(&w, 150000, t + 200 * MS), 1,
	    "then 150 ms since the reset: event");
	ds_psi_window_init(&w, &tr, total, t);
	is_int(ds_psi_window_add(&w, 100000, t + 100 * MS), 1,
	    "reset to 100 ms: the stall since the reset crosses");
}

/* The kernel's trigger: the first event needs the stall, later ones any. */
static void
test_armed(void)
{
	struct ds_psi_trigger tr = { DS_PSI_IO, DS_PSI_SOME, 150000, 2000000 };
	struct ds_psi_armed a;

	ds_psi_armed_init(&a, &tr, 1000);
	is_int(ds_psi_armed_add(&a, 1000), 0,
	    "armed: an event at once with no stall is not real");
	is_int(ds_psi_armed_add(&a, 150999), 0, "armed: 1 us short: no");
	is_u64(a.base, 1000, "armed: the base stays at the baseline");
	is_int(ds_psi_armed_add(&a, 151000), 1, "armed: the stall: event");
	is_u64(a.base, 151000, "armed: the event is the new base");
	is_int(ds_psi_armed_add(&a, 151000), 0,
	    "armed: later, no stall since the last: no");
	is_int(ds_psi_armed_add(&a, 151001), 1,
	    "armed: later, 1 us of stall since the last: event");
	ds_psi_armed_init(&a, &tr, 500000);
	is_int(ds_psi_armed_add(&a, 200000), 1,
	    "armed: a total that went back counts from zero");
}

/* Which errors mean sampling instead, and why. */
static void
test_fallback(void)
{
	struct ds_buf b = { 0 };

	is_int(ds_psi_fallback(-EACCES, 0), DS_PSI_NOWRITE,
	    "fallback: open EACCES: no write access");
	is_int(ds_psi_fallback(-EROFS, 0), DS_PSI_NOWRITE,
	    "fallback: open EROFS: no write access");
	is_int(ds_psi_fallback(-EINVAL, 0), 0, "fallback: open EINVAL: error");
	is_int(ds_psi_fallback(-ENOENT, 0), 0, "fallback: open ENOENT: error");
	is_int(ds_psi_fallback(-EINVAL, 1), DS_PSI_REFUSED,
	    "fallback: arm EINVAL: refused (before 5.2)");
	is_int(ds_psi_fallback(-EPERM, 1), DS_PSI_REFUSED,
	    "fallback: arm EPERM: refused");
	is_int(ds_psi_fallback(-EBUSY, 1), 0, "fallback: arm EBUSY: error");
	is_int(ds_psi_fallback(-EROFS, 1), 0, "fallback: arm EROFS: error");
	ok(ds_psi_fallback_msg(DS_PSI_NOTKERNEL, &b) == 1 &&
	    strstr(b.data, "captured tree") != NULL,
	    "fallback msg: a captured tree");
	ok(ds_psi_fallback_msg(DS_PSI_REFUSED, &b) == 1 &&
	    strstr(b.data, "5.2") != NULL && ds_psi_fallback_msg(0, &b) == 0 &&
	    b.len == 0, "fallback msg: 5.2; none for 0, emptied");
	ds_buf_free(&b);
}

/* Both waits end at a deadline; poll names a file that went away. */
static void
test_waits(void)
{
	struct ds_psi_trigger tr = { DS_PSI_IO, DS_PSI_SOME, 100000, 500000 };
	struct ds_psi_window w;
	uint64_t t0, t1;
	int pfd[2];

	if (pipe(pfd) < 0) {
		perror("pipe");
		exit(1);
	}
	t0 = ds_boottime_ns();
	is_int(ds_psi_trigger_poll(pfd[0], t0), 0,
	    "poll: a deadline passed: 0 at once");
	is_int(ds_psi_trigger_poll(pfd[0], t0 + 30 * MS), 0,
	    "poll: no event by the deadline: 0");
	t1 = ds_boottime_ns();
	ok(t1 >= t0 + 30 * MS && t1 < t0 + 2000 * MS,
	    "poll: returned at the deadline");
	close(pfd[0]);
	close(pfd[1]);
	is_int(ds_psi_trigger_poll(pfd[0], t1 + 1000 * MS), -ENODEV,
	    "poll: a file gone (POLLNVAL): -ENODEV");

	t0 = ds_boottime_ns();
	ds_psi_window_init(&w, &tr, 0, t0);
	is_int(ds_psi_window_wait(&w, t0), 0,
	    "window: a deadline passed: 0 at once");
	is_int(ds_psi_window_wait(&w, 0), 1,
	    "window: no deadline: 1 when the next sample is due");
	ok(ds_boottime_ns() >= ds_psi_window_next(&w),
	    "window: woke at the sample's time");
	t0 = ds_boottime_ns();
	ds_psi_window_init(&w, &tr, 0, t0);
	is_int(ds_psi_window_wait(&w, t0 + 10 * MS), 0,
	    "window: a deadline before the next sample: 0");
	t1 = ds_boottime_ns();
	ok(t1 >= t0 + 10 * MS && t1 < ds_psi_window_next(&w),
	    "window: woke at the deadline, not the sample");
}

struct el {
	int id;
	char *path;
	const struct el *prev;
};

static void
test_pair(void)
{
	char p1[] = "/a", p2[] = "/b", p3[] = "/c", p4[] = "/a/x";
	struct el prev[] = {
		{ 1, p3, NULL }, { 2, NULL, NULL }, { 3, p1, NULL },
		{ 4, p4, NULL },
	};
	struct el cur[] = {
		{ 10, p1, NULL }, { 11, p2, NULL }, { 12, NULL, NULL },
		{ 13, p4, NULL }, { 14, p3, NULL },
	};
	static const int want[] = { 3, 0, 2, 4, 1 };
	struct el none = { 20, p1, prev };
	size_t i, bad = 0;

	is_int(ds_psi_pair(prev, 4, cur, 5, sizeof(struct el),
	    offsetof(struct el, path), offsetof(struct el, prev)), 0,
	    "pair: 0");
	for (i = 0; i < 5; i++)
		if (want[i] == 0 ? cur[i].prev != NULL :
		    cur[i].prev == NULL || cur[i].prev->id != want[i])
			bad++;
	is_int(bad, 0, "pair: each by its path, the system with the "
	    "system, a new one with none");
	is_int(ds_psi_pair(prev, 0, &none, 1, sizeof(struct el),
	    offsetof(struct el, path), offsetof(struct el, prev)), 0,
	    "pair with no earlier sample: 0");
	ok(none.prev == prev, "no earlier sample: nothing stored");
}

static void
test_open(void)
{
	char top[] = "/tmp/psiwatch-unit.XXXXXX", p[128];
	struct ds_root r;
	int fd, dfd;

	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		exit(1);
	}
	snprintf(p, sizeof(p), "%s/proc", top);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/proc/pressure", top);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/proc/pressure/io", top);
	close(open(p, O_CREAT | O_WRONLY, 0644));
	snprintf(p, sizeof(p), "%s/cg", top);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/cg/memory.pressure", top);
	close(open(p, O_CREAT | O_WRONLY, 0644));
	if (ds_root_open(&r, top) < 0) {
		ok(0, "root opens");
		return;
	}
	fd = ds_psi_trigger_open(&r, -1, DS_PSI_IO);
	ok(fd >= 0 && (fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDWR &&
	    (fcntl(fd, F_GETFL) & O_NONBLOCK),
	    "proc/pressure/io opened read-write, non-blocking");
	if (fd >= 0) {
		is_int(ds_psi_trigger_supported(fd), 0,
		    "a file of a tree is not the kernel's");
		close(fd);
	}
	is_int(ds_psi_trigger_open(&r, -1, DS_PSI_CPU), -ENOENT,
	    "missing: -ENOENT");
	snprintf(p, sizeof(p), "%s/cg", top);
	dfd = open(p, O_RDONLY | O_DIRECTORY);
	fd = ds_psi_trigger_open(&r, dfd, DS_PSI_MEMORY);
	ok(fd >= 0, "a cgroup's memory.pressure under its directory");
	if (fd >= 0)
		close(fd);
	is_int(ds_psi_trigger_open(&r, dfd, DS_PSI_IO), -ENOENT,
	    "a cgroup without io.pressure: -ENOENT");
	close(dfd);
	ds_root_close(&r);
	snprintf(p, sizeof(p), "rm -rf '%s'", top);
	if (system(p) != 0)
		printf("# could not remove %s\n", top);
}

int
main(void)
{
	test_window();
	test_armed();
	test_fallback();
	test_waits();
	test_pair();
	test_open();
	return tap_done();
}
