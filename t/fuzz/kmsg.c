/*
 * Kernel log records (/dev/kmsg): ds_kmsg_record on the raw bytes (an
 * exact-size copy), whole and line by line as a tree's file is read.
 * Every disk kept has a name of [A-Za-z0-9_.:-]+, terminated, and
 * terminated op and kind; counts add up; the window is inclusive at
 * both ends and nothing outside it counts; the same record gives the
 * same answer twice.
 */
#include <errno.h>

#include "fuzz.h"

static void
check(const struct ds_ioerrs *o, uint64_t from, uint64_t to)
{
	const struct ds_ioerr *e;
	size_t i, j, n;
	char c;

	FUZZ_CHECK(o->n <= o->cap);
	FUZZ_CHECK(o->malformed <= o->records);
	for (i = 0; i < o->n; i++) {
		e = &o->e[i];
		n = strnlen(e->dev, sizeof(e->dev));
		FUZZ_CHECK(n > 0 && n < sizeof(e->dev));
		for (j = 0; j < n; j++) {
			c = e->dev[j];
			FUZZ_CHECK((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			    (c >= '0' && c <= '9') || c == '_' || c == '.' ||
			    c == ':' || c == '-');
		}
		for (j = 0; j < i; j++)
			FUZZ_CHECK(strcmp(o->e[j].dev, e->dev) != 0);
		FUZZ_CHECK(strnlen(e->op, sizeof(e->op)) < sizeof(e->op));
		n = strnlen(e->kind, sizeof(e->kind));
		FUZZ_CHECK(n > 6 && n < sizeof(e->kind));
		FUZZ_CHECK(memcmp(e->kind + n - 6, " error", 6) == 0);
		FUZZ_CHECK(e->count >= 1 && e->buffer <= e->count);
		FUZZ_CHECK(e->first_us >= from && e->first_us <= to);
		FUZZ_CHECK(e->last_us >= from && e->last_us <= to);
		FUZZ_CHECK(e->have_sector == 0 || e->have_sector == 1);
		FUZZ_CHECK(e->have_sector || e->sector == 0);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *rec = fuzz_memdup(data, size);
	struct ds_ioerrs o, again, w;
	const char *p, *end, *nl;
	uint64_t ts;
	int k, k2;

	memset(&o, 0, sizeof(o));
	memset(&again, 0, sizeof(again));
	memset(&w, 0, sizeof(w));
	k = ds_kmsg_record(rec, size, 0, UINT64_MAX, &o);
	FUZZ_CHECK(k == 1 || k == 0 || k == -EINVAL);
	FUZZ_CHECK(o.records <= 1);
	FUZZ_CHECK((k == -EINVAL) == (o.malformed == 1));
	FUZZ_CHECK((k == 1) == (o.n == 1));
	FUZZ_CHECK(o.refused + o.ignored <= 1);
	check(&o, 0, UINT64_MAX);
	k2 = ds_kmsg_record(rec, size, 0, UINT64_MAX, &again);
	FUZZ_CHECK(k2 == k && again.n == o.n && again.records == o.records);
	if (k == 1) {
		FUZZ_CHECK(memcmp(&again.e[0], &o.e[0], sizeof(o.e[0])) == 0);
		/* Inclusive at both ends, nothing outside. */
		ts = o.e[0].first_us;
		FUZZ_CHECK(ds_kmsg_record(rec, size, ts, ts, &w) == 1);
		if (ts > 0)
			FUZZ_CHECK(ds_kmsg_record(rec, size, 0, ts - 1, &w) == 0);
		if (ts < UINT64_MAX)
			FUZZ_CHECK(ds_kmsg_record(rec, size, ts + 1, UINT64_MAX, &w) == 0);
		FUZZ_CHECK(w.n == 1 && w.e[0].count == 1);
		check(&w, ts, ts);
	}
	ds_ioerrs_free(&o);
	ds_ioerrs_free(&again);
	ds_ioerrs_free(&w);

	/* As a file's lines, in a narrow window. */
	memset(&o, 0, sizeof(o));
	for (p = rec, end = rec + size; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		k = ds_kmsg_record(p, (size_t)(nl - p), 1000, 2000000, &o);
		FUZZ_CHECK(k == 1 || k == 0 || k == -EINVAL);
	}
	check(&o, 1000, 2000000);
	ds_ioerrs_free(&o);
	free(rec);
	return 0;
}
