/*
 * cmd/dxstat/row.c: dxstat's row of a device from two of its lines (the
 * iostat -x figures worked by hand here, nulls where the line lacks the
 * counters, idle rows left out on request).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "dxstat/dxstat.h"
#include "tap.h"

static struct ds_disk
disk(const char *text)
{
	char line[256];
	struct ds_disk d;

	snprintf(line, sizeof(line), "%s", text);
	if (ds_disk_parse_line(line, &d) < 0)
		exit(1);
	return d;
}

/* The row of c against p as TSV, without the header; "" for none. */
static char *
row(const struct ds_disk *p, const struct ds_disk *c, const char *name,
    uint64_t ns, uint64_t time_ns, int busy_only, int *ret)
{
	const struct ds_col *cols;
	struct ds_writer w;
	char *buf = NULL;
	size_t len = 0, n;
	FILE *f = open_memstream(&buf, &len);

	cols = dx_columns(&n);
	if (f == NULL || ds_writer_init(&w, f, DS_FMT_TSV, cols, n, 0,
	    "dxstat") < 0)
		exit(1);
	*ret = dx_row(&w, p, c, name, ns, time_ns, busy_only);
	ok(ds_w_report_end(&w) == 0, "row written without error");
	ds_writer_free(&w);
	fclose(f);
	return buf;
}

static void
test_row(void)
{
	/*
	 * Over 2 s: 200 reads, 20 merged, 1600 sectors, 200 ms; 400
	 * writes, 40 merged, 3200 sectors, 400 ms; io_ticks and
	 * time_in_queue 1000 ms; 3 in flight now.
	 */
	struct ds_disk p = disk("8 0 sda 100 10 800 50 200 20 1600 100 0 300 400");
	struct ds_disk c = disk("8 0 sda 300 30 2400 250 600 60 4800 500 3 1300 "
	    "1400");
	struct ds_disk c18 = disk("8 0 sda 300 30 2400 250 600 60 4800 500 3 "
	    "1300 1400 4 8 16 6 10 20 40");
	char *got;
	int r;

	got = row(&p, &c, NULL, 2000000000ull, 0, 0, &r);
	is_int(r, 1, "a row");
	/* r/s 200/2, rkB/s 1600*512/1024/2, %rrqm 20/220, r_await 200/200,
	   rareq-sz 1600/2/200; the same doubled for writes; no discard or
	   flush counters on an 11-value line; aqu-sz 1000/2000, %util 50. */
	is_str(got, "-\tsda\t100.00\t400.00\t10.00\t9.09\t1.00\t4.00"
	    "\t200.00\t800.00\t20.00\t9.09\t1.00\t4.00"
	    "\t-\t-\t-\t-\t-\t-\t-\t-\t0.50\t50.00\t3\n",
	    "11 values: the figures, nulls for discards and flushes");
	free(got);
	got = row(NULL, &c18, "vg-root", 1300000000ull, 0, 0, &r);
	/* Since the device appeared: the counters themselves over 1.3 s;
	   discards 4 (8 merged, 16 sectors: 8 kB, 6 ms), flushes 10
	   (20 ms). */
	is_str(got, "-\tvg-root\t230.77\t923.08\t23.08\t9.09\t0.83\t4.00"
	    "\t461.54\t1846.15\t46.15\t9.09\t0.83\t4.00"
	    "\t3.08\t6.15\t6.15\t66.67\t1.50\t2.00\t7.69\t2.00"
	    "\t1.08\t100.00\t3\n",
	    "18 values since boot, under the name given");
	free(got);
	got = row(&c, &c, NULL, 2000000000ull, 0, 1, &r);
	is_int(r, 0, "busy_only: an idle device has no row");
	is_str(got, "", "and nothing is written");
	free(got);
	got = row(&p, &c, NULL, 2000000000ull, 0, 1, &r);
	is_int(r, 1, "busy_only: a busy one has");
	free(got);
	got = row(&p, &c, NULL, 2000000000ull, 1700000000500000000ull, 0, &r);
	ok(strncmp(got, "1700000000.500\tsda\t", 19) == 0,
	    "the time in the first cell: %.24s", got);
	free(got);
}

int
main(void)
{
	test_row();
	return tap_done();
}
