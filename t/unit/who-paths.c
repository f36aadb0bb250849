/*
 * The paths a scan opens, built without printf: ids of one to ten
 * digits (2147483647 is the largest a -p or a directory can give), a
 * thread's files under proc/PID/task/TID, the cgroup of the process
 * (not of the thread), and -p ids with no directory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"
#include "tree.h"

/* proc/DIR/stat of pid, comm, with field 42 = blkio. */
static void
stat_file(const char *dir, int pid, const char *comm, int threads,
    unsigned blkio)
{
	char rel[128], line[512];

	snprintf(line, sizeof(line), "%d (%s) S 1 1 1 0 -1 4194304 0 0 0 0 "
	    "5 6 0 0 20 0 %d 0 77 0 0 18446744073709551615 0 0 0 0 0 0 0 0 "
	    "0 0 0 0 17 0 0 0 %u 0 0\n", pid, comm, threads, blkio);
	snprintf(rel, sizeof(rel), "proc/%s/stat", dir);
	tree_putn(rel, line, strlen(line));
}

static void
file(const char *dir, const char *leaf, const char *text, size_t len)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "proc/%s/%s", dir, leaf);
	tree_putn(rel, text, len);
}

static const char io[] = "rchar: 1\nwchar: 2\nsyscr: 3\nsyscw: 4\n"
    "read_bytes: 5\nwrite_bytes: 6\ncancelled_write_bytes: 7\n";

int
main(void)
{
	static const int ids[] = { 1, 9, 10, 99, 100, 4194304, 999999999,
	    1000000000, 2147483647 };
	struct ds_procs ps = { 0 };
	struct ds_root r;
	const struct ds_proc *p;
	char dir[64], comm[32], rm[300];
	size_t i, n = sizeof(ids) / sizeof(ids[0]);
	int sel[] = { 10, 77, 2147483647 }, good;

	snprintf(tree_top, sizeof(tree_top), "%s/who-paths.XXXXXX",
	    getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(tree_top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	tree_putn("proc/uptime", "100.00 1.00\n", 12);
	for (i = 0; i < n; i++) {
		snprintf(dir, sizeof(dir), "%d", ids[i]);
		snprintf(comm, sizeof(comm), "c%d", ids[i]);
		stat_file(dir, ids[i], comm, 1, (unsigned)i);
		file(dir, "io", io, sizeof(io) - 1);
		/* "cmd\0ID\0": NUL separated arguments. */
		snprintf(comm, sizeof(comm), "cmd_%d", ids[i]);
		comm[3] = '\0';
		file(dir, "cmdline", comm, 4 + strlen(comm + 4) + 1);
		snprintf(comm, sizeof(comm), "0::/g%d\n", ids[i]);
		file(dir, "cgroup", comm, strlen(comm));
	}
	/* 2147483647 has two threads, the second with a ten-digit tid. */
	stat_file("2147483647", 2147483647, "c2147483647", 2, 8);
	stat_file("2147483647/task/2147483647", 2147483647, "lead", 2, 30);
	stat_file("2147483647/task/1000000001", 1000000001, "worker", 2, 12);
	file("2147483647/task/2147483647", "io", io, sizeof(io) - 1);
	file("2147483647/task/1000000001", "io", io, sizeof(io) - 1);
	file("2147483647/task/1000000001", "cmdline", "thr\0x\0", 6);
	file("2147483647/task/2147483647", "cmdline", "lead\0", 5);

	ok(ds_root_open(&r, tree_top) == 0, "tree opens");
	is_int(ds_procs_read(&r, DS_WHO_CMDLINE | DS_WHO_CGROUP |
	    DS_WHO_DELAY, NULL, 0, NULL, NULL, &ps), 0, "scan");
	is_int(ps.n, n, "every id length read");
	good = ps.n == n;
	for (i = 0; good && i < n; i++) {
		char want[32];

		p = &ps.p[i];
		snprintf(comm, sizeof(comm), "c%d", ids[i]);
		snprintf(dir, sizeof(dir), "cmd %d", ids[i]);
		snprintf(want, sizeof(want), "/g%d", ids[i]);
		good = p->pid == ids[i] && strcmp(p->comm, comm) == 0 &&
		    p->cmdline != NULL && strcmp(p->cmdline, dir) == 0 &&
		    p->cgroup != NULL && strcmp(p->cgroup, want) == 0 &&
		    p->io_err == 0 && p->io.v[DS_IO_CANCELLED_WRITE_BYTES] == 7;
		if (!good)
			printf("# pid %d: comm %s cmdline %s cgroup %s\n",
			    p->pid, p->comm, p->cmdline ? p->cmdline : "-",
			    p->cgroup ? p->cgroup : "-");
	}
	ok(good, "stat, io, cmdline and cgroup of each, 1 to 10 digits");
	p = ds_procs_find(&ps, 2147483647);
	ok(p != NULL && p->blkio_ticks == 42,
	    "delay summed over proc/2147483647/task/TID/stat");

	is_int(ds_procs_read(&r, DS_WHO_THREADS | DS_WHO_CMDLINE |
	    DS_WHO_CGROUP, sel + 2, 1, NULL, NULL, &ps), 0, "thread scan");
	is_int(ps.n, 2, "two threads");
	if (ps.n == 2) {
		ok(ps.p[0].pid == 1000000001 && ps.p[0].tgid == 2147483647 &&
		    strcmp(ps.p[0].comm, "worker") == 0 &&
		    ps.p[0].blkio_ticks == 12, "thread: its own stat");
		ok(ps.p[0].cmdline != NULL &&
		    strcmp(ps.p[0].cmdline, "thr x") == 0,
		    "thread: its own cmdline");
		ok(ps.p[0].cgroup != NULL &&
		    strcmp(ps.p[0].cgroup, "/g2147483647") == 0,
		    "thread: the process's cgroup");
		ok(ps.p[1].pid == 2147483647 && ps.p[1].blkio_ticks == 30 &&
		    strcmp(ps.p[1].cmdline, "lead") == 0, "thread: the leader");
	} else {
		ok(0, "thread: its own stat");
		ok(0, "thread: its own cmdline");
		ok(0, "thread: the process's cgroup");
		ok(0, "thread: the leader");
	}

	is_int(ds_procs_read(&r, 0, sel, 3, NULL, NULL, &ps), 0, "-p scan");
	ok(ps.n == 2 && ps.p[0].pid == 10 && ps.p[1].pid == 2147483647,
	    "-p: the two that exist, 77 skipped");

	ds_procs_free(&ps);
	ds_root_close(&r);
	snprintf(rm, sizeof(rm), "rm -rf '%s'", tree_top);
	if (system(rm) != 0)
		return 1;
	return tap_done();
}
