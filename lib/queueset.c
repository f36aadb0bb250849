/*
 * Setting queue attributes: every setting of a request validated before
 * the first write, applied in order, then every one read back after the
 * last write, so that a later write's side effect on an earlier setting
 * (max_sectors_kb raising read_ahead_kb) is seen.  The verdict of each
 * uses the same rule as a check (ds_queue_value_holds).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/*
 * Tunables kept in jiffies and shown in milliseconds: the kernel stores
 * msecs_to_jiffies(ms), rounding up, and shows jiffies_to_msecs(j),
 * rounding up again.  With HZ=250, 250 ms is 62.5 -> 63 jiffies -> 252.
 */
static const char *const jiffies_attrs[] = {
	"io_timeout",			/* queue/: q->rq_timeout */
	"read_expire", "write_expire",	/* mq-deadline */
	"prio_aging_expire",		/* mq-deadline */
	"timeout_sync",			/* bfq */
};

/* The HZ a kernel is built with: CONFIG_HZ_100, _250, _300, _1000. */
static const unsigned hz_choices[] = { 100, 250, 300, 1000 };

static const char *
base_name(const char *attr)
{
	return strncmp(attr, "iosched/", 8) == 0 ? attr + 8 : attr;
}

int
ds_queue_attr_jiffies(const char *attr)
{
	size_t i;

	attr = base_name(attr);
	for (i = 0; i < nitems(jiffies_attrs); i++)
		if (strcmp(attr, jiffies_attrs[i]) == 0)
			return 1;
	return 0;
}

uint64_t
ds_jiffies_round_ms(uint64_t ms, unsigned hz)
{
	uint64_t j;

	if (ms > UINT64_MAX / 1000 / 1000)
		return ms;
	j = (ms * hz + 999) / 1000;
	return (j * 1000 + hz - 1) / hz;
}

int
ds_queue_value_holds(const char *attr, const char *want, const char *got)
{
	uint64_t w, g;
	size_t i;

	if (ds_queue_value_eq(attr, want, got))
		return 1;
	if (!ds_queue_attr_jiffies(attr) || ds_strtou64(want, &w) < 0 ||
	    ds_strtou64(got, &g) < 0)
		return 0;
	/* What some kernel's HZ makes of the value: 252 for 250 at HZ=250. */
	for (i = 0; i < nitems(hz_choices); i++)
		if (ds_jiffies_round_ms(w, hz_choices[i]) == g)
			return 1;
	return 0;
}

/* The tunables of each scheduler, for iosched/ before it is active. */
static const struct {
	const char *sched;
	const char *attrs[12];
} tunables[] = {
	{ "mq-deadline", { "read_expire", "write_expire", "writes_starved",
	    "front_merges", "fifo_batch", "async_depth", "prio_aging_expire",
	    NULL } },
	{ "bfq", { "back_seek_max", "back_seek_penalty", "fifo_expire_async",
	    "fifo_expire_sync", "low_latency", "max_budget", "slice_idle",
	    "slice_idle_us", "strict_guarantees", "timeout_sync", NULL } },
	{ "kyber", { "read_lat_nsec", "write_lat_nsec", NULL } },
};

static int
tunable_of(const char *sched, const char *attr)
{
	size_t i, k;

	for (i = 0; i < nitems(tunables); i++) {
		if (strcmp(sched, tunables[i].sched) != 0)
			continue;
		for (k = 0; tunables[i].attrs[k] != NULL; k++)
			if (strcmp(attr, tunables[i].attrs[k]) == 0)
				return 1;
	}
	return 0;
}

/* An unsigned decimal (or -1 for wbt_lat_usec: the kernel's default). */
static int
number_ok(const char *attr, const char *v)
{
	uint64_t n;

	if (strcmp(base_name(attr), "wbt_lat_usec") == 0 &&
	    strcmp(v, "-1") == 0)
		return 1;
	return ds_strtou64(v, &n) == 0;
}

static int
copy(char *dst, size_t size, const char *src)
{
	if (strlen(src) >= size)
		return -ENAMETOOLONG;
	strcpy(dst, src);
	return 0;
}

static int
fail(struct ds_qs_item *it, enum ds_qs_why why, int e)
{
	it->why = why;
	it->err = e;
	return e;
}

/* The comparable form of what the attribute holds now, into out. */
static int
read_now(const struct ds_root *r, const char *disk, const char *rel,
    const char *attr, struct ds_buf *b, char *out, size_t size)
{
	int e;

	if ((e = ds_queue_attr_read(r, disk, rel, b)) < 0)
		return e;
	if (ds_queue_value_canon(attr, b->data, out, size) < 0)
		return copy(out, size, b->data);
	return 0;
}

/*
 * One setting: name, value syntax, writability.  sched is the scheduler
 * active once the request's scheduler setting is applied, or NULL.
 */
