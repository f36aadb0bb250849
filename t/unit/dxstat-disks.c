/*
 * cmd/dxstat/disks.c, the rows dxstat shows: whole disks from sys/block
 * (partitions told by their names when there is none), partitions with
 * part, operands by kernel name, dm name and glob, idle devices only
 * when named or with all, and dm names read once per device and never
 * for counters from another machine.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "util/util.h"
#include "dxstat/dxstat.h"
#include "tap.h"
#include "tree.h"

static struct ds_disk
disk(const char *name, uint64_t reads)
{
	struct ds_disk d;

	memset(&d, 0, sizeof(d));
	snprintf(d.name, sizeof(d.name), "%s", name);
	d.ncounters = 11;
	d.have = (1u << 11) - 1;
	d.v[DS_RD_IOS] = reads;
	return d;
}

static int
show(struct dx_disks *s, const char *name, uint64_t reads)
{
	struct ds_disk d = disk(name, reads);

	return dx_disks_show(s, &d, 1);
}

static void
test_default(const struct ds_root *r)
{
	struct ds_devsel sel = { 0 };
	struct dx_disks s;

	memset(&s, 0, sizeof(s));
	dx_disks_init(&s, r, &sel, 1);
	is_int(show(&s, "sda", 5), 1, "a whole disk of sys/block");
	is_int(show(&s, "sda1", 5), 0, "a partition: not by default");
	is_int(show(&s, "dm-0", 5), 1, "dm-0 is in sys/block");
	is_int(show(&s, "sdb", 0), 0, "a disk that never did I/O: hidden");
	is_int(s.bd_state, 1, "sys/block read");
	is_int(s.bd_error, 0, "and no error to tell");
	s.all = 1;
	is_int(show(&s, "sdb", 0), 1, "all: idle disks too");
	s.part = 1;
	is_int(show(&s, "sda1", 5), 1, "part: partitions too");
	dx_disks_free(&s);
}

static void
test_operands(const struct ds_root *r)
{
	char *args[] = { "sdb", "/dev/mapper/vg-root", "sd*", "nvme*" };
	struct ds_devsel sel = { 0 };
	struct dx_disks s;
	const char *dm;

	if (ds_devsel_init(&sel, args, 4) < 0)
		exit(1);
	memset(&s, 0, sizeof(s));
	dx_disks_init(&s, r, &sel, 1);
	ok(ds_devsel_none_matched(&sel), "nothing matched yet");
	is_int(show(&s, "sdb", 0), 1, "named: shown though idle");
	ok(!ds_devsel_none_matched(&sel), "one matched");
	is_int(show(&s, "sda", 5), 1, "a glob selects a whole disk");
	is_int(show(&s, "sda1", 5), 0, "but not its partition");
	is_int(show(&s, "sdc", 0), 0, "nor an idle disk it matches");
	is_int(show(&s, "dm-0", 0), 1, "/dev/mapper/NAME: by its dm name");
	is_int(show(&s, "loop0", 5), 0, "a disk no operand names");
	ok(!sel.op[3].matched && sel.op[1].matched && sel.op[2].matched,
	    "the operands that matched are marked");
	is_int(dx_disks_dm(&s, "dm-0", &dm), 0, "dm name");
	ok(dm != NULL && strcmp(dm, "vg-root") == 0, "dm-0 is vg-root");
	is_int(dx_disks_dm(&s, "sda", &dm), 0, "not dm");
	ok(dm == NULL, "sda has no dm name");
	ok(s.ndmn == 1, "dm names read once per device (%zu kept)", s.ndmn);
	dx_disks_free(&s);
	/* Counters from another machine: its dm names are not these. */
	memset(&s, 0, sizeof(s));
	dx_disks_init(&s, r, &sel, 0);
	is_int(dx_disks_dm(&s, "dm-0", &dm), 0, "no sys");
	ok(dm == NULL, "no dm name for a snapshot from elsewhere");
	is_int(show(&s, "dm-0", 5), 0, "nor a /dev/mapper match");
	is_int(show(&s, "sda", 5), 1, "whole disks by their names");
	is_int(show(&s, "sda1", 5), 0, "partitions by theirs");
	dx_disks_free(&s);
	ds_devsel_free(&sel);
}

/* dx_disks_pick: shown or not, and with dm the name to show. */
static void
test_pick(const struct ds_root *r)
{
	struct ds_devsel sel = { 0 };
	struct dx_disks s;
	struct ds_disk d;
	const char *name = "x";

	memset(&s, 0, sizeof(s));
	dx_disks_init(&s, r, &sel, 1);
	d = disk("dm-0", 5);
	is_int(dx_disks_pick(&s, &d, 1, &name), 1, "pick: dm-0 shown");
	ok(name == NULL, "without dm: no name, the kernel's is shown");
	s.dm = 1;
	is_int(dx_disks_pick(&s, &d, 1, &name), 1, "pick with dm: shown");
	is_str(name, "vg-root", "by its dm name");
	d = disk("sda", 5);
	is_int(dx_disks_pick(&s, &d, 1, &name), 1, "sda shown");
	ok(name == NULL, "no dm name for sda");
	d = disk("sdb", 0);
	name = "x";
	is_int(dx_disks_pick(&s, &d, 1, &name), 0, "idle sdb: not shown");
	ok(name == NULL, "and no name");
	dx_disks_free(&s);
}

/* A tree of proc only: whole disks and partitions told by their names. */
static void
test_no_sys(void)
{
	struct ds_devsel sel = { 0 };
	struct dx_disks s;
	struct ds_root r;
	char p[320];

	snprintf(p, sizeof(p), "%s/proc", tree_top);
	if (ds_root_open(&r, p) < 0)
		exit(1);
	memset(&s, 0, sizeof(s));
	dx_disks_init(&s, &r, &sel, 1);
	is_int(show(&s, "nvme0n1", 1), 1, "nvme0n1: a disk by its name");
	is_int(show(&s, "nvme0n1p2", 1), 0, "nvme0n1p2: a partition");
	is_int(s.bd_state, -1, "no sys/block");
	is_int(s.bd_error, 0, "its absence is no error");
	dx_disks_free(&s);
	ds_root_close(&r);
}

int
main(void)
{
	struct ds_root r;

	tree_make("ds-dxstat-disks");
	tree_put("proc", NULL);
	tree_put("sys", NULL);
	tree_put("sys/block", NULL);
	tree_put("sys/block/sda", NULL);
	tree_put("sys/block/sdb", NULL);
	tree_put("sys/block/sdc", NULL);
	tree_put("sys/block/loop0", NULL);
	tree_put("sys/block/dm-0", NULL);
	tree_put("sys/block/dm-0/dm", NULL);
	tree_put("sys/block/dm-0/dm/name", "vg-root\n");
	if (ds_root_open(&r, tree_top) < 0)
		return 1;
	test_default(&r);
	test_operands(&r);
	test_pick(&r);
	test_no_sys();
	ds_root_close(&r);
	{
		char cmd[320];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", tree_top);
		if (system(cmd) != 0)
			return 1;
	}
	return tap_done();
}
