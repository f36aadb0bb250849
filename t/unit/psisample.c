/*
 * lib/psisample.c: a sample's array grows past its first allocation
 * and keeps each path (the top joined to the walk's); two samples pair
 * by path; the share comes from the totals over the samples' times and
 * is unknown without an earlier sample, a line in both, or time between;
 * -C ranks by share (avg10 without an earlier sample), "full" where
 * there is no "some", no line last, ties by path.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diskstat.h"
#include "tap.h"

#define S 1000000000ull

/* A cgroup with one io line of kind k. */
static struct ds_psi_cg *
add_io(struct ds_psi_sample *s, const char *path, enum ds_psi_kind k,
    uint64_t avg10, uint64_t total)
{
	struct ds_psi_cg *c = ds_psi_sample_add(s, "/", path);

	if (c == NULL) {
		perror("ds_psi_sample_add");
		exit(1);
	}
	c->ok = 1u << DS_PSI_IO;
	c->p[DS_PSI_IO].have = 1u << k;
	c->p[DS_PSI_IO].line[k].avg[0] = avg10;
	c->p[DS_PSI_IO].line[k].total = total;
	return c;
}

static void
test_array(void)
{
	struct ds_psi_sample s = { 0 };
	struct ds_psi_cg *c;
	char path[32];
	size_t i, bad = 0;

	c = ds_psi_sample_add(&s, NULL, NULL);
	ok(c != NULL && c->path == NULL && c->ok == 0 && c->prev == NULL,
	    "add: the system, zeroed, no path");
	c = ds_psi_sample_add(&s, NULL, "/a/b");
	is_str(c ? c->path : NULL, "/a/b", "add: -c's path as given");
	c = ds_psi_sample_add(&s, "/", "/x");
	is_str(c ? c->path : NULL, "/x", "add: below the top /: the path");
	c = ds_psi_sample_add(&s, "/a", "/x");
	is_str(c ? c->path : NULL, "/a/x", "add: below /a: the two joined");
	for (i = 0; i < 40; i++) {
		snprintf(path, sizeof(path), "/g%zu", i);
		if ((c = ds_psi_sample_add(&s, "/", path)) == NULL)
			break;
		c->ok = (unsigned int)i;
	}
	is_int(s.n, 44, "add: 44 elements, past the first 16");
	ok(s.cap >= s.n, "add: the array grew");
	for (i = 0; i < 40; i++) {
		snprintf(path, sizeof(path), "/g%zu", i);
		if (strcmp(s.cg[4 + i].path, path) != 0 ||
		    s.cg[4 + i].ok != i)
			bad++;
	}
	is_int(bad, 0, "add: every element kept through the growth");
	ds_psi_sample_pop(&s);
	is_int(s.n, 43, "pop: the last one dropped");
	ds_psi_sample_clear(&s);
	is_int(s.n, 0, "clear: empty");
	ok(s.cg != NULL, "clear: the array kept for the next sample");
	ds_psi_sample_pop(&s);
	is_int(s.n, 0, "pop on an empty sample: still empty");
	ds_psi_sample_free(&s);
	ok(s.cg == NULL && s.cap == 0, "free: nothing held");
}

