/*
 * lib/psirow.c, the report's rows: the default order; pairing, ranking
 * and the top count of ds_psi_rows_order; the rows ds_psi_rows_write
 * makes (a row per line, or one wide prom row with nulls for the
 * lines a cgroup has not or the mask leaves out; the share since the
 * sample before); what ends a report after a sample (each errno of
 * ds_psi_sample_read with the flags that change its meaning); and the
 * message for a trigger's line that is not there.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tap.h"

#define S 1000000000ull
/* 2023-11-14T22:13:20.123Z */
#define NOW (1700000000ull * S + 123000000ull)

/* A cgroup (path NULL: the system) with io some and full lines. */
static struct ds_psi_cg *
add(struct ds_psi_sample *s, const char *path, uint64_t some, uint64_t full)
{
	struct ds_psi_cg *c = ds_psi_sample_add(s, path ? "/" : NULL, path);

	if (c == NULL) {
		perror("ds_psi_sample_add");
		exit(1);
	}
	c->ok = 1u << DS_PSI_IO;
	c->p[DS_PSI_IO].have = 3;
	c->p[DS_PSI_IO].line[DS_PSI_SOME] = (struct ds_psi_line){
	    { 150, 20, 3 }, some };
	c->p[DS_PSI_IO].line[DS_PSI_FULL] = (struct ds_psi_line){
	    { 0, 0, 0 }, full };
	return c;
}

/* The rows of cur's first n as fmt, header included; malloc'd. */
static char *
rows(enum ds_fmt fmt, const struct ds_psi_rows *rs,
    const struct ds_psi_sample *prev, const struct ds_psi_sample *cur,
    size_t n)
{
	struct ds_psi_cols pc;
	struct ds_writer w;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ds_psi_columns(rs->how, rs->order, rs->nres, &pc);
	ds_writer_init(&w, f, fmt, pc.col, pc.n, 1, "dpsi");
	ds_psi_rows_write(&w, rs, prev, cur, n);
	ok(ds_w_report_end(&w) == 0, "rows written without error");
	ds_writer_free(&w);
	fclose(f);
	return buf;
}

static void
test_order(void)
{
	enum ds_psi_res o[DS_PSI_NRES];

	is_int(ds_psi_order_default(o), DS_PSI_NRES, "default: every resource");
	ok(o[0] == DS_PSI_IO && o[1] == DS_PSI_MEMORY && o[2] == DS_PSI_CPU &&
	    o[3] == DS_PSI_IRQ, "default: io memory cpu irq, storage first");
}

static void
test_rows(void)
{
	static const enum ds_psi_res io_cpu[] = { DS_PSI_IO, DS_PSI_CPU };
	struct ds_psi_sample a = { 0 }, b = { 0 };
	struct ds_psi_rows rs = { 0, io_cpu, 2, ~0u, 0, 0, NOW };
	size_t n = 99;
	char *got;

	/* The system, 10 s apart: 1 s more of some stall is 10%. */
	a.up_ns = 100 * S;
	b.up_ns = 110 * S;
	add(&a, NULL, 5000000, 100);
	add(&b, NULL, 6000000, 100);
	is_int(ds_psi_rows_order(&rs, NULL, &b, &n), 0, "order: no prev");
	is_int((int)n, 1, "order: one element");
	got = rows(DS_FMT_TSV, &rs, NULL, &b, n);
	is_str(got, "time\tresource\tkind\tavg10\tavg60\tavg300\ttotal\t"
	    "stall%\n"
	    "1700000000.123\tio\tsome\t1.50\t0.20\t0.03\t6000000\t-\n"
	    "1700000000.123\tio\tfull\t0.00\t0.00\t0.00\t100\t-\n",
	    "tsv without prev: the file's values, no share, no cpu line");
	free(got);
	is_int(ds_psi_rows_order(&rs, &a, &b, &n), 0, "order: paired");
	ok(b.cg[0].prev == &a.cg[0], "order: the system with the system");
	got = rows(DS_FMT_TSV, &rs, &a, &b, n);
	is_str(got, "time\tresource\tkind\tavg10\tavg60\tavg300\ttotal\t"
	    "stall%\n"
	    "1700000000.123\tio\tsome\t1.50\t0.20\t0.03\t6000000\t10.00\n"
	    "1700000000.123\tio\tfull\t0.00\t0.00\t0.00\t100\t0.00\n",
	    "tsv with prev: the share over 10 s");
	free(got);

	/* Prometheus: one wide row; cpu (not read) and a masked io null. */
	rs.how = DS_PSICOL_PROM;
	got = rows(DS_FMT_PROM, &rs, &a, &b, n);
	ok(got != NULL &&
	    strstr(got, "\ndpsi_io_some_avg10_ratio 0.015\n") &&
	    strstr(got, "\ndpsi_io_some_avg300_ratio 0.0003\n") &&
	    strstr(got, "\ndpsi_io_some_stall_seconds_total 6.000000\n") &&
	    strstr(got, "\ndpsi_io_full_stall_seconds_total 0.000100\n") &&
	    strstr(got, "\ndpsi_io_some_stall_ratio 0.1\n") &&
	    strstr(got, "\ndpsi_io_full_stall_ratio 0\n") &&
	    strstr(got, "cpu_") == NULL,
	    "prom: io in base units (s, ratios), cpu null so left out");
	free(got);
	rs.how = 0;
	rs.mask = 1u << DS_PSI_CPU;
	got = rows(DS_FMT_TSV, &rs, &a, &b, n);
	is_str(got, "time\tresource\tkind\tavg10\tavg60\tavg300\ttotal\t"
	    "stall%\n", "mask without io: no io rows");
	free(got);
	ds_psi_sample_free(&a);
	ds_psi_sample_free(&b);
}

