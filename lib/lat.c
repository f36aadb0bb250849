/*
 * Latency histograms: log-linear buckets of nanoseconds, DS_LAT_SUB to
 * each power of two, the layout the in-kernel program counts into
 * (struct ds_lat is its map value), so that what the kernel bucketed is
 * read back with the same bounds.  Pure functions.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/*
 * Values below 2 * DS_LAT_SUB have a bucket each.  Above, e is the
 * highest set bit (e >= 3 with 8 sub-buckets) and the next three bits
 * pick one of 8 equal parts of [2^e, 2^(e+1)): each bucket is 1/8 of
 * its lower bound wide, so a value is known within 12.5%, and a
 * percentile placed inside its bucket within half of that.
 */
unsigned int
ds_lat_bucket(uint64_t ns)
{
	unsigned int e, i;

	if (ns < 2 * DS_LAT_SUB)
		return (unsigned int)ns;
	e = 63 - (unsigned int)__builtin_clzll(ns);
	i = (e - 2) * DS_LAT_SUB + (unsigned int)((ns >> (e - 3)) & 7);
	return i < DS_LAT_NB ? i : DS_LAT_NB - 1;
}

/* Bucket i holds [*lo, *hi); the last one has no upper bound (*hi 0). */
void
ds_lat_bounds(unsigned int i, uint64_t *lo, uint64_t *hi)
{
	unsigned int e;

	if (i < 2 * DS_LAT_SUB) {
		*lo = i;
		*hi = (uint64_t)i + 1;
	} else {
		e = i / DS_LAT_SUB + 2;
		*lo = (uint64_t)(DS_LAT_SUB + i % DS_LAT_SUB) << (e - 3);
		*hi = *lo + ((uint64_t)1 << (e - 3));
	}
	if (i >= DS_LAT_NB - 1)
		*hi = 0;
}

void
ds_lat_merge(struct ds_lat *dst, const struct ds_lat *src)
{
	unsigned int i;

	dst->count += src->count;
	dst->sum_ns += src->sum_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	for (i = 0; i < DS_LAT_NB; i++)
		dst->b[i] += src->b[i];
}

/*
 * What cur counted since prev (prev NULL: all of it).  The counters
 * only grow; one below its earlier value means the entry was made anew
 * (deleted and created again), and then cur is taken whole.  The
 * maximum of an interval is not known from two maxima: when it did not
 * change it is the largest bucket's upper bound that gained a value,
 * capped by the maximum (so max_us never exceeds what was seen).
 */
void
ds_lat_delta(const struct ds_lat *prev, const struct ds_lat *cur,
    struct ds_lat *out)
{
	uint64_t lo, hi;
	unsigned int i;

	if (prev == NULL || cur->count < prev->count ||
	    cur->sum_ns < prev->sum_ns) {
		*out = *cur;
		return;
	}
	/*
	 * Nothing new (most histograms of most intervals): the entries
	 * are never made anew with the same count and sum, so skip the
	 * buckets' comparison.
	 */
	if (cur->count == prev->count && cur->sum_ns == prev->sum_ns) {
		memset(out, 0, sizeof(*out));
		return;
	}
	for (i = 0; i < DS_LAT_NB; i++)
		if (cur->b[i] < prev->b[i]) {
			*out = *cur;
			return;
		}
	out->count = cur->count - prev->count;
	out->sum_ns = cur->sum_ns - prev->sum_ns;
	for (i = 0; i < DS_LAT_NB; i++)
		out->b[i] = cur->b[i] - prev->b[i];
	out->max_ns = 0;
	if (out->count == 0)
		return;
	if (cur->max_ns > prev->max_ns) {
		out->max_ns = cur->max_ns;
		return;
	}
	for (i = DS_LAT_NB; i-- > 0;)
		if (out->b[i] != 0)
			break;
	ds_lat_bounds(i, &lo, &hi);
	out->max_ns = hi != 0 && hi - 1 < cur->max_ns ? hi - 1 : cur->max_ns;
}

/*
 * The first and last buckets holding a value, and the largest count
 * of a bucket; -ENOENT when the histogram is empty.
 */
int
ds_lat_span(const struct ds_lat *h, unsigned int *first, unsigned int *last,
    uint64_t *top)
{
	unsigned int i;

	*first = DS_LAT_NB;
	*last = 0;
	*top = 0;
	for (i = 0; i < DS_LAT_NB; i++)
		if (h->b[i] != 0) {
			*first = i < *first ? i : *first;
			*last = i;
			*top = h->b[i] > *top ? h->b[i] : *top;
		}
	return *first < DS_LAT_NB ? 0 : -ENOENT;
}

