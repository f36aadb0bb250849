/*
 * cmd/dxstat/files.c: dxstat -f's files made ready (one: since boot;
 * two: the later read along the earlier; a reboot between them: since
 * boot, the earlier only read, told), the rows each with its earlier
 * line (lib/rows.c), and what is told afterwards (cmd/dxstat/warn.c):
 * damaged lines of either file, devices listed again, in the order
 * dxstat prints them.  Failures name their file and why.
 */
#include <sys/wait.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "dxstat/dxstat.h"
#include "stderr.h"
#include "tap.h"

static char dir[] = "/tmp/ds-dxstat-files-XXXXXX";
static char pa[64], pb[64], pc[64], pd[64], pe[64];

static void
put(const char *p, const char *text)
{
	FILE *f;

	if ((f = fopen(p, "w")) == NULL)
		exit(1);
	fputs(text, f);
	fclose(f);
}

/* Warnings after the rows, as dxstat tells them, into buf. */
static const char *
told(const struct dx_files *f, char *buf, size_t size)
{
	stderr_begin();
	dx_warn_rows(&f->rows, f->reboot ? &f->o : NULL);
	return stderr_end(buf, size);
}

/* The rows as "name:reads-against" ("new" for none), one string. */
static void
rows(struct dx_files *f, char *out, size_t size)
{
	struct ds_pair pr = { 0, 0 };
	const struct ds_disk *p;
	struct ds_disk c;
	size_t len = 0;
	int e;

	out[0] = '\0';
	while ((e = ds_rows_next(&f->rows, &pr, &c, &p)) > 0) {
		if (p != NULL)
			len += (size_t)snprintf(out + len, size - len,
			    "%s:%llu ", c.name, (unsigned long long)
			    p->v[DS_RD_IOS]);
		else
			len += (size_t)snprintf(out + len, size - len,
			    "%s:new ", c.name);
	}
	is_int(e, 0, "rows read to the end");
}

static void
test_one(void)
{
	struct dx_files f;
	struct ds_buf w = { 0 };
	const char *path[] = { pa };
	char got[256], want[256];

	stderr_begin();
	is_int(dx_files_open(&f, path, 1, &w), 0, "one file");
	is_str(stderr_end(got, sizeof(got)), "", "nothing told yet");
	is_u64(f.interval_ns, 100000000000ull, "since boot: its uptime");
	is_u64(f.time_ns, 1700000000500000000ull, "its time line");
	rows(&f, got, sizeof(got));
	is_str(got, "sda:new sdb:new ", "every row counted from zero");
	snprintf(want, sizeof(want), "dxstat: %s: line 4: not a diskstats line "
	    "(1 line skipped)\n", pa);
	is_str(told(&f, got, sizeof(got)), want, "its damaged line told");
	dx_files_close(&f);
	ds_buf_free(&w);
}

static void
test_two(void)
{
	struct dx_files f;
	struct ds_buf w = { 0 };
	const char *path[] = { pa, pb };
	char got[512], want[512];

	stderr_begin();
	is_int(dx_files_open(&f, path, 2, &w), 0, "two files");
	is_str(stderr_end(got, sizeof(got)), "", "nothing told yet");
	is_int(f.reboot, 0, "no reboot");
	is_u64(f.interval_ns, 10000000000ull, "interval: the uptimes' gap");
	is_u64(f.time_ns, 0, "the later has no time line");
	rows(&f, got, sizeof(got));
	is_str(got, "sdb:20 sda:10 sdc:new ",
	    "paired though moved; sdb listed again is no row; sdc new");
	snprintf(want, sizeof(want), "dxstat: %s: line 4: not a diskstats line "
	    "(1 line skipped)\n"
	    "dxstat: %s: line 4: a device listed again (1 line skipped)\n"
	    "dxstat: %s: line 6: not a diskstats line (1 line skipped)\n",
	    pa, pb, pb);
	is_str(told(&f, got, sizeof(got)), want, "the earlier's damage, the "
	    "device listed again, the later's damage, in that order");
	dx_files_close(&f);
	ds_buf_free(&w);
}

static void
test_reboot(void)
{
	struct dx_files f;
	struct ds_buf w = { 0 };
	const char *path[] = { pb, pa };
	char got[512], want[512];

	stderr_begin();
	is_int(dx_files_open(&f, path, 2, &w), 0, "swapped");
	snprintf(want, sizeof(want), "dxstat: %s: uptime below %s's (a reboot "
	    "between them?): reporting since boot\n", pa, pb);
	is_str(stderr_end(got, sizeof(got)), want, "told before the report");
	is_int(f.reboot, 1, "uptime went back: a reboot");
	is_u64(f.interval_ns, 100000000000ull, "since boot: the later's uptime");
	rows(&f, got, sizeof(got));
	is_str(got, "sda:new sdb:new ", "since boot: nothing paired");
	snprintf(want, sizeof(want), "dxstat: %s: line 4: not a diskstats line "
	    "(1 line skipped)\n"
	    "dxstat: %s: line 6: not a diskstats line (1 line skipped)\n",
	    pa, pb);
	is_str(told(&f, got, sizeof(got)), want, "the reported file's damage, "
	    "then the earlier's, read whole; no device listed again");
	dx_files_close(&f);
	ds_buf_free(&w);
}

