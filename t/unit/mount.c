/*
 * lib/mount.c, the lookups a tool makes: the mount of a device (its
 * root's mount preferred over bind mounts of a subdirectory), and the
 * root's own mount table read.
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

int
main(void)
{
	struct ds_mounts ms = { 0 };
	char text[sizeof(table)], top[] = "/tmp/mount-unit.XXXXXX", p[128];
	struct ds_root r;
	FILE *f;

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
