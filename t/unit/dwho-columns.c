/*
 * cmd/dwho/columns.c: a row holds as many fields as who_columns or
 * cgio_columns made, in their order; unknown values are missing; a uid
 * without a name is shown as the number; counters in prom, not rates.
 * The columns themselves, and the sort keys that name them in either
 * source, with the reason a key is refused.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dwho/dwho.h"
#include "tap.h"

#define NS 1700000000123456789ull

/* The second line (the row) of a report written by one call. */
static char *
row(char *buf)
{
	char *nl = strchr(buf, '\n');

	return nl != NULL ? nl + 1 : buf;
}

static size_t
fields(const char *s)
{
	size_t n = 1;

	for (; *s != '\0' && *s != '\n'; s++)
		n += *s == '\t';
	return n;
}

static char *
proc_row(unsigned int how, enum ds_fmt fmt, const struct whorow *rw)
{
	struct whocfg c = { 100, 1, 0, WV_PID, 0, 0, 0 };
	struct ds_users u = { 0 };
	struct ds_col cols[WHO_NCOLS];
	struct ds_writer w;
	char *buf = NULL;
	size_t len = 0, n = who_columns(how, cols);
	FILE *f = open_memstream(&buf, &len);

	u.loaded = 1;	/* no passwd: names are numbers */
	ds_writer_init(&w, f, fmt, cols, n, 1, "dwho");
	whorow_write(&w, how, &c, &u, NULL, rw, (how & WHOCOL_GROUP) ?
	    "7:0 riops=50" : NULL, NS);
	ok(ds_w_report_end(&w) == 0, "row written without error");
	ds_writer_free(&w);
	ds_users_free(&u);
	fclose(f);
	return buf;
}

static void
test_proc(void)
{
	struct ds_proc p;
	struct whorow rw;
	struct ds_col cols[WHO_NCOLS];
	char *got;

	memset(&p, 0, sizeof(p));
	memset(&rw, 0, sizeof(rw));
	p.pid = 43;
	p.tgid = 42;
	p.uid = 1234;
	strcpy(p.comm, "cat");
	p.comm_len = 3;
	p.starttime = 7;
	rw.p = &p;
	rw.v[DS_WR_READ] = 2.5;
	rw.have = 1u << DS_WR_READ;
	got = proc_row(WHOCOL_THREAD, DS_FMT_TSV, &rw);
	is_str(row(got), "1700000000.123\t42\t43\t1234\tcat\t2.50\t-\t-\t-\t-"
	    "\t-\t-\t-\t-\t-\t7\n", "thread row: ids, number for user, rate");
	is_int(fields(row(got)), who_columns(WHOCOL_THREAD, cols),
	    "thread row: a field per column");
	free(got);
	p.io.have = 1u << DS_IO_READ_BYTES;
	p.io.v[DS_IO_READ_BYTES] = 4096;
	got = proc_row(WHOCOL_COUNTERS, DS_FMT_PROM, &rw);
	ok(strstr(got, "read_bytes") != NULL && strstr(got, " 4096") != NULL,
	    "prom: the counter since start");
	free(got);
	rw.p = NULL;
	rw.cgroup = "/a";
	rw.procs = 3;
	got = proc_row(WHOCOL_GROUP, DS_FMT_TSV, &rw);
	ok(strncmp(row(got), "1700000000.123\t/a\t3\t2.50\t", 23) == 0,
	    "cgroup row: path and procs");
	is_int(fields(row(got)), who_columns(WHOCOL_GROUP, cols),
	    "cgroup row: a field per column");
	ok(strstr(row(got), "\t7:0 riops=50\n") != NULL,
	    "cgroup row: the limit last");
	free(got);
}

/* An all row of io.stat in the columns of rates or of counters. */
static char *
cg_row(int rates, const char *limit)
{
	struct ds_col cols[4 + DS_IOS_N];
	struct cgrow rw;
	struct ds_writer w;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	memset(&rw, 0, sizeof(rw));
	rw.cgroup = "/b";
	strcpy(rw.device, "all");
	rw.u[0] = 8192;
	rw.v[0] = 1.5;
	rw.have = 1u;
	ds_writer_init(&w, f, DS_FMT_TSV, cols, cgio_columns(rates, cols),
	    1, "dwho");
	cgrow_write(&w, &rw, rates, limit, NS);
	ok(ds_w_report_end(&w) == 0, "io.stat row written");
	ds_writer_free(&w);
	fclose(f);
	return buf;
}

