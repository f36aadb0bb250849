/*
 * The judgement of stalls that are not a disk's: io_uring's idle waits,
 * threads waiting for a request slot, a cgroup at its own I/O limit,
 * the dirty-page limit, memory that makes the reads, failing disks,
 * network mounts, and page-cache readers that read no file.
 */
#include <math.h>
#include <stdint.h>

#include "triage.h"

#define LOOKS 10

static struct ds_tr_task tasks[64];
static uint32_t look_fl[LOOKS];

/* n threads of pid waiting in wait at every look from first on. */
static size_t
stall(size_t at, int pid, const char *comm, int wait, int kthread, size_t n,
    unsigned int first)
{
	unsigned int l;
	size_t k;

	for (l = first; l < LOOKS; l++)
		for (k = 0; k < n && at < sizeof(tasks) / sizeof(tasks[0]); k++) {
			memset(&tasks[at], 0, sizeof(tasks[at]));
			tasks[at].pid = pid;
			tasks[at].tid = pid + (int)k;
			tasks[at].wait = wait;
			tasks[at].kthread = kthread;
			tasks[at].look = l;
			snprintf(tasks[at].comm, sizeof(tasks[at].comm), "%s", comm);
			at++;
		}
	return at;
}

/* Tasks come in look order: sort what stall() appended. */
static void
by_look(size_t n)
{
	struct ds_tr_task t;
	size_t i, k;

	for (i = 1; i < n; i++) {
		t = tasks[i];
		for (k = i; k > 0 && tasks[k - 1].look > t.look; k--)
			tasks[k] = tasks[k - 1];
		tasks[k] = t;
	}
}

static void
looks(struct ds_triage_in *in, size_t ntask, uint32_t inflight)
{
	size_t l;

	for (l = 0; l < LOOKS; l++)
		look_fl[l] = inflight;
	by_look(ntask);
	in->task = tasks;
	in->ntask = ntask;
	in->nlooks = LOOKS;
	in->look_inflight = look_fl;
}

/* The pipe waiter: PSI io 99.5%, one thread in io_uring, no disk I/O. */
static void
t_uring_idle(void)
{
	struct ds_triage_in in;
	struct ds_tr_dev d;
	struct ds_tr_proc p;
	uint32_t fl[50] = { 0 };
	uint32_t blocked[50];
	size_t i;

	for (i = 0; i < 50; i++)
		blocked[i] = 1;
	in_init(&in, 99.5);
	in.io.full = 99.5;
	dev_init(&d, "vda");
	d.inflight = fl;
	d.ninflight = 50;
	in.dev = &d;
	in.ndev = 1;
	proc(&p, 4242, "uringwait", 0, 0.99);
	in.proc = &p;
	in.nproc = 1;
	in.blocked = blocked;
	in.nblocked = 50;
	in.have_iowait = 1;
	in.iowait_pct = 50;
	in.kernel = "6.18.44-fc";
	looks(&in, stall(0, 4242, "uringwait", DS_WAIT_URING, 0, 1, 0), 0);
	is_int(run(&in), 0, "uring idle: triage runs");
	is_int(ds_triage_exit(&out), 0, "uring idle: exit 0");
	ok(out.worst < DS_TR_WARN, "uring idle: nothing at warn");
	ok(row("io-pressure", "io") != NULL &&
	    row("io-pressure", "io")->sev == DS_TR_INFO,
	    "uring idle: io-pressure only info");
	ok(has_text(row("io-pressure", "io"), "io_uring"),
	    "uring idle: io-pressure says io_uring");
	ok(row("io-uring-wait", "4242 uringwait") != NULL,
	    "uring idle: an io-uring-wait row names the process");
	ok(has_text(row("io-uring-wait", NULL), "IORING_ENTER_NO_IOWAIT") &&
	    has_text(row("io-uring-wait", NULL), "this kernel, 6.18.44-fc, has "
	    "it"), "uring idle: the opt-out, which this kernel has");
	ok(has_text(row("procs-blocked", NULL), "io_uring"),
	    "procs-blocked says what it counts");
	ok(strstr(out.f[0].evidence, "no disk holds anything up") != NULL &&
	    strstr(out.f[0].evidence, "io_uring") != NULL,
	    "uring idle: the verdict clears the disks, names io_uring");
	in.kernel = "6.1.40";
	run(&in);
	ok(has_text(row("io-uring-wait", NULL), "from Linux 6.15 (this kernel "
	    "is 6.1.40)"), "an older kernel: the opt-out comes with 6.15");

	/* The same waits while the process reads its disk: a disk's. */
	in.kernel = "6.18";
	proc(&p, 4242, "uringwait", 40e6, 0.99);
	looks(&in, stall(0, 4242, "uringwait", DS_WAIT_URING, 0, 1, 0), 4);
	run(&in);
	ok(row("io-uring-wait", NULL) == NULL,
	    "io_uring waits of a process that reads a disk: no such row");
	ok(row("io-pressure", "io")->sev == DS_TR_CRIT,
	    "and io-pressure keeps its severity");
}

