/*
 * Every delta rule of ds_disk_delta, then the figures ds_xstat_compute
 * makes of it, against values worked out by hand.  Cases already in
 * t/unit/xstat.c (a plain ms wrap, a 32-bit request wrap, a 64-bit
 * reset, interval 0) are not repeated; these add the edges of each rule
 * and what the rates come to.
 *
 * Counter order: rd_ios rd_merges rd_sectors rd_ticks wr_ios wr_merges
 * wr_sectors wr_ticks in_flight io_ticks time_in_queue dc_ios dc_merges
 * dc_sectors dc_ticks fl_ios fl_ticks.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tap.h"

#define DAY UINT64_C(86400000000000)
#define SEC UINT64_C(1000000000)
#define NONE (-1.0)	/* figure must be null */

struct kase {
	const char *name;
	const char *prev;	/* NULL: a device new since the last sample */
	const char *cur;
	uint64_t interval_ns;
	enum ds_delta_kind kind;
	const char *d;		/* the 17 increments, by hand */
	double rs, rkbs, rawait, ws, wkbs, util, aqusz;
};

static const struct kase cases[] = {
	/* ms counters at UINT32_MAX step to 0 and past: +1 and +1000. */
	{ "ms wrap from UINT32_MAX",
	  "7 0 loop0 100 0 800 4294967295 0 0 0 0 0 4294967295 4294967295 0 0 0 0 0 0",
	  "7 0 loop0 101 0 808 0 0 0 0 0 0 999 1999 0 0 0 0 0 0",
	  SEC, DS_DELTA_OK,
	  "1 0 8 1 0 0 0 0 0 1000 2000 0 0 0 0 0 0",
	  1.0, 4.0, 1.0, 0.0, 0.0, 100.0, 2.0 },
	/* A real ms wrap is under 2^31: 2^31 - 1 is still one. */
	{ "ms wrap of 2^31 - 1 ms",
	  "7 0 loop0 10 0 80 4294967295 0 0 0 0 0 100 100 0 0 0 0 0 0",
	  "7 0 loop0 20 0 160 2147483646 0 0 0 0 0 200 200 0 0 0 0 0 0",
	  30 * DAY, DS_DELTA_OK,
	  "10 0 80 2147483647 0 0 0 0 0 100 100 0 0 0 0 0 0",
	  10.0 / 2592000, 40.0 / 2592000, 214748364.7, 0.0, 0.0,
	  100.0 / 25920000, 100.0 / 2592000000.0 },
	/* Request counters on a 32-bit kernel: UINT32_MAX + 1 is 0. */
	{ "32-bit request wrap from UINT32_MAX",
	  "8 0 sda 4294967295 0 4294967295 10 4294967290 0 4294967280 10 0 10 10",
	  "8 0 sda 0 0 15 12 5 0 4 14 1 12 14",
	  2 * SEC, DS_DELTA_WRAP,
	  "1 0 16 2 11 0 20 4 1 2 4 0 0 0 0 0 0",
	  0.5, 4.0, 2.0, 5.5, 5.0, 0.1, 0.002 },
	/* A wrapped increment of 2^31 - 1 is a wrap, 2^31 a reset. */
	{ "32-bit wrap of 2^31 - 1 requests",
	  "8 0 sda 2147483649 0 0 0 0 0 0 0 0 0 0",
	  "8 0 sda 0 0 0 0 0 0 0 0 0 0 0",
	  DAY, DS_DELTA_WRAP,
	  "2147483647 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0",
	  2147483647.0 / 86400, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0 },
	{ "32-bit step back of 2^31 requests: reset",
	  "8 0 sda 2147483648 0 0 0 0 0 0 0 0 0 0",
	  "8 0 sda 0 0 0 0 0 0 0 0 0 0 0",
	  DAY, DS_DELTA_RESET,
	  "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0",
	  0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0 },
	/* Reset: every counter lower and large (64-bit): from zero. */
	{ "reset, large 64-bit counters",
	  "8 0 sda 9000000000 5 72000000000 900000 8000000000 6 64000000000 800000 3 700000 1600000",
	  "8 0 sda 50 1 400 25 20 2 160 10 1 30 35",
	  SEC, DS_DELTA_RESET,
	  "50 1 400 25 20 2 160 10 1 30 35 0 0 0 0 0 0",
	  50.0, 200.0, 0.5, 20.0, 80.0, 3.0, 0.035 },
	/*
	 * The same name, another device (a loop device removed and made
	 * again): lower counters, small ones.  From zero, no 2^32 rates.
	 */
	{ "device replaced, every counter lower",
	  "7 5 loop5 2000 10 16000 900 300 4 2400 150 0 1000 1050 7 0 56 3 2 1",
	  "7 5 loop5 10 0 80 5 3 0 24 2 0 6 7 0 0 0 0 0 0",
	  SEC / 2, DS_DELTA_RESET,
	  "10 0 80 5 3 0 24 2 0 6 7 0 0 0 0 0 0",
	  20.0, 80.0, 0.5, 6.0, 24.0, 1.2, 0.014 },
	{ "device replaced, some counters higher",
	  "7 5 loop5 5 0 40 10 300 4 2400 150 0 100 160 0 0 0 0 0 0",
	  "7 5 loop5 50 0 400 5 3 0 24 2 0 9 7 0 0 0 0 0 0",
	  SEC, DS_DELTA_RESET,
	  "50 0 400 5 3 0 24 2 0 9 7 0 0 0 0 0 0",
	  50.0, 200.0, 0.1, 3.0, 12.0, 0.9, 0.007 },
	/*
	 * Only ms counters lower, requests all higher: a device replaced
	 * by one that did more requests in less time.  A step back of 2^31
	 * ms or more (24.8 days of busy time) is no wrap: reset.
	 */
	{ "device replaced, only ms counters lower",
	  "7 5 loop5 5 0 40 10 1 0 8 10 0 20 20 0 0 0 0 0 0",
	  "7 5 loop5 50 0 400 5 3 0 24 2 0 9 7 0 0 0 0 0 0",
	  SEC, DS_DELTA_RESET,
	  "50 0 400 5 3 0 24 2 0 9 7 0 0 0 0 0 0",
	  50.0, 200.0, 0.1, 3.0, 12.0, 0.9, 0.007 },
	/* Three days: rates exact. */
	{ "interval of 3 days",
	  "254 0 vda 1000 0 8000 100 2000 0 16000 200 0 300 400 0 0 0 0 0 0",
	  "254 0 vda 2593000 0 20744000 2592100 1298000 0 1296016000 259200200 2 259200300 777600400 0 0 0 0 0 0",
	  3 * DAY, DS_DELTA_OK,
	  "2592000 0 20736000 2592000 1296000 0 1296000000 259200000 2 259200000 777600000 0 0 0 0 0 0",
	  10.0, 40.0, 1.0, 5.0, 2500.0, 100.0, 3.0 },
	/* A new device: from its own counters over the interval. */
	{ "new device",
	  NULL,
	  "7 9 loop9 40 0 320 8 0 0 0 0 0 8 8",
	  4 * SEC, DS_DELTA_NEW,
	  "40 0 320 8 0 0 0 0 0 8 8 0 0 0 0 0 0",
	  10.0, 40.0, 0.2, 0.0, 0.0, 0.2, 0.002 },
	/* Zero interval: increments as usual, every figure null. */
	{ "interval 0",
	  "8 0 sda 1 0 8 1 0 0 0 0 0 1 1",
	  "8 0 sda 2 0 16 2 0 0 0 0 0 2 2",
	  0, DS_DELTA_OK,
	  "1 0 8 1 0 0 0 0 0 1 1 0 0 0 0 0 0",
	  NONE, NONE, NONE, NONE, NONE, NONE, NONE },
};

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

