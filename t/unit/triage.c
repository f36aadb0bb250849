/* dtriage's judgement: every rule and its boundaries, on figures given. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tap.h"
#include "triage.h"

static void
t_idle(void)
{
	struct ds_triage_in in;
	struct ds_tr_dev d[2];
	struct ds_tr_fs fs;
	uint32_t fl[20] = { 0 };

	in_init(&in, 0.3);
	dev_init(&d[0], "vda");
	dev_init(&d[1], "vdb");
	d[0].inflight = fl;
	d[0].ninflight = 20;
	in.dev = d;
	in.ndev = 2;
	memset(&fs, 0, sizeof(fs));
	fs.mount = "/";
	fs.have_stat = 1;
	fs.st.frsize = 4096;
	fs.st.blocks = 1000000;
	fs.st.bfree = 600000;
	fs.st.bavail = 550000;
	fs.st.files = 100000;
	fs.st.ffree = 90000;
	fs.have_deleted = 1;
	in.fs = &fs;
	in.nfs = 1;
	in.have_iowait = 1;
	in.iowait_pct = 0.5;
	is_int(run(&in), 0, "idle: triage runs");
	is_int(ds_triage_exit(&out), 0, "idle: exit 0");
	ok(out.worst < DS_TR_WARN, "idle: nothing at warn");
	is_str(out.f[0].finding, "verdict", "idle: verdict first");
	ok(strstr(out.f[0].evidence, "holds nothing up") != NULL,
	    "idle: the verdict says the disk holds nothing up");
	is_int((int)(out.f[0].value * 1000 + 0.5), 3, "idle: verdict value is "
	    "io some 0.003");
	is_int((int)count("device-ok") + (int)count("busy"), 0,
	    "idle: no row for devices without I/O");
	ok(row("io-pressure", "io") != NULL &&
	    row("io-pressure", "io")->sev == DS_TR_OK, "idle: io-pressure ok");
	ok(row("iowait", "cpu") != NULL && row("iowait", "cpu")->sev ==
	    DS_TR_INFO, "idle: iowait shown as info");
	ok(has_text(row("iowait", "cpu"), "falls when the CPUs are busy"),
	    "iowait: shown with its meaning");
	ok(row("fs-full", NULL) == NULL && row("deleted-held", NULL) == NULL,
	    "idle: no filesystem rows");
	ok(row("memory-pressure", NULL) == NULL, "idle: no memory row");
}

/* 1 reader on a 4-slot 10 ms disk: %util ~100, not saturated. */
static void
t_one_reader(void)
{
	struct ds_triage_in in;
	struct ds_tr_dev d;
	struct ds_tr_proc p;
	uint32_t fl[50];
	size_t i;

	for (i = 0; i < 50; i++)
		fl[i] = 1;
	in_init(&in, 48);
	dev_init(&d, "loop7");
	d.nr_requests = 4;
	reads(&d, 98.0, 10.14, 0.99, 99.6, 10);
	d.inflight = fl;
	d.ninflight = 50;
	in.dev = &d;
	in.ndev = 1;
	proc(&p, 501, "fio", 98.0 * 4096, 0.99);
	in.proc = &p;
	in.nproc = 1;
	is_int(run(&in), 0, "one reader: runs");
	ok(row("saturated", NULL) == NULL, "one reader: not saturated");
	ok(row("busy", "loop7") != NULL, "one reader: busy");
	is_int((int)(row("busy", "loop7")->value * 1000 + 0.5), 996,
	    "busy: value is %util as a ratio");
	ok(has_text(row("busy", "loop7"), "not saturated"),
	    "busy: says not saturated");
	is_int(row("busy", "loop7")->sev, DS_TR_INFO, "busy is info");
	ok(row("load", "501 fio") != NULL, "one reader: fio is the load");
	ok(row("sufferer", "501 fio") != NULL, "one reader: fio suffers");
	ok(strstr(out.f[0].evidence, "not shown to be saturated") != NULL,
	    "verdict: held up but not saturated");
}

/* none, nr_requests = 4 slots, 8 readers: saturated at the limit. */
static void
sat_limit_in(struct ds_triage_in *in, struct ds_tr_dev *d, uint32_t *fl,
    struct ds_tr_proc *p, struct ds_tr_lat *lat)
{
	static char comm[8][16];
	size_t i;