static void
test_rank(void)
{
	static const enum ds_psi_res io[] = { DS_PSI_IO };
	struct ds_psi_sample a = { 0 }, b = { 0 };
	struct ds_psi_rows rs = { DS_PSICOL_CGROUP, io, 1, ~0u, 1, 0, NOW };
	size_t n;
	char *got;

	a.up_ns = 100 * S;
	b.up_ns = 101 * S;
	add(&a, "/a", 1000, 0);
	add(&a, "/b", 1000, 0);
	add(&a, "/c", 1000, 0);
	/* In 1 s: /a 1%, /b 50%, /c 20%. */
	add(&b, "/a", 11000, 0);
	add(&b, "/b", 501000, 0);
	add(&b, "/c", 201000, 0);
	is_int(ds_psi_rows_order(&rs, &a, &b, &n), 0, "rank: 0");
	is_int((int)n, 3, "rank: every cgroup without a top");
	ok(strcmp(b.cg[0].path, "/b") == 0 && strcmp(b.cg[1].path, "/c") == 0
	    && strcmp(b.cg[2].path, "/a") == 0, "rank: most stalled first");
	rs.top = 2;
	is_int(ds_psi_rows_order(&rs, &a, &b, &n), 0, "top 2: 0");
	is_int((int)n, 2, "top 2: two");
	got = rows(DS_FMT_TSV, &rs, &a, &b, n);
	is_str(got, "time\tcgroup\tresource\tkind\tavg10\tavg60\tavg300\t"
	    "total\tstall%\n"
	    "1700000000.123\t/b\tio\tsome\t1.50\t0.20\t0.03\t501000\t50.00\n"
	    "1700000000.123\t/b\tio\tfull\t0.00\t0.00\t0.00\t0\t0.00\n"
	    "1700000000.123\t/c\tio\tsome\t1.50\t0.20\t0.03\t201000\t20.00\n"
	    "1700000000.123\t/c\tio\tfull\t0.00\t0.00\t0.00\t0\t0.00\n",
	    "top 2: the two most stalled, with the cgroup column");
	free(got);
	rs.top = 10;
	ds_psi_rows_order(&rs, &a, &b, &n);
	is_int((int)n, 3, "top above the count: all");
	/* Without rank the walk's order stays. */
	rs.rank = 0;
	rs.top = 0;
	ds_psi_sample_clear(&b);
	add(&b, "/z", 900000, 0);
	add(&b, "/y", 1000, 0);
	ds_psi_rows_order(&rs, &a, &b, &n);
	ok(strcmp(b.cg[0].path, "/z") == 0 && b.cg[0].prev == NULL,
	    "no rank: order kept; a new cgroup has no prev");
	ds_psi_sample_free(&a);
	ds_psi_sample_free(&b);
}

