/*
 * Block I/O errors from the kernel log: records copied from this
 * machine's /dev/kmsg (6.18: a loop device over a FUSE file that fails
 * reads, and mkfs on a loop device refused WRITE_ZEROES), crafted ones
 * in the older formats, the window, damaged and hostile records, a
 * tree's dev/kmsg, the live log, and the SCSI error counters.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"
#include "tree.h"

/* Seen on 6.18 (continuation lines as a dev_printk record has them). */
static const char real[] =
    "6,195,216440,-;acpi PNP0A08:00: _OSC: OS supports [ExtendedConfig ASPM ClockPM Segments MSI HPX-Type3]\n"
    " SUBSYSTEM=acpi\n"
    " DEVICE=+acpi:PNP0A08:00\n"
    "3,402,3573707925,-;operation not supported error, dev loop0, sector 524160 op 0x9:(WRITE_ZEROES) flags 0x20000800 phys_seg 0 prio class 2\n"
    "6,562,5269802854,-;loop1: detected capacity change from 0 to 131072\n"
    "3,563,5269839302,-;I/O error, dev loop1, sector 2048 op 0x0:(READ) flags 0x800 phys_seg 1 prio class 2\n"
    "3,564,5269867194,-;I/O error, dev loop1, sector 2400 op 0x0:(READ) flags 0x80700 phys_seg 1 prio class 2\n"
    "3,565,5269870562,-;I/O error, dev loop1, sector 2400 op 0x0:(READ) flags 0x0 phys_seg 1 prio class 2\n"
    "3,566,5269872052,-;Buffer I/O error on dev loop1, logical block 300, async page read\n"
    "6,614,5565986258,-;loop0: detected capacity change from 0 to 131072\n"
    "3,615,5566046711,-;I/O error, dev loop0, sector 2056 op 0x0:(READ) flags 0x800 phys_seg 1 prio class 2\n"
    "3,616,5566061290,-;I/O error, dev loop0, sector 2064 op 0x0:(READ) flags 0x800 phys_seg 1 prio class 2\n"
    "3,617,5566074550,-;I/O error, dev loop0, sector 2072 op 0x0:(READ) flags 0x800 phys_seg 1 prio class 2\n"
    "3,618,5566089217,-;I/O error, dev loop0, sector 2080 op 0x0:(READ) flags 0x800 phys_seg 1 prio class 2\n"
    "3,619,5566103209,-;I/O error, dev loop0, sector 2088 op 0x0:(READ) flags 0x800 phys_seg 1 prio class 2\n"
    "3,620,5566115172,-;I/O error, dev loop0, sector 2096 op 0x0:(READ) flags 0x800 phys_seg 1 prio class 2\n"
    "3,621,5566129635,-;I/O error, dev loop0, sector 2104 op 0x0:(READ) flags 0x800 phys_seg 1 prio class 2\n"
    "3,622,5566141932,-;I/O error, dev loop0, sector 2112 op 0x0:(READ) flags 0x800 phys_seg 1 prio class 2\n"
    "3,623,5566150301,-;I/O error, dev loop0, sector 2120 op 0x0:(READ) flags 0x800 phys_seg 1 prio class 2\n"
    "3,624,5566162749,-;I/O error, dev loop0, sector 2128 op 0x0:(READ) flags 0x800 phys_seg 1 prio class 2\n"
    "4,625,5571961422,-;blk_print_req_error: 20 callbacks suppressed\n"
    "3,626,5571961430,-;I/O error, dev loop0, sector 3200 op 0x0:(READ) flags 0x800 phys_seg 1 prio class 2\n";

static const struct ds_ioerr *
find(const struct ds_ioerrs *o, const char *dev)
{
	size_t i;

	for (i = 0; i < o->n; i++)
		if (strcmp(o->e[i].dev, dev) == 0)
			return &o->e[i];
	return NULL;
}