	for (i = 0; i < 50; i++)
		fl[i] = 4;
	in_init(in, 97);
	dev_init(d, "loop7");
	d->nr_requests = 4;
	d->sched = "none";
	reads(d, 400.0, 10.0, 4.0, 100.0, 10);
	d->inflight = fl;
	d->ninflight = 50;
	lat->d2c_mean = 10000;
	lat->q2c_mean = 20000;
	lat->d2c_p99 = 10100;
	lat->q2c_p99 = 20200;
	lat->count = 4000;
	d->lat = lat;
	/* dlat's who map: fio 600 the largest of 8 equal submitters. */
	d->load.pid = 600;
	snprintf(d->load.comm, sizeof(d->load.comm), "fio");
	d->load.bytes = 51 * 4096 * 10;
	d->load.total = 8 * 50 * 4096 * 10 + 4096 * 10;
	in->dev = d;
	in->ndev = 1;
	for (i = 0; i < 8; i++) {
		snprintf(comm[i], sizeof(comm[i]), "fio");
		proc(&p[i], 600 + (int)i, comm[i], 50.0 * 4096, 1.0);
	}
	in->proc = p;
	in->nproc = 8;
	in->have_dlat = 1;
}

static void
t_sat_limit(void)
{
	struct ds_triage_in in;
	struct ds_tr_dev d;
	struct ds_tr_proc p[8];
	struct ds_tr_lat lat;
	const struct ds_finding *f;
	uint32_t fl[50];

	sat_limit_in(&in, &d, fl, p, &lat);
	is_int(run(&in), 0, "limit: runs");
	f = row("saturated", "loop7");
	ok(f != NULL, "limit: saturated");
	if (f == NULL)
		dump();
	is_int(f ? (int)f->sev : -1, DS_TR_CRIT, "limit: crit with io some 97%");
	is_int(f ? (int)(f->value * 1e6 + 0.5) : 0, 20000,
	    "limit: value is q2c, 0.020 s");
	ok(has_text(f, "at the request limit"), "limit: names its evidence");
	ok(has_text(f, "q2c 20.0 ms against d2c 10.0 ms"),
	    "limit: the hidden wait shown");
	ok(has_text(f, "50 of 50 samples"), "limit: samples at the limit");
	is_str(f ? f->next : "", "dlat 5 1 loop7", "limit: next is dlat");
	is_int(ds_triage_exit(&out), 3, "limit: exit 3");
	is_int((int)count("load"), 1, "limit: dlat names the device's load");
	ok(row("load", "600 fio") != NULL, "limit: fio 600 is load");
	is_int(row("load", "600 fio") ? (int)(row("load", "600 fio")->value +
	    0.5) : 0, 51 * 4096, "load: value bytes/s, from dlat");
	ok(has_text(row("load", "600 fio"), "on loop7: submitted 13% of its "
	    "block I/O (204.0 KiB/s of 1.6 MiB/s)"),
	    "load: per device, its share from dlat");
	ok(!has_text(row("load", "600 fio"), "from /proc"),
	    "load from dlat: no /proc caveat");
	ok(row("no-latency", NULL) == NULL, "with dlat: no no-latency row");
	is_int((int)count("sufferer"), 3, "limit: three sufferers named");
	is_str(out.f[0].finding, "verdict", "limit: verdict first");
	is_str(out.f[0].subject, "loop7", "verdict subject: the device blamed");
	ok(strstr(out.f[0].evidence, "loop7 is saturated at its request "
	    "limit") != NULL,
	    "verdict names the saturated device");
	ok(strstr(out.f[0].evidence, "load: 600 fio") != NULL,
	    "verdict names the load");
	is_int(out.f[0].sev, DS_TR_CRIT, "verdict takes the worst severity");
	is_str(out.f[0].next, "dlat 5 1 loop7", "verdict: the device's next");
	is_int(out.f[1].sev, DS_TR_CRIT, "rows sorted by severity");

	/* Without dlat: 8 tasks waiting for 4 slots is the hidden queue. */
	d.lat = NULL;
	in.have_dlat = 0;
	run(&in);
	f = row("saturated", "loop7");
	ok(f != NULL && has_text(f, "8.0 tasks waiting on I/O for 4 slots"),
	    "limit without dlat: saturated by waiters over slots");
	is_int((int)count("load"), 3, "without dlat: three loaders from /proc");
	is_int(row("load", "600 fio") ? (int)(row("load", "600 fio")->value +
	    0.5) : 0, 50 * 4096, "load from /proc: value bytes/s");
	ok(has_text(row("load", "600 fio"), "(from /proc: includes children "
	    "reaped in the window, no device named)"),
	    "load from /proc: the caveat said");
	ok(row("no-latency", NULL) == NULL, "no reason given: no no-latency row");
	in.dlat_why = "needs CAP_BPF and CAP_PERFMON, or root";
	run(&in);
	ok(has_text(row("no-latency", "-"), "block-latency tracing could not "
	    "run (needs CAP_BPF"), "no-latency: why, once");
	is_int((int)count("no-latency"), 1, "no-latency: one row");
	in.dlat_why = NULL;
	is_int(f ? (int)(f->value * 1e3 + 0.5) : 0, 10,
	    "limit without dlat: value is r_await 0.010 s");

	/* Only 5 waiters for 4 slots: under 1.5x, not proof. */
	in.nproc = 5;
	run(&in);
	ok(row("saturated", NULL) == NULL && row("at-limit", "loop7") != NULL,
	    "5 waiters on 4 slots: at-limit, not saturated");
	ok(has_text(row("at-limit", "loop7"), "needs dlat"),
	    "at-limit: says dlat would tell");
	ok(has_text(row("at-limit", "loop7"), "5.0 tasks waiting on I/O for "
	    "4 slots;") && !has_text(row("at-limit", "loop7"), "the rest wait"),
	    "at-limit: the waiters said, no hidden queue claimed");
	is_int(row("at-limit", "loop7")->sev, DS_TR_WARN,
	    "at-limit with pressure: warn");
	in.nproc = 8;

	/* Delay accounting off: no waiters known either. */
	in.delayacct = 0;
	run(&in);
	ok(row("saturated", NULL) == NULL && row("at-limit", "loop7") != NULL,
	    "no dlat, no delay accounting: at-limit");
	ok(row("delayacct-off", NULL) != NULL &&
	    has_text(row("delayacct-off", NULL), "kernel.task_delayacct=1"),
	    "delayacct-off says how to turn it on");
	ok(row("sufferer", NULL) == NULL, "no sufferers without accounting");
	in.delayacct = 1;

	/* dlat shows no wait before dispatch: only busy. */
	lat.q2c_mean = 10300;
	d.lat = &lat;
	run(&in);
	ok(row("saturated", NULL) == NULL && row("at-limit", NULL) == NULL &&
	    row("queue-long", NULL) == NULL && row("busy", "loop7") != NULL,
	    "q2c ~ d2c: busy, not saturated");
	ok(has_text(row("busy", "loop7"), "no wait before dispatch"),
	    "busy at the limit: dlat shows no wait");

	/* q2c exactly 1.5x d2c: saturated; just below: not. */
	lat.q2c_mean = 15000;
	run(&in);
	ok(row("saturated", "loop7") != NULL, "q2c = 1.5 x d2c: saturated");
	lat.q2c_mean = 14990;
	run(&in);
	ok(row("saturated", "loop7") == NULL, "q2c < 1.5 x d2c: not");
	lat.q2c_mean = 20000;

	/* 75% of samples at the limit is most; 74% is not. */
	{
		size_t i;

		for (i = 0; i < 50; i++)
			fl[i] = i < 37 ? 4 : 3;	/* 74% */
		run(&in);
		ok(row("saturated", NULL) == NULL, "74%% at the limit: not");
		for (i = 0; i < 40; i++)
			fl[i] = i < 30 ? 4 : 3;	/* 75% */
		d.ninflight = 40;
		run(&in);
		ok(row("saturated", NULL) != NULL, "75%% at the limit: pinned");
		d.ninflight = 4;
		run(&in);
		ok(row("saturated", NULL) == NULL,
		    "4 samples are too few to call pinned");
		d.ninflight = 50;
	}
}

