/*
 * cmd/dwho/rows.c: a row's values (kB, percent, hit ratio, total), rates
 * since a process started or over the interval (a reused pid, an old
 * newcomer), idle rows left out; the order of rows is total (key, then
 * id; unknown last; cgroup rows by name), so that any conforming sort
 * gives the same order (what t/3009 checks end to end with an in-place
 * qsort); -g sums per cgroup; kept rows (-s, -t, -n) compared through
 * their own copies of their entries, -n keeping the first rows of the
 * full sort; the hit ratio; the command shown.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dwho/dwho.h"
#include "tap.h"

#define TICK 100
#define SEC 1000000000ull

/* An entry with read, write and rchar bytes, started at start ticks. */
static void
mk(struct ds_proc *p, int pid, uint64_t start, uint64_t rb, uint64_t wb,
    uint64_t rchar)
{
	memset(p, 0, sizeof(*p));
	p->pid = p->tgid = pid;
	p->starttime = start;
	snprintf(p->comm, sizeof(p->comm), "p%d", pid);
	p->comm_len = strlen(p->comm);
	p->io.v[DS_IO_READ_BYTES] = rb;
	p->io.v[DS_IO_WRITE_BYTES] = wb;
	p->io.v[DS_IO_RCHAR] = rchar;
	p->io.have = (1u << DS_IO_NFIELDS) - 1;
	p->have_blkio = 1;
}

static const struct whocfg cfg0 = { TICK, 1, 1, WV_PID, 0, 0, 0 };

static void
test_values(void)
{
	struct whorow rw;
	struct ds_proc p;
	struct whocfg c = cfg0;
	uint64_t up = 1000 * SEC;

	/* Started 500 s after boot, 500 s old at uptime 1000 s. */
	mk(&p, 10, 500 * TICK, 5120000, 1024000, 10240000);
	p.blkio_ticks = 250;
	is_int(whorow_make(&c, NULL, &p, NULL, up, &rw), 1, "values: a row");
	ok(rw.v[DS_WR_READ] == 10.0, "values: read 10 kB/s since start");
	ok(rw.v[DS_WR_WRITE] == 2.0, "values: write 2 kB/s");
	ok(rw.v[WV_TOTAL] == 12.0, "values: total kB read + written");
	ok(rw.v[WV_HIT] == 50.0, "values: hit 50%% (read half of rchar)");
	ok(rw.v[DS_WR_DELAY] == 0.5, "values: %%iodelay 2.5 s of 500 s");
	ok((rw.have >> WV_HIT) & 1, "values: hit known");
	is_int(rw.procs, 1, "values: one entry");
	p.io_err = -EACCES;
	whorow_make(&c, NULL, &p, NULL, up, &rw);
	ok(!(rw.have & (1u << DS_WR_READ)) && !(rw.have & (1u << WV_HIT)) &&
	    !(rw.have & (1u << WV_TOTAL)), "values: io unreadable: unknown");
	c.delay = 0;
	whorow_make(&c, NULL, &p, NULL, up, &rw);
	ok(!(rw.have & (1u << DS_WR_DELAY)), "values: delay off: unknown");
	mk(&p, 11, 500 * TICK, 0, 0, 0);
	c.idle = 0;
	is_int(whorow_make(&c, NULL, &p, NULL, up, &rw), 0,
	    "values: idle, without -a: no row");
	c.idle = 1;
	is_int(whorow_make(&c, NULL, &p, NULL, up, &rw), 1,
	    "values: idle, with -a: a row");
}

static void
test_interval(void)
{
	struct whorow rw;
	struct ds_proc q, p;
	uint64_t prev = 1000 * SEC, up = 1010 * SEC;

	mk(&q, 10, 500 * TICK, 1024000, 0, 0);
	mk(&p, 10, 500 * TICK, 1126400, 0, 0);
	whorow_make(&cfg0, &q, &p, &prev, up, &rw);
	ok(rw.v[DS_WR_READ] == 10.0, "interval: 100 kB in 10 s");
	/* The pid reused by a process 5 s old: its own counters over 5 s. */
	mk(&p, 10, 100500, 51200, 0, 0);
	whorow_make(&cfg0, &q, &p, &prev, up, &rw);
	ok(rw.v[DS_WR_READ] == 5.0,
	    "interval: reused pid, young: its own counters over the interval");
	/* Not in the first sample, 510 s old: rates since it started. */
	mk(&p, 40, 50000, 1044480, 0, 0);
	whorow_make(&cfg0, NULL, &p, &prev, up, &rw);
	ok(rw.v[DS_WR_READ] == 2.0, "interval: an old newcomer: since it started");
	/* The same pid older than the interval with another start. */
	mk(&q, 40, 40000, 0, 0, 0);
	whorow_make(&cfg0, &q, &p, &prev, up, &rw);
	ok(rw.v[DS_WR_READ] == 2.0, "interval: another start, old: since it started");
}

