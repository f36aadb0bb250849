/*
 * cmd/dpsi/rows.c: the columns of a report (the cgroup column only for a
 * cgroup; in prom a family per resource, kind and value, named and
 * converted to base units, for the resources asked for, in their
 * order); the default order; pairing, ranking and the top count of
 * dpsi_rows_order; the rows dpsi_rows_write makes (a row per line, or
 * one wide prom row with nulls for the lines a cgroup has not or the
 * mask leaves out; the share since the sample before); and -C's ranking
 * by share (avg10 without an earlier sample), "full" where there is no
 * "some", no line last, ties by path.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "dpsi/dpsi.h"
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

/* A cgroup with one io line of kind k (the rank's key: avg10, total). */
static struct ds_psi_cg *
add_io(struct ds_psi_sample *s, const char *path, enum ds_psi_kind k,
    uint64_t avg10, uint64_t total)
{
	struct ds_psi_cg *c = add(s, path, total, total);

	c->p[DS_PSI_IO].have = 1u << k;
	c->p[DS_PSI_IO].line[k].avg[0] = avg10;
	return c;
}

/* The rows of cur's first n as fmt, header included; malloc'd. */
static char *
rows(enum ds_fmt fmt, const struct dpsi_rows *rs,
    const struct ds_psi_sample *prev, const struct ds_psi_sample *cur,
    size_t n)
{
	struct dpsi_cols pc;
	struct ds_writer w;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	dpsi_columns(rs->how, rs->order, rs->nres, &pc);
	ds_writer_init(&w, f, fmt, pc.col, pc.n, 1, "dpsi");
	dpsi_rows_write(&w, rs, prev, cur, n);
	ok(ds_w_report_end(&w) == 0, "rows written without error");
	ds_writer_free(&w);
	fclose(f);
	return buf;
}

static void
test_columns(void)
{
	static const enum ds_psi_res order[] = { DS_PSI_IO, DS_PSI_CPU };
	struct dpsi_cols pc;

	is_int(dpsi_columns(0, order, 2, &pc), 8, "table: 8 columns");
	is_str(pc.col[1].name, "resource", "no cgroup column");
	is_str(pc.col[7].name, "stall%", "stall% last");
	is_int(dpsi_columns(DPSI_COL_CGROUP, order, 2, &pc), 9,
	    "with cgroup: 9");
	is_str(pc.col[1].name, "cgroup", "cgroup second");
	ok(pc.col[1].prom == DS_P_NONE, "not a label outside prom");

	is_int(dpsi_columns(DPSI_COL_PROM, order, 2, &pc),
	    1 + 2 * DS_PSI_NKINDS * DPSI_PER_LINE, "prom: time + families");
	is_str(pc.col[1].name, "io_some_avg10_ratio", "first family");
	is_str(pc.col[1].metric, "io_some_avg10_ratio", "metric = name");
	ok(pc.col[1].prom == DS_P_GAUGE && pc.col[1].scale == 0.01,
	    "avg10: a gauge, percent to ratio");
	is_str(pc.col[4].name, "io_some_stall_seconds_total", "the total");
	ok(pc.col[4].prom == DS_P_COUNTER && pc.col[4].div10 == 6 &&
	    pc.col[4].type == DS_T_U64, "total: a counter, us to s");
	is_str(pc.col[4].help, "PSI io some: cumulative stall time, seconds.",
	    "total's help");
	is_str(pc.col[5].help, "PSI io some: share of the last interval "
	    "stalled, from the total (0 to 1).", "share's help");
	is_str(pc.col[6].name, "io_full_avg10_ratio", "then full");
	is_str(pc.col[11].name, "cpu_some_avg10_ratio", "then cpu, as asked");

	dpsi_columns(DPSI_COL_PROM | DPSI_COL_CGROUP, order, 1, &pc);
	ok(pc.n == 2 + DS_PSI_NKINDS * DPSI_PER_LINE &&
	    pc.col[1].prom == DS_P_LABEL, "prom cgroup: a label");
	is_str(pc.col[1].metric, "cgroup", "labelled cgroup");
}

static void
test_order(void)
{
	enum ds_psi_res o[DS_PSI_NRES];

	is_int(dpsi_order_default(o), DS_PSI_NRES, "default: every resource");
	ok(o[0] == DS_PSI_IO && o[1] == DS_PSI_MEMORY && o[2] == DS_PSI_CPU &&
	    o[3] == DS_PSI_IRQ, "default: io memory cpu irq, storage first");
}