static void
test_fatal(void)
{
	struct ds_psi_sample s = { 0 };
	struct ds_psi_src src;
	struct ds_buf b = { 0 };
	struct ds_psi_note n = { NULL, DS_PSI_IO, -EOPNOTSUPP, { 0 } };

	memset(&src, 0, sizeof(src));
	src.topfd = -1;
	is_int(ds_psi_sample_fatal(&src, &s, 0, 0, &b), 0, "0: a report");
	is_int(ds_psi_sample_fatal(&src, &s, -ENOENT, 0, &b), 1,
	    "system, ENOENT: ends");
	is_str(b.data, "proc/pressure: PSI is disabled in this kernel: boot "
	    "with psi=1 (or build with CONFIG_PSI=y)", "no proc/pressure");
	is_int(ds_psi_sample_fatal(&src, &s, -ENODATA, 0, &b), 1,
	    "ENODATA: ends");
	is_str(b.data, "proc/pressure: no pressure files", "no files");
	is_int(ds_psi_sample_fatal(&src, &s, -ENODATA, 1, &b), 0,
	    "ENODATA after a warning: the warning said it");
	src.explicit = 1;
	is_int(ds_psi_sample_fatal(&src, &s, -ENODATA, 0, &b), 0,
	    "ENODATA with -r: each file noted");
	src.explicit = 0;
	is_int(ds_psi_sample_fatal(&src, &s, -EACCES, 0, &b), 0,
	    "system, another errno: noted, a report");
	b.len = 5;
	is_int(ds_psi_sample_fatal(&src, &s, -ENOMEM, 0, &b), -ENOMEM,
	    "ENOMEM");
	is_int((int)b.len, 0, "ENOMEM: no message");

	/* PSI off: the last note is the message. */
	s.note = &n;
	s.nnote = 1;
	is_int(ds_psi_sample_fatal(&src, &s, -EOPNOTSUPP, 0, &b), 1,
	    "EOPNOTSUPP: ends");
	is_str(b.data, "proc/pressure/io: PSI is disabled in this kernel: "
	    "boot with psi=1", "EOPNOTSUPP: the note's message");
	s.note = NULL;
	s.nnote = 0;

	/* A cgroup (-c): gone, accounting off, or another errno. */
	src.topfd = 3;
	src.top = "/a";
	is_int(ds_psi_sample_fatal(&src, &s, -ENOENT, 0, &b), 1,
	    "cgroup ENOENT: ends");
	ok(strncmp(b.data, "cgroup /a: no pressure files: the cgroup is "
	    "gone", 43) == 0, "cgroup gone: %s", b.data);
	ds_psi_sample_fatal(&src, &s, -ENODEV, 0, &b);
	is_str(b.data, "cgroup /a: pressure accounting is off for this "
	    "cgroup: echo 1 > cgroup.pressure", "cgroup accounting off");
	ds_psi_sample_fatal(&src, &s, -EACCES, 0, &b);
	is_str(b.data, "cgroup /a: Permission denied", "cgroup: an errno");
	is_int(ds_psi_sample_fatal(&src, &s, -ENODEV, 1, &b), 0,
	    "cgroup after a warning: said");
	/* A walk (-C): any error ends it, warned or not. */
	src.all = 1;
	is_int(ds_psi_sample_fatal(&src, &s, -EMFILE, 1, &b), 1,
	    "walk: an error ends");
	is_str(b.data, "cgroup /a: Too many open files", "walk: the errno");
	is_int(ds_psi_sample_fatal(&src, &s, 0, 0, &b), 0,
	    "walk: nothing below the top is an empty report");
	ds_buf_free(&b);
}

static void
test_noline(void)
{
	struct ds_psi_trigger tr = { DS_PSI_IO, DS_PSI_FULL, 100000, 1000000 };
	struct ds_psi_sample s = { 0 };
	struct ds_buf b = { 0 };

	is_int(ds_psi_noline_msg(&s, &tr, NULL, &b), 1, "empty sample: no line");
	is_str(b.data, "io full: no such line in proc/pressure/io",
	    "the system's file named");
	add(&s, NULL, 1, 2);
	is_int(ds_psi_noline_msg(&s, &tr, NULL, &b), 0, "io full: there");
	tr.res = DS_PSI_CPU;
	tr.kind = DS_PSI_SOME;
	is_int(ds_psi_noline_msg(&s, &tr, "/a", &b), 1, "cpu some: not read");
	is_str(b.data, "cpu some: no such line in cgroup /a",
	    "the cgroup named");
	ds_psi_sample_free(&s);
	ds_buf_free(&b);
}

int
main(void)
{
	test_order();
	test_rows();
	test_rank();
	test_fatal();
	test_noline();
	return tap_done();
}
