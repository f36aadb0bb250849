/* cmd/dxstat/columns.c: dxstat's columns, in ds_xstat's order. */
#include <stdio.h>
#include <string.h>

#include "dxstat/dxstat.h"
#include "tap.h"

int
main(void)
{
	const struct ds_col *c;
	size_t n, i;
	int prom = 1;

	c = dx_columns(&n);
	/* time, device, every figure of enum ds_xcol, in_flight. */
	is_int((int)n, DS_X_N + 3, "time, device, the figures, in_flight");
	is_str(c[0].name, "time", "time first");
	is_str(c[1].name, "device", "then device");
	is_int(c[1].prom, DS_P_LABEL, "device is the series' label");
	is_str(c[2 + DS_X_RS].name, "r/s", "r/s at DS_X_RS");
	is_str(c[2 + DS_X_WAREQSZ].name, "wareq-sz", "wareq-sz at DS_X_WAREQSZ");
	is_str(c[2 + DS_X_FAWAIT].name, "f_await", "f_await at DS_X_FAWAIT");
	is_str(c[2 + DS_X_UTIL].name, "%util", "%util at DS_X_UTIL");
	is_str(c[n - 1].name, "in_flight", "in_flight last");
	is_int(c[n - 1].type, DS_T_U64, "in_flight a count");
	for (i = 2; i < n; i++)
		if (c[i].prom != DS_P_GAUGE || c[i].metric == NULL ||
		    c[i].help == NULL)
			prom = 0;
	ok(prom, "every figure a gauge with a name and help");
	return tap_done();
}
