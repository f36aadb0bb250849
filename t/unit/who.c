/*
 * lib/who.c, processes and their I/O rates: cgroup lines, rates between
 * samples (pid reuse, new processes, counters going backwards,
 * unreadable io), and a scan of a small tree built here (threads
 * summed).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"
#include "tree.h"

static void
stat_line(char *buf, size_t size, int pid, const char *comm, int threads,
    unsigned long start, unsigned long blkio)
{
	snprintf(buf, size, "%d (%s) S 1 %d %d 0 -1 4194304 0 0 0 0 5 6 0 0 "
	    "20 0 %d 0 %lu 0 0 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 "
	    "17 0 0 0 %lu 0 0\n", pid, comm, pid, pid, threads, start, blkio);
}

/* ds_procs_each: what it was handed, in order. */
struct seen {
	int pid[8];
	uint64_t blkio[8];
	char comm[8][64];
	int n, stop_at;
	uint64_t uptime_ns;
};

static int
each_note(const struct ds_procs *scan, const struct ds_proc *p, void *arg)
{
	struct seen *s = arg;

	if (s->n < 8) {
		s->pid[s->n] = p->pid;
		s->blkio[s->n] = p->blkio_ticks;
		snprintf(s->comm[s->n], sizeof(s->comm[0]), "%s", p->comm);
	}
	s->uptime_ns = scan->uptime_ns;
	s->n++;
	return s->n == s->stop_at ? 7 : 0;
}

static int
keep_odd(const struct ds_proc *p, void *arg)
{
	(void)arg;
	return p->pid % 2 == 1;
}

