/*
 * cmd/util/values.c: what an option or operand may say.  Formats,
 * intervals (".5" with many digits is "0.5" with as many), counts and
 * sizes.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util/util.h"
#include "tap.h"

static void
test_fmt(void)
{
	enum ds_fmt f = DS_FMT_TSV;

	is_int(tool_fmt_parse("json", &f), 0, "fmt: json");
	is_int(f, DS_FMT_JSON, "json is DS_FMT_JSON");
	is_int(tool_fmt_parse("prom", &f), 0, "fmt: prom");
	is_int(f, DS_FMT_PROM, "prom is DS_FMT_PROM");
	is_int(tool_fmt_parse("JSON", &f), -EINVAL, "fmt: no other case");
	is_int(tool_fmt_parse("", &f), -EINVAL, "fmt: empty refused");
	is_int(f, DS_FMT_PROM, "fmt: a refusal leaves *f alone");
	is_int(tool_fmt_default(-1), DS_FMT_TSV, "fmt: not a terminal, tsv");
}

static void
test_interval_count(void)
{
	uint64_t v = 0;

	is_int(tool_parse_interval("1", &v), 0, "interval 1");
	is_u64(v, 1000000000, "1 s");
	is_int(tool_parse_interval("0.01", &v), 0, "interval 0.01");
	is_u64(v, 10000000, "10 ms");
	is_int(tool_parse_interval("300", &v), 0, "interval 300");
	is_int(tool_parse_interval("0.001", &v), -ERANGE, "1 ms too short");
	is_int(tool_parse_interval("0", &v), -ERANGE, "0 refused");
	is_int(tool_parse_interval("99999999", &v), -ERANGE, "years refused");
	is_int(tool_parse_interval("1s", &v), -EINVAL, "unit suffix refused");
	is_int(tool_parse_interval("-1", &v), -EINVAL, "negative refused");
	is_int(tool_parse_count("3", &v), 0, "count 3");
	is_int(tool_parse_count("0", &v), -ERANGE, "count 0 refused");
	is_int(tool_parse_count("4294967296", &v), -ERANGE, "count > 2^32-1");
	is_int(tool_parse_count("1.5", &v), -EINVAL, "fractional count");
	is_int(tool_parse_interval(".5", &v), 0, "interval .5");
	is_u64(v, 500000000, ".5 s");
	is_int(tool_parse_interval("1.2.3", &v), -EINVAL, "1.2.3 refused");
	is_int(tool_parse_interval(".", &v), -EINVAL, "lone dot refused");
}

/* ".5..." as "0.5...", whatever its length. */
static void
test_dot(void)
{
	/* 27 zeros still fit the old 32-byte copy; 104 digits do not. */
	static const char *const tail[] = { "", "0",
	    "000000000000000000000000000",
	    "0000000000000000000000000000000000000000"
	    "0000000000000000000000000000000000000000"
	    "000000000000000000000009",
	    "99999999" };
	char dot[256], zero[256];
	uint64_t a, b;
	size_t i;
	int ea, eb;

	for (i = 0; i < sizeof(tail) / sizeof(tail[0]); i++) {
		snprintf(dot, sizeof(dot), ".5%s", tail[i]);
		snprintf(zero, sizeof(zero), "0.5%s", tail[i]);
		a = b = 0;
		ea = tool_parse_interval(dot, &a);
		eb = tool_parse_interval(zero, &b);
		is_int(ea, 0, dot);
		is_int(eb, 0, zero);
		is_u64(a, b, "the two agree");
	}
	is_u64(a, 599999999, ".599999999... truncated to the ns");
	memset(dot, '0', sizeof(dot) - 1);
	dot[sizeof(dot) - 1] = '\0';
	dot[0] = '.';
	dot[1] = '0';
	dot[2] = '2';
	is_int(tool_parse_interval(dot, &a), 0, ".02 then 252 zeros");
	is_u64(a, 20000000, ".02... is 20 ms");
	is_int(tool_parse_interval(".001000000000000000000000000000000000", &a),
	    -ERANGE, ".001 with many zeros: too short, as 0.001 is");
	is_int(tool_parse_interval(".5000000000000000000000000000000000000x", &a),
	    -EINVAL, ".5 with many zeros then junk: refused");
}

/* --min-size's sizes. */
static void
test_size(void)
{
	uint64_t v = 7;

	is_int(tool_parse_size("1048576", &v), 0, "size: bytes");
	is_u64(v, 1048576, "1048576");
	is_int(tool_parse_size("512K", &v), 0, "512K");
	is_u64(v, 512 << 10, "512 KiB");
	is_int(tool_parse_size("2g", &v), 0, "2g");
	is_u64(v, 2ULL << 30, "2 GiB");
	is_int(tool_parse_size("10X", &v), -EINVAL, "10X: no such unit");
	is_int(tool_parse_size("-1", &v), -EINVAL, "-1: not a size");
	is_int(tool_parse_size("1MB", &v), -EINVAL, "1MB: trailing junk");
	is_int(tool_parse_size("20000000T", &v), -ERANGE, "20000000T: too big");
}

int
main(void)
{
	test_fmt();
	test_interval_count();
	test_dot();
	test_size();
	return tap_done();
}