/* Each line of text to ds_kmsg_record; the number counted. */
static int
feed(const char *text, uint64_t from, uint64_t to, struct ds_ioerrs *o)
{
	const char *p = text, *nl;
	int n = 0, k;

	for (; *p != '\0'; p = nl + 1) {
		nl = strchr(p, '\n');
		if ((k = ds_kmsg_record(p, (size_t)(nl - p), from, to, o)) > 0)
			n += k;
	}
	return n;
}

static void
real_records(void)
{
	struct ds_ioerrs o = { 0 };
	const struct ds_ioerr *e;

	is_int(feed(real, 0, UINT64_MAX, &o), 15, "real: 15 errors counted");
	is_int(o.records, 20, "real: 20 records (continuation lines are none)");
	is_int(o.malformed, 0, "real: none malformed");
	is_int(o.ignored, 1, "real: WRITE_ZEROES not supported: ignored");
	is_int(o.n, 2, "real: two disks");
	ok(o.n == 2 && strcmp(o.e[0].dev, "loop1") == 0 &&
	    strcmp(o.e[1].dev, "loop0") == 0, "real: in the order first seen");
	if ((e = find(&o, "loop1")) != NULL) {
		is_u64(e->count, 4, "loop1: four messages");
		is_u64(e->buffer, 1, "loop1: one of them a Buffer I/O error");
		is_u64(e->first_us, 5269839302ULL, "loop1: first at its timestamp");
		is_u64(e->last_us, 5269872052ULL, "loop1: last at its timestamp");
		is_u64(e->sector, 2048, "loop1: first sector");
		is_int(e->have_sector, 1, "loop1: has a sector");
		is_str(e->op, "READ", "loop1: READ");
		is_str(e->kind, "I/O error", "loop1: I/O error");
		is_u64(e->suppressed, 0, "loop1: nothing suppressed");
	}
	if ((e = find(&o, "loop0")) != NULL) {
		is_u64(e->count, 11, "loop0: 11 messages");
		is_u64(e->suppressed, 20, "loop0: 20 suppressed before its last");
		is_u64(e->sector, 2056, "loop0: first sector 2056");
	}
	is_u64(o.suppressed, 0, "real: pending notes belong to a disk");
	ds_ioerrs_free(&o);

	/* The window is inclusive at both ends. */
	is_int(feed(real, 5566089217ULL, 5566141932ULL, &o), 5,
	    "window: the 5 records from its first to its last us");
	e = find(&o, "loop0");
	ok(o.n == 1 && e != NULL && e->sector == 2080 &&
	    e->first_us == 5566089217ULL && e->last_us == 5566141932ULL,
	    "window: loop0 from sector 2080");
	ds_ioerrs_free(&o);
	is_int(feed(real, 5566089218ULL, 5566141931ULL, &o), 3,
	    "window: one us inside each end: 3");
	ds_ioerrs_free(&o);
	is_int(feed(real, 5571961423ULL, UINT64_MAX, &o), 1,
	    "window: after the note, its message only");
	e = find(&o, "loop0");
	ok(e != NULL && e->suppressed == 0, "window: a note outside it is not counted");
	ds_ioerrs_free(&o);
	is_int(feed(real, 5571961422ULL, 5571961429ULL, &o), 0,
	    "window: the note, not its message");
	is_u64(o.pending, 20, "window: the note waits for a message");
	ds_ioerrs_free(&o);
	is_int(feed(real, 9000000000ULL, UINT64_MAX, &o), 0, "window: after all: none");
	is_int(o.records, 20, "window: all records read");
	ds_ioerrs_free(&o);
}