static void
test_rows(void)
{
	static const enum ds_psi_res io_cpu[] = { DS_PSI_IO, DS_PSI_CPU };
	struct ds_psi_sample a = { 0 }, b = { 0 };
	struct dpsi_rows rs = { 0, io_cpu, 2, ~0u, 0, 0, NOW };
	size_t n = 99;
	char *got;

	/* The system, 10 s apart: 1 s more of some stall is 10%. */
	a.up_ns = 100 * S;
	b.up_ns = 110 * S;
	add(&a, NULL, 5000000, 100);
	add(&b, NULL, 6000000, 100);
	is_int(dpsi_rows_order(&rs, NULL, &b, &n), 0, "order: no prev");
	is_int((int)n, 1, "order: one element");
	got = rows(DS_FMT_TSV, &rs, NULL, &b, n);
	is_str(got, "time\tresource\tkind\tavg10\tavg60\tavg300\ttotal\t"
	    "stall%\n"
	    "1700000000.123\tio\tsome\t1.50\t0.20\t0.03\t6000000\t-\n"
	    "1700000000.123\tio\tfull\t0.00\t0.00\t0.00\t100\t-\n",
	    "tsv without prev: the file's values, no share, no cpu line");
	free(got);
	is_int(dpsi_rows_order(&rs, &a, &b, &n), 0, "order: paired");
	ok(b.cg[0].prev == &a.cg[0], "order: the system with the system");
	got = rows(DS_FMT_TSV, &rs, &a, &b, n);
	is_str(got, "time\tresource\tkind\tavg10\tavg60\tavg300\ttotal\t"
	    "stall%\n"
	    "1700000000.123\tio\tsome\t1.50\t0.20\t0.03\t6000000\t10.00\n"
	    "1700000000.123\tio\tfull\t0.00\t0.00\t0.00\t100\t0.00\n",
	    "tsv with prev: the share over 10 s");
	free(got);

	/* Prometheus: one wide row; cpu (not read) and a masked io null. */
	rs.how = DPSI_COL_PROM;
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
	struct dpsi_rows rs = { DPSI_COL_CGROUP, io, 1, ~0u, 1, 0, NOW };
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
	is_int(dpsi_rows_order(&rs, &a, &b, &n), 0, "rank: 0");
	is_int((int)n, 3, "rank: every cgroup without a top");
	ok(strcmp(b.cg[0].path, "/b") == 0 && strcmp(b.cg[1].path, "/c") == 0
	    && strcmp(b.cg[2].path, "/a") == 0, "rank: most stalled first");
	rs.top = 2;
	is_int(dpsi_rows_order(&rs, &a, &b, &n), 0, "top 2: 0");
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
	dpsi_rows_order(&rs, &a, &b, &n);
	is_int((int)n, 3, "top above the count: all");
	/* Without rank the walk's order stays. */
	rs.rank = 0;
	rs.top = 0;
	ds_psi_sample_clear(&b);
	add(&b, "/z", 900000, 0);
	add(&b, "/y", 1000, 0);
	dpsi_rows_order(&rs, &a, &b, &n);
	ok(strcmp(b.cg[0].path, "/z") == 0 && b.cg[0].prev == NULL,
	    "no rank: order kept; a new cgroup has no prev");
	ds_psi_sample_free(&a);
	ds_psi_sample_free(&b);
}

static void
test_rank_sample(void)
{
	struct ds_psi_sample a = { 0 }, b = { 0 };
	static const char *const want[] = { "/busy", "/irq", "/b", "/c",
	    "/none" };
	size_t i, bad = 0;
	double key;

	a.up_ns = 10 * S;
	b.up_ns = 11 * S;
	add_io(&a, "/c", DS_PSI_SOME, 0, 0);
	add_io(&a, "/busy", DS_PSI_SOME, 0, 0);
	add_io(&a, "/irq", DS_PSI_FULL, 0, 0);
	add_io(&a, "/b", DS_PSI_SOME, 0, 0);
	add_io(&b, "/c", DS_PSI_SOME, 9000, 100000);
	add_io(&b, "/none", DS_PSI_SOME, 0, 0)->p[DS_PSI_IO].have = 0;
	add_io(&b, "/busy", DS_PSI_SOME, 0, 600000);
	add_io(&b, "/irq", DS_PSI_FULL, 0, 300000);
	add_io(&b, "/b", DS_PSI_SOME, 0, 100000);
	ds_psi_sample_pair(&a, &b);
	dpsi_rank(&a, &b, DS_PSI_IO);
	for (i = 0; i < 5; i++)
		if (strcmp(b.cg[i].path, want[i]) != 0)
			bad++;
	is_int(bad, 0, "rank: by share, full where no some, ties by path, "
	    "no line last");
	key = dpsi_rank_key(&a, &b, &b.cg[0], DS_PSI_IO);
	ok(key > 59.999 && key < 60.001 &&
	    dpsi_rank_key(&a, &b, &b.cg[4], DS_PSI_IO) == -1,
	    "rank: keys are the shares, -1 for none");
	ok(b.cg[0].prev != NULL && strcmp(b.cg[0].prev->path, "/busy") == 0,
	    "rank: the links follow their elements");
	/* Without an earlier sample: by avg10. */
	dpsi_rank(NULL, &b, DS_PSI_IO);
	is_str(b.cg[0].path, "/c", "rank without prev: by avg10");
	ok(dpsi_rank_key(NULL, &b, &b.cg[0], DS_PSI_IO) == 9000,
	    "rank without prev: the key is avg10");
	ds_psi_sample_free(&a);
	ds_psi_sample_free(&b);
}

int
main(void)
{
	test_columns();
	test_order();
	test_rows();
	test_rank();
	test_rank_sample();
	return tap_done();
}