/* rw with value v at key k (have), of entry p. */
static void
keyed(struct whorow *rw, const struct ds_proc *p, int k, int have, double v)
{
	memset(rw, 0, sizeof(*rw));
	rw->p = p;
	rw->key = k;
	if (have) {
		rw->v[k] = v;
		rw->have = 1u << k;
	}
}

static void
test_order(void)
{
	struct ds_proc p[6];
	struct whorow r[6];
	static const double v[6] = { 3, 1, 3, 0, 2, 3 };
	static const int have[6] = { 1, 1, 1, 0, 1, 1 };
	size_t i, j;
	int bad = 0, c;

	for (i = 0; i < 6; i++) {
		mk(&p[i], (int)(100 + 5 * (5 - i)), 0, 0, 0, 0);
		keyed(&r[i], &p[i], DS_WR_READ, have[i], v[i]);
	}
	/* Total: antisymmetric, and zero only for an element with itself. */
	for (i = 0; i < 6; i++)
		for (j = 0; j < 6; j++) {
			c = whorow_cmp(&r[i], &p[i], &r[j], &p[j]);
			if ((i == j) != (c == 0) ||
			    c != -whorow_cmp(&r[j], &p[j], &r[i], &p[i]))
				bad++;
		}
	is_int(bad, 0, "order: a total order (any sort gives one result)");
	ok(whorow_cmp(&r[0], &p[0], &r[4], &p[4]) < 0, "order: larger first");
	ok(whorow_cmp(&r[5], &p[5], &r[0], &p[0]) < 0,
	    "order: equal values by pid (105 before 125)");
	ok(whorow_cmp(&r[1], &p[1], &r[3], &p[3]) < 0, "order: unknown last");
	keyed(&r[0], &p[0], WV_PID, 0, 0);
	keyed(&r[1], &p[1], WV_PID, 0, 0);
	ok(whorow_cmp(&r[1], &p[1], &r[0], &p[0]) < 0, "order: -s pid");
	/* Cgroup rows: no entries, by name. */
	keyed(&r[0], NULL, DS_WR_READ, 1, 1);
	keyed(&r[1], NULL, DS_WR_READ, 1, 1);
	r[0].cgroup = "/box/b";
	r[1].cgroup = "/box/a";
	ok(whorow_cmp(&r[1], NULL, &r[0], NULL) < 0 &&
	    whorow_cmp(&r[0], NULL, &r[1], NULL) > 0,
	    "order: equal cgroups by name");
}

static void
test_cgroups(void)
{
	static const struct { int pid; const char *cg; uint64_t rb; } e[] = {
		{ 100, "/box/a", 1024000 }, { 105, "/box/a", 1024000 },
		{ 110, "/box/b", 0 }, { 115, "/box/b", 0 },
		{ 120, "/box/120", 1024000 }, { 125, NULL, 1024000 },
		{ 130, "/box/130", 2048000 }, { 135, "/box/135", 2048000 },
	};
	struct ds_proc p[8];
	struct ds_procs ps = { p, 8, 8, 1000 * SEC, 0, 0, 0, NULL };
	struct whorows rs = { 0 };
	struct whocfg c = cfg0;
	char got[256] = "";
	size_t i;

	for (i = 0; i < 8; i++) {
		/* All 500 s old. */
		mk(&p[i], e[i].pid, 500 * TICK, e[i].rb, 0, 0);
		p[i].cgroup = (char *)e[i].cg;
	}
	is_int(whorows_cgroups(&c, NULL, &ps, &rs), 0, "cgroups: 0");
	for (i = 0; i < rs.n; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s:%g:%d ",
		    rs.r[i].cgroup, rs.r[i].v[DS_WR_READ], (int)rs.r[i].procs);
	is_str(got, "-:2:1 /box/120:2:1 /box/130:4:1 /box/135:4:1 /box/a:4:2 "
	    "/box/b:0:2 ", "cgroups: summed, in name order (none: '-' first)");
	ok(rs.r[0].p == NULL, "cgroups: a sum has no entry");
	c.key = DS_WR_READ;
	c.sorted = 1;
	c.top = 3;
	whorows_cgroups(&c, NULL, &ps, &rs);
	got[0] = '\0';
	for (i = 0; i < rs.n; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s ",
		    rs.r[i].cgroup);
	is_str(got, "/box/130 /box/135 /box/a ",
	    "cgroups -s read -n 3: the heaviest, ties by name");
	c.idle = 0;
	c.top = 0;
	whorows_cgroups(&c, NULL, &ps, &rs);
	is_int(rs.n, 5, "cgroups without -a: the idle one left out");
	whorows_free(&rs);
}

/*
 * Kept rows: offered from one entry that each offer overwrites (as a
 * scan reuses its entry), each must be compared through its own copy.
 */
