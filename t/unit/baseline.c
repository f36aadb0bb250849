/*
 * The quiet-time baseline, on snapshot files this test writes: time
 * order from the files' own time lines, a reboot (uptime back), a
 * reboot that uptime alone cannot show, a device that appears, a
 * counter reset, a file that is no snapshot, and the bounded ring.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"

static char top[64], dir[128];

/* Rounded to the nearest integer (values here are not negative). */
static long
rnd(double v)
{
	return (long)(v + 0.5);
}

/* Cumulative counters of a test device. */
struct cnt {
	const char *name;
	unsigned minor;
	uint64_t rd, rds, rdt, wr, wrs, wrt, iot, tiq;
};

static void
reads(struct cnt *c, uint64_t n, double ms)
{
	c->rd += n;
	c->rds += n * 8;
	c->rdt += (uint64_t)(n * ms + 0.5);
	c->iot += (uint64_t)(n * ms + 0.5);
	c->tiq += (uint64_t)(n * ms + 0.5);
}

static void
writes(struct cnt *c, uint64_t n, double ms)
{
	c->wr += n;
	c->wrs += n * 8;
	c->wrt += (uint64_t)(n * ms + 0.5);
	c->iot += (uint64_t)(n * ms + 0.5);
	c->tiq += (uint64_t)(n * ms + 0.5);
}

static void
line(FILE *f, const struct cnt *c)
{
	fprintf(f, " 253 %u %s %" PRIu64 " 0 %" PRIu64 " %" PRIu64 " %" PRIu64
	    " 0 %" PRIu64 " %" PRIu64 " 0 %" PRIu64 " %" PRIu64
	    " 0 0 0 0 0 0\n", c->minor, c->name, c->rd, c->rds, c->rdt, c->wr,
	    c->wrs, c->wrt, c->iot, c->tiq);
}

/* A snapshot file: uptime s, wall time t (0: no time line), devices. */
static void
snap(const char *name, double up, double t, const struct cnt *a,
    const struct cnt *b)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((f = fopen(path, "w")) == NULL) {
		perror(path);
		exit(1);
	}
	fprintf(f, "uptime %.2f\n", up);
	if (t > 0)
		fprintf(f, "time %.3f\n", t);
	if (a != NULL)
		line(f, a);
	if (b != NULL)
		line(f, b);
	fclose(f);
}

static void
cleanup(void)
{
	char cmd[300];

	/* Only the directory this test made. */
	if (top[0] != '\0' && strncmp(top, "/tmp/ds-base.", 13) == 0) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
		if (system(cmd) != 0)
			printf("# could not remove %s\n", top);
	}
}

static int
only_vdb(const char *name, void *arg)
{
	(void)arg;
	return strcmp(name, "vdb") == 0;
}

#define T0 1764470000.0

