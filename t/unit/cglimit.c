/*
 * lib/cglimit.c: the I/O limits of cgroups on a hybrid tree made here
 * (v2 io.max, io.latency, io.stat with iocost and io.latency keys; v1
 * blkio.throttle files), each with its counters; the rates between two
 * reads with resets refused; the walk's bounds, symlinks and FIFOs; the
 * mounts found from the table, or guessed without one; a process's
 * cgroup per controller.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"
#include "tree.h"

#define V2 "sys/fs/cgroup/unified/"
#define V1 "sys/fs/cgroup/blkio/"

static const char mountinfo[] =
    "30 22 0:27 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
    "34 30 0:31 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
    "36 30 0:33 /sub /sys/fs/cgroup/blkio-part rw,relatime - cgroup cgroup rw,blkio\n"
    "37 30 0:34 / /sys/fs/cgroup/blkio rw,relatime - cgroup cgroup rw,blkio\n"
    "38 30 0:35 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n"
    "40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";

static void
tree(void)
{
	char path[4096];

	tree_make("cglimit-unit");
	tree_put("proc/self/mountinfo", mountinfo);
	tree_put(V2 "cgroup.controllers", "cpu io memory\n");
	/* The root: iocost's vrate is on its line only. */
	tree_put(V2 "io.stat", "8:0 rbytes=1 wbytes=2 rios=3 wios=4 dbytes=0 "
	    "dios=0 cost.vrate=87.50 cost.usage=1200\n");
	tree_put(V2 "a/io.max", "8:16 rbps=2097152 wbps=max riops=max "
	    "wiops=120\n8:0 rbps=max wbps=max riops=max wiops=max\n");
	tree_put(V2 "a/io.latency", "8:16 target=75000\n");
	tree_put(V2 "a/io.stat", "8:16 rbytes=4096 wbytes=8192 rios=1 wios=2 "
	    "dbytes=0 dios=0\n8:0 rbytes=10 wbytes=20 rios=30 wios=40 dbytes=0 "
	    "dios=0 cost.usage=5 cost.wait=6 cost.indebt=7 cost.indelay=8\n");
	/* io.latency's debug keys: a rotational disk, a non-rotational one. */
	tree_put(V2 "a/b/io.stat", "8:16 rbytes=1 wbytes=1 rios=1 wios=1 "
	    "dbytes=0 dios=0 depth=max avg_lat=1500 win=200\n"
	    "8:32 rbytes=1 wbytes=1 rios=1 wios=1 missed=3 total=100 depth=4\n"
	    "8:48 rbytes=1 cost.vrate=1.234\n");
	tree_put(V2 "c/io.max", "8:16 rbps=0\nx:1 rbps=5\n8:48 rbps=-1\n"
	    "8:48 rbps=5 rbps=6\n8:49 rbps=5 junk\n"
	    "8:64 riops=10 idle=max latency=max\n4294967296:0 rbps=1\n");
	tree_put(V2 "c/io.stat", "8:64\n");
	tree_put(V2 "c/io.latency", "8:80 target=max\n8:81 target=0\n"
	    "8:82 target=x\n8:83 latency=5\n");
	/* A symlinked file and a symlinked cgroup lead nowhere. */
	tree_put(V2 "d/io.stat", "");
	tree_link(V2 "d/io.max", "../a/io.max");
	tree_link(V2 "lnk", "a");
	/* A FIFO reads as empty, without waiting for a writer. */
	tree_dir(V2 "e");
	snprintf(path, sizeof(path), "%s/" V2 "e/io.max", tree_top);
	if (mkfifo(path, 0600) < 0) {
		perror(path);
		exit(1);
	}
	tree_put(V2 "na\tme\n/io.max", "8:16 wiops=7\n");

	tree_put(V1 "tasks", "");
	tree_put(V1 "blkio.throttle.read_bps_device", "");
	tree_put(V1 "x/tasks", "");
	tree_put(V1 "x/blkio.throttle.read_iops_device", "7:0 50\n");
	tree_put(V1 "x/blkio.throttle.write_bps_device", "7:0 0\n8:0 1048576\n");
	tree_put(V1 "x/blkio.throttle.io_serviced",
	    "7:0 Read 12\n7:0 Write 3\n7:0 Sync 15\n7:0 Async 0\n"
	    "7:0 Discard 0\n7:0 Total 15\n8:0 Read 1\n8:0 Write 2\n"
	    "8:0 Sync 3\n8:0 Async 0\n8:0 Discard 0\n8:0 Total 3\nTotal 18\n");
	tree_put(V1 "x/blkio.throttle.io_service_bytes",
	    "7:0 Read 49152\n7:0 Write 12288\n7:0 Sync 61440\n7:0 Async 0\n"
	    "7:0 Discard 0\n7:0 Total 61440\n8:0 Read 4096\n8:0 Write 8192\n"
	    "8:0 Sync 12288\n8:0 Async 0\n8:0 Discard 0\n8:0 Total 12288\n"
	    "Total 73728\n");
	tree_put(V1 "y/blkio.throttle.write_iops_device", "259:3 4294967295\n");
	tree_put(V1 "y/blkio.throttle.io_serviced", "259:3 Read x\n"
	    "259:3 Write 5\nTotal y\n");
}

