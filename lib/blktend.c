/*
 * Tending the map of issues: the starts whose completion the kernel
 * never ran a program for are taken out, so that the map never fills.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blklat.h"

/* An issue start as ds_blklat_tend reads it. */
struct tstart {
	uint64_t ns;
	uint32_t key[4];
};

static int
cmp_tstart(const void *x, const void *y)
{
	const struct tstart *a = x, *b = y;

	return (a->ns > b->ns) - (a->ns < b->ns);
}

/*
 * A key at a time: the map holds the requests in flight, a few dozen
 * as a rule, and this runs every DS_BLKLAT_TEND_NS.  The oldest go
 * first, the stale by age, then down to a quarter of the map when it
 * is over half full (so a request just issued always finds room).
 */
int
ds_blklat_tend(struct ds_blklat *b)
{
	int fd = b->map[M_ISTART];
	uint32_t key[4], next[4];
	uint64_t val[8], now;	/* an issue's value: at most 48 bytes */
	struct tstart *t;
	struct timespec ts;
	size_t n = 0, i, drop;
	int e;

	if (fd < 0 || clock_gettime(CLOCK_MONOTONIC, &ts) < 0)
		return 0;
	now = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	if (now < b->tend_next)
		return 0;
	b->tend_next = now + DS_BLKLAT_TEND_NS;
	/*
	 * A key that is never there gives the first (see read_hist): all
	 * ones is dev 0xffffffff, or a sector above 2^57.
	 */
	memset(key, 0xff, sizeof(key));
	while ((e = ds_bpf_map_next(fd, key, next)) == 0) {
		memcpy(key, next, sizeof(key));
		if ((e = ds_bpf_map_lookup(fd, key, val)) == -ENOENT)
			continue;
		if (e < 0)
			return e;
		if ((e = ds_grow(&b->tbuf, &b->tcap, n + 1, sizeof(*t))) < 0)
			return e;
		t = (struct tstart *)b->tbuf + n++;
		t->ns = val[0];
		memcpy(t->key, key, sizeof(key));
	}
	if (e != -ENOENT)
		return e;
	if (n > 1)
		qsort(b->tbuf, n, sizeof(*t), cmp_tstart);
	t = b->tbuf;
	drop = n > DS_BLKLAT_STARTS / 2 ? n - DS_BLKLAT_STARTS / 4 : 0;
	for (i = 0; i < n && (i < drop || t[i].ns + DS_BLKLAT_STALE_NS < now);
	    i++)
		if ((e = ds_bpf_map_delete(fd, t[i].key)) < 0 && e != -ENOENT)
			return e;
	return 0;
}
