/*
 * dqueue's columns: the listing's schema in every format, the value
 * of each cell, and the new column of --set.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dqueue/dqueue.h"
#include "tap.h"

int
main(void)
{
	char *names[] = { "dm-0", "dm-1" };
	struct ds_queue q;
	struct dq_cell c = { DS_QA_READ_AHEAD_KB, 0, 0 };
	struct ds_sched s;
	struct ds_qs_item it;
	struct ds_buf t = { 0 };
	uint64_t v = 0;
	size_t i;

	/* The schema: "device" first, one cell per further column. */
	is_int((int)dq_list_plain.ncols, 20, "listing: 20 columns");
	is_int((int)dq_list_plain.ncells, 19, "a cell after device each");
	is_str(dq_list_plain.cols[3].name, "schedulers", "column 4");
	ok(dq_list_plain.cells[2].a == DS_QA_SCHEDULER &&
	    dq_list_plain.cells[2].avail, "schedulers: the available list");
	for (i = 0; i < dq_list_plain.ncells; i++)
		if (i != 2 && strcmp(dq_list_plain.cols[i + 1].name,
		    ds_qattr_name(dq_list_plain.cells[i].a)) != 0)
			break;
	is_int((int)i, 19, "each other column named as its attribute");
	is_int((int)dq_list_info.ncols, (int)dq_list_info.ncells + 2,
	    "info: labels, then info");
	is_str(dq_list_info.cols[dq_list_info.ncols - 1].name, "info",
	    "info last");
	is_int((int)dq_list_gauge.ncols, (int)dq_list_gauge.ncells + 1,
	    "gauges: a cell after device each");
	ok(dq_list_gauge.cells[2].kib && dq_list_gauge.cells[2].a ==
	    DS_QA_READ_AHEAD_KB, "read_ahead_bytes from KiB");
	is_int(ds_sched_parse("none [bfq] kyber", &s), 0, "line");

	/* Cells. */
	memset(&q, 0, sizeof(q));
	q.v[DS_QA_READ_AHEAD_KB] = 128;
	is_int(dq_cell_value(&q, &c, &t, &v), 2, "a number");
	is_u64(v, 128, "as read");
	c.kib = 1;
	is_int(dq_cell_value(&q, &c, &t, &v), 2, "in bytes");
	is_u64(v, 131072, "times 1024");
	q.v[DS_QA_READ_AHEAD_KB] = UINT64_MAX / 1000;
	is_int(dq_cell_value(&q, &c, &t, &v), 0, "too large in bytes: none");
	q.err[DS_QA_READ_AHEAD_KB] = -ENOENT;
	c.kib = 0;
	is_int(dq_cell_value(&q, &c, &t, &v), 0, "missing: none");
	c.a = DS_QA_SCHEDULER;
	q.sched = s;
	is_int(dq_cell_value(&q, &c, &t, &v), 1, "scheduler: text");
	is_str(t.data, "bfq", "the active one");
	c.avail = 1;
	is_int(dq_cell_value(&q, &c, &t, &v), 1, "schedulers: text");
	is_str(t.data, "none bfq kyber", "the available ones");
	c.avail = 0;
	q.sched.active[0] = '\0';
	is_int(dq_cell_value(&q, &c, &t, &v), 0, "no active one: none");
	c.a = DS_QA_WRITE_CACHE;
	strcpy(q.write_cache, "write back");
	is_int(dq_cell_value(&q, &c, &t, &v), 1, "write_cache: text");
	is_str(t.data, "write back", "as read");
	c.a = DS_QA_HOLDERS;
	q.holders.name = names;
	q.holders.n = 2;
	is_int(dq_cell_value(&q, &c, &t, &v), 1, "holders: text");
	is_str(t.data, "dm-0,dm-1", "joined by ,");


	/* --set's new column. */
	memset(&it, 0, sizeof(it));
	strcpy(it.want, "256");
	strcpy(it.old, "128");
	it.state = DS_QS_WOULD;
	is_str(dq_set_new(&it), "256", "would-set: the value wanted");
	it.state = DS_QS_ALREADY;
	is_str(dq_set_new(&it), "128", "already, not read again: what it held");
	strcpy(it.now, "252");
	it.state = DS_QS_ROUNDED;
	is_str(dq_set_new(&it), "252", "read back: what it holds now");
	it.now[0] = '\0';
	it.state = DS_QS_FAILED;
	ok(dq_set_new(&it) == NULL, "failed, not read back: none");
	ds_buf_free(&t);
	return tap_done();
}
