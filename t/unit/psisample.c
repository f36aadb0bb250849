/*
 * lib/psisample.c: a sample's array grows past its first allocation
 * and keeps each path (the top joined to the walk's); two samples pair
 * by path; the share comes from the totals over the samples' times and
 * is unknown without an earlier sample, a line in both, or time between.
 * Read from a made-up tree: the system's files, a cgroup's, a walk below
 * a top, the problems noted in order, and why nothing was read.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"
#include "tree.h"

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
test_read(void)
{
	static const char io[] =
	    "some avg10=0.50 avg60=0.00 avg300=0.00 total=100\n"
	    "full avg10=0.25 avg60=0.00 avg300=0.00 total=50\n";
	static const char mem[] =
	    "some avg10=0.00 avg60=0.00 avg300=0.00 total=7\n"
	    "full avg10=x\n";
	static const enum ds_psi_res two[] = { DS_PSI_IO, DS_PSI_MEMORY },
	    three[] = { DS_PSI_IO, DS_PSI_MEMORY, DS_PSI_IRQ };
	struct ds_buf scratch = { 0 };
	struct ds_psi_sample s = { 0 };
	struct ds_psi_src src;
	struct ds_root r;
	char cmd[128];
	int cg;

	tree_make("psisample-unit");
	tree_put("proc", NULL);
	tree_put("proc/pressure", NULL);
	tree_put("proc/pressure/io", io);
	tree_put("proc/pressure/memory", mem);
	tree_put("cg", NULL);
	tree_put("cg/a", NULL);
	tree_put("cg/a/io.pressure", io);
	tree_put("cg/a/cgroup.procs", "");
	tree_put("cg/a/b", NULL);
	tree_put("cg/a/b/io.pressure", io);
	tree_put("cg/a/b/cgroup.procs", "");
	tree_put("cg/c", NULL);
	tree_put("cg/c/cgroup.procs", "");
	tree_put("cg/gone", NULL);
	ds_root_open(&r, tree_top);

	memset(&src, 0, sizeof(src));
	src.r = &r;
	src.topfd = -1;
	src.order = three;
	src.nres = 3;
	src.scratch = &scratch;
	is_int(ds_psi_sample_read(&src, &s), 0, "read: the system");
	ok(s.n == 1 && s.cg[0].path == NULL && s.cg[0].ok ==
	    ((1u << DS_PSI_IO) | (1u << DS_PSI_MEMORY)) &&
	    s.cg[0].p[DS_PSI_IO].line[DS_PSI_FULL].total == 50,
	    "read: io and memory read, no irq");
	ok(s.nnote == 1 && s.note[0].res == DS_PSI_MEMORY &&
	    s.note[0].e == 0 && s.note[0].bad.first == 2 && s.note[0].path == NULL,
	    "read: memory's malformed line 2 noted; irq missing quietly");
	src.explicit = 1;
	ds_psi_sample_read(&src, &s);
	ok(s.nnote == 2 && s.note[1].res == DS_PSI_IRQ &&
	    s.note[1].e == -ENOENT, "read: irq asked for by name: noted");

	cg = tree_open("cg/a");
	src.topfd = cg;
	src.top = "/a";
	src.order = two;
	src.nres = 2;
	is_int(ds_psi_sample_read(&src, &s), 0, "read: -c /a");
	ok(s.n == 1 && s.cg[0].path != NULL &&
	    strcmp(s.cg[0].path, "/a") == 0 && s.cg[0].ok == 1u << DS_PSI_IO,
	    "read: -c /a: its io");
	ok(s.nnote == 1 && s.note[0].e == -ENOENT &&
	    strcmp(s.note[0].path, "/a") == 0,
	    "read: -c /a: memory.pressure missing, noted with the path");
	close(cg);
	src.explicit = 0;
	cg = tree_open("cg/c");
	src.topfd = cg;
	is_int(ds_psi_sample_read(&src, &s), -ENODEV,
	    "read: a cgroup without pressure files: -ENODEV");
	is_int(s.n, 0, "read: and nothing in the sample");
	close(cg);
	cg = tree_open("cg/gone");
	is_int(ds_psi_cgroup_nofiles(cg), -ENOENT,
	    "nofiles: without cgroup.procs either: removed");
	close(cg);

	cg = tree_open("cg");
	src.topfd = cg;
	src.top = "/";
	src.all = 1;
	is_int(ds_psi_sample_read(&src, &s), 0, "read: the walk from /");
	ok(s.n == 2 && strcmp(s.cg[0].path, "/a") == 0 &&
	    strcmp(s.cg[1].path, "/a/b") == 0 && s.nnote == 0,
	    "read: /a and /a/b, not the top, not those without files");
	close(cg);
	cg = tree_open("cg/a");
	src.topfd = cg;
	src.top = "/a";
	is_int(ds_psi_sample_read(&src, &s), 0, "read: the walk from /a");
	ok(s.n == 1 && strcmp(s.cg[0].path, "/a/b") == 0,
	    "read: /a/b, its path below the mount");
	close(cg);

	src.all = 0;
	src.topfd = -1;
	tree_put("proc/pressure/io", "");
	unlink(strcat(strcpy(cmd, tree_top), "/proc/pressure/memory"));
	is_int(ds_psi_sample_read(&src, &s), -ENODATA,
	    "read: proc/pressure without a good file: -ENODATA");
	ok(s.nnote == 1 && s.note[0].e == -EINVAL,
	    "read: the empty io file noted");
	unlink(strcat(strcpy(cmd, tree_top), "/proc/pressure/io"));
	rmdir(strcat(strcpy(cmd, tree_top), "/proc/pressure"));
	is_int(ds_psi_sample_read(&src, &s), -ENOENT,
	    "read: no proc/pressure: -ENOENT");
	ds_psi_sample_free(&s);
	ds_buf_free(&scratch);
	ds_root_close(&r);
	tree_remove();
}

int
main(void)
{
	test_array();
	test_share();
	test_read();
	return tap_done();
}
