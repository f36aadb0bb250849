/*
 * Tracepoint format files of several kernels (t/fixtures/dlat, see its
 * PROVENANCE): the parser, and the offsets dlat's programs are given.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "tap.h"

#define FIXDIR "t/fixtures/dlat/"

static int
load(const char *kernel, const char *event, struct ds_tpfmt *f)
{
	struct ds_root r;
	struct ds_buf b = { 0 };
	char rel[256];
	int e;

	snprintf(rel, sizeof(rel), "%s/%s/format", kernel, event);
	if ((e = ds_root_open(&r, FIXDIR)) < 0)
		return e;
	if ((e = ds_read_file(&r, rel, &b)) == 0)
		e = ds_tpfmt_parse(b.data, f);
	ds_root_close(&r);
	ds_buf_free(&b);
	return e;
}

struct want {
	const char *kernel, *event;
	uint32_t dev, sector, nr_sector, rwbs, rwbs_len, comm;
	const char *err;	/* the error field's name */
};

/* From the fixtures' TRACE_EVENT layouts (comm 0: the event has none). */
static const struct want wants[] = {
	{ "4.9", "block_rq_issue", 8, 16, 24, 32, 8, 40, NULL },
	{ "4.9", "block_rq_complete", 8, 16, 24, 32, 8, 0, "errors" },
	{ "4.9", "block_bio_queue", 8, 16, 24, 28, 8, 36, NULL },
	{ "4.9", "block_bio_complete", 8, 16, 24, 32, 8, 0, "error" },
	{ "5.10", "block_rq_issue", 8, 16, 24, 32, 8, 40, NULL },
	{ "5.10", "block_rq_complete", 8, 16, 24, 32, 8, 0, "error" },
	{ "5.10", "block_bio_queue", 8, 16, 24, 28, 8, 36, NULL },
	{ "6.11", "block_rq_issue", 8, 16, 24, 34, 8, 42, NULL },
	{ "6.11", "block_rq_complete", 8, 16, 24, 34, 8, 0, "error" },
	{ "6.11", "block_bio_queue", 8, 16, 24, 28, 8, 36, NULL },
	{ "6.16", "block_rq_issue", 8, 16, 24, 34, 9, 43, NULL },
	{ "6.16", "block_rq_complete", 8, 16, 24, 34, 9, 0, "error" },
	{ "6.16", "block_bio_queue", 8, 16, 24, 28, 9, 37, NULL },
	{ "6.18", "block_rq_issue", 8, 16, 24, 34, 10, 44, NULL },
	{ "6.18", "block_rq_complete", 8, 16, 24, 34, 10, 0, "error" },
	{ "6.18", "block_rq_insert", 8, 16, 24, 34, 10, 44, NULL },
	{ "6.18", "block_bio_queue", 8, 16, 24, 28, 10, 38, NULL },
	{ "6.18", "block_bio_complete", 8, 16, 24, 32, 10, 0, "error" },
};

static void
check(const struct want *w)
{
	struct ds_tpfmt f;
	struct ds_blkev ev;
	const struct ds_tpfield *x;
	char name[128];
	int e;

	snprintf(name, sizeof(name), "%s %s", w->kernel, w->event);
	e = load(w->kernel, w->event, &f);
	is_int(e, 0, name);
	if (e < 0)
		return;
	is_str(f.name, w->event, "  name");
	e = ds_blkev_layout(&f, w->comm != 0, &ev);
	is_int(e, 0, "  layout accepted");
	is_int(ev.dev, w->dev, "  dev offset");
	is_int(ev.sector, w->sector, "  sector offset");
	is_int(ev.nr_sector, w->nr_sector, "  nr_sector offset");
	is_int(ev.rwbs, w->rwbs, "  rwbs offset");
	is_int(ev.rwbs_len, w->rwbs_len, "  rwbs length");
	is_int(ev.comm, w->comm, "  comm offset");
	is_int(ev.id, f.id, "  tracepoint id");
	if (w->err != NULL) {
		x = ds_tpfmt_field(&f, w->err);
		ok(x != NULL && x->size == 4 && x->is_signed == 1,
		    "  %s: int, signed", w->err);
	}
	x = ds_tpfmt_field(&f, "common_pid");
	ok(x != NULL && x->offset == 4 && x->size == 4, "  common_pid at 4");
}

