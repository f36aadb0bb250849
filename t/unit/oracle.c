/*
 * The test oracles of oracle.h.  ds_diskstats_parse splits the whole
 * text on newlines itself and gives each line to ds_disk_parse_line:
 * what ds_diskstats_next does through ds_lines' window, done without
 * one, so that a window boundary that lost or cut a line shows.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "oracle.h"

/* Is the text p, l bytes, blanks only (an empty line, not damage)? */
static int
blank(const char *p, size_t l)
{
	while (l > 0 && (*p == ' ' || *p == '\t'))
		p++, l--;
	return l == 0;
}

/* 1 with *d the device of line p, l bytes; 0 when it is none. */
static int
device(const char *p, size_t l, struct ds_disk *d)
{
	char line[1024];

	/* Longer than any device line, or with a NUL: not one. */
	if (l >= sizeof(line) || memchr(p, '\0', l) != NULL)
		return 0;
	memcpy(line, p, l);
	line[l] = '\0';
	return ds_disk_parse_line(line, d) == 0;
}

int
ds_diskstats_parse(const char *text, size_t len, struct ds_diskstats *out)
{
	const char *p = text, *end = text + len, *nl;
	struct ds_disk *disk;
	size_t lineno, l;

	out->n = out->bad = out->first_bad = 0;
	for (lineno = 1; p < end; lineno++) {
		nl = memchr(p, '\n', (size_t)(end - p));
		l = (size_t)((nl != NULL ? nl : end) - p);
		if (out->n == out->cap) {
			size_t cap = out->cap ? 2 * out->cap : 64;

			if ((disk = realloc(out->disk, cap * sizeof(*disk))) == NULL)
				return -ENOMEM;
			out->disk = disk;
			out->cap = cap;
		}
		/* A line ds_lines would cut is damage, however it starts. */
		if (l < DS_LINES_CUT && device(p, l, &out->disk[out->n]))
			out->n++;
		else if (l >= DS_LINES_CUT || !blank(p, l)) {
			if (out->bad++ == 0)
				out->first_bad = lineno;
		}
		p = nl != NULL ? nl + 1 : end;
	}
	return 0;
}

/* Is line p, l bytes, a header line ("uptime ...", "time ...", "id ...")? */
static int
header(const char *p, size_t l)
{
	return (l > 6 && memcmp(p, "uptime", 6) == 0 &&
	    (p[6] == ' ' || p[6] == '\t')) ||
	    (l > 4 && memcmp(p, "time", 4) == 0 &&
	    (p[4] == ' ' || p[4] == '\t')) ||
	    (l > 2 && memcmp(p, "id", 2) == 0 &&
	    (p[2] == ' ' || p[2] == '\t'));
}

int
ds_snap_parse(const char *text, size_t len, struct ds_snap *s)
{
	const char *p = text, *end = text + len, *nl;
	struct ds_buf window = { 0 };
	struct ds_lines l;
	size_t lines = 0;
	int fd, e;

	/* The header as the library reads it, from a file of the text. */
	if ((fd = memfd_create("snap", MFD_CLOEXEC)) < 0)
		return -errno;
	if (len > 0 && write(fd, text, len) != (ssize_t)len) {
		close(fd);
		return -EIO;
	}
	lseek(fd, 0, SEEK_SET);
	ds_lines_fd(&l, fd, &window);
	e = ds_snap_head(&l, s);
	ds_lines_close(&l);
	ds_buf_free(&window);
	close(fd);
	if (e < 0)
		return e;
	/* Accepted: the header is the leading lines with either key. */
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!header(p, (size_t)((nl != NULL ? nl : end) - p)))
			break;
		lines++;
		p = nl != NULL ? nl + 1 : end;
	}
	if ((e = ds_diskstats_parse(p, (size_t)(end - p), &s->ds)) < 0)
		return e;
	if (s->ds.first_bad != 0)
		s->ds.first_bad += lines;
	return 0;
}

void
ds_snap_free(struct ds_snap *s)
{
	ds_diskstats_free(&s->ds);
}

void
ds_lat_add(struct ds_lat *h, uint64_t ns)
{
	h->count++;
	h->sum_ns += ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
	h->b[ds_lat_bucket(ns)]++;
}

int
ds_psi_trigger_parse(const char *spec, struct ds_psi_trigger *t)
{
	struct ds_psi_trigger_bad bad;

	return ds_psi_trigger_parse_part(spec, t, &bad);
}

int
ds_is_number(const char *s)
{
	int digits = 0;

	/* "1.2.3" too, so that a malformed number is refused as one. */
	for (; *s != '\0'; s++) {
		if (*s >= '0' && *s <= '9')
			digits = 1;
		else if (*s != '.')
			return 0;
	}
	return digits;
}

uint64_t
ds_dirty_freerun(const struct ds_dirty *d)
{
	if ((d->have & (DS_DIRTY_THRESH | DS_DIRTY_BG_THRESH)) !=
	    (DS_DIRTY_THRESH | DS_DIRTY_BG_THRESH))
		return 0;
	/* Halves summed: no overflow for any pair of u64. */
	return d->thresh / 2 + d->bg_thresh / 2 +
	    (d->thresh % 2 + d->bg_thresh % 2) / 2;
}
