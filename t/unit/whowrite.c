/*
 * ds_whorow_write (lib/whorow.c) and ds_cgrow_write (lib/cgio.c): a row
 * holds as many fields as ds_who_columns or ds_cgio_columns made, in
 * their order; unknown values are missing; a uid without a name is
 * shown as the number; counters in prom, not rates.  ds_who_note: each
 * note once, in order, none when nothing is to be said.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
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
proc_row(unsigned int how, enum ds_fmt fmt, const struct ds_whorow *rw)
{
	struct ds_whocfg c = { 100, 1, 0, DS_WV_PID, 0, 0, 0 };
	struct ds_users u = { 0 };
	struct ds_col cols[DS_WHO_NCOLS];
	struct ds_writer w;
	char *buf = NULL;
	size_t len = 0, n = ds_who_columns(how, cols);
	FILE *f = open_memstream(&buf, &len);

	u.loaded = 1;	/* no passwd: names are numbers */
	ds_writer_init(&w, f, fmt, cols, n, 1, "dwho");
	ds_whorow_write(&w, how, &c, &u, NULL, rw, (how & DS_WHOCOL_GROUP) ?
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
	struct ds_whorow rw;
	struct ds_col cols[DS_WHO_NCOLS];
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
	got = proc_row(DS_WHOCOL_THREAD, DS_FMT_TSV, &rw);
	is_str(row(got), "1700000000.123\t42\t43\t1234\tcat\t2.50\t-\t-\t-\t-"
	    "\t-\t-\t-\t-\t-\t7\n", "thread row: ids, number for user, rate");
	is_int(fields(row(got)), ds_who_columns(DS_WHOCOL_THREAD, cols),
	    "thread row: a field per column");
	free(got);
	p.io.have = 1u << DS_IO_READ_BYTES;
	p.io.v[DS_IO_READ_BYTES] = 4096;
	got = proc_row(DS_WHOCOL_COUNTERS, DS_FMT_PROM, &rw);
	ok(strstr(got, "read_bytes") != NULL && strstr(got, " 4096") != NULL,
	    "prom: the counter since start");
	free(got);
	rw.p = NULL;
	rw.cgroup = "/a";
	rw.procs = 3;
	got = proc_row(DS_WHOCOL_GROUP, DS_FMT_TSV, &rw);
	ok(strncmp(row(got), "1700000000.123\t/a\t3\t2.50\t", 23) == 0,
	    "cgroup row: path and procs");
	is_int(fields(row(got)), ds_who_columns(DS_WHOCOL_GROUP, cols),
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
	struct ds_cgrow rw;
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
	ds_writer_init(&w, f, DS_FMT_TSV, cols, ds_cgio_columns(rates, cols),
	    1, "dwho");
	ds_cgrow_write(&w, &rw, rates, limit, NS);
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
test_notes(void)
{
	struct ds_whonotes n = { 0 };
	char msg[512];

	is_int(ds_who_note(&n, 0, msg, sizeof(msg)), 0, "notes: none");
	n.source = "-g: a source";
	n.bad = 1;
	n.first_bad = 9;
	n.unreadable = 2;
	is_int(ds_who_note(&n, 0, msg, sizeof(msg)), 1, "notes: one");
	is_str(msg, "-g: a source", "notes: the source first");
	ds_who_note(&n, 0, msg, sizeof(msg));
	is_str(msg, "1 malformed proc/PID/stat or io file (first: pid 9): "
	    "shown as - or skipped", "notes: the damage, singular");
	ds_who_note(&n, 1, msg, sizeof(msg));
	ok(strstr(msg, "of 2 processes are unreadable (/proc/PID/io refused "
	    "even to root)") != NULL, "notes: unreadable, as root");
	is_int(ds_who_note(&n, 0, msg, sizeof(msg)), 0, "notes: each once");
	n.off_delay = 1;
	ds_who_note(&n, 0, msg, sizeof(msg));
	ok(strstr(msg, "delay accounting is off, %iodelay is -:") == msg,
	    "notes: delay accounting off, said when it is found");
	is_int(ds_who_note(&n, 0, msg, sizeof(msg)), 0, "notes: all said");
}

int
main(void)
{
	test_notes();
	test_proc();
	test_cgrow();
	return tap_done();
}
