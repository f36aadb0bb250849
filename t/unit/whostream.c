/*
 * lib/whostream.c on a tree built here: a report alone hands out its
 * rows while the scan runs, in pid order; an interval's report only
 * once its scan is over (no row before the last entry is read: what
 * t/3008 checks with strace), with exact rates from the base of the
 * scan before; sorted rows (-s pid) equal those written at once; -n
 * keeps the first rows of the full sort; a write error ends the scan.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"
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
row(const struct ds_whorow *rw, void *arg)
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
stream_init(struct ds_whostream *st, struct seen *s, int sorted, int key,
    uint64_t n)
{
	memset(st, 0, sizeof(*st));
	memset(s, 0, sizeof(*s));
	st->cfg = (struct ds_whocfg){ 100, 0, 1, key, sorted, n, 0 };
	st->keep = keep;
	st->row = row;
	st->arg = s;
}

/* One report alone; its rows in s->got. */
static int
alone(const struct ds_root *r, struct seen *s, int sorted, int key,
    uint64_t n, int stop_after)
{
	struct ds_whostream st;
	struct ds_procs scan;
	int e;

	stream_init(&st, s, sorted, key, n);
	s->stop_after = stop_after;
	e = ds_whostream_scan(r, &st, 1, 0, &scan);
	ds_procs_free(&scan);
	ds_whostream_free(&st);
	return e;
}

int
main(void)
{
	struct ds_root root;
	struct ds_whostream st;
	struct ds_procs scan;
	struct seen s, t;
	char cmd[300];
	int i;

	snprintf(tree_top, sizeof(tree_top), "%s/whostream-unit.XXXXXX",
	    getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(tree_top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	tree_put("proc/uptime", "1000.00 1500.00\n");
	for (i = 0; i < NP; i++)
		proc(pids[i], 1024000ul * (unsigned long)(i % 3), 2048000);
	ok(ds_root_open(&root, tree_top) == 0, "root opens");

	is_int(alone(&root, &s, 0, DS_WV_PID, 0, 0), 0, "alone: 0");
	is_str(s.got, "100:0 200:2 300:4 400:0 500:2 600:4 ",
	    "alone: rows since each started, in pid order");
	ok(s.kept_at_first < NP, "alone: the first row before the scan's end "
	    "(kept %d of %d)", s.kept_at_first, NP);
	alone(&root, &t, 1, DS_WV_PID, 0, 0);
	is_str(t.got, s.got, "alone -s pid: the same rows, sorted");
	is_int(t.kept_at_first, NP, "alone -s pid: rows after the scan");
	alone(&root, &t, 1, DS_WR_READ, 0, 0);
	is_str(t.got, "300:4 600:4 200:2 500:2 100:0 400:0 ",
	    "alone -s read: by value, ties by pid");
	alone(&root, &s, 1, DS_WR_READ, 3, 0);
	t.got[strlen("300:4 600:4 200:2 ")] = '\0';
	is_str(s.got, t.got, "alone -n 3: the first three of the full sort");
	alone(&root, &s, 0, DS_WV_PID, 0, 2);
	is_int(s.rows, 2, "alone: a failed write ends the scan");
	ok(s.kept < NP, "alone: no entry read after it");

	/* An interval: 10 s, each process reads 100 kB more per 100 of pid. */
	stream_init(&st, &s, 0, DS_WV_PID, 0);
	is_int(ds_whostream_scan(&root, &st, 0, 1, &scan), 0, "interval: first scan");
	ds_procs_free(&scan);
	is_int(s.rows, 0, "interval: no rows from the first scan");
	tree_put("proc/uptime", "1010.00 1510.00\n");
	for (i = 0; i < NP; i++)
		proc(pids[i], 1024000ul * (unsigned long)(i % 3) +
		    1024ul * (unsigned long)pids[i], 2048000);
	s.kept = 0;
	is_int(ds_whostream_scan(&root, &st, 1, 1, &scan), 0, "interval: second scan");
	ds_procs_free(&scan);
	is_str(s.got, "100:10 200:20 300:30 400:40 500:50 600:60 ",
	    "interval: exact rates against the scan before");
	is_int(s.kept_at_first, NP, "interval: no row before the scan's end");
	ds_whostream_free(&st);

	ds_root_close(&root);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tree_top);
	if (system(cmd) != 0)
		ok(0, "scratch tree removed");
	return tap_done();
}