double
ds_lat_mean(const struct ds_lat *h)
{
	if (h->count == 0)
		return NAN;
	return (double)h->sum_ns / (double)h->count;
}

/*
 * The q-quantile (0 < q <= 1) in ns: the value of rank ceil(q * count)
 * in sorted order (1-based), as the bucket holding that rank places it:
 * by linear interpolation inside the bucket, the k-th of its n values at
 * lo + (k - 1/2) / n of its width, never above the maximum seen.  NaN
 * when the histogram is empty or q is out of range.
 */
double
ds_lat_quantile(const struct ds_lat *h, double q)
{
	uint64_t rank, cum = 0, lo, hi;
	unsigned int i;
	double v, top, x;

	if (h->count == 0 || !(q > 0 && q <= 1))
		return NAN;
	/* ceil without libm: the tools link nothing but libc. */
	x = q * (double)h->count;
	rank = (uint64_t)x;
	if ((double)rank < x)
		rank++;
	if (rank < 1)
		rank = 1;
	if (rank > h->count)
		rank = h->count;
	for (i = 0; i < DS_LAT_NB; i++) {
		if (h->b[i] == 0 || cum + h->b[i] < rank) {
			cum += h->b[i];
			continue;
		}
		ds_lat_bounds(i, &lo, &hi);
		top = hi != 0 ? (double)hi : (double)h->max_ns + 1;
		if (lo + 1 == hi)
			v = (double)lo;
		else
			v = (double)lo + (top - (double)lo) *
			    ((double)(rank - cum) - 0.5) / (double)h->b[i];
		return v > (double)h->max_ns ? (double)h->max_ns : v;
	}
	/* The buckets hold fewer than count: a torn read. */
	return (double)h->max_ns;
}

/* "%llu.%09llu" of ns as seconds: exact. */
static int
put_seconds(struct ds_buf *b, uint64_t ns)
{
	int e, n;

	if ((e = ds_buf_reserve(b, 32)) < 0)
		return e;
	n = snprintf(b->data + b->len, 32, "%llu.%09llu",
	    (unsigned long long)(ns / 1000000000u),
	    (unsigned long long)(ns % 1000000000u));
	b->len += (size_t)n;
	return 0;
}

static int
put(struct ds_buf *b, const char *s)
{
	size_t n = strlen(s);
	int e;

	if ((e = ds_buf_reserve(b, n)) < 0)
		return e;
	memcpy(b->data + b->len, s, n + 1);
	b->len += n;
	return 0;
}

static int
put_u64(struct ds_buf *b, uint64_t v)
{
	char num[24];

	snprintf(num, sizeof(num), "%llu", (unsigned long long)v);
	return put(b, num);
}

/*
 * A Prometheus histogram of h, in seconds: NAME_bucket{LABELS,le=...}
 * cumulative at every power of two from 2^10 ns (1.024 us) to 2^37 ns
 * (137 s), which are bucket bounds, so every count is exact (a value of
 * exactly 2^k ns counts above it), then +Inf, NAME_sum and NAME_count.
 * labels: the label pairs, already escaped ("" for none).
 */
int
ds_lat_prom(struct ds_buf *b, const char *name, const char *labels,
    const struct ds_lat *h)
{
	uint64_t cum = 0, lo, hi;
	unsigned int i = 0, e;
	int err = 0;

	for (e = 10; e <= 37; e++) {
		for (; i < DS_LAT_NB; i++) {
			ds_lat_bounds(i, &lo, &hi);
			if (hi == 0 || hi > (uint64_t)1 << e)
				break;
			cum += h->b[i];
		}
		err |= put(b, name);
		err |= put(b, "_bucket{");
		err |= put(b, labels);
		err |= put(b, *labels ? ",le=\"" : "le=\"");
		err |= put_seconds(b, (uint64_t)1 << e);
		err |= put(b, "\"} ");
		err |= put_u64(b, cum);
		err |= put(b, "\n");
	}
	err |= put(b, name);
	err |= put(b, "_bucket{");
	err |= put(b, labels);
	err |= put(b, *labels ? ",le=\"+Inf\"} " : "le=\"+Inf\"} ");
	err |= put_u64(b, h->count);
	err |= put(b, "\n");
	err |= put(b, name);
	err |= put(b, *labels ? "_sum{" : "_sum");
	err |= put(b, labels);
	err |= put(b, *labels ? "} " : " ");
	err |= put_seconds(b, h->sum_ns);
	err |= put(b, "\n");
	err |= put(b, name);
	err |= put(b, *labels ? "_count{" : "_count");
	err |= put(b, labels);
	err |= put(b, *labels ? "} " : " ");
	err |= put_u64(b, h->count);
	err |= put(b, "\n");
	return err ? -ENOMEM : 0;
}