static void
test_kept(void)
{
	static const uint64_t rb[7] = { 0, 2048000, 1024000, 2048000,
	    1024000, 0, 1024000 };
	struct topn all = { 0 }, top = { 0 };
	struct whocfg c = cfg0;
	struct whorow rw;
	struct whokept *h;
	struct ds_proc p;
	char got[128], want[128], line[64];
	size_t i, k;
	int pid;

	c.key = DS_WR_READ;
	for (i = 0; i < 7; i++) {
		pid = 200 - (int)i;	/* offered in descending pids */
		mk(&p, pid, 500 * TICK, rb[i], 0, 0);
		p.cmdline = line;
		p.cmdline_len = (size_t)snprintf(line, sizeof(line), "cmd %d", pid);
		whorow_make(&c, NULL, &p, NULL, 1000 * SEC, &rw);
		ok(whokept_offer(&all, 0, &rw, &p) == 0 &&
		    whokept_offer(&top, 3, &rw, &p) == 0, "kept: offer %d", pid);
		memset(line, 'x', sizeof(line) - 1);
	}
	is_int(all.n, 7, "kept: all kept without top");
	is_int(top.n, 3, "kept -n 3: three kept");
	whokept_sort(&all);
	whokept_sort(&top);
	want[0] = got[0] = '\0';
	for (k = 0, h = all.v; k < all.n; k++)
		snprintf(want + strlen(want), sizeof(want) - strlen(want),
		    "%d(%s) ", h[k].rw.p->pid, h[k].p.cmdline);
	is_str(want, "197(cmd 197) 199(cmd 199) 194(cmd 194) 196(cmd 196) "
	    "198(cmd 198) 195(cmd 195) 200(cmd 200) ",
	    "kept: by value, ties by pid, each with its own command line");
	for (k = 0, h = top.v; k < top.n; k++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%d(%s) ",
		    h[k].rw.p->pid, h[k].p.cmdline);
	want[strlen("197(cmd 197) 199(cmd 199) 194(cmd 194) ")] = '\0';
	is_str(got, want, "kept -n 3: the first three of the full sort");
	ok(h[0].rw.p == &h[0].p, "kept: a sorted row points at its own entry");
	whokept_clear(&all);
	whokept_clear(&top);
	is_int(all.n, 0, "kept: cleared");
	topn_free(&all);
	topn_free(&top);
}

static void
test_command(void)
{
	struct ds_proc p;
	char buf[80];
	size_t len;

	mk(&p, 7, 0, 0, 0, 0);
	is_str(who_command(&p, 0, buf, sizeof(buf), &len), "p7", "command: comm");
	is_str(who_command(&p, 1, buf, sizeof(buf), &len), "[p7]",
	    "command -l: a kernel thread in brackets");
	is_int(len, 4, "command -l: its length");
	p.cmdline = "p7 --flag";
	p.cmdline_len = 9;
	is_str(who_command(&p, 1, buf, sizeof(buf), &len), "p7 --flag",
	    "command -l: the command line");
}

/* The hit ratio of rates over 2 s (ds_who_rate of a to b). */
static void
test_hit(void)
{
	struct ds_proc a, b;
	struct ds_who_rate r, s;

	mk(&a, 10, 1000, 4096, 0, 10000);
	b = a;
	b.io.v[DS_IO_READ_BYTES] = 4096 + 2048;
	b.io.v[DS_IO_RCHAR] = 10000 + 8192;
	ds_who_rate(&a, &b, 2.0, TICK, 1, &r);
	ok(who_hit(&r) == 75, "hit: 1 - 2048/8192 = 75%%");
	ds_who_rate(&a, &a, 2.0, TICK, 1, &r);
	ok(who_hit(&r) == -1, "hit: no rchar is unknown");
	/* backwards rchar (a reused entry's counters): no read */
	b = a;
	b.io.v[DS_IO_RCHAR] = 5;
	ds_who_rate(&a, &b, 1.0, TICK, 1, &r);
	ok(who_hit(&r) == -1, "hit: backwards rchar is no read");
	/* readahead: read_bytes above rchar clamps to 0 */
	b = a;
	b.io.v[DS_IO_READ_BYTES] += 100000;
	b.io.v[DS_IO_RCHAR] += 10;
	ds_who_rate(&a, &b, 1.0, TICK, 1, &r);
	ok(who_hit(&r) == 0, "hit clamped at 0");
	/* a sum of rates: the hit of the sum */
	b = a;
	b.io.v[DS_IO_READ_BYTES] = 4096 + 2048;
	b.io.v[DS_IO_RCHAR] = 10000 + 8192;
	ds_who_rate(&a, &b, 2.0, TICK, 1, &r);
	s = r;
	ds_who_rate_add(&s, &r);
	ok(who_hit(&s) == who_hit(&r), "hit of a sum");
}

int
main(void)
{
	test_values();
	test_interval();
	test_order();
	test_cgroups();
	test_kept();
	test_command();
	test_hit();
	return tap_done();
}
