/*
 * cmd/dwho/iostat.c: per-cgroup I/O rows from two io.stat samples.
 * Exact rates over the interval; a counter that went back (a device
 * removed and added again), a cgroup recreated under the same path (a
 * new inode) and a device new in the interval count from zero; a line
 * without keys is a row with nothing known; the all row sums whole
 * disks at the top of their stacks only.  On a small sysfs tree made
 * here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "dwho/dwho.h"
#include "tap.h"
#include "tree.h"

static void
tree(void)
{
	char p[320];
	FILE *f;

	strcpy(tree_top, "/tmp/dwho-iostat-unit.XXXXXX");
	if (mkdtemp(tree_top) == NULL) {
		perror("mkdtemp");
		exit(1);
	}
	tree_dir("sys");
	tree_dir("sys/dev");
	tree_dir("sys/dev/block");
	tree_dir("sys/devices");
	tree_dir("sys/devices/block");
	tree_dir("sys/devices/block/sda");
	tree_dir("sys/devices/block/sda/sda1");
	tree_dir("sys/devices/block/sdb");
	tree_dir("sys/devices/block/dm-0");
	tree_dir("sys/devices/block/dm-0/slaves");
	tree_link("sys/devices/block/dm-0/slaves/sdb", "../../../block/sdb");
	snprintf(p, sizeof(p), "%s/sys/devices/block/sda/sda1/partition", tree_top);
	if ((f = fopen(p, "w")) == NULL || fputs("1\n", f) == EOF ||
	    fclose(f) != 0) {
		perror(p);
		exit(1);
	}
	tree_link("sys/dev/block/8:0", "../../devices/block/sda");
	tree_link("sys/dev/block/8:1", "../../devices/block/sda/sda1");
	tree_link("sys/dev/block/8:16", "../../devices/block/sdb");
	tree_link("sys/dev/block/253:0", "../../devices/block/dm-0");
}

static void
untree(void)
{
	char cmd[320];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tree_top);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", tree_top);
}

/* io.stat text into a cgroup of the sample (paths added in order). */
static void
cg(struct ds_cgios *s, const char *path, uint64_t ino, const char *iostat)
{
	struct ds_cgio *c;

	s->c = realloc(s->c, (s->n + 1) * sizeof(*s->c));
	c = &s->c[s->n++];
	memset(c, 0, sizeof(*c));
	c->path = strdup(path);
	c->ino = ino;
	if (iostat != NULL) {
		c->have = 1;
		if (ds_iostat_parse(iostat, &c->st) < 0)
			exit(1);
	}
	s->cap = s->n;
}

static int
by_path(const void *x, const void *y)
{
	return strcmp(((const struct ds_cgio *)x)->path,
	    ((const struct ds_cgio *)y)->path);
}

static const struct cgrow *
row(const struct cgrow *r, size_t n, const char *cgroup,
    const char *device)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(r[i].cgroup, cgroup) == 0 &&
		    strcmp(r[i].device, device) == 0)
			return &r[i];
	return NULL;
}

/* "rkB/s wkB/s r/s w/s dkB/s d/s" of a row, "-" unknown; "none" absent. */
static const char *
fig(const struct cgrow *r, size_t n, const char *cgroup,
    const char *device)
{
	static char buf[256];
	const struct cgrow *w = row(r, n, cgroup, device);
	size_t len = 0;
	int x;

	if (w == NULL)
		return "none";
	for (x = 0; x < DS_IOS_N; x++) {
		if (w->have & (1u << x))
			len += (size_t)snprintf(buf + len, sizeof(buf) - len,
			    "%s%.3f", x ? " " : "", w->v[x]);
		else
			len += (size_t)snprintf(buf + len, sizeof(buf) - len,
			    "%s-", x ? " " : "");
	}
	len += (size_t)snprintf(buf + len, sizeof(buf) - len, " %s",
	    w->active ? "active" : "idle");
	return buf;
}

/*
 * cgio_select: the idle rows out (but with all), sorted by a key
 * (larger first, unknown last), ties by cgroup, its all row first, then
 * device number; a total order, so any sort gives the same rows; top.
 */
