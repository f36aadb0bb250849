/*
 * cmd/dwho/base.c: the compact base of a scan gives back every entry as
 * it was added, extreme values included; entries are found by (process,
 * thread) in one walk, and out of order too; the names beside it come
 * back byte for byte, repeats stored once.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dwho/dwho.h"
#include "tap.h"

static void
mkproc(struct ds_proc *p, int tgid, int pid, uint64_t start, uint64_t seed)
{
	int i;

	memset(p, 0, sizeof(*p));
	p->tgid = tgid;
	p->pid = pid;
	p->starttime = start;
	for (i = 0; i < DS_IO_NFIELDS; i++)
		if ((seed >> i) & 1) {
			p->io.v[i] = seed * 7919 + (uint64_t)i;
			p->io.have |= 1u << i;
		}
	p->have_blkio = (int)(seed & 1);
	p->blkio_ticks = p->have_blkio ? seed * 3 : 0;
}

static int
same_counters(const struct ds_proc *a, const struct ds_proc *b)
{
	int i;

	if (a->tgid != b->tgid || a->pid != b->pid ||
	    a->starttime != b->starttime || a->io.have != b->io.have ||
	    a->io_err != b->io_err || a->have_blkio != b->have_blkio ||
	    a->blkio_ticks != b->blkio_ticks)
		return 0;
	for (i = 0; i < DS_IO_NFIELDS; i++)
		if (a->io.v[i] != b->io.v[i])
			return 0;
	return 1;
}

#define NP 6

static void
test_roundtrip(void)
{
	struct whobase b = { 0 };
	struct ds_proc in[NP], out;
	size_t off = 0, k = 0, bad = 0, i;
	int j;

	mkproc(&in[0], 1, 1, 0, 0);			/* all zero */
	mkproc(&in[1], 2, 2, UINT64_MAX, (1u << DS_IO_NFIELDS) - 1);
	for (j = 0; j < DS_IO_NFIELDS; j++)
		in[1].io.v[j] = UINT64_MAX - (uint64_t)j;
	in[1].blkio_ticks = UINT64_MAX;
	mkproc(&in[2], 2, 3, 127, 0x15);		/* a thread, gaps */
	mkproc(&in[3], 2, INT_MAX, 128, 0x2a);
	in[3].io_err = -EACCES;
	mkproc(&in[4], INT_MAX - 1, INT_MAX - 1, 1ull << 63, 1);
	mkproc(&in[5], INT_MAX, INT_MAX, 16383, 0x40);
	whobase_reset(&b);
	for (i = 0; i < NP; i++)
		if (whobase_add(&b, &in[i]) != 0)
			bad++;
	is_int(bad, 0, "round trip: every entry added");
	ok(b.sorted, "round trip: added in order, sorted");
	while (off < b.len && k < NP) {
		whobase_get(&b, &off, &out);
		if (!same_counters(&in[k], &out)) {
			printf("# entry %zu differs\n", k);
			bad++;
		}
		k++;
	}
	is_int(k, NP, "round trip: as many entries back");
	is_int(off, b.len, "round trip: the base read to its end");
	is_int(bad, 0, "round trip: each equal, 0 and 2^64-1, INT_MAX, "
	    "io_err, gaps in io");
	ok(b.len < NP * 60, "compact: %zu bytes for %d entries", b.len, NP);
	whobase_reset(&b);
	is_int(b.len, 0, "reset: empty");
	whobase_free(&b);
}

