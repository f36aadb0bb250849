/* The unit tests of the judgement: a window's figures built by hand. */
#ifndef T_UNIT_TRIAGE_H
#define T_UNIT_TRIAGE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tap.h"

static struct ds_findings out;

/* The first row of finding (and subject, if not NULL), or NULL. */
static inline const struct ds_finding *
row(const char *finding, const char *subject)
{
	size_t i;

	for (i = 0; i < out.n; i++)
		if (strcmp(out.f[i].finding, finding) == 0 &&
		    (subject == NULL || strcmp(out.f[i].subject, subject) == 0))
			return &out.f[i];
	return NULL;
}

static inline size_t
count(const char *finding)
{
	size_t i, n = 0;

	for (i = 0; i < out.n; i++)
		n += strcmp(out.f[i].finding, finding) == 0;
	return n;
}

static inline int
has_text(const struct ds_finding *f, const char *s)
{
	return f != NULL && strstr(f->evidence, s) != NULL;
}

static inline void
dump(void)
{
	size_t i;

	for (i = 0; i < out.n; i++)
		printf("#   %s %s %s %g %s | %s\n",
		    ds_tr_sev_name(out.f[i].sev), out.f[i].finding,
		    out.f[i].subject, out.f[i].value, out.f[i].evidence,
		    out.f[i].next);
}

static inline void
fig(struct ds_xstat *x, int i, double v)
{
	x->v[i] = v;
	x->have |= 1u << i;
}

/* A device with every figure known and zero. */
static inline void
dev_init(struct ds_tr_dev *d, const char *name)
{
	int i;

	memset(d, 0, sizeof(*d));
	d->name = name;
	for (i = 0; i < DS_X_N; i++)
		fig(&d->x, i, 0);
	d->rotational = 0;
	d->nomerges = 0;
	d->virt = 0;
	d->sched = "none";
	d->nr_requests = 256;
	d->nr_hw_queues = 1;
}

/* r readers/s at await ms, queue aqu, %util util, over window s. */
static inline void
reads(struct ds_tr_dev *d, double rs, double await, double aqu, double util,
    double window)
{
	fig(&d->x, DS_X_RS, rs);
	fig(&d->x, DS_X_RKBS, rs * 4);
	fig(&d->x, DS_X_RAREQSZ, 4);
	fig(&d->x, DS_X_RAWAIT, await);
	fig(&d->x, DS_X_AQUSZ, aqu);
	fig(&d->x, DS_X_UTIL, util);
	d->x.completed = (uint64_t)(rs * window);
}

static inline void
in_init(struct ds_triage_in *in, double some)
{
	memset(in, 0, sizeof(*in));
	in->window_s = 10;
	in->io.have = 1;
	in->io.some = some;
	in->io.full = some / 2;
	in->mem.have = 1;
	in->delayacct = 1;
	in->ncpus = 2;
	in->base_dir = "/var/lib/diskstat";
}

/* A process with block reads rd and iodelay share delay. */
static inline void
proc(struct ds_tr_proc *p, int pid, const char *comm, double rd, double delay)
{
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->comm = comm;
	p->rate.v[DS_WR_READ] = rd;
	p->rate.v[DS_WR_RCHAR] = rd;
	p->rate.v[DS_WR_SYSCR] = rd / 4096;
	p->rate.v[DS_WR_DELAY] = delay;
	p->rate.have = (1u << DS_WR_READ) | (1u << DS_WR_RCHAR) |
	    (1u << DS_WR_SYSCR) | (1u << DS_WR_WRITE) | (1u << DS_WR_WCHAR) |
	    (1u << DS_WR_SYSCW) | (1u << DS_WR_CANCELLED) | (1u << DS_WR_DELAY);
	p->rate.active = 1;
}

static inline int
run(const struct ds_triage_in *in)
{
	int e = ds_triage(in, &out);

	if (e < 0)
		printf("# ds_triage: %d\n", e);
	/* TRIAGE_DUMP=1 shows the rows of every run. */
	if (getenv("TRIAGE_DUMP") != NULL)
		dump();
	return e;
}


#endif
