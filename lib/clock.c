/* Clocks: the interval time base and the wall clock. */
#include <errno.h>
#include <time.h>

#include "internal.h"

static uint64_t
clock_ns(clockid_t id)
{
	struct timespec ts;

	if (clock_gettime(id, &ts) < 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t
ds_boottime_ns(void)
{
	return clock_ns(CLOCK_BOOTTIME);
}

uint64_t
ds_realtime_ns(void)
{
	return clock_ns(CLOCK_REALTIME);
}

int
ds_uptime_parse(const char *text, uint64_t *ns)
{
	const char *end;
	uint64_t v;
	int e;

	/* The kernel prints two decimals; accept up to nine. */
	if ((e = ds_parse_fixed(text, &end, 9, &v)) < 0)
		return e;
	if (*end != ' ' && *end != '\t' && *end != '\n' && *end != '\0')
		return -EINVAL;
	*ns = v;
	return 0;
}

int
ds_uptime_ns(const struct ds_root *r, struct ds_buf *scratch, uint64_t *ns)
{
	int e;

	if (r->live) {
		*ns = ds_boottime_ns();
		return 0;
	}
	if ((e = ds_read_file(r, "proc/uptime", scratch)) < 0)
		return e;
	return ds_uptime_parse(scratch->data, ns);
}

int
ds_sleep_until(uint64_t deadline_ns)
{
	struct timespec ts;
	int e;

	ts.tv_sec = (time_t)(deadline_ns / 1000000000u);
	ts.tv_nsec = (long)(deadline_ns % 1000000000u);
	/* Absolute deadlines: sampling does not drift over hours. */
	e = clock_nanosleep(CLOCK_BOOTTIME, TIMER_ABSTIME, &ts, NULL);
	return e == 0 ? 0 : -e;
}
