/* cmd/ddeleted/columns.c: the column tables of ddeleted's three reports. */
#include <stdio.h>
#include <string.h>

#include "ddeleted/ddeleted.h"
#include "tap.h"

int
main(void)
{
	const struct ds_col *c, *s;
	size_t n, m;

	c = del_columns(DEL_COLS_LIST, &n);
	is_int((int)n, 12, "the listing: 12 columns");
	is_str(c[0].name, "pid", "pid first");
	is_str(c[n - 1].name, "path", "path last");
	s = del_columns(DEL_COLS_SUM, &n);
	c = del_columns(DEL_COLS_SUM_DU, &m);
	ok(s == c, "the summary and --du's share one table");
	is_int((int)n, 8, "the summary: 8 columns");
	is_int((int)m, 10, "with --du: 2 more");
	is_str(c[n].name, "reachable", "reachable after holders");
	is_str(c[m - 1].name, "unexplained", "unexplained last");
	is_int(c[m - 1].type, DS_T_I64, "unexplained can be negative");
	is_int(c[0].prom, DS_P_LABEL, "mount is a label");
	c = del_columns(DEL_COLS_TRUNC, &n);
	is_int((int)n, 5, "--truncate: 5 columns");
	is_str(c[3].name, "freed", "freed before path");
	return tap_done();
}