static void
formats(void)
{
	static const struct {
		const char *rec;
		const char *dev, *op, *kind;
		uint64_t sector;
		int have_sector;
	} c[] = {
		{ "3,1,10,-;blk_update_request: I/O error, dev sda, sector 1234 op 0x1:(WRITE) flags 0x0 phys_seg 1 prio class 0",
		    "sda", "WRITE", "I/O error", 1234, 1 },
		{ "3,1,10,-;print_req_error: I/O error, dev sdb, sector 99 op 0x1 flags 0x0",
		    "sdb", "WRITE", "I/O error", 99, 1 },
		{ "3,1,10,-;print_req_error: critical medium error, dev sdc, sector 7",
		    "sdc", "", "critical medium error", 7, 1 },
		{ "3,1,10,-;blk_update_request: I/O error, dev sdd, sector 18446744073709551615",
		    "sdd", "", "I/O error", UINT64_MAX, 1 },
		{ "3,1,10,-;end_request: I/O error, dev hda, sector 5",
		    "hda", "", "I/O error", 5, 1 },
		{ "3,1,10,-;critical medium error, dev nvme0n1, sector 4096 op 0x0:(READ) flags 0x0 phys_seg 1 prio class 2",
		    "nvme0n1", "READ", "critical medium error", 4096, 1 },
		{ "3,1,10,-;timeout error, dev sde, sector 8 op 0x3:(DISCARD) flags 0x0 phys_seg 1 prio class 0",
		    "sde", "DISCARD", "timeout error", 8, 1 },
		{ "3,1,10,-;I/O error, dev dm-3, sector 8 op 0x2:(FLUSH) flags 0x800 phys_seg 0 prio class 0",
		    "dm-3", "FLUSH", "I/O error", 8, 1 },
		{ "3,1,10,-;I/O error, dev sdf, sector 8 op 0x0 flags 0x0",
		    "sdf", "READ", "I/O error", 8, 1 },
		{ "3,1,10,-;I/O error, dev sdg, sector 8 op 0x7 flags 0x0",
		    "sdg", "", "I/O error", 8, 1 },
		{ "3,1,10,c;Buffer I/O error on device sdh1, logical block 12",
		    "sdh1", "", "Buffer I/O error", 0, 0 },
		{ "3,1,10,-,caller=T12;Buffer I/O error on dev md0, logical block 9, lost async page write",
		    "md0", "WRITE", "Buffer I/O error", 0, 0 },
		{ "3,1,10,-;Buffer I/O error on dev zram0, logical block 1, lost sync page write",
		    "zram0", "WRITE", "Buffer I/O error", 0, 0 },
		{ "3,1,10,-;I/O error, dev 0:42, sector 1 op 0x0:(READ)",
		    "0:42", "READ", "I/O error", 1, 1 },
		{ "3,1,10,-;I/O error, dev a_b.c-d, sector 1 op 0x0:(READ_SOMETHING_LONGER)",
		    "a_b.c-d", "", "I/O error", 1, 1 },
	};
	struct ds_ioerrs o = { 0 };
	char name[80];
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		memset(&o, 0, sizeof(o));
		snprintf(name, sizeof(name), "format %zu (%s): counted", i, c[i].dev);
		is_int(ds_kmsg_record(c[i].rec, strlen(c[i].rec), 0, 100, &o), 1, name);
		if (o.n != 1)
			continue;
		snprintf(name, sizeof(name), "format %zu: dev", i);
		is_str(o.e[0].dev, c[i].dev, name);
		snprintf(name, sizeof(name), "format %zu: op", i);
		is_str(o.e[0].op, c[i].op, name);
		snprintf(name, sizeof(name), "format %zu: kind", i);
		is_str(o.e[0].kind, c[i].kind, name);
		snprintf(name, sizeof(name), "format %zu: sector", i);
		is_u64(o.e[0].sector, c[i].sector, name);
		snprintf(name, sizeof(name), "format %zu: have_sector", i);
		is_int(o.e[0].have_sector, c[i].have_sector, name);
		ds_ioerrs_free(&o);
	}
}