static int
prepare_one(const struct ds_root *r, const char *disk, const char *sched,
    int sched_changes, struct ds_qs_item *it, struct ds_buf *b)
{
	const char *word = base_name(it->attr);
	struct ds_sched s;
	size_t i;
	int e;

	it->old[0] = it->now[0] = it->rel[0] = '\0';
	it->state = DS_QS_PENDING;
	it->written = 0;
	if ((e = ds_queue_value_canon(it->attr, it->value, it->want,
	    sizeof(it->want))) < 0)
		return fail(it, DS_QSV_SYNTAX, e);
	for (i = 0; it->want[i] != '\0'; i++)
		if ((unsigned char)it->want[i] < 0x20 || it->want[i] == 0x7f)
			return fail(it, DS_QSV_SYNTAX, -EINVAL);
	e = ds_queue_attr_path(r, disk, it->attr, it->rel, sizeof(it->rel));
	/* iosched/ of a scheduler this request makes active: not there yet. */
	if (e == -ENOENT && sched_changes && sched != NULL &&
	    tunable_of(sched, word)) {
		snprintf(it->rel, sizeof(it->rel), "iosched/%s", word);
		if (!number_ok(it->attr, it->want))
			return fail(it, DS_QSV_SYNTAX, -EINVAL);
		return 0;
	}
	if (e == -ENOENT)
		return fail(it, DS_QSV_NOATTR, e);
	if (e < 0)
		return fail(it, DS_QSV_IO, e);
	/* The scheduler's files go when it does. */
	if (sched_changes && strncmp(it->rel, "iosched/", 8) == 0 &&
	    (sched == NULL || !tunable_of(sched, word)))
		return fail(it, DS_QSV_NOATTR, -ENOENT);
	/*
	 * The kernel refuses writes to read-only attributes with EACCES
	 * even for root; the mode says it first.
	 */
	if ((e = ds_queue_attr_writable(r, disk, it->rel)) == 0)
		return fail(it, DS_QSV_READONLY, -EACCES);
	if (e < 0)
		return fail(it, DS_QSV_IO, e);
	if ((e = ds_queue_attr_read(r, disk, it->rel, b)) < 0)
		return fail(it, DS_QSV_IO, e);
	if (strcmp(it->attr, "scheduler") == 0) {
		if (ds_sched_parse(b->data, &s) < 0 || s.active[0] == '\0')
			return fail(it, DS_QSV_IO, -EINVAL);
		for (i = 0; i < s.n; i++)
			if (strcmp(s.name[i], it->want) == 0)
				break;
		if (i == s.n)
			return fail(it, DS_QSV_SCHED, -EINVAL);
	} else if (strcmp(it->attr, "write_cache") == 0) {
		if (strcmp(it->want, "write back") != 0 &&
		    strcmp(it->want, "write through") != 0)
			return fail(it, DS_QSV_SYNTAX, -EINVAL);
	} else {
		uint64_t n;

		/* A number now wants a number. */
		if (ds_strtou64(b->data, &n) == 0 &&
		    !number_ok(it->attr, it->want))
			return fail(it, DS_QSV_SYNTAX, -EINVAL);
	}
	if (ds_queue_value_canon(it->attr, b->data, it->old,
	    sizeof(it->old)) < 0 && copy(it->old, sizeof(it->old),
	    b->data) < 0)
		return fail(it, DS_QSV_IO, -ENAMETOOLONG);
	return 0;
}

int
ds_qset_prepare(const struct ds_root *r, const char *disk,
    struct ds_qs_item *it, size_t n, struct ds_buf *b)
{
	const char *sched = NULL;
	char cur[DS_SCHED_NAME_MAX + 8];
	size_t i, j;
	int e, changes = 0;

	/*
	 * Changing the scheduler resets nr_requests and replaces iosched/,
	 * so scheduler settings go first; the others keep their order.
	 */
	for (i = 0, j = 0; i < n; i++)
		if (strcmp(it[i].attr, "scheduler") == 0) {
			struct ds_qs_item t = it[i];

			memmove(&it[j + 1], &it[j], (i - j) * sizeof(*it));
			it[j++] = t;
		}
	for (i = 0; i < n; i++) {
		it[i].err = 0;
		it[i].why = DS_QSV_OK;
	}
	if (n > 0 && strcmp(it[0].attr, "scheduler") == 0) {
		if ((e = prepare_one(r, disk, NULL, 0, &it[0], b)) < 0)
			return e;
		/* The last scheduler setting is the one that stays. */
		sched = it[j - 1].want;
		if (read_now(r, disk, "scheduler", "scheduler", b, cur,
		    sizeof(cur)) < 0 || strcmp(cur, sched) != 0)
			changes = 1;
	}
	for (i = 0; i < n; i++)
		if ((e = prepare_one(r, disk, sched, changes, &it[i], b)) < 0)
			return e;
	return 0;
}

