/*
 * /proc/diskstats: "major minor name" then counters.  Kernels print 11
 * (2.6+), 15 (4.18+, discards), 17 (5.5+, flushes) counters for every
 * device, and 2.6-era kernels printed only 4 for partitions (reads,
 * sectors read, writes, sectors written).  Lines are parsed by field
 * count, never by column position.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The 4-counter partition line maps to these counters. */
static const int part4[4] = { DS_RD_IOS, DS_RD_SECTORS, DS_WR_IOS,
    DS_WR_SECTORS };

/*
 * The longest format a kernel printed that a line of nc counters holds
 * in full: 11, 15 or 17.  The kernel only ever appends fields, so a line
 * of 12 to 14 (sysstat's tests/root1 has one of 14) is read as 11, as
 * iostat reads it, and 16 as 15; the values past it are not used.
 */
unsigned int
ds_disk_known(unsigned int nc)
{
	if (nc >= 17)
		return nc < DS_NCOUNTERS ? nc : DS_NCOUNTERS;
	return nc >= 15 ? 15 : nc >= 11 ? 11 : nc;
}

unsigned int
ds_disk_extra(const struct ds_disk *d)
{
	if (d->ncounters == 4 || d->ncounters >= 17)
		return 0;
	return d->ncounters - ds_disk_known(d->ncounters);
}

int
ds_disk_parse_line(char *line, struct ds_disk *d)
{
	char *f[3 + DS_NCOUNTERS + 8];
	size_t n, i, nc;
	uint64_t v;

	n = ds_split(line, f, nitems(f));
	if (n < 3 + 4 || n > nitems(f))
		return -EINVAL;
	nc = n - 3;
	/* Fewer than a kernel ever printed: damage. */
	if (nc != 4 && nc < 11)
		return -EINVAL;
	if (ds_strtou64(f[0], &v) < 0 || v > UINT32_MAX)
		return -EINVAL;
	d->major = (unsigned int)v;
	if (ds_strtou64(f[1], &v) < 0 || v > UINT32_MAX)
		return -EINVAL;
	d->minor = (unsigned int)v;
	if (strlen(f[2]) >= sizeof(d->name))
		return -EINVAL;
	strcpy(d->name, f[2]);
	memset(d->v, 0, sizeof(d->v));
	d->have = 0;
	d->ncounters = (unsigned int)nc;
	for (i = 0; i < nc; i++) {
		if (ds_strtou64(f[3 + i], &v) < 0)
			return -EINVAL;
		if (nc == 4) {
			d->v[part4[i]] = v;
			d->have |= 1u << part4[i];
		} else if (i < ds_disk_known(nc)) {
			d->v[i] = v;
			d->have |= 1u << i;
		}
	}
	return 0;
}

/*
 * One line of text p (length l, not NUL-terminated): 1 with *d the
 * device, 0 a blank line (not damage), -1 a damaged line.
 */
static int
one_line(const char *p, size_t l, struct ds_disk *d)
{
	char line[1024];
	size_t k;

	if (l < sizeof(line) && memchr(p, '\0', l) == NULL) {
		memcpy(line, p, l);
		line[l] = '\0';
		if (ds_disk_parse_line(line, d) == 0)
			return 1;
	}
	for (k = 0; k < l && (p[k] == ' ' || p[k] == '\t'); k++)
		;
	return k < l ? -1 : 0;
}

static void
count_bad(struct ds_diskstats *s, size_t lineno)
{
	s->bad++;
	if (s->first_bad == 0)
		s->first_bad = lineno;
}

/* Room for one more device at out->disk[out->n]. */
static int
grow(struct ds_diskstats *out)
{
	/*
	 * Start past malloc's mmap threshold (128 KiB): the array is then
	 * mapped, grows by mremap and leaves no smaller copies behind in
	 * the heap, and only the pages written count in memory use.
	 */
	return ds_grow(&out->disk, &out->cap, out->cap ? out->n + 1 :
	    (256u << 10) / sizeof(*out->disk), sizeof(*out->disk));
}

int
ds_diskstats_next(struct ds_lines *l, struct ds_disk *d,
    struct ds_diskstats *bad)
{
	char *p;
	size_t len;
	int e, k;

	while ((e = ds_lines_next(l, &p, &len)) == 1) {
		if ((k = one_line(p, len, d)) > 0)
			return 1;
		if (k < 0 || l->cut)
			count_bad(bad, l->lineno);
	}
	return e;
}

int
ds_diskstats_fill(struct ds_lines *l, struct ds_diskstats *out)
{
	int e;

	out->n = 0;
	out->bad = 0;
	out->first_bad = 0;
	for (;;) {
		if (grow(out) < 0)
			return -ENOMEM;
		if ((e = ds_diskstats_next(l, &out->disk[out->n], out)) <= 0)
			return e;
		out->n++;
	}
}

int
ds_diskstats_read(const struct ds_root *r, struct ds_buf *window,
    struct ds_diskstats *out)
{
	struct ds_lines l;
	int e;

	if ((e = ds_lines_open(&l, r, "proc/diskstats", window)) < 0)
		return e;
	e = ds_diskstats_fill(&l, out);
	ds_lines_close(&l);
	return e;
}

void
ds_diskstats_free(struct ds_diskstats *s)
{
	free(s->disk);
	s->disk = NULL;
	s->n = s->cap = 0;
}

const struct ds_disk *
ds_diskstats_find(const struct ds_diskstats *s, const char *name, size_t hint)
{
	size_t i;

	/* Devices keep their order from read to read: try the same place. */
	if (hint < s->n && strcmp(s->disk[hint].name, name) == 0)
		return &s->disk[hint];
	for (i = 0; i < s->n; i++)
		if (strcmp(s->disk[i].name, name) == 0)
			return &s->disk[i];
	return NULL;
}
