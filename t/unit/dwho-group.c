/*
 * cmd/dwho/group.c on trees built here: the -g source chosen and the
 * sentence saying why; the /proc/PID/io pipeline (no rows from a first
 * scan of an interval, exact per-cgroup rates from the second, the
 * samples alternating); the io.stat pipeline the same way; and the
 * subtrees a walk left out, each said once.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dwho/dwho.h"
#include "tap.h"
#include "tree.h"

static void
rm(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", tree_top, rel);
	unlink(path);
}

/* proc/PID in cgroup cg: started at tick 50000, rb bytes read. */
static void
proc(int pid, const char *cg, unsigned long rb)
{
	char rel[64], text[512];

	snprintf(rel, sizeof(rel), "proc/%d/stat", pid);
	snprintf(text, sizeof(text), "%d (p%d) S 1 %d %d 0 -1 4194304 0 0 0 0 "
	    "5 6 0 0 20 0 1 0 50000 0 0 18446744073709551615 0 0 0 0 0 0 0 0 "
	    "0 0 0 0 17 0 0 0 0 0 0\n", pid, pid, pid, pid);
	tree_put(rel, text);
	snprintf(rel, sizeof(rel), "proc/%d/io", pid);
	snprintf(text, sizeof(text), "rchar: 0\nwchar: 0\nsyscr: 0\n"
	    "syscw: 0\nread_bytes: %lu\nwrite_bytes: 0\n"
	    "cancelled_write_bytes: 0\n", rb);
	tree_put(rel, text);
	snprintf(rel, sizeof(rel), "proc/%d/cgroup", pid);
	snprintf(text, sizeof(text), "0::%s\n", cg);
	tree_put(rel, text);
}

static void
test_source(const struct ds_root *r)
{
	char mnt[4096], note[4200];

	is_int(who_source(r, "proc", 0, 0, mnt, sizeof(mnt), note,
	    sizeof(note)), 0, "-G proc: 0");
	is_str(note, "-g: summing /proc/PID/io by cgroup (-G proc)",
	    "-G proc: said so");
	is_int(who_source(r, NULL, 1, 0, mnt, sizeof(mnt), note,
	    sizeof(note)), 0, "processes selected: 0");
	is_str(note, "-g: summing /proc/PID/io by cgroup (processes "
	    "selected)", "processes selected: said so");
	is_int(who_source(r, NULL, 0, 1, mnt, sizeof(mnt), note,
	    sizeof(note)), 0, "a key not in io.stat: 0");
	is_str(note, "-g: summing /proc/PID/io by cgroup (the sort key is "
	    "not in io.stat)", "a key not in io.stat: said so");

	/* A mount table without cgroup2. */
	tree_put("proc/self/mountinfo", "22 1 0:21 / /proc rw - proc proc rw\n");
	is_int(who_source(r, NULL, 0, 0, mnt, sizeof(mnt), note,
	    sizeof(note)), 0, "no cgroup v2 mount: 0");
	is_str(note, "-g: no cgroup v2 mount: summing /proc/PID/io by "
	    "cgroup", "no cgroup v2 mount: said so");
	is_int(who_source(r, "iostat", 0, 0, mnt, sizeof(mnt), note,
	    sizeof(note)), -ENOENT, "-G iostat, no cgroup v2 mount: -ENOENT");
	is_str(note, "-G iostat: no cgroup v2 mount", "and the message");
	ok(who_source(r, "iostat", 0, 1, mnt, sizeof(mnt), note,
	    sizeof(note)) == -ENOENT, "-G iostat: a key is not a reason");

	/* A captured tree without it: v2 where unified hosts have it. */
	rm("proc/self/mountinfo");
	is_int(who_source(r, NULL, 0, 0, mnt, sizeof(mnt), note,
	    sizeof(note)), 0, "no io controller: 0");
	is_str(note, "-g: io.stat missing (io controller not enabled on "
	    "cgroup v2 at /sys/fs/cgroup): summing /proc/PID/io by cgroup",
	    "no io controller: said so");
	is_int(who_source(r, "iostat", 0, 0, mnt, sizeof(mnt), note,
	    sizeof(note)), -ENOTSUP, "-G iostat, no io controller: -ENOTSUP");
	is_str(note, "-G iostat: /sys/fs/cgroup: no io controller on cgroup "
	    "v2", "and the message");
	tree_put("sys/fs/cgroup/cgroup.controllers", "cpu io memory\n");
	is_int(who_source(r, NULL, 0, 0, mnt, sizeof(mnt), note,
	    sizeof(note)), 1, "the io controller: 1");
	is_str(mnt, "/sys/fs/cgroup", "its mount");
	is_str(note, "-g: per-cgroup figures from io.stat under "
	    "/sys/fs/cgroup", "io.stat: said so");
	is_int(who_source(r, "iostat", 0, 0, mnt, sizeof(mnt), note,
	    sizeof(note)), 1, "-G iostat: 1");
}

