/*
 * The pressure share of a window, from two reads of a pressure file
 * (proc/pressure/io, a cgroup's io.pressure): the stall totals' growth
 * over the time between them; a single read gives its avg10.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

int
ds_psi_shares(const struct ds_psi *a, const struct ds_psi *b, uint64_t ns,
    struct ds_tr_psi *out)
{
	const unsigned some = 1u << DS_PSI_SOME, full = 1u << DS_PSI_FULL;

	memset(out, 0, sizeof(*out));
	if (!(b->have & some))
		return -ENODATA;
	if (a == NULL) {
		/* avg10 is hundredths of a percent over the last 10 s. */
		out->some = (double)b->line[DS_PSI_SOME].avg[0] / 100;
		if (b->have & full)
			out->full = (double)b->line[DS_PSI_FULL].avg[0] / 100;
		out->have = 1;
		return 0;
	}
	if (!(a->have & some) || ds_psi_share(a->line[DS_PSI_SOME].total,
	    b->line[DS_PSI_SOME].total, ns, &out->some) < 0)
		return -EINVAL;
	if ((a->have & b->have & full) != 0)
		(void)ds_psi_share(a->line[DS_PSI_FULL].total,
		    b->line[DS_PSI_FULL].total, ns, &out->full);
	out->have = 1;
	return 0;
}
