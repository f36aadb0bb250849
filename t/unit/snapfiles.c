/*
 * lib/snapfiles.c: dxstat -f's files made ready (one: since boot; two:
 * the later read along the earlier; a reboot between them: since boot,
 * the earlier only read), the rows each with its earlier line, and what
 * is told afterwards: damaged lines of either file, devices listed
 * again, in the order dxstat prints them.  Failures name their file or
 * come as a sentence.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tap.h"

static char dir[] = "/tmp/ds-snapfiles-XXXXXX";
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

static const char *
nth(const struct ds_buf *said, int k)
{
	size_t i;

	for (i = 0; i < said->len; i += strlen(said->data + i) + 1)
		if (k-- == 0)
			return said->data + i;
	return NULL;
}

/* The rows as "name:reads-against" ("new" for none), one string. */
static void
rows(struct ds_snapfiles *f, char *out, size_t size)
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
	struct ds_snapfiles f;
	struct ds_buf w = { 0 }, said = { 0 };
	const char *path[] = { pa };
	char got[256], want[256];

	is_int(ds_snapfiles_open(&f, path, 1, &w, &said), 0, "one file");
	is_u64(f.interval_ns, 100000000000ull, "since boot: its uptime");
	is_u64(f.time_ns, 1700000000500000000ull, "its time line");
	rows(&f, got, sizeof(got));
	is_str(got, "sda:new sdb:new ", "every row counted from zero");
	is_int(ds_rows_said(&f.rows, &said), 0, "said");
	snprintf(want, sizeof(want), "%s: line 4: not a diskstats line "
	    "(1 line skipped)", pa);
	is_str(nth(&said, 0), want, "its damaged line told");
	ok(nth(&said, 1) == NULL, "nothing more");
	ds_snapfiles_close(&f);
	ds_buf_free(&said);
	ds_buf_free(&w);
}

static void
test_two(void)
{
	struct ds_snapfiles f;
	struct ds_buf w = { 0 }, said = { 0 };
	const char *path[] = { pa, pb };
	char got[256], want[256];

	is_int(ds_snapfiles_open(&f, path, 2, &w, &said), 0, "two files");
	is_int(f.reboot, 0, "no reboot");
	is_int(said.len, 0, "nothing to say yet");
	is_u64(f.interval_ns, 10000000000ull, "interval: the uptimes' gap");
	is_u64(f.time_ns, 0, "the later has no time line");
	rows(&f, got, sizeof(got));
	is_str(got, "sdb:20 sda:10 sdc:new ",
	    "paired though moved; sdb listed again is no row; sdc new");
	is_int(ds_rows_said(&f.rows, &said), 0, "said");
	snprintf(want, sizeof(want), "%s: line 4: not a diskstats line "
	    "(1 line skipped)", pa);
	is_str(nth(&said, 0), want, "first the earlier's damage");
	snprintf(want, sizeof(want), "%s: line 4: a device listed again "
	    "(1 line skipped)", pb);
	is_str(nth(&said, 1), want, "then the device listed again");
	snprintf(want, sizeof(want), "%s: line 6: not a diskstats line "
	    "(1 line skipped)", pb);
	is_str(nth(&said, 2), want, "then the later's damage");
	ok(nth(&said, 3) == NULL, "nothing more");
	ds_snapfiles_close(&f);
	ds_buf_free(&said);
	ds_buf_free(&w);
}

static void
test_reboot(void)
{
	struct ds_snapfiles f;
	struct ds_buf w = { 0 }, said = { 0 };
	const char *path[] = { pb, pa };
	char got[256], want[256];

	is_int(ds_snapfiles_open(&f, path, 2, &w, &said), 0, "swapped");
	is_int(f.reboot, 1, "uptime went back: a reboot");
	snprintf(want, sizeof(want), "%s: uptime below %s's (a reboot between "
	    "them?): reporting since boot", pa, pb);
	is_str(nth(&said, 0), want, "told before the report");
	is_u64(f.interval_ns, 100000000000ull, "since boot: the later's uptime");
	said.len = 0;
	rows(&f, got, sizeof(got));
	is_str(got, "sda:new sdb:new ", "since boot: nothing paired");
	is_int(ds_rows_said(&f.rows, &said), 0, "said");
	snprintf(want, sizeof(want), "%s: line 4: not a diskstats line "
	    "(1 line skipped)", pa);
	is_str(nth(&said, 0), want, "the reported file's damage");
	snprintf(want, sizeof(want), "%s: line 6: not a diskstats line "
	    "(1 line skipped)", pb);
	is_str(nth(&said, 1), want, "then the earlier's, read whole");
	ok(nth(&said, 2) == NULL, "no device listed again: not paired");
	ds_snapfiles_close(&f);
	ds_buf_free(&said);
	ds_buf_free(&w);
}

static void
test_fail(void)
{
	struct ds_snapfiles f;
	struct ds_buf w = { 0 }, said = { 0 };
	const char *same[] = { pa, pc }, *nohead[] = { pa, pd };
	const char *missing[] = { pe, pa }, *missing2[] = { pa, pe };
	char want[256];

	is_int(ds_snapfiles_open(&f, same, 2, &w, &said), -EINVAL,
	    "the same uptime: -EINVAL");
	snprintf(want, sizeof(want), "%s and %s were taken at the same "
	    "uptime", pa, pc);
	is_str(f.why.data, want, "said why");
	ds_snapfiles_close(&f);
	is_int(ds_snapfiles_open(&f, nohead, 2, &w, &said), -EINVAL,
	    "no uptime line: -EINVAL");
	ok(f.why.len > strlen(pd) && strncmp(f.why.data, pd, strlen(pd)) == 0 &&
	    strstr(f.why.data, ": line 1: ") != NULL,
	    "a sentence naming the file and line: %s", f.why.data);
	is_str(f.failed, pd, "failed: that file");
	ds_snapfiles_close(&f);
	is_int(ds_snapfiles_open(&f, missing, 2, &w, &said), -ENOENT,
	    "no earlier file: -ENOENT");
	is_str(f.failed, pe, "failed names it");
	is_int(f.why.len, 0, "no sentence: strerror's");
	ds_snapfiles_close(&f);
	is_int(ds_snapfiles_open(&f, missing2, 2, &w, &said), -ENOENT,
	    "no later file: -ENOENT");
	is_str(f.failed, pe, "failed names it");
	ds_snapfiles_close(&f);
	is_int(said.len, 0, "no warning on any of these");
	ds_buf_free(&said);
	ds_buf_free(&w);
}

int
main(void)
{
	char cmd[64];

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
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		return 1;
	return tap_done();
}
