/*
 * lib/dirty.c: dirty-page state from a tree made here (proc/vmstat,
 * proc/sys/vm/dirty_*, the page size from proc/self/smaps), what is
 * missing left out of have, what is malformed or repeated in bad; the
 * freerun ceiling; and a read of the live system (read only).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "oracle.h"
#include "tap.h"
#include "tree.h"

static const char vmstat[] =
    "nr_free_pages 1000\nnr_dirty 1352\nnr_writeback 7\n"
    "nr_writeback_temp 0\nnr_dirtied 2293561\nnr_written 1413056\n"
    "nr_throttled_written 0\nnr_dirty_threshold 4096\n"
    "nr_dirty_background_threshold 2048\n";

static void
tree(void)
{
	tree_make("dirty-unit");
	tree_put("proc/vmstat", vmstat);
	tree_put("proc/sys/vm/dirty_ratio", "0\n");
	tree_put("proc/sys/vm/dirty_background_ratio", "10\n");
	tree_put("proc/sys/vm/dirty_bytes", "16777216\n");
	tree_put("proc/sys/vm/dirty_background_bytes", "0\n");
	tree_put("proc/sys/vm/dirty_expire_centisecs", "3000\n");
	tree_put("proc/sys/vm/dirty_writeback_centisecs", "500\n");
	tree_put("proc/self/smaps", "55d0a1e00000-55d0a1e02000 r--p 00000000 "
	    "fe:00 123 /usr/bin/cat\nSize:                  8 kB\n"
	    "KernelPageSize:       64 kB\nMMUPageSize:          64 kB\n");
}

static void
test_tree(const struct ds_root *r)
{
	struct ds_buf b = { 0 };
	struct ds_dirty d;
	char path[4200];

	is_int(ds_dirty_read(r, &b, &d), 0, "read: 0");
	is_int(d.have, 0x1fff, "have: everything");
	is_int(d.bad, 0, "bad: nothing");
	ok(d.nr_dirty == 1352 && d.nr_writeback == 7 && d.thresh == 4096 &&
	    d.bg_thresh == 2048 && d.nr_dirtied == 2293561 &&
	    d.nr_written == 1413056, "vmstat: pages and counters");
	ok(d.ratio == 0 && d.bg_ratio == 10 && d.bytes == 16777216 &&
	    d.bg_bytes == 0 && d.expire_cs == 3000 && d.writeback_cs == 500,
	    "vm.dirty_*");
	is_u64(d.page_size, 65536, "page size: smaps' KernelPageSize (64 kB)");
	is_u64(ds_dirty_freerun(&d), 3072, "freerun: (4096 + 2048) / 2");

	snprintf(path, sizeof(path), "%s/proc/sys/vm/dirty_bytes", tree_top);
	unlink(path);
	tree_put("proc/sys/vm/dirty_ratio", "twenty\n");
	tree_put("proc/self/smaps", "KernelPageSize:       3 kB\n");
	tree_put("proc/vmstat", "nr_dirty 5\nnr_dirty 6\nnr_dirty 7\n"
	    "nr_writeback -1\nnr_written 1 2\nnr_dirtied\n");
	is_int(ds_dirty_read(r, &b, &d), 0, "damaged: 0");
	is_int(d.have, DS_DIRTY_BG_RATIO | DS_DIRTY_BG_BYTES | DS_DIRTY_EXPIRE |
	    DS_DIRTY_WRITEBACK_CS, "damaged: have the good ones");
	is_int(d.bad, DS_DIRTY_NR_DIRTY | DS_DIRTY_NR_WRITEBACK |
	    DS_DIRTY_WRITTEN | DS_DIRTY_DIRTIED | DS_DIRTY_RATIO |
	    DS_DIRTY_PAGE_SIZE, "damaged: bad a key twice, a sign, a field "
	    "more or less, a word, a page of 3 kB");
	ok(d.nr_dirty == 0 && d.ratio == 0 && d.bytes == 0 && d.page_size == 0,
	    "damaged: no value kept");
	is_u64(ds_dirty_freerun(&d), 0, "freerun: 0 without thresholds");

	snprintf(path, sizeof(path), "%s/proc/self/smaps", tree_top);
	unlink(path);
	snprintf(path, sizeof(path), "%s/proc/vmstat", tree_top);
	unlink(path);
	is_int(ds_dirty_read(r, &b, &d), -ENOENT, "no vmstat: -ENOENT");
	ds_buf_free(&b);

	memset(&d, 0, sizeof(d));
	d.thresh = UINT64_MAX;
	d.bg_thresh = UINT64_MAX;
	d.have = DS_DIRTY_THRESH | DS_DIRTY_BG_THRESH;
	is_u64(ds_dirty_freerun(&d), UINT64_MAX, "freerun: no overflow");
	d.thresh = 3;
	d.bg_thresh = 2;
	is_u64(ds_dirty_freerun(&d), 2, "freerun: rounded down as the kernel");
}

static void
test_live(void)
{
	struct ds_buf b = { 0 };
	struct ds_root r;
	struct ds_dirty d;

	if (ds_root_open(&r, "/") < 0) {
		skip("live", "cannot open /");
		return;
	}
	is_int(ds_dirty_read(&r, &b, &d), 0, "live: read");
	ok((d.have & DS_DIRTY_VMSTAT) == DS_DIRTY_VMSTAT && d.bad == 0,
	    "live: every vmstat key (have %#x)", d.have);
	is_u64(d.page_size, (uint64_t)sysconf(_SC_PAGESIZE),
	    "live: the page size");
	ok(d.thresh >= d.bg_thresh && d.thresh > 0,
	    "live: thresh %llu >= bg_thresh %llu",
	    (unsigned long long)d.thresh, (unsigned long long)d.bg_thresh);
	ds_buf_free(&b);
	ds_root_close(&r);
}

int
main(void)
{
	struct ds_root r;

	tree();
	if (ds_root_open(&r, tree_top) < 0) {
		ok(0, "root opens");
		tree_remove();
		return tap_done();
	}
	test_tree(&r);
	ds_root_close(&r);
	tree_remove();
	test_live();
	return tap_done();
}