int
main(void)
{
	struct ds_proc a, b;
	struct ds_who_rate r, s;
	struct ds_procs ps = { 0 };
	struct ds_buf buf = { 0 };
	struct ds_root root;
	const struct ds_proc *p;
	char line[512];
	const char *path;
	size_t len;
	int pids[] = { 300 };

	/* cgroup lines */
	ok(ds_proc_cgroup_parse("12:blkio:/a\n1:name=systemd:/s\n0::/v2/x\n",
	    &path, &len) == 0 && len == 5 && memcmp(path, "/v2/x", 5) == 0,
	    "cgroup: the v2 line wins");
	ok(ds_proc_cgroup_parse("2:name=systemd:/s\n3:cpu,blkio:/b\n",
	    &path, &len) == 0 && len == 2 && memcmp(path, "/b", 2) == 0,
	    "cgroup: v1 only, blkio in a list wins over name=systemd");
	ok(ds_proc_cgroup_parse("2:name=systemd:/s\n", &path, &len) == 0 &&
	    len == 2 && memcmp(path, "/s", 2) == 0, "cgroup: name=systemd");
	ok(ds_proc_cgroup_parse("0::/with space:colon", &path, &len) == 0 &&
	    len == 17, "cgroup: path with colon, no final newline");
	is_int(ds_proc_cgroup_parse("", &path, &len), -EINVAL, "cgroup: empty");
	is_int(ds_proc_cgroup_parse("garbage\n", &path, &len), -EINVAL,
	    "cgroup: garbage");

	/* rates */
	memset(&a, 0, sizeof(a));
	a.pid = 10;
	a.starttime = 1000;
	a.io.have = (1u << DS_IO_NFIELDS) - 1;
	a.io.v[DS_IO_READ_BYTES] = 4096;
	a.io.v[DS_IO_RCHAR] = 10000;
	a.have_blkio = 1;
	a.blkio_ticks = 50;
	b = a;
	b.io.v[DS_IO_READ_BYTES] = 4096 + 2048;
	b.io.v[DS_IO_RCHAR] = 10000 + 8192;
	b.io.v[DS_IO_WRITE_BYTES] = 1024 * 1024;
	b.blkio_ticks = 150;
	ds_who_rate(&a, &b, 2.0, 100, 1, &r);
	ok(r.active, "moved: active");
	ok(r.v[DS_WR_READ] == 1024 && r.v[DS_WR_WRITE] == 524288,
	    "bytes per second over 2 s");
	ok(r.v[DS_WR_DELAY] == 0.5, "100 ticks of 1/100 s over 2 s: 50%%");
	ds_who_rate(&a, &a, 2.0, 100, 1, &r);
	ok(!r.active && r.have == (1u << DS_WR_N) - 1, "idle: known zeros");
	ds_who_rate(&a, &b, 2.0, 100, 0, &r);
	ok(!(r.have & (1u << DS_WR_DELAY)), "delay off: unknown");

	/* pid reused: a different start time is a new process */
	b.starttime = 2000;
	ds_who_rate(&a, &b, 2.0, 100, 1, &r);
	ok(r.v[DS_WR_READ] == 6144.0 / 2 && r.v[DS_WR_DELAY] == 0.75,
	    "pid reuse: the new process's own counters over the span");
	ds_who_rate(NULL, &b, 2.0, 100, 1, &s);
	ok(memcmp(&r, &s, sizeof(r)) == 0, "new process: same as reuse");

	/* backwards (thread exit drops the delay sum): zero, not huge */
	b = a;
	b.blkio_ticks = 10;
	b.io.v[DS_IO_RCHAR] = 5;
	ds_who_rate(&a, &b, 1.0, 100, 1, &r);
	ok(r.v[DS_WR_DELAY] == 0 && r.v[DS_WR_RCHAR] == 0,
	    "counters going backwards give 0");

	/* readahead: read_bytes above rchar, each as counted */
	b = a;
	b.io.v[DS_IO_READ_BYTES] += 100000;
	b.io.v[DS_IO_RCHAR] += 10;
	ds_who_rate(&a, &b, 1.0, 100, 1, &r);
	ok(r.v[DS_WR_READ] == 100000 && r.v[DS_WR_RCHAR] == 10,
	    "readahead: more read than asked for, as counted");

	/* unreadable io: bytes unknown, delay known */
	b = a;
	b.io_err = -EACCES;
	b.blkio_ticks = 60;
	ds_who_rate(&a, &b, 1.0, 100, 1, &r);
	ok(r.have == (1u << DS_WR_DELAY) && r.active,
	    "unreadable io: only the delay");
	ds_who_rate(&b, &a, 1.0, 100, 1, &r);
	ok(!(r.have & 1u), "earlier unreadable: no byte rate");

	/* a zero span never divides */
	ds_who_rate(&a, &b, 0, 100, 1, &r);
	ok(r.have == 0 && !r.active, "zero span: nothing known");

	/* sums */
	ds_who_rate(NULL, &a, 1.0, 100, 1, &r);
	s = r;
	ds_who_rate_add(&s, &r);
	ok(s.v[DS_WR_READ] == 8192 && s.have == r.have &&
	    s.v[DS_WR_RCHAR] == 2 * r.v[DS_WR_RCHAR], "sum adds");

	ok(ds_proc_age(&a, 20ull * 1000000000u, 100) == 10.0,
	    "age: uptime 20 s, started at tick 1000");
	ok(ds_proc_age(&a, 5ull * 1000000000u, 100) == 0, "age: not negative");

	/* a tree: pid 300 with three threads, 301 with unparsable io */
	snprintf(tree_top, sizeof(tree_top), "%s/who-unit.XXXXXX",
	    getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(tree_top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	tree_put("proc/uptime", "100.50 10.00\n");
	tree_put("proc/sys/kernel/task_delayacct", "1\n");
	stat_line(line, sizeof(line), 300, "a) b\n(c", 3, 500, 7);
	tree_put("proc/300/stat", line);
	tree_put("proc/300/io", "rchar: 100\nwchar: 200\nsyscr: 3\nsyscw: 4\n"
	    "read_bytes: 4096\nwrite_bytes: 8192\ncancelled_write_bytes: 0\n");
	tree_putn("proc/300/cmdline", "prog\0-x\0", 8);
	tree_put("proc/300/cgroup", "0::/box\n");
	tree_put("proc/300/task/300/stat", line);
	stat_line(line, sizeof(line), 302, "w1", 3, 510, 20);
	tree_put("proc/300/task/302/stat", line);
	stat_line(line, sizeof(line), 303, "w2", 3, 510, 100);
	tree_put("proc/300/task/303/stat", line);
	stat_line(line, sizeof(line), 301, "x", 1, 500, 1);
	tree_put("proc/301/stat", line);
	tree_put("proc/301/io", "nonsense\n");
	tree_put("proc/301/task/301/stat", line);
	tree_put("proc/301/task/301/io", "nonsense\n");
	tree_put("proc/301/cmdline", "");		/* a kernel thread's */
	tree_put("proc/300/task/300/io", "rchar: 1\n");
	tree_put("proc/300/task/302/io", "rchar: 2\n");
	tree_put("proc/300/task/303/io", "rchar: 3\n");
	tree_put("proc/305/io", "rchar: 1\n");	/* no stat: gone, skipped */
	stat_line(line, sizeof(line), 307, "bad", 1, 500, 1);
	tree_put("proc/307/stat", "307 (bad");	/* damaged: skipped */

	ok(ds_root_open(&root, tree_top) == 0, "root opens");
	is_int(ds_delayacct_read(&root, &buf), 1, "task_delayacct 1");
	ds_buf_free(&buf);
	is_int(ds_procs_read(&root, DS_WHO_DELAY | DS_WHO_CGROUP |
	    DS_WHO_CMDLINE, NULL, 0, NULL, NULL, &ps), 0, "scan");
	is_int((int)ps.n, 2, "two processes kept");
	is_u64(ps.uptime_ns, 100500000000ull, "uptime of the tree");
	p = ds_procs_find(&ps, 300);
	ok(p != NULL, "300 found");
	if (p != NULL) {
		is_str(p->comm, "a) b\n(c", "comm with ') ', '(' and newline");
		is_u64(p->blkio_ticks, 127, "delay summed over 3 threads");
		is_u64(p->io.v[DS_IO_WRITE_BYTES], 8192, "io read");
		is_str(p->cgroup, "/box", "cgroup");
		is_str(p->cmdline, "prog -x", "cmdline NULs as spaces");
		is_int(p->io_err, 0, "io ok");
	}
	p = ds_procs_find(&ps, 301);
	ok(p != NULL && p->io_err == -EINVAL && p->blkio_ticks == 1,
	    "unparsable io: kept with io_err, stat values kept");
	ok(ds_procs_find(&ps, 305) == NULL, "no stat: skipped");

	is_int(ds_procs_read(&root, 0, NULL, 0, NULL, NULL, &ps), 0,
	    "scan without delay");
	p = ds_procs_find(&ps, 300);
	ok(p != NULL && p->blkio_ticks == 7 && p->cgroup == NULL &&
	    p->cmdline == NULL, "without flags: leader's field 42 only");

	is_int(ds_procs_read(&root, DS_WHO_THREADS | DS_WHO_DELAY, NULL, 0,
	    NULL, NULL, &ps), 0, "thread scan");
	is_int((int)ps.n, 4, "four threads");
	p = ds_procs_find(&ps, 303);
	ok(p != NULL && p->tgid == 300 && p->blkio_ticks == 100,
	    "thread: own field 42, tgid");

	is_int(ds_procs_read(&root, 0, pids, 1, NULL, NULL, &ps), 0,
	    "scan of -p 300");
	ok(ps.n == 1 && ps.p[0].pid == 300, "only 300");
	is_int(ds_procs_read(&root, 0, NULL, 0, keep_odd, NULL, &ps), 0,
	    "scan with a filter");
	ok(ps.n == 1 && ps.p[0].pid == 301, "filter keeps 301");

	/* ds_procs_each: handed over in order, nothing stored */
	{
		struct seen sn = { .stop_at = 0 };

		is_int(ds_procs_each(&root, DS_WHO_DELAY | DS_WHO_CMDLINE,
		    NULL, 0, NULL, each_note, &sn, &ps), 0, "each: scan");
		is_int(sn.n, 2, "each: two processes handed over");
		ok(sn.pid[0] == 300 && sn.pid[1] == 301, "each: in pid order");
		ok(sn.blkio[0] == 127 && strcmp(sn.comm[0], "a) b\n(c") == 0,
		    "each: complete entries (delay summed over threads)");
		is_u64(sn.uptime_ns, 100500000000ull, "each: uptime known");
		ok(ps.n == 0, "each: nothing stored");
		is_int((int)ps.bad, 2, "each: damage counted (307 stat, 301 io)");
		is_int(ps.first_bad, 301, "each: first damaged pid");

		memset(&sn, 0, sizeof(sn));
		is_int(ds_procs_each(&root, DS_WHO_THREADS | DS_WHO_DELAY,
		    NULL, 0, NULL, each_note, &sn, &ps), 0, "each: threads");
		ok(sn.n == 4 && sn.pid[0] == 300 && sn.pid[1] == 302 &&
		    sn.pid[2] == 303 && sn.pid[3] == 301,
		    "each: a process's threads by tid, after it");

		memset(&sn, 0, sizeof(sn));
		sn.stop_at = 1;
		is_int(ds_procs_each(&root, 0, NULL, 0, NULL, each_note, &sn,
		    &ps), 7, "each: a nonzero return ends the scan, returned");
		is_int(sn.n, 1, "each: nothing after it");

		memset(&sn, 0, sizeof(sn));
		is_int(ds_procs_each(&root, 0, NULL, 0, keep_odd, each_note,
		    &sn, &ps), 0, "each: with a filter");
		ok(sn.n == 1 && sn.pid[0] == 301, "each: the filter applies");
		is_int(ds_procs_each(&root, 0, NULL, 0, NULL, NULL, NULL, &ps),
		    -EINVAL, "each: NULL callback refused");
	}

	ds_procs_free(&ps);
	ds_root_close(&root);
	snprintf(line, sizeof(line), "rm -rf '%s'", tree_top);
	if (system(line) != 0)
		return 1;
	return tap_done();
}
