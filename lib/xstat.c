/*
 * The iostat -x figures: counter increments with the kernel's wrap and
 * reset cases, and the formulas as pure functions of increments and an
 * interval.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The counters the kernel keeps in milliseconds, as 32-bit values. */
static int
is_ms(int i)
{
	return i == DS_RD_TICKS || i == DS_WR_TICKS || i == DS_IO_TICKS ||
	    i == DS_TIME_IN_QUEUE || i == DS_DC_TICKS || i == DS_FL_TICKS;
}

enum ds_delta_kind
ds_disk_delta(const struct ds_disk *prev, const struct ds_disk *cur,
    uint64_t d[DS_NCOUNTERS], uint32_t *have)
{
	enum ds_delta_kind kind = DS_DELTA_OK;
	int i, wide = 0;

	if (prev == NULL) {
		memcpy(d, cur->v, sizeof(cur->v));
		*have = cur->have;
		return DS_DELTA_NEW;
	}
	*have = prev->have & cur->have;
	/*
	 * A request or sector counter above 32 bits means the kernel
	 * keeps them in 64 bits, where a step back cannot be a wrap.
	 */
	for (i = 0; i < DS_NCOUNTERS; i++)
		if (!is_ms(i) && i != DS_IN_FLIGHT &&
		    (prev->v[i] > UINT32_MAX || cur->v[i] > UINT32_MAX))
			wide = 1;
	for (i = 0; i < DS_NCOUNTERS; i++) {
		uint64_t p = prev->v[i], c = cur->v[i], w;

		if (i == DS_IN_FLIGHT) {
			d[i] = c;
			continue;
		}
		if (c >= p) {
			d[i] = c - p;
			continue;
		}
		w = (c - p) & UINT32_MAX;
		if (is_ms(i)) {
			/*
			 * 32-bit in every kernel: modulo 2^32.  A wrapped
			 * increment of 2^31 ms (24.8 days of busy time) or
			 * more is no wrap but another device of the same
			 * name that did more requests in less time.
			 */
			if (w < (UINT64_C(1) << 31)) {
				d[i] = w;
				continue;
			}
			kind = DS_DELTA_RESET;
			break;
		}
		/*
		 * unsigned long on a 32-bit kernel wraps at 2^32; a step
		 * back of half the range or more is no wrap but a device
		 * that went away and came back with fresh counters.
		 */
		if (!wide && w < (UINT64_C(1) << 31)) {
			d[i] = w;
			if (kind == DS_DELTA_OK)
				kind = DS_DELTA_WRAP;
			continue;
		}
		kind = DS_DELTA_RESET;
		break;
	}
	if (kind == DS_DELTA_RESET) {
		/* From zero: every counter is what the new device did. */
		memcpy(d, cur->v, sizeof(cur->v));
		*have = cur->have;
	}
	return kind;
}

/* The counters behind each figure of a row direction (r, w, d). */
static const int dir_ios[3] = { DS_RD_IOS, DS_WR_IOS, DS_DC_IOS };
static const int dir_merges[3] = { DS_RD_MERGES, DS_WR_MERGES, DS_DC_MERGES };
static const int dir_sectors[3] = { DS_RD_SECTORS, DS_WR_SECTORS,
    DS_DC_SECTORS };
static const int dir_ticks[3] = { DS_RD_TICKS, DS_WR_TICKS, DS_DC_TICKS };

#define HAS(have, i) (((have) >> (i)) & 1u)

void
ds_xstat_compute(const uint64_t d[DS_NCOUNTERS], uint32_t have,
    uint64_t interval_ns, struct ds_xstat *x)
{
	/*
	 * iostat counts the interval in hundredths of a second and
	 * computes delta / itv * 100; doing the same operations in the
	 * same order gives the same doubles, so the printed two decimals
	 * agree to the last digit, ties included.
	 */
	double cs = (double)interval_ns / 1e7;
	int k, b;

	memset(x, 0, sizeof(*x));
	if (interval_ns == 0)
		return;
	for (k = 0; k < 3; k++) {
		double ios = (double)d[dir_ios[k]];
		double mrg = (double)d[dir_merges[k]];
		double sec = (double)d[dir_sectors[k]];
		double tck = (double)d[dir_ticks[k]];
		int hi = HAS(have, dir_ios[k]), hm = HAS(have, dir_merges[k]);
		int hs = HAS(have, dir_sectors[k]), ht = HAS(have, dir_ticks[k]);

		b = k * 6;
		if (hi) {
			x->v[b] = ios / cs * 100;
			x->have |= 1u << b;
		}
		if (hs) {
			/* 512-byte sectors, whatever the block size: /2 is kB. */
			x->v[b + 1] = sec / cs * 100 / 2;
			x->have |= 1u << (b + 1);
		}
		if (hm) {
			x->v[b + 2] = mrg / cs * 100;
			x->have |= 1u << (b + 2);
		}
		if (hm && hi) {
			x->v[b + 3] = mrg + ios > 0 ? mrg / (mrg + ios) * 100 :
			    0.0;
			x->have |= 1u << (b + 3);
		}
		if (ht && hi) {
			x->v[b + 4] = ios > 0 ? tck / ios : 0.0;
			x->have |= 1u << (b + 4);
		}
		if (hs && hi) {
			x->v[b + 5] = ios > 0 ? sec / ios / 2 : 0.0;
			x->have |= 1u << (b + 5);
		}
		if (hi)
			x->completed += d[dir_ios[k]];
	}
	if (HAS(have, DS_FL_IOS)) {
		x->v[DS_X_FS] = (double)d[DS_FL_IOS] / cs * 100;
		x->have |= 1u << DS_X_FS;
		x->completed += d[DS_FL_IOS];
		if (HAS(have, DS_FL_TICKS)) {
			x->v[DS_X_FAWAIT] = d[DS_FL_IOS] > 0 ?
			    (double)d[DS_FL_TICKS] / (double)d[DS_FL_IOS] : 0.0;
			x->have |= 1u << DS_X_FAWAIT;
		}
	}
	if (HAS(have, DS_TIME_IN_QUEUE)) {
		/* Weighted ms per ms of interval: the mean queue length. */
		x->v[DS_X_AQUSZ] = (double)d[DS_TIME_IN_QUEUE] / cs * 100 /
		    1000.0;
		x->have |= 1u << DS_X_AQUSZ;
	}
	if (HAS(have, DS_IO_TICKS)) {
		/* ms busy per 10 ms of interval is percent. */
		x->v[DS_X_UTIL] = (double)d[DS_IO_TICKS] / cs * 100 / 10.0;
		x->have |= 1u << DS_X_UTIL;
	}
}

