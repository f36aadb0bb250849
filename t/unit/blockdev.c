/* Block devices: device-mapper names, directory listings, partitions. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"
#include "tap.h"

static void
put(const char *top, const char *rel, const char *text)
{
	char p[4096];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", top, rel);
	if ((f = fopen(p, "w")) == NULL)
		return;
	fputs(text, f);
	fclose(f);
}

static void
dir(const char *top, const char *rel)
{
	char p[4096];

	snprintf(p, sizeof(p), "%s/%s", top, rel);
	mkdir(p, 0755);
}

static void
dm_names(const char *top)
{
	struct ds_root r;
	struct ds_buf b = { 0 };
	char name[64];

	dir(top, "sys");
	dir(top, "sys/block");
	dir(top, "sys/block/dm-0");
	dir(top, "sys/block/dm-0/dm");
	put(top, "sys/block/dm-0/dm/name", "vg0-root\n");
	dir(top, "sys/block/sda");
	/* What a hostile name would reach: sys/block/../dm/name and above. */
	dir(top, "sys/dm");
	put(top, "sys/dm/name", "outside\n");
	dir(top, "etc");
	dir(top, "etc/dm");
	put(top, "etc/dm/name", "outside\n");
	if (ds_root_open(&r, top) < 0) {
		ok(0, "root opens");
		return;
	}
	is_int(ds_dm_name(&r, "dm-0", &b, name, sizeof(name)), 0, "dm name");
	is_str(name, "vg0-root", "dm name read");
	is_int(ds_dm_name(&r, "sda", &b, name, sizeof(name)), -ENOENT,
	    "not a dm device");
	strcpy(name, "unchanged");
	is_int(ds_dm_name(&r, "..", &b, name, sizeof(name)), -EINVAL,
	    "\"..\" is refused");
	is_str(name, "unchanged", "\"..\": nothing read");
	is_int(ds_dm_name(&r, ".", &b, name, sizeof(name)), -EINVAL,
	    "\".\" is refused");
	is_int(ds_dm_name(&r, "dm-0/../../../etc", &b, name, sizeof(name)),
	    -EINVAL, "a name holding '/' is refused");
	is_str(name, "unchanged", "'/': nothing read");
	is_int(ds_dm_name(&r, "", &b, name, sizeof(name)), -EINVAL,
	    "an empty name is refused");
	ds_buf_free(&b);
	ds_root_close(&r);
}

/* ds_dir_names: sorted, no dot files, dirs_only, empty directories. */
static void
dir_names(const char *top)
{
	struct ds_blockdevs b = { 0 };
	char p[4200];
	FILE *f;

	snprintf(p, sizeof(p), "%s/names", top);
	mkdir(p, 0755);
	is_int(ds_dir_names(AT_FDCWD, p, 0, &b), 0, "empty directory");
	is_int((int)b.n, 0, "no names, and no sort of a NULL array");
	/* Issue 15, 9: no bsearch(3) of a NULL array (UBSan: nonnull). */
	is_int(ds_blockdevs_has(&b, "sda"), 0, "an empty list has no sda");
	snprintf(p, sizeof(p), "%s/names/mq", top);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/names/1", top);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/names/0", top);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/names/.hidden", top);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/names/afile", top);
	if ((f = fopen(p, "w")) != NULL)
		fclose(f);
	snprintf(p, sizeof(p), "%s/names", top);
	is_int(ds_dir_names(AT_FDCWD, p, 0, &b), 0, "four entries");
	is_int((int)b.n, 4, "dot files left out");
	if (b.n == 4) {
		is_str(b.name[0], "0", "sorted: 0");
		is_str(b.name[1], "1", "sorted: 1");
		is_str(b.name[2], "afile", "sorted: afile");
		is_str(b.name[3], "mq", "sorted: mq");
	}
	is_int(ds_dir_names(AT_FDCWD, p, 1, &b), 0, "directories only");
	is_int((int)b.n, 3, "the file left out");
	snprintf(p, sizeof(p), "%s/names/afile", top);
	is_int(ds_dir_names(AT_FDCWD, p, 0, &b), -ENOTDIR, "a file is not a directory");
	is_int((int)b.n, 0, "list empty after a failure");
	ds_blockdevs_free(&b);
}

/* A partition told by its name alone. */
static void
part_names(void)
{
	ok(ds_name_is_partition("sda1"), "sda1");
	ok(ds_name_is_partition("nvme0n1p2"), "nvme0n1p2");
	ok(ds_name_is_partition("mmcblk0p1"), "mmcblk0p1");
	ok(ds_name_is_partition("xvda3"), "xvda3");
	ok(!ds_name_is_partition("sda"), "sda");
	ok(!ds_name_is_partition("nvme0n1"), "nvme0n1");
	ok(!ds_name_is_partition("mmcblk0"), "mmcblk0");
	ok(!ds_name_is_partition("dm-0"), "dm-0");
	ok(!ds_name_is_partition("loop0"), "loop0");
	ok(!ds_name_is_partition("md127"), "md127");
}

int
main(void)
{
	char top[] = "/tmp/ds-unit-blockdev.XXXXXX", cmd[4200];

	part_names();
	if (mkdtemp(top) == NULL)
		return 1;
	dm_names(top);
	dir_names(top);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", top);
	return tap_done();
}