/* Two io_uring jobs of depth 4 on a 4-slot disk: workers wait for tags. */
static void
t_uring_tags(void)
{
	struct ds_triage_in in;
	struct ds_tr_dev d;
	struct ds_tr_proc p[2];
	struct ds_tr_lat lat;
	uint32_t fl[40];
	size_t i, n;

	for (i = 0; i < 40; i++)
		fl[i] = 4;
	in_init(&in, 95);
	dev_init(&d, "loop9");
	d.nr_requests = 4;
	reads(&d, 390, 10.3, 4, 100, 10);
	d.inflight = fl;
	d.ninflight = 40;
	memset(&lat, 0, sizeof(lat));
	lat.count = 3900;
	lat.d2c_mean = 10300;
	lat.q2c_mean = 12700;
	d.lat = &lat;
	in.have_dlat = 1;
	in.dev = &d;
	in.ndev = 1;
	proc(&p[0], 500, "fio", 780e3, 0.9);
	proc(&p[1], 501, "fio", 780e3, 0.9);
	in.proc = p;
	in.nproc = 2;
	n = stall(0, 500, "fio", DS_WAIT_URING, 0, 1, 0);
	n = stall(n, 501, "fio", DS_WAIT_URING, 0, 1, 0);
	n = stall(n, 500, "iou-wrk-500", DS_WAIT_TAG, 0, 3, 0);
	looks(&in, n, 4);
	run(&in);
	ok(row("saturated", "loop9") != NULL,
	    "tag waits at the limit: saturated though q2c shows no wait");
	is_int(ds_triage_exit(&out), 3, "tag waits at the limit: exit 3");
	ok(has_text(row("saturated", "loop9"), "blk_mq_get_tag") &&
	    has_text(row("saturated", "loop9"), "cannot see"),
	    "saturated: says the slot waits and why q2c misses them");
	ok(row("io-uring-wait", NULL) == NULL,
	    "io_uring readers of a disk: no io-uring-wait row");
	ok(strstr(out.f[0].evidence, "saturated at its request limit") != NULL,
	    "the verdict: the disk, saturated");
	/* The same without the tag waits: busy, as before. */
	looks(&in, stall(0, 500, "fio", DS_WAIT_URING, 0, 1, 0), 4);
	run(&in);
	ok(row("saturated", NULL) == NULL && row("busy", "loop9") != NULL,
	    "pinned, q2c shows no wait, no tag waits: busy");
	/*
	 * Sync readers sleeping for a tag: their bios keep the queue time,
	 * q2c holds the wait even under 1.5 d2c; nothing said it misses.
	 */
	lat.q2c_mean = 14000;
	n = stall(0, 500, "fio", DS_WAIT_TAG, 0, 2, 0);
	n = stall(n, 501, "fio", DS_WAIT_TAG, 0, 2, 0);
	looks(&in, n, 4);
	run(&in);
	ok(has_text(row("saturated", "loop9"), "blk_mq_get_tag") &&
	    has_text(row("saturated", "loop9"), "q2c 14.0 ms against d2c "
	    "10.3 ms shows 3.7 ms of it") &&
	    !has_text(row("saturated", "loop9"), "cannot see"),
	    "sync tag waits: saturated, q2c shows part of the wait");
}

