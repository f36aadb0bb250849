/*
 * lib/cgio.c: cgroup v2 io.stat parsing with the kernel's quirks, the
 * cgroup walk, and block device names and stacking from sys/dev/block
 * links.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"
#include "tree.h"

int
main(void)
{
	struct ds_iostat st = { 0 };
	struct ds_cgios cs = { 0 };
	struct ds_devinfo di;
	struct ds_root root;
	struct ds_buf b = { 0 };
	const struct ds_cgio *c;
	char cmd[512];

	is_int(ds_iostat_parse("", &st), 0, "empty file");
	is_int((int)st.n, 0, "no rows");
	is_int(ds_iostat_parse(
	    "8:16 rbytes=1 wbytes=2 rios=3 wios=4 dbytes=5 dios=6\n"
	    "253:0 \n"
	    "259:3 rbytes=18446744073709551615 wbytes=0 rios=1 wios=0 "
	    "dbytes=0 dios=0 cost.vrate=100.00 cost.usage=12 "
	    "cost.wait=0 cost.indebt=0 cost.indelay=0\n"
	    "garbage line\n"
	    "7:0 rbytes=x wbytes=9 depth=max avg_lat=10\n", &st), 0,
	    "quirky file parses");
	is_int((int)st.n, 4, "four device lines");
	is_int((int)st.bad, 1, "one bad line");
	ok(st.d[0].major == 8 && st.d[0].minor == 16 &&
	    st.d[0].v[DS_IOS_DIOS] == 6 && st.d[0].have == 0x3f,
	    "all six keys");
	ok(st.d[1].major == 253 && st.d[1].have == 0,
	    "MAJ:MIN with no keys: a row with nothing known");
	ok(st.d[2].v[DS_IOS_RBYTES] == UINT64_MAX && st.d[2].have == 0x3f,
	    "cost.* keys ignored, 64-bit values");
	ok(st.d[3].have == (1u << DS_IOS_WBYTES) &&
	    st.d[3].v[DS_IOS_WBYTES] == 9, "bad value and unknown keys left out");
	is_int(ds_iostat_parse("8:0 rbytes=1", &st), 0, "no final newline");
	ok(st.n == 1 && st.d[0].v[DS_IOS_RBYTES] == 1, "last line read");
	is_int(ds_iostat_parse("8 rbytes=1\n8:x rbytes=1\n-1:0\n", &st), 0,
	    "bad device numbers");
	ok(st.n == 0 && st.bad == 3, "all skipped and counted");
	ds_iostat_free(&st);

	snprintf(tree_top, sizeof(tree_top), "%s/cgio-unit.XXXXXX",
	    getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(tree_top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	tree_put("cg/cgroup.controllers", "cpu io memory\n");
	tree_put("cg/io.stat", "8:0 rbytes=10 wbytes=20 rios=1 wios=2 dbytes=0 dios=0\n");
	tree_put("cg/a/io.stat", "");
	tree_put("cg/a/b/io.stat", "8:0 rbytes=5\n");
	tree_dir("cg/nostat");
	tree_put("cg2/cgroup.controllers", "cpu memory");
	tree_put("sys/devices/pci/block/sda/sda2/partition", "2\n");
	tree_link("sys/devices/virtual/block/dm-0/slaves/sda2",
	    "../../../../pci/block/sda/sda2");
	tree_dir("sys/devices/virtual/block/md0/slaves/vdb");
	tree_link("sys/dev/block/8:0", "../../devices/pci/block/sda");
	tree_link("sys/dev/block/8:2", "../../devices/pci/block/sda/sda2");
	tree_link("sys/dev/block/253:0", "../../devices/virtual/block/dm-0");
	tree_link("sys/dev/block/9:0", "../../devices/virtual/block/md0");
	ok(ds_root_open(&root, tree_top) == 0, "root opens");

	is_int(ds_cgroup2_has_io(&root, "cg", &b), 1, "io in cgroup.controllers");
	is_int(ds_cgroup2_has_io(&root, "/cg2", &b), 0, "no io");
	is_int(ds_cgroup2_has_io(&root, "cg/a", &b), -ENOENT, "no file");
	ds_buf_free(&b);

	is_int(ds_cgios_read(&root, "/cg", &cs), 0, "walk");
	is_int((int)cs.n, 4, "four cgroups");
	is_int((int)cs.with_iostat, 3, "three with io.stat");
	ok(cs.uptime_ns == 0, "no proc/uptime: 0, not an error");
	c = ds_cgios_find(&cs, "/");
	ok(c != NULL && c->have && c->st.n == 1 &&
	    c->st.d[0].v[DS_IOS_WBYTES] == 20, "root cgroup");
	c = ds_cgios_find(&cs, "/a/b");
	ok(c != NULL && c->have && c->st.d[0].v[DS_IOS_RBYTES] == 5 &&
	    c->ino != 0, "nested cgroup, inode");
	c = ds_cgios_find(&cs, "/a");
	ok(c != NULL && c->have && c->st.n == 0, "empty io.stat");
	c = ds_cgios_find(&cs, "/nostat");
	ok(c != NULL && !c->have, "no io.stat");
	ok(ds_cgios_find(&cs, "/zz") == NULL, "not found");
	ds_cgios_free(&cs);
	is_int(ds_cgios_read(&root, "nope", &cs), -ENOENT, "no mount dir");

	is_int(ds_blockdev_info(&root, 8, 0, &di), 0, "sda");
	ok(strcmp(di.name, "sda") == 0 && !di.partition && di.nbelow == 0,
	    "sda: a disk");
	is_int(ds_blockdev_info(&root, 8, 2, &di), 0, "sda2");
	ok(strcmp(di.name, "sda2") == 0 && di.partition, "sda2: a partition");
	is_int(ds_blockdev_info(&root, 253, 0, &di), 0, "dm-0");
	ok(strcmp(di.name, "dm-0") == 0 && di.nbelow == 1 &&
	    strcmp(di.below[0], "sda") == 0, "dm-0 sits on sda (via sda2)");
	is_int(ds_blockdev_info(&root, 9, 0, &di), 0, "md0");
	ok(di.nbelow == 1 && strcmp(di.below[0], "vdb") == 0,
	    "md0: a slave that is not a link");
	is_int(ds_blockdev_info(&root, 259, 9, &di), -ENOENT, "gone device");

	ds_root_close(&root);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tree_top);
	if (system(cmd) != 0)
		return 1;
	return tap_done();
}