static void
test_cgrow(void)
{
	char *got = cg_row(0, NULL);

	is_str(row(got), "1700000000.123\t/b\tall\t8192\t-\t-\t-\t-\t-\t-\n",
	    "io.stat row: a counter; unknown missing; no limit");
	free(got);
	got = cg_row(1, "riops=50 wbps=1048576");
	is_str(row(got), "1700000000.123\t/b\tall\t1.50\t-\t-\t-\t-\t-\t"
	    "riops=50 wbps=1048576\n", "io.stat row: a rate, and the limit");
	free(got);
}

static void
test_columns(void)
{
	int proc, cg;
	struct ds_col cols[WHO_NCOLS];
	size_t n;

	ok(who_sort_key("kB_rd/s", &proc, &cg) == 0 && proc == DS_WR_READ &&
	    cg == DS_IOS_RBYTES, "keys: kB_rd/s is read in both sources");
	ok(who_sort_key("wios", &proc, &cg) == 0 && proc == DS_WR_SYSCW &&
	    cg == DS_IOS_WIOS, "keys: wios pairs with syscw/s");
	ok(who_sort_key("discards", &proc, &cg) == 0 && proc == WV_NONE,
	    "keys: discards only in io.stat");
	ok(who_sort_key("hit", &proc, &cg) == 0 && proc == WV_HIT &&
	    cg == WV_NONE, "keys: hit only in /proc/PID/io");
	ok(who_sort_key("io", &proc, &cg) == 0 && proc == WV_TOTAL,
	    "keys: io is the total");
	ok(who_sort_key("pid", &proc, &cg) == 0 && proc == WV_PID,
	    "keys: pid");
	is_int(who_sort_key("bogus", &proc, &cg), -ENOENT, "keys: unknown");

	n = who_columns(WHOCOL_THREAD, cols);
	is_int(n, 16, "columns -t: sixteen");
	is_str(cols[2].name, "tid", "columns -t: tid third");
	is_str(cols[12].name, "hit%", "columns: hit% before %iodelay");
	is_str(cols[n - 1].name, "start", "columns: start last");
	n = who_columns(WHOCOL_GROUP | WHOCOL_COUNTERS, cols);
	is_int(n, 12, "columns -g prom: twelve");
	is_str(cols[n - 1].name, "limit", "columns -g: the limit last");
	is_str(cols[3].name, "read_bytes", "columns prom: counters");
	n = cgio_columns(1, cols);
	is_int(n, 4 + DS_IOS_N, "io.stat columns");
	is_str(cols[n - 1].name, "limit", "io.stat columns: the limit last");
	is_str(cols[3].name, "rkB/s", "io.stat columns: rates");
	cgio_columns(0, cols);
	is_str(cols[3].name, "rbytes", "io.stat columns: counters");
}


static void
test_key(void)
{
	const char *why = NULL;
	int key = 99;

	is_int(who_key("read", 0, &key, &why), 0, "read: a proc key");
	is_int(key, DS_WR_READ, "read: whorow.v's");
	is_int(who_key("read", 1, &key, &why), 0, "read: in io.stat");
	is_int(key, DS_IOS_RBYTES, "read: cgrow.v's");
	is_int(who_key("hit", 1, &key, &why), -ENOTSUP,
	    "hit: not in io.stat");
	is_str(why, "not in io.stat (-G proc sums /proc/PID/io by cgroup)",
	    "hit: why");
	is_int(who_key("discards", 0, &key, &why), -ENOTSUP,
	    "discards: not in /proc/PID/io");
	is_int(key, WV_NONE, "discards: WV_NONE");
	is_str(why, "discards are counted only in io.stat (-g on a kernel "
	    "with the io controller)", "discards: why");
	is_int(who_key("nosuch", 0, &key, &why), -ENOENT, "nosuch: none");
	is_str(why, "not a sort key (read write reads writes discard "
	    "discards cancelled rchar wchar hit iodelay io pid, or a column "
	    "name)", "nosuch: why");
}

int
main(void)
{
	test_proc();
	test_cgrow();
	test_columns();
	test_key();
	return tap_done();
}
