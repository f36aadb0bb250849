/* The pressure share of a window from two reads, or one's avg10. */
#include <errno.h>

#include "oracle.h"
#include "tap.h"

static void
t_psi(void)
{
	struct ds_psi a, b;
	struct ds_tr_psi p;
	char t1[] = "some avg10=12.34 avg60=1.00 avg300=0.50 total=1000000\n"
	    "full avg10=2.50 avg60=1.00 avg300=0.50 total=500000\n";
	char t2[] = "some avg10=0.00 avg60=1.00 avg300=0.50 total=3000000\n"
	    "full avg10=0.00 avg60=1.00 avg300=0.50 total=1500000\n";
	char t3[] = "full avg10=0.00 avg60=0.00 avg300=0.00 total=7\n";

	ds_psi_parse(t1, &a);
	ds_psi_parse(t2, &b);
	is_int(ds_psi_shares(NULL, &a, 0, &p), 0, "one read: avg10");
	ok(p.have && (int)(p.some * 100 + 0.5) == 1234 &&
	    (int)(p.full * 100 + 0.5) == 250, "avg10 some 12.34, full 2.50");
	/* 2 s of stall in a 10 s window: 20%; full 1 s: 10%. */
	is_int(ds_psi_shares(&a, &b, 10000000000ull, &p), 0, "two reads");
	ok(p.have && (int)(p.some + 0.5) == 20 && (int)(p.full + 0.5) == 10,
	    "some 20%%, full 10%% from the totals");
	is_int(ds_psi_shares(&a, &b, 0, &p), -EINVAL, "no time: -EINVAL");
	ok(!p.have, "and not had");
	ds_psi_parse(t3, &b);
	is_int(ds_psi_shares(&a, &b, 1, &p), -ENODATA, "no some line: -ENODATA");
}

int
main(void)
{
	t_psi();
	return tap_done();
}