static void
test_find(void)
{
	static const int id[][2] = {
		{ 100, 100 }, { 100, 101 }, { 100, 105 }, { 200, 200 },
		{ 300, 300 }, { 300, 301 },
	};
	struct whobase b = { 0 };
	const struct ds_proc *q;
	struct ds_proc p;
	size_t i, n = sizeof(id) / sizeof(id[0]), found = 0;

	whobase_reset(&b);
	for (i = 0; i < n; i++) {
		mkproc(&p, id[i][0], id[i][1], 1000 + i, i + 1);
		whobase_add(&b, &p);
	}
	for (i = 0; i < n; i++) {
		q = whobase_find(&b, id[i][0], id[i][1]);
		if (q != NULL && q->tgid == id[i][0] && q->pid == id[i][1] &&
		    q->starttime == 1000 + i)
			found++;
	}
	is_int(found, n, "find in order: each (process, thread) its own");
	whobase_rewind(&b);
	ok(whobase_find(&b, 100, 101) != NULL, "find 100/101");
	ok(whobase_find(&b, 100, 102) == NULL, "absent thread: NULL");
	ok(whobase_find(&b, 101, 101) == NULL, "absent process: NULL");
	q = whobase_find(&b, 100, 105);
	ok(q != NULL && q->pid == 105 && q->starttime == 1002,
	    "an earlier id after a later miss: found from the top");
	/* A lookup out of order starts again from the top. */
	q = whobase_find(&b, 100, 100);
	ok(q != NULL && q->pid == 100, "out of order: found from the top");
	q = whobase_find(&b, 300, 301);
	ok(q != NULL && q->pid == 301 && q->starttime == 1005,
	    "the last entry");
	ok(whobase_find(&b, 400, 400) == NULL, "past the end: NULL");
	ok(whobase_find(&b, 200, 200) != NULL, "and back again");

	/* Added out of order (a captured tree): searched whole. */
	whobase_reset(&b);
	for (i = n; i-- > 0;) {
		mkproc(&p, id[i][0], id[i][1], 1000 + i, i + 1);
		whobase_add(&b, &p);
	}
	ok(!b.sorted, "added out of order: not sorted");
	for (i = found = 0; i < n; i++) {
		q = whobase_find(&b, id[i][0], id[i][1]);
		if (q != NULL && q->pid == id[i][1] && q->starttime == 1000 + i)
			found++;
	}
	is_int(found, n, "unsorted base: each found");
	ok(whobase_find(&b, 100, 102) == NULL, "unsorted base: absent NULL");
	whobase_free(&b);
}

static void
test_names(void)
{
	struct whonames n = { 0 };
	struct ds_proc in[5], out;
	char cmd1[] = "dd if=/dev/zero", cmd2[] = "x";
	size_t i, bad = 0, len1;
	int cl;

	memset(in, 0, sizeof(in));
	strcpy(in[0].comm, "tab\there\nnl) (x");
	in[0].uid = UINT32_MAX;
	in[0].cmdline = cmd1;
	in[0].cmdline_len = strlen(cmd1);
	in[1] = in[0];			/* a thread: the same names */
	in[1].uid = 0;
	strcpy(in[2].comm, "");		/* empty name, no command line */
	in[3] = in[0];
	in[3].cmdline = cmd2;
	in[3].cmdline_len = 1;
	memset(in[4].comm, 'a', 63);	/* the longest name */
	for (i = 0; i < 5; i++)
		in[i].comm_len = strlen(in[i].comm);
	for (cl = 0; cl < 2; cl++) {
		whonames_reset(&n);
		for (i = 0; i < 5; i++)
			whonames_add(&n, &in[i], cl);
		if (cl == 0)
			len1 = n.b.len;
		for (i = 0; i < 5; i++) {
			memset(&out, 0, sizeof(out));
			whonames_get(&n, &out, cl);
			if (out.uid != in[i].uid || out.comm_len != in[i].comm_len ||
			    strcmp(out.comm, in[i].comm) != 0)
				bad++;
			if (cl && (in[i].cmdline == NULL ? out.cmdline != NULL :
			    out.cmdline == NULL ||
			    out.cmdline_len != in[i].cmdline_len ||
			    strcmp(out.cmdline, in[i].cmdline) != 0))
				bad++;
			if (!cl && out.cmdline != NULL)
				bad++;
		}
		is_int(bad, 0, cl ? "names with -l: uid, name and command "
		    "line back" : "names: uid and name back");
	}
	/* The repeat of entry 0 (entry 1) took a few bytes, not its name. */
	whonames_reset(&n);
	whonames_add(&n, &in[0], 1);
	len1 = n.b.len;
	whonames_add(&n, &in[1], 1);
	ok(n.b.len - len1 <= 3, "a repeated name and command line: %zu "
	    "bytes", n.b.len - len1);
	whonames_free(&n);
}

int
main(void)
{
	test_roundtrip();
	test_find();
	test_names();
	return tap_done();
}