/* 8 readers, nr_requests large: latency against the quiet-time baseline. */
static void
t_sat_latency(void)
{
	struct ds_triage_in in;
	struct ds_tr_dev d;
	struct ds_base_dev b;
	struct ds_tr_proc p;
	const struct ds_finding *f;
	uint32_t fl[50];
	size_t i;

	for (i = 0; i < 50; i++)
		fl[i] = 8;
	in_init(&in, 95);
	in.have_base = 1;
	dev_init(&d, "loop7");
	d.nr_requests = 256;
	d.sched = "mq-deadline";
	reads(&d, 399.7, 19.97, 7.98, 100.0, 10);
	d.inflight = fl;
	d.ninflight = 50;
	memset(&b, 0, sizeof(b));
	snprintf(b.name, sizeof(b.name), "loop7");
	b.quiet_r = 5;
	b.r_await = 10.1;
	b.aqu = 1.0;
	d.base = &b;
	in.dev = &d;
	in.ndev = 1;
	proc(&p, 700, "fio", 400 * 4096, 1.0);
	in.proc = &p;
	in.nproc = 1;
	run(&in);
	f = row("saturated", "loop7");
	ok(f != NULL && has_text(f, "by latency"), "latency: saturated");
	if (f == NULL)
		dump();
	ok(has_text(f, "r_await 20.0 ms against 10.1 ms quiet-time"),
	    "latency: names await and its quiet time");
	ok(has_text(f, "aqu-sz 8.0 against 1.0 quiet"),
	    "latency: names the queue against quiet");
	is_int(f ? (int)(f->value * 1e5 + 0.5) : 0, 1997,
	    "latency: value is r_await 0.01997 s");
	is_int(ds_triage_exit(&out), 3, "latency: exit 3");

	/* The same load without a baseline: a long queue, not saturation. */
	d.base = NULL;
	in.have_base = 0;
	run(&in);
	f = row("queue-long", "loop7");
	ok(row("saturated", NULL) == NULL, "no baseline: not saturated");
	ok(f != NULL, "no baseline: queue-long");
	is_int(f ? (int)(f->value * 100 + 0.5) : 0, 798,
	    "queue-long: value aqu-sz 7.98");
	ok(has_text(f, "parallelism is unknown"), "queue-long: says so");
	ok(f != NULL && strstr(f->next, "dxstat -s -w /var/lib/diskstat/") ==
	    f->next, "queue-long: next starts a baseline");
	is_int(f ? (int)f->sev : -1, DS_TR_WARN, "queue-long with pressure: warn");
	in.io.some = 1;
	in.io.full = 0;
	run(&in);
	is_int(row("queue-long", "loop7")->sev, DS_TR_INFO,
	    "queue-long without pressure: info");
	ok(strstr(out.f[0].evidence, "not the problem") != NULL,
	    "verdict: busy without pressure is not the problem");
	in.io.some = 95;
	d.base = &b;

	/* Baseline, but the queue is served at the quiet latency. */
	fig(&d.x, DS_X_RAWAIT, 10.3);
	run(&in);
	ok(row("saturated", NULL) == NULL && row("busy", "loop7") != NULL &&
	    has_text(row("busy", "loop7"), "in parallel"),
	    "queue of 8 at quiet latency: busy in parallel");

	/* Boundary: 1.5x the quiet latency saturates, just under does not. */
	fig(&d.x, DS_X_RAWAIT, 15.15);
	run(&in);
	ok(row("saturated", NULL) != NULL, "await = 1.5 x quiet: saturated");
	fig(&d.x, DS_X_RAWAIT, 15.14);
	run(&in);
	ok(row("saturated", NULL) == NULL, "await < 1.5 x quiet: not");
	/* The queue must be twice the quiet one. */
	fig(&d.x, DS_X_RAWAIT, 19.97);
	b.aqu = 4.0;
	run(&in);
	ok(row("saturated", NULL) == NULL, "queue under twice quiet: not");
	ok(has_text(row("busy", "loop7"), "is not twice its quiet 4.0"),
	    "busy: says which half of the evidence is missing");
	b.aqu = 1.0;
	/* Too few quiet intervals: no baseline. */
	b.quiet_r = 2;
	run(&in);
	ok(row("saturated", NULL) == NULL && row("queue-long", NULL) != NULL,
	    "2 quiet intervals are no baseline");
	b.quiet_r = 5;
	/* Too few requests in the window to measure. */
	reads(&d, 4.0, 19.97, 7.98, 100.0, 10);
	run(&in);
	ok(row("saturated", NULL) == NULL,
	    "40 requests in the window: latency rule not used");
	reads(&d, 5.0, 19.97, 7.98, 100.0, 10);
	run(&in);
	ok(row("saturated", NULL) != NULL, "50 requests: used");

	/* Slow: 3x the quiet latency at the quiet queue. */
	reads(&d, 50.0, 31.0, 1.5, 100.0, 10);
	run(&in);
	ok(row("slow", "loop7") != NULL && row("saturated", NULL) == NULL,
	    "3x quiet latency at quiet queue: slow");
	is_int(row("slow", "loop7")->sev, DS_TR_WARN, "slow is warn");
}

