/*
 * cmd/dwho/topn.c: top-N keeps exactly the first N of a full sort, ties
 * broken as cmp says, in memory that follows N, and its order owes
 * nothing to the C library's qsort (what t/3009 checks end to end by
 * preloading an unstable one).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dwho/dwho.h"
#include "tap.h"

struct el {
	int key;
	int id;
	char pad[20];
};

static size_t ncmp;

/* Greatest key first, then the smaller id: a total order. */
static int
cmp_total(const void *a, const void *b)
{
	const struct el *x = a, *y = b;

	ncmp++;
	if (x->key != y->key)
		return x->key < y->key ? 1 : -1;
	return (x->id > y->id) - (x->id < y->id);
}

/* Key alone: ties are real. */
static int
cmp_key(const void *a, const void *b)
{
	const struct el *x = a, *y = b;

	return (x->key < y->key) - (x->key > y->key);
}

#define NE 1000

static void
test_topn(void)
{
	static const uint64_t tops[] = { 1, 2, 7, 100, 999, 1000, 5000, 0 };
	struct el all[NE], sorted[NE], ev;
	struct topn t;
	size_t i, k, n, bad, evicted;
	unsigned s = 12345;
	int e;

	for (i = 0; i < NE; i++) {
		s = s * 1103515245 + 12345;
		all[i].key = (int)(s >> 16) % 37;	/* many ties */
		all[i].id = (int)((i * 7919) % NE);	/* ids in no order */
		memset(all[i].pad, (int)i, sizeof(all[i].pad));
	}
	memcpy(sorted, all, sizeof(all));
	qsort(sorted, NE, sizeof(*sorted), cmp_total);
	for (k = 0; k < sizeof(tops) / sizeof(tops[0]); k++) {
		char name[96];

		topn_init(&t, sizeof(struct el), tops[k], cmp_total);
		bad = evicted = 0;
		for (i = 0; i < NE; i++) {
			if ((e = topn_offer(&t, &all[i], &ev)) < 0)
				bad++;
			if (e == 2)
				evicted++;
		}
		n = tops[k] == 0 || tops[k] > NE ? NE : (size_t)tops[k];
		is_int(t.n, n, "top-N: as many kept as asked");
		ok(t.cap < 2 * n && (tops[k] == 0 || t.cap <= tops[k]),
		    "top-N: memory follows N (%zu for %zu)", t.cap, n);
		if (topn_sort(&t) < 0)
			bad++;
		for (i = 0; i < t.n; i++)
			if (memcmp((struct el *)t.v + i, &sorted[i],
			    sizeof(struct el)) != 0)
				bad++;
		snprintf(name, sizeof(name), "top %llu: the first %zu of a full "
		    "sort, ties by id, each element whole",
		    (unsigned long long)tops[k], n);
		is_int(bad, 0, name);
		if (tops[k] > 0 && tops[k] < NE)
			ok(evicted > 0 && evicted <= NE - n, "top %llu: %zu "
			    "evicted, handed back", (unsigned long long)tops[k],
			    evicted);
		topn_free(&t);
	}

	/* wants: full, only a better element is wanted. */
	topn_init(&t, sizeof(struct el), 2, cmp_total);
	topn_offer(&t, &sorted[0], &ev);
	topn_offer(&t, &sorted[5], &ev);
	ok(!topn_wants(&t, &sorted[5]), "full: an equal one not wanted");
	ok(!topn_wants(&t, &sorted[6]), "full: a worse one not wanted");
	ok(topn_wants(&t, &sorted[1]), "full: a better one wanted");
	is_int(topn_offer(&t, &sorted[9], &ev), 0, "a worse one: not kept");
	is_int(topn_offer(&t, &sorted[1], &ev), 2, "a better one: kept");
	ok(memcmp(&ev, &sorted[5], sizeof(ev)) == 0, "the worst handed back");
	topn_free(&t);

	/* Real ties: the sort is stable, whatever qsort would do. */
	topn_init(&t, sizeof(struct el), 0, cmp_key);
	for (i = 0; i < NE; i++) {
		struct el x = all[i];

		x.id = (int)i;		/* the order offered */
		topn_offer(&t, &x, &ev);
	}
	is_int(topn_sort(&t), 0, "sort: 0");
	is_int(t.n, NE, "sort: every element still there");
	for (i = 1, bad = 0; i < t.n; i++) {
		const struct el *a = (struct el *)t.v + i - 1, *b = a + 1;

		if (a->key < b->key || (a->key == b->key && a->id > b->id))
			bad++;
	}
	is_int(bad, 0, "ties keep the order offered (stable, not qsort's)");
	topn_free(&t);

	/* Comparisons: a heap, not a sort of everything offered. */
	topn_init(&t, sizeof(struct el), 10, cmp_total);
	ncmp = 0;
	for (i = 0; i < NE; i++)
		topn_offer(&t, &all[i], &ev);
	ok(ncmp < 8 * NE, "top 10 of %d: %zu comparisons", NE, ncmp);
	topn_free(&t);
}

int
main(void)
{
	test_topn();
	return tap_done();
}