/* Readers held at 50 reads/s by their cgroup on a disk serving 400. */
static void
t_cgroup_limit(void)
{
	struct ds_triage_in in;
	struct ds_tr_dev d;
	struct ds_tr_proc p[3];
	struct ds_tr_iolim l;
	int pids[2] = { 700, 701 };
	uint32_t fl[50];
	size_t i, n;

	for (i = 0; i < 50; i++)
		fl[i] = i % 2;
	in_init(&in, 98.8);
	dev_init(&d, "loop3");
	reads(&d, 50, 10, 0.5, 20, 10);
	d.inflight = fl;
	d.ninflight = 50;
	d.load.pid = 90;
	snprintf(d.load.comm, sizeof(d.load.comm), "kworker/0:1");
	d.load.bytes = 2048000;
	d.load.total = 2048000;
	in.have_dlat = 1;
	in.dev = &d;
	in.ndev = 1;
	proc(&p[0], 700, "fio", 102400, 0.98);
	proc(&p[1], 701, "fio", 102400, 0.98);
	proc(&p[2], 90, "kworker/0:1", 0, 0);
	p[2].kthread = 1;
	in.proc = p;
	in.nproc = 3;
	memset(&l, 0, sizeof(l));
	l.cgroup = "/t7010/throttled";
	l.v1 = 1;
	l.disk = "loop3";
	l.lim[0] = l.lim[1] = l.lim[3] = UINT64_MAX;
	l.lim[2] = 50;
	l.rate[2] = 49.8;
	l.rate[0] = 49.8 * 4096;
	l.have_rate = 1;
	l.cost_wait = -1;
	l.pids = pids;
	l.npids = 2;
	in.iolim = &l;
	in.niolim = 1;
	n = stall(0, 700, "fio", DS_WAIT_BLOCK, 0, 1, 0);
	n = stall(n, 701, "fio", DS_WAIT_BLOCK, 0, 1, 0);
	looks(&in, n, 1);
	run(&in);
	ok(row("cgroup-limit", "/t7010/throttled") != NULL &&
	    row("cgroup-limit", "/t7010/throttled")->sev == DS_TR_WARN,
	    "held at 50 r/s: a cgroup-limit row at warn, the cgroup named");
	ok(has_text(row("cgroup-limit", NULL), "read_iops_device=50") &&
	    has_text(row("cgroup-limit", NULL), "49.8 reads/s"),
	    "cgroup-limit: the limit and the rate");
	ok(has_text(row("cgroup-limit", NULL), "loop3 has headroom"),
	    "cgroup-limit: the disk has headroom");
	ok(row("saturated", NULL) == NULL, "the disk is not called saturated");
	ok(row("load", "700 fio") != NULL && row("load", "90 kworker/0:1") ==
	    NULL, "the load: a reader, not the worker that releases the bios");
	ok(has_text(row("load", "700 fio"), "released by kworker/0:1"),
	    "the load row says who dispatched");
	ok(strstr(out.f[0].evidence, "cgroup /t7010/throttled are held by "
	    "their own I/O limit (on loop3: read_iops_device=50") != NULL,
	    "the verdict: the cgroup's own limit");
	is_str(out.f[0].subject, "/t7010/throttled", "verdict subject: the "
	    "cgroup");
	/* Under 90% of the limit: no row. */
	l.rate[2] = 40;
	run(&in);
	ok(row("cgroup-limit", NULL) == NULL, "at 80%% of its limit: no row");
	/* io.latency holding its depth; iocost making it wait. */
	l.lat_depth = 2;
	run(&in);
	ok(has_text(row("cgroup-limit", "/t7010/throttled"), "held by "
	    "io.latency on loop3: its queue depth cut to 2"),
	    "io.latency's depth below max: a cgroup-limit row");
	l.lat_depth = 0;
	l.cost_wait = 0.3;
	run(&in);
	ok(has_text(row("cgroup-limit", "/t7010/throttled"), "held by iocost "
	    "on loop3: its I/O waited for its share 30% of the window"),
	    "iocost's cost.wait 30%% of the window: a cgroup-limit row");
	ok(strstr(out.f[0].evidence, "held by their own I/O limit (on loop3: "
	    "its I/O waited") != NULL, "the verdict: iocost");
	l.cost_wait = -1;
}

