/*
 * The writer's destination (lib/writer.c): ds_writer_to_file, commit
 * and abort; ds_w_raw, ds_w_report_end_into, ds_writer_error and
 * ds_writer_help.  Each file carries its own header, a failed report
 * leaves the old file and no temporary one, and the writer is back on
 * its stream after either.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"

static char dir[] = "/tmp/ds-unit-writer-file.XXXXXX";

static const struct ds_col cols[] = {
	{ "device", DS_T_STR, DS_P_LABEL, "device", "the device", 0, 0, 0 },
	{ "reads", DS_T_U64, DS_P_COUNTER, "reads_total", "reads done", 0,
	    0, 0 },
	{ "extra", DS_T_U64, DS_P_GAUGE, "extra", NULL, 0, 0, DS_C_WIDE },
};

static const struct ds_col cols2[] = {
	{ "device", DS_T_STR, DS_P_LABEL, "device", "the device", 0, 0, 0 },
	{ "queued", DS_T_U64, DS_P_GAUGE, "queued", "requests queued", 0,
	    0, 0 },
};

/* Temporary files left in dir ("NAME.tmpXXXXXX", see ds_atomic_open). */
static int
is_tmp(const struct dirent *e)
{
	return strstr(e->d_name, ".tmp") != NULL;
}

static int
ntmp(void)
{
	struct dirent **v;
	int n, i;

	if ((n = scandir(dir, &v, is_tmp, NULL)) < 0)
		return -1;
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
	return n;
}

/* The file as the library reads it; "(missing)" when it is not there. */
static const char *
slurp(const char *name)
{
	static struct ds_buf b;
	static struct ds_root r = { .fd = -1 };

	if (r.fd < 0 && ds_root_open(&r, dir) < 0)
		return "(no root)";
	if (ds_read_file(&r, name, &b) < 0)
		return "(missing)";
	return b.data;
}

static void
row(struct ds_writer *w, const char *dev, uint64_t n)
{
	ds_w_str(w, dev);
	ds_w_u64(w, n);
	ds_w_u64(w, n * 2);
	ds_w_row_end(w);
}

/* Reports to a file, one after another: each whole, with its header. */
static void
test_commit(void)
{
	struct ds_writer w;
	const char *name = "out.tsv";
	char path[256], *mem = NULL;
	size_t memlen = 0;
	FILE *stream = open_memstream(&mem, &memlen);

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	ds_writer_init(&w, stream, DS_FMT_TSV, cols, 3, 1, "t");
	is_int(ds_writer_to_file(&w, path), 0, "to_file: opened");
	row(&w, "sda", 1);
	is_str(slurp(name), "(missing)", "nothing at path before commit");
	is_int(ntmp(), 1, "one temporary file beside path");
	is_int(ds_writer_commit(&w), 0, "commit: 0");
	is_str(slurp(name), "device\treads\textra\nsda\t1\t2\n",
	    "the file: header and row");
	is_int(ntmp(), 0, "the temporary file renamed, not left");

	is_int(ds_writer_to_file(&w, path), 0, "second report: opened");
	row(&w, "sdb", 3);
	is_str(slurp(name), "device\treads\textra\nsda\t1\t2\n",
	    "the old file stays while the new one is written");
	is_int(ds_writer_commit(&w), 0, "second commit: 0");
	is_str(slurp(name), "device\treads\textra\nsdb\t3\t6\n",
	    "every file carries its own header");

	/* Back on the stream: the header there too, once. */
	row(&w, "sdc", 5);
	is_int(ds_writer_commit(&w), 0, "without a file: a report end");
	row(&w, "sdd", 7);
	is_int(ds_writer_commit(&w), 0, "and another");
	fflush(stream);
	is_str(mem, "device\treads\textra\nsdc\t5\t10\nsdd\t7\t14\n",
	    "after a commit the rows go to the stream again");
	is_str(slurp(name), "device\treads\textra\nsdb\t3\t6\n",
	    "the file untouched by the stream's reports");
	ds_writer_free(&w);
	fclose(stream);
	free(mem);
	unlink(path);
}

