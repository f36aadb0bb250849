/*
 * The foundation's small findings (parse.c, proc.c).  A ppid too wide
 * for an int is damage, not a negative pid; a fixed-point scale past
 * 10^19 is refused, not wrapped.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "tap.h"

/* Fields 5 to 41 of /proc/PID/stat after "S PPID ". */
#define REST "1 1 0 -1 4194560 0 0 0 0 3 4 0 0 20 0 1 0 99 0 0 " \
    "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 7\n"

static int
stat_ppid(const char *ppid, struct ds_stat *st)
{
	char text[512];

	snprintf(text, sizeof(text), "42 (x) S %s " REST, ppid);
	return ds_stat_parse(text, strlen(text), st);
}

int
main(void)
{
	struct ds_stat st;

	/* ds_stat_parse: ppid must fit an int, as pid does. */
	is_int(stat_ppid("1", &st), 0, "stat: ppid 1");
	is_int(st.ppid, 1, "stat: ppid value");
	is_int((int)st.blkio_ticks, 7, "stat: field 42 read");
	is_int(stat_ppid("2147483647", &st), 0, "stat: ppid INT32_MAX");
	is_int(st.ppid, INT32_MAX, "stat: ppid INT32_MAX value");
	is_int(stat_ppid("2147483648", &st), -EINVAL,
	    "stat: ppid INT32_MAX + 1 refused");
	is_int(stat_ppid("4294967295", &st), -EINVAL,
	    "stat: ppid 2^32 - 1 refused (was -1)");
	is_int(stat_ppid("18446744073709551615", &st), -EINVAL,
	    "stat: ppid UINT64_MAX refused");
	is_int(stat_ppid("-1", &st), -EINVAL, "stat: negative ppid refused");

	/* ds_parse_fixed: scale 19 is the widest 64 bits can hold. */
	{
		const char *end = NULL, *s19 = "1.8446744073709551615";
		uint64_t v = 0;

		is_int(ds_parse_fixed(s19, &end, 19, &v), 0, "fixed: scale 19");
		is_u64(v, UINT64_MAX, "fixed: scale 19, UINT64_MAX exactly");
		ok(end != NULL && *end == '\0', "fixed: scale 19 ends past the digits");
		is_int(ds_parse_fixed("1.8446744073709551616", &end, 19, &v),
		    -ERANGE, "fixed: scale 19, one past UINT64_MAX");
		is_int(ds_parse_fixed("0.2", &end, 19, &v), 0, "fixed: 0.2 scale 19");
		is_u64(v, UINT64_C(2000000000000000000), "fixed: 0.2 at 10^-19");
		v = 12345;
		is_int(ds_parse_fixed("0.2", &end, 20, &v), -EINVAL,
		    "fixed: scale 20 refused (0.2 would wrap)");
		is_u64(v, 12345, "fixed: scale 20 leaves *out alone");
		ok(end != NULL && *end == '0', "fixed: scale 20, end at the start");
		is_int(ds_parse_fixed("0", NULL, 20, &v), -EINVAL,
		    "fixed: scale 20 refused even for 0");
		is_int(ds_parse_fixed("1", NULL, UINT32_MAX, &v), -EINVAL,
		    "fixed: scale UINT_MAX refused");
	}

	return tap_done();
}