static void
write_files(void)
{
	struct cnt vdb = { "vdb", 16, 1000, 8000, 10000, 0, 0, 0, 10000, 10000 };
	struct cnt vdc = { "vdc", 32, 0, 0, 0, 0, 0, 0, 0, 0 };
	double boot1 = T0 - 1000, boot2 = T0 + 1050, boot3 = T0 + 1500;

	/* Names out of time order: the time lines decide. */
	snap("Tue-0001.snap", 1000, boot1 + 1000, &vdb, NULL);
	reads(&vdb, 980, 10.0);
	snap("Mon-0900.snap", 1010, boot1 + 1010, &vdb, NULL);
	reads(&vdb, 1000, 10.2);
	snap("Wed-0000.snap", 1020, boot1 + 1020, &vdb, NULL);
	reads(&vdb, 1000, 9.8);
	snap("Aaa-0000.snap", 1030, boot1 + 1030, &vdb, NULL);
	/* 8 readers: twice the latency, a queue of 8: not quiet. */
	reads(&vdb, 4000, 20.0);
	snap("Zzz-0000.snap", 1040, boot1 + 1040, &vdb, NULL);
	/* 10 slow reads: too few to measure. */
	reads(&vdb, 10, 50.0);
	snap("Fri-0000.snap", 1050, boot1 + 1050, &vdb, NULL);

	/* Reboot: uptime back to 20 s; vdc appears. */
	vdb.rd = 100;
	vdb.rds = 800;
	vdb.rdt = vdb.iot = vdb.tiq = 1000;
	snap("b2-a.snap", 20, boot2 + 20, &vdb, &vdc);
	reads(&vdb, 1000, 11.0);
	writes(&vdc, 500, 2.0);
	snap("b2-b.snap", 30, boot2 + 30, &vdb, &vdc);

	/*
	 * Another reboot that uptime alone would miss: 40 s is above 30 s,
	 * but the boot time moved by 420 s.  Paired, these counters would
	 * make an interval of 100 ms reads.
	 */
	reads(&vdb, 5000, 100.0);
	writes(&vdc, 5000, 2.0);
	snap("b3-a.snap", 40, boot3 + 40, &vdb, &vdc);
	reads(&vdb, 1000, 10.0);
	/* vdc restarted: its counters below the last ones. */
	vdc.wr = 3;
	vdc.wrs = 24;
	vdc.wrt = vdc.iot = vdc.tiq = 6;
	snap("b3-b.snap", 50, boot3 + 50, &vdb, &vdc);
}

