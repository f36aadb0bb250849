/*
 * ds_ring_consume on a ring laid out by hand as the kernel lays out a
 * BPF ring buffer: records of a header (length, busy and discard bits,
 * page offset) and a body rounded up to 8 bytes, the data mapped twice
 * (here: written twice) so that a record wrapping the end reads whole.
 * Stops at a busy record, skips a discarded one, moves the consumer
 * position past each record handed, and says -EPROTO for a body of
 * another size.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../../lib/blklat.h"
#include "tap.h"

#define SZ 256			/* the ring's data, bytes */
#define BUSY (1u << 31)
#define DISCARD (1u << 30)

static unsigned char data[2 * SZ];
static uint64_t got[16];
static int ngot;

/* A record of body length len at position pos: its first word is v. */
static uint64_t
put(uint64_t pos, uint32_t len, uint32_t flags, uint64_t v)
{
	uint32_t h[2] = { len | flags, 0 };
	unsigned char rec[64];
	size_t i, n = (len + 8 + 7) & ~7u;

	memset(rec, 0, sizeof(rec));
	memcpy(rec, h, 8);
	memcpy(rec + 8, &v, 8);
	for (i = 0; i < n; i++)
		data[(pos + i) % SZ] = data[(pos + i) % SZ + SZ] = rec[i];
	return pos + n;
}

static int
take(void *arg, const void *rec)
{
	(void)arg;
	memcpy(&got[ngot++], rec, 8);
	return 0;
}

static int
stop(void *arg, const void *rec)
{
	(void)arg;
	(void)rec;
	return 7;
}

int
main(void)
{
	uint64_t cons = 0, prod;

	prod = put(0, 24, 0, 11);
	prod = put(prod, 24, DISCARD, 12);
	prod = put(prod, 24, 0, 13);
	is_int(ds_ring_consume(&cons, &prod, data, SZ - 1, 24, take, NULL), 2,
	    "two records handed, the discarded one skipped");
	is_u64(got[0], 11, "the first record's body");
	is_u64(got[1], 13, "the third record's body");
	is_u64(cons, prod, "the consumer position at the producer's");

	/* Up to the end of the ring, and one wrapping it. */
	ngot = 0;
	cons = prod = 224;
	prod = put(prod, 24, 0, 21);
	prod = put(prod, 24, 0, 22);
	is_int(ds_ring_consume(&cons, &prod, data, SZ - 1, 24, take, NULL), 2,
	    "a record wrapping the end of the ring");
	is_u64(got[1], 22, "its body read whole (the data mapped twice)");

	/* A busy record stops the reading there. */
	ngot = 0;
	cons = prod;
	prod = put(prod, 24, 0, 31);
	{
		uint64_t b = prod;

		prod = put(prod, 24, BUSY, 32);
		prod = put(prod, 24, 0, 33);
		is_int(ds_ring_consume(&cons, &prod, data, SZ - 1, 24, take,
		    NULL), 1, "a busy record: those before it only");
		is_u64(cons, b, "the consumer position stops at it");
	}

	/* A body of another size: skipped, and said. */
	ngot = 0;
	cons = 0;
	prod = put(0, 16, 0, 41);
	prod = put(prod, 24, 0, 42);
	is_int(ds_ring_consume(&cons, &prod, data, SZ - 1, 24, take, NULL),
	    -EPROTO, "a record of another size: -EPROTO");
	is_u64(got[0], 42, "the record after it handed");
	is_u64(cons, prod, "and passed");

	/* The callback's non-zero return ends the reading, past its record. */
	cons = 0;
	prod = put(0, 24, 0, 51);
	prod = put(prod, 24, 0, 52);
	is_int(ds_ring_consume(&cons, &prod, data, SZ - 1, 24, stop, NULL), 7,
	    "the callback's return");
	is_u64(cons, 32, "the consumer position past the record it had");
	return tap_done();
}
