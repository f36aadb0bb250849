/*
 * Writer numbers that once went wrong: a double too wide for the
 * 64-byte number buffer (the bytes past it were printed: a stack
 * over-read into the output), and a time cell in a Prometheus metric
 * (an empty sample value).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"
#include "tap.h"

static const struct ds_col cols[] = {
	{ "v", DS_T_F2, DS_P_GAUGE, "v", "a value", 0, 0, 0 },
	{ "t", DS_T_TIME, DS_P_GAUGE, "t", "a time", 0, 0, 0 },
};

static char *
run(enum ds_fmt fmt, double v, uint64_t t)
{
	struct ds_writer w;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ds_writer_init(&w, f, fmt, cols, 2, 1, "x");
	ds_w_f(&w, v);
	ds_w_time(&w, t);
	ds_w_row_end(&w);
	ok(ds_w_report_end(&w) == 0, "report ends without error");
	ds_writer_free(&w);
	fclose(f);
	return buf;
}

int
main(void)
{
	char want[1024], *got;

	setenv("TZ", "UTC", 1);
	tzset();

	snprintf(want, sizeof(want), "v\tt\n%.2f\t1700000000.123\n", 1e300);
	got = run(DS_FMT_TSV, 1e300, 1700000000123456789ull);
	is_str(got, want, "tsv: 1e300 printed in full, nothing after it");
	free(got);

	snprintf(want, sizeof(want), "{\"v\":%.2f,\"t\":1700000000.123}\n",
	    -1.7976931348623157e308);
	got = run(DS_FMT_JSON, -1.7976931348623157e308, 1700000000123456789ull);
	is_str(got, want, "json: -DBL_MAX printed in full");
	free(got);

	got = run(DS_FMT_TABLE, 1e300, 0);
	snprintf(want, sizeof(want), "\n%.2f  1970-01-01 00:00:00\n", 1e300);
	ok(strstr(got, want) != NULL, "table: 1e300 printed in full");
	free(got);

	got = run(DS_FMT_PROM, 2.5, 1700000000123456789ull);
	is_str(got, "# HELP x_v a value\n# TYPE x_v gauge\nx_v 2.5\n"
	    "# HELP x_t a time\n# TYPE x_t gauge\nx_t 1700000000.123\n",
	    "prom: a time metric has its value in seconds");
	free(got);
	return tap_done();
}
