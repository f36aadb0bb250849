/*
 * ds_blklat_tend on a real map (root and bpf(2) only): issue starts
 * older than DS_BLKLAT_STALE_NS go, the young stay; at most every
 * DS_BLKLAT_TEND_NS; over half full, the oldest go down to a quarter
 * of the map and the youngest are the ones kept.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <linux/bpf.h>

#include "internal.h"
#include "bpftest.h"
#include "tap.h"

static uint64_t
mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * A start at sector: the key's first 8 bytes are the sector, so that
 * keys differ in both sizes (8 bytes with few disks, 16 with many).
 */
static int
put(int fd, uint64_t sector, uint64_t ns)
{
	uint32_t key[4] = { 0, 0, 1, 0 };

	memcpy(key, &sector, sizeof(sector));
	return ds_bpf_map_update(fd, key, &ns, BPF_ANY);
}

/* Entries of the map, and the oldest value among them. */
static size_t
count(int fd, uint64_t *oldest)
{
	uint32_t key[4], next[4];
	uint64_t v;
	size_t n = 0;

	/* A key never there: the first is the next. */
	memset(key, 0xff, sizeof(key));
	*oldest = UINT64_MAX;
	while (ds_bpf_map_next(fd, key, next) == 0) {
		memcpy(key, next, sizeof(key));
		if (ds_bpf_map_lookup(fd, key, &v) == 0) {
			n++;
			if (v < *oldest)
				*oldest = v;
		}
	}
	return n;
}

/* One map's checks: disks few (8-byte keys) or many (16). */
static void
tend(size_t ndisks)
{
	struct ds_blklat b;
	uint64_t now, oldest, i, n;
	int fd, e;

	printf("# %zu disks\n", ndisks);
	ds_blklat_init(&b);
	if ((e = ds_blklat_open(&b, DS_BLKLAT_PHASE(DS_BLK_D2C), ndisks,
	    ndisks)) < 0) {
		char why[256];

		snprintf(why, sizeof(why), "no tracing here (%s: %s)",
		    b.what ? b.what : "open", strerror(-e));
		skip("tending a map", why);
		ds_blklat_close(&b);
		return;
	}
	fd = bpft_starts_fd(&b);
	ok(fd >= 0, "the issue map is there with d2c alone");
	now = mono();
	/*
	 * A start is stale at 5 minutes of CLOCK_MONOTONIC: a machine up
	 * for less has none, and "now - 5 min" would wrap to the future.
	 */
	if (now < DS_BLKLAT_STALE_NS + 2000000000u) {
		skip("stale starts go, young ones stay, every 5 s at most",
		    "the machine is up less than 5 minutes");
	} else {
		for (i = 0; i < 5; i++) {
			put(fd, i, now - DS_BLKLAT_STALE_NS - 1000000000u);
			put(fd, 100 + i, now - 1000000000u);
		}
		is_int(ds_blklat_tend(&b), 0, "tend: 0");
		is_u64(count(fd, &oldest), 5,
		    "the five stale starts went, the five young stayed");
		ok(oldest >= now - 1000000000u, "the ones kept are the young");

		put(fd, 7, now - DS_BLKLAT_STALE_NS - 1000000000u);
		is_int(ds_blklat_tend(&b), 0, "tend again at once: 0");
		is_u64(count(fd, &oldest), 6,
		    "at once again: nothing done (every 5 s at most)");
		b.tend_next = 0;
		is_int(ds_blklat_tend(&b), 0, "tend when due: 0");
		is_u64(count(fd, &oldest), 5, "when due: the stale one went");
	}
	for (i = 0; i < 5; i++)
		put(fd, 100 + i, now - 1000000000u);

	/* Over half full with young starts: the oldest go, to a quarter. */
	n = DS_BLKLAT_STARTS / 2 + 100;
	for (i = 0; i < n; i++)
		if (put(fd, 1000 + i, now - (n - i) * 1000) < 0)
			break;
	is_u64(i, n, "half the map and 100 more written");
	b.tend_next = 0;
	is_int(ds_blklat_tend(&b), 0, "tend on a map over half full: 0");
	is_u64(count(fd, &oldest), DS_BLKLAT_STARTS / 4, "down to a quarter of the map");
	ok(oldest == now - (uint64_t)(DS_BLKLAT_STARTS / 4) * 1000,
	    "the youngest kept: the oldest left is the quarter's (%" PRIu64 " ns old)",
	    now - oldest);
	ds_blklat_close(&b);
}

int
main(void)
{
	if (ds_blklat_probe() < 0) {
		skip("tending a map", "bpf(2) not allowed here");
		return tap_done();
	}
	tend(1);
	tend(DS_BLKLAT_RQ_INLINE + 1);
	return tap_done();
}
