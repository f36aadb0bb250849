/*
 * The checked number parsers against a slow reference: ds_parse_u64,
 * ds_strtou64, ds_parse_fixed at every scale up to 9, ds_uptime_parse,
 * ds_is_number, and the tools' tool_parse_interval and tool_parse_count
 * (cmd/util), which operand handling relies on to agree with them.
 */
#include <errno.h>

#include "fuzz.h"
#include "util/util.h"

/*
 * Reference: digits at s as an exact value, or -ERANGE / -EINVAL, with
 * the fraction truncated to scale digits.  Uses 128-bit arithmetic so
 * it cannot share the library's overflow checks.
 */
static int
ref_fixed(const char *s, unsigned scale, uint64_t *out, const char **end)
{
	unsigned __int128 v = 0, f = 0;
	const char *p = s;
	int over = 0;
	unsigned i;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p < '0' || *p > '9') {
		*end = s;
		return -EINVAL;
	}
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (unsigned)(*p - '0');
		if (v > UINT64_MAX)
			over = 1, v = (unsigned __int128)UINT64_MAX + 1;
	}
	if (*p == '.' && scale > 0) {
		p++;
		for (i = 0; i < scale; i++) {
			f *= 10;
			if (*p >= '0' && *p <= '9')
				f += (unsigned)(*p++ - '0');
		}
		while (*p >= '0' && *p <= '9')
			p++;
	} else if (*p == '.') {
		p++;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	*end = p;
	for (i = 0; i < scale; i++)
		v *= 10;
	v += f;
	if (over || v > UINT64_MAX)
		return -ERANGE;
	*out = (uint64_t)v;
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_strdup(data, size);
	const char *end, *rend;
	uint64_t v, rv, iv, cv;
	unsigned scale;
	int e, re, num, ie, ce;

	/* Scale 0: ds_parse_u64 is ds_parse_fixed without a fraction. */
	e = ds_parse_u64(s, &end, &v);
	re = ref_fixed(s, 0, &rv, &rend);
	FUZZ_CHECK(e == re);
	if (e == 0)
		FUZZ_CHECK(v == rv);
	/* The reference at scale 0 also skips a fraction. */
	if (*end != '.')
		FUZZ_CHECK(end == rend);
	FUZZ_CHECK(fuzz_within(end, s, size));

	for (scale = 0; scale <= 9; scale++) {
		e = ds_parse_fixed(s, &end, scale, &v);
		re = ref_fixed(s, scale, &rv, &rend);
		FUZZ_CHECK(e == re);
		if (e == 0) {
			FUZZ_CHECK(v == rv);
			FUZZ_CHECK(end == rend);
		}
		FUZZ_CHECK(fuzz_within(end, s, size));
	}

	e = ds_strtou64(s, &v);
	FUZZ_CHECK(e == 0 || e == -EINVAL || e == -ERANGE);

	e = ds_uptime_parse(s, &v);
	re = ref_fixed(s, 9, &rv, &rend);
	if (e == 0)
		FUZZ_CHECK(re == 0 && v == rv);

	/*
	 * ds_is_number says which operands are intervals or counts (digits
	 * and dots, "1.2.3" included, so that it is refused as a bad
	 * interval): whatever parses as an interval must be one.  ".5" is
	 * "0.5".
	 */
	num = ds_is_number(s);
	ie = tool_parse_interval(s, &iv);
	ce = tool_parse_count(s, &cv);
	FUZZ_CHECK(ie == 0 || ie == -EINVAL || ie == -ERANGE);
	if (ie == 0) {
		FUZZ_CHECK(num);
		FUZZ_CHECK(iv >= 10000000u && iv <= 2678400ull * 1000000000u);
	}
	/* (A count may end in blanks, as ds_strtou64 allows.) */
	if (ce == 0)
		FUZZ_CHECK(cv >= 1 && cv <= UINT32_MAX);
	if (s[0] == '.' && s[1] >= '0' && s[1] <= '9' && size < 29) {
		char *z = malloc(size + 2);
		uint64_t zv;
		int ze;

		z[0] = '0';
		memcpy(z + 1, s, size + 1);
		ze = tool_parse_interval(z, &zv);
		FUZZ_CHECK(ze == ie && (ze != 0 || zv == iv));
		free(z);
	}
	free(s);
	return 0;
}