/* Without a mount table, v2 is where unified hosts have it. */
static void
test_cgio_source(const struct ds_root *r)
{
	char mnt[256];

	rm("proc/self/mountinfo");
	rm("sys/fs/cgroup/cgroup.controllers");
	is_int(cgio_source(r, mnt, sizeof(mnt)), 0,
	    "source: no io.stat, no cgroup.controllers: 0");
	is_str(mnt, "/sys/fs/cgroup", "source: the mount assumed");
	tree_put("sys/fs/cgroup/cgroup.controllers", "cpu io memory\n");
	is_int(cgio_source(r, mnt, sizeof(mnt)), 1,
	    "source: the io controller listed: 1");
}

static void
test_group(const struct ds_root *r)
{
	struct whostream st = { 0 };
	struct whosel sel = { 0 };
	struct whogroup g = { 0 };
	const struct whorow *a, *b;
	struct ds_procs *first;

	proc(100, "/a", 0);
	proc(200, "/a", 1024000);
	proc(300, "/b", 0);
	tree_put("proc/uptime", "1000.00 1500.00\n");
	whostream_setup(&st, &sel, DS_WHO_CGROUP, 1, WV_PID, 0, 0, 0);
	is_int(whogroup_scan(r, &st, &g), 0, "group: first scan");
	first = g.cur;
	is_int((int)g.cur->n, 3, "three processes");
	is_int(whogroup_rows(&st.cfg, &g, 0), 0, "no report: 0");
	ok(g.rows.n == 0 && g.prev == first && g.cur != first,
	    "no rows; it is the scan before");
	proc(100, "/a", 102400);
	proc(200, "/a", 1024000 + 204800);
	proc(300, "/b", 51200);
	tree_put("proc/uptime", "1010.00 1510.00\n");
	is_int(whogroup_scan(r, &st, &g), 0, "group: second scan");
	ok(g.cur != first, "into the other sample");
	is_int(whogroup_rows(&st.cfg, &g, 1), 0, "report: 0");
	is_int((int)g.rows.n, 2, "two cgroups");
	a = g.rows.n > 0 ? &g.rows.r[0] : NULL;
	b = g.rows.n > 1 ? &g.rows.r[1] : NULL;
	ok(a != NULL && strcmp(a->cgroup, "/a") == 0 && a->procs == 2,
	    "/a: two processes");
	ok(a != NULL && a->v[DS_WR_READ] == 30.0,
	    "/a: (100 + 200) kB over 10 s = 30 kB/s");
	ok(b != NULL && strcmp(b->cgroup, "/b") == 0 && b->procs == 1 &&
	    b->v[DS_WR_READ] == 5.0, "/b: 50 kB over 10 s = 5 kB/s");
	ok(g.prev != first && g.cur == first, "the samples alternate");
	whogroup_free(&g);
	ok(g.cur == NULL && g.prev == NULL && g.rows.r == NULL, "freed");
	is_int(whogroup_rows(&st.cfg, &g, 1), -EINVAL,
	    "rows before a scan: -EINVAL");
}

static const struct cgrow *
cgrow(const struct cgiorun *c, const char *cg, const char *dev)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (strcmp(c->rows[i].cgroup, cg) == 0 &&
		    strcmp(c->rows[i].device, dev) == 0)
			return &c->rows[i];
	return NULL;
}

