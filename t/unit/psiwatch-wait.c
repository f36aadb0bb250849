/*
 * lib/psiwatch.c, struct ds_psi_wait: with an armed trigger (fd >= 0)
 * an event counts as ds_psi_armed does (the stall since the baseline
 * first, then any); without one (fd -1) as ds_psi_window does; a
 * deadline already passed ends the wait in either way.
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"

#define MS 1000000ull

int
main(void)
{
	struct ds_psi_trigger tr = { DS_PSI_IO, DS_PSI_SOME, 100000, 1000000 };
	struct ds_psi_wait pw;
	uint64_t now = ds_boottime_ns();
	int p[2];

	ds_psi_wait_init(&pw, -1, &tr, 1000, now);
	is_int(pw.fd, -1, "sampling");
	is_u64(pw.win.period_ns, 100 * MS, "a tenth of the window");
	is_int(ds_psi_wait_add(&pw, 50000, now + 100 * MS), 0, "short of it");
	is_int(ds_psi_wait_add(&pw, 101000, now + 200 * MS), 1,
	    "the stall within the window");
	is_int(ds_psi_wait_next(&pw, 1), 0, "sampling: deadline passed");

	if (pipe(p) != 0)
		return 1;
	ds_psi_wait_init(&pw, p[0], &tr, 1000, now);
	is_int(pw.fd, p[0], "armed");
	is_int(ds_psi_wait_add(&pw, 50000, 0), 0, "first: short of the stall");
	is_int(ds_psi_wait_add(&pw, 101000, 0), 1, "first: the stall");
	is_int(ds_psi_wait_add(&pw, 101001, 0), 1, "later: any stall");
	is_int(ds_psi_wait_add(&pw, 101001, 0), 0, "later: none");
	is_int(ds_psi_wait_next(&pw, ds_boottime_ns() + 20 * MS), 0,
	    "armed: no event by the deadline");
	close(p[0]);
	close(p[1]);
	return tap_done();
}