static void
damaged(void)
{
	static const char *const bad[] = {
		"",				/* not records at all: 0 */
		" SUBSYSTEM=block",
		"3,1,10,-",			/* no ';' */
		"3,1,10;I/O error, dev sda, sector 1",	/* no flags */
		"3,1,x,-;I/O error, dev sda, sector 1",
		"3,,10,-;I/O error, dev sda, sector 1",
		"-3,1,10,-;I/O error, dev sda, sector 1",
		"3,1,18446744073709551616,-;I/O error, dev sda, sector 1",
		";I/O error, dev sda, sector 1",
		"3 1 10 -;I/O error, dev sda, sector 1",
	};
	static const char *const none[] = {
		/* Not the kernel's: facility user (a write to /dev/kmsg). */
		"11,1,10,-;I/O error, dev sda, sector 1 op 0x0:(READ)",
		"14,1,10,-;blk_print_req_error: 5 callbacks suppressed",
		/* Not quite the messages. */
		"3,1,10,-;I/O error, dev sda",
		"3,1,10,-;I/O error, dev sda, sector",
		"3,1,10,-;I/O error, dev sda, sector x",
		"3,1,10,-;I/O error, dev sda, sector 18446744073709551616",
		"3,1,10,-;error, dev sda, sector 1",
		"3,1,10,-;BAD\\x1b[31m error, dev sda, sector 1",
		"3,1,10,-;Buffer I/O error on dev sda1",
		"3,1,10,-;Buffer I/O error on devsda1, logical block 1",
		"3,1,10,-;Buffer I/O error on dev sda1, logical block x",
		"3,1,10,-;blk_print_req_error: 5 callbacks suppressed!",
		"3,1,10,-;nobody: 5 callbacks suppressed",
		"3,1,10,-;nonblocking retry error, dev sda, sector 1 op 0x0:(READ)",
	};
	static const char *const hostile[] = {
		"3,1,10,-;I/O error, dev ../../etc, sector 1",
		"3,1,10,-;I/O error, dev sd\\x1b[31ma, sector 1",
		"3,1,10,-;I/O error, dev ?, sector 1 op 0x0:(READ)",
		"3,1,10,-;I/O error, dev sd a, sector 1",
		"3,1,10,-;I/O error, dev , sector 1",
		"3,1,10,-;I/O error, dev abcdefghijabcdefghijabcdefghijab, sector 1",
		"3,1,10,-;Buffer I/O error on dev a/b, logical block 1",
		"3,1,10,-;Buffer I/O error on dev sd\x7f, logical block 1",
	};
	struct ds_ioerrs o = { 0 };
	char rec[96], name[96];
	size_t i, want = 0;
	int k;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		k = ds_kmsg_record(bad[i], strlen(bad[i]), 0, UINT64_MAX, &o);
		snprintf(name, sizeof(name), "damaged %zu: %s", i,
		    i < 2 ? "not a record: 0" : "-EINVAL");
		is_int(k, i < 2 ? 0 : -EINVAL, name);
		want += i >= 2;
	}
	is_int(o.malformed, want, "damaged: counted");
	is_int(o.records, want, "damaged: as records");
	is_int(o.n, 0, "damaged: no disk");
	memset(&o, 0, sizeof(o));
	for (i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
		snprintf(name, sizeof(name), "no error %zu: %.40s", i, none[i] + 9);
		is_int(ds_kmsg_record(none[i], strlen(none[i]), 0, UINT64_MAX, &o), 0, name);
	}
	ok(o.n == 0 && o.malformed == 0 && o.refused == 0 && o.pending == 0,
	    "no error: nothing counted, no note pending");
	is_int(o.ignored, 1, "no error: a nonblocking retry ignored");
	memset(&o, 0, sizeof(o));
	for (i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		snprintf(name, sizeof(name), "hostile name %zu: refused", i);
		is_int(ds_kmsg_record(hostile[i], strlen(hostile[i]), 0, UINT64_MAX, &o), 0, name);
	}
	is_int(o.refused, sizeof(hostile) / sizeof(hostile[0]), "hostile: all refused and counted");
	is_int(o.n, 0, "hostile: no disk");
	/* A NUL inside the name, and a record cut short by len. */
	memcpy(rec, "3,1,10,-;I/O error, dev sd\0a, sector 1", 38);
	is_int(ds_kmsg_record(rec, 38, 0, UINT64_MAX, &o), 0, "a NUL in a name: refused");
	is_int(o.refused, sizeof(hostile) / sizeof(hostile[0]) + 1, "and counted");
	snprintf(rec, sizeof(rec), "3,1,10,-;I/O error, dev sda, sector 12345");
	is_int(ds_kmsg_record(rec, strlen(rec) - 3, 0, UINT64_MAX, &o), 1,
	    "len is the record's end");
	ok(o.n == 1 && o.e[0].sector == 12, "the sector ends at len");
	/* What follows the first newline is the continuation. */
	snprintf(rec, sizeof(rec), "3,1,10,-;x\n 3,1,10,-;I/O error, dev sdz, sector 1");
	is_int(ds_kmsg_record(rec, strlen(rec), 0, UINT64_MAX, &o), 0,
	    "a continuation line is not a record");
	ds_ioerrs_free(&o);
	/* A note with no message after it in the window. */
	snprintf(rec, sizeof(rec), "4,1,10,-;buffer_io_error: 7 callbacks suppressed");
	is_int(ds_kmsg_record(rec, strlen(rec), 0, UINT64_MAX, &o), 0, "a note alone");
	is_u64(o.pending, 7, "its count pending");
	snprintf(rec, sizeof(rec), "4,1,11,-;print_req_error: 18446744073709551615 callbacks suppressed");
	(void)ds_kmsg_record(rec, strlen(rec), 0, UINT64_MAX, &o);
	is_u64(o.pending, UINT64_MAX, "pending notes saturate");
	ds_ioerrs_free(&o);
}

