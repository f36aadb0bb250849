/*
 * dxstat's row: a device's cells from two of its lines, the iostat -x
 * figures of ds_xstat_compute in the order of dx_columns.
 */
#include "dxstat.h"

int
dx_row(struct ds_writer *w, const struct ds_disk *p, const struct ds_disk *c,
    const char *name, uint64_t interval_ns, uint64_t time_ns, int busy_only)
{
	uint64_t d[DS_NCOUNTERS];
	struct ds_xstat xs;
	uint32_t have;
	int j;

	/* A wrap or a reset is in d already: the row is the same. */
	(void)ds_disk_delta(p, c, d, &have);
	ds_xstat_compute(d, have, interval_ns, &xs);
	if (busy_only && xs.completed == 0)
		return 0;
	if (time_ns != 0)
		ds_w_time(w, time_ns);
	else
		ds_w_null(w);
	ds_w_str(w, name != NULL ? name : c->name);
	for (j = 0; j < DS_X_N; j++) {
		if ((xs.have >> j) & 1u)
			ds_w_f(w, xs.v[j]);
		else
			ds_w_null(w);
	}
	/* A gauge: the value now, not an increment. */
	if (DS_HAVE(c, DS_IN_FLIGHT))
		ds_w_u64(w, c->v[DS_IN_FLIGHT]);
	else
		ds_w_null(w);
	/* A failure is kept in w, and told when the report ends. */
	(void)ds_w_row_end(w);
	return 1;
}