/* An aborted report: the old file stays, no temporary file is left. */
static void
test_abort(void)
{
	struct ds_writer w;
	const char *name = "keep.tsv";
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((f = fopen(path, "w")) != NULL) {
		fputs("old\n", f);
		fclose(f);
	}
	ds_writer_init(&w, stdout, DS_FMT_TSV, cols, 3, 1, "t");
	is_int(ds_writer_to_file(&w, path), 0, "abort: opened");
	row(&w, "sda", 1);
	ds_writer_abort(&w);
	is_str(slurp(name), "old\n", "abort: the old file stays");
	is_int(ntmp(), 0, "abort: no temporary file left");
	ds_writer_abort(&w);
	is_int(ntmp(), 0, "abort twice: nothing more happens");
	is_int(ds_writer_error(&w), 0, "abort: no error kept");

	/* Freed with a file open: removed, not renamed. */
	is_int(ds_writer_to_file(&w, path), 0, "free: opened");
	row(&w, "sdb", 2);
	ds_writer_free(&w);
	is_str(slurp(name), "old\n", "free with a file open: old file stays");
	is_int(ntmp(), 0, "free: no temporary file left");
	unlink(path);

	/* A directory that is not there: the error, and nothing opened. */
	ds_writer_init(&w, stdout, DS_FMT_TSV, cols, 3, 1, "t");
	is_int(ds_writer_to_file(&w, "/nonexistent-dir/x"), -ENOENT,
	    "to_file: a missing directory is -ENOENT");
	ds_writer_free(&w);
}

/* A full disk: commit fails, and nothing is renamed into place. */
static void
test_full(void)
{
	struct ds_writer w;
	FILE *full = fopen("/dev/full", "w");
	int e;

	if (full == NULL) {
		skip("a full disk", "no /dev/full");
		return;
	}
	ds_writer_init(&w, full, DS_FMT_TSV, cols, 3, 1, "t");
	ds_w_raw(&w, "text\n", 5);
	e = ds_writer_commit(&w);
	is_int(e, -ENOSPC, "raw text to /dev/full: -ENOSPC at the end");
	is_int(ds_writer_error(&w), -ENOSPC, "kept: ds_writer_error");
	ds_writer_free(&w);
	fclose(full);
}

/* Raw bytes and a second writer's families, into one file. */
static void
test_raw_into(void)
{
	struct ds_writer w, w2;
	const char *name = "m.prom";
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	ds_writer_init(&w, stdout, DS_FMT_PROM, cols, 2, 1, "t");
	ds_writer_init(&w2, stdout, DS_FMT_PROM, cols2, 2, 1, "t");
	is_int(ds_writer_to_file(&w, path), 0, "into: opened");
	ds_w_raw(&w, "# raw\n", 6);
	ds_w_str(&w, "sda");
	ds_w_u64(&w, 4);
	ds_w_row_end(&w);
	ds_w_str(&w2, "sda");
	ds_w_u64(&w2, 9);
	ds_w_row_end(&w2);
	is_int(ds_w_report_end(&w), 0, "into: the first report ends");
	is_int(ds_w_report_end_into(&w2, &w), 0, "into: the second too");
	is_int(ds_writer_commit(&w), 0, "into: committed");
	is_str(slurp(name), "# raw\n"
	    "# HELP t_reads_total reads done\n"
	    "# TYPE t_reads_total counter\n"
	    "t_reads_total{device=\"sda\"} 4\n"
	    "# HELP t_queued requests queued\n"
	    "# TYPE t_queued gauge\n"
	    "t_queued{device=\"sda\"} 9\n",
	    "raw text, then both writers' families, in one file");
	ds_writer_free(&w);
	ds_writer_free(&w2);
	unlink(path);
}

static void
test_help(void)
{
	struct ds_writer w;
	char *mem = NULL;
	size_t memlen = 0;
	FILE *f = open_memstream(&mem, &memlen);

	ds_writer_init(&w, stdout, DS_FMT_TSV, cols, 3, 1, "t");
	is_int(ds_writer_help(&w, f), 0, "help: 0");
	fclose(f);
	is_str(mem, "device                 the device\n"
	    "reads                  reads done\n"
	    "extra                  (+) \n",
	    "help: a line a column, (+) for a wide one");
	free(mem);
	ds_writer_free(&w);
}

int
main(void)
{
	if (mkdtemp(dir) == NULL) {
		char why[128];

		snprintf(why, sizeof(why), "mkdtemp: %s", strerror(errno));
		return skip_all(why);
	}
	test_commit();
	test_abort();
	test_full();
	test_raw_into();
	test_help();
	rmdir(dir);
	return tap_done();
}