static void
test_fail(void)
{
	struct dx_files f;
	struct ds_buf w = { 0 };
	const char *same[] = { pa, pc }, *nohead[] = { pa, pd };
	const char *missing[] = { pe, pa }, *missing2[] = { pa, pe };
	struct ds_buf msg = { 0 };
	char got[256];

	stderr_begin();
	is_int(dx_files_open(&f, same, 2, &w), -EINVAL,
	    "the same uptime: -EINVAL");
	ok(f.same && f.failed == pc, "why: the same uptime, the later named");
	dx_files_close(&f);
	is_int(dx_files_open(&f, nohead, 2, &w), -EINVAL,
	    "no uptime line: -EINVAL");
	is_str(f.failed, pd, "failed: that file");
	ok(!f.same && f.head == &f.b, "its damaged header");
	is_int(ds_snap_bad_msg(&f.b, &msg), 1, "a sentence");
	is_str(msg.data, "line 1: no uptime line before the diskstats lines",
	    "the sentence, on line 1");
	dx_files_close(&f);
	is_int(dx_files_open(&f, missing, 2, &w), -ENOENT,
	    "no earlier file: -ENOENT");
	is_str(f.failed, pe, "failed names it");
	ok(!f.same && f.head != NULL &&
	    ds_snap_bad_msg(f.head, &msg) == 0, "no sentence: strerror's");
	dx_files_close(&f);
	is_int(dx_files_open(&f, missing2, 2, &w), -ENOENT,
	    "no later file: -ENOENT");
	is_str(f.failed, pe, "failed names it");
	dx_files_close(&f);
	is_str(stderr_end(got, sizeof(got)), "", "no warning on any of these");
	ds_buf_free(&w);
	ds_buf_free(&msg);
}

/* dx_files_open, then dx_files_fail, in a child: its status, its words. */
static int
fail_told(const char *const *path, char *buf, size_t size)
{
	struct dx_files f;
	struct ds_buf w = { 0 };
	int st = -1, e;
	pid_t pid;

	fflush(stdout);
	stderr_begin();
	if ((pid = fork()) < 0)
		exit(1);
	if (pid == 0) {
		if ((e = dx_files_open(&f, path, 2, &w)) < 0)
			dx_files_fail(&f, e);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	stderr_end(buf, size);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Each failure told in one line naming the file, and exit status 1. */
static void
test_fail_told(void)
{
	const char *same[] = { pa, pc }, *nohead[] = { pa, pd };
	const char *missing[] = { pa, pe };
	char got[512], want[512];

	is_int(fail_told(same, got, sizeof(got)), 1, "the same uptime: exit 1");
	snprintf(want, sizeof(want), "dxstat: %s and %s were taken at the "
	    "same uptime\n", pa, pc);
	is_str(got, want, "both named");
	is_int(fail_told(nohead, got, sizeof(got)), 1, "no uptime line: exit 1");
	snprintf(want, sizeof(want), "dxstat: %s: neither a snapshot "
	    "(dxstat -s) nor a capture (dcapture): line 1: no uptime line "
	    "before the diskstats lines\n", pd);
	is_str(got, want, "the file, the line and what is wrong");
	is_int(fail_told(missing, got, sizeof(got)), 1, "no file: exit 1");
	snprintf(want, sizeof(want), "dxstat: %s: No such file or directory\n",
	    pe);
	is_str(got, want, "the file and strerror's words");
}

/* "-" is standard input, named stdin in what is told. */
static void
test_stdin(void)
{
	struct dx_files f;
	struct ds_buf w = { 0 };
	const char *path[] = { "-" };
	char got[256];

	if (freopen(pa, "r", stdin) == NULL)
		exit(1);
	is_int(dx_files_open(&f, path, 1, &w), 0, "-: standard input");
	is_str(f.rows.what, "stdin", "named stdin");
	rows(&f, got, sizeof(got));
	is_str(got, "sda:new sdb:new ", "its rows");
	is_str(told(&f, got, sizeof(got)), "dxstat: stdin: line 4: not a "
	    "diskstats line (1 line skipped)\n", "its damage told as stdin's");
	dx_files_close(&f);
	ds_buf_free(&w);
}

int
main(void)
{
	char cmd[64];

	program_invocation_short_name = "dxstat";
	if (mkdtemp(dir) == NULL)
		return 1;
	snprintf(pa, sizeof(pa), "%s/a", dir);
	snprintf(pb, sizeof(pb), "%s/b", dir);
	snprintf(pc, sizeof(pc), "%s/c", dir);
	snprintf(pd, sizeof(pd), "%s/d", dir);
	snprintf(pe, sizeof(pe), "%s/none", dir);
	put(pa, "uptime 100.0\ntime 1700000000.5\n"
	    "8 0 sda 10 0 8 1 0 0 0 0 0 1 1\n"
	    "damaged\n"
	    "8 16 sdb 20 0 8 1 0 0 0 0 0 1 1\n");
	put(pb, "uptime 110.0\n"
	    "8 16 sdb 25 0 8 1 0 0 0 0 0 1 1\n"
	    "8 0 sda 15 0 8 1 0 0 0 0 0 1 1\n"
	    "8 16 sdb 26 0 8 1 0 0 0 0 0 1 1\n"
	    "8 32 sdc 5 0 8 1 0 0 0 0 0 1 1\n"
	    "damaged too\n");
	put(pc, "uptime 100.0\n8 0 sda 10 0 8 1 0 0 0 0 0 1 1\n");
	put(pd, "8 0 sda 10 0 8 1 0 0 0 0 0 1 1\n");
	test_one();
	test_two();
	test_reboot();
	test_fail();
	test_fail_told();
	test_stdin();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		return 1;
	return tap_done();
}