static void
t_sync_writes(void)
{
	struct ds_triage_in in;
	struct ds_tr_dev d;
	struct ds_tr_proc p[2];
	const struct ds_finding *f;

	in_init(&in, 30);
	dev_init(&d, "vdb");
	fig(&d.x, DS_X_WS, 200);
	fig(&d.x, DS_X_WKBS, 800);
	fig(&d.x, DS_X_WAREQSZ, 4);
	fig(&d.x, DS_X_WRQM_PCT, 0);
	fig(&d.x, DS_X_WAWAIT, 0.45);
	fig(&d.x, DS_X_FS, 200);
	fig(&d.x, DS_X_FAWAIT, 0.3);
	fig(&d.x, DS_X_AQUSZ, 0.95);
	fig(&d.x, DS_X_UTIL, 95);
	d.x.completed = 4000;
	in.dev = &d;
	in.ndev = 1;
	proc(&p[0], 1234, "pg", 0, 0.9);
	p[0].rate.v[DS_WR_WRITE] = 800 * 1024;
	p[0].rate.v[DS_WR_WCHAR] = 800 * 1024;
	p[0].rate.v[DS_WR_SYSCW] = 200;
	/* A big buffered writer whose calls are 1 MiB: not the pattern. */
	proc(&p[1], 99, "cp", 0, 0);
	p[1].rate.v[DS_WR_WRITE] = 10 * 1024;
	p[1].rate.v[DS_WR_WCHAR] = 100 << 20;
	p[1].rate.v[DS_WR_SYSCW] = 100;
	in.proc = p;
	in.nproc = 2;
	run(&in);
	f = row("sync-writes", "vdb");
	ok(f != NULL, "sync writes: found");
	if (f == NULL)
		dump();
	ok(has_text(f, "healthy device"), "sync writes: the device is healthy");
	ok(has_text(f, "writer 1234 pg writes 4.0 KiB per call"),
	    "sync writes: names the writer and its call size");
	ok(has_text(f, "batch"), "sync writes: points at batching");
	ok(row("busy", NULL) == NULL && row("saturated", NULL) == NULL,
	    "sync writes: not busy nor saturated");
	ok(strstr(out.f[0].evidence, "healthy") != NULL,
	    "verdict: the disk is healthy");
	/* Merged writes are not the pattern. */
	fig(&d.x, DS_X_WRQM_PCT, 30);
	run(&in);
	ok(row("sync-writes", NULL) == NULL, "30%% merged: not sync writes");
	fig(&d.x, DS_X_WRQM_PCT, 0);
	/* Without flushes neither. */
	fig(&d.x, DS_X_FS, 10);
	run(&in);
	ok(row("sync-writes", NULL) == NULL, "few flushes: not sync writes");
	fig(&d.x, DS_X_FS, 200);
	/* A kernel without flush counters cannot show the pattern. */
	d.x.have &= ~(1u << DS_X_FS);
	run(&in);
	ok(row("sync-writes", NULL) == NULL, "no f/s: not claimed");
	d.x.have |= 1u << DS_X_FS;
	/* Slow writes are not the healthy pattern. */
	fig(&d.x, DS_X_WAWAIT, 25);
	run(&in);
	ok(row("sync-writes", NULL) == NULL, "w_await 25 ms: not claimed");

	/*
	 * As the kernel counts it (measured: ext4 on the lab disk of 1 ms
	 * writes, fio 4 KiB direct writes with fdatasync each, dxstat over
	 * 4 s): each record is a 4 KiB write, then an empty write with
	 * REQ_PREFLUSH in flight while its flush is, so w/s is twice f/s,
	 * wareq-sz 2 KiB, and aqu-sz 1.52 for a queue of one.
	 */
	fig(&d.x, DS_X_WS, 344.85);
	fig(&d.x, DS_X_WKBS, 689.31);
	fig(&d.x, DS_X_WAREQSZ, 2.00);
	fig(&d.x, DS_X_WRQM_PCT, 0);
	fig(&d.x, DS_X_WAWAIT, 2.76);
	fig(&d.x, DS_X_FS, 172.52);
	fig(&d.x, DS_X_FAWAIT, 3.28);
	fig(&d.x, DS_X_AQUSZ, 1.52);
	fig(&d.x, DS_X_UTIL, 95.19);
	p[0].rate.v[DS_WR_WRITE] = 689.31 * 1024;
	p[0].rate.v[DS_WR_WCHAR] = 689.31 * 1024;
	p[0].rate.v[DS_WR_SYSCW] = 172.52;
	run(&in);
	f = row("sync-writes", "vdb");
	ok(f != NULL, "fdatasync per record as counted (aqu-sz 1.52): sync writes");
	if (f == NULL)
		dump();
	ok(has_text(f, "aqu-sz 1.52 (0.95 without the flushes counted twice)"),
	    "sync writes: the queue without the flushes counted twice");
	ok(has_text(f, "writer 1234 pg writes 4.0 KiB per call"),
	    "sync writes as counted: names the writer");
	ok(row("busy", NULL) == NULL, "sync writes as counted: not busy");
	/* A real queue with flushes is not one request at a time. */
	fig(&d.x, DS_X_AQUSZ, 3.5);
	run(&in);
	ok(row("sync-writes", NULL) == NULL,
	    "aqu-sz 3.5 (2.93 without the flushes): not sync writes");
}