static void
t_dir(void)
{
	struct ds_base b = { 0 };
	struct ds_root r;
	const struct ds_base_dev *d;
	char path[256];
	FILE *f;

	write_files();
	/* Not a snapshot, a directory, a dot file: skipped, not fatal. */
	snprintf(path, sizeof(path), "%s/README", dir);
	f = fopen(path, "w");
	fputs("snapshots of dxstat -s\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/old", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/.tmp.x", dir);
	f = fopen(path, "w");
	fputs("uptime 1\n", f);
	fclose(f);

	is_int(ds_root_open(&r, top), 0, "root opens");
	is_int(ds_base_read(&r, "snaps", NULL, NULL, &b), 0, "baseline read");
	is_int((int)b.files, 10, "ten snapshot files");
	is_int((int)b.skipped, 1, "README skipped");
	is_str(b.first_bad, "README", "the skipped file named");
	is_int((int)b.series, 3, "three boots: two reboots split the series");
	is_int((int)b.pairs, 7, "seven intervals paired (5 + 1 + 1)");
	is_u64(b.first_ns, UINT64_C(1764470000000000000), "first file's time");
	is_int((int)b.n, 2, "two devices");

	d = ds_base_find(&b, "vdb", NULL);
	ok(d != NULL, "vdb has a baseline");
	if (d == NULL)
		goto out;
	is_int((int)d->intervals, 7, "vdb: 7 intervals");
	is_int((int)d->quiet_r, 5, "vdb: 5 quiet read intervals");
	is_int((int)d->quiet_w, 0, "vdb: no writes");
	is_int((int)rnd(d->r_await * 1000), 10000,
	    "vdb: quiet r_await median 10.000 ms");
	is_int((int)rnd(d->aqu * 1000), 1000,
	    "vdb: quiet aqu-sz median 1.000");
	is_int((int)rnd(d->iops_ceil), 400, "vdb: IOPS p95 400");
	is_int((int)d->ceil_n, 1, "vdb: one interval at the ceiling");
	is_int((int)rnd(d->ceil_aqu_min * 10), 80, "vdb: at aqu-sz 8.0");
	is_int((int)d->resets, 0, "vdb: no resets");

	d = ds_base_find(&b, "vdc", NULL);
	ok(d != NULL, "vdc, which appeared after a reboot");
	if (d == NULL)
		goto out;
	is_int((int)d->intervals, 1, "vdc: paired from its second file");
	is_int((int)d->resets, 1, "vdc: restarted counters skip the interval");
	is_int((int)d->quiet_w, 1, "vdc: one quiet write interval");
	is_int((int)rnd(d->w_await * 1000), 0,
	    "vdc: one interval is no baseline (0)");
	is_int((int)rnd(d->aqu * 1000), 100, "vdc: its queue was 0.1");

	/* keep: only the devices asked about are held. */
	is_int(ds_base_read(&r, "snaps", only_vdb, NULL, &b), 0, "read again");
	is_int((int)b.n, 1, "keep: one device");
	ok(ds_base_find(&b, "vdc", NULL) == NULL, "keep: vdc not held");
	ok(ds_base_find(&b, "vdb", NULL) != NULL &&
	    ds_base_find(&b, "vdb", NULL)->quiet_r == 5, "keep: vdb the same");

	is_int(ds_base_read(&r, "missing", NULL, NULL, &b), -ENOENT,
	    "a missing directory is -ENOENT");
	is_int((int)b.n, 0, "and leaves nothing");
	snprintf(path, sizeof(path), "%s/README", dir);
	is_int(ds_base_read(&r, "snaps/README", NULL, NULL, &b), -ENOTDIR,
	    "a file is not a directory");
out:
	ds_base_free(&b);
	ds_root_close(&r);
}

/* Files without time lines: ordered by mtime, series by uptime. */
static void
t_mtime(void)
{
	struct cnt vdb = { "vdb", 16, 0, 0, 0, 0, 0, 0, 0, 0 };
	struct ds_base b = { 0 };
	struct timespec ts[2];
	char path[256];
	int i;

	snprintf(dir, sizeof(dir), "%s/notime", top);
	mkdir(dir, 0755);
	for (i = 0; i < 5; i++) {
		char name[32];

		snprintf(name, sizeof(name), "%c.snap", 'e' - i);
		snap(name, 100 + i * 10, 0, &vdb, NULL);
		reads(&vdb, 500, 4.0 + i);
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		ts[0].tv_sec = ts[1].tv_sec = 1700000000 + i * 10;
		ts[0].tv_nsec = ts[1].tv_nsec = 0;
		utimensat(AT_FDCWD, path, ts, 0);
	}
	{
		struct ds_root r;

		ds_root_open(&r, top);
		is_int(ds_base_read(&r, "notime", NULL, NULL, &b), 0,
		    "no time lines: read");
		ds_root_close(&r);
	}
	is_int((int)b.series, 1, "mtime order: one series");
	is_int((int)b.pairs, 4, "four intervals");
	ok(b.n == 1 && b.d[0].quiet_r == 4, "four quiet intervals");
	/* 5 reads per ms of 500 at 4, 5, 6, 7 ms: median 5.5 ms. */
	is_int(b.n == 1 ? (int)rnd(b.d[0].r_await * 10) : 0, 55,
	    "median of 4, 5, 6, 7 ms is 5.5 ms");
	ds_base_free(&b);
}

/*
 * Files PREFIX0.snap... in sub, one every 10 s from uptime up0 of the
 * boot at wall time boot; before each but the first, c reads 1000 times
 * at ms each; id[i] is file i's id line for c (NULL: none).
 */
static void
series(const char *sub, const char *prefix, struct cnt *c, double boot,
    double up0, double ms, int n, const char *const *id)
{
	char path[256];
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "%s/%s", top, sub);
	mkdir(path, 0755);
	for (i = 0; i < n; i++) {
		if (i > 0)
			reads(c, 1000, ms);
		snprintf(path, sizeof(path), "%s/%s/%s%d.snap", top, sub,
		    prefix, i);
		if ((f = fopen(path, "w")) == NULL) {
			perror(path);
			exit(1);
		}
		fprintf(f, "uptime %.2f\ntime %.3f\n", up0 + i * 10,
		    boot + up0 + i * 10);
		if (id[i] != NULL)
			fprintf(f, "id %s %s\n", c->name, id[i]);
		line(f, c);
		fclose(f);
	}
}

