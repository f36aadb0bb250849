/*
 * The writer's integers and times, formatted without printf: every
 * digit as "%" PRIu64, "%" PRId64 and "%" PRIu64 ".%03" PRIu64 print
 * it, at the edges of each type, in TSV and JSON.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tap.h"

static const struct ds_col cols[] = {
	{ "u", DS_T_U64, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "i", DS_T_I64, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "t", DS_T_TIME, DS_P_NONE, NULL, NULL, 0, 0, 0 },
};

static const uint64_t uv[] = {
	0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 4194304, 2147483647,
	4294967295u, 4294967296u, 999999999, 1000000000, 1000000001,
	999999999999ull, 1000000000000ull, 10000000000000000000ull,
	18446744073709551614ull, UINT64_MAX, 1764469461123456789ull,
	1764469461000999999ull, 1764469461001000000ull,
};
static const int64_t iv[] = {
	INT64_MIN, INT64_MIN + 1, -1000000000000ll, -10, -9, -1, 0, 1, 9,
	10, INT64_MAX - 1, INT64_MAX,
};
#define NU (sizeof(uv) / sizeof(uv[0]))
#define NI (sizeof(iv) / sizeof(iv[0]))

/* One row of u, i, t through the writer in fmt; the text, malloc'd. */
static char *
row(enum ds_fmt fmt, uint64_t u, int64_t i, uint64_t t)
{
	struct ds_writer w;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (f == NULL)
		abort();
	ds_writer_init(&w, f, fmt, cols, 3, 0, "t");
	ds_w_u64(&w, u);
	ds_w_i64(&w, i);
	ds_w_time(&w, t);
	ds_w_row_end(&w);
	ds_w_report_end(&w);
	ds_writer_free(&w);
	fclose(f);
	return text;
}

static void
check(uint64_t u, int64_t i, uint64_t t)
{
	char want[256], *got;

	snprintf(want, sizeof(want), "%" PRIu64 "\t%" PRId64 "\t%" PRIu64
	    ".%03" PRIu64 "\n", u, i, t / 1000000000u,
	    t % 1000000000u / 1000000u);
	got = row(DS_FMT_TSV, u, i, t);
	ok(strcmp(got, want) == 0, "tsv %" PRIu64 " %" PRId64 " %" PRIu64,
	    u, i, t);
	if (strcmp(got, want) != 0)
		printf("#   got '%s' want '%s'\n", got, want);
	free(got);
	snprintf(want, sizeof(want), "{\"u\":%" PRIu64 ",\"i\":%" PRId64
	    ",\"t\":%" PRIu64 ".%03" PRIu64 "}\n", u, i, t / 1000000000u,
	    t % 1000000000u / 1000000u);
	got = row(DS_FMT_JSON, u, i, t);
	ok(strcmp(got, want) == 0, "json %" PRIu64 " %" PRId64 " %" PRIu64,
	    u, i, t);
	if (strcmp(got, want) != 0)
		printf("#   got '%s' want '%s'\n", got, want);
	free(got);
}

int
main(void)
{
	size_t k;

	for (k = 0; k < NU; k++)
		check(uv[k], iv[k % NI], uv[NU - 1 - k]);
	for (k = 0; k < NI; k++)
		check(uv[(k * 7) % NU], iv[k], uv[k]);
	/* Every millisecond digit pattern of one second. */
	for (k = 0; k < 1000; k += 37)
		check(k, -(int64_t)k, 5000000000ull + k * 1000000u + 999999u);
	return tap_done();
}