static void
t_deleted(void)
{
	struct ds_triage_in in;
	struct ds_tr_fs fs;
	struct ds_tr_holder h = { 4242, 3, "holder", 40u << 20 };
	const struct ds_finding *f;

	in_init(&in, 0);
	memset(&fs, 0, sizeof(fs));
	fs.mount = "/mnt/small";
	fs.fstype = "ext4";
	fs.have_stat = 1;
	fs.st.frsize = 1024;
	fs.st.blocks = 60000;	/* 58.6 MiB */
	fs.st.bfree = 2900;
	fs.st.bavail = 0;
	fs.st.files = 16000;
	fs.st.ffree = 15980;
	fs.have_deleted = 1;
	fs.held = 40u << 20;
	fs.held_files = 1;
	fs.held_procs = 1;
	fs.holder = &h;
	fs.nholder = 1;
	in.fs = &fs;
	in.nfs = 1;
	run(&in);
	f = row("deleted-held", "/mnt/small");
	ok(f != NULL, "deleted: a finding on the mount");
	if (f == NULL)
		dump();
	is_u64(f ? (uint64_t)f->value : 0, 40u << 20, "deleted: value bytes");
	ok(has_text(f, "40.0 MiB"), "deleted: the bytes for a person");
	ok(has_text(f, "pid 4242 holder fd 3"), "deleted: names the holder");
	ok(has_text(f, "ddeleted --truncate 4242:3"),
	    "deleted: the reclaim command");
	is_int(f ? (int)f->sev : -1, DS_TR_WARN, "deleted on a full fs: warn");
	f = row("fs-full", "/mnt/small");
	ok(f != NULL && f->sev == DS_TR_CRIT, "full fs: crit");
	is_int(f ? (int)(f->value * 1000 + 0.5) : 0, 1000,
	    "full fs: use 100% (bavail 0, as df)");
	ok(strstr(out.f[0].evidence, "held by deleted files on /mnt/small") !=
	    NULL, "verdict: mentions the held space");
	is_int(ds_triage_exit(&out), 3, "deleted: exit 3");
	/* A little held space on a roomy fs: not a row. */
	fs.st.bavail = 50000;
	fs.st.bfree = 52900;
	fs.held = 100u << 10;
	run(&in);
	ok(row("deleted-held", NULL) == NULL && row("fs-full", NULL) == NULL,
	    "100 KiB held on a roomy fs: nothing");
	/* 10% of the fs held: warn even when not full. */
	fs.held = 6u << 20;
	h.bytes = 6u << 20;
	run(&in);
	ok(row("deleted-held", NULL) != NULL &&
	    row("deleted-held", NULL)->sev == DS_TR_WARN, "10%% held: warn");
	/* Inodes. */
	fs.st.ffree = 800;
	run(&in);
	ok(row("fs-inodes", "/mnt/small") != NULL &&
	    row("fs-inodes", "/mnt/small")->sev == DS_TR_WARN,
	    "95%% of inodes used: warn");
	is_int(row("fs-inodes", "/mnt/small") ?
	    (int)(row("fs-inodes", "/mnt/small")->value * 1000 + 0.5) : 0, 950,
	    "fs-inodes: value 0.95");
	fs.st.ffree = 300;
	run(&in);
	ok(row("fs-inodes", "/mnt/small") != NULL &&
	    row("fs-inodes", "/mnt/small")->sev == DS_TR_CRIT,
	    "98.1%% of inodes used: crit");
}

