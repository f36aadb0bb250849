/*
 * Waiting for pressure: the kernel's trigger opened for arming, and
 * where there is none (a captured tree, no write access, a kernel
 * before 5.2) the same test made from samples of the total, and the
 * pairing of a sample's cgroups with the sample before.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

int
ds_psi_trigger_open(const struct ds_root *r, int dirfd, enum ds_psi_res res)
{
	char rel[64];
	int fd;

	if (dirfd >= 0) {
		snprintf(rel, sizeof(rel), "%s.pressure", ds_psi_res_name(res));
		fd = openat(dirfd, rel, O_RDWR | O_NONBLOCK | O_CLOEXEC);
		return fd < 0 ? -errno : fd;
	}
	snprintf(rel, sizeof(rel), "proc/pressure/%s", ds_psi_res_name(res));
	return ds_openat(r, rel, O_RDWR | O_NONBLOCK);
}

int
ds_psi_fallback(int e, int arming)
{
	if (!arming && (e == -EACCES || e == -EPERM || e == -EROFS))
		return DS_PSI_NOWRITE;
	/* 4.20 to 5.1 have read-only files: no triggers. */
	if (arming && (e == -EINVAL || e == -EPERM || e == -EACCES))
		return DS_PSI_REFUSED;
	return 0;
}

int
ds_psi_fallback_msg(int why, struct ds_buf *msg)
{
	switch (why) {
	case DS_PSI_NOWRITE:
		return ds_buf_printf(msg, "no write access to the pressure "
		    "file (triggers need 5.2+, and root before 6.5)");
	case DS_PSI_NOTKERNEL:
		return ds_buf_printf(msg, "not a kernel pressure file (a "
		    "captured tree)");
	case DS_PSI_REFUSED:
		return ds_buf_printf(msg, "the kernel refused the trigger (no "
		    "triggers before 5.2)");
	}
	return ds_buf_fail(msg, 0);
}

void
ds_psi_window_init(struct ds_psi_window *w, const struct ds_psi_trigger *tr,
    uint64_t total, uint64_t now_ns)
{
	memset(w, 0, sizeof(*w));
	/* Ten samples per window, as the kernel's own polling does. */
	w->period_ns = tr->window_us * 1000 / 10;
	if (w->period_ns < 50000000)
		w->period_ns = 50000000;
	w->window_ns = tr->window_us * 1000;
	w->stall_us = tr->stall_us;
	w->total[0] = total;
	w->t_ns[0] = now_ns;
	w->n = 1;
}

uint64_t
ds_psi_window_next(const struct ds_psi_window *w)
{
	return w->t_ns[w->n - 1] + w->period_ns;
}

int
ds_psi_window_add(struct ds_psi_window *w, uint64_t total, uint64_t now_ns)
{
	size_t i;
	int fired;

	if (w->n == DS_PSI_RING) {
		memmove(w->total, w->total + 1,
		    (w->n - 1) * sizeof(w->total[0]));
		memmove(w->t_ns, w->t_ns + 1,
		    (w->n - 1) * sizeof(w->t_ns[0]));
		w->n--;
	}
	w->total[w->n] = total;
	w->t_ns[w->n++] = now_ns;
	/*
	 * Stall within the last window, as the kernel counts: from the
	 * oldest sample inside it, half a period of slack for the sleep.
	 */
	for (i = 0; i < w->n; i++)
		if (now_ns - w->t_ns[i] <= w->window_ns + w->period_ns / 2)
			break;
	fired = ds_psi_confirm(w->total[i], total, w->stall_us);
	if (fired) {
		/* One event per window, like the kernel. */
		w->total[0] = total;
		w->t_ns[0] = now_ns;
		w->n = 1;
	}
	return fired;
}

