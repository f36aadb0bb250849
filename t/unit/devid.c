/*
 * Device identity: ds_devid_read on fixture trees shaped as sysfs is
 * (dm, NVMe, SCSI through symlinks, virtio, loop), its order and
 * escaping, the bounds, symlinks that point out of the root; then the
 * id lines of a snapshot: written by dxstat -s (dx_snap_take), read
 * back by ds_snap_head_ids, and the malformed ones refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "dxstat/dxstat.h"
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
	ok(ds_devid_ok(idof("vdb"), strlen(idof("vdb"))),
	    "what is read is a valid id-line identity");

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

static void
t_checks(void)
{
	ok(ds_devid_name_ok("sda", 3), "name: sda");
	ok(!ds_devid_name_ok("", 0), "name: empty");
	ok(!ds_devid_name_ok("a b", 3), "name: a space");
	ok(!ds_devid_name_ok("a\tb", 3), "name: a tab");
	ok(!ds_devid_name_ok("a\001", 2), "name: a control byte");
	ok(ds_devid_ok("wwid=t10.ATA QEMU", 17), "identity: inner space");
	ok(!ds_devid_ok(" x", 2), "identity: leading space");
	ok(!ds_devid_ok("x ", 2), "identity: trailing space");
	ok(!ds_devid_ok("x\ty", 3), "identity: a tab");
	ok(!ds_devid_ok("x\377", 2), "identity: a high byte");
	ok(!ds_devid_ok("", 0), "identity: empty");
}

/* text parsed as a snapshot header: 0 or -errno; why into why. */
static int
head(const char *text, struct ds_devids *ids, struct ds_buf *why)
{
	struct ds_buf w = { 0 };
	struct ds_lines l;
	struct ds_snap s;
	char path[4096];
	int fd, e;

	tree_put("snap", text);
	tree_path(path, sizeof(path), "snap");
	if ((fd = open(path, O_RDONLY)) < 0)
		return -errno;
	ds_lines_fd(&l, fd, &w);
	memset(&s, 0, sizeof(s));
	e = ds_snap_head_ids(&l, &s, ids);
	if (ds_snap_bad_msg(&s, why) < 0)
		exit(1);
	if (e == 0) {
		/* The counters follow, none taken for damage. */
		e = ds_diskstats_fill(&l, &s.ds);
		if (e == 0 && s.ds.bad != 0)
			e = -EBADMSG;
		ds_diskstats_free(&s.ds);
	}
	close(fd);
	ds_buf_free(&w);
	return e;
}

