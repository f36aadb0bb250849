/*
 * The inputs of the judgement gathered over the window: the processes'
 * rates from two scans.
 */
#include "util/util.h"
#include "dtriage/dtriage.h"

/*
 * Rows of the processes of scan b that did something since scan a over
 * secs (ds_who_rate; a process not in a started in the window; secs 0:
 * each process over its own life, for a single scan).  *out is
 * allocated (free it); its comm pointers point into b.
 */
int
proc_rows(const struct ds_procs *a, const struct ds_procs *b, double secs,
    long clk_tck, int delay, struct ds_tr_proc **out, size_t *n)
{
	struct ds_tr_proc *p;
	size_t i;

	*out = NULL;
	*n = 0;
	if (b->n == 0)
		return 0;
	if ((p = calloc(b->n, sizeof(*p))) == NULL)
		return -ENOMEM;
	for (i = 0; i < b->n; i++) {
		const struct ds_proc *c = &b->p[i];
		struct ds_tr_proc *t = &p[*n];

		/*
		 * Not in the first scan: born in the window, all of it inside.
		 * secs 0: one scan (a captured tree), each over its own life.
		 */
		ds_who_rate(ds_procs_find(a, c->pid), c, secs > 0 ? secs :
		    ds_proc_age(c, b->uptime_ns, clk_tck), clk_tck, delay,
		    &t->rate);
		if (!t->rate.active)
			continue;
		t->pid = c->pid;
		t->comm = c->comm;
		/* Kernel threads have an empty cmdline (read with DS_WHO_CMDLINE). */
		t->kthread = c->cmdline == NULL;
		(*n)++;
	}
	*out = p;
	return 0;
}
