/* dtriage's window inputs: finding devices, disks, sysfs, PSI, holders. */
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
t_psi(void)
{
	struct ds_psi a, b;
	struct ds_tr_psi p;
	char t1[] = "some avg10=12.34 avg60=1.00 avg300=0.50 total=1000000\n"
	    "full avg10=2.50 avg60=1.00 avg300=0.50 total=500000\n";
	char t2[] = "some avg10=0.00 avg60=1.00 avg300=0.50 total=3000000\n"
	    "full avg10=0.00 avg60=1.00 avg300=0.50 total=1500000\n";
	char t3[] = "full avg10=0.00 avg60=0.00 avg300=0.00 total=7\n";

	ds_psi_parse(t1, &a);
	ds_psi_parse(t2, &b);
	is_int(ds_tr_psi(NULL, &a, 0, &p), 0, "one read: avg10");
	ok(p.have && (int)(p.some * 100 + 0.5) == 1234 &&
	    (int)(p.full * 100 + 0.5) == 250, "avg10 some 12.34, full 2.50");
	/* 2 s of stall in a 10 s window: 20%; full 1 s: 10%. */
	is_int(ds_tr_psi(&a, &b, 10000000000ull, &p), 0, "two reads");
	ok(p.have && (int)(p.some + 0.5) == 20 && (int)(p.full + 0.5) == 10,
	    "some 20%%, full 10%% from the totals");
	is_int(ds_tr_psi(&a, &b, 0, &p), -EINVAL, "no time: -EINVAL");
	ok(!p.have, "and not had");
	ds_psi_parse(t3, &b);
	is_int(ds_tr_psi(&a, &b, 1, &p), -ENODATA, "no some line: -ENODATA");
}

static void
t_fs_disk(void)
{
	ok(ds_tr_fs_disk("ext4", 8), "ext4 on sda");
	ok(ds_tr_fs_disk("btrfs", 0), "btrfs on an anonymous device");
	ok(ds_tr_fs_disk("nfs4", 0), "nfs4");
	ok(!ds_tr_fs_disk("tmpfs", 0), "tmpfs is not a disk");
	ok(!ds_tr_fs_disk("proc", 0), "proc is not");
	ok(!ds_tr_fs_disk("overlay", 0), "overlay is not (its lower fs is)");
	ok(!ds_tr_fs_disk(NULL, 0), "no type, major 0: not");
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
	is_int(ds_tr_queue_depth(&r, "sda", &b, &depth), 0, "queue_depth");
	is_u64(depth, 32, "sda: 32");
	is_int(ds_tr_queue_depth(&r, "sdb", &b, &depth), -ENOENT,
	    "no queue_depth: -ENOENT");
	is_u64(depth, 0, "and 0");
	is_int(ds_tr_queue_depth(&r, "sdd", &b, &depth), -EINVAL,
	    "not a number: -EINVAL");
	is_int(ds_tr_queue_depth(&r, "../x", &b, &depth), -EINVAL,
	    "a name with '/': -EINVAL");
	is_int(ds_tr_virtual(&r, "sda", &b), 0, "an ATA disk is not virtual");
	is_int(ds_tr_virtual(&r, "sdb", &b), 1, "QEMU's is");
	is_int(ds_tr_virtual(&r, "sdc", &b), 1, "EBS is");
	is_int(ds_tr_virtual(&r, "nosuch", &b), 0, "a missing disk: 0");
	is_int(ds_tr_disks(&r, &w, &bd), 0, "disks from sys/block");
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
	is_int(ds_tr_disks(&r, &w, &bd), 0, "disks from diskstats");
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

static void
t_holders(void)
{
	struct ds_deleted d = { 0 };
	struct ds_tr_holder *h;
	struct ds_delfile f[4];
	size_t n;

	memset(f, 0, sizeof(f));
	d.f = f;
	d.n = 4;
	f[0].pid = 10; f[0].fd = 3; f[0].fs = 0; f[0].blocks = 2048;
	f[0].comm = ds_deleted_intern(&d, "small", 5);
	f[1].pid = 20; f[1].fd = 4; f[1].fs = 0; f[1].blocks = 81920;
	f[1].comm = ds_deleted_intern(&d, "big", 3);
	f[2].pid = 30; f[2].fd = 5; f[2].fs = 1; f[2].blocks = 99999;
	f[2].comm = ds_deleted_intern(&d, "other fs", 8);
	f[3].pid = 40; f[3].fd = -1; f[3].fs = 0; f[3].blocks = 99999;
	f[3].memory = 1;
	f[3].comm = ds_deleted_intern(&d, "shm", 3);
	is_int(ds_tr_holders(&d, 0, &h, &n), 0, "holders of fs 0");
	is_int((int)n, 2, "two: the other fs and memory left out");
	ok(n == 2 && h[0].pid == 20 && h[0].bytes == 81920 * 512 &&
	    strcmp(h[0].comm, "big") == 0, "largest first, bytes of st_blocks");
	ok(n == 2 && h[1].pid == 10 && h[1].fd == 3, "then the small one");
	free(h);
	is_int(ds_tr_holders(&d, 5, &h, &n), 0, "a fs with none");
	ok(n == 0 && h == NULL, "nothing allocated");
	ds_buf_free(&d.pool);
}

int
main(void)
{
	char cmd[320];

	snprintf(tree_top, sizeof(tree_top), "/tmp/ds-trw.XXXXXX");
	if (mkdtemp(tree_top) == NULL)
		return 1;
	t_find();
	t_psi();
	t_fs_disk();
	t_sysfs();
	t_holders();
	if (strncmp(tree_top, "/tmp/ds-trw.", 12) == 0) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tree_top);
		if (system(cmd) != 0)
			printf("# could not remove %s\n", tree_top);
	}
	return tap_done();
}