static void
test_select(void)
{
	static const struct { const char *cg; int all; unsigned int mi;
	    double v; int have, active; } in[] = {
		{ "/b", 0, 16, 5, 1, 1 }, { "/b", 1, 0, 5, 1, 1 },
		{ "/a", 0, 0, 5, 1, 1 }, { "/a", 1, 0, 5, 1, 1 },
		{ "/c", 1, 0, 9, 0, 1 }, { "/d", 1, 0, 0, 1, 0 },
		{ "/a", 0, 16, 7, 1, 1 },
	};
	struct cgrow r[7];
	char got[128];
	size_t i, n;

	for (n = 0; n < 7; n++) {
		memset(&r[n], 0, sizeof(r[n]));
		r[n].cgroup = in[n].cg;
		r[n].all = in[n].all;
		r[n].major = 8;
		r[n].minor = in[n].mi;
		snprintf(r[n].device, sizeof(r[n].device), "%s",
		    in[n].all ? "all" : in[n].mi ? "sdb" : "sda");
		r[n].v[DS_IOS_WIOS] = in[n].v;
		r[n].have = in[n].have ? 1u << DS_IOS_WIOS : 0;
		r[n].active = in[n].active;
	}
	n = 7;
	cgio_select(r, &n, 0, DS_IOS_WIOS, 0);
	for (got[0] = '\0', i = 0; i < n; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s:%s ",
		    r[i].cgroup, r[i].device);
	is_str(got, "/a:sdb /a:all /a:sda /b:all /b:sdb /c:all ",
	    "select -s wios: idle out, by value, ties: all first, then minor");
	n = 6;
	cgio_select(r, &n, 1, -1, 2);
	for (got[0] = '\0', i = 0; i < n; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s:%s ",
		    r[i].cgroup, r[i].device);
	is_str(got, "/a:all /a:sda ", "select -n 2: by cgroup, the first two");
}

