/* Device operands to queues: names, partitions, globs, dm names, errors. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dqueue/dqueue.h"
#include "util/util.h"
#include "tap.h"

static void
put(const char *top, const char *rel, const char *text)
{
	char p[4096], cmd[4200];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname %s/%s)\"", top, rel);
	if (system(cmd) != 0)
		return;
	snprintf(p, sizeof(p), "%s/%s", top, rel);
	if ((f = fopen(p, "w")) != NULL) {
		fputs(text, f);
		fclose(f);
	}
}

int
main(void)
{
	char top[] = "/tmp/ds-unit-dqueue-targets.XXXXXX", cmd[600];
	char *args[] = { "sda1", "/dev/mapper/vg-root", "vd*", "nope",
	    "/dev/sdb", "x*", "..", "/dev/mapper/none" };
	struct ds_blockdevs disks = { 0 };
	struct dq_targets tg = { 0 };
	struct ds_buf b = { 0 };
	struct ds_devsel sel;
	struct ds_root r;

	if (mkdtemp(top) == NULL)
		return printf("Bail out! mkdtemp\n"), 1;
	put(top, "sys/block/sda/sda1/partition", "1\n");
	put(top, "sys/block/sdb/queue/nr_requests", "64\n");
	put(top, "sys/block/vda/queue/nr_requests", "64\n");
	put(top, "sys/block/vdb/queue/nr_requests", "64\n");
	put(top, "sys/block/dm-0/dm/name", "vg-root\n");
	is_int(ds_root_open(&r, top), 0, "root");
	is_int(ds_blockdevs_read(&r, &disks), 0, "disks read");

	/* No operand: every whole disk, sorted. */
	is_int(dq_targets_pick(&r, &disks, NULL, &b, &tg), 0, "no operand");
	is_int((int)tg.n, 5, "every whole disk");
	is_str(tg.t[0].name, "dm-0", "sorted: dm-0 first");
	is_str(tg.t[4].disk, "vdb", "vdb last");
	is_int((int)tg.nops, 0, "no operand errors");

	is_int(ds_devsel_init(&sel, args, 8), 0, "operands");
	is_int(dq_targets_pick(&r, &disks, &sel, &b, &tg), 0, "picked");
	is_int((int)tg.n, 5, "sda1, dm-0, vda, vdb, sdb");
	is_str(tg.t[0].name, "sda1", "a partition by its name");
	is_str(tg.t[0].disk, "sda", "on its disk's queue");
	is_str(tg.t[1].name, "dm-0", "/dev/mapper/ by its dm name");
	is_str(tg.t[2].name, "vda", "a glob: whole disks, in order");
	is_str(tg.t[3].name, "vdb", "both of them");
	is_str(tg.t[4].name, "sdb", "/dev/ cut");
	is_int((int)tg.nops, 8, "one error slot per operand");
	is_int(tg.err[0], 0, "sda1 found");
	is_int(tg.err[3], -ENOENT, "no such device");
	is_int(tg.err[5], -ENOENT, "a glob matching nothing");
	is_int(tg.err[6], -EINVAL, "not a device name");
	is_int(tg.err[7], -ENOENT, "no dm device of that name");
	ok(sel.op[2].matched && !sel.op[5].matched, "matched marked");
	ds_devsel_free(&sel);

	dq_targets_free(&tg);
	is_int((int)tg.n, 0, "freed");
	ds_blockdevs_free(&disks);
	ds_buf_free(&b);
	ds_root_close(&r);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", top);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", top);
	return tap_done();
}
