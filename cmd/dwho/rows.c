/*
 * The rows of a report per process, thread or cgroup from /proc/PID/io:
 * an entry's rates as the columns show them, their order (sort key,
 * then id), the sums per cgroup of a whole sample (-g), and the rows
 * kept to be sorted (-s, -t, -n), with -n in a heap.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dwho/dwho.h"

double
who_hit(const struct ds_who_rate *r)
{
	double h;

	if (!(r->have & (1u << DS_WR_RCHAR)) ||
	    !(r->have & (1u << DS_WR_READ)) || r->v[DS_WR_RCHAR] <= 0)
		return -1;
	/*
	 * Readahead can bring in more than was asked for, and mmap page
	 * faults read without any rchar: clamp to a ratio.
	 */
	h = 100.0 * (1.0 - r->v[DS_WR_READ] / r->v[DS_WR_RCHAR]);
	return h < 0 ? 0 : h > 100 ? 100 : h;
}

/* v and have from r. */
static void
values(struct whorow *rw)
{
	double h;
	int i;

	rw->have = 0;
	for (i = 0; i < DS_WR_N; i++)
		if (rw->r.have & (1u << i)) {
			/* Bytes to kB, seconds per second to percent. */
			rw->v[i] = rw->r.v[i] / (i <= DS_WR_WCHAR ? 1024.0 : 1.0);
			if (i == DS_WR_DELAY)
				rw->v[i] = rw->r.v[i] * 100.0;
			rw->have |= 1u << i;
		}
	if ((rw->have & (1u << DS_WR_READ)) &&
	    (rw->have & (1u << DS_WR_WRITE))) {
		rw->v[WV_TOTAL] = rw->v[DS_WR_READ] + rw->v[DS_WR_WRITE];
		rw->have |= 1u << WV_TOTAL;
	}
	if ((h = who_hit(&rw->r)) >= 0) {
		rw->v[WV_HIT] = h;
		rw->have |= 1u << WV_HIT;
	}
}

static int
make(const struct whocfg *c, int idle, const struct ds_proc *q,
    const struct ds_proc *p, const uint64_t *prev_up, uint64_t up,
    struct whorow *rw)
{
	double secs, age;

	if (prev_up != NULL) {
		secs = (double)(up - *prev_up) / 1e9;
		age = ds_proc_age(p, up, c->clk_tck);
		/*
		 * Not in the first sample, yet older than the interval (it
		 * changed user or name into the selection): no baseline, so
		 * its rates since it started rather than a lifetime in one
		 * interval.  A tick of slack for the start time's resolution.
		 */
		if ((q == NULL || q->starttime != p->starttime) &&
		    age > secs + 2.0 / (double)c->clk_tck) {
			q = NULL;
			secs = age;
		}
	} else {
		secs = ds_proc_age(p, up, c->clk_tck);
	}
	memset(rw, 0, sizeof(*rw));
	rw->p = p;
	rw->procs = 1;
	rw->key = c->key;
	ds_who_rate(q, p, secs, c->clk_tck, c->delay, &rw->r);
	if (!idle && !rw->r.active)
		return 0;
	values(rw);
	return 1;
}

int
whorow_make(const struct whocfg *c, const struct ds_proc *q,
    const struct ds_proc *p, const uint64_t *prev_up, uint64_t up,
    struct whorow *rw)
{
	return make(c, c->idle, q, p, prev_up, up, rw);
}

int
whorow_cmp(const struct whorow *x, const struct ds_proc *px,
    const struct whorow *y, const struct ds_proc *py)
{
	int k = x->key, hx, hy;

	if (k >= 0) {
		hx = (x->have >> k) & 1;
		hy = (y->have >> k) & 1;
		if (hx != hy)
			return hy - hx;		/* unknown values last */
		if (hx && x->v[k] != y->v[k])
			return x->v[k] < y->v[k] ? 1 : -1;
	}
	if (px != NULL && py != NULL)
		return (px->pid > py->pid) - (px->pid < py->pid);
	if (x->cgroup != NULL && y->cgroup != NULL)
		return strcmp(x->cgroup, y->cgroup);
	return 0;
}

/* Rows whose entries lie outside the array sorted. */
static int
cmp_row(const void *a, const void *b)
{
	const struct whorow *x = a, *y = b;

	return whorow_cmp(x, x->p, y, y->p);
}

static const char *
cgroup_of(const struct whorow *rw)
{
	return rw->p->cgroup != NULL ? rw->p->cgroup : "-";
}

