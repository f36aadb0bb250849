/*
 * Dirty-page state: proc/vmstat's nr_dirty, nr_writeback and the
 * thresholds the kernel computes for them (pages), and the vm.dirty_*
 * settings (Documentation/admin-guide/sysctl/vm.rst).  dirty_bytes and
 * dirty_ratio exclude each other: writing one sets the other to 0; the
 * same for the background pair.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

void
ds_dirty_parse_vmstat(const char *text, struct ds_dirty *d)
{
	static const char *const key[] = { "nr_dirty", "nr_writeback",
	    "nr_dirty_threshold", "nr_dirty_background_threshold",
	    "nr_dirtied", "nr_written" };
	uint64_t *const dst[] = { &d->nr_dirty, &d->nr_writeback, &d->thresh,
	    &d->bg_thresh, &d->nr_dirtied, &d->nr_written };
	char line[256], *f[4];
	const char *p = text;
	unsigned int bit;
	uint64_t v;
	size_t n, i;
	int r;

	while ((r = ds_cgtext_line(&p, line, sizeof(line))) != 0) {
		if (r < 0 || (n = ds_split(line, f, 4)) == 0)
			continue;
		for (i = 0; i < nitems(key); i++)
			if (strcmp(f[0], key[i]) == 0)
				break;
		if (i == nitems(key))
			continue;
		bit = 1u << i;
		/* A key twice is no value to trust. */
		if (n != 2 || ds_strtou64(f[1], &v) < 0 || (d->have & bit)) {
			d->bad |= bit;
			d->have &= ~bit;
			*dst[i] = 0;
			continue;
		}
		if (d->bad & bit)
			continue;
		*dst[i] = v;
		d->have |= bit;
	}
}

/* KernelPageSize of proc/self/smaps ("KernelPageSize:        4 kB"). */
static int
smaps_page_size(const struct ds_root *r, struct ds_buf *b, uint64_t *out)
{
	char line[256], *f[4];
	const char *p;
	uint64_t v;
	int e;

	if ((e = ds_read_file(r, "proc/self/smaps", b)) < 0)
		return e;
	for (p = b->data; (e = ds_cgtext_line(&p, line, sizeof(line))) != 0;)
		if (e > 0 && ds_split(line, f, 4) == 3 &&
		    strcmp(f[0], "KernelPageSize:") == 0) {
			if (strcmp(f[2], "kB") != 0 || ds_strtou64(f[1], &v) < 0 ||
			    v == 0 || v > (1u << 20) || (v & (v - 1)) != 0)
				return -EINVAL;
			*out = v * 1024;
			return 0;
		}
	return -ENOENT;
}

int
ds_dirty_read(const struct ds_root *r, struct ds_buf *scratch,
    struct ds_dirty *out)
{
	static const char *const sysctl[] = { "dirty_ratio",
	    "dirty_background_ratio", "dirty_bytes", "dirty_background_bytes",
	    "dirty_expire_centisecs", "dirty_writeback_centisecs" };
	static const unsigned int bit[] = { DS_DIRTY_RATIO, DS_DIRTY_BG_RATIO,
	    DS_DIRTY_BYTES, DS_DIRTY_BG_BYTES, DS_DIRTY_EXPIRE,
	    DS_DIRTY_WRITEBACK_CS };
	uint64_t *const dst[] = { &out->ratio, &out->bg_ratio, &out->bytes,
	    &out->bg_bytes, &out->expire_cs, &out->writeback_cs };
	char rel[64];
	uint64_t v;
	long ps;
	size_t i;
	int e;

	memset(out, 0, sizeof(*out));
	if ((e = ds_read_file(r, "proc/vmstat", scratch)) < 0)
		return e;
	ds_dirty_parse_vmstat(scratch->data, out);
	for (i = 0; i < nitems(sysctl); i++) {
		snprintf(rel, sizeof(rel), "proc/sys/vm/%s", sysctl[i]);
		if ((e = ds_read_file(r, rel, scratch)) == -ENOMEM)
			return e;
		if (e < 0)
			continue;
		if (ds_strtou64(scratch->data, &v) < 0) {
			out->bad |= bit[i];
			continue;
		}
		*dst[i] = v;
		out->have |= bit[i];
	}
	if (r->live) {
		if ((ps = sysconf(_SC_PAGESIZE)) > 0) {
			out->page_size = (uint64_t)ps;
			out->have |= DS_DIRTY_PAGE_SIZE;
		}
	} else if ((e = smaps_page_size(r, scratch, &v)) == 0) {
		out->page_size = v;
		out->have |= DS_DIRTY_PAGE_SIZE;
	} else if (e == -ENOMEM) {
		return e;
	} else if (e == -EINVAL) {
		out->bad |= DS_DIRTY_PAGE_SIZE;
	}
	return 0;
}
