/*
 * A report per process or thread made while proc is scanned (dwho
 * without -g): of each scan nothing is stored but the compact base the
 * next report needs (ds_whobase) and, for an interval's report, the
 * names its rows show (ds_whonames).  Rows go to the caller as they are
 * made, or are kept to be sorted (ds_whokept_offer).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The row of p (q: its entry of the scan before, or NULL), out or kept. */
static int
entry_out(struct ds_whostream *s, const struct ds_proc *q,
    const struct ds_proc *p, uint64_t up)
{
	struct ds_whorow rw;
	int e;

	if (!ds_whorow_make(&s->cfg, q, p,
	    s->prev != NULL ? &s->prev->uptime_ns : NULL, up, &rw))
		return 0;
	if (s->cfg.sorted) {
		if ((e = ds_whokept_offer(&s->heap, s->cfg.top, &rw, p)) < 0)
			s->err = e;
		return e;
	}
	return s->row(&rw, s->arg);
}

/* An entry as it is read. */
static int
each_entry(const struct ds_procs *scan, const struct ds_proc *p, void *arg)
{
	struct ds_whostream *s = arg;
	const struct ds_proc *q = NULL;
	int e;

	if ((s->next != NULL && (e = ds_whobase_add(s->next, p)) < 0) ||
	    (s->late && (e = ds_whonames_add(&s->names, p,
	    s->cfg.cmdline)) < 0))
		return s->err = e;
	if (!s->reporting || s->late)
		return 0;
	if (s->prev != NULL)
		q = ds_whobase_find(s->prev, p->tgid, p->pid);
	return entry_out(s, q, p, scan->uptime_ns);
}

static int
keep(const struct ds_proc *p, void *arg)
{
	struct ds_whostream *s = arg;

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
late_rows(struct ds_whostream *s, uint64_t up)
{
	const struct ds_whobase *b = s->next;
	const struct ds_proc *q = NULL;
	struct ds_proc p;
	size_t off = 0;
	int e;

	while (off < b->len) {
		ds_whobase_get(b, &off, &p);
		ds_whonames_get(&s->names, &p, s->cfg.cmdline);
		if (s->prev != NULL)
			q = ds_whobase_find(s->prev, p.tgid, p.pid);
		if ((e = entry_out(s, q, &p, up)) != 0)
			return e;
	}
	return 0;
}

/* The kept rows, sorted, handed out, then forgotten. */
static int
kept_rows(struct ds_whostream *s)
{
	struct ds_whokept *h;
	size_t i;
	int e;

	if ((e = ds_whokept_sort(&s->heap)) < 0)
		return e;
	h = s->heap.v;
	/* A write error leaves the rest unwritten by the writer itself. */
	for (i = 0; i < s->heap.n; i++)
		s->row(&h[i].rw, s->arg);
	ds_whokept_clear(&s->heap);
	return 0;
}

int
ds_whostream_scan(const struct ds_root *r, struct ds_whostream *s,
    int report, int more, struct ds_procs *scan)
{
	int e;

	memset(scan, 0, sizeof(*scan));
	s->next = NULL;
	s->err = 0;
	if (more) {
		s->next = s->prev == &s->bases[0] ? &s->bases[1] :
		    &s->bases[0];
		ds_whobase_reset(s->next);
	}
	if (s->prev != NULL)
		ds_whobase_rewind(s->prev);
	s->reporting = report;
	s->late = report && more;
	ds_whonames_reset(&s->names);
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
ds_whostream_free(struct ds_whostream *s)
{
	ds_whobase_free(&s->bases[0]);
	ds_whobase_free(&s->bases[1]);
	ds_whonames_free(&s->names);
	ds_whokept_clear(&s->heap);
	ds_topn_free(&s->heap);
	s->prev = s->next = NULL;
}
