/*
 * lib/mount.c: mountinfo's fields, the lookups a tool makes (the mount
 * of a device, its root's mount preferred over bind mounts of a
 * subdirectory), and the root's own mount table read.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"
#include "tap.h"

static const char table[] =
    "22 1 8:2 / / rw,relatime shared:1 - ext4 /dev/sda2 rw\n"
    "23 22 8:3 /srv/data /data rw shared:2 - xfs /dev/sda3 rw\n"
    "24 22 8:3 / /srv rw shared:3 - xfs /dev/sda3 rw\n"
    "25 22 8:3 / /srv2 rw shared:4 - xfs /dev/sda3 rw\n"
    "26 22 8:4 /a /a rw shared:5 - ext4 /dev/sda4 rw\n"
    "27 22 8:4 /b /b rw shared:6 - ext4 /dev/sda4 rw\n"
    "28 22 0:26 / /sys/fs/cgroup rw shared:7 - cgroup2 cgroup2 rw\n";

static const char *
mnt_of(const struct ds_mounts *ms, unsigned int maj, unsigned int min)
{
	const struct ds_mount *m = ds_mount_by_dev(ms, maj, min);

	return m != NULL ? m->mnt : "none";
}

/* A table's fields: escapes, optional fields, the cgroup2 mount, bad lines. */
static void
test_fields(void)
{
	struct ds_mounts ms = { 0 };
	const struct ds_mount *m;
	char mi[] =
	    "22 27 0:21 / /proc rw,relatime - proc proc rw\n"
	    "33 24 0:28 / /sys/fs/cgroup ro,nosuid shared:9 - tmpfs tmpfs ro\n"
	    "40 33 0:35 / /sys/fs/cgroup/unified rw shared:10 master:2 - cgroup2 cgroup2 rw,nsdelegate\n"
	    "41 27 8:1 /a\\040dir /mnt/with\\040space\\011tab rw - ext4 /dev/sda1 rw\n"
	    "garbage line\n"
	    "42 27 8:1 / /mnt/x rw shared:1\n";

	is_int(ds_mountinfo_parse(mi, &ms), 0, "mountinfo parses");
	is_int((int)ms.n, 4, "four mounts");
	is_int((int)ms.bad, 2, "two bad lines");
	m = ds_mount_cgroup2(&ms);
	ok(m != NULL && strcmp(m->mnt, "/sys/fs/cgroup/unified") == 0,
	    "hybrid cgroup2 mount found from the table");
	m = ds_mount_by_id(&ms, 41);
	ok(m != NULL, "mount by id");
	if (m != NULL) {
		is_str(m->mnt, "/mnt/with space\ttab", "mount point unescaped");
		is_str(m->root, "/a dir", "root unescaped");
		is_str(m->fstype, "ext4", "fstype after the dash");
		is_str(m->source, "/dev/sda1", "source");
		is_int((int)m->major, 8, "major");
		is_int((int)m->minor, 1, "minor");
	}
	ok(ds_mount_by_id(&ms, 99) == NULL, "unknown id");
	ds_mounts_free(&ms);
}

int
main(void)
{
	struct ds_mounts ms = { 0 };
	char text[sizeof(table)], top[] = "/tmp/mount-unit.XXXXXX", p[128];
	struct ds_root r;
	FILE *f;

	test_fields();
	memcpy(text, table, sizeof(table));
	is_int(ds_mountinfo_parse(text, &ms), 0, "table parses");
	is_int(ms.n, 7, "seven mounts");
	is_str(mnt_of(&ms, 8, 2), "/", "one mount: it");
	is_str(mnt_of(&ms, 8, 3), "/srv2",
	    "a bind mount first: the last mount of the root instead");
	is_str(mnt_of(&ms, 8, 4), "/a", "no mount of the root: the first");
	is_str(mnt_of(&ms, 0, 26), "/sys/fs/cgroup", "major 0");
	is_str(mnt_of(&ms, 8, 5), "none", "no mount: NULL");
	is_str(mnt_of(&ms, 3, 8), "none", "major and minor not swapped");
	ds_mounts_free(&ms);

	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(p, sizeof(p), "%s/proc", top);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/proc/self", top);
	mkdir(p, 0755);
	if (ds_root_open(&r, top) < 0) {
		ok(0, "root opens");
		return tap_done();
	}
	is_int(ds_mountinfo_read(&r, "proc/self/mountinfo", &ms), -ENOENT, "no mountinfo: -ENOENT");
	snprintf(p, sizeof(p), "%s/proc/self/mountinfo", top);
	if ((f = fopen(p, "w")) == NULL || fputs(table, f) == EOF ||
	    fclose(f) != 0)
		return 1;
	is_int(ds_mountinfo_read(&r, "proc/self/mountinfo", &ms), 0, "the root's proc/self/mountinfo");
	is_int(ms.n, 7, "read whole");
	is_str(mnt_of(&ms, 8, 3), "/srv2", "and looked up");
	ds_mounts_free(&ms);
	ds_root_close(&r);
	snprintf(p, sizeof(p), "rm -rf '%s'", top);
	if (system(p) != 0)
		printf("# could not remove %s\n", top);
	return tap_done();
}
