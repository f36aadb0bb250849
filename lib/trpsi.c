/*
 * The judgement's rules of pressure and waiting tasks: io and memory
 * PSI, the tasks in an I/O wait (procs_blocked) and CPU iowait.
 */
#include <errno.h>
#include <math.h>

#include "triage.h"

#define BLOCKED_WARN	4.0	/* procs_blocked mean: a pile-up */

int
ds_tr_psi_rows(const struct ds_triage_in *in, struct ds_findings *out)
{
	struct ds_finding *f;
	enum ds_tr_sev s;

	if (!in->io.have) {
		if ((f = ds_tr_add(out, DS_TR_INFO, "psi-unavailable", "io",
		    NAN, "ratio")) == NULL)
			return -ENOMEM;
		ds_tr_say(f->evidence, sizeof(f->evidence), "PSI cannot be "
		    "read: whether I/O holds tasks up is not known (boot with "
		    "psi=1)");
		ds_tr_say(f->next, sizeof(f->next), "dpsi -r io 10 1");
	} else {
		int uring = ds_tr_uring_only_in(in);

		s = in->io.full >= PSI_CRIT_FULL ? DS_TR_CRIT :
		    in->io.some >= PSI_WARN ? DS_TR_WARN :
		    in->io.some >= PSI_INFO ? DS_TR_INFO : DS_TR_OK;
		/* io_uring's idle waits are iowait, not a disk's stall. */
		if (uring && s > DS_TR_INFO)
			s = DS_TR_INFO;
		if ((f = ds_tr_add(out, s, "io-pressure", "io",
		    in->io.some / 100, "ratio")) == NULL)
			return -ENOMEM;
		ds_tr_say(f->evidence, sizeof(f->evidence),
		    "some %.1f%%, full %.1f%% of the %s%s", in->io.some,
		    in->io.full, in->since_boot ?
		    "last 10 s (avg10: a captured tree)" : "window",
		    uring ? ": tasks waited in io_uring with no block I/O in "
		    "flight, which the kernel counts as I/O; no disk held them" :
		    s == DS_TR_OK ? ": I/O holds nothing up" :
		    ": tasks stalled on I/O");
		ds_tr_say(f->next, sizeof(f->next), "dpsi -r io 10 1");
	}
	if (in->mem.have && in->mem.some >= PSI_INFO) {
		s = in->mem.full >= PSI_CRIT_FULL ? DS_TR_CRIT :
		    in->mem.some >= PSI_WARN ? DS_TR_WARN : DS_TR_INFO;
		if ((f = ds_tr_add(out, s, "memory-pressure", "memory",
		    in->mem.some / 100, "ratio")) == NULL)
			return -ENOMEM;
		ds_tr_say(f->evidence, sizeof(f->evidence), "some %.1f%%, full "
		    "%.1f%%: reclaim and refaults make I/O of their own",
		    in->mem.some, in->mem.full);
		ds_tr_say(f->next, sizeof(f->next), "dpsi -r memory 10 1");
	}
	return 0;
}

int
ds_tr_task_rows(const struct ds_triage_in *in, struct ds_findings *out)
{
	struct ds_finding *f;
	double sum = 0, mean, warn;
	uint32_t max = 0;
	size_t i;

	for (i = 0; i < in->nblocked; i++) {
		sum += in->blocked[i];
		if (in->blocked[i] > max)
			max = in->blocked[i];
	}
	if (in->nblocked > 0 && max > 0) {
		struct stalls st;

		ds_tr_stalls_sum(in, &st);
		mean = sum / (double)in->nblocked;
		warn = in->ncpus > BLOCKED_WARN ? in->ncpus : BLOCKED_WARN;
		if ((f = ds_tr_add(out, mean >= warn && !ds_tr_uring_only(&st) ?
		    DS_TR_WARN : DS_TR_INFO, "procs-blocked", "-", mean,
		    "count")) == NULL)
			return -ENOMEM;
		ds_tr_say(f->evidence, sizeof(f->evidence), "%.1f tasks in an "
		    "I/O wait on average, %u at most, over %zu samples "
		    "(vmstat's b: the kernel's iowait tasks, in D or in "
		    "io_uring's wait in S)", mean, max, in->nblocked);
		if (in->nlooks > 0)
			ds_tr_more(f->evidence, sizeof(f->evidence), "; at %zu "
			    "looks on average %.1f in block I/O, %.1f waiting "
			    "for a slot, %.1f in io_uring with no disk I/O, "
			    "%.1f held by the dirty limit, %.1f on network or "
			    "FUSE files", in->nlooks, (double)st.disk /
			    (double)in->nlooks, (double)st.tag /
			    (double)in->nlooks, (double)st.uring /
			    (double)in->nlooks, (double)st.dirty /
			    (double)in->nlooks, (double)st.netfs /
			    (double)in->nlooks);
		ds_tr_say(f->next, sizeof(f->next),
		    "dwho -s %%iodelay -n 10 5 1");
	}
	if (in->have_iowait) {
		if ((f = ds_tr_add(out, DS_TR_INFO, "iowait", "cpu",
		    in->iowait_pct / 100, "ratio")) == NULL)
			return -ENOMEM;
		ds_tr_say(f->evidence, sizeof(f->evidence), "CPU iowait "
		    "%.1f%%: idle time while I/O was outstanding; it falls "
		    "when the CPUs are busy, so it measures neither the disk "
		    "nor the wait", in->iowait_pct);
		ds_tr_say(f->next, sizeof(f->next), "dpsi -r io 10 1");
	}
	return 0;
}