static void
test_cgiorun(const struct ds_root *r)
{
	struct cgiorun c = { 0 };
	const struct cgrow *w;
	const char *path;
	char rel[2048];
	size_t i, len;
	int err = 0;

	snprintf(c.mnt, sizeof(c.mnt), "/sys/fs/cgroup");
	tree_put("sys/fs/cgroup/io.stat", "");
	tree_put("sys/fs/cgroup/a/io.stat", "8:0 rbytes=4096 wbytes=0 rios=1 "
	    "wios=0 dbytes=0 dios=0\n");
	tree_put("proc/uptime", "1000.00 1500.00\n");
	is_int(cgiorun_read(r, &c), 0, "io.stat: first sample");
	is_int((int)c.cur->with_iostat, 2, "two cgroups with io.stat");
	ok(cgiorun_skipped(&c, &err) == NULL, "nothing skipped");
	is_int(cgiorun_rows(r, &c, 0, 1, -1, 0), 0, "no report: 0");
	is_int((int)c.n, 0, "no rows");
	tree_put("sys/fs/cgroup/a/io.stat", "8:0 rbytes=45056 wbytes=0 rios=6 "
	    "wios=0 dbytes=0 dios=0\n");
	tree_put("proc/uptime", "1010.00 1510.00\n");
	is_int(cgiorun_read(r, &c), 0, "io.stat: second sample");
	is_int(cgiorun_rows(r, &c, 1, 1, -1, 0), 0, "report: 0");
	w = cgrow(&c, "/a", "8:0");
	ok(w != NULL && w->v[DS_IOS_RBYTES] == 4.0 &&
	    w->v[DS_IOS_RIOS] == 0.5 && w->u[DS_IOS_RBYTES] == 45056,
	    "/a on 8:0: 40 kB and 5 reads over 10 s, the total kept");
	ok(cgrow(&c, "/", "all") != NULL, "the top cgroup's all row");
	is_int(cgiorun_rows(r, &c, 0, 1, -1, 0), 0, "and again");
	is_int(cgiorun_rows(r, &c, 1, 0, DS_IOS_RBYTES, 1), 0,
	    "-n 1 -s read");
	is_int((int)c.n, 1, "-n 1: one row");

	/* A subtree deeper than the walk goes: said once, however long. */
	len = snprintf(rel, sizeof(rel), "sys/fs/cgroup/deep");
	for (i = 0; i < DS_CGROUP_DEPTH_MAX + 1 && len + 3 < sizeof(rel); i++)
		len += snprintf(rel + len, sizeof(rel) - len, "/d");
	snprintf(rel + len, sizeof(rel) - len, "/io.stat");
	tree_put(rel, "");
	is_int(cgiorun_read(r, &c), 0, "a deep tree: read");
	ok(c.cur->nskipped >= 1, "a subtree skipped");
	path = cgiorun_skipped(&c, &err);
	ok(path != NULL, "it is said");
	ok(path != NULL && strncmp(path, "/deep/d/d/", 10) == 0 &&
	    strlen(path) > 1000 && err == -ELOOP,
	    "the whole path (%zu bytes), and why: too deep",
	    path != NULL ? strlen(path) : 0);
	ok(cgiorun_skipped(&c, &err) == NULL, "then no more");
	is_int(cgiorun_rows(r, &c, 0, 1, -1, 0), 0, "rows");
	is_int(cgiorun_read(r, &c), 0, "read again");
	ok(cgiorun_skipped(&c, &err) == NULL, "not said twice");
	cgiorun_free(&c);
	ok(c.cur == NULL && c.rows == NULL && c.mnt[0] == '\0', "freed");
}

int
main(void)
{
	struct ds_root root;
	char cmd[300];

	snprintf(tree_top, sizeof(tree_top), "%s/dwho-group-unit.XXXXXX",
	    getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(tree_top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	tree_put("proc/uptime", "1000.00 1500.00\n");
	ok(ds_root_open(&root, tree_top) == 0, "root opens");
	test_source(&root);
	test_cgio_source(&root);
	test_group(&root);
	test_cgiorun(&root);
	ds_root_close(&root);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tree_top);
	if (system(cmd) != 0)
		return 1;
	return tap_done();
}
