/*
 * Stage two of hardening: the foundation's small findings.  A ppid too
 * wide for an int is damage, not a negative pid.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "diskstat.h"
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

	return tap_done();
}