/* The entry of cgroup, device, v1 in s, or NULL. */
static const struct ds_iolimit *
get(const struct ds_iolimits *s, const char *cg, unsigned int maj,
    unsigned int min, int v1)
{
	struct ds_iolimit k;

	memset(&k, 0, sizeof(k));
	k.cgroup = (char *)cg;
	k.major = maj;
	k.minor = min;
	k.v1 = v1;
	return ds_iolimits_find(s, &k);
}

/* "rbps wbps riops wiops" of an entry, "-" for none. */
static const char *
lims(const struct ds_iolimit *l)
{
	static char buf[128];
	size_t n = 0;
	int k;

	if (l == NULL)
		return "absent";
	for (k = 0; k < DS_LIM_N; k++)
		if (l->lim[k] == UINT64_MAX)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s-",
			    k ? " " : "");
		else
			n += (size_t)snprintf(buf + n, sizeof(buf) - n,
			    "%s%llu", k ? " " : "",
			    (unsigned long long)l->lim[k]);
	return buf;
}

static const char *
done(const struct ds_iolimit *l)
{
	static char buf[128];

	if (l == NULL)
		return "absent";
	snprintf(buf, sizeof(buf), "%x: %llu %llu %llu %llu", l->have_done,
	    (unsigned long long)l->done[0], (unsigned long long)l->done[1],
	    (unsigned long long)l->done[2], (unsigned long long)l->done[3]);
	return buf;
}

