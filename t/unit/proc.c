/* lib/proc.c: /proc/PID/stat and /proc/PID/io parsing. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "tap.h"

/* Fields 5 to 41 of /proc/PID/stat after "S PPID ". */
#define REST "1 1 0 -1 4194560 0 0 0 0 3 4 0 0 20 0 1 0 99 0 0 " \
    "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 7\n"

static int
stat_ppid(const char *ppid, struct ds_stat *st)
{
	char text[512];

	snprintf(text, sizeof(text), "42 (x) S %s " REST, ppid);
	return ds_stat_parse(text, strlen(text), st);
}

int
main(void)
{
	struct ds_stat st;
	struct ds_io io;
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

	/* ds_stat_parse: ppid must fit an int, as pid does. */
	is_int(stat_ppid("1", &st), 0, "stat: ppid 1");
	is_int(st.ppid, 1, "stat: ppid value");
	is_int((int)st.blkio_ticks, 7, "stat: field 42 read");
	is_int(stat_ppid("2147483647", &st), 0, "stat: ppid INT32_MAX");
	is_int(st.ppid, INT32_MAX, "stat: ppid INT32_MAX value");
	is_int(stat_ppid("2147483648", &st), -EINVAL,
	    "stat: ppid INT32_MAX + 1 refused");
	is_int(stat_ppid("4294967295", &st), -EINVAL,
	    "stat: ppid 2^32 - 1 refused (was -1)");
	is_int(stat_ppid("18446744073709551615", &st), -EINVAL,
	    "stat: ppid UINT64_MAX refused");
	is_int(stat_ppid("-1", &st), -EINVAL, "stat: negative ppid refused");

	is_int(ds_io_parse("rchar: 750339\nwchar: 818609\nsyscr: 7405\n"
	    "syscw: 5245\nread_bytes: 1024\nwrite_bytes: 2048\n"
	    "cancelled_write_bytes: -1024\n", &io), 0, "io parses");
	is_u64(io.v[DS_IO_RCHAR], 750339, "rchar");
	is_u64(io.v[DS_IO_WRITE_BYTES], 2048, "write_bytes");
	ok(!(io.have & (1u << DS_IO_CANCELLED_WRITE_BYTES)),
	    "negative value not kept");
	is_int(ds_io_parse("", &io), -EINVAL, "empty io");

	return tap_done();
}
