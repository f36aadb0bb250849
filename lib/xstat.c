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