static void
test_tree(const struct ds_root *r)
{
	struct ds_iolimits s = { 0 };
	const struct ds_iolimit *l;
	char order[512];
	size_t i;

	is_int(ds_iolimits_read(r, &s), 0, "read: 0");
	is_int(s.hier, DS_CG_V1 | DS_CG_V2, "both hierarchies walked");
	for (order[0] = '\0', i = 0; i < s.n; i++)
		snprintf(order + strlen(order), sizeof(order) - strlen(order),
		    "%s%s %u:%u%s", i ? "," : "", s.l[i].cgroup,
		    s.l[i].major, s.l[i].minor, s.l[i].v1 ? " v1" : "");
	is_str(order, "/ 8:0,/a 8:0,/a 8:16,/a/b 8:16,/a/b 8:32,"
	    "/c 8:64,/na\tme\n 8:16,/x 7:0 v1,/x 8:0 v1,/y 259:3 v1",
	    "entries: those with a limit, target or keys, by cgroup, device");
	/* c: 8:16 rbps=0, x:1, rbps=-1, rbps twice, a word, a major past
	   32 bits; 8:82 target=x, 8:83 no target=; y: Read x, Total y;
	   a/b: cost.vrate=1.234 */
	is_u64(s.bad, 6 + 2 + 2 + 1, "bad lines counted");
	is_u64(s.skipped, 0, "nothing skipped");
	is_int(s.truncated, 0, "not truncated");

	l = get(&s, "/", 8, 0, 0);
	ok(l != NULL && l->have_cost == (DS_COST_VRATE | DS_COST_USAGE) &&
	    fabs(l->cost_vrate - 87.5) < 1e-9 && l->cost_usage == 1200,
	    "root: cost.vrate 87.50, cost.usage 1200");
	is_str(lims(l), "- - - -", "root: no limit");
	is_str(done(l), "f: 1 2 3 4", "root: its counters");

	l = get(&s, "/a", 8, 16, 0);
	is_str(lims(l), "2097152 - - 120", "io.max: rbps and wiops, max none");
	ok(l != NULL && l->have_lat && l->lat_target_us == 75000,
	    "io.latency: target 75000 us");
	is_str(done(l), "f: 4096 8192 1 2", "io.stat: rbytes wbytes rios wios");
	ok(l != NULL && l->have_cost == 0 && l->have_latstat == 0,
	    "no keys of iocost or io.latency");
	ok(l != NULL && l->ino != 0, "the directory's inode");

	l = get(&s, "/a", 8, 0, 0);
	is_str(lims(l), "- - - -", "all max: no limit, kept for iocost");
	ok(l != NULL && l->have_cost == (DS_COST_USAGE | DS_COST_WAIT |
	    DS_COST_INDEBT | DS_COST_INDELAY) && l->cost_usage == 5 &&
	    l->cost_wait == 6 && l->cost_indebt == 7 && l->cost_indelay == 8,
	    "iocost debug keys");

	l = get(&s, "/a/b", 8, 16, 0);
	ok(l != NULL && l->have_latstat == (DS_LATSTAT_DEPTH | DS_LATSTAT_AVG |
	    DS_LATSTAT_WIN) && l->lat_depth == UINT64_MAX &&
	    l->lat_avg_us == 1500 && l->lat_win_ms == 200 && !l->have_lat,
	    "io.latency stat, rotational: depth=max avg_lat win");
	l = get(&s, "/a/b", 8, 32, 0);
	ok(l != NULL && l->have_latstat == (DS_LATSTAT_DEPTH |
	    DS_LATSTAT_MISSED | DS_LATSTAT_TOTAL) && l->lat_depth == 4 &&
	    l->lat_missed == 3 && l->lat_total == 100,
	    "io.latency stat, non-rotational: missed total depth");
	ok(get(&s, "/a/b", 8, 48, 0) == NULL,
	    "cost.vrate with three decimals refused: counters alone, no entry");

	l = get(&s, "/c", 8, 64, 0);
	is_str(lims(l), "- - 10 -", "idle= and latency= skipped");
	is_str(done(l), "0: 0 0 0 0", "a line without keys: no counter");
	ok(get(&s, "/c", 8, 48, 0) == NULL && get(&s, "/c", 8, 16, 0) == NULL,
	    "bad lines keep nothing");
	ok(get(&s, "/d", 8, 16, 0) == NULL, "a symlinked io.max is not read");
	ok(get(&s, "/lnk", 8, 16, 0) == NULL, "a symlinked cgroup is not walked");
	is_str(lims(get(&s, "/na\tme\n", 8, 16, 0)), "- - - 7",
	    "a name with a tab and a newline, as it is");

	l = get(&s, "/x", 7, 0, 1);
	is_str(lims(l), "- - 50 -", "v1: read_iops_device 50");
	is_str(done(l), "f: 49152 12288 12 3", "v1: Read and Write rows");
	l = get(&s, "/x", 8, 0, 1);
	is_str(lims(l), "- 1048576 - -", "v1: write_bps_device; 0 is none");
	is_str(done(l), "f: 4096 8192 1 2", "v1: the second device's rows");
	l = get(&s, "/y", 259, 3, 1);
	is_str(lims(l), "- - - 4294967295", "v1: a limit of 2^32 - 1");
	is_str(done(l), "8: 0 0 0 5", "v1: only what parsed");
	ok(get(&s, "/x", 7, 0, 0) == NULL, "find: v1 and v2 told apart");

	/* A second read replaces the first. */
	is_int(ds_iolimits_read(r, &s), 0, "again: 0");
	is_u64(s.n, 10, "again: the same entries, not appended");

	/* The walk's bound. */
	is_int(ds_iolimits_read_max(r, &s, 2), 0, "bounded: 0");
	ok(s.truncated == 1 && s.n == 5,
	    "bounded: 2 cgroups a hierarchy (/ /a; / /x), truncated");
	ds_iolimits_free(&s);
}

static void
set_done(struct ds_iolimit *l, const char *cg, uint64_t ino, uint64_t a,
    uint64_t b, uint64_t c, uint64_t d, int have)
{
	memset(l, 0, sizeof(*l));
	l->cgroup = (char *)cg;
	l->major = 7;
	l->ino = ino;
	l->done[0] = a;
	l->done[1] = b;
	l->done[2] = c;
	l->done[3] = d;
	l->have_done = have;
}

