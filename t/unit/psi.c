/*
 * Pressure files (by name, or a resource's under a root or a cgroup),
 * resource lists, the stall share, the sentences for errnos and bad
 * lines, triggers (and which part of one is wrong), and the cgroup walk.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "oracle.h"
#include "tap.h"

struct seen {
	char paths[16][64];
	int n;
	int files;
};

static int
collect(void *arg, int dirfd, const char *path)
{
	struct seen *s = arg;
	int fd;

	if (s->n < 16)
		snprintf(s->paths[s->n++], sizeof(s->paths[0]), "%s", path);
	/* The fd is the cgroup's directory: its files open from it. */
	if ((fd = openat(dirfd, "io.pressure", O_RDONLY)) >= 0) {
		s->files++;
		close(fd);
	}
	return 0;
}

static int
stop_at_two(void *arg, int dirfd, const char *path)
{
	int *n = arg;

	(void)dirfd;
	(void)path;
	return ++*n == 2 ? 42 : 0;
}

/* The library's sentence, or NULL when it has none (-ENOMEM: "?"). */
static const char *
said(int k, const struct ds_buf *m)
{
	return k > 0 ? m->data : k == 0 ? NULL : "?";
}

static int
approx(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

int
main(void)
{
	struct ds_psi p;
	struct ds_psi_line l;
	struct ds_psi_trigger t;
	enum ds_psi_kind k;
	struct seen sn;
	struct ds_buf m = { 0 };
	char buf[64], dir[] = "/tmp/psi-unit.XXXXXX", path[256];
	double pct;
	int n, fd;
	char ne_io[] =
	    "some avg10=0.18 avg60=0.34 avg300=0.10 total=159886802\n"
	    "full avg10=0.18 avg60=0.34 avg300=0.10 total=159229614\n";
	char irq[] = "full avg10=0.00 avg60=0.00 avg300=0.00 total=8494";
	char maxed[] =
	    "some avg10=100.00 avg60=70.24 avg300=0.01 "
	    "total=18446744073709551615\n";
	char over[] = "some avg10=1.00 avg60=0 avg300=0 "
	    "total=18446744073709551616\n";
	char damaged[] =
	    "some avg10=0.45 avg60=0.34 avg300=0.20\n"	/* no total */
	    "full avg10=0.45 avg60=0.33 avg300=0.20 total=92732851\n"
	    "full avg10=0.45 avg60=0.33 avg300=0.20 total=1\n"	/* again */
	    "half avg10=0 avg60=0 avg300=0 total=1\n";
	char reordered[] =
	    "some total=5 avg300=3.85 future=7 avg60=2.00 avg10=0.10\n";
	char neg[] = "some avg10=-1.00 avg60=0 avg300=0 total=5\n";
	char empty[] = "";
	char line[] = "some avg10=10.24 avg60=8.52 avg300=0.91 total=55963282";

	/* Lines */
	is_int(ds_psi_parse_line(line, &k, &l, NULL), 0, "line parses");
	is_int(k, DS_PSI_SOME, "kind some");
	is_u64(l.avg[0], 1024, "avg10 10.24 as hundredths");
	is_u64(l.avg[1], 852, "avg60 8.52");
	is_u64(l.avg[2], 91, "avg300 0.91");
	is_u64(l.total, 55963282, "total exact");

	/* node_exporter's io file: both kinds */
	is_int(ds_psi_parse(ne_io, &p), 0, "io file parses");
	is_int(p.have, 3, "some and full");
	is_u64(p.line[DS_PSI_SOME].total, 159886802, "some total");
	is_u64(p.line[DS_PSI_FULL].total, 159229614, "full total");
	is_u64(p.line[DS_PSI_FULL].avg[1], 34, "full avg60 0.34");
	is_int((int)p.bad.n, 0, "no bad lines");

	/* irq: only full, no trailing newline */
	is_int(ds_psi_parse(irq, &p), 0, "irq file parses");
	is_int(p.have, 1u << DS_PSI_FULL, "irq has only full");
	is_u64(p.line[DS_PSI_FULL].total, 8494, "irq total");

	/* u64 limit */
	is_int(ds_psi_parse(maxed, &p), 0, "total 2^64-1 parses");
	is_u64(p.line[DS_PSI_SOME].total, UINT64_MAX, "total 2^64-1 exact");
	is_u64(p.line[DS_PSI_SOME].avg[0], 10000, "avg10 100.00");
	is_int(ds_psi_parse(over, &p), -EINVAL, "total 2^64 refused");
	is_int((int)p.bad.n, 1, "counted bad");

	/* damaged lines are skipped, never filled with zeros */
	is_int(ds_psi_parse(damaged, &p), 0, "damaged file: good lines kept");
	is_int(p.have, 1u << DS_PSI_FULL, "line without total dropped");
	is_u64(p.line[DS_PSI_FULL].total, 92732851, "first full line kept");
	is_int((int)p.bad.n, 3, "three bad lines");
	is_int((int)p.bad.first, 1, "first bad is line 1");
	is_int(ds_psi_parse(reordered, &p), 0, "keys in any order");
	is_u64(p.line[DS_PSI_SOME].avg[2], 385, "reordered avg300");
	is_u64(p.line[DS_PSI_SOME].total, 5, "reordered total");
	is_int(ds_psi_parse(neg, &p), -EINVAL, "negative average refused");
	is_int(ds_psi_parse(empty, &p), -EINVAL, "empty file: nothing");

	/* Why a line was refused: the first bad line's reason, in words */
	{
		static const struct {
			const char *line, *why;
		} c[] = {
			{ "some avg10=1.109 avg60=0.00 avg300=0.00 total=5",
			  "avg10 has more decimals than the kernel prints" },
			{ "some avg10=0.00 avg60=0.00 avg300=100.01 total=5",
			  "avg300 is not a percentage from 0.00 to 100.00" },
			{ "full avg10=0.00 avg60=-1 avg300=0.00 total=5",
			  "avg60 is not a percentage from 0.00 to 100.00" },
			{ "some avg10=0.00 avg60=0.00 avg300=0.00 total=5x",
			  "total is not a count of microseconds" },
			{ "some avg10=0.00 avg60=0.00 avg60=0.00 total=5",
			  "avg60 twice" },
			{ "some avg10=0.00 avg60=0.0", "no avg300" },
			{ "some avg10=0.00 avg60=0.00 avg300=0.00", "no total" },
			{ "half avg10=0 avg60=0 avg300=0 total=1",
			  "not a some or full line" },
			{ "", "not a some or full line" },
			{ "some a b c d e f g h i j k l m n o p",
			  "more than sixteen fields" },
		};
		char text[128];
		size_t i;

		for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
			snprintf(text, sizeof(text), "%s\n", c[i].line);
			is_int(ds_psi_parse(text, &p), -EINVAL, c[i].line);
			is_str(said(ds_psi_bad_msg(&p.bad, &m), &m), c[i].why,
			    c[i].why);
		}
	}
	{
		/* Parsing is in place: a fresh copy of damaged's lines. */
		char again[] =
		    "some avg10=0.45 avg60=0.34 avg300=0.20\n"
		    "full avg10=0.45 avg60=0.33 avg300=0.20 total=9\n"
		    "half avg10=0 avg60=0 avg300=0 total=1\n";

		is_int(ds_psi_parse(again, &p), 0, "damaged again");
		is_str(said(ds_psi_bad_msg(&p.bad, &m), &m), "no total",
		    "damaged: the first bad line's reason kept");
		is_int((int)p.bad.n, 2, "damaged: both bad lines counted");
	}
	{
		char twice[] =
		    "full avg10=0 avg60=0 avg300=0 total=1\n"
		    "full avg10=0 avg60=0 avg300=0 total=2\n";

		is_int(ds_psi_parse(twice, &p), 0, "a kind twice: first kept");
		is_u64(p.line[DS_PSI_FULL].total, 1, "the first full line");
		is_int((int)p.bad.first, 2, "the second is bad");
		is_str(said(ds_psi_bad_msg(&p.bad, &m), &m),
		    "a second line of its kind", "a kind twice: why");
	}

	/* Names */
	is_int(ds_psi_res_parse("irq", 3), DS_PSI_IRQ, "irq name");
	is_int(ds_psi_res_parse("io,memory", 2), DS_PSI_IO, "io of a list");
	is_int(ds_psi_res_parse("disk", 4), -EINVAL, "unknown resource");
	is_str(ds_psi_res_name(DS_PSI_MEMORY), "memory", "memory name");
	ok(ds_psi_res_name(DS_PSI_NRES) == NULL, "name out of range");

	/*
	 * The share: sysstat's tests/root1 -> root2, io some
	 * 96242289 -> 96968324 us over uptime 7192.55 -> 7223.72 s.
	 */
	is_int(ds_psi_share(96242289, 96968324, 31170000000ull, &pct), 0,
	    "share computes");
	ok(approx(pct, 726035.0 / 31170000.0 * 100), "share %.6f%% is "
	    "726035 us / 31.17 s", pct);
	ds_psi_share(0, 3000000, 2000000000ull, &pct);
	ok(pct == 100, "clamped to 100 (3 s of stall in 2 s)");
	ds_psi_share(500, 100, 1000000000ull, &pct);
	ok(approx(pct, 0.01), "a total that went backwards counts from 0");
	is_int(ds_psi_share(1, 2, 0, &pct), -EINVAL, "no interval: no share");
	ds_psi_share(UINT64_MAX - 1000000, UINT64_MAX, 2000000000ull, &pct);
	ok(approx(pct, 50), "exact near 2^64: 1 s in 2 s is 50%%");

	/* errno -> message: the EOPNOTSUPP case cannot be made in a file. */
	ok(strstr(said(ds_psi_err_msg(-ENOENT, 0, &m), &m),
	    "boot with psi=1") != NULL,
	    "ENOENT: PSI disabled, boot with psi=1");
	ok(strstr(said(ds_psi_err_msg(-EOPNOTSUPP, 0, &m), &m),
	    "PSI is disabled in this kernel: boot with psi=1") != NULL,
	    "EOPNOTSUPP (4.20-5.5, RHEL 8): PSI disabled");
	ok(strstr(said(ds_psi_err_msg(EOPNOTSUPP, 1, &m), &m), "psi=1") !=
	    NULL, "EOPNOTSUPP in a cgroup: same");
	ok(strstr(said(ds_psi_err_msg(-ENODEV, 1, &m), &m),
	    "cgroup.pressure") != NULL,
	    "ENODEV: cgroup.pressure is 0");
	ok(strstr(said(ds_psi_err_msg(-ENOENT, 1, &m), &m),
	    "cgroup.pressure") != NULL,
	    "ENOENT in a cgroup: gone or off");
	ok(said(ds_psi_err_msg(-EIO, 0, &m), &m) == NULL && m.len == 0,
	    "EIO: no special message, msg emptied");

	/* Triggers */
	is_int(ds_psi_trigger_parse("io:some:150ms/2s", &t), 0, "spec parses");
	is_int(t.res, DS_PSI_IO, "spec resource");
	is_int(t.kind, DS_PSI_SOME, "spec kind");
	is_u64(t.stall_us, 150000, "150ms is 150000 us");
	is_u64(t.window_us, 2000000, "2s is 2000000 us");
	n = ds_psi_trigger_format(&t, buf, sizeof(buf));
	is_int(n, (int)strlen("some 150000 2000000") + 1,
	    "written length counts the NUL");
	is_str(buf, "some 150000 2000000", "trigger text");
	ok(buf[n - 1] == '\0', "the last byte written is the NUL the kernel "
	    "overwrites");
	is_int(ds_psi_trigger_parse("memory:full:500000us/1.5s", &t), 0,
	    "us and fractional s");
	is_u64(t.window_us, 1500000, "1.5s");
	is_int(ds_psi_trigger_parse("io:some:150/2s", &t), -EINVAL,
	    "unit required");
	is_int(ds_psi_trigger_parse("disk:some:1s/2s", &t), -EINVAL,
	    "unknown resource");
	is_int(ds_psi_trigger_parse("io:most:1s/2s", &t), -EINVAL,
	    "unknown kind");
	is_int(ds_psi_trigger_parse("io:some:1s", &t), -EINVAL, "no window");
	is_int(ds_psi_trigger_parse("io:some:-1s/2s", &t), -EINVAL,
	    "negative");
	ds_psi_trigger_parse("io:some:50ms/2s", &t);
	is_int(ds_psi_trigger_check(&t, 0), 0, "2s window, unprivileged: ok");
	ds_psi_trigger_parse("io:some:50ms/1s", &t);
	is_int(ds_psi_trigger_check(&t, 1), 0, "1s window, privileged: ok");
	is_int(ds_psi_trigger_check(&t, 0), -EPERM,
	    "1s window, unprivileged: EPERM");
	ok(strstr(said(ds_psi_trigger_err_msg(-EPERM, &m), &m),
	    "multiple of 2s") != NULL,
	    "EPERM says multiple of 2s");
	ds_psi_trigger_parse("io:some:50ms/400ms", &t);
	is_int(ds_psi_trigger_check(&t, 1), -ERANGE, "window under 500ms");
	ds_psi_trigger_parse("io:some:50ms/11s", &t);
	is_int(ds_psi_trigger_check(&t, 1), -ERANGE, "window over 10s");
	ds_psi_trigger_parse("io:some:3s/2s", &t);
	is_int(ds_psi_trigger_check(&t, 1), -EDOM, "stall over window");
	ok(strstr(said(ds_psi_trigger_err_msg(-EBUSY, &m), &m),
	    "one per open file") != NULL,
	    "EBUSY: one trigger per open file");
	ok(strstr(said(ds_psi_trigger_err_msg(-EINVAL, &m), &m),
	    "multiple of 2s") != NULL,
	    "EINVAL explained, not passed through");
	is_int(ds_psi_confirm(1000, 1000, 150000), 0,
	    "event without stall growth: not confirmed");
	is_int(ds_psi_confirm(1000, 200000, 150000), 1,
	    "event with 199 ms of stall: confirmed");

	{
		/* -r's list: each once, in the order first named. */
		enum ds_psi_res o[DS_PSI_NRES];
		const char *bad = NULL, *list = "cpu,io,nope";
		size_t no = 9, blen = 0;

		is_int(ds_psi_res_list("irq,io,irq,memory", o, &no, &bad,
		    &blen), 0, "res_list: 0");
		ok(no == 3 && o[0] == DS_PSI_IRQ && o[1] == DS_PSI_IO &&
		    o[2] == DS_PSI_MEMORY, "res_list: irq io memory, irq once");
		is_int(ds_psi_res_list(list, o, &no, &bad, &blen), -EINVAL,
		    "res_list: a name not a resource: -EINVAL");
		ok(bad == list + 7 && blen == 4, "res_list: at 'nope'");
		is_int(ds_psi_res_list("io,", o, &no, &bad, &blen), -EINVAL,
		    "res_list: an empty name: -EINVAL");
		ok(blen == 0, "res_list: the empty name after the comma");
		is_str(said(ds_psi_trigger_parse_msg("io:some:1s/3x", &t, &m),
		    &m), "window '3x': not a duration (a number and us, ms or "
		    "s)", "parse msg: the window named, and why");
		ok(ds_psi_trigger_parse_msg("io", &t, &m) == 1 &&
		    strcmp(m.data, "not RESOURCE:KIND:STALL/WINDOW (e.g. "
		    "io:some:150ms/2s)") == 0 &&
		    ds_psi_trigger_parse_msg("io:some:1s/2s", &t, &m) == 0 &&
		    m.len == 0, "parse msg: no part for the shape; none, "
		    "emptied, for a good one");
		ok(strstr(said(ds_psi_trigger_parse_msg("io:most:1s/2s", &t,
		    &m), &m), "kind 'most': not some or full") != NULL,
		    "parse msg: the kind is some or full");
	}

	/* The cgroup walk over a made-up tree, hostile names included. */
	if (mkdtemp(dir) == NULL) {
		ok(0, "mkdtemp");
		ds_buf_free(&m);
		return tap_done();
	}
	snprintf(path, sizeof(path), "%s/b", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/a", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/a/x\ty", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/a/io.pressure", dir);
	close(open(path, O_CREAT | O_WRONLY, 0644));
	snprintf(path, sizeof(path), "%s/a/link", dir);
	is_int(symlink("/", path), 0, "a symlink among the cgroups, to be skipped");
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	memset(&sn, 0, sizeof(sn));
	is_int(ds_cgroup_walk(fd, collect, &sn), 0, "walk");
	is_int(sn.n, 4, "four cgroups (symlinks and files skipped)");
	is_str(sn.paths[0], "/", "top first");
	is_str(sn.paths[1], "/a", "then a");
	is_str(sn.paths[2], "/a/x\ty", "then a's child");
	is_str(sn.paths[3], "/b", "then b");
	is_int(sn.files, 1, "files open from the cgroup's fd");
	n = 0;
	is_int(ds_cgroup_walk(fd, stop_at_two, &n), 42,
	    "callback's non-zero stops the walk");
	close(fd);
	{
		struct ds_root r;
		struct ds_mount m = { 0 };

		m.mnt = dir + 1;	/* relative to the root "/" */
		ds_root_open(&r, "/");
		fd = ds_cgroup_open(&r, &m, "a");
		ok(fd >= 0, "open cgroup a below the mount");
		if (fd >= 0)
			close(fd);
		is_int(ds_cgroup_open(&r, &m, "a/../.."), -EINVAL,
		    "\"..\" refused");
		is_int(ds_cgroup_open(&r, &m, "nope"), -ENOENT, "missing cgroup");
		ds_root_close(&r);
	}
	{
		/* ds_psi_read_res: a cgroup's res.pressure, or the root's. */
		static const char some[] =
		    "some avg10=1.50 avg60=0.00 avg300=0.00 total=4242\n";
		static const char both[] =
		    "some avg10=0.18 avg60=0.34 avg300=0.10 total=159886802\n"
		    "full avg10=0.18 avg60=0.34 avg300=0.10 total=159229614\n";
		struct ds_buf scratch = { 0 };
		struct ds_root r;

		snprintf(path, sizeof(path), "%s/a/io.pressure", dir);
		fd = open(path, O_WRONLY | O_TRUNC);
		ok(fd >= 0 && write(fd, some, sizeof(some) - 1) ==
		    (ssize_t)sizeof(some) - 1, "a/io.pressure written");
		if (fd >= 0)
			close(fd);
		snprintf(path, sizeof(path), "%s/proc", dir);
		mkdir(path, 0755);
		snprintf(path, sizeof(path), "%s/proc/pressure", dir);
		mkdir(path, 0755);
		snprintf(path, sizeof(path), "%s/proc/pressure/memory", dir);
		fd = open(path, O_CREAT | O_WRONLY, 0644);
		ok(fd >= 0 && write(fd, both, sizeof(both) - 1) ==
		    (ssize_t)sizeof(both) - 1, "proc/pressure/memory written");
		if (fd >= 0)
			close(fd);
		ds_root_open(&r, dir);
		snprintf(path, sizeof(path), "%s/a", dir);
		fd = open(path, O_RDONLY | O_DIRECTORY);
		is_int(ds_psi_read_res(&r, fd, DS_PSI_IO, &scratch, &p), 0,
		    "read_res: the cgroup's io.pressure");
		ok(p.have == 1u << DS_PSI_SOME && p.line[0].total == 4242 &&
		    p.line[0].avg[0] == 150, "read_res: its some line");
		is_int(ds_psi_read_res(&r, fd, DS_PSI_MEMORY, &scratch, &p),
		    -ENOENT, "read_res: no memory.pressure in the cgroup");
		close(fd);
		is_int(ds_psi_read_res(&r, -1, DS_PSI_MEMORY, &scratch, &p), 0,
		    "read_res: the root's proc/pressure/memory");
		is_u64(p.line[DS_PSI_FULL].total, 159229614,
		    "read_res: its full line");
		is_int(ds_psi_read_res(&r, -1, DS_PSI_IO, &scratch, &p),
		    -ENOENT, "read_res: no proc/pressure/io under the root");
		ds_root_close(&r);
		ds_buf_free(&scratch);
	}
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	if (system(path) != 0)
		ok(0, "cleanup");
	ds_buf_free(&m);
	return tap_done();
}