int
ds_psi_trigger_poll(int fd, uint64_t deadline_ns)
{
	uint64_t now;
	int e, timeout_ms;

	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLPRI };

		now = ds_boottime_ns();
		timeout_ms = -1;
		if (deadline_ns != 0) {
			if (now >= deadline_ns)
				return 0;
			/* poll() takes int ms: wait at most an hour at a time. */
			timeout_ms = (deadline_ns - now) / 1000000 >= 3600000 ?
			    3600000 :
			    (int)((deadline_ns - now + 999999) / 1000000);
		}
		if ((e = poll(&pfd, 1, timeout_ms)) < 0)
			return -errno;
		if (e == 0)
			continue;
		/* The cgroup was removed under us. */
		if (pfd.revents & (POLLERR | POLLNVAL))
			return -ENODEV;
		if (pfd.revents & POLLPRI)
			return 1;
	}
}

void
ds_psi_armed_init(struct ds_psi_armed *a, const struct ds_psi_trigger *tr,
    uint64_t base)
{
	a->base = base;
	a->need_us = tr->stall_us;
}

int
ds_psi_armed_add(struct ds_psi_armed *a, uint64_t total)
{
	if (!ds_psi_confirm(a->base, total, a->need_us))
		return 0;
	/*
	 * A new trigger may fire at once; later events are rate-limited
	 * to one per window by the kernel, and need only show some stall
	 * since the last one.
	 */
	a->base = total;
	a->need_us = 1;
	return 1;
}

int
ds_psi_window_wait(const struct ds_psi_window *w, uint64_t deadline_ns)
{
	uint64_t next;

	if (deadline_ns != 0 && ds_boottime_ns() >= deadline_ns)
		return 0;
	next = ds_psi_window_next(w);
	if (deadline_ns != 0 && next > deadline_ns)
		next = deadline_ns;
	if (ds_sleep_until(next) == -EINTR)
		return -EINTR;
	if (deadline_ns != 0 && ds_boottime_ns() >= deadline_ns)
		return 0;
	return 1;
}

void
ds_psi_wait_init(struct ds_psi_wait *pw, int fd,
    const struct ds_psi_trigger *tr, uint64_t base, uint64_t now_ns)
{
	memset(pw, 0, sizeof(*pw));
	pw->fd = fd;
	if (fd >= 0)
		ds_psi_armed_init(&pw->armed, tr, base);
	else
		ds_psi_window_init(&pw->win, tr, base, now_ns);
}

int
ds_psi_wait_next(const struct ds_psi_wait *pw, uint64_t deadline_ns)
{
	if (pw->fd >= 0)
		return ds_psi_trigger_poll(pw->fd, deadline_ns);
	return ds_psi_window_wait(&pw->win, deadline_ns);
}

int
ds_psi_wait_add(struct ds_psi_wait *pw, uint64_t total, uint64_t now_ns)
{
	if (pw->fd >= 0)
		return ds_psi_armed_add(&pw->armed, total);
	return ds_psi_window_add(&pw->win, total, now_ns);
}

struct byname {
	const char *path;
	const void *el;
};

static int
path_cmp(const void *a, const void *b)
{
	const struct byname *x = a, *y = b;

	if (x->path == NULL || y->path == NULL)
		return (x->path != NULL) - (y->path != NULL);
	return strcmp(x->path, y->path);
}

#define PATH_AT(base, i, size, off) \
	(*(char *const *)((const char *)(base) + (i) * (size) + (off)))

int
ds_psi_pair(const void *prev, size_t nprev, void *cur, size_t ncur,
    size_t size, size_t path_off, size_t link_off)
{
	struct byname *idx, key, *hit;
	const void *link;
	size_t i;

	if (prev == NULL || nprev == 0)
		return 0;
	if ((idx = calloc(nprev, sizeof(*idx))) == NULL)
		return -ENOMEM;
	for (i = 0; i < nprev; i++) {
		idx[i].path = PATH_AT(prev, i, size, path_off);
		idx[i].el = (const char *)prev + i * size;
	}
	qsort(idx, nprev, sizeof(*idx), path_cmp);
	for (i = 0; i < ncur; i++) {
		key.path = PATH_AT(cur, i, size, path_off);
		hit = bsearch(&key, idx, nprev, sizeof(*idx), path_cmp);
		link = hit != NULL ? hit->el : NULL;
		memcpy((char *)cur + i * size + link_off, &link, sizeof(link));
	}
	free(idx);
	return 0;
}
