/*
 * dxstat snapshot files: ds_snap_parse on unterminated bytes; what it
 * accepts formats back (ds_snap_format) and parses to the same.  Then
 * ds_disk_delta and ds_xstat_compute on every pair of adjacent devices
 * of the snapshot: increments follow the documented rules and every
 * figure with its have bit set is a finite, non-negative number.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>

#include "fuzz.h"

static int
is_ms(int i)
{
	return i == DS_RD_TICKS || i == DS_WR_TICKS || i == DS_IO_TICKS ||
	    i == DS_TIME_IN_QUEUE || i == DS_DC_TICKS || i == DS_FL_TICKS;
}

static void
check_delta(const struct ds_disk *a, const struct ds_disk *b, uint64_t ns)
{
	uint64_t d[DS_NCOUNTERS];
	uint32_t have;
	enum ds_delta_kind k;
	struct ds_xstat x;
	int i;

	k = ds_disk_delta(a, b, d, &have);
	FUZZ_CHECK(k == DS_DELTA_OK || k == DS_DELTA_WRAP ||
	    k == DS_DELTA_RESET);
	/* A reset counts the new device from zero: its own counters. */
	if (k == DS_DELTA_RESET)
		FUZZ_CHECK(have == b->have);
	else
		FUZZ_CHECK((have & ~(a->have & b->have)) == 0);
	for (i = 0; i < DS_NCOUNTERS; i++) {
		if (!(have >> i & 1u) || i == DS_IN_FLIGHT)
			continue;
		if (is_ms(i) && k != DS_DELTA_RESET && b->v[i] < a->v[i])
			FUZZ_CHECK(d[i] < (1ull << 32));
		if (k == DS_DELTA_OK && !is_ms(i))
			FUZZ_CHECK(d[i] == b->v[i] - a->v[i] &&
			    b->v[i] >= a->v[i]);
		if (k == DS_DELTA_RESET)
			FUZZ_CHECK(d[i] == b->v[i]);
	}
	if (have >> DS_IN_FLIGHT & 1u)
		FUZZ_CHECK(d[DS_IN_FLIGHT] == b->v[DS_IN_FLIGHT]);
	ds_xstat_compute(d, have, ns, &x);
	for (i = 0; i < DS_X_N; i++) {
		if (!(x.have >> i & 1u))
			continue;
		FUZZ_CHECK(isfinite(x.v[i]));
		FUZZ_CHECK(x.v[i] >= 0);
	}
	if (ns == 0)
		FUZZ_CHECK(x.have == 0);
}

/* The file read a line at a time (ds_snap_head, ds_diskstats_fill). */
static void
same_through_window(const uint8_t *data, size_t size,
    const struct ds_snap *s, int e)
{
	struct ds_snap w = { 0 };
	struct ds_buf win = { 0 };
	struct ds_lines l;
	size_t i;
	int fd = fuzz_fd(data, size), we;

	ds_lines_fd(&l, fd, &win);
	we = ds_snap_head(&l, &w);
	if (we == 0)
		we = ds_diskstats_fill(&l, &w.ds);
	FUZZ_CHECK(we == e);
	if (e == -EINVAL) {
		FUZZ_CHECK(w.why != DS_SNAP_WHY_NONE && w.why == s->why);
		FUZZ_CHECK(w.why_line == s->why_line);
	}
	if (e == 0) {
		FUZZ_CHECK(w.uptime_ns == s->uptime_ns &&
		    w.time_ns == s->time_ns);
		FUZZ_CHECK(w.ds.n == s->ds.n && w.ds.bad == s->ds.bad &&
		    w.ds.first_bad == s->ds.first_bad);
		for (i = 0; i < s->ds.n; i++) {
			FUZZ_CHECK(strcmp(w.ds.disk[i].name,
			    s->ds.disk[i].name) == 0);
			FUZZ_CHECK(memcmp(w.ds.disk[i].v, s->ds.disk[i].v,
			    sizeof(s->ds.disk[i].v)) == 0);
		}
	}
	close(fd);
	ds_snap_free(&w);
	ds_buf_free(&win);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ds_snap s = { 0 }, again = { 0 };
	struct ds_buf text = { 0 }, out = { 0 };
	char *in = fuzz_memdup(data, size), line[1024];
	size_t i;
	int e, n, j;

	e = ds_snap_parse(in, size, &s);
	FUZZ_CHECK(e == 0 || e == -EINVAL || e == -ENOMEM);
	if (e == -EINVAL)
		FUZZ_CHECK(s.why != DS_SNAP_WHY_NONE && s.why_line > 0);
	if (e == 0) {
		/* The devices as the kernel would print them. */
		for (i = 0; i < s.ds.n; i++) {
			const struct ds_disk *d = &s.ds.disk[i];

			n = snprintf(line, sizeof(line), "%u %u %s", d->major,
			    d->minor, d->name);
			if (d->ncounters == 4)
				n += snprintf(line + n, sizeof(line) - (size_t)n,
				    " %" PRIu64 " %" PRIu64 " %" PRIu64
				    " %" PRIu64 "\n", d->v[DS_RD_IOS],
				    d->v[DS_RD_SECTORS], d->v[DS_WR_IOS],
				    d->v[DS_WR_SECTORS]);
			else {
				for (j = 0; j < DS_NCOUNTERS &&
				    (d->have >> j & 1u); j++)
					n += snprintf(line + n, sizeof(line) -
					    (size_t)n, " %" PRIu64, d->v[j]);
				n += snprintf(line + n, sizeof(line) - (size_t)n,
				    "\n");
			}
			FUZZ_CHECK(ds_buf_reserve(&text, (size_t)n) == 0);
			memcpy(text.data + text.len, line, (size_t)n);
			text.len += (size_t)n;
		}
		FUZZ_CHECK(ds_snap_format(&out, s.uptime_ns, s.time_ns,
		    text.data != NULL ? text.data : "", text.len) == 0);
		FUZZ_CHECK(ds_snap_parse(out.data, out.len, &again) == 0);
		FUZZ_CHECK(again.uptime_ns == s.uptime_ns);
		FUZZ_CHECK(again.time_ns == s.time_ns);
		FUZZ_CHECK(again.ds.n == s.ds.n && again.ds.bad == 0);
		for (i = 0; i < s.ds.n; i++) {
			FUZZ_CHECK(strcmp(again.ds.disk[i].name,
			    s.ds.disk[i].name) == 0);
			FUZZ_CHECK(again.ds.disk[i].have == s.ds.disk[i].have);
			FUZZ_CHECK(memcmp(again.ds.disk[i].v, s.ds.disk[i].v,
			    sizeof(s.ds.disk[i].v)) == 0);
		}
		for (i = 0; i + 1 < s.ds.n && i < 64; i++)
			check_delta(&s.ds.disk[i], &s.ds.disk[i + 1],
			    s.uptime_ns);
		if (s.ds.n > 0)
			check_delta(&s.ds.disk[0], &s.ds.disk[0], 0);
	}
	same_through_window(data, size, &s, e);
	ds_snap_free(&s);
	ds_snap_free(&again);
	ds_buf_free(&text);
	ds_buf_free(&out);
	free(in);
	return 0;
}
