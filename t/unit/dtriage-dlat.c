/* dtriage's block-latency figures: a disk's d2c, q2c and top submitter. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "oracle.h"
#include "tap.h"
#include "dtriage/dtriage.h"

/* Two reads of the traced rows: a disk's figures and its largest submitter. */
static void
t_blklat(void)
{
	struct ds_blklat_row r0[2], r1[3];
	struct ds_blklat_who w0[1], w1[3];
	struct ds_blklat_snap a, b;
	static struct ds_lat h0[2], h1[3];
	struct ds_tr_lat l;
	struct ds_tr_load ld;
	int i;

	memset(r0, 0, sizeof(r0));
	memset(r1, 0, sizeof(r1));
	memset(w0, 0, sizeof(w0));
	memset(w1, 0, sizeof(w1));
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	/* Sorted by (dev, op, phase): dev 7 read d2c, q2c; write d2c. */
	r0[0].dev = r1[0].dev = r1[1].dev = r1[2].dev = r0[1].dev = 7;
	r0[0].op = r1[0].op = r0[1].op = r1[1].op = DS_BLK_READ;
	r0[0].phase = r1[0].phase = DS_BLK_D2C;
	r0[1].phase = r1[1].phase = DS_BLK_Q2C;
	r1[2].op = DS_BLK_WRITE;
	r1[2].phase = DS_BLK_D2C;
	for (i = 0; i < 100; i++) {
		/* Before the window: 100 of 1 ms each. */
		ds_lat_add(&h0[0], 1000000);
		ds_lat_add(&h0[1], 1000000);
		ds_lat_add(&h1[0], 1000000);
		ds_lat_add(&h1[1], 1000000);
	}
	for (i = 0; i < 200; i++) {
		/* In it: 200 reads of 10 ms d2c, 20 ms q2c. */
		ds_lat_add(&h1[0], 10000000);
		ds_lat_add(&h1[1], 20000000);
	}
	for (i = 0; i < 50; i++)
		ds_lat_add(&h1[2], 10000000);
	for (i = 0; i < 2; i++)
		ok(ds_blklat_row_set(&a, &r0[i], &h0[i]) == 0, "row set");
	for (i = 0; i < 3; i++)
		ok(ds_blklat_row_set(&b, &r1[i], &h1[i]) == 0, "row set");
	a.r = r0;
	a.n = 2;
	b.r = r1;
	b.n = 3;
	/* Who, by (dev, pid): pid 9 had 1 MiB before, 2 MiB more in it. */
	w0[0].dev = w1[0].dev = w1[1].dev = 7;
	w0[0].pid = w1[0].pid = 9;
	snprintf(w0[0].comm, 16, "make");
	snprintf(w1[0].comm, 16, "make");
	w0[0].bytes = 1 << 20;
	w1[0].bytes = 3 << 20;
	ds_lat_add(&w0[0].h, 1000000);
	ds_lat_add(&w1[0].h, 1000000);
	ds_lat_add(&w1[0].h, 1000000);
	w1[1].pid = 12;
	snprintf(w1[1].comm, 16, "fio");
	w1[1].bytes = 5 << 20;
	ds_lat_add(&w1[1].h, 1000000);
	w1[2].dev = 8;
	w1[2].pid = 13;
	snprintf(w1[2].comm, 16, "dd");
	w1[2].bytes = 50 << 20;
	ds_lat_add(&w1[2].h, 1000000);
	a.w = w0;
	a.nw = 1;
	b.w = w1;
	b.nw = 3;
	is_int(dlat_figures(&a, &b, 7, &l, &ld), 0, "dev 7 timed");
	is_u64(l.count, 250, "read and write d2c of the window");
	ok(fabs(l.d2c_mean - 10000) < 1, "d2c mean 10 ms, in us");
	ok(fabs(l.q2c_mean - 20000) < 1, "q2c mean 20 ms (reads)");
	ok(l.q2c_p99 > 15000 && l.q2c_p99 <= 20000, "q2c p99 in "
	    "its bucket");
	is_int(ld.pid, 12, "the load is the most bytes on dev 7");
	is_str(ld.comm, "fio", "its comm");
	is_u64(ld.bytes, 5u << 20, "its bytes");
	is_u64(ld.total, 7u << 20, "dev 7's bytes in the window");
	is_int(dlat_figures(&a, &b, 9, &l, &ld), -ENOENT,
	    "an untraced dev: -ENOENT");
	is_int(ld.pid, 0, "no load there");
	/* The rows keep the buckets from the first to the last alone. */
	ds_blklat_row_lat(&b, &r1[1], &h0[0]);
	ok(memcmp(&h0[0], &h1[1], sizeof(h0[0])) == 0,
	    "a row's histogram made whole again equals the one set");
	is_u64(r1[1].nb, 1u + ds_lat_bucket(20000000) - ds_lat_bucket(1000000),
	    "its buckets, 1 ms to 20 ms");
	ds_blklat_delta(&b, &b, &r1[1], &h0[0]);
	is_u64(h0[0].count, 0, "a row against itself: nothing new");
	ds_blklat_delta(&a, &b, &r1[1], &h0[0]);
	is_u64(h0[0].count, 200, "the window's 200 q2c");
	is_u64(h0[0].b[ds_lat_bucket(20000000)], 200, "in 20 ms's bucket");
	is_u64(h0[0].b[ds_lat_bucket(1000000)], 0, "none in 1 ms's");
	/* Counts of one byte and of more, up to 64 bits, kept exactly. */
	memset(&h0[1], 0, sizeof(h0[1]));
	h0[1].b[3] = 127;
	h0[1].b[4] = 128;
	h0[1].b[6] = ((uint64_t)1 << 40) + 5;
	h0[1].b[DS_LAT_NB - 1] = UINT64_MAX;
	h0[1].count = 7;
	ok(ds_blklat_row_set(&b, &r1[0], &h0[1]) == 0, "row set: large counts");
	ds_blklat_row_lat(&b, &r1[0], &h0[0]);
	ok(memcmp(&h0[0], &h0[1], sizeof(h0[0])) == 0,
	    "127, 128, 2^40 + 5 and 2^64 - 1 read back as set");
	free(a.bk);	/* r and w are this function's */
	free(b.bk);
}

int
main(void)
{
	t_blklat();
	return tap_done();
}
