/* dxstat's library part: snapshot files, counter increments, figures. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "oracle.h"
#include "tap.h"

static int
snap(const char *text, struct ds_snap *s)
{
	return ds_snap_parse(text, strlen(text), s);
}

static struct ds_disk
disk(const char *line)
{
	struct ds_disk d;
	char buf[512];

	snprintf(buf, sizeof(buf), "%s", line);
	memset(&d, 0, sizeof(d));
	if (ds_disk_parse_line(buf, &d) < 0)
		printf("# bad test line: %s\n", line);
	return d;
}

/* Two decimals, as the tool prints them. */
static const char *
f2(double v)
{
	static char b[8][64];
	static int i;

	i = (i + 1) % 8;
	snprintf(b[i], sizeof(b[i]), "%.2f", v);
	return b[i];
}

int
main(void)
{
	struct ds_snap s = { 0 };
	struct ds_buf b = { 0 };
	struct ds_disk p, c;
	struct ds_xstat x;
	uint64_t d[DS_NCOUNTERS];
	uint32_t have;
	int k;

	/* The file dxstat -s writes. */
	is_int(snap("uptime 350735.470000000\ntime 1764470000.5\n"
	    "   8       0 sda 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n"
	    "   8       1 sda1 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n",
	    &s), 0, "snapshot parses");
	is_u64(s.uptime_ns, UINT64_C(350735470000000), "uptime in ns");
	is_u64(s.time_ns, UINT64_C(1764470000500000000), "time in ns");
	is_int((int)s.ds.n, 2, "two devices");
	is_str(s.ds.disk[1].name, "sda1", "second device");

	/* The shell one-liner's file: /proc/uptime's two fields, no time. */
	is_int(snap("uptime 12.34 56.78\n 8 0 sda 1 2 3 4 5 6 7 8 9 10 11\n",
	    &s), 0, "one-liner snapshot with the idle field");
	is_u64(s.uptime_ns, UINT64_C(12340000000), "uptime 12.34");
	is_u64(s.time_ns, 0, "no time line: 0");
	is_int((int)s.ds.n, 1, "one device");

	is_int(snap("time 5\nuptime 7\n 8 0 sda 1 2 3 4 5 6 7 8 9 10 11",
	    &s), 0, "time before uptime, no final newline");
	is_u64(s.uptime_ns, UINT64_C(7000000000), "whole seconds");

	/* Not a snapshot: a bare /proc/diskstats. */
	is_int(snap(" 8 0 sda 1 2 3 4 5 6 7 8 9 10 11\n", &s), -EINVAL,
	    "no uptime line is an error");
	is_int(ds_snap_bad_msg(&s, &b), 1, "a sentence");
	is_str(b.data, "line 1: no uptime line before the diskstats lines",
	    "says: no uptime line, on line 1");
	is_int(snap("time 5\n 8 0 sda 1 2 3 4 5 6 7 8 9 10 11\n", &s),
	    -EINVAL, "time but no uptime is an error");
	is_int((int)s.why_line, 2, "on line 2");
	is_int(snap("", &s), -EINVAL, "empty file is an error");
	is_int(snap("uptime abc\n", &s), -EINVAL, "uptime not a number");
	is_int(ds_snap_bad_msg(&s, &b), 1, "a sentence");
	is_str(b.data, "line 1: uptime is not a number of seconds",
	    "says: not a number");
	is_int(snap("uptime -5\n", &s), -EINVAL, "negative uptime");
	is_int(snap("uptime 1\nuptime 2\n", &s), -EINVAL, "two uptime lines");
	is_int(snap("uptime 1.5x\n", &s), -EINVAL, "trailing garbage");

	/* Damaged diskstats lines: skipped, counted, line numbers of the file. */
	is_int(snap("uptime 10.00\ntime 1\n"
	    " 8 0 sda 1 2 3 4 5 6 7 8 9 10 11\n"
	    " 8 16 sdb 1 2 3 4 5 6 7 8 9\n"
	    " 8 32 sdc 1 2 x 4 5 6 7 8 9 10 11\n"
	    " 8 48 sdd 1 2 3 4 5 6 7 8 9 10 11\n"
	    " 8 64 sde 1 2 3", &s), 0, "damaged lines do not fail the file");
	is_int((int)s.ds.n, 2, "good devices kept");
	is_str(s.ds.disk[1].name, "sdd", "after the damage");
	is_int((int)s.ds.bad, 3, "three damaged lines");
	is_int((int)s.ds.first_bad, 4, "first damage on file line 4");

	/* Format, then parse back. */
	b.len = 0;
	is_int(ds_snap_format(&b, UINT64_C(350735470000001),
	    UINT64_C(1764470000123456789), " 8 0 sda 1 2 3 4 5 6 7 8 9 10 11",
	    32), 0, "format");
	is_str(b.data, "uptime 350735.470000001\ntime 1764470000.123456789\n"
	    " 8 0 sda 1 2 3 4 5 6 7 8 9 10 11\n", "format text, newline added");
	is_int(snap(b.data, &s), 0, "format parses back");
	is_u64(s.uptime_ns, UINT64_C(350735470000001), "uptime round trip");
	is_u64(s.time_ns, UINT64_C(1764470000123456789), "time round trip");
	b.len = 0;
	is_int(ds_snap_format(&b, 5, 0, "", 0), 0, "format without time");
	is_str(b.data, "uptime 0.000000005\n", "no time line when time is 0");
	ds_buf_free(&b);
	ds_snap_free(&s);

	/* Increments: plain. */
	p = disk("8 0 sda 10 1 80 5 20 2 160 9 1 12 14 3 1 24 2 4 6");
	c = disk("8 0 sda 15 2 120 8 30 2 400 19 2 22 40 3 1 24 2 6 7");
	is_int(ds_disk_delta(&p, &c, d, &have), DS_DELTA_OK, "forward: ok");
	is_u64(d[DS_RD_IOS], 5, "reads");
	is_u64(d[DS_WR_SECTORS], 240, "sectors written");
	is_u64(d[DS_IN_FLIGHT], 2, "in flight is the current gauge");
	is_u64(d[DS_FL_IOS], 2, "flushes");
	is_u64(have, (1u << DS_NCOUNTERS) - 1, "all 17 counters");

	/* Millisecond counters wrap at 2^32 on every kernel. */
	p = disk("8 0 sda 10 0 80 4294967290 20 0 160 4294967000 0 4294967295 4294967200");
	c = disk("8 0 sda 11 0 88 4 21 0 168 704 0 9 104");
	is_int(ds_disk_delta(&p, &c, d, &have), DS_DELTA_OK, "ms wrap: ok");
	is_u64(d[DS_RD_TICKS], 10, "read ticks mod 2^32");
	is_u64(d[DS_WR_TICKS], 1000, "write ticks mod 2^32");
	is_u64(d[DS_IO_TICKS], 10, "io ticks mod 2^32");
	is_u64(d[DS_TIME_IN_QUEUE], 200, "queue time mod 2^32");
	is_u64(have, 0x7ff, "11 counters");

	/* A 32-bit kernel: request and sector counters wrap too. */
	p = disk("8 0 sda 4294967290 0 4294967000 0 5 0 40 0 0 0 0");
	c = disk("8 0 sda 4 0 704 0 6 0 48 0 0 0 0");
	is_int(ds_disk_delta(&p, &c, d, &have), DS_DELTA_WRAP,
	    "32-bit request counter: wrap");
	is_u64(d[DS_RD_IOS], 10, "reads across the wrap");
	is_u64(d[DS_RD_SECTORS], 1000, "sectors across the wrap");
	is_u64(d[DS_WR_IOS], 1, "other counters as usual");

	/* A reset: the device came back with fresh counters. */
	p = disk("8 0 sda 5000000000 0 90000000000 700 5 0 40 0 0 800 900");
	c = disk("8 0 sda 3 0 24 7 1 0 8 2 1 9 11");
	is_int(ds_disk_delta(&p, &c, d, &have), DS_DELTA_RESET,
	    "64-bit counter went back: reset");
	is_u64(d[DS_RD_IOS], 3, "reset: reads from zero");
	is_u64(d[DS_RD_SECTORS], 24, "reset: sectors from zero");
	is_u64(d[DS_RD_TICKS], 7, "reset: ms counters from zero too");
	is_u64(d[DS_WR_IOS], 1, "reset: every counter from zero");
	is_u64(d[DS_IO_TICKS], 9, "reset: io ticks from zero");

	p = disk("8 0 sda 1000 0 8000 50 5 0 40 0 0 60 70");
	c = disk("8 0 sda 10 0 80 5 5 0 40 0 0 6 7");
	is_int(ds_disk_delta(&p, &c, d, &have), DS_DELTA_RESET,
	    "small counters going far back: reset, not a 2^32 wrap");
	is_u64(d[DS_RD_IOS], 10, "from zero, no huge increment");

	p = disk("8 0 sda 4294967290 0 4294967000 0 5 0 40 0 0 0 0");
	c = disk("8 0 sda 4 0 4294967001 0 6 0 5000000000 0 0 0 0");
	is_int(ds_disk_delta(&p, &c, d, &have), DS_DELTA_RESET,
	    "a counter above 2^32 on the line: a 64-bit kernel, no wrap");

	/* New device: from its own counters. */
	c = disk("8 0 sda 3 0 24 7 1 0 8 2 1 9 11 4 0 8 1");
	is_int(ds_disk_delta(NULL, &c, d, &have), DS_DELTA_NEW, "no previous");
	is_u64(d[DS_DC_IOS], 4, "new: counters as they are");
	is_u64(have, 0x7fff, "15 counters");

	/* The counters both samples printed. */
	p = disk("8 0 sda 1 2 3 4 5 6 7 8 9 10 11");
	c = disk("8 0 sda 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17");
	ds_disk_delta(&p, &c, d, &have);
	is_u64(have, 0x7ff, "11 then 17 counters: the 11 in common");

	/* Figures: 100 reads of 8 sectors with 250 ms over 2 s ... */
	memset(d, 0, sizeof(d));
	d[DS_RD_IOS] = 100;
	d[DS_RD_MERGES] = 25;
	d[DS_RD_SECTORS] = 800;
	d[DS_RD_TICKS] = 250;
	d[DS_WR_IOS] = 3;
	d[DS_WR_SECTORS] = 2048 * 3;
	d[DS_WR_TICKS] = 30;
	d[DS_IN_FLIGHT] = 4;
	d[DS_IO_TICKS] = 1500;
	d[DS_TIME_IN_QUEUE] = 5000;
	d[DS_FL_IOS] = 2;
	d[DS_FL_TICKS] = 3;
	ds_xstat_compute(d, 0x1ffff, UINT64_C(2000000000), &x);
	is_str(f2(x.v[DS_X_RS]), "50.00", "r/s = 100 / 2 s");
	is_str(f2(x.v[DS_X_RKBS]), "200.00", "rkB/s = 800 sectors / 2 / 2 s");
	is_str(f2(x.v[DS_X_RRQMS]), "12.50", "rrqm/s");
	is_str(f2(x.v[DS_X_RRQM_PCT]), "20.00", "%rrqm = 25 / (25 + 100)");
	is_str(f2(x.v[DS_X_RAWAIT]), "2.50", "r_await = 250 ms / 100");
	is_str(f2(x.v[DS_X_RAREQSZ]), "4.00", "rareq-sz = 800 / 100 / 2 kB");
	is_str(f2(x.v[DS_X_WS]), "1.50", "w/s");
	is_str(f2(x.v[DS_X_WKBS]), "1536.00", "wkB/s");
	is_str(f2(x.v[DS_X_WAWAIT]), "10.00", "w_await");
	is_str(f2(x.v[DS_X_WAREQSZ]), "1024.00", "wareq-sz: 1 MiB requests");
	is_str(f2(x.v[DS_X_WRQM_PCT]), "0.00", "%wrqm with no merges");
	is_str(f2(x.v[DS_X_DAWAIT]), "0.00", "d_await: no discard completed");
	is_str(f2(x.v[DS_X_DAREQSZ]), "0.00", "dareq-sz: no discard completed");
	is_str(f2(x.v[DS_X_DRQM_PCT]), "0.00", "%drqm: nothing at all");
	is_str(f2(x.v[DS_X_FS]), "1.00", "f/s");
	is_str(f2(x.v[DS_X_FAWAIT]), "1.50", "f_await");
	is_str(f2(x.v[DS_X_AQUSZ]), "2.50", "aqu-sz = 5000 ms / 2000 ms");
	is_str(f2(x.v[DS_X_UTIL]), "75.00", "%util = 1500 / 2000");
	is_u64(x.have, (1u << DS_X_N) - 1, "every figure");
	is_u64(x.completed, 105, "completed = reads + writes + flushes");

	/* %util is not capped: report what the kernel says. */
	d[DS_IO_TICKS] = 2100;
	ds_xstat_compute(d, 0x1ffff, UINT64_C(2000000000), &x);
	is_str(f2(x.v[DS_X_UTIL]), "105.00", "%util over 100 kept");

	/* 0.01 s and 300 s intervals. */
	ds_xstat_compute(d, 0x1ffff, UINT64_C(10000000), &x);
	is_str(f2(x.v[DS_X_RS]), "10000.00", "100 reads in 0.01 s");
	ds_xstat_compute(d, 0x1ffff, UINT64_C(300000000000), &x);
	is_str(f2(x.v[DS_X_RS]), "0.33", "100 reads in 300 s");

	/* Counters the line lacked: figures null, not zero. */
	ds_xstat_compute(d, 0x7ff, UINT64_C(1000000000), &x);
	for (k = DS_X_DS; k <= DS_X_FAWAIT; k++)
		ok(!((x.have >> k) & 1u), "11 counters: figure %d null", k);
	ok((x.have >> DS_X_UTIL) & 1u, "11 counters: %%util there");
	is_u64(x.completed, 103, "completed without flushes");
	/* 2.6 partition line: reads, sectors, writes, sectors only. */
	c = disk("8 1 sda1 100 800 3 24");
	ds_disk_delta(NULL, &c, d, &have);
	ds_xstat_compute(d, have, UINT64_C(1000000000), &x);
	ok((x.have >> DS_X_RS) & 1u, "4 counters: r/s");
	ok((x.have >> DS_X_RAREQSZ) & 1u, "4 counters: rareq-sz");
	is_str(f2(x.v[DS_X_RAREQSZ]), "4.00", "4 counters: rareq-sz value");
	ok(!((x.have >> DS_X_RAWAIT) & 1u), "4 counters: no r_await");
	ok(!((x.have >> DS_X_RRQMS) & 1u), "4 counters: no merges");
	ok(!((x.have >> DS_X_UTIL) & 1u), "4 counters: no %%util");
	ok(!((x.have >> DS_X_AQUSZ) & 1u), "4 counters: no aqu-sz");

	/* No time: nothing to divide by. */
	ds_xstat_compute(d, have, 0, &x);
	is_u64(x.have, 0, "interval 0: every figure null");
	ok(!isnan(x.v[DS_X_RS]), "interval 0: no NaN left behind");

	return tap_done();
}
