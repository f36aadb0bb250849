/*
 * Device identity: ds_devid_read on fixture trees shaped as sysfs is
 * (dm, NVMe, SCSI through symlinks, virtio, loop), its order and
 * escaping, the bounds, symlinks that point out of the root.
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

static struct ds_root r;

/* ds_devid_read of name: its identity, or "E<errno>" on an error. */
static const char *
idof(const char *name)
{
	static char id[DS_DEVID_MAX + 16];
	int e;

	if ((e = ds_devid_read(&r, name, id)) < 0)
		snprintf(id, sizeof(id), "E%d%s", -e, id[0] ? "+id" : "");
	return id;
}

static void
build(void)
{
	char big[5000];

	/* LVM: a uuid and a name; the uuid wins. */
	tree_put("root/sys/block/dm-0/dm/uuid", "LVM-Q2kX7dG3aBcD\n");
	tree_put("root/sys/block/dm-0/dm/name", "vg0-root\n");
	/* dmsetup create without -u: uuid empty, the name it is. */
	tree_put("root/sys/block/dm-1/dm/uuid", "\n");
	tree_put("root/sys/block/dm-1/dm/name", "scratch\n");
	/* NVMe: the namespace's wwid, not the controller's serial. */
	tree_put("root/sys/block/nvme0n1/wwid", "eui.0025388b91c2b2b4\n");
	tree_put("root/sys/devices/nvme/nvme0/serial", "S5RTNC0T104269\n");
	tree_link("root/sys/block/nvme0n1/device", "../../devices/nvme/nvme0");
	/* SCSI, reached as sysfs has it: block/sda and device are links. */
	tree_put("root/sys/devices/host0/0:0:0:0/wwid", "naa.5000c500a1b2c3d4\n");
	tree_dir("root/sys/devices/host0/0:0:0:0/block/sda");
	tree_link("root/sys/devices/host0/0:0:0:0/block/sda/device",
	    "../../../0:0:0:0");
	tree_link("root/sys/block/sda", "../devices/host0/0:0:0:0/block/sda");
	/* A t10 wwid: space padding inside, blanks at the end. */
	tree_put("root/sys/block/sdb/device/wwid",
	    "t10.ATA     QEMU HARDDISK   QM00001     \n");
	/* virtio_blk: serial on the disk, with no newline. */
	tree_put("root/sys/block/vda/serial", "1786632510630221");
	/* A controller serial, space-padded. */
	tree_put("root/sys/block/sdc/device/serial", "  WD-WCC4N1234567    \n");
	/* loop and zram: nothing that says what they are. */
	tree_put("root/sys/block/loop0/dev", "7:0\n");
	tree_dir("root/sys/block/zram0");
	/* Control bytes, a backslash and a high byte: escaped. */
	tree_put("root/sys/block/vdb/serial", "ab\001c\\d\377e\tf\n");
	/* A wwid too long once prefixed: passed over for the serial. */
	memset(big, 'x', 300);
	memcpy(big, "naa.", 4);
	big[300] = '\0';
	tree_put("root/sys/block/sdd/device/wwid", big);
	tree_put("root/sys/block/sdd/device/serial", "SN-sdd\n");
	/* More than a page: no attribute; the next is used. */
	memset(big, 'y', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	tree_put("root/sys/block/sde/wwid", big);
	tree_put("root/sys/block/sde/dm/name", "e-vol\n");
	/* A directory where an attribute should be: none. */
	tree_dir("root/sys/block/sdf/serial");
	tree_put("root/sys/block/sdf/device/serial", "SN-sdf\n");
	/* Links out of the root: resolved inside it, where nothing is. */
	tree_put("outside/wwid", "naa.outside\n");
	tree_link("root/sys/block/sdg/device", "../../../../outside");
	snprintf(big, sizeof(big), "%s/outside/wwid", tree_top);
	tree_link("root/sys/block/sdh/wwid", big);
}

static void
t_read(void)
{
	char path[4096], id[DS_DEVID_MAX];
	char name[DS_DISK_NAME_MAX + 1];

	is_str(idof("dm-0"), "dm-uuid=LVM-Q2kX7dG3aBcD", "dm: the uuid first");
	is_str(idof("dm-1"), "dm-name=scratch", "dm without a uuid: its name");
	is_str(idof("nvme0n1"), "wwid=eui.0025388b91c2b2b4",
	    "NVMe: the namespace's wwid before the controller's serial");
	is_str(idof("sda"), "wwid=naa.5000c500a1b2c3d4",
	    "SCSI: device/wwid through sysfs's links");
	is_str(idof("sdb"), "wwid=t10.ATA QEMU HARDDISK QM00001",
	    "blank runs become one space, the ends trimmed");
	is_str(idof("vda"), "serial=1786632510630221",
	    "virtio: serial without a newline");
	is_str(idof("sdc"), "serial=WD-WCC4N1234567", "device/serial, trimmed");
	is_str(idof("loop0"), "", "loop: no identity");
	is_str(idof("zram0"), "", "zram: no identity");
	is_str(idof("nosuch"), "", "no such disk: no identity, no error");
	is_str(idof("vdb"), "serial=ab\\x01c\\x5cd\\xffe f",
	    "control bytes, backslash and high bytes as \\xHH");
	is_str(idof("sdd"), "serial=SN-sdd",
	    "a wwid too long: passed over, never cut");
	is_str(idof("sde"), "dm-name=e-vol", "over a page: passed over");
	is_str(idof("sdf"), "serial=SN-sdf", "a directory: passed over");
	is_str(idof("sdg"), "", "device -> ../../../../outside stays in the root");
	is_str(idof("sdh"), "", "wwid -> an absolute path out of the root: "
	    "taken inside it");

	is_str(idof(""), "E22", "empty name: -EINVAL");
	is_str(idof(".."), "E22", "\"..\": -EINVAL");
	is_str(idof("."), "E22", "\".\": -EINVAL");
	is_str(idof("dm-0/dm"), "E22", "a name with a slash: -EINVAL");
	memset(name, 'a', DS_DISK_NAME_MAX);
	name[DS_DISK_NAME_MAX] = '\0';
	is_str(idof(name), "E22", "a name too long: -EINVAL");

	/* An attribute that exists but cannot be opened: no weaker id. */
	if (geteuid() != 0) {
		tree_path(path, sizeof(path), "root/sys/block/dm-0/dm/uuid");
		chmod(path, 0);
		is_int(ds_devid_read(&r, "dm-0", id), -EACCES,
		    "dm/uuid unreadable: -EACCES");
		is_str(id, "", "and no identity (not the dm name)");
		chmod(path, 0644);
	} else
		skip("an unreadable attribute: -EACCES", "root reads anything");
}

int
main(void)
{
	char root[300];

	tree_make("ds-devid");
	build();
	snprintf(root, sizeof(root), "%s/root", tree_top);
	if (ds_root_open(&r, root) < 0) {
		printf("# cannot open %s\n", tree_top);
		return 1;
	}
	t_read();
	ds_root_close(&r);
	tree_remove();
	return tap_done();
}
