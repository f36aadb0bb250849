/*
 * lib/sample.c: samples of proc/diskstats read under a root with their
 * time base, whole or left open to be read by lines, and the interval
 * between two.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"
#include "tap.h"
#include "tree.h"

static void
test_interval(void)
{
	struct ds_snap a = { 0 }, b = { 0 };

	a.uptime_ns = 5000;
	b.uptime_ns = 7500;
	is_u64(ds_sample_interval(&a, &b), 2500, "b - a");
	is_u64(ds_sample_interval(&b, &a), 0, "uptime went back: 0");
	is_u64(ds_sample_interval(&a, &a), 0, "no time: 0");
}

static void
test_samples(void)
{
	struct ds_buf w = { 0 }, sc = { 0 };
	struct ds_snap s = { 0 };
	struct ds_root r;
	struct ds_lines l;
	const char *rel;
	int e;

	if (ds_root_open(&r, tree_top) < 0)
		exit(1);
	e = ds_sample_take(&r, &w, &sc, &s, &rel);
	is_int(e, -ENOENT, "take: no proc/diskstats");
	is_str(rel, "proc/diskstats", "and which file");
	tree_put("proc/diskstats", "8 0 sda 1 0 8 1 2 0 16 2 0 3 3\n"
	    "bad\n8 16 sdb 4 0 32 4 0 0 0 0 0 4 4");
	e = ds_sample_take(&r, &w, &sc, &s, &rel);
	is_int(e, -ENOENT, "take: no proc/uptime");
	is_str(rel, "proc/uptime", "and which file");
	tree_put("proc/uptime", "350735.47 1000.00\n");
	/* A snapshot that held a file's refusal before: a live one has none. */
	s.why = DS_SNAP_WHY_NO_UPTIME;
	s.why_line = 1;
	e = ds_sample_take(&r, &w, &sc, &s, &rel);
	is_int(e, 0, "take: both read");
	ok(rel == NULL, "no file failed");
	is_int(ds_snap_bad_msg(&s, &sc), 0, "a live sample: nothing to say");
	is_u64(s.uptime_ns, 350735470000000ull, "uptime");
	ok(s.time_ns > 1600000000000000000ull, "the wall clock");
	ok(s.ds.n == 2 && strcmp(s.ds.disk[1].name, "sdb") == 0 &&
	    s.ds.bad == 1 && s.ds.first_bad == 2,
	    "two devices, the damaged line counted");
	ds_diskstats_free(&s.ds);
	memset(&s, 0, sizeof(s));
	/* A captured tree holds still: left open to be read by lines. */
	e = ds_sample_open(&r, &l, &w, &sc, &s, &rel);
	is_int(e, 0, "open: a file of a tree, to be read by lines");
	is_u64(s.uptime_ns, 350735470000000ull, "its uptime");
	{
		struct ds_pair pr = { 0, 0 };
		const struct ds_disk *p;
		struct ds_rows rs;
		struct ds_disk c;
		int n = 0;

		ds_rows_init(&rs, &l, NULL, "d");
		while ((e = ds_rows_next(&rs, &pr, &c, &p)) > 0)
			n += p == NULL;
		is_int(e, 0, "read to its end");
		is_int(n, 2, "two rows, none with an earlier line");
		is_int(rs.bad.bad, 1, "the damaged line counted");
	}
	ds_lines_close(&l);
	ds_buf_free(&w);
	ds_buf_free(&sc);
	ds_root_close(&r);
}

int
main(void)
{
	char cmd[320];

	tree_make("ds-sample");
	tree_put("proc", NULL);
	test_interval();
	test_samples();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tree_top);
	if (system(cmd) != 0)
		return 1;
	return tap_done();
}