static void
verdict(struct ds_qs_item *it)
{
	if (it->state == DS_QS_FAILED || it->state == DS_QS_SKIPPED)
		return;
	if (it->now[0] == '\0' && it->err < 0) {
		it->state = DS_QS_CHANGED;
		return;
	}
	if (!ds_queue_value_holds(it->attr, it->want, it->now))
		it->state = DS_QS_CHANGED;
	else if (!it->written)
		it->state = DS_QS_ALREADY;
	else if (ds_queue_value_eq(it->attr, it->want, it->now))
		it->state = DS_QS_SET;
	else
		it->state = DS_QS_ROUNDED;
}

int
ds_qset_apply(const struct ds_root *r, const char *disk,
    struct ds_qs_item *it, size_t n, struct ds_buf *b)
{
	char cur[sizeof(it->now)], rel[sizeof(it->rel)];
	size_t i;
	int e, stop = 0;

	for (i = 0; i < n; i++) {
		if (stop) {
			it[i].state = DS_QS_SKIPPED;
			continue;
		}
		/* The path again: iosched/ exists once its scheduler does. */
		snprintf(rel, sizeof(rel), "%s", it[i].rel);
		e = ds_queue_attr_path(r, disk, rel, it[i].rel,
		    sizeof(it[i].rel));
		/* Held already (perhaps after an earlier write): not written. */
		if (e == 0 && read_now(r, disk, it[i].rel, it[i].attr, b, cur,
		    sizeof(cur)) == 0 &&
		    ds_queue_value_holds(it[i].attr, it[i].want, cur))
			continue;
		if (e == 0)
			e = ds_queue_attr_write(r, disk, it[i].rel, it[i].want);
		if (e < 0) {
			it[i].state = DS_QS_FAILED;
			it[i].err = e;
			stop = 1;
			continue;
		}
		it[i].written = 1;
		/*
		 * The kernel took the write but stored another value
		 * (nr_requests 0 becomes 4): no further writes, no revert,
		 * which could fail the same way.
		 */
		if (read_now(r, disk, it[i].rel, it[i].attr, b, cur,
		    sizeof(cur)) < 0 ||
		    !ds_queue_value_holds(it[i].attr, it[i].want, cur))
			stop = 1;
	}
	/* After the last write, every setting of the request read back. */
	for (i = 0; i < n; i++) {
		if (it[i].state == DS_QS_FAILED || it[i].state == DS_QS_SKIPPED)
			continue;
		it[i].now[0] = '\0';
		snprintf(rel, sizeof(rel), "%s", it[i].rel);
		e = ds_queue_attr_path(r, disk, rel, it[i].rel,
		    sizeof(it[i].rel));
		if (e == 0)
			e = read_now(r, disk, it[i].rel, it[i].attr, b,
			    it[i].now, sizeof(it[i].now));
		it[i].err = e;
		verdict(&it[i]);
	}
	return 0;
}

int
ds_qset_dry(const struct ds_root *r, const char *disk,
    struct ds_qs_item *it, size_t n, struct ds_buf *b)
{
	size_t i;

	(void)r;
	(void)disk;
	(void)b;
	for (i = 0; i < n; i++)
		it[i].state = it[i].old[0] != '\0' &&
		    ds_queue_value_holds(it[i].attr, it[i].want, it[i].old) ?
		    DS_QS_ALREADY : DS_QS_WOULD;
	return 0;
}

const char *
ds_qs_state_name(enum ds_qs_state s)
{
	static const char *const names[] = {
		[DS_QS_PENDING] = "pending", [DS_QS_ALREADY] = "already",
		[DS_QS_SET] = "set", [DS_QS_ROUNDED] = "rounded",
		[DS_QS_CHANGED] = "changed", [DS_QS_FAILED] = "failed",
		[DS_QS_SKIPPED] = "skipped", [DS_QS_WOULD] = "would-set",
	};

	return (unsigned)s < nitems(names) ? names[s] :
	    "?";
}

/* The comparable form of value into out (value as is when it has none). */
static int
canon_buf(const char *attr, const char *value, struct ds_buf *out)
{
	size_t need = strlen(value) + 32;
	int e;

	out->len = 0;
	if (ds_buf_reserve(out, need) < 0)
		return -ENOMEM;
	if ((e = ds_queue_value_canon(attr, value, out->data, need)) < 0)
		snprintf(out->data, need, "%s", value);
	out->len = strlen(out->data);
	return e;
}

int
ds_qset_check(const struct ds_root *r, const char *disk, const char *attr,
    const char *want, struct ds_buf *b, struct ds_buf *got)
{
	char rel[256];
	int e;

	if ((e = ds_queue_attr_path(r, disk, attr, rel, sizeof(rel))) < 0 ||
	    (e = ds_queue_attr_read(r, disk, rel, b)) < 0)
		return e;
	/* A damaged line differs from nothing: it is an error. */
	e = canon_buf(attr, b->data, got);
	if (e == -ENOMEM)
		return e;
	if (strcmp(attr, "scheduler") == 0 && e == -EINVAL)
		return DS_QC_DAMAGED;
	return ds_queue_value_holds(attr, want, b->data) ? DS_QC_HOLDS :
	    DS_QC_DIFFERS;
}
