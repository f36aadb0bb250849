/*
 * cmd/ddeleted/operands.c: --truncate's PID:FD, the mount point
 * operands, the filters they and -a, --min-size make; and the summary's
 * rows (summary.c) of the files the filters are then tried on.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "ddeleted/ddeleted.h"
#include "tap.h"

static struct ds_root fix;	/* "." */

static void
test_pidfd(void)
{
	int pid = 0, fd = -1;

	is_int(del_parse_pidfd("1234:5", &pid, &fd), 0, "1234:5");
	ok(pid == 1234 && fd == 5, "pid 1234, fd 5");
	is_int(del_parse_pidfd("1:0", &pid, &fd), 0, "fd 0 is a descriptor");
	is_int(fd, 0, "fd 0");
	is_int(del_parse_pidfd("0:3", &pid, &fd), -EINVAL, "pid 0: none");
	is_int(del_parse_pidfd("12", &pid, &fd), -EINVAL, "no colon");
	is_int(del_parse_pidfd("12:", &pid, &fd), -EINVAL, "no fd");
	is_int(del_parse_pidfd(":3", &pid, &fd), -EINVAL, "no pid");
	is_int(del_parse_pidfd("+1:3", &pid, &fd), -EINVAL, "a sign");
	is_int(del_parse_pidfd("1:-3", &pid, &fd), -EINVAL, "a negative fd");
	is_int(del_parse_pidfd("1:3x", &pid, &fd), -EINVAL, "trailing junk");
	is_int(del_parse_pidfd("2147483648:1", &pid, &fd), -EINVAL,
	    "pid past INT32_MAX");
}

/* The operands, the filters and the summary rows. */
static void
test_asked(void)
{
	struct ds_deleted d = { 0 };
	struct del_sumrows rs;
	struct del_want w[2];
	struct ds_delfile f[3];
	struct ds_delfs fs[2];

	/* Under a tree (not live), a relative operand is inside the tree. */
	is_int(del_want_stat(&fix, "t", &w[0]), 0, "operand t statted");
	ok(w[0].ok && w[0].abs == NULL && strcmp(w[0].path, "t") == 0,
	    "under a root: kept as given");
	ok(del_want_stat(&fix, "no-such-dir", &w[1]) == -ENOENT &&
	    !w[1].ok && strcmp(w[1].path, "no-such-dir") == 0,
	    "a missing operand: -ENOENT, its name kept");
	del_want_free(w, 2);

	memset(f, 0, sizeof(f));
	memset(fs, 0, sizeof(fs));
	fs[0].dev = 0x801;
	fs[0].have_statfs = 1;
	fs[0].frsize = 4096;
	fs[0].blocks = 1000;
	fs[0].bfree = 400;
	fs[0].bavail = 300;
	fs[1].dev = 0x802;
	f[0].pid = 1; f[0].ino = 5; f[0].blocks = 2048; f[0].dev = 0x801;
	f[1].pid = 2; f[1].ino = 6; f[1].blocks = 8; f[1].dev = 0x801;
	f[2].pid = 3; f[2].ino = 7; f[2].blocks = 4096; f[2].dev = 0x802;
	f[2].memory = 1; f[2].fs = 1;
	d.f = f;
	d.n = 3;
	d.fs = fs;
	d.nfs = 2;
	if ((fs[0].mount = ds_deleted_intern(&d, "/var", 4)) == DS_DEL_NONE)
		exit(1);
	fs[0].mount_len = 4;
	fs[0].fstype = DS_DEL_NONE;
	fs[1].mount = fs[1].fstype = DS_DEL_NONE;
	f[0].mount = f[1].mount = fs[0].mount;
	f[0].mount_len = f[1].mount_len = 4;
	f[2].mount = DS_DEL_NONE;

	is_int(del_sumrows(&fix, &d, NULL, 0, 0, &rs), 0, "sumrows");
	is_int(rs.n, 2, "a row per filesystem");
	if (rs.n == 2) {
		const struct del_sumrow *r = &rs.row[0];

		ok(r->mount != NULL && strcmp(r->mount, "/var") == 0 &&
		    r->fstype == NULL, "mount /var, fstype unknown");
		ok(r->have_df && r->size == 4096000 && r->used == 2457600 &&
		    r->avail == 1228800, "df's figures in bytes");
		is_u64(r->s.held, (2048 + 8) * 512ULL, "held");
		ok(!r->have_reach && !r->have_unexplained, "no du asked");
		ok(rs.row[1].mount == NULL && !rs.row[1].have_df,
		    "no mount: no df figures");
	}
	del_sumrows_free(&rs);

	memset(w, 0, sizeof(w));
	w[0].path = "/var";
	del_filter(&d, w, 1, 0, 1);
	is_int(d.n, 2, "operand /var by name: its two files");
	d.n = 3;
	del_filter(&d, NULL, 0, 1 << 20, 1);
	ok(d.n == 2 && d.f[0].pid == 1 && d.f[1].pid == 3,
	    "--min-size 1M: the two of 1 MiB and more");
	del_filter(&d, NULL, 0, 0, 0);
	ok(d.n == 1 && d.f[0].pid == 1, "memory-backed left out");
	ds_buf_free(&d.pool);
}

int
main(void)
{
	test_pidfd();
	if (ds_root_open(&fix, ".") < 0) {
		skip("the operands and the summary rows", "no root \".\"");
		return tap_done();
	}
	test_asked();
	ds_root_close(&fix);
	return tap_done();
}