static int
base(const char *sub, struct ds_base *b)
{
	struct ds_root r;
	int e;

	if (ds_root_open(&r, top) < 0)
		return -1;
	e = ds_base_read(&r, sub, NULL, NULL, b);
	ds_root_close(&r);
	return e;
}

/* The quiet r_await of dm-3 with identity id, ms x 10; -1: no baseline. */
static long
await_of(const struct ds_base *b, const char *id)
{
	const struct ds_base_dev *d = ds_base_find(b, "dm-3", id);

	return d == NULL ? -1 : rnd(d->r_await * 10);
}

#define A "dm-uuid=LVM-AAAA"
#define B "dm-uuid=LVM-BBBB"

/*
 * dm-3 was volume A for a boot, then B: each history its own, and a
 * file without identity belongs to whichever the directory allows.
 */
static void
t_ids(void)
{
	static const char *const aaa[] = { A, A, A, A, A, A };
	static const char *const bbb[] = { B, B, B, B, B, B };
	static const char *const swap[] = { A, A, A, A, B, B, B, B };
	static const char *const old[] = { NULL, NULL, NULL, A, A, A };
	static const char *const none[] = { NULL, NULL, NULL, NULL };
	static const char *const amb[] = { A, A, NULL, NULL, B, B };
	struct cnt c = { "dm-3", 3, 0, 0, 0, 0, 0, 0, 0, 0 };
	struct ds_base b = { 0 };
	char path[256];
	FILE *f;

	/* A reboot between them: A at 10 ms, then B at 2 ms. */
	series("moved", "a", &c, T0, 100, 10.0, 6, aaa);
	memset(&c.rd, 0, sizeof(c) - offsetof(struct cnt, rd));
	series("moved", "b", &c, T0 + 5000, 100, 2.0, 6, bbb);
	is_int(base("moved", &b), 0, "moved: read");
	is_int((int)b.series, 2, "moved: two boots");
	is_int((int)b.n, 2, "moved: dm-3 twice, one per identity");
	is_int((int)await_of(&b, A), 100, "moved: A's own history, 10 ms");
	is_int((int)await_of(&b, B), 20, "moved: B's own history, 2 ms");
	ok(ds_base_find(&b, "dm-3", B) != NULL &&
	    ds_base_find(&b, "dm-3", B)->intervals == 5 &&
	    strcmp(ds_base_find(&b, "dm-3", B)->id, B) == 0,
	    "moved: B's 5 intervals, its identity kept");
	is_int((int)await_of(&b, "dm-uuid=LVM-CCCC"), -1,
	    "moved: a third volume has no history");
	is_int((int)await_of(&b, NULL), -1,
	    "moved: unknown now, two on record: neither");
	is_int((int)await_of(&b, ""), -1, "moved: \"\" is unknown too");

	/* The same boot: the name changed hands between two files. */
	memset(&c.rd, 0, sizeof(c) - offsetof(struct cnt, rd));
	series("swap", "s", &c, T0, 100, 10.0, 8, swap);
	is_int(base("swap", &b), 0, "swap: read");
	is_int((int)b.series, 1, "swap: one boot");
	is_int((int)b.id_split, 1, "swap: the interval across the change unused");
	ok(ds_base_find(&b, "dm-3", A) != NULL &&
	    ds_base_find(&b, "dm-3", A)->intervals == 3 &&
	    ds_base_find(&b, "dm-3", B) != NULL &&
	    ds_base_find(&b, "dm-3", B)->intervals == 3,
	    "swap: three intervals each");

	/* Files from before identities: the one identity on record. */
	memset(&c.rd, 0, sizeof(c) - offsetof(struct cnt, rd));
	series("old", "o", &c, T0, 100, 10.0, 6, old);
	is_int(base("old", &b), 0, "old: read");
	is_int((int)b.n, 1, "old: one history");
	ok(ds_base_find(&b, "dm-3", A) != NULL &&
	    ds_base_find(&b, "dm-3", A)->intervals == 5,
	    "old: all 5 intervals are A's (only A recorded)");
	ok(ds_base_find(&b, "dm-3", NULL) == ds_base_find(&b, "dm-3", A),
	    "old: unknown now: the one on record");
	is_int((int)await_of(&b, B), -1, "old: B is not A: no history");

	/* No identity anywhere: any device's. */
	memset(&c.rd, 0, sizeof(c) - offsetof(struct cnt, rd));
	series("none", "n", &c, T0, 100, 10.0, 4, none);
	snprintf(path, sizeof(path), "%s/none/bad.snap", top);
	if ((f = fopen(path, "w")) != NULL) {
		fputs("uptime 1.00\nid dm-3\n", f);
		fclose(f);
	}
	is_int(base("none", &b), 0, "none: read");
	is_int((int)b.skipped, 1, "none: a malformed id line: not a snapshot");
	is_int((int)await_of(&b, A), 100, "none: history for any identity");
	is_int((int)await_of(&b, NULL), 100, "none: and for an unknown one");
	ok(b.n == 1 && b.d[0].id[0] == '\0', "none: kept as no identity");

	/* Unknown between two identities: those intervals are no one's. */
	memset(&c.rd, 0, sizeof(c) - offsetof(struct cnt, rd));
	series("amb", "m", &c, T0, 100, 10.0, 6, amb);
	is_int(base("amb", &b), 0, "ambiguous: read");
	is_int((int)b.id_split, 3, "ambiguous: A-?, ?-?, ?-B unused");
	ok(ds_base_find(&b, "dm-3", A) != NULL &&
	    ds_base_find(&b, "dm-3", A)->intervals == 1 &&
	    ds_base_find(&b, "dm-3", B) != NULL &&
	    ds_base_find(&b, "dm-3", B)->intervals == 1,
	    "ambiguous: one interval each");
	ds_base_free(&b);
}