int
main(void)
{
	struct ds_tpfmt f;
	struct ds_blkev ev;
	const struct ds_tpfield *x;
	size_t i;
	char text[1024];

	for (i = 0; i < sizeof(wants) / sizeof(wants[0]); i++)
		check(&wants[i]);

	/* The data_loc and array details of one file. */
	if (load("6.18", "block_rq_issue", &f) == 0) {
		x = ds_tpfmt_field(&f, "cmd");
		ok(x != NULL && x->data_loc && x->offset == 60 && x->size == 4,
		    "cmd: __data_loc at 60, 4 bytes");
		is_str(x != NULL ? x->type : NULL, "__data_loc char[]",
		    "cmd: type");
		x = ds_tpfmt_field(&f, "ioprio");
		ok(x != NULL && x->offset == 32 && x->size == 2,
		    "6.18 ioprio at 32");
		x = ds_tpfmt_field(&f, "rwbs");
		ok(x != NULL && x->array == 10 && x->is_signed == 0,
		    "6.18 rwbs: char[10], unsigned");
		is_int(ds_tpfmt_size(&f), 64, "record size 64");
		is_int(f.id, 2104, "ID 2104");
	}
	ok(load("4.9", "block_rq_issue", &f) == 0 &&
	    ds_tpfmt_field(&f, "ioprio") == NULL, "4.9: no ioprio");

	/* Damaged or unexpected formats are refused, never guessed. */
	is_int(ds_tpfmt_parse("name: x\nformat:\n", &f), -EINVAL, "no ID");
	is_int(ds_tpfmt_parse("name: x\nID: 1\n", &f), -EINVAL, "no field");
	is_int(ds_tpfmt_parse("ID: 1\n\tfield:int a;\toffset:x;\tsize:4;\n",
	    &f), -EINVAL, "offset not a number");
	is_int(ds_tpfmt_parse("ID: 1\n\tfield:int a;\tsize:4;\n", &f),
	    -EINVAL, "no offset");
	is_int(ds_tpfmt_parse("ID: 1\n\tfield:;\toffset:8;\tsize:4;\n", &f),
	    -EINVAL, "empty declaration");
	is_int(ds_tpfmt_parse("ID: 99999999999\n\tfield:int a;\toffset:8;"
	    "\tsize:4;\n", &f), -EINVAL, "ID past 32 bits");
	ok(ds_tpfmt_parse("ID: 7\n\tfield:int a;\toffset:8;\tsize:4;\n",
	    &f) == 0 && f.f[0].is_signed == -1, "no signed: unknown");

#define F(dev, sec, nr, rwbs) "ID: 5\n" \
	"\tfield:dev_t dev;\toffset:" dev ";\tsize:4;\tsigned:0;\n" \
	"\tfield:sector_t sector;\toffset:" sec ";\tsize:8;\tsigned:0;\n" \
	"\tfield:unsigned int nr_sector;\toffset:" nr ";\tsize:4;\tsigned:0;\n" \
	"\tfield:char rwbs[" rwbs "];\toffset:28;\tsize:" rwbs ";\tsigned:0;\n"
	ok(ds_tpfmt_parse(F("8", "16", "24", "8"), &f) == 0 &&
	    ds_blkev_layout(&f, 0, &ev) == 0, "a good layout");
	ok(ds_tpfmt_parse(F("4", "16", "24", "8"), &f) == 0 &&
	    ds_blkev_layout(&f, 0, &ev) == -EPROTO, "dev below 8: refused");
	ok(ds_tpfmt_parse(F("8", "12", "24", "8"), &f) == 0 &&
	    ds_blkev_layout(&f, 0, &ev) == -EPROTO, "sector misaligned: refused");
	ok(ds_tpfmt_parse(F("8", "16", "24", "1"), &f) == 0 &&
	    ds_blkev_layout(&f, 0, &ev) == -EPROTO, "rwbs of 1 byte: refused");
	ok(ds_tpfmt_parse(F("8", "16", "24", "8"), &f) == 0 &&
	    ds_blkev_layout(&f, 1, &ev) == -EPROTO, "no comm: refused when wanted");
	snprintf(text, sizeof(text), "%s", F("8", "16", "24", "8"));
	memcpy(strstr(text, " sector;"), " sectoz;", 8);
	ok(ds_tpfmt_parse(text, &f) == 0 && ds_blkev_layout(&f, 0, &ev) ==
	    -EPROTO, "sector missing: refused");
	return tap_done();
}