static void
t_lines(void)
{
	struct ds_devids ids = { 0 };
	struct ds_buf why = { 0 };

	is_int(head("uptime 10.00\nid sdb wwid=naa.2\nid sda serial=A B\n"
	    "   8 0 sda 1 2 3 4 5 6 7 8 9 10 11\n", &ids, &why), 0,
	    "id lines read, the counters after them");
	is_int((int)ids.n, 2, "two identities");
	is_str(ds_devids_get(&ids, "sda"), "serial=A B", "sda's, inner space kept");
	is_str(ds_devids_get(&ids, "sdb"), "wwid=naa.2", "sdb's (sorted)");
	ok(ds_devids_get(&ids, "sdc") == NULL, "none for sdc");
	is_int(head("id sda  serial=X  \t\nuptime 10.00\n", &ids, &why),
	    0, "before uptime, with trailing blanks");
	is_str(ds_devids_get(&ids, "sda"), "serial=X", "trailing blanks dropped");
	is_int(head("uptime 10.00\n   8 0 sda 1 2 3 4 5 6 7 8 9 10 11\n", &ids,
	    &why), 0, "no id lines: valid");
	is_int((int)ids.n, 0, "no identities (emptied from the last file)");

	is_int(head("uptime 1\nid sda\n", &ids, &why), -EINVAL,
	    "id without identity refused");
	is_str(why.data, "line 2: id line: no identity", "why, on line 2");
	is_int(head("uptime 1\nid sda x\001y\n", &ids, &why), -EINVAL,
	    "control byte refused");
	is_str(why.data, "line 2: id line: identity too long or not printable",
	    "why");
	is_int(head("uptime 1\nid   \n", &ids, &why), -EINVAL,
	    "no name refused");
	is_str(why.data, "line 2: id line: not a device name", "why");
	is_int(head("uptime 1\nid sda a\nid sda b\n", &ids, &why),
	    -EINVAL, "a name twice refused when kept");
	is_str(why.data, "line 4: id line: a device named twice", "why");
	is_int(head("uptime 1\nid sda a\nid sda b\n", NULL, &why), 0,
	    "not kept: only each line checked");
	is_int(head("id sda a\n   8 0 sda 1 2 3 4 5 6 7 8 9 10 11\n", &ids,
	    &why), -EINVAL, "still no uptime line: refused");
	is_str(why.data, "line 2: no uptime line before the diskstats lines",
	    "why");
	{
		char text[600];

		memset(text, 'z', sizeof(text));
		memcpy(text, "uptime 1\nid sda ", 16);
		strcpy(text + 16 + DS_DEVID_MAX, "\n");
		is_int(head(text, &ids, &why), -EINVAL,
		    "an identity of DS_DEVID_MAX bytes refused");
	}
	/* An id line among the counters is damage, as any other line. */
	is_int(head("uptime 1\n   8 0 sda 1 2 3 4 5 6 7 8 9 10 11\nid sda x\n",
	    &ids, &why), -EBADMSG, "id after the counters: damage");
	is_str(why.data, "", "damage is not a header's: no sentence");
	ds_devids_free(&ids);
	ds_buf_free(&why);
}

/* dxstat -s on the tree: the header has the id lines, read back. */
static void
t_take(void)
{
	struct ds_buf text = { 0 }, scratch = { 0 }, hd = { 0 };
	struct ds_devids ids = { 0 };
	struct ds_buf why = { 0 };
	const char *rel;
	char *all;

	tree_put("root/proc/uptime", "100.00 50.00\n");
	tree_put("root/proc/diskstats", "   8 0 sda 1 2 3 4 5 6 7 8 9 10 11\n"
	    " 253 0 dm-0 1 2 3 4 5 6 7 8 9 10 11\n");
	is_int(dx_snap_take(&r, &text, &scratch, &hd, &rel), 0, "dx_snap_take");
	ok(strstr(hd.data, "uptime 100.000000000\n") == hd.data,
	    "the uptime line first");
	ok(strstr(hd.data, "\nid dm-0 dm-uuid=LVM-Q2kX7dG3aBcD\n") != NULL,
	    "id line of dm-0");
	ok(strstr(hd.data, "\nid sda wwid=naa.5000c500a1b2c3d4\n") != NULL,
	    "id line of sda (through its links)");
	ok(strstr(hd.data, "loop0") == NULL && strstr(hd.data, "zram0") == NULL,
	    "none for loop0 and zram0");
	ok(strstr(hd.data, "naa.outside") == NULL, "nothing from outside");
	ok(strstr(hd.data, "id dm-0") < strstr(hd.data, "id sda"),
	    "in name order");
	if ((all = malloc(hd.len + text.len + 1)) == NULL)
		exit(1);
	memcpy(all, hd.data, hd.len);
	memcpy(all + hd.len, text.data, text.len);
	all[hd.len + text.len] = '\0';
	is_int(head(all, &ids, &why), 0,
	    "the snapshot reads back, no damaged line");
	is_str(ds_devids_get(&ids, "vdb"), "serial=ab\\x01c\\x5cd\\xffe f",
	    "an escaped identity round trip");
	is_str(ds_devids_get(&ids, "sdb"), "wwid=t10.ATA QEMU HARDDISK QM00001",
	    "an identity with spaces round trip");
	is_int((int)why.len, 0, "no sentence");
	free(all);
	ds_devids_free(&ids);
	ds_buf_free(&why);
	ds_buf_free(&text);
	ds_buf_free(&scratch);
	ds_buf_free(&hd);
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
	t_checks();
	t_lines();
	t_take();
	ds_root_close(&r);
	tree_remove();
	return tap_done();
}