/* A buffered writer held by a 16 MiB dirty limit. */
static void
t_dirty(void)
{
	struct ds_triage_in in;
	struct ds_tr_dev d;
	struct ds_tr_proc p[2];
	uint32_t fl[50];
	size_t i;

	for (i = 0; i < 50; i++)
		fl[i] = 4;
	in_init(&in, 60);
	dev_init(&d, "loop4");
	fig(&d.x, DS_X_WS, 100);
	fig(&d.x, DS_X_WKBS, 4096);
	fig(&d.x, DS_X_AQUSZ, 4);
	fig(&d.x, DS_X_UTIL, 100);
	d.x.completed = 1000;
	d.inflight = fl;
	d.ninflight = 50;
	in.dev = &d;
	in.ndev = 1;
	proc(&p[0], 800, "dd", 0, 0.9);
	p[0].rate.v[DS_WR_WRITE] = 12.8 * 1048576;
	p[0].rate.v[DS_WR_RCHAR] = 12.8 * 1048576;
	proc(&p[1], 91, "kworker/u8:4", 0, 0);
	p[1].kthread = 1;
	p[1].rate.v[DS_WR_WRITE] = 4194304;
	in.proc = p;
	in.nproc = 2;
	in.dirty.have = 1;
	in.dirty.dirty = 12 << 20;
	in.dirty.writeback = 4 << 20;
	in.dirty.thresh = 16 << 20;
	in.dirty.bg_thresh = 8 << 20;
	in.dirty.bytes = 16777216;
	in.dirty.bg_bytes = 8388608;
	in.dirty.written_bps = 4194304;
	looks(&in, stall(0, 800, "dd", DS_WAIT_DIRTY, 0, 1, 1), 4);
	run(&in);
	ok(row("dirty-throttled", "800 dd") != NULL &&
	    row("dirty-throttled", "800 dd")->sev == DS_TR_WARN,
	    "the writer named as held by the dirty limit, at warn");
	ok(has_text(row("dirty-throttled", NULL), "vm.dirty_bytes 16777216") &&
	    has_text(row("dirty-throttled", NULL), "16.0 MiB"),
	    "dirty-throttled: the limit and the setting behind it");
	ok(has_text(row("dirty-throttled", NULL), "9 of 10 looks"),
	    "dirty-throttled: the looks it was held in");
	ok(strstr(out.f[0].evidence, "dirty-page limit") != NULL &&
	    strstr(out.f[0].evidence, "800 dd") != NULL,
	    "the verdict: the dirty limit and the writer");
	/* Held once in ten looks: not a row. */
	looks(&in, stall(0, 800, "dd", DS_WAIT_DIRTY, 0, 1, 9), 4);
	run(&in);
	ok(row("dirty-throttled", NULL) == NULL, "held in 1 look of 10: no row");
	/* Reading /dev/zero is no page-cache reading. */
	ok(row("page-cache", NULL) != NULL, "without its descriptors: the "
	    "writer's rchar looks like a page-cache reader");
	{
		struct ds_tr_fds fd;

		memset(&fd, 0, sizeof(fd));
		fd.pid = 800;
		fd.other = 3;
		in.fds = &fd;
		in.nfds = 1;
		run(&in);
		ok(row("page-cache", NULL) == NULL, "with only /dev/zero and "
		    "pipes open: no page-cache row");
		fd.cached = 1;
		run(&in);
		ok(row("page-cache", "800 dd") != NULL, "with a file open: the "
		    "page-cache row");
		in.fds = NULL;
		in.nfds = 0;
	}
}

/* A cgroup at its 64 MiB memory limit whose refaults are the reads. */
static void
t_thrash(void)
{
	struct ds_triage_in in;
	struct ds_tr_dev d;
	struct ds_tr_memcg m;
	uint32_t fl[50];
	size_t i;

	for (i = 0; i < 50; i++)
		fl[i] = 2;
	in_init(&in, 70);
	in.mem.some = 24;
	dev_init(&d, "loop5");
	reads(&d, 7277, 0.3, 2, 95, 10);
	d.inflight = fl;
	d.ninflight = 50;
	in.dev = &d;
	in.ndev = 1;
	memset(&m, 0, sizeof(m));
	m.cgroup = "/t7010/small";
	m.v1 = 1;
	m.limit = 64 << 20;
	m.usage = (64 << 20) - 4096;
	m.refault_bps = 7277.0 * 4096;
	m.have_refault = 1;
	m.failcnt = 12;
	in.memcg = &m;
	in.nmemcg = 1;
	run(&in);
	ok(row("memory-thrash", "/t7010/small") != NULL &&
	    row("memory-thrash", "/t7010/small")->sev == DS_TR_WARN,
	    "a cgroup at its memory limit refaulting: memory-thrash at warn");
	ok(has_text(row("memory-thrash", NULL), "64.0 MiB") &&
	    has_text(row("memory-thrash", NULL), "memory.limit_in_bytes"),
	    "memory-thrash: the limit named");
	ok(has_text(row("memory-thrash", NULL), "100% of the disks' reads"),
	    "memory-thrash: its share of the reads");
	ok(strstr(out.f[0].evidence, "memory is the cause") != NULL &&
	    strstr(out.f[0].evidence, "/t7010/small") != NULL,
	    "the verdict: memory the cause, the cgroup named");
	m.usage = 32 << 20;
	run(&in);
	ok(row("memory-thrash", NULL) == NULL, "below its limit: no row");
}

