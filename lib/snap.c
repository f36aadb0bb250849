/*
 * dxstat's snapshot files: a header of "uptime S.NS" and "time S.NS"
 * lines, then the diskstats text as the kernel printed it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Is the line at p (length l) "key" followed by a blank? */
static int
has_key(const char *p, size_t l, const char *key)
{
	size_t k = strlen(key);

	return l > k && memcmp(p, key, k) == 0 && (p[k] == ' ' || p[k] == '\t');
}

/*
 * One header line: 1 taken into s, 0 not a header line (the diskstats
 * text begins), -EINVAL with s->why set.  *seen: bit 0 uptime, bit 1
 * time.
 */
static int
head_line(const char *p, size_t l, size_t lineno, struct ds_snap *s,
    int *seen)
{
	char val[128];
	int is_up, e;
	size_t k;
	uint64_t v;

	is_up = has_key(p, l, "uptime");
	if (!is_up && !has_key(p, l, "time"))
		return 0;
	if (*seen & (is_up ? 1 : 2)) {
		s->why = is_up ? "second uptime line" : "second time line";
		s->why_line = lineno;
		return -EINVAL;
	}
	k = is_up ? 7 : 5;
	if (l - k >= sizeof(val)) {
		s->why = "header line too long";
		s->why_line = lineno;
		return -EINVAL;
	}
	memcpy(val, p + k, l - k);
	val[l - k] = '\0';
	/*
	 * Seconds with a fraction, as /proc/uptime prints them; a second
	 * field (/proc/uptime's idle time) is allowed so that "echo uptime
	 * $(cat /proc/uptime)" makes a valid line.
	 */
	e = ds_uptime_parse(val + strspn(val, " \t"), &v);
	if (e < 0) {
		s->why = is_up ? "uptime is not a number of seconds" :
		    "time is not a number of seconds";
		s->why_line = lineno;
		return -EINVAL;
	}
	if (is_up)
		s->uptime_ns = v;
	else
		s->time_ns = v;
	*seen |= is_up ? 1 : 2;
	return 1;
}

static void
head_init(struct ds_snap *s)
{
	s->uptime_ns = 0;
	s->time_ns = 0;
	s->why = NULL;
	s->why_line = 0;
	s->ds.n = 0;
	s->ds.bad = 0;
	s->ds.first_bad = 0;
}

static int
head_end(struct ds_snap *s, int seen, size_t lineno)
{
	if (seen & 1)
		return 0;
	s->why = "no uptime line before the diskstats lines";
	s->why_line = lineno;
	return -EINVAL;
}

int
ds_snap_head(struct ds_lines *l, struct ds_snap *s)
{
	char *p;
	size_t len;
	int seen = 0, e;

	head_init(s);
	for (;;) {
		if ((e = ds_lines_next(l, &p, &len)) < 0)
			return e;
		if (e == 0)
			return head_end(s, seen, l->lineno + 1);
		/* A cut line is as long as any header line too long. */
		if ((e = head_line(p, len, l->lineno, s, &seen)) < 0)
			return e;
		if (e == 0) {
			ds_lines_again(l);
			return head_end(s, seen, l->lineno);
		}
	}
}

int
ds_snap_format(struct ds_buf *out, uint64_t uptime_ns, uint64_t time_ns,
    const char *diskstats, size_t len)
{
	char head[128];
	int n, e;

	/* Nine decimals: the clock's own resolution, and at least two. */
	n = snprintf(head, sizeof(head), "uptime %" PRIu64 ".%09" PRIu64 "\n",
	    uptime_ns / 1000000000u, uptime_ns % 1000000000u);
	if (time_ns != 0)
		n += snprintf(head + n, sizeof(head) - (size_t)n,
		    "time %" PRIu64 ".%09" PRIu64 "\n",
		    time_ns / 1000000000u, time_ns % 1000000000u);
	if ((e = ds_buf_reserve(out, (size_t)n + len + 1)) < 0)
		return e;
	memcpy(out->data + out->len, head, (size_t)n);
	out->len += (size_t)n;
	if (len > 0)
		memcpy(out->data + out->len, diskstats, len);
	out->len += len;
	if (len > 0 && diskstats[len - 1] != '\n')
		out->data[out->len++] = '\n';
	out->data[out->len] = '\0';
	return 0;
}