/* By cgroup (an entry without one first), then pid: a total order. */
static int
cmp_cgroup(const void *a, const void *b)
{
	const struct whorow *x = a, *y = b;
	const char *cx = x->p->cgroup ? x->p->cgroup : "";
	const char *cy = y->p->cgroup ? y->p->cgroup : "";
	int c = strcmp(cx, cy);

	if (c != 0)
		return c;
	return (x->p->pid > y->p->pid) - (x->p->pid < y->p->pid);
}

/* Sum the members of each cgroup of rows [0, n) into its first row. */
static size_t
sum_groups(const struct whocfg *c, struct whorow *rows, size_t n)
{
	size_t i, j, g;

	if (n > 1)
		qsort(rows, n, sizeof(*rows), cmp_cgroup);
	for (i = 0, g = 0; i < n; i = j) {
		struct whorow sum = rows[i];

		sum.cgroup = cgroup_of(&sum);
		for (j = i + 1; j < n &&
		    strcmp(sum.cgroup, cgroup_of(&rows[j])) == 0; j++) {
			ds_who_rate_add(&sum.r, &rows[j].r);
			sum.procs++;
		}
		if (!c->idle && !sum.r.active)
			continue;
		sum.p = NULL;
		values(&sum);
		rows[g++] = sum;
	}
	return g;
}

int
whorows_cgroups(const struct whocfg *c, const struct ds_procs *prev,
    const struct ds_procs *cur, struct whorows *out)
{
	struct whorow *r;
	size_t i, n = 0;

	if (cur->n > out->cap) {
		if ((r = calloc(cur->n, sizeof(*r))) == NULL)
			return -ENOMEM;
		free(out->r);
		out->r = r;
		out->cap = cur->n;
	}
	for (i = 0; i < cur->n; i++) {
		const struct ds_proc *p = &cur->p[i], *q = NULL;

		if (prev != NULL)
			q = ds_procs_find(prev, p->pid);
		if (make(c, 1, q, p, prev != NULL ? &prev->uptime_ns : NULL,
		    cur->uptime_ns, &out->r[n]))
			n++;
	}
	n = sum_groups(c, out->r, n);
	if (n > 1 && c->sorted)
		qsort(out->r, n, sizeof(*out->r), cmp_row);
	out->n = c->top > 0 && c->top < n ? (size_t)c->top : n;
	return 0;
}

void
whorows_free(struct whorows *rs)
{
	free(rs->r);
	rs->r = NULL;
	rs->n = rs->cap = 0;
}

const char *
who_command(const struct ds_proc *p, int cmdline, char *buf, size_t size,
    size_t *len)
{
	int n;

	if (!cmdline) {
		*len = p->comm_len;
		return p->comm;
	}
	if (p->cmdline != NULL) {
		*len = p->cmdline_len;
		return p->cmdline;
	}
	/* Kernel threads have no command line: ps(1) brackets. */
	n = snprintf(buf, size, "[%s]", p->comm);
	*len = n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
	return buf;
}

/*
 * Each compared through its own entry, wherever it lies: a pointer
 * from the row to it would name the element that was there before the
 * row moved (C11 7.22.5p4).
 */
static int
kept_cmp(const void *a, const void *b)
{
	const struct whokept *x = a, *y = b;

	return whorow_cmp(&x->rw, &x->p, &y->rw, &y->p);
}

int
whokept_offer(struct topn *t, uint64_t top, const struct whorow *rw,
    const struct ds_proc *p)
{
	struct whokept h, out;
	int e;

	if (t->size == 0)
		topn_init(t, sizeof(h), top, kept_cmp);
	h.rw = *rw;
	h.p = *p;
	h.p.cgroup = NULL;
	if (!topn_wants(t, &h))
		return 0;
	/* The scan frees its entry's command line after the call. */
	if (p->cmdline != NULL && (h.p.cmdline = strdup(p->cmdline)) == NULL)
		return -ENOMEM;
	if ((e = topn_offer(t, &h, &out)) < 0) {
		free(h.p.cmdline);
		return e;
	}
	if (e == 2)
		free(out.p.cmdline);
	return 0;
}

int
whokept_sort(struct topn *t)
{
	struct whokept *h;
	size_t i;
	int e;

	if ((e = topn_sort(t)) < 0)
		return e;
	h = t->v;
	for (i = 0; i < t->n; i++)
		h[i].rw.p = &h[i].p;
	return 0;
}

void
whokept_clear(struct topn *t)
{
	struct whokept *h = t->v;
	size_t i;

	for (i = 0; i < t->n; i++)
		free(h[i].p.cmdline);
	t->n = 0;
}
