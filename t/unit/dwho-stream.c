/*
 * cmd/dwho/stream.c on a tree built here: a report alone hands out its
 * rows while the scan runs, in pid order; an interval's report only
 * once its scan is over (no row before the last entry is read: what
 * t/3008 checks with strace), with exact rates from the base of the
 * scan before; sorted rows (-s pid) equal those written at once; -n
 * keeps the first rows of the full sort; a write error ends the scan.
 * The set-up of a run's rows and columns, and the delay accounting
 * switch read before each scan.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dwho/dwho.h"
#include "tap.h"
#include "tree.h"

/* proc/PID: started at tick 50000 (500 s), rb bytes read, rchar. */
static void
proc(int pid, unsigned long rb, unsigned long rchar)
{
	char rel[64], text[512];

	snprintf(rel, sizeof(rel), "proc/%d/stat", pid);
	snprintf(text, sizeof(text), "%d (p%d) S 1 %d %d 0 -1 4194304 0 0 0 0 "
	    "5 6 0 0 20 0 1 0 50000 0 0 18446744073709551615 0 0 0 0 0 0 0 0 "
	    "0 0 0 0 17 0 0 0 0 0 0\n", pid, pid, pid, pid);
	tree_put(rel, text);
	snprintf(rel, sizeof(rel), "proc/%d/io", pid);
	snprintf(text, sizeof(text), "rchar: %lu\nwchar: 0\nsyscr: 0\n"
	    "syscw: 0\nread_bytes: %lu\nwrite_bytes: 0\n"
	    "cancelled_write_bytes: 0\n", rchar, rb);
	tree_put(rel, text);
}

#define NP 6
static const int pids[NP] = { 100, 200, 300, 400, 500, 600 };

/* What the callbacks saw. */
struct seen {
	int kept;		/* entries keep was asked about */
	int rows;
	int kept_at_first;	/* kept when the first row came */
	int stop_after;		/* the row callback fails after this many */
	char got[512];
};

static int
keep(const struct ds_proc *p, void *arg)
{
	(void)p;
	((struct seen *)arg)->kept++;
	return 1;
}

static int
row(const struct whorow *rw, void *arg)
{
	struct seen *s = arg;
	size_t n = strlen(s->got);

	if (s->rows++ == 0)
		s->kept_at_first = s->kept;
	snprintf(s->got + n, sizeof(s->got) - n, "%d:%g ", rw->p->pid,
	    rw->v[DS_WR_READ]);
	return s->stop_after > 0 && s->rows >= s->stop_after;
}

static void
stream_init(struct whostream *st, struct seen *s, int sorted, int key,
    uint64_t n)
{
	memset(st, 0, sizeof(*st));
	memset(s, 0, sizeof(*s));
	st->cfg = (struct whocfg){ 100, 0, 1, key, sorted, n, 0 };
	st->keep = keep;
	st->row = row;
	st->arg = s;
}

/* One report alone; its rows in s->got. */
static int
alone(const struct ds_root *r, struct seen *s, int sorted, int key,
    uint64_t n, int stop_after)
{
	struct whostream st;
	struct ds_procs scan;
	int e;

	stream_init(&st, s, sorted, key, n);
	s->stop_after = stop_after;
	e = whostream_scan(r, &st, 1, 0, &scan);
	ds_procs_free(&scan);
	whostream_free(&st);
	return e;
}

static void
test_setup(void)
{
	struct whostream st = { 0 };
	struct whosel sel = { 0 };
	int pids[2] = { 3, 7 };
	long tck = sysconf(_SC_CLK_TCK);
	unsigned int how;

	how = whostream_setup(&st, &sel, 0, 0, WV_PID, 0, 0, 0);
	is_int(how, 0, "per process: plain columns");
	ok(st.flags == 0 && !st.cfg.sorted && st.cfg.key == WV_PID &&
	    st.cfg.top == 0 && !st.cfg.idle && !st.cfg.cmdline,
	    "per process: in the scan's order");
	is_int(st.cfg.clk_tck, tck > 0 ? tck : 100, "clk_tck from sysconf");
	how = whostream_setup(&st, &sel, 0, 1, WV_PID, 0, 3, 1);
	is_int(how, WHOCOL_COUNTERS, "prom: counters");
	ok(st.cfg.sorted && st.cfg.key == WV_TOTAL && st.cfg.top == 3 &&
	    st.cfg.idle, "-n 3 alone: the most block-layer bytes first");
	how = whostream_setup(&st, &sel, 0, 0, DS_WR_READ, 1, 3, 0);
	ok(st.cfg.sorted && st.cfg.key == DS_WR_READ,
	    "-n with -s: the key given");
	sel.cmdline = 1;
	sel.pl.pid = pids;
	sel.pl.n = 2;
	how = whostream_setup(&st, &sel, DS_WHO_THREADS, 0, WV_PID, 0,
	    0, 1);
	is_int(how, WHOCOL_THREAD | WHOCOL_COUNTERS,
	    "per thread, prom: tid and counters");
	ok(st.cfg.sorted && st.cfg.cmdline &&
	    st.flags == (DS_WHO_THREADS | DS_WHO_CMDLINE),
	    "per thread: sorted by id; -l: command lines");
	ok(st.pids == pids && st.npids == 2, "-p: sel's pids");
	sel.cmdline = 0;
	how = whostream_setup(&st, &sel, DS_WHO_CGROUP, 0, WV_PID, 0, 0,
	    1);
	is_int(how, WHOCOL_GROUP, "per cgroup, prom: rates, no counters");
	ok(!st.cfg.sorted, "per cgroup: in cgroup order");
}