/* Within 1e-9 of want, relative (no libm: the tests link libc only). */
static int
near(double got, double want)
{
	double e = got > want ? got - want : want - got;
	double m = want < 0 ? -want : want;

	return e <= 1e-9 * (m > 1.0 ? m : 1.0);
}

static void
figure(const struct kase *k, const struct ds_xstat *x, int col,
    double want, const char *what)
{
	int have = (x->have >> col) & 1u;

	if (want == NONE) {
		ok(!have, "%s: %s null", k->name, what);
		return;
	}
	ok(have && near(x->v[col], want), "%s: %s = %.9g", k->name, what,
	    want);
	if (!have || !near(x->v[col], want))
		printf("#   got %.9g (have %d)\n", x->v[col], have);
}

int
main(void)
{
	size_t i;
	int j;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct kase *k = &cases[i];
		struct ds_disk p, c;
		struct ds_xstat x;
		uint64_t d[DS_NCOUNTERS], want;
		uint32_t have;
		const char *s = k->d;
		char *end, got[512];
		size_t gl = 0;
		int match = 1;

		c = disk(k->cur);
		if (k->prev != NULL)
			p = disk(k->prev);
		memset(d, 0xff, sizeof(d));
		is_int(ds_disk_delta(k->prev != NULL ? &p : NULL, &c, d, &have),
		    k->kind, k->name);
		for (j = 0; j < DS_NCOUNTERS; j++) {
			want = strtoull(s, &end, 10);
			s = end;
			/* Counters the line lacked are 0 in cur, so in d. */
			if (d[j] != want)
				match = 0;
			gl += (size_t)snprintf(got + gl, sizeof(got) - gl,
			    "%s%" PRIu64, j ? " " : "", d[j]);
		}
		ok(match, "%s: increments %s", k->name, k->d);
		if (!match)
			printf("#   got %s\n", got);
		ds_xstat_compute(d, have, k->interval_ns, &x);
		figure(k, &x, DS_X_RS, k->rs, "r/s");
		figure(k, &x, DS_X_RKBS, k->rkbs, "rkB/s");
		figure(k, &x, DS_X_RAWAIT, k->rawait, "r_await");
		figure(k, &x, DS_X_WS, k->ws, "w/s");
		figure(k, &x, DS_X_WKBS, k->wkbs, "wkB/s");
		figure(k, &x, DS_X_UTIL, k->util, "%util");
		figure(k, &x, DS_X_AQUSZ, k->aqusz, "aqu-sz");
	}
	return tap_done();
}
