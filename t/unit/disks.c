/* Whole disks: finding them, their sysfs attributes, a mount's kind. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oracle.h"
#include "tap.h"
#include "tree.h"

static void
t_find(void)
{
	struct ds_diskstats s = { 0 };
	const char *t = " 8 0 sda 1 2 3 4 5 6 7 8 9 10 11\n"
	    " 8 1 sda1 1 2 3 4 5 6 7 8 9 10 11\n"
	    " 253 0 vda 1 2 3 4 5 6 7 8 9 10 11\n";

	ds_diskstats_parse(t, strlen(t), &s);
	ok(ds_diskstats_find(&s, "vda", 2) == &s.disk[2], "found at the hint");
	ok(ds_diskstats_find(&s, "vda", 0) == &s.disk[2], "found past it");
	ok(ds_diskstats_find(&s, "sda", 99) == &s.disk[0], "a hint past the end");
	ok(ds_diskstats_find(&s, "sdb", 0) == NULL, "not there: NULL");
	ds_diskstats_free(&s);
}

static void
t_fs_disk(void)
{
	ok(ds_fs_on_disk("ext4", 8), "ext4 on sda");
	ok(ds_fs_on_disk("btrfs", 0), "btrfs on an anonymous device");
	ok(ds_fs_on_disk("nfs4", 0), "nfs4");
	ok(!ds_fs_on_disk("tmpfs", 0), "tmpfs is not a disk");
	ok(!ds_fs_on_disk("proc", 0), "proc is not");
	ok(!ds_fs_on_disk("overlay", 0), "overlay is not (its lower fs is)");
	ok(!ds_fs_on_disk(NULL, 0), "no type, major 0: not");
}

static void
t_sysfs(void)
{
	struct ds_blockdevs bd = { 0 };
	struct ds_buf b = { 0 }, w = { 0 };
	struct ds_root r;
	uint64_t depth = 7;

	tree_put("sys/block/sda/device/queue_depth", "32\n");
	tree_put("sys/block/sda/device/vendor", "ATA     \n");
	tree_put("sys/block/sda/device/model", "Samsung SSD 870\n");
	tree_put("sys/block/sdb/device/vendor", "QEMU    \n");
	tree_put("sys/block/sdc/device/model", "Amazon Elastic Block Store\n");
	tree_put("sys/block/sdd/device/queue_depth", "lots\n");
	ds_root_open(&r, tree_top);
	is_int(ds_disk_queue_depth(&r, "sda", &b, &depth), 0, "queue_depth");
	is_u64(depth, 32, "sda: 32");
	is_int(ds_disk_queue_depth(&r, "sdb", &b, &depth), -ENOENT,
	    "no queue_depth: -ENOENT");
	is_u64(depth, 0, "and 0");
	is_int(ds_disk_queue_depth(&r, "sdd", &b, &depth), -EINVAL,
	    "not a number: -EINVAL");
	is_int(ds_disk_queue_depth(&r, "../x", &b, &depth), -EINVAL,
	    "a name with '/': -EINVAL");
	is_int(ds_disk_virtual(&r, "sda", &b), 0, "an ATA disk is not virtual");
	is_int(ds_disk_virtual(&r, "sdb", &b), 1, "QEMU's is");
	is_int(ds_disk_virtual(&r, "sdc", &b), 1, "EBS is");
	is_int(ds_disk_virtual(&r, "nosuch", &b), 0, "a missing disk: 0");
	is_int(ds_whole_disks(&r, &w, &bd), 0, "disks from sys/block");
	ok(bd.n == 4 && strcmp(bd.name[0], "sda") == 0 &&
	    strcmp(bd.name[3], "sdd") == 0, "four, sorted");
	ds_blockdevs_free(&bd);
	ds_root_close(&r);

	/* A tree with diskstats and no sys/block. */
	snprintf(tree_top + strlen(tree_top), sizeof(tree_top) - strlen(tree_top), "/t2");
	mkdir(tree_top, 0755);
	tree_put("proc/diskstats", " 253 16 vdb 1 2 3 4 5 6 7 8 9 10 11\n"
	    " 253 0 vda 1 2 3 4 5 6 7 8 9 10 11\n"
	    " 253 1 vda1 1 2 3 4 5 6 7 8 9 10 11\n"
	    " 259 0 nvme0n1 1 2 3 4 5 6 7 8 9 10 11\n"
	    " 259 1 nvme0n1p1 1 2 3 4 5 6 7 8 9 10 11\n");
	ds_root_open(&r, tree_top);
	is_int(ds_whole_disks(&r, &w, &bd), 0, "disks from diskstats");
	ok(bd.n == 3 && strcmp(bd.name[0], "nvme0n1") == 0 &&
	    strcmp(bd.name[1], "vda") == 0 && strcmp(bd.name[2], "vdb") == 0,
	    "whole disks only, sorted");
	ok(ds_blockdevs_has(&bd, "vdb") && !ds_blockdevs_has(&bd, "vda1"),
	    "ds_blockdevs_has works on them");
	ds_blockdevs_free(&bd);
	ds_root_close(&r);
	*strrchr(tree_top, '/') = '\0';
	ds_buf_free(&b);
	ds_buf_free(&w);
}

int
main(void)
{
	char cmd[320];

	snprintf(tree_top, sizeof(tree_top), "/tmp/ds-disks.XXXXXX");
	if (mkdtemp(tree_top) == NULL)
		return 1;
	t_find();
	t_fs_disk();
	t_sysfs();
	if (strncmp(tree_top, "/tmp/ds-disks.", 14) == 0) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tree_top);
		if (system(cmd) != 0)
			printf("# could not remove %s\n", tree_top);
	}
	return tap_done();
}
