/*
 * lib/deltrunc.c, what a truncation decides before it acts: the verdict
 * on a probed file (a regular file, deleted, on disk, mapped by nobody,
 * every process's maps read or root).  t/unit/deleted probes and
 * truncates a file of its own for real.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"
#include "tap.h"

static void
test_verdict(void)
{
	struct ds_delprobe p;

	memset(&p, 0, sizeof(p));
	p.regular = 1;
	is_int(ds_deltrunc_verdict(&p, 0), DS_TRUNC_GO, "deleted, on disk, "
	    "unmapped: go");
	p.map.unreadable = 2;
	is_int(ds_deltrunc_verdict(&p, 0), DS_TRUNC_MAPS_UNREAD,
	    "maps unread, not root: refused");
	is_int(ds_deltrunc_verdict(&p, 1), DS_TRUNC_GO,
	    "maps unread by root (protected processes): go, told");
	p.map.mapped = DS_MAPPED_MAYBE;
	is_int(ds_deltrunc_verdict(&p, 1), DS_TRUNC_MAPPED_MAYBE,
	    "an inode of that number mapped: refused");
	p.map.mapped = DS_MAPPED;
	is_int(ds_deltrunc_verdict(&p, 1), DS_TRUNC_MAPPED, "mapped: refused");
	p.memory = 1;
	is_int(ds_deltrunc_verdict(&p, 1), DS_TRUNC_MEMORY,
	    "memory-backed: refused first");
	p.nlink = 1;
	is_int(ds_deltrunc_verdict(&p, 1), DS_TRUNC_LINKED,
	    "still linked: refused before that");
	p.regular = 0;
	is_int(ds_deltrunc_verdict(&p, 1), DS_TRUNC_NOT_REGULAR,
	    "not a regular file: refused before all");
}

int
main(void)
{
	test_verdict();
	return tap_done();
}