int
main(void)
{
	struct ds_cgios a = { 0 }, b = { 0 };
	struct cgrow *r = NULL;
	size_t n = 0, cap = 0, i;
	struct ds_root root;
	const struct cgrow *w;

	tree();
	if (ds_root_open(&root, tree_top) < 0) {
		ok(0, "root opens");
		untree();
		return tap_done();
	}
	a.uptime_ns = 1000000000000ull;
	b.uptime_ns = 1002000000000ull;	/* 2 s later */
	/* grows: 4096 B/s read, 2 reads/s on sda */
	cg(&a, "/grow", 10, "8:0 rbytes=4096 wbytes=8192 rios=1 wios=2 "
	    "dbytes=0 dios=0\n");
	cg(&b, "/grow", 10, "8:0 rbytes=12288 wbytes=8192 rios=5 wios=2 "
	    "dbytes=2048 dios=1\n");
	/* went back on sda: reset, counted from zero */
	cg(&a, "/reset", 11, "8:0 rbytes=1048576 wbytes=1048576 rios=100 "
	    "wios=100\n");
	cg(&b, "/reset", 11, "8:0 rbytes=4096 wbytes=1048576 rios=1 "
	    "wios=100\n");
	/* recreated (another inode): from zero, though higher than before */
	cg(&a, "/new-ino", 12, "8:0 rbytes=1024 rios=1\n");
	cg(&b, "/new-ino", 99, "8:0 rbytes=4096 rios=2\n");
	/* sdb appears in the interval; dm-0 on sdb; sda1; 9:9 unknown;
	   a keyless line */
	cg(&a, "/stack", 13, "8:0 rbytes=0\n");
	cg(&b, "/stack", 13, "8:0 rbytes=2048\n8:1 rbytes=1024\n"
	    "8:16 rbytes=8192\n253:0 rbytes=8192\n9:9 rbytes=4096\n259:0\n");
	/* no io.stat read; no line yet */
	cg(&a, "/noread", 14, NULL);
	cg(&b, "/noread", 14, NULL);
	cg(&b, "/nolines", 15, "");
	/* A sample is sorted by path. */
	qsort(a.c, a.n, sizeof(*a.c), by_path);
	qsort(b.c, b.n, sizeof(*b.c), by_path);

	/* Since creation: the totals. */
	is_int(cgio_rows(&root, NULL, &b, &r, &n, &cap), 0,
	    "since creation: 0");
	is_str(fig(r, n, "/grow", "sda"),
	    "12288.000 8192.000 5.000 2.000 2048.000 1.000 active",
	    "since creation: the totals");
	is_str(fig(r, n, "/grow", "all"),
	    "12288.000 8192.000 5.000 2.000 2048.000 1.000 active",
	    "since creation: all is the disk");
	w = row(r, n, "/grow", "sda");
	is_u64(w != NULL ? w->u[DS_IOS_RBYTES] : 0, 12288, "u: the total");

	/* Over the interval. */
	is_int(cgio_rows(&root, &a, &b, &r, &n, &cap), 0, "interval: 0");
	is_str(fig(r, n, "/grow", "sda"),
	    "4.000 0.000 2.000 0.000 1.000 0.500 active",
	    "interval: kB/s and I/Os per second, exact");
	w = row(r, n, "/grow", "sda");
	is_u64(w != NULL ? w->u[DS_IOS_RBYTES] : 0, 12288,
	    "interval: u stays the total");
	is_str(fig(r, n, "/reset", "sda"),
	    "2.000 0.000 0.500 0.000 - - active",
	    "reset: counted from zero, the rest as deltas");
	is_str(fig(r, n, "/new-ino", "sda"),
	    "2.000 - 1.000 - - - active",
	    "recreated cgroup (new inode): from zero, not the difference");
	is_str(fig(r, n, "/stack", "sda"), "1.000 - - - - - active",
	    "stack: sda's delta");
	is_str(fig(r, n, "/stack", "sdb"), "4.000 - - - - - active",
	    "new device mid-interval: from zero");
	is_str(fig(r, n, "/stack", "sda1"), "0.500 - - - - - active",
	    "partition: its row");
	is_str(fig(r, n, "/stack", "dm-0"), "4.000 - - - - - active",
	    "dm-0: its row");
	is_str(fig(r, n, "/stack", "9:9"), "2.000 - - - - - active",
	    "unknown to sysfs: MAJ:MIN");
	is_str(fig(r, n, "/stack", "259:0"), "- - - - - - idle",
	    "keyless line: a row, nothing known");
	is_str(fig(r, n, "/stack", "all"), "5.000 - - - - - active",
	    "all: sda + dm-0 (not sda1, not sdb under dm-0, not 9:9)");
	is_str(fig(r, n, "/noread", "all"), "none",
	    "io.stat not read: no rows");
	is_str(fig(r, n, "/nolines", "all"),
	    "0.000 0.000 0.000 0.000 0.000 0.000 idle",
	    "no line yet: an all row of zeros");
	/* Order: per cgroup in the sample's order, all first. */
	is_str(n > 0 ? r[0].device : "", "all", "the first row: all");
	is_str(n > 0 ? r[0].cgroup : "", "/grow", "of the first cgroup");
	for (i = 0; i < n && strcmp(r[i].cgroup, "/stack") != 0; i++)
		;
	ok(i + 6 < n && r[i].all && strcmp(r[i + 1].device, "sda") == 0 &&
	    strcmp(r[i + 6].device, "259:0") == 0,
	    "a cgroup's rows: all, then its lines in order");
	is_int(n, 2 + 2 + 2 + 7 + 1, "rows: one per line plus all each");

	/* A second call reuses the array. */
	is_int(cgio_rows(&root, &a, &b, &r, &n, &cap), 0, "again: 0");
	is_int(n, 14, "again: the same rows, not appended");

	test_select();
	free(r);
	for (i = 0; i < a.n; i++)
		free(a.c[i].path), ds_iostat_free(&a.c[i].st);
	for (i = 0; i < b.n; i++)
		free(b.c[i].path), ds_iostat_free(&b.c[i].st);
	free(a.c);
	free(b.c);
	ds_root_close(&root);
	untree();
	return tap_done();
}
