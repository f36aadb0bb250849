/* mountinfo, /proc/PID/stat and /proc/PID/io parsing; name heuristics. */
#include <errno.h>
#include <string.h>

#include "internal.h"
#include "tap.h"

int
main(void)
{
	struct ds_mounts ms = { 0 };
	const struct ds_mount *m;
	struct ds_stat st;
	struct ds_io io;
	char mi[] =
	    "22 27 0:21 / /proc rw,relatime - proc proc rw\n"
	    "33 24 0:28 / /sys/fs/cgroup ro,nosuid shared:9 - tmpfs tmpfs ro\n"
	    "40 33 0:35 / /sys/fs/cgroup/unified rw shared:10 master:2 - cgroup2 cgroup2 rw,nsdelegate\n"
	    "41 27 8:1 /a\\040dir /mnt/with\\040space\\011tab rw - ext4 /dev/sda1 rw\n"
	    "garbage line\n"
	    "42 27 8:1 / /mnt/x rw shared:1\n";
	/* comm "a) b (c" holds ") " and "(": parse from the last ')'. */
	static const char stat1[] =
	    "68927 (test(cmd).sh) S 68044 68927 68044 34818 68927 4194304 165 0 0 0 "
	    "7 9 0 0 20 0 1 0 114413973 9961472 868 18446744073709551615 94388826710016 "
	    "94388827626021 140725039102800 0 0 0 2 4 65536 1 0 0 17 1 0 0 123 0 0 "
	    "94388827875984 94388827924080 94388835627008 140725039105503 140725039105528 "
	    "140725039105528 140725039108073 0\n";
	static const char stat2[] =
	    "12 (a) b\n\t(c) R 1 12 12 0 -1 4194304 0 0 0 0 0 0 0 0 20 0 3 0 500 0 0 "
	    "18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 0 0 0\n";

	is_int(ds_mountinfo_parse(mi, &ms), 0, "mountinfo parses");
	is_int((int)ms.n, 4, "four mounts");
	is_int((int)ms.bad, 2, "two bad lines");
	m = ds_mount_cgroup2(&ms);
	ok(m != NULL && strcmp(m->mnt, "/sys/fs/cgroup/unified") == 0,
	    "hybrid cgroup2 mount found from the table");
	m = ds_mount_by_id(&ms, 41);
	ok(m != NULL, "mount by id");
	if (m != NULL) {
		is_str(m->mnt, "/mnt/with space\ttab", "mount point unescaped");
		is_str(m->root, "/a dir", "root unescaped");
		is_str(m->fstype, "ext4", "fstype after the dash");
		is_str(m->source, "/dev/sda1", "source");
		is_int((int)m->major, 8, "major");
		is_int((int)m->minor, 1, "minor");
	}
	ok(ds_mount_by_id(&ms, 99) == NULL, "unknown id");
	ds_mounts_free(&ms);

	is_int(ds_stat_parse(stat1, sizeof(stat1) - 1, &st), 0, "stat parses");
	is_str(st.comm, "test(cmd).sh", "comm with parentheses");
	is_int(st.pid, 68927, "pid");
	is_int(st.state, 'S', "state");
	is_int(st.ppid, 68044, "ppid");
	is_u64(st.utime, 7, "utime");
	is_u64(st.stime, 9, "stime");
	is_u64(st.starttime, 114413973, "starttime");
	ok(st.have_blkio, "field 42 present");
	is_u64(st.blkio_ticks, 123, "delayacct_blkio_ticks");

	is_int(ds_stat_parse(stat2, sizeof(stat2) - 1, &st), 0,
	    "stat with ') ' and newline in comm");
	is_str(st.comm, "a) b\n\t(c", "comm to the last )");
	is_int(st.state, 'R', "state after the last )");
	is_u64(st.num_threads, 3, "threads");
	ok(!st.have_blkio, "short line: no field 42");
	is_int(ds_stat_parse("12 (x) R 1", 10, &st), -EINVAL, "truncated stat");
	is_int(ds_stat_parse("garbage", 7, &st), -EINVAL, "no parentheses");

	is_int(ds_io_parse("rchar: 750339\nwchar: 818609\nsyscr: 7405\n"
	    "syscw: 5245\nread_bytes: 1024\nwrite_bytes: 2048\n"
	    "cancelled_write_bytes: -1024\n", &io), 0, "io parses");
	is_u64(io.v[DS_IO_RCHAR], 750339, "rchar");
	is_u64(io.v[DS_IO_WRITE_BYTES], 2048, "write_bytes");
	ok(!(io.have & (1u << DS_IO_CANCELLED_WRITE_BYTES)),
	    "negative value not kept");
	is_int(ds_io_parse("", &io), -EINVAL, "empty io");

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
	return tap_done();
}