static void
test_rate(void)
{
	struct ds_iolimit a, b;
	double rt[DS_LIM_N];

	set_done(&a, "/x", 5, 1000, 0, 100, 0, DS_LIM_ALL);
	set_done(&b, "/x", 5, 5096, 2048, 300, 4, DS_LIM_ALL);
	is_int(ds_iolimit_rate(&a, &b, 4.0, rt), 0, "rate: 0");
	ok(rt[0] == 1024 && rt[1] == 512 && rt[2] == 50 && rt[3] == 1,
	    "rate: bytes/s and IOs/s, exact");
	set_done(&b, "/x", 5, 900, 2048, 300, 4, DS_LIM_ALL);
	is_int(ds_iolimit_rate(&a, &b, 4.0, rt), -ERANGE,
	    "a counter went back: -ERANGE");
	ok(rt[1] == -1 && rt[2] == -1, "  and no rate taken");
	set_done(&b, "/x", 6, 5096, 2048, 300, 4, DS_LIM_ALL);
	is_int(ds_iolimit_rate(&a, &b, 4.0, rt), -ERANGE,
	    "another directory (recreated, higher counters): -ERANGE");
	set_done(&b, "/x", 5, 5096, 2048, 300, 4, 1 << DS_LIM_RIOPS);
	is_int(ds_iolimit_rate(&a, &b, 4.0, rt), 0, "one counter: 0");
	ok(rt[0] == -1 && rt[2] == 50, "  its rate, -1 the others");
	set_done(&b, "/x", 5, 5096, 2048, 300, 4, 0);
	is_int(ds_iolimit_rate(&a, &b, 4.0, rt), -ENODATA, "no counter: -ENODATA");
	is_int(ds_iolimit_rate(&a, &a, 0, rt), -EINVAL, "no interval: -EINVAL");
	set_done(&b, "/y", 5, 5096, 2048, 300, 4, DS_LIM_ALL);
	is_int(ds_iolimit_rate(&a, &b, 1, rt), -EINVAL,
	    "another cgroup: -EINVAL");
}

static void
test_parsers(void)
{
	struct ds_iolimits cg = { 0 };
	char *big;
	size_t i, n = 0;

	/* Past the bound of devices a cgroup keeps: bad, not unbounded. */
	big = malloc((DS_CG_DEVS_MAX + 10) * 32);
	for (i = 0; i < DS_CG_DEVS_MAX + 10; i++)
		n += (size_t)sprintf(big + n, "%zu:%zu wiops=1\n", i / 256,
		    i % 256);
	is_int(ds_iomax_parse(big, &cg), 0, "many devices: 0");
	ok(cg.n == DS_CG_DEVS_MAX && cg.bad == 10,
	    "many devices: DS_CG_DEVS_MAX kept, the rest bad");
	free(big);
	cg.n = cg.bad = 0;
	is_int(ds_blkio_limit_parse("7:0 5\n", 4, &cg), -EINVAL,
	    "v1 limit of no kind: -EINVAL");
	is_int(ds_iostat_limits_parse("", &cg), 0, "empty io.stat: 0");
	ok(cg.n == 0 && cg.bad == 0, "empty io.stat: nothing");
	is_int(ds_blkio_rwstat_parse("7:0 Read 5\n", 1, &cg), 0, "rwstat: 0");
	ok(cg.n == 0, "rwstat makes no device of its own");
	is_int(ds_iomax_parse("8:0 wbps=5", &cg), 0, "no final newline: 0");
	ok(cg.n == 1 && cg.l[0].lim[DS_LIM_WBPS] == 5,
	    "no final newline: the line counts");
	is_int(ds_iomax_parse("8:0 wbps=18446744073709551616\n8:0 wiops=+5\n",
	    &cg), 0, "past UINT64_MAX, a sign");
	is_u64(cg.bad, 2, "  both bad");
	free(cg.l);
}

static void
test_mounts(const struct ds_root *r)
{
	struct ds_cgmounts m;
	struct ds_iolimits s = { 0 };
	char path[4200];

	is_int(ds_cgmounts_find(r, "blkio", "io", &m), 0, "mounts: 0");
	is_str(m.v2, "/sys/fs/cgroup/unified", "mounts: v2 from the table");
	is_str(m.v1, "/sys/fs/cgroup/blkio",
	    "mounts: v1 blkio, the hierarchy's root before a part of it");
	is_int(ds_cgmounts_find(r, "cpu", "cpu", &m), 0, "cpu: 0");
	is_str(m.v1, "/sys/fs/cgroup/cpu,cpuacct", "cpu: in a list of two");
	is_str(m.v2, "/sys/fs/cgroup/unified", "cpu: v2 lists it");
	is_int(ds_cgmounts_find(r, "pids", "pids", &m), 0, "pids: 0");
	ok(m.v1[0] == '\0' && m.v2[0] == '\0',
	    "pids: no v1 mount, v2 without the controller");

	/* Hybrid hosts: v2 without controllers is not walked. */
	tree_put(V2 "cgroup.controllers", "\n");
	is_int(ds_iolimits_read(r, &s), 0, "v2 without io: 0");
	ok(s.hier == DS_CG_V1 && s.n == 3, "v2 without io: v1 only");

	/* No mount table: the hybrid layout guessed. */
	snprintf(path, sizeof(path), "%s/proc/self/mountinfo", tree_top);
	unlink(path);
	snprintf(path, sizeof(path), "%s/" V2 "cgroup.controllers", tree_top);
	unlink(path);
	is_int(ds_cgmounts_find(r, "blkio", "io", &m), 0, "guess: 0");
	is_str(m.v2, "sys/fs/cgroup/unified", "guess: v2 unified");
	is_str(m.v1, "sys/fs/cgroup/blkio", "guess: v1 with its tasks file");
	is_int(ds_iolimits_read(r, &s), 0, "guess: read");
	is_u64(s.n, 10, "guess: every entry");

	/* A table naming mounts the tree does not hold. */
	tree_put("proc/self/mountinfo", "40 30 0:37 / /nowhere rw - cgroup2 "
	    "cgroup2 rw\n41 30 0:38 / /gone rw - cgroup cgroup rw,blkio\n");
	is_int(ds_iolimits_read(r, &s), 0, "mounts not in the tree: 0");
	ok(s.hier == 0 && s.n == 0, "mounts not in the tree: nothing walked");
	tree_put("proc/self/mountinfo", mountinfo);
	ds_iolimits_free(&s);
}