/* A disk that fails reads, and is slow at it. */
static void
t_errors(void)
{
	struct ds_triage_in in;
	struct ds_tr_dev d;
	struct ds_tr_err e;
	struct ds_base_dev b;

	in_init(&in, 30);
	dev_init(&d, "loop6");
	reads(&d, 20, 90, 1, 60, 10);
	memset(&b, 0, sizeof(b));
	b.quiet_r = 10;
	b.r_await = 10;
	b.aqu = 1;
	d.base = &b;
	in.have_base = 1;
	in.dev = &d;
	in.ndev = 1;
	run(&in);
	ok(row("slow", "loop6") != NULL, "slow without errors");
	memset(&e, 0, sizeof(e));
	e.disk = "loop6";
	e.count = 40;
	e.sector = 2048;
	e.have_sector = 1;
	e.op = "READ";
	e.kind = "I/O error";
	e.suppressed = 3;
	in.err = &e;
	in.nerr = 1;
	run(&in);
	ok(row("io-errors", "loop6") != NULL &&
	    row("io-errors", "loop6")->sev == DS_TR_CRIT &&
	    row("io-errors", "loop6")->value == 40,
	    "40 I/O errors: a crit row with the count");
	ok(has_text(row("io-errors", NULL), "at sector 2048 (READ)") &&
	    has_text(row("io-errors", NULL), "3 more messages suppressed"),
	    "io-errors: the first sector, the op, the suppressed");
	ok(row("slow", NULL) == NULL, "failing, not slow");
	ok(strstr(out.f[0].evidence, "loop6 is failing") != NULL,
	    "the verdict: the disk is failing");
	in.err = NULL;
	in.nerr = 0;
	in.err_why = "needs CAP_SYSLOG";
	run(&in);
	ok(row("unreadable", "kmsg") != NULL, "the kernel log unread: said");
}

/* Readers of a FUSE mount's files, no local disk busy. */
static void
t_netfs(void)
{
	struct ds_triage_in in;
	struct ds_tr_proc p;
	struct ds_tr_fds fd;
	size_t n;

	in_init(&in, 40);
	proc(&p, 900, "cat", 1e6, 0.9);
	in.proc = &p;
	in.nproc = 1;
	memset(&fd, 0, sizeof(fd));
	fd.pid = 900;
	fd.cached = 1;
	fd.netfs = "/mnt/lab";
	fd.netfs_type = "fuse.fusedisk";
	fd.netfs_only = 1;
	in.fds = &fd;
	in.nfds = 1;
	n = stall(0, 900, "cat", DS_WAIT_BLOCK, 0, 1, 0);
	/* A loop worker in a FUSE wait serves a disk: not the mount's. */
	n = stall(n, 77, "kworker/u8:1", DS_WAIT_FUSE, 1, 1, 5);
	looks(&in, n, 0);
	run(&in);
	ok(row("netfs-wait", "/mnt/lab") != NULL &&
	    row("netfs-wait", "/mnt/lab")->sev == DS_TR_WARN,
	    "page-cache waits on FUSE files: netfs-wait names the mount");
	ok(has_text(row("netfs-wait", NULL), "fuse.fusedisk"),
	    "netfs-wait: the filesystem type");
	ok(strstr(out.f[0].evidence, "not a local disk") != NULL,
	    "the verdict: not a local disk");
	fd.netfs_only = 0;
	run(&in);
	ok(row("netfs-wait", NULL) == NULL,
	    "a process with local files too: its page-cache waits are not "
	    "the mount's");
}

int
main(void)
{
	t_uring_idle();
	t_uring_tags();
	t_cgroup_limit();
	t_dirty();
	t_thrash();
	t_errors();
	t_netfs();
	ds_findings_free(&out);
	return tap_done();
}
