/*
 * A capture's clock: the wall-clock time at which its sample in hand
 * was read (capture/meta's timeN), so that a report from a capture is
 * dated when its counters were read, not when it is looked at.
 */
#include <stdio.h>

#include "internal.h"

uint64_t
ds_root_time_ns(const struct ds_root *r)
{
	struct ds_buf scratch = { 0 };
	char key[16];
	uint64_t v;
	int e;

	if (r == NULL || r->nsamples == 0)
		return ds_realtime_ns();
	snprintf(key, sizeof(key), "time%u", r->sample);
	e = ds_capture_u64(r, key, &scratch, &v);
	ds_buf_free(&scratch);
	/* A capture without its time (not one of ours): now, as a tree. */
	return e < 0 || v == 0 ? ds_realtime_ns() : v;
}
