/*
 * /proc/diskstats: ds_diskstats_parse on raw bytes (not terminated, so
 * an over-read shows), ds_disk_parse_line on each line.  Every parsed
 * device must be printable again and parse back to the same values.
 */
#include <inttypes.h>

#include "fuzz.h"

static void
check_disk(const struct ds_disk *d)
{
	char line[2048];
	struct ds_disk again;
	unsigned i, nhave = 0;
	int n;

	FUZZ_CHECK(memchr(d->name, '\0', sizeof(d->name)) != NULL);
	FUZZ_CHECK(d->name[0] != '\0');
	FUZZ_CHECK(strpbrk(d->name, " \t\n") == NULL);
	/* 12 to 14 are read as 11, 16 as 15 (ds_disk_known). */
	FUZZ_CHECK(d->ncounters == 4 || d->ncounters >= 11);
	FUZZ_CHECK(ds_disk_extra(d) == (d->ncounters == 4 ||
	    d->ncounters >= 17 ? 0 : d->ncounters - ds_disk_known(d->ncounters)));
	for (i = 0; i < DS_NCOUNTERS; i++) {
		if (DS_HAVE(d, i))
			nhave++;
		else
			FUZZ_CHECK(d->v[i] == 0);
	}
	FUZZ_CHECK((d->have >> DS_NCOUNTERS) == 0);
	FUZZ_CHECK(nhave == (d->ncounters == 4 ? 4 :
	    ds_disk_known(d->ncounters)));

	/* Print it as the kernel would and parse it back. */
	n = snprintf(line, sizeof(line), "%u %u %s", d->major, d->minor,
	    d->name);
	if (d->ncounters == 4) {
		n += snprintf(line + n, sizeof(line) - (size_t)n,
		    " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64,
		    d->v[DS_RD_IOS], d->v[DS_RD_SECTORS], d->v[DS_WR_IOS],
		    d->v[DS_WR_SECTORS]);
	} else {
		for (i = 0; i < DS_NCOUNTERS && DS_HAVE(d, i); i++)
			n += snprintf(line + n, sizeof(line) - (size_t)n,
			    " %" PRIu64, d->v[i]);
	}
	FUZZ_CHECK(n > 0 && (size_t)n < sizeof(line));
	FUZZ_CHECK(ds_disk_parse_line(line, &again) == 0);
	FUZZ_CHECK(again.major == d->major && again.minor == d->minor);
	FUZZ_CHECK(strcmp(again.name, d->name) == 0);
	FUZZ_CHECK(again.have == d->have);
	FUZZ_CHECK(memcmp(again.v, d->v, sizeof(d->v)) == 0);
}

/* Read a line at a time through ds_lines: the same devices and damage. */
static void
same_through_window(const uint8_t *data, size_t size,
    const struct ds_diskstats *s)
{
	struct ds_diskstats w = { 0 };
	struct ds_buf win = { 0 };
	struct ds_lines l;
	size_t i;
	int fd = fuzz_fd(data, size);

	ds_lines_fd(&l, fd, &win);
	FUZZ_CHECK(ds_diskstats_fill(&l, &w) == 0);
	FUZZ_CHECK(w.n == s->n && w.bad == s->bad &&
	    w.first_bad == s->first_bad);
	for (i = 0; i < s->n; i++) {
		FUZZ_CHECK(strcmp(w.disk[i].name, s->disk[i].name) == 0);
		FUZZ_CHECK(w.disk[i].have == s->disk[i].have);
		FUZZ_CHECK(memcmp(w.disk[i].v, s->disk[i].v,
		    sizeof(s->disk[i].v)) == 0);
	}
	FUZZ_CHECK(win.cap <= 2 * DS_LINES_WINDOW);
	close(fd);
	ds_diskstats_free(&w);
	ds_buf_free(&win);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ds_diskstats s = { 0 };
	struct ds_disk d;
	char *text = fuzz_memdup(data, size), *copy, *cur, *line;
	size_t i, lines = 0, blank = 0, good = 0, k;

	FUZZ_CHECK(ds_diskstats_parse(text, size, &s) == 0);
	for (i = 0; i < s.n; i++)
		check_disk(&s.disk[i]);

	/* Line by line, the parser must agree with the whole-file one. */
	copy = fuzz_strdup(data, size);
	cur = copy;
	for (i = 0; i <= size; i++) {
		if (i < size && copy[i] != '\n')
			continue;
		if (i == size && (size == 0 || copy[size - 1] == '\n'))
			break;
		lines++;
		line = cur;
		copy[i] = '\0';
		cur = copy + i + 1;
		for (k = 0; line[k] == ' ' || line[k] == '\t'; k++)
			;
		/* A NUL inside a line makes the whole line bad. */
		if (memchr(data + (line - copy), '\0', (size_t)(copy + i -
		    line)) != NULL) {
			if (line[k] == '\0' && k == (size_t)(copy + i - line))
				blank++;
			continue;
		}
		if (line[k] == '\0') {
			blank++;
			continue;
		}
		if ((size_t)(copy + i - line) < 1024 &&
		    ds_disk_parse_line(line, &d) == 0) {
			FUZZ_CHECK(good < s.n);
			FUZZ_CHECK(strcmp(d.name, s.disk[good].name) == 0);
			FUZZ_CHECK(memcmp(d.v, s.disk[good].v,
			    sizeof(d.v)) == 0);
			good++;
		}
	}
	FUZZ_CHECK(good == s.n);
	FUZZ_CHECK(s.n + s.bad + blank == lines);
	FUZZ_CHECK((s.bad == 0) == (s.first_bad == 0));
	FUZZ_CHECK(s.first_bad <= lines);
	same_through_window(data, size, &s);

	ds_diskstats_free(&s);
	free(copy);
	free(text);
	return 0;
}