static void
test_delay(const struct ds_root *root)
{
	struct whostream st = { 0 };

	st.flags = DS_WHO_THREADS;
	is_int(whostream_delay(root, &st), 1, "no switch (before 5.14): on");
	ok(st.cfg.delay && st.flags == (DS_WHO_THREADS | DS_WHO_DELAY),
	    "on: DS_WHO_DELAY added");
	tree_put("proc/sys/kernel/task_delayacct", "0\n");
	is_int(whostream_delay(root, &st), 0, "task_delayacct 0: off");
	ok(!st.cfg.delay && st.flags == DS_WHO_THREADS,
	    "off: DS_WHO_DELAY taken away, the rest kept");
	tree_put("proc/sys/kernel/task_delayacct", "1\n");
	is_int(whostream_delay(root, &st), 1, "task_delayacct 1: on");
}

int
main(void)
{
	struct ds_root root;
	struct whostream st;
	struct ds_procs scan;
	struct seen s, t;
	char cmd[300];
	int i;

	snprintf(tree_top, sizeof(tree_top), "%s/dwho-stream-unit.XXXXXX",
	    getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(tree_top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	tree_put("proc/uptime", "1000.00 1500.00\n");
	for (i = 0; i < NP; i++)
		proc(pids[i], 1024000ul * (unsigned long)(i % 3), 2048000);
	ok(ds_root_open(&root, tree_top) == 0, "root opens");

	is_int(alone(&root, &s, 0, WV_PID, 0, 0), 0, "alone: 0");
	is_str(s.got, "100:0 200:2 300:4 400:0 500:2 600:4 ",
	    "alone: rows since each started, in pid order");
	ok(s.kept_at_first < NP, "alone: the first row before the scan's end "
	    "(kept %d of %d)", s.kept_at_first, NP);
	alone(&root, &t, 1, WV_PID, 0, 0);
	is_str(t.got, s.got, "alone -s pid: the same rows, sorted");
	is_int(t.kept_at_first, NP, "alone -s pid: rows after the scan");
	alone(&root, &t, 1, DS_WR_READ, 0, 0);
	is_str(t.got, "300:4 600:4 200:2 500:2 100:0 400:0 ",
	    "alone -s read: by value, ties by pid");
	alone(&root, &s, 1, DS_WR_READ, 3, 0);
	t.got[strlen("300:4 600:4 200:2 ")] = '\0';
	is_str(s.got, t.got, "alone -n 3: the first three of the full sort");
	alone(&root, &s, 0, WV_PID, 0, 2);
	is_int(s.rows, 2, "alone: a failed write ends the scan");
	ok(s.kept < NP, "alone: no entry read after it");

	/* An interval: 10 s, each process reads 100 kB more per 100 of pid. */
	stream_init(&st, &s, 0, WV_PID, 0);
	is_int(whostream_scan(&root, &st, 0, 1, &scan), 0, "interval: first scan");
	ds_procs_free(&scan);
	is_int(s.rows, 0, "interval: no rows from the first scan");
	tree_put("proc/uptime", "1010.00 1510.00\n");
	for (i = 0; i < NP; i++)
		proc(pids[i], 1024000ul * (unsigned long)(i % 3) +
		    1024ul * (unsigned long)pids[i], 2048000);
	s.kept = 0;
	is_int(whostream_scan(&root, &st, 1, 1, &scan), 0, "interval: second scan");
	ds_procs_free(&scan);
	is_str(s.got, "100:10 200:20 300:30 400:40 500:50 600:60 ",
	    "interval: exact rates against the scan before");
	is_int(s.kept_at_first, NP, "interval: no row before the scan's end");
	whostream_free(&st);

	test_setup();
	test_delay(&root);
	ds_root_close(&root);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tree_top);
	if (system(cmd) != 0)
		ok(0, "scratch tree removed");
	return tap_done();
}
