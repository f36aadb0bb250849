/*
 * What a run says on standard error: the -g source, damaged files,
 * delay accounting off and refused counters, each note once.
 */
#include <stdio.h>

#include "dwho/dwho.h"

/* Each note once: 1 when bit is yet to be said. */
static int
unsaid(struct whonotes *n, int bit)
{
	return !(n->said & bit) && (n->said |= bit);
}

int
who_note(struct whonotes *n, int root, char *msg, size_t size)
{
	if (n->source != NULL && unsaid(n, 1))
		snprintf(msg, size, "%s", n->source);
	else if (n->bad > 0 && n->bad_iostat && unsaid(n, 2))
		snprintf(msg, size, "%zu malformed io.stat %s skipped", n->bad,
		    n->bad == 1 ? "line" : "lines");
	else if (n->bad > 0 && unsaid(n, 2))
		snprintf(msg, size, "%zu malformed proc/PID/stat or io %s "
		    "(first: pid %d): shown as - or skipped", n->bad,
		    n->bad == 1 ? "file" : "files", n->first_bad);
	else if (n->off_delay && unsaid(n, 4))
		snprintf(msg, size, "delay accounting is off, %%iodelay is -: "
		    "enable it with 'sysctl kernel.task_delayacct=1' or the "
		    "'delayacct' boot option; only tasks started after enabling "
		    "it are accounted");
	/*
	 * Unprivileged, other users' io files are closed to us; as root,
	 * only processes that refuse ptrace access (another user
	 * namespace's init, say) remain.
	 */
	else if (n->unreadable > 0 && unsaid(n, 8))
		snprintf(msg, size, "I/O counters of %zu %s unreadable (%s): "
		    "their byte and syscall columns are -", n->unreadable,
		    n->unreadable == 1 ? "process are" : "processes are",
		    root ? "/proc/PID/io refused even to root" :
		    "other users' /proc/PID/io needs root");
	else
		return 0;
	return 1;
}

void
who_note_scan(struct whonotes *n, const struct ds_procs *ps,
    int report)
{
	if (ps->bad > 0 && n->bad == 0) {
		n->bad = ps->bad;
		n->first_bad = ps->first_bad;
	}
	if (report && ps->unreadable > n->unreadable)
		n->unreadable = ps->unreadable;
}

void
who_note_cgios(struct whonotes *n, const struct ds_cgios *cs)
{
	if (cs->bad > 0 && n->bad == 0) {
		n->bad = cs->bad;
		n->bad_iostat = 1;
	}
}