static void
test_share(void)
{
	struct ds_psi_sample a = { 0 }, b = { 0 };
	struct ds_psi_cg *c;
	double pct;

	a.up_ns = 100 * S;
	b.up_ns = 102 * S;
	add_io(&a, "/x", DS_PSI_SOME, 0, 1000000);
	add_io(&a, "/gone", DS_PSI_SOME, 0, 5);
	c = add_io(&b, "/x", DS_PSI_SOME, 0, 1500000);
	add_io(&b, "/new", DS_PSI_SOME, 0, 7);
	is_int(ds_psi_sample_pair(&a, &b), 0, "pair: 0");
	ok(b.cg[0].prev == &a.cg[0] && b.cg[1].prev == NULL,
	    "pair: /x with /x, /new with none");
	pct = ds_psi_sample_share(&a, &b, c, DS_PSI_IO, DS_PSI_SOME);
	ok(pct > 24.999 && pct < 25.001, "share: 0.5 s stalled in 2 s: 25%%");
	ok(ds_psi_sample_share(NULL, &b, c, DS_PSI_IO, DS_PSI_SOME) == -1,
	    "share: no earlier sample: unknown");
	ok(ds_psi_sample_share(&a, &b, &b.cg[1], DS_PSI_IO, DS_PSI_SOME) ==
	    -1, "share: a new cgroup: unknown");
	ok(ds_psi_sample_share(&a, &b, c, DS_PSI_IO, DS_PSI_FULL) == -1,
	    "share: a line neither has: unknown");
	ok(ds_psi_sample_share(&a, &b, c, DS_PSI_CPU, DS_PSI_SOME) == -1,
	    "share: a resource not read: unknown");
	b.up_ns = a.up_ns;
	ok(ds_psi_sample_share(&a, &b, c, DS_PSI_IO, DS_PSI_SOME) == -1,
	    "share: no time between the samples: unknown");
	ok(ds_psi_cg_line(c, DS_PSI_IO, DS_PSI_SOME) ==
	    &c->p[DS_PSI_IO].line[DS_PSI_SOME], "line: the one read");
	ok(ds_psi_cg_line(c, DS_PSI_IO, DS_PSI_FULL) == NULL &&
	    ds_psi_cg_line(c, DS_PSI_MEMORY, DS_PSI_SOME) == NULL &&
	    ds_psi_cg_line(NULL, DS_PSI_IO, DS_PSI_SOME) == NULL,
	    "line: none not read, nor of no cgroup");
	ds_psi_sample_free(&a);
	ds_psi_sample_free(&b);
}

static void
test_rank(void)
{
	struct ds_psi_sample a = { 0 }, b = { 0 };
	static const char *const want[] = { "/busy", "/irq", "/b", "/c",
	    "/none" };
	size_t i, bad = 0;

	a.up_ns = 10 * S;
	b.up_ns = 11 * S;
	add_io(&a, "/c", DS_PSI_SOME, 0, 0);
	add_io(&a, "/busy", DS_PSI_SOME, 0, 0);
	add_io(&a, "/irq", DS_PSI_FULL, 0, 0);
	add_io(&a, "/b", DS_PSI_SOME, 0, 0);
	add_io(&b, "/c", DS_PSI_SOME, 9000, 100000);
	add_io(&b, "/none", DS_PSI_SOME, 0, 0)->p[DS_PSI_IO].have = 0;
	add_io(&b, "/busy", DS_PSI_SOME, 0, 600000);
	add_io(&b, "/irq", DS_PSI_FULL, 0, 300000);
	add_io(&b, "/b", DS_PSI_SOME, 0, 100000);
	ds_psi_sample_pair(&a, &b);
	ds_psi_sample_rank(&a, &b, DS_PSI_IO);
	for (i = 0; i < 5; i++)
		if (strcmp(b.cg[i].path, want[i]) != 0)
			bad++;
	is_int(bad, 0, "rank: by share, full where no some, ties by path, "
	    "no line last");
	ok(b.cg[0].key > 59.999 && b.cg[0].key < 60.001 &&
	    b.cg[4].key == -1, "rank: keys are the shares, -1 for none");
	ok(b.cg[0].prev != NULL && strcmp(b.cg[0].prev->path, "/busy") == 0,
	    "rank: the links follow their elements");
	/* Without an earlier sample: by avg10. */
	ds_psi_sample_rank(NULL, &b, DS_PSI_IO);
	is_str(b.cg[0].path, "/c", "rank without prev: by avg10");
	ok(b.cg[0].key == 9000, "rank without prev: the key is avg10");
	ds_psi_sample_free(&a);
	ds_psi_sample_free(&b);
}

int
main(void)
{
	test_array();
	test_share();
	test_rank();
	return tap_done();
}
