/*
 * Snapshot files: a header of "uptime S.NS" and "time S.NS" lines and
 * of "id NAME IDENTITY" lines (lib/devid.c), then the diskstats text as
 * the kernel printed it.
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
		s->why = is_up ? DS_SNAP_WHY_UPTIME_TWICE :
		    DS_SNAP_WHY_TIME_TWICE;
		s->why_line = lineno;
		return -EINVAL;
	}
	k = is_up ? 7 : 5;
	if (l - k >= sizeof(val)) {
		s->why = DS_SNAP_WHY_HEAD_LONG;
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
		s->why = is_up ? DS_SNAP_WHY_UPTIME : DS_SNAP_WHY_TIME;
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

/*
 * An id line: 1 taken (into ids, when not NULL), -EINVAL with s->why
 * set, or -ENOMEM.
 */
static int
id_line(const char *p, size_t l, size_t lineno, struct ds_snap *s,
    struct ds_devids *ids)
{
	char name[DS_DISK_NAME_MAX];
	size_t a, n, b;

	/* "id", blanks, the name, blanks, the identity to the end. */
	for (a = 2; a < l && (p[a] == ' ' || p[a] == '\t'); a++)
		;
	for (n = a; n < l && p[n] != ' ' && p[n] != '\t'; n++)
		;
	for (b = n; b < l && (p[b] == ' ' || p[b] == '\t'); b++)
		;
	/* Trailing blanks are no part of it (a hand-edited file). */
	while (l > b && (p[l - 1] == ' ' || p[l - 1] == '\t'))
		l--;
	s->why_line = lineno;
	if (!ds_devid_name_ok(p + a, n - a)) {
		s->why = DS_SNAP_WHY_ID_NAME;
		return -EINVAL;
	}
	if (!ds_devid_ok(p + b, l - b)) {
		s->why = l == b ? DS_SNAP_WHY_ID_NONE : DS_SNAP_WHY_ID_BAD;
		return -EINVAL;
	}
	s->why_line = 0;
	if (ids == NULL)
		return 1;
	memcpy(name, p + a, n - a);
	name[n - a] = '\0';
	return ds_devids_add(ids, name, p + b, l - b) < 0 ? -ENOMEM : 1;
}

static void
head_init(struct ds_snap *s)
{
	s->uptime_ns = 0;
	s->time_ns = 0;
	s->why = DS_SNAP_WHY_NONE;
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
	s->why = DS_SNAP_WHY_NO_UPTIME;
	s->why_line = lineno;
	return -EINVAL;
}

int
ds_snap_head(struct ds_lines *l, struct ds_snap *s)
{
	return ds_snap_head_ids(l, s, NULL);
}

/* The end of the header: the uptime line seen, the ids sorted. */
static int
head_done(struct ds_snap *s, int seen, size_t lineno,
    struct ds_devids *ids)
{
	int e;

	if ((e = head_end(s, seen, lineno)) < 0 || ids == NULL)
		return e;
	if (ds_devids_sort(ids) < 0) {
		s->why = DS_SNAP_WHY_ID_TWICE;
		s->why_line = lineno;
		return -EINVAL;
	}
	return 0;
}

int
ds_snap_head_ids(struct ds_lines *l, struct ds_snap *s,
    struct ds_devids *ids)
{
	char *p;
	size_t len;
	int seen = 0, e;

	head_init(s);
	if (ids != NULL) {
		ids->n = 0;
		ids->pool.len = 0;
	}
	for (;;) {
		if ((e = ds_lines_next(l, &p, &len)) < 0)
			return e;
		if (e == 0)
			return head_done(s, seen, l->lineno + 1, ids);
		/* A cut line is as long as any header line too long. */
		if (!has_key(p, len, "id"))
			e = head_line(p, len, l->lineno, s, &seen);
		else if (!l->cut)
			e = id_line(p, len, l->lineno, s, ids);
		else {
			s->why = DS_SNAP_WHY_ID_LONG;
			s->why_line = l->lineno;
			e = -EINVAL;
		}
		if (e < 0)
			return e;
		if (e == 0) {
			ds_lines_again(l);
			return head_done(s, seen, l->lineno, ids);
		}
	}
}

int
ds_snap_bad_msg(const struct ds_snap *s, struct ds_buf *msg)
{
	static const char *const why[] = {
		[DS_SNAP_WHY_UPTIME_TWICE] = "second uptime line",
		[DS_SNAP_WHY_TIME_TWICE] = "second time line",
		[DS_SNAP_WHY_HEAD_LONG] = "header line too long",
		[DS_SNAP_WHY_UPTIME] = "uptime is not a number of seconds",
		[DS_SNAP_WHY_TIME] = "time is not a number of seconds",
		[DS_SNAP_WHY_ID_NAME] = "id line: not a device name",
		[DS_SNAP_WHY_ID_NONE] = "id line: no identity",
		[DS_SNAP_WHY_ID_BAD] = "id line: identity too long or not "
		    "printable",
		[DS_SNAP_WHY_ID_TWICE] = "id line: a device named twice",
		[DS_SNAP_WHY_ID_LONG] = "id line too long",
		[DS_SNAP_WHY_NO_UPTIME] = "no uptime line before the "
		    "diskstats lines",
	};

	if (s->why == DS_SNAP_WHY_NONE)
		return ds_buf_fail(msg, 0);
	/* A code this table lacks is still a refusal, said plainly. */
	return ds_buf_printf(msg, "line %zu: %s", s->why_line,
	    s->why < sizeof(why) / sizeof(why[0]) ? why[s->why] : "malformed");
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
