/*
 * The installed header alone: what a caller without lib/suite.h makes
 * of the opaque types, through their constructors.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "diskstat.h"
#include "tap.h"

static const struct ds_col cols[] = {
	{ "device", DS_T_STR, DS_P_LABEL, "device", NULL, 0, 0, 0 },
	{ "reads", DS_T_U64, DS_P_COUNTER, "reads_total", "Reads.", 0, 0, 0 },
};

static void
writer(void)
{
	struct ds_writer *w;
	const char *bad = NULL;
	size_t badlen = 0;
	char *text = NULL;
	size_t len = 0;
	FILE *fp;

	if ((fp = open_memstream(&text, &len)) == NULL) {
		skip("a writer made by ds_writer_new", "no open_memstream");
		return;
	}
	w = ds_writer_new(fp, DS_FMT_TSV, cols, 2, 1, "api");
	ok(w != NULL, "ds_writer_new makes a writer");
	if (w == NULL) {
		fclose(fp);
		free(text);
		return;
	}
	is_int(ds_writer_select(w, "reads,nope", &bad, &badlen), -EINVAL,
	    "an unknown column is refused");
	ok(bad != NULL && badlen == 4 && memcmp(bad, "nope", 4) == 0,
	    "and named");
	ds_w_str(w, "sda");
	ds_w_u64(w, 42);
	is_int(ds_w_row_end(w), 0, "a row ends");
	is_int(ds_w_report_end(w), 0, "the report ends");
	is_int(ds_writer_error(w), 0, "no error kept");
	ds_writer_delete(w);
	ds_writer_delete(NULL);
	fclose(fp);
	is_str(text, "device\treads\nsda\t42\n", "the rows as TSV");
	free(text);

	if ((fp = open_memstream(&text, &len)) == NULL)
		return;
	w = ds_writer_new(fp, DS_FMT_PROM, cols, 2, 0, "api");
	ok(w != NULL, "a prom writer");
	if (w != NULL) {
		ds_w_str(w, "sda");
		ds_w_u64(w, 7);
		ds_w_row_end(w);
		ds_w_report_end(w);
		ds_writer_delete(w);
	}
	fclose(fp);
	ok(text != NULL && strstr(text, "api_reads_total{device=\"sda\"} 7\n") != NULL,
	    "the prefix and labels in prom");
	free(text);
}

static void
blklat(void)
{
	struct ds_blklat *b = ds_blklat_new();

	ok(b != NULL, "ds_blklat_new makes a closed session");
	ds_blklat_close(b);
	ds_blklat_delete(b);	/* closing twice is fine */
	ds_blklat_delete(NULL);	/* a crash or a double free fails the test */
}

int
main(void)
{
	writer();
	blklat();
	return tap_done();
}
