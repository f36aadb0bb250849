/*
 * dlat's tracing: started on the disks picked (or why not, as precisely
 * as the kernel lets us say), read, and slept on with the issue map
 * tended.
 */
#include "dlat.h"

/*
 * Why tracing could not start, e the error of ds_blklat_probe, _open
 * or _attach: the step (b->what), and for a refusal the verifier (its
 * log in b->log), lockdown (its mode) or the capabilities missing.
 */
static void
why_not(const struct dl *d, int e, char *buf, size_t size)
{
	const struct ds_blklat *b = &d->b;
	const char *what = b->what != NULL ? b->what : "bpf";
	char mode[32];

	if (e == -EACCES && b->log != NULL && b->log[0] != '\0')
		snprintf(buf, size, "%s: refused by the verifier (its log above)",
		    what);
	else if ((e == -EPERM || e == -EACCES) &&
	    ds_lockdown_mode(&d->t.r, mode, sizeof(mode)) == 0 &&
	    strcmp(mode, "none") != 0)
		snprintf(buf, size, "%s: %s: refused by kernel lockdown (%s)",
		    what, strerror(-e), mode);
	else if (e == -EPERM || e == -EACCES)
		snprintf(buf, size, "%s: %s: needs CAP_BPF and CAP_PERFMON "
		    "(or root)", what, strerror(-e));
	else if (e == -EPROTO)
		snprintf(buf, size, "%s: its format lacks a field dlat reads, "
		    "or has it where no program may read it", what);
	else
		snprintf(buf, size, "%s: %s", what, strerror(-e));
}

/* Say why tracing could not start, the verifier's log first. */
static _Noreturn void
open_fail(struct dl *d, int e)
{
	char msg[256];

	if (e == -EACCES && d->b.log != NULL && d->b.log[0] != '\0')
		fprintf(stderr, "%s", d->b.log);
	why_not(d, e, msg, sizeof(msg));
	errx(1, "%s", msg);
}

void
dlat_start(struct dl *d)
{
	size_t ndevs;
	int e;

	/* The TSV header at once: an unwritable output fails now. */
	if (d->t.fmt == DS_FMT_TSV && d->t.outfile == NULL &&
	    (e = ds_w_report_end(&d->w)) < 0)
		tool_errc(1, e, "write error");
	if ((e = ds_blklat_probe()) < 0)
		open_fail(d, e);
	dlat_disks_pick(d, &ndevs);
	ds_blklat_init(&d->b);
	d->b.slow_ns = d->slow_ns;
	if ((e = ds_blklat_open(&d->b, (d->who ? DS_BLKLAT_WHO : 0) |
	    (d->slow ? DS_BLKLAT_SLOW : 0) | (d->cg ? DS_BLKLAT_CGROUP : 0) |
	    d->phases, ndevs, d->ndisk)) < 0)
		open_fail(d, e);
	if ((e = ds_blklat_add_disks(&d->b, &d->t.r, d->disk, d->ndisk)) < 0)
		tool_errc(1, e, "device map");
	if ((e = ds_blklat_attach(&d->b)) < 0)
		open_fail(d, e);
	/* Unreadable: cgroups are named by their ids ("#ID"). */
	if (d->cg || d->slow) {
		d->ids_ns = ds_boottime_ns();
		(void)ds_cgids_read(&d->t.r, &d->ids);
	}
}

void
dlat_take(struct dl *d, const struct ds_blklat_snap *prev,
    struct ds_blklat_snap *s)
{
	int e;

	if ((e = ds_blklat_take(&d->b, &d->t.r, d->disk, d->ndisk, prev,
	    s)) < 0)
		tool_errc(1, e, "reading the maps");
}

/*
 * Until the CLOCK_BOOTTIME deadline, ds_blklat_tend every second on the
 * way.  0; -EINTR when a signal came first; ds_blklat_tend's error.
 */
static int
sleep_tending(struct ds_blklat *b, uint64_t deadline_ns)
{
	uint64_t step;
	int e;

	for (;;) {
		step = ds_boottime_ns() + 1000000000u;
		if ((e = ds_sleep_until(step < deadline_ns ? step :
		    deadline_ns)) < 0 || (e = ds_blklat_tend(b)) < 0)
			return e;
		if (step >= deadline_ns)
			return 0;
	}
}

/*
 * Until deadline, the maps tended on the way; a signal ends it early.
 * With -g the cgroups are read again each second: one that ends before
 * the report is still named in it.
 */
void
dlat_nap(struct dl *d, uint64_t deadline)
{
	uint64_t step;
	int e;

	do {
		step = ds_boottime_ns() + 1000000000u;
		if (!d->cg || step > deadline)
			step = deadline;
		e = sleep_tending(&d->b, step);
		if (d->cg) {
			d->ids_ns = ds_boottime_ns();
			(void)ds_cgids_read(&d->t.r, &d->ids);
		}
	} while (e == 0 && step < deadline);
	if (e < 0 && e != -EINTR)
		tool_errc(1, e, "reading the maps");
}
