/*
 * Reports read line by line: the rows of a sample that holds still (a
 * file, not procfs), each with its line in an earlier snapshot file
 * read along, so that memory stays one line's whatever the number of
 * devices.
 */
#include <string.h>

#include "internal.h"

void
ds_rows_init(struct ds_rows *rs, struct ds_lines *l, struct ds_older *o,
    const char *what)
{
	memset(rs, 0, sizeof(*rs));
	rs->l = l;
	rs->o = o;
	rs->what = what;
}

int
ds_rows_next(struct ds_rows *rs, struct ds_pair *pr, struct ds_disk *c,
    const struct ds_disk **p)
{
	int e;

	*p = NULL;
	for (;;) {
		rs->failed = rs->what;
		if ((e = ds_diskstats_next(rs->l, c, &rs->bad)) < 0)
			return e;
		if (e == 0)
			break;
		if (rs->o == NULL) {
			rs->i++;
			return 1;
		}
		/* Every device, shown or not, keeps o in step. */
		rs->failed = rs->o->what;
		if ((e = ds_older_pair(rs->o, pr, c, rs->i, rs->l->lineno,
		    p)) < 0)
			return e;
		if (e == 0) {
			rs->i++;
			return 1;
		}
		/* Listed again: not a row. */
	}
	/* The rest of the earlier file, for its damaged lines. */
	if (rs->o != NULL) {
		rs->failed = rs->o->what;
		if ((e = ds_older_read(rs->o, pr, NULL, p)) < 0)
			return e;
		*p = NULL;
	}
	rs->failed = NULL;
	return 0;
}
