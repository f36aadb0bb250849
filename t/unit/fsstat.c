/* statfs of a directory below the root, and df's Use% and IUse%. */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/statfs.h>

#include "internal.h"
#include "tap.h"

int
main(void)
{
	struct ds_fsstat s;
	struct ds_root r;
	struct statfs sf;

	memset(&s, 0, sizeof(s));
	s.frsize = 4096;
	s.blocks = 1000;
	s.bfree = 150;
	s.bavail = 100;
	s.files = 200;
	s.ffree = 50;
	is_u64(ds_fs_size(&s), 4096000, "size: blocks x frsize");
	is_u64(ds_fs_used(&s), 850 * 4096, "used: blocks - bfree");
	is_u64(ds_fs_avail(&s), 100 * 4096, "avail: bavail, not bfree");
	/* 850 / (850 + 100), as df: the reserve counts as used. */
	is_int((int)(ds_fs_use(&s) * 10000 + 0.5), 8947, "Use% 89.47");
	is_int((int)(ds_fs_iuse(&s) * 100 + 0.5), 75, "IUse% 75");
	s.bavail = 0;
	is_int((int)(ds_fs_use(&s) * 100 + 0.5), 100,
	    "bavail 0 with bfree left: 100%");
	s.files = 0;
	ok(ds_fs_iuse(&s) < 0, "no inode counts (btrfs): -1");
	s.blocks = s.bfree = s.bavail = 0;
	is_int((int)(ds_fs_use(&s) * 100), 0, "empty: 0");
	s.blocks = UINT64_MAX / 2;
	s.frsize = 4096;
	is_u64(ds_fs_size(&s), UINT64_MAX, "a corrupt size saturates");

	is_int(ds_root_open(&r, "/"), 0, "root /");
	is_int(ds_fsstat_read(&r, "/", &s), 0, "statfs of /");
	is_int(statfs("/", &sf), 0, "statfs(2) of / for comparison");
	is_u64(s.blocks, (uint64_t)sf.f_blocks, "blocks as statfs(2)");
	is_u64(s.files, (uint64_t)sf.f_files, "inodes as statfs(2)");
	is_u64(s.magic, (uint64_t)sf.f_type, "f_type");
	ok(s.dev != 0, "st_dev");
	is_int(ds_fsstat_read(&r, "proc", &s), 0, "statfs of proc");
	is_u64(s.magic, 0x9fa0, "proc's magic");
	is_int(ds_fsstat_read(&r, "no/such/dir", &s), -ENOENT, "missing: -ENOENT");
	is_int(ds_fsstat_read(&r, "proc/self/status", &s), -ENOTDIR,
	    "a file: -ENOTDIR");
	ds_root_close(&r);
	return tap_done();
}