static void
t_fs_boundary(void)
{
	struct ds_triage_in in;
	struct ds_tr_fs fs;

	in_init(&in, 0);
	memset(&fs, 0, sizeof(fs));
	fs.mount = "/data";
	fs.have_stat = 1;
	fs.st.frsize = 4096;
	fs.st.blocks = 1050;
	fs.st.bfree = 150;
	fs.st.bavail = 100;	/* used 900 of 900 + 100: 90% */
	in.fs = &fs;
	in.nfs = 1;
	run(&in);
	ok(row("fs-full", "/data") != NULL &&
	    row("fs-full", "/data")->sev == DS_TR_WARN, "90%% used: warn");
	fs.st.bavail = 101;
	run(&in);
	ok(row("fs-full", NULL) == NULL, "89.9%% used: nothing");
	fs.st.bavail = 18;	/* 900 / 918 = 98.04% */
	run(&in);
	ok(row("fs-full", NULL) != NULL && row("fs-full", NULL)->sev ==
	    DS_TR_CRIT, "98%% used: crit");
}

static void
t_settings(void)
{
	struct ds_triage_in in;
	struct ds_tr_dev d;
	struct ds_base_dev b;

	in_init(&in, 2);
	dev_init(&d, "sdb");
	d.nomerges = 2;
	fig(&d.x, DS_X_WS, 800);
	fig(&d.x, DS_X_WAREQSZ, 4);
	fig(&d.x, DS_X_WAWAIT, 3);
	fig(&d.x, DS_X_AQUSZ, 6);
	fig(&d.x, DS_X_UTIL, 80);
	d.x.completed = 8000;
	in.dev = &d;
	in.ndev = 1;
	run(&in);
	ok(row("merges-off", "sdb") != NULL, "nomerges with small queued "
	    "writes: merges-off");
	is_str(row("merges-off", "sdb") ? row("merges-off", "sdb")->next : "",
	    "dqueue sdb", "merges-off: next dqueue");
	d.nomerges = 0;
	run(&in);
	ok(row("merges-off", NULL) == NULL, "merges on: nothing");
	d.nomerges = 2;
	fig(&d.x, DS_X_AQUSZ, 1);
	run(&in);
	ok(row("merges-off", NULL) == NULL, "one request at a time: nothing "
	    "to merge with");
	fig(&d.x, DS_X_AQUSZ, 6);

	d.rotational = 1;
	d.sched = "none";
	run(&in);
	ok(row("rotational-none", "sdb") != NULL &&
	    row("rotational-none", "sdb")->sev == DS_TR_WARN,
	    "rotational with none and a queue: warn");
	d.sched = "mq-deadline";
	run(&in);
	ok(row("rotational-none", NULL) == NULL, "rotational with mq-deadline");
	d.sched = "none";
	d.x.completed = 0;
	run(&in);
	ok(row("rotational-none", NULL) == NULL, "idle device: no settings row");
	d.x.completed = 8000;

	/* A virtual disk at its history's ceiling while the queue grew. */
	dev_init(&d, "vdc");
	d.virt = 1;
	reads(&d, 3000, 21, 63, 100, 10);
	memset(&b, 0, sizeof(b));
	snprintf(b.name, sizeof(b.name), "vdc");
	b.quiet_r = 10;
	b.r_await = 1.0;
	b.aqu = 0.9;
	b.iops_ceil = 3000;
	b.kbs_ceil = 12000;
	b.ceil_n = 20;
	b.ceil_aqu_min = 4;
	b.ceil_aqu_max = 60;
	d.base = &b;
	in.dev = &d;
	run(&in);
	ok(row("plateau", "vdc") != NULL, "virtual disk at its ceiling: "
	    "plateau");
	is_int(row("plateau", "vdc") ? (int)row("plateau", "vdc")->value : 0,
	    3000, "plateau: value IOPS");
	d.virt = 0;
	run(&in);
	ok(row("plateau", NULL) == NULL, "not virtual: no plateau");
	d.virt = 1;
	b.ceil_aqu_max = 7;
	run(&in);
	ok(row("plateau", NULL) == NULL, "ceiling only at one depth: none");
}

