/* Latency histograms against exact computation on sorted samples. */
#include <math.h>
#include <stdlib.h>

#include "internal.h"
#include "oracle.h"
#include "tap.h"

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The exact q-quantile: the ceil(q * n)-th smallest (1-based). */
static uint64_t
exact(const uint64_t *v, size_t n, double q)
{
	size_t k = (size_t)(q * (double)n);

	if ((double)k < q * (double)n)
		k++;
	if (k < 1)
		k = 1;
	return v[k - 1];
}

static uint64_t rng = 88172645463325252ull;

static uint64_t
xorshift(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/*
 * Each quantile estimate must fall in the bucket of the exact sample
 * value of the same rank: that is all a histogram can know.
 */
static void
check_set(const char *name, uint64_t *v, size_t n)
{
	static const double qs[] = { 0.01, 0.5, 0.9, 0.99, 0.999, 1.0 };
	struct ds_lat *h = calloc(1, sizeof(*h));
	uint64_t sum = 0, mx = 0, lo, hi;
	size_t i, bad = 0;
	double est;

	for (i = 0; i < n; i++) {
		ds_lat_add(h, v[i]);
		sum += v[i];
		if (v[i] > mx)
			mx = v[i];
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	is_u64(h->count, n, name);
	is_u64(h->sum_ns, sum, "sum exact");
	is_u64(h->max_ns, mx, "max exact");
	ok(fabs(ds_lat_mean(h) - (double)sum / (double)n) < 1e-9 * (double)sum,
	    "mean exact");
	for (i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		uint64_t x = exact(v, n, qs[i]);
		est = ds_lat_quantile(h, qs[i]);
		ds_lat_bounds(ds_lat_bucket(x), &lo, &hi);
		if (!(est >= (double)lo && (hi == 0 || est < (double)hi) &&
		    est <= (double)mx)) {
			printf("# q %g: exact %llu in [%llu, %llu), got %.1f\n",
			    qs[i], (unsigned long long)x,
			    (unsigned long long)lo, (unsigned long long)hi, est);
			bad++;
		}
		/* Within the bucket: at most 1/8 of the value away. */
		if (x >= 16 && fabs(est - (double)x) > (double)x / 8 + 1) {
			printf("# q %g: %.1f is more than 12.5%% from %llu\n",
			    qs[i], est, (unsigned long long)x);
			bad++;
		}
	}
	is_int(bad, 0, "quantiles in the exact value's bucket, within 12.5%");
	free(h);
}

int
main(void)
{
	static uint64_t v[100000];
	struct ds_lat *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	struct ds_lat *d = calloc(1, sizeof(*d));
	uint64_t lo, hi, prev_hi = 0;
	unsigned int i, gaps = 0, wrong = 0;
	size_t n;

	/* Buckets tile [0, 2^37) without gaps, each at most 1/8 wide. */
	for (i = 0; i < DS_LAT_NB; i++) {
		ds_lat_bounds(i, &lo, &hi);
		if (lo != prev_hi)
			gaps++;
		if (hi != 0 && (ds_lat_bucket(lo) != i ||
		    ds_lat_bucket(hi - 1) != i))
			wrong++;
		if (hi != 0 && lo >= 16 && (hi - lo) * 8 > lo)
			wrong++;
		prev_hi = hi;
	}
	is_int(gaps, 0, "buckets are contiguous");
	is_int(wrong, 0, "each bound maps back to its bucket, width <= 1/8");
	ds_lat_bounds(DS_LAT_NB - 1, &lo, &hi);
	is_u64(lo, (uint64_t)15 << 33, "last bucket starts at 15 * 2^33 ns");
	is_u64(hi, 0, "last bucket is open");
	is_int(ds_lat_bucket(UINT64_MAX), DS_LAT_NB - 1, "huge value: last");
	is_int(ds_lat_bucket(0), 0, "0 ns: bucket 0");
	is_int(ds_lat_bucket(15), 15, "15 ns: bucket 15");
	is_int(ds_lat_bucket(16), 16, "16 ns: bucket 16");
	is_int(ds_lat_bucket(17), 16, "17 ns: bucket 16 (2 wide)");
	is_int(ds_lat_bucket(1000), 8 * 7 + 7, "1000 ns: 2^9 * 15/8 + ...");
	ok(isnan(ds_lat_quantile(a, 0.5)), "empty: NaN quantile");
	ok(isnan(ds_lat_mean(a)), "empty: NaN mean");

	/* Uniform over a decade of microseconds. */
	for (n = 0; n < 100000; n++)
		v[n] = 10000 + xorshift() % 990000;
	check_set("uniform 10 us .. 1 ms", v, 100000);
	/* Log-uniform over six decades. */
	for (n = 0; n < 100000; n++)
		v[n] = (uint64_t)exp(log(100.0) +
		    (double)(xorshift() % 1000000) / 1e6 * log(1e6));
	check_set("log-uniform 100 ns .. 100 ms", v, 100000);
	/* Bimodal: the slot wait made visible. */
	for (n = 0; n < 10000; n++)
		v[n] = (n % 2 ? 2000000 : 4000000) + xorshift() % 1000;
	check_set("bimodal 2 ms / 4 ms", v, 10000);
	/* Few values: every rank counts. */
	for (n = 0; n < 7; n++)
		v[n] = (n + 1) * 1000003;
	check_set("seven values", v, 7);
	v[0] = 5;
	check_set("one small value", v, 1);

	/* Merge and delta. */
	for (n = 0; n < 1000; n++)
		ds_lat_add(a, 1000 + n);
	*b = *a;
	for (n = 0; n < 500; n++)
		ds_lat_add(b, 50000 + n);
	ds_lat_delta(a, b, d);
	is_u64(d->count, 500, "delta count");
	is_u64(d->sum_ns, 500 * 50000 + 499 * 500 / 2, "delta sum");
	is_u64(d->max_ns, 50499, "delta max: raised, exact");
	ds_lat_bounds(ds_lat_bucket(50000), &lo, &hi);
	ok(ds_lat_quantile(d, 0.01) >= (double)lo,
	    "delta holds the new values only");
	ds_lat_add(a, 7);
	ds_lat_delta(b, a, d);
	is_u64(d->count, a->count, "counter gone back: taken whole");
	*b = *a;
	ds_lat_add(b, 1003);
	ds_lat_delta(a, b, d);
	is_u64(d->count, 1, "one new value");
	ds_lat_bounds(ds_lat_bucket(1003), &lo, &hi);
	ok(d->max_ns >= 1003 && d->max_ns < hi,
	    "max not raised: within the value's bucket");
	ds_lat_merge(a, b);
	is_u64(a->count, 2 * 1001 + 1, "merge adds counts");
	is_u64(a->max_ns, 1999, "merge keeps the larger max");
	ds_lat_delta(b, b, d);
	is_u64(d->count, 0, "no change: empty");
	is_u64(d->max_ns, 0, "no change: max 0");
	free(a);
	free(b);
	free(d);
	return tap_done();
}