static void
test_proc(void)
{
	static const char hybrid[] = "12:memory:/m/x\n7:blkio:/b\n"
	    "3:cpu,cpuacct:/c\n0::/u\n";
	static const struct {
		const char *text, *ctl;
		int e, v1;
		const char *path;
	} c[] = {
		{ hybrid, "memory", 0, 1, "/m/x" },
		{ hybrid, "io", 0, 1, "/b" },
		{ hybrid, "blkio", 0, 1, "/b" },
		{ "0::/only\n", "io", 0, 0, "/only" },
		{ "0::/only", "memory", 0, 0, "/only" },
		{ "4:blkio2:/z\n5:memoryx:/z\n0::/v2\n", "blkio", 0, 0, "/v2" },
		{ "3:cpu,blkio,memory:/shared\n", "memory", 0, 1, "/shared" },
		{ "1:name=systemd:/s\n", "io", -ENOENT, 0, NULL },
		{ "7:blkio:\n7:blkio:x\n0::\n", "io", -ENOENT, 0, NULL },
		{ "", "memory", -ENOENT, 0, NULL },
		{ hybrid, "cpu", -EINVAL, 0, NULL },
		{ "0::/a b\n", "io", 0, 0, "/a b" },
	};
	const char *p;
	char name[128];
	size_t len, i;
	int v1, e;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		p = NULL;
		v1 = -1;
		e = ds_proc_cgroup_for(c[i].text, c[i].ctl, &p, &len, &v1);
		snprintf(name, sizeof(name), "proc cgroup %zu (%s): %d", i,
		    c[i].ctl, c[i].e);
		if (c[i].e != 0) {
			is_int(e, c[i].e, name);
			continue;
		}
		ok(e == 0 && v1 == c[i].v1 && len == strlen(c[i].path) &&
		    memcmp(p, c[i].path, len) == 0, "%s, %s, v1 %d", name,
		    c[i].path, c[i].v1);
	}
}

/* Read-only on the live system: it reads, whatever it finds. */
static void
test_live(void)
{
	struct ds_iolimits s = { 0 };
	struct ds_root r;
	struct ds_buf b = { 0 };
	const char *p;
	size_t len;
	int v1;

	if (ds_root_open(&r, "/") < 0) {
		skip("live", "cannot open /");
		return;
	}
	is_int(ds_iolimits_read(&r, &s), 0, "live: read");
	ok(s.hier != 0 || access("/sys/fs/cgroup", F_OK) != 0,
	    "live: a hierarchy walked (hier %u, %zu limits)", s.hier, s.n);
	if (ds_read_file(&r, "proc/self/cgroup", &b) == 0)
		ok(ds_proc_cgroup_for(b.data, "io", &p, &len, &v1) == 0 &&
		    len > 0 && *p == '/', "live: this process's io cgroup");
	else
		skip("live: proc/self/cgroup", "unreadable");
	ds_buf_free(&b);
	ds_iolimits_free(&s);
	ds_root_close(&r);
}

int
main(void)
{
	struct ds_root r;

	tree();
	if (ds_root_open(&r, tree_top) < 0) {
		ok(0, "root opens");
		tree_remove();
		return tap_done();
	}
	test_tree(&r);
	test_rate();
	test_parsers();
	test_mounts(&r);
	test_proc();
	test_live();
	ds_root_close(&r);
	tree_remove();
	return tap_done();
}
