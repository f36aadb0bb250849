/*
 * A report per process or thread made while proc is scanned (all but
 * -g): of each scan nothing is stored but the compact base the next
 * report needs (whobase) and, for an interval's report, the names its
 * rows show (whonames).  Rows go to the caller as they are made, or are
 * kept to be sorted (whokept_offer).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dwho/dwho.h"

unsigned int
whostream_setup(struct whostream *st, const struct whosel *sel,
    unsigned int flags, int idle, int key, int key_set, uint64_t top, int prom)
{
	long tck = sysconf(_SC_CLK_TCK);
	int thread = (flags & DS_WHO_THREADS) != 0;
	int group = (flags & DS_WHO_CGROUP) != 0;

	/* -n alone: the heaviest block-layer users first. */
	if (top > 0 && !key_set) {
		key = WV_TOTAL;
		key_set = 1;
	}
	st->flags = flags | (sel->cmdline ? DS_WHO_CMDLINE : 0);
	st->pids = sel->pl.pid;
	st->npids = sel->pl.n;
	st->cfg = (struct whocfg){ tck > 0 ? tck : 100, 0, idle, key,
	    key_set || thread, top, sel->cmdline };
	/* prom per process or thread: counters since each started. */
	return (thread ? WHOCOL_THREAD : 0) | (group ? WHOCOL_GROUP : 0) |
	    (prom && !group ? WHOCOL_COUNTERS : 0);
}

int
whostream_delay(const struct ds_root *r, struct whostream *st)
{
	struct ds_buf b = { 0 };
	int e = ds_delayacct_read(r, &b);

	ds_buf_free(&b);
	/* Before 5.14 there is no switch: accounting is taken to be on. */
	st->cfg.delay = e == -ENOENT ? 1 : e > 0;
	st->flags = st->cfg.delay ? st->flags | DS_WHO_DELAY :
	    st->flags & ~DS_WHO_DELAY;
	return st->cfg.delay;
}

/* The row of p (q: its entry of the scan before, or NULL), out or kept. */
static int
entry_out(struct whostream *s, const struct ds_proc *q,
    const struct ds_proc *p, uint64_t up)
{
	struct whorow rw;
	int e;

	if (!whorow_make(&s->cfg, q, p,
	    s->prev != NULL ? &s->prev->uptime_ns : NULL, up, &rw))
		return 0;
	if (s->cfg.sorted) {
		if ((e = whokept_offer(&s->heap, s->cfg.top, &rw, p)) < 0)
			s->err = e;
		return e;
	}
	return s->row(&rw, s->arg);
}

/* An entry as it is read. */
static int
each_entry(const struct ds_procs *scan, const struct ds_proc *p, void *arg)
{
	struct whostream *s = arg;
	const struct ds_proc *q = NULL;
	int e;

	if ((s->next != NULL && (e = whobase_add(s->next, p)) < 0) ||
	    (s->late && (e = whonames_add(&s->names, p,
	    s->cfg.cmdline)) < 0))
		return s->err = e;
	if (!s->reporting || s->late)
		return 0;
	if (s->prev != NULL)
		q = whobase_find(s->prev, p->tgid, p->pid);
	return entry_out(s, q, p, scan->uptime_ns);
}

static int
keep(const struct ds_proc *p, void *arg)
{
	struct whostream *s = arg;

	return s->keep == NULL || s->keep(p, s->arg);
}

/*
 * The rows of an interval's report, from the bases of this scan and the
 * one before, once the scan is over.  Rows written while it ran would
 * let a slow reader of the output hold it up, and the counters of the
 * processes read after the wait would take I/O from beyond the interval
 * measured (from proc/uptime at its start) into their rates.
 */
static int
late_rows(struct whostream *s, uint64_t up)
{
	const struct whobase *b = s->next;
	const struct ds_proc *q = NULL;
	struct ds_proc p;
	size_t off = 0;
	int e;

	while (off < b->len) {
		whobase_get(b, &off, &p);
		whonames_get(&s->names, &p, s->cfg.cmdline);
		if (s->prev != NULL)
			q = whobase_find(s->prev, p.tgid, p.pid);
		if ((e = entry_out(s, q, &p, up)) != 0)
			return e;
	}
	return 0;
}

/* The kept rows, sorted, handed out, then forgotten. */
static int
kept_rows(struct whostream *s)
{
	struct whokept *h;
	size_t i;
	int e;

	if ((e = whokept_sort(&s->heap)) < 0)
		return e;
	h = s->heap.v;
	/* A write error leaves the rest unwritten by the writer itself. */
	for (i = 0; i < s->heap.n; i++)
		s->row(&h[i].rw, s->arg);
	whokept_clear(&s->heap);
	return 0;
}

int
whostream_scan(const struct ds_root *r, struct whostream *s,
    int report, int more, struct ds_procs *scan)
{
	int e;

	memset(scan, 0, sizeof(*scan));
	s->next = NULL;
	s->err = 0;
	if (more) {
		s->next = s->prev == &s->bases[0] ? &s->bases[1] :
		    &s->bases[0];
		whobase_reset(s->next);
	}
	if (s->prev != NULL)
		whobase_rewind(s->prev);
	s->reporting = report;
	s->late = report && more;
	whonames_reset(&s->names);
	e = ds_procs_each(r, s->flags, s->pids, s->npids, keep, each_entry, s,
	    scan);
	if (s->err < 0)
		return s->err;
	if (e < 0)
		return e;
	if (s->late && (e = late_rows(s, scan->uptime_ns)) < 0)
		return s->err = e;
	if (report && (e = kept_rows(s)) < 0)
		return s->err = e;
	if (s->next != NULL) {
		s->next->uptime_ns = scan->uptime_ns;
		s->prev = s->next;
	}
	return 0;
}

void
whostream_free(struct whostream *s)
{
	whobase_free(&s->bases[0]);
	whobase_free(&s->bases[1]);
	whonames_free(&s->names);
	whokept_clear(&s->heap);
	topn_free(&s->heap);
	s->prev = s->next = NULL;
}
