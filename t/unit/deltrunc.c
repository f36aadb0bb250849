/*
 * lib/deltrunc.c, what --truncate decides before it acts: its PID:FD
 * operand, and the verdict on a probed file (a regular file, deleted,
 * on disk, mapped by nobody, every process's maps read or root).
 * t/unit/deleted probes and truncates a file of its own for real.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"
#include "tap.h"

static void
test_pidfd(void)
{
	int pid = 0, fd = -1;

	is_int(ds_parse_pidfd("1234:5", &pid, &fd), 0, "1234:5");
	ok(pid == 1234 && fd == 5, "pid 1234, fd 5");
	is_int(ds_parse_pidfd("1:0", &pid, &fd), 0, "fd 0 is a descriptor");
	is_int(fd, 0, "fd 0");
	is_int(ds_parse_pidfd("0:3", &pid, &fd), -EINVAL, "pid 0: none");
	is_int(ds_parse_pidfd("12", &pid, &fd), -EINVAL, "no colon");
	is_int(ds_parse_pidfd("12:", &pid, &fd), -EINVAL, "no fd");
	is_int(ds_parse_pidfd(":3", &pid, &fd), -EINVAL, "no pid");
	is_int(ds_parse_pidfd("+1:3", &pid, &fd), -EINVAL, "a sign");
	is_int(ds_parse_pidfd("1:-3", &pid, &fd), -EINVAL, "a negative fd");
	is_int(ds_parse_pidfd("1:3x", &pid, &fd), -EINVAL, "trailing junk");
	is_int(ds_parse_pidfd("2147483648:1", &pid, &fd), -EINVAL,
	    "pid past INT32_MAX");
}

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
	test_pidfd();
	test_verdict();
	return tap_done();
}
