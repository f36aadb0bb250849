/*
 * The writer's two-decimal numbers, printed without printf for speed
 * (lib/writer.c, fmt_f2), must be exactly what printf("%.2f") prints:
 * dxstat is compared with iostat to the last digit.  Checked on values
 * chosen to be hard (exact halves, their neighbours a few ulps away,
 * quotients as rates are, huge, tiny, negative, -0) through the public
 * writer, against snprintf.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tap.h"

static const struct ds_col col[] = {
	{ "v", DS_T_F2, DS_P_GAUGE, "v", "A value.", 0, 0, 0 },
};

static uint64_t seed = 88172645463325252ull;

static uint64_t
rnd(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return seed;
}

/* v nudged by d units in the last place. */
static double
ulps(double v, int d)
{
	uint64_t b;

	memcpy(&b, &v, sizeof(b));
	b += (uint64_t)(int64_t)d;
	memcpy(&v, &b, sizeof(v));
	return v;
}

static double
value(long i)
{
	uint64_t u = rnd();
	double v;

	switch (i % 8) {
	case 0:		/* k/100: the decimals printed exactly */
		return (double)(u % 100000000) / 100.0;
	case 1:		/* k/200: exact and inexact halves */
		return (double)(u % 100000000) / 200.0;
	case 2:		/* rates: counts over intervals */
		return (double)(u % 1000000) / (double)(1 + rnd() % 100000);
	case 3:		/* a few ulps around a half */
		return ulps((double)(u % 10000000) / 200.0,
		    (int)(rnd() % 7) - 3);
	case 4:		/* any bit pattern of a number below 1e20 */
		memcpy(&v, &u, sizeof(v));
		return isfinite(v) && fabs(v) < 1e20 ? v : 0.0;
	case 5:		/* all magnitudes */
		return ldexp((double)(u >> 11), -(int)(rnd() % 120));
	case 6:
		return -(double)(u % 100000000) / 200.0;
	default:
		return (double)(u % 1000000007) * 0.001;
	}
}

int
main(void)
{
	static const double special[] = {
		0.0, -0.0, 0.005, 0.015, 0.025, 0.125, 0.375, 2.675, 1.005,
		0.004999999999999999, -0.001, -0.005, 4.5e-320, 1e-300,
		999999999999999.9, 1e15, 1e15 + 2, 1e20, -1e20, 9.995,
		99.995, 123456789.125, 0.5, 1.5, 2.5,
	};
	const long nspecial = (long)(sizeof(special) / sizeof(special[0]));
	const long n = 300000;
	struct ds_writer w;
	char *got = NULL, *want = NULL, *p, *q;
	size_t glen = 0, wlen = 0;
	FILE *gf, *wf;
	long i, bad = 0;

	gf = open_memstream(&got, &glen);
	wf = open_memstream(&want, &wlen);
	ok(gf != NULL && wf != NULL, "memory streams");
	if (gf == NULL || wf == NULL)
		return tap_done();
	ds_writer_init(&w, gf, DS_FMT_TSV, col, 1, 0, "t");
	for (i = 0; i < nspecial + n; i++) {
		double v = i < nspecial ? special[i] : value(i);

		ds_w_f(&w, v);
		ds_w_row_end(&w);
		fprintf(wf, "%.2f\n", v);
	}
	is_int(ds_w_report_end(&w), 0, "rows written");
	ds_writer_free(&w);
	fclose(gf);
	fclose(wf);
	/* Compare line by line, to name the first values that differ. */
	p = got;
	q = want;
	for (i = 0; p != NULL && q != NULL && *q != '\0'; i++) {
		char *pe = strchr(p, '\n'), *qe = strchr(q, '\n');

		if (pe == NULL || qe == NULL)
			break;
		if (pe - p != qe - q || memcmp(p, q, (size_t)(qe - q)) != 0) {
			if (bad++ < 5)
				printf("# row %ld: got %.*s, want %.*s\n", i,
				    (int)(pe - p), p, (int)(qe - q), q);
		}
		p = pe + 1;
		q = qe + 1;
	}
	is_int(i, nspecial + n, "every row compared");
	is_int(bad, 0, "two decimals as printf(\"%.2f\") prints them");
	free(got);
	free(want);
	return tap_done();
}