static void
t_system(void)
{
	struct ds_triage_in in;
	struct ds_tr_proc p[2];
	uint32_t bl[10] = { 5, 5, 4, 5, 5, 4, 5, 5, 4, 5 };

	in_init(&in, 12);
	in.io.full = 3;
	in.mem.some = 11;
	in.mem.full = 1;
	in.blocked = bl;
	in.nblocked = 10;
	in.ncpus = 2;
	proc(&p[0], 10, "cat", 0, 0);
	p[0].rate.v[DS_WR_RCHAR] = 50 << 20;
	proc(&p[1], 11, "dd", 20 << 20, 0);
	p[1].rate.v[DS_WR_RCHAR] = 20 << 20;
	in.proc = p;
	in.nproc = 2;
	in.procs_unreadable = 7;
	run(&in);
	is_int(row("io-pressure", "io")->sev, DS_TR_WARN, "io some 12%%: warn");
	is_int((int)(row("io-pressure", "io")->value * 100 + 0.5), 12,
	    "io-pressure: value ratio");
	ok(row("memory-pressure", "memory") != NULL &&
	    row("memory-pressure", "memory")->sev == DS_TR_WARN,
	    "memory some 11%%: warn");
	ok(row("procs-blocked", "-") != NULL &&
	    row("procs-blocked", "-")->sev == DS_TR_WARN,
	    "4.7 blocked on average on 2 CPUs: warn");
	is_int((int)(row("procs-blocked", "-")->value * 10 + 0.5), 47,
	    "procs-blocked: mean 4.7");
	ok(row("page-cache", "10 cat") != NULL, "cat reads from the cache");
	ok(row("page-cache", "11 dd") == NULL, "dd reads from the disk");
	ok(row("load", "11 dd") != NULL && row("load", "10 cat") == NULL,
	    "load is block bytes, not syscall bytes");
	ok(row("unreadable", "-") != NULL &&
	    (int)row("unreadable", "-")->value == 7, "7 unreadable");
	ok(row("unreadable", "fd") == NULL, "descriptors all read: no row");
	in.fds_unreadable = 3;
	run(&in);
	ok(row("unreadable", "fd") != NULL &&
	    (int)row("unreadable", "fd")->value == 3 &&
	    has_text(row("unreadable", "fd"), "not counted"),
	    "3 processes' descriptors unreadable: said");
	in.fds_unreadable = 0;
	in.ncpus = 8;
	run(&in);
	is_int(row("procs-blocked", "-")->sev, DS_TR_INFO,
	    "4.7 blocked on 8 CPUs: info");
	in.io.full = 20;
	run(&in);
	is_int(row("io-pressure", "io")->sev, DS_TR_CRIT, "io full 20%%: crit");
	in.io.have = 0;
	run(&in);
	ok(row("psi-unavailable", NULL) != NULL && row("io-pressure", NULL) ==
	    NULL, "no PSI: said");
	ok(isnan(out.f[0].value), "no PSI: verdict value missing");
	in.io.have = 1;
	in.io.some = 4.99;
	in.io.full = 0;
	in.mem.some = 0;
	in.nblocked = 0;
	in.procs_unreadable = 0;
	in.nproc = 0;
	run(&in);
	is_int(row("io-pressure", "io")->sev, DS_TR_OK, "io some 4.99%%: ok");
	is_int(ds_triage_exit(&out), 0, "nothing: exit 0");
}