static void
tree_and_live(void)
{
	struct ds_root r;
	struct ds_ioerrs o = { 0 };
	struct ds_buf b = { 0 };
	char path[4096], *big;
	uint64_t ioerr = 0, iotmo = 0;
	size_t len;
	int e;

	tree_make("kmsg-unit");
	tree_put("dev/kmsg", real);
	tree_put("sys/block/sda/device/ioerr_cnt", "0x1f\n");
	tree_put("sys/block/sda/device/iotmo_cnt", "0x0\n");
	tree_put("sys/block/sdb/device/ioerr_cnt", "0xZZ\n");
	tree_put("sys/block/sdb/device/iotmo_cnt", "0x1\n");
	tree_put("sys/block/sdc/device/ioerr_cnt", "0x10000000000000000\n");
	tree_put("sys/block/sdc/device/iotmo_cnt", "0x1\n");
	tree_put("sys/block/sdd/device/ioerr_cnt", "0xffffffffffffffff");
	tree_put("sys/block/sdd/device/iotmo_cnt", "17\n");
	tree_put("sys/block/sde/device/ioerr_cnt", "0x\n");
	tree_put("sys/block/sde/device/iotmo_cnt", "0x1\n");
	tree_dir("sys/block/vda/device");
	ok(ds_root_open(&r, tree_top) == 0, "tree opened");
	is_int(ds_kmsg_ioerrs(&r, 0, UINT64_MAX, &o), 0, "tree: dev/kmsg read");
	ok(o.n == 2 && o.records == 20 && o.malformed == 0,
	    "tree: the same as record by record");
	ok(find(&o, "loop0") != NULL && find(&o, "loop0")->count == 11 &&
	    find(&o, "loop0")->suppressed == 20, "tree: loop0's 11 and 20");
	is_int(ds_kmsg_ioerrs(&r, 5566089217ULL, 5566141932ULL, &o), 0, "tree: a window");
	ok(o.n == 1 && o.e[0].count == 5, "tree: replaced, 5 in the window");
	/* A note at the end with no message after it. */
	tree_put("dev/kmsg", "4,1,10,-;blk_print_req_error: 3 callbacks suppressed\n"
	    "garbage\n");
	is_int(ds_kmsg_ioerrs(&r, 0, UINT64_MAX, &o), 0, "tree: a note alone");
	ok(o.n == 0 && o.suppressed == 3 && o.pending == 0 && o.malformed == 1,
	    "tree: its count unattributed, the garbage counted");
	/* A line too long for the window: one malformed record. */
	len = DS_LINES_WINDOW * 2 + 10;
	if ((big = malloc(len + 1)) != NULL) {
		memset(big, 'x', len);
		memcpy(big, "3,1,10,-;", 9);
		big[len - 1] = '\n';
		big[len] = '\0';
		tree_put("dev/kmsg", big);
		free(big);
		is_int(ds_kmsg_ioerrs(&r, 0, UINT64_MAX, &o), 0, "tree: a huge line");
		ok(o.records == 1 && o.malformed == 1, "tree: a huge line is one malformed record");
	}
	tree_path(path, sizeof(path), "dev/kmsg");
	unlink(path);
	is_int(ds_kmsg_ioerrs(&r, 0, UINT64_MAX, &o), -ENOENT, "tree: none: -ENOENT");
	ok(mkfifo(path, 0600) == 0, "a FIFO for dev/kmsg");
	is_int(ds_kmsg_ioerrs(&r, 0, UINT64_MAX, &o), -EINVAL, "tree: a FIFO: -EINVAL, not a hang");
	unlink(path);
	tree_dir("dev/kmsg");
	is_int(ds_kmsg_ioerrs(&r, 0, UINT64_MAX, &o), -EINVAL, "tree: a directory: -EINVAL");
	rmdir(path);
	if (geteuid() == 0 && mknod(path, S_IFCHR | 0600, makedev(1, 11)) == 0) {
		is_int(ds_kmsg_ioerrs(&r, 0, UINT64_MAX, &o), -EINVAL,
		    "tree: a device node is never opened");
		unlink(path);
	} else
		skip("tree: a device node", "needs root");
	tree_link("dev/kmsg", "/../../../../../../proc/kmsg");
	is_int(ds_kmsg_ioerrs(&r, 0, UINT64_MAX, &o), -ENOENT,
	    "tree: a link out of the tree stays in it");

	is_int(ds_scsi_errcnt(&r, "sda", &b, &ioerr, &iotmo), 0, "scsi: sda read");
	ok(ioerr == 31 && iotmo == 0, "scsi: 0x1f and 0x0");
	is_int(ds_scsi_errcnt(&r, "sdd", &b, &ioerr, &iotmo), 0, "scsi: sdd read");
	ok(ioerr == UINT64_MAX && iotmo == 0x17, "scsi: the largest, and hex without 0x");
	is_int(ds_scsi_errcnt(&r, "sdb", &b, &ioerr, &iotmo), -EINVAL, "scsi: not hex: -EINVAL");
	is_int(ds_scsi_errcnt(&r, "sdc", &b, &ioerr, &iotmo), -ERANGE, "scsi: too large: -ERANGE");
	is_int(ds_scsi_errcnt(&r, "sde", &b, &ioerr, &iotmo), -EINVAL, "scsi: no digits: -EINVAL");
	is_int(ds_scsi_errcnt(&r, "vda", &b, &ioerr, &iotmo), -ENOENT, "scsi: not SCSI: -ENOENT");
	is_int(ds_scsi_errcnt(&r, "nope", &b, &ioerr, &iotmo), -ENOENT, "scsi: no disk: -ENOENT");
	is_int(ds_scsi_errcnt(&r, "../sda", &b, &ioerr, &iotmo), -EINVAL, "scsi: a path: -EINVAL");
	is_int(ds_scsi_errcnt(&r, "..", &b, &ioerr, &iotmo), -EINVAL, "scsi: ..: -EINVAL");
	is_int(ds_scsi_errcnt(&r, "", &b, &ioerr, &iotmo), -EINVAL, "scsi: empty: -EINVAL");
	ds_root_close(&r);
	tree_remove();

	/* Live: read to the end and come back (never blocks). */
	if (ds_root_open(&r, "/") == 0 && r.live) {
		e = ds_kmsg_ioerrs(&r, 0, UINT64_MAX, &o);
		if (e == -EPERM || e == -EACCES)
			skip("live: /dev/kmsg", "no CAP_SYSLOG");
		else if (e == -ENOENT)
			skip("live: /dev/kmsg", "no /dev/kmsg");
		else {
			is_int(e, 0, "live: /dev/kmsg read to its end");
			ok(o.records > 0 && o.malformed == 0, "live: records, none malformed");
		}
		ds_root_close(&r);
	}
	ds_ioerrs_free(&o);
	ds_buf_free(&b);
}

int
main(void)
{
	real_records();
	formats();
	damaged();
	tree_and_live();
	return tap_done();
}