/* The ring keeps the last DS_BASE_KEEP intervals of a device. */
static void
t_ring(void)
{
	struct ds_base b = { 0 };
	struct ds_xstat x;
	uint64_t d[DS_NCOUNTERS] = { 0 };
	int i;

	for (i = 0; i < 3000; i++) {
		memset(&x, 0, sizeof(x));
		x.v[DS_X_RAWAIT] = i;
		x.v[DS_X_AQUSZ] = 1;
		x.v[DS_X_RS] = 10;
		x.have = (1u << DS_X_RAWAIT) | (1u << DS_X_AQUSZ) |
		    (1u << DS_X_RS);
		d[DS_RD_IOS] = 100;
		if (ds_base_add(&b, "sdz", &x, d) < 0)
			break;
	}
	is_int(i, 3000, "3000 intervals added");
	is_int(ds_base_finish(&b), 0, "finish");
	is_int((int)b.d[0].intervals, 3000, "all counted");
	is_int((int)b.d[0].niv, DS_BASE_KEEP, "DS_BASE_KEEP kept");
	is_int((int)b.d[0].ivcap, DS_BASE_KEEP, "no more room than that");
	/* The last 2048 are 952..2999: median (1975 + 1976) / 2. */
	is_int((int)rnd(b.d[0].r_await * 10), 19755,
	    "the oldest went: median 1975.5");
	/* An interval without a queue figure is never quiet. */
	memset(&x, 0, sizeof(x));
	x.v[DS_X_RAWAIT] = 1;
	x.have = 1u << DS_X_RAWAIT;
	ds_base_add(&b, "old", &x, d);
	ds_base_finish(&b);
	ok(ds_base_find(&b, "old", NULL) != NULL &&
	    ds_base_find(&b, "old", NULL)->quiet_r == 0, "no aqu-sz: not quiet");
	ds_base_free(&b);
}

int
main(void)
{
	snprintf(top, sizeof(top), "/tmp/ds-base.XXXXXX");
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(dir, sizeof(dir), "%s/snaps", top);
	mkdir(dir, 0755);
	t_dir();
	t_mtime();
	t_ids();
	t_ring();
	cleanup();
	return tap_done();
}