/*
 * The report's columns: time, device, the figures of ds_xstat in the
 * order of enum ds_xcol, in_flight.  Prometheus has them in base units
 * (kB as bytes, ms as seconds, percent as a ratio).
 */
static const struct ds_col cols[] = {
	{ "time", DS_T_TIME, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "device", DS_T_STR, DS_P_LABEL, "device", NULL, 0, 0, 0 },
	{ "r/s", DS_T_F2, DS_P_GAUGE, "reads_per_second",
	    "Reads completed per second.", 0, 0, 0 },
	{ "rkB/s", DS_T_F2, DS_P_GAUGE, "read_bytes_per_second",
	    "Bytes read per second.", 0, 1024, DS_C_KB },
	{ "rrqm/s", DS_T_F2, DS_P_GAUGE, "read_merges_per_second",
	    "Read requests merged per second.", 0, 0, DS_C_WIDE },
	{ "%rrqm", DS_T_F2, DS_P_GAUGE, "read_merged_ratio",
	    "Share of read requests merged before dispatch.", 0, 0.01, DS_C_WIDE },
	{ "r_await", DS_T_F2, DS_P_GAUGE, "read_await_seconds",
	    "Mean time of a completed read, queue included.", 0, 0.001, 0 },
	{ "rareq-sz", DS_T_F2, DS_P_GAUGE, "read_request_size_bytes",
	    "Mean size of a completed read.", 0, 1024, DS_C_KB },
	{ "w/s", DS_T_F2, DS_P_GAUGE, "writes_per_second",
	    "Writes completed per second.", 0, 0, 0 },
	{ "wkB/s", DS_T_F2, DS_P_GAUGE, "written_bytes_per_second",
	    "Bytes written per second.", 0, 1024, DS_C_KB },
	{ "wrqm/s", DS_T_F2, DS_P_GAUGE, "write_merges_per_second",
	    "Write requests merged per second.", 0, 0, DS_C_WIDE },
	{ "%wrqm", DS_T_F2, DS_P_GAUGE, "write_merged_ratio",
	    "Share of write requests merged before dispatch.", 0, 0.01, DS_C_WIDE },
	{ "w_await", DS_T_F2, DS_P_GAUGE, "write_await_seconds",
	    "Mean time of a completed write, queue included.", 0, 0.001, 0 },
	{ "wareq-sz", DS_T_F2, DS_P_GAUGE, "write_request_size_bytes",
	    "Mean size of a completed write.", 0, 1024, DS_C_KB },
	{ "d/s", DS_T_F2, DS_P_GAUGE, "discards_per_second",
	    "Discards completed per second.", 0, 0, 0 },
	{ "dkB/s", DS_T_F2, DS_P_GAUGE, "discarded_bytes_per_second",
	    "Bytes discarded per second.", 0, 1024, DS_C_WIDE | DS_C_KB },
	{ "drqm/s", DS_T_F2, DS_P_GAUGE, "discard_merges_per_second",
	    "Discard requests merged per second.", 0, 0, DS_C_WIDE },
	{ "%drqm", DS_T_F2, DS_P_GAUGE, "discard_merged_ratio",
	    "Share of discard requests merged before dispatch.", 0, 0.01, DS_C_WIDE },
	{ "d_await", DS_T_F2, DS_P_GAUGE, "discard_await_seconds",
	    "Mean time of a completed discard, queue included.", 0, 0.001, DS_C_WIDE },
	{ "dareq-sz", DS_T_F2, DS_P_GAUGE, "discard_request_size_bytes",
	    "Mean size of a completed discard.", 0, 1024, DS_C_WIDE | DS_C_KB },
	{ "f/s", DS_T_F2, DS_P_GAUGE, "flushes_per_second",
	    "Flush requests completed per second.", 0, 0, 0 },
	{ "f_await", DS_T_F2, DS_P_GAUGE, "flush_await_seconds",
	    "Mean time of a completed flush request.", 0, 0.001, DS_C_WIDE },
	{ "aqu-sz", DS_T_F2, DS_P_GAUGE, "queue_depth",
	    "Mean number of requests queued or in service.", 0, 0, 0 },
	{ "%util", DS_T_F2, DS_P_GAUGE, "util_ratio",
	    "Share of the interval with at least one request in flight.",
	    0, 0.01, 0 },
	{ "in_flight", DS_T_U64, DS_P_GAUGE, "in_flight_requests",
	    "Requests in flight when the sample was read.", 0, 0, DS_C_WIDE },
};

const struct ds_col *
ds_xstat_columns(size_t *n)
{
	*n = sizeof(cols) / sizeof(cols[0]);
	return cols;
}
