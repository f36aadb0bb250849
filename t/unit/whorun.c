/*
 * lib/whorun.c: a dwho run's selection of processes (-p -u -c), its
 * rows' set-up, the delay accounting switch and the notes a scan adds,
 * on entries made here and a small tree (etc/passwd, the sysctl).
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

static struct ds_proc
entry(const char *comm, char *cmdline, uint32_t uid)
{
	struct ds_proc p;

	memset(&p, 0, sizeof(p));
	p.pid = 42;
	p.uid = uid;
	snprintf(p.comm, sizeof(p.comm), "%s", comm);
	p.comm_len = strlen(p.comm);
	p.cmdline = cmdline;
	p.cmdline_len = cmdline != NULL ? strlen(cmdline) : 0;
	return p;
}

static void
test_select(const struct ds_root *root)
{
	char cl[] = "/usr/bin/python3 backup.py", msg[256];
	struct ds_proc py = entry("python3", cl, 1000);
	struct ds_proc kw = entry("kworker/0:1", NULL, 0);
	struct ds_whosel s = { 0 }, none = { 0 };
	struct ds_users u = { 0 };
	struct ds_buf b = { 0 };

	ok(!ds_whosel_any(&s), "zeroed: nothing selected");
	ok(ds_whosel_keep(&s, &py) && ds_whosel_keep(&s, &kw),
	    "zeroed: every entry kept");

	is_int(ds_whosel_regex(&s, "^py", msg, sizeof(msg)), 0, "-c ^py");
	ok(ds_whosel_any(&s), "-c: selected");
	ok(ds_whosel_keep(&s, &py) && !ds_whosel_keep(&s, &kw),
	    "-c ^py: comm python3 only");
	is_int(ds_whosel_regex(&s, "backup", msg, sizeof(msg)), 0,
	    "-c backup replaces ^py");
	ok(!ds_whosel_keep(&s, &py), "backup is not in comm");
	s.cmdline = 1;
	ok(ds_whosel_keep(&s, &py), "-l: backup is in the command line");
	is_int(ds_whosel_regex(&s, "^\\[kworker", msg, sizeof(msg)), 0,
	    "-c ^\\[kworker");
	ok(ds_whosel_keep(&s, &kw), "-l: a kernel thread is [comm]");
	is_int(ds_whosel_regex(&s, "a(b", msg, sizeof(msg)), -EINVAL,
	    "-c 'a(b': -EINVAL");
	ok(msg[0] != '\0', "with regerror's message: %s", msg);
	ok(s.re == NULL && ds_whosel_keep(&s, &kw),
	    "the failed pattern selects nothing");
	s.cmdline = 0;

	ds_whosel_user(&s, "1000");
	ok(s.have_uid && s.uid == 1000, "-u 1000: a uid");
	ok(ds_whosel_keep(&s, &py) && !ds_whosel_keep(&s, &kw),
	    "-u 1000: python3, not root's kworker");
	ds_whosel_user(&s, "4294967296");
	ok(!s.have_uid, "-u 4294967296: too big for a uid, a name");
	ok(!ds_whosel_keep(&s, &py), "an unresolved name keeps nobody");
	is_int(ds_whosel_uid(&s, &u, root), -ENOENT, "no such user: -ENOENT");
	ds_whosel_user(&s, "backup");
	is_int(ds_whosel_uid(&s, &u, root), 0, "backup in etc/passwd");
	ok(s.have_uid && s.uid == 1000, "backup is uid 1000");
	ok(ds_whosel_keep(&s, &py), "-u backup keeps python3");
	is_int(ds_whosel_uid(&s, &u, root), 0, "looked up once, then 0");

	is_int(ds_whosel_pids(&s, "7,3", &b), 0, "-p 7,3");
	ok(s.pl.n == 2 && s.pl.pid[0] == 3 && s.pl.pid[1] == 7, "-p: sorted");
	is_int(ds_whosel_pids(&s, "3,x9", &b), -EINVAL, "-p 3,x9: -EINVAL");
	is_str(b.data, "-p x9: not a process id", "-p x9: the message");
	ok(ds_whosel_any(&s), "-p: selected");
	is_int(ds_whosel_pids(&none, ",", &b), -EINVAL, "-p ,: -EINVAL");
	is_str(b.data, "-p: no process id given", "-p ,: the message");
	ds_whosel_free(&none);
	ds_buf_free(&b);
	ds_whosel_free(&s);
	ok(s.pl.pid == NULL && s.re == NULL && s.user == NULL &&
	    !ds_whosel_any(&s), "freed: zeroed");
	ds_users_free(&u);
}

static void
test_setup(void)
{
	struct ds_whostream st = { 0 };
	struct ds_whosel sel = { 0 };
	int pids[2] = { 3, 7 };
	long tck = sysconf(_SC_CLK_TCK);
	unsigned int how;

	how = ds_whostream_setup(&st, &sel, 0, 0, DS_WV_PID, 0, 0, 0);
	is_int(how, 0, "per process: plain columns");
	ok(st.flags == 0 && !st.cfg.sorted && st.cfg.key == DS_WV_PID &&
	    st.cfg.top == 0 && !st.cfg.idle && !st.cfg.cmdline,
	    "per process: in the scan's order");
	is_int(st.cfg.clk_tck, tck > 0 ? tck : 100, "clk_tck from sysconf");
	how = ds_whostream_setup(&st, &sel, 0, 1, DS_WV_PID, 0, 3, 1);
	is_int(how, DS_WHOCOL_COUNTERS, "prom: counters");
	ok(st.cfg.sorted && st.cfg.key == DS_WV_TOTAL && st.cfg.top == 3 &&
	    st.cfg.idle, "-n 3 alone: the most block-layer bytes first");
	how = ds_whostream_setup(&st, &sel, 0, 0, DS_WR_READ, 1, 3, 0);
	ok(st.cfg.sorted && st.cfg.key == DS_WR_READ,
	    "-n with -s: the key given");
	sel.cmdline = 1;
	sel.pl.pid = pids;
	sel.pl.n = 2;
	how = ds_whostream_setup(&st, &sel, DS_WHO_THREADS, 0, DS_WV_PID, 0,
	    0, 1);
	is_int(how, DS_WHOCOL_THREAD | DS_WHOCOL_COUNTERS,
	    "per thread, prom: tid and counters");
	ok(st.cfg.sorted && st.cfg.cmdline &&
	    st.flags == (DS_WHO_THREADS | DS_WHO_CMDLINE),
	    "per thread: sorted by id; -l: command lines");
	ok(st.pids == pids && st.npids == 2, "-p: sel's pids");
	sel.cmdline = 0;
	how = ds_whostream_setup(&st, &sel, DS_WHO_CGROUP, 0, DS_WV_PID, 0, 0,
	    1);
	is_int(how, DS_WHOCOL_GROUP, "per cgroup, prom: rates, no counters");
	ok(!st.cfg.sorted, "per cgroup: in cgroup order");
}

static void
test_delay_notes(const struct ds_root *root)
{
	struct ds_whostream st = { 0 };
	struct ds_whonotes n = { 0 };
	struct ds_procs ps = { 0 };
	struct ds_cgios cs = { 0 };

	st.flags = DS_WHO_THREADS;
	is_int(ds_whostream_delay(root, &st), 1, "no switch (before 5.14): on");
	ok(st.cfg.delay && st.flags == (DS_WHO_THREADS | DS_WHO_DELAY),
	    "on: DS_WHO_DELAY added");
	tree_put("proc/sys/kernel/task_delayacct", "0\n");
	is_int(ds_whostream_delay(root, &st), 0, "task_delayacct 0: off");
	ok(!st.cfg.delay && st.flags == DS_WHO_THREADS,
	    "off: DS_WHO_DELAY taken away, the rest kept");
	tree_put("proc/sys/kernel/task_delayacct", "1\n");
	is_int(ds_whostream_delay(root, &st), 1, "task_delayacct 1: on");

	ps.bad = 2;
	ps.first_bad = 77;
	ps.unreadable = 5;
	ds_who_note_scan(&n, &ps, 0);
	ok(n.bad == 2 && n.first_bad == 77 && n.unreadable == 0,
	    "a scan not reported: its damage, not its unreadable");
	ps.bad = 9;
	ps.first_bad = 88;
	ds_who_note_scan(&n, &ps, 1);
	ok(n.bad == 2 && n.first_bad == 77 && n.unreadable == 5,
	    "the first damage stays; a report's unreadable counts");
	ps.unreadable = 3;
	ds_who_note_scan(&n, &ps, 1);
	is_int(n.unreadable, 5, "the most unreadable of any report");
	cs.bad = 4;
	ds_who_note_cgios(&n, &cs);
	ok(n.bad == 2 && !n.bad_iostat, "io.stat's after a damaged file: not");
	memset(&n, 0, sizeof(n));
	ds_who_note_cgios(&n, &cs);
	ok(n.bad == 4 && n.bad_iostat, "io.stat's bad lines noted as such");
}

static void
test_buf_printf(void)
{
	struct ds_buf b = { 0 };
	char big[6000];

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	is_int(ds_buf_printf(&b, "%s=%d", "a", 5), 1, "ds_buf_printf: 1");
	ok(b.len == 3 && strcmp(b.data, "a=5") == 0, "a=5, its length");
	is_int(ds_buf_printf(&b, "<%s>", big), 1, "a long one: 1");
	ok(b.len == sizeof(big) + 1 && b.data[0] == '<' &&
	    b.data[b.len - 1] == '>' && b.data[b.len] == '\0',
	    "the whole of it, replacing the text before");
	ds_buf_free(&b);
}

int
main(void)
{
	struct ds_root root;
	char cmd[300];

	snprintf(tree_top, sizeof(tree_top), "%s/whorun-unit.XXXXXX",
	    getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(tree_top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	tree_put("etc/passwd", "root:x:0:0:root:/root:/bin/sh\n"
	    "backup:x:1000:1000::/home/backup:/bin/sh\n");
	tree_put("proc/uptime", "1000.00 1500.00\n");
	ok(ds_root_open(&root, tree_top) == 0, "root opens");
	test_buf_printf();
	test_select(&root);
	test_setup();
	test_delay_notes(&root);
	ds_root_close(&root);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tree_top);
	if (system(cmd) != 0)
		return 1;
	return tap_done();
}
