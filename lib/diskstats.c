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

#include "diskstat.h"

/* The 4-counter partition line maps to these counters. */
static const int part4[4] = { DS_RD_IOS, DS_RD_SECTORS, DS_WR_IOS,
    DS_WR_SECTORS };

int
ds_disk_parse_line(char *line, struct ds_disk *d)
{
	char *f[3 + DS_NCOUNTERS + 8];
	size_t n, i, nc;
	uint64_t v;

	n = ds_split(line, f, sizeof(f) / sizeof(f[0]));
	if (n < 3 + 4 || n > sizeof(f) / sizeof(f[0]))
		return -EINVAL;
	nc = n - 3;
	/* Only the counts some kernel printed; anything else is damage. */
	if (nc != 4 && nc != 11 && nc != 15 && nc < 17)
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
		} else if (i < DS_NCOUNTERS) {
			d->v[i] = v;
			d->have |= 1u << i;
		}
	}
	return 0;
}

int
ds_diskstats_parse(const char *text, size_t len, struct ds_diskstats *out)
{
	char line[1024];
	const char *p = text, *end = text + len, *nl;
	size_t lineno = 0, l;
	struct ds_disk *d;

	out->n = 0;
	out->bad = 0;
	out->first_bad = 0;
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		l = (size_t)((nl != NULL ? nl : end) - p);
		lineno++;
		if (out->n == out->cap) {
			size_t cap = out->cap ? out->cap * 2 : 64;
			d = realloc(out->disk, cap * sizeof(*d));
			if (d == NULL)
				return -ENOMEM;
			out->disk = d;
			out->cap = cap;
		}
		if (l < sizeof(line)) {
			memcpy(line, p, l);
			line[l] = '\0';
		}
		if (l >= sizeof(line) || memchr(p, '\0', l) != NULL ||
		    ds_disk_parse_line(line, &out->disk[out->n]) < 0) {
			/* A blank line is not damage; anything else is. */
			size_t k;
			for (k = 0; k < l && (p[k] == ' ' || p[k] == '\t'); k++)
				;
			if (k < l) {
				out->bad++;
				if (out->first_bad == 0)
					out->first_bad = lineno;
			}
		} else {
			out->n++;
		}
		/* Past the newline, or at the end: never beyond it. */
		p = nl != NULL ? nl + 1 : end;
	}
	return 0;
}

int
ds_diskstats_read(const struct ds_root *r, struct ds_buf *scratch,
    struct ds_diskstats *out)
{
	int e;

	if ((e = ds_read_file(r, "proc/diskstats", scratch)) < 0)
		return e;
	return ds_diskstats_parse(scratch->data, scratch->len, out);
}

void
ds_diskstats_free(struct ds_diskstats *s)
{
	free(s->disk);
	s->disk = NULL;
	s->n = s->cap = 0;
}