static void
t_limit(void)
{
	struct ds_tr_dev d;

	dev_init(&d, "sda");
	d.nr_requests = 64;
	d.nr_hw_queues = 4;
	is_u64(ds_tr_limit(&d), 256, "limit: nr_requests x hardware queues");
	d.queue_depth = 32;
	is_u64(ds_tr_limit(&d), 32, "limit: the lower queue_depth");
	d.queue_depth = 1000;
	is_u64(ds_tr_limit(&d), 256, "limit: a higher queue_depth is not it");
	d.nr_requests = 0;
	is_u64(ds_tr_limit(&d), 1000, "limit: queue_depth alone");
	d.queue_depth = 0;
	is_u64(ds_tr_limit(&d), 0, "limit: unknown");
	d.nr_requests = 4;
	d.nr_hw_queues = 0;
	is_u64(ds_tr_limit(&d), 4, "limit: no mq/ counts one queue");
	is_str(ds_tr_sev_name(DS_TR_WARN), "warn", "severity names");
	ok(ds_tr_sev_name((enum ds_tr_sev)7) == NULL, "severity out of range");
}

/*
 * One process leading several disks (dlat's largest submitter of each):
 * one load row, its subject the identity of a prom series, shown on
 * the disk judged worst although it sent more to the others; the
 * others counted.  Measured on the shared machine: one fio reading 100
 * loop devices made 100 load rows "4194 fio", a prom series 100 times.
 */
static void
t_load_many(void)
{
	struct ds_triage_in in;
	struct ds_tr_dev d[4];
	struct ds_tr_proc p[8];
	struct ds_tr_lat lat;
	const struct ds_finding *f;
	uint32_t fl[50];
	size_t i;

	sat_limit_in(&in, &d[0], fl, p, &lat);
	for (i = 1; i < 4; i++) {
		dev_init(&d[i], i == 1 ? "loop8" : i == 2 ? "loop9" : "vdb");
		reads(&d[i], 100.0, 0.1, 0.01, 1.0, 10);
		d[i].load = d[0].load;
		d[i].load.bytes = d[0].load.bytes * 2;
		d[i].load.total = d[i].load.bytes;
	}
	/* vdb's largest is another process: a row of its own. */
	d[3].load.pid = 700;
	in.dev = d;
	in.ndev = 4;
	is_int(run(&in), 0, "one loader of many disks: runs");
	is_int((int)count("load"), 2, "one load row per process (fio 600, 700)");
	f = row("load", "600 fio");
	ok(has_text(f, "on loop7: submitted 13% of its block I/O"),
	    "fio 600 shown on loop7, the saturated disk, not where it sent most");
	ok(has_text(f, "; the largest submitter to 2 more disks too"),
	    "the other disks it leads are counted");
	ok(row("load", "700 fio") != NULL &&
	    has_text(row("load", "700 fio"), "on vdb: "), "fio 700 on vdb");
	ok(strstr(out.f[0].evidence, "load: 600 fio") != NULL,
	    "the verdict names the saturated disk's load");
	/* Nothing judged: the disk it sent most to. */
	d[0] = d[1];
	d[0].name = "loop6";
	d[0].load.bytes = d[1].load.bytes / 2;
	d[0].load.total = d[0].load.bytes;
	run(&in);
	f = row("load", "600 fio");
	ok(f != NULL && strncmp(f->evidence, "on loop8: ", 10) == 0,
	    "all alike: shown on the disk it sent most to, the first of equals");
	ok(has_text(f, "2 more disks"), "and the two others counted");
}

int
main(void)
{
	t_idle();
	t_one_reader();
	t_sat_limit();
	t_load_many();
	t_sat_latency();
	t_sync_writes();
	t_deleted();
	t_fs_boundary();
	t_settings();
	t_system();
	t_limit();
	ds_findings_free(&out);
	return tap_done();
}
