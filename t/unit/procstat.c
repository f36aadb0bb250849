/* /proc/stat: the cpu line, CPU count, procs_running/blocked, iowait share. */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"
#include "tap.h"

static int
parse(const char *text, struct ds_procstat *s)
{
	return ds_procstat_parse(text, strlen(text), s);
}

int
main(void)
{
	struct ds_procstat a, b;
	struct ds_root r;
	struct ds_buf buf = { 0 };
	double pct = -1;
	char big[4096];

	is_int(parse("cpu  100 5 50 800 40 1 4 0 0 0\n"
	    "cpu0 50 2 25 400 20 1 2 0 0 0\n"
	    "cpu1 50 3 25 400 20 0 2 0 0 0\n"
	    "intr 12345 1 2 3\nctxt 999\nbtime 1764470000\n"
	    "processes 4242\nprocs_running 3\nprocs_blocked 8\n"
	    "softirq 1 2 3\n", &a), 0, "a 6.x /proc/stat parses");
	is_u64(a.cpu[DS_CPU_USER], 100, "user");
	is_u64(a.cpu[DS_CPU_IOWAIT], 40, "iowait");
	is_u64(a.cpu[DS_CPU_SOFTIRQ], 4, "softirq");
	is_int((int)a.ncpu_fields, 10, "ten cpu fields");
	is_int((int)a.ncpus, 2, "two CPUs");
	is_u64(a.procs_running, 3, "procs_running");
	is_u64(a.procs_blocked, 8, "procs_blocked");
	is_int((int)a.have, DS_PS_CPU | DS_PS_RUNNING | DS_PS_BLOCKED,
	    "every part had");

	is_int(parse("cpu  200 5 100 1600 140 1 4 0 0 0\nprocs_blocked 1",
	    &b), 0, "no final newline");
	is_u64(b.procs_blocked, 1, "last line read");
	ok(!(b.have & DS_PS_RUNNING), "procs_running missing: bit clear");
	/* 100 + 50 + 800 + 100 of user, system, idle, iowait: 100/1050. */
	is_int(ds_procstat_iowait(&a, &b, &pct), 0, "iowait share");
	is_int((int)(pct * 1000 + 0.5), 9524, "iowait 9.524%");
	/* iowait stepping back counts 0. */
	b.cpu[DS_CPU_IOWAIT] = 30;
	is_int(ds_procstat_iowait(&a, &b, &pct), 0, "iowait back: still a share");
	is_int((int)(pct * 1000 + 0.5), 0, "iowait that went back counts 0");
	is_int(ds_procstat_iowait(&a, &a, &pct), -EINVAL, "no time: -EINVAL");

	is_int(parse("cpu  1 2 3 4\n", &a), 0, "a 2.4 line of four fields");
	is_int(ds_procstat_iowait(&a, &a, &pct), -EINVAL,
	    "no iowait field: -EINVAL");
	is_int(parse("cpu0 1 2 3 4\nprocs_blocked 2\n", &a), -EINVAL,
	    "no all-CPU line: -EINVAL");
	is_int(parse("cpu 1 2 x 4\n", &a), -EINVAL, "a word in the cpu line");
	is_int(parse("cpu 1 2 -3 4\n", &a), -EINVAL, "a sign in the cpu line");
	is_int(parse("cpu 1 2\n", &a), -EINVAL, "two fields are too few");
	is_int(parse("cpu 1 2 3 4\ncpu 1 2 3 4\n", &a), -EINVAL,
	    "two all-CPU lines");
	is_int(parse("cpu 1 2 3 4\nprocs_blocked x\n", &a), 0,
	    "a damaged count: the file still parses");
	ok(!(a.have & DS_PS_BLOCKED), "and the count is not had");
	is_int(parse("cpu 1 2 3 4 5 6 7 8 9 10 11 12\n", &a), 0,
	    "a future kernel's longer line");
	is_int((int)a.ncpu_fields, DS_CPU_N, "extra fields ignored");
	/* A long intr line is skipped whole. */
	memset(big, '7', sizeof(big));
	memcpy(big, "cpu 1 2 3 4 5\nintr ", 19);
	memcpy(big + sizeof(big) - 17, "\nprocs_blocked 5", 16);
	is_int(ds_procstat_parse(big, sizeof(big) - 1, &a), 0,
	    "a 4 KiB intr line");
	is_u64(a.procs_blocked, 5, "the line after it read");

	/* The running system's. */
	is_int(ds_root_open(&r, "/"), 0, "root /");
	is_int(ds_procstat_read(&r, &buf, &a), 0, "/proc/stat reads");
	ok(a.ncpus >= 1 && (a.have & DS_PS_BLOCKED), "live: CPUs and blocked");
	ds_root_close(&r);
	ds_buf_free(&buf);
	return tap_done();
}
