/*
 * mountinfo lines whose source is empty ("mount -t tmpfs '' /x"): the
 * kernel prints "- tmpfs  rw", two blanks, and the split merges them.
 * Such a mount used to vanish (nine fields) or, with optional fields,
 * to get the superblock options as its source.
 */
#include <string.h>

#include "internal.h"
#include "tap.h"

int
main(void)
{
	struct ds_mounts ms = { 0 };
	const struct ds_mount *m;
	/* As kernel 6.18 printed it for: mount -t tmpfs "" /tmp/hz_mnt */
	char text[] =
	    "43 27 0:39 / /tmp/hz_mnt rw,relatime - tmpfs  rw\n"
	    "44 27 0:40 / /tmp/b rw shared:7 - tmpfs  rw,size=1024k\n"
	    "45 27 0:41 / /tmp/c rw - tmpfs none rw\n"
	    "46 27 0:42 / /tmp/d rw - tmpfs\n";

	is_int(ds_mountinfo_parse(text, &ms), 0, "parses");
	is_int((int)ms.n, 3, "three mounts, none lost");
	is_int((int)ms.bad, 1, "a line without superblock options is bad");
	m = ds_mount_by_id(&ms, 43);
	ok(m != NULL, "empty source, no optional field: kept");
	if (m != NULL) {
		is_str(m->mnt, "/tmp/hz_mnt", "its mount point");
		is_str(m->fstype, "tmpfs", "its fstype");
		is_str(m->source, "", "its source is empty");
		is_str(m->super_opts, "rw", "its superblock options");
	}
	m = ds_mount_by_id(&ms, 44);
	ok(m != NULL, "empty source with an optional field");
	if (m != NULL) {
		is_str(m->source, "", "source empty, not the options");
		is_str(m->super_opts, "rw,size=1024k", "superblock options");
	}
	m = ds_mount_by_id(&ms, 45);
	ok(m != NULL && strcmp(m->source, "none") == 0 &&
	    strcmp(m->super_opts, "rw") == 0, "ordinary line unchanged");
	ds_mounts_free(&ms);
	return tap_done();
}
