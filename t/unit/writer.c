/*
 * The row writer.  Run without arguments: TAP.  Run as "writer FMT":
 * prints hostile rows in FMT for t/0001-writer.t to check with jq/awk.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"
#include "tap.h"
#include "util/util.h"

static const struct ds_col cols[] = {
	{ "time", DS_T_TIME, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "name", DS_T_STR, DS_P_LABEL, "name", NULL, 0, 0, 0 },
	{ "count", DS_T_U64, DS_P_COUNTER, "count_total", "A count.", 0, 0, 0 },
	{ "ms", DS_T_U64, DS_P_COUNTER, "seconds_total", "Time.\\ \n", 3, 0, 0 },
	{ "rate", DS_T_F2, DS_P_GAUGE, "rate_bytes", "kB/s as bytes/s.", 0, 1024, 0 },
};
#define NCOLS (sizeof(cols) / sizeof(cols[0]))

static const char *hostile[] = {
	"plain",
	"tab\there",
	"new\nline",
	"cr\rhere",
	"back\\slash",
	"quote\"d",
	"ctl\001\002\033[31m",
	"bad utf8 \xff\xfe \xc3\x28 \xed\xa0\x80 \xf4\x90\x80\x80",
	"good utf8 \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
	"",
	"del\177",
	"trailing\\",
	"\\t not a tab",
};
#define NHOSTILE (sizeof(hostile) / sizeof(hostile[0]))

static void
rows(struct ds_writer *w)
{
	size_t i;

	for (i = 0; i < NHOSTILE; i++) {
		ds_w_time(w, 1764469461123456789ull);
		ds_w_str(w, hostile[i]);
		ds_w_u64(w, i == 0 ? UINT64_MAX : i);
		ds_w_u64(w, 1234567);
		if (i == 1)
			ds_w_null(w);
		else
			ds_w_f(w, 12.345 * (double)i);
		ds_w_row_end(w);
	}
	ds_w_report_end(w);
}

/* Render into a string through a memory stream, with -O spec and opts. */
static char *
render_sel(enum ds_fmt fmt, int header, const char *spec, unsigned opts,
    void (*fn)(struct ds_writer *))
{
	struct ds_writer w;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ds_writer_init(&w, f, fmt, cols, NCOLS, header, "t");
	if (ds_writer_select(&w, spec, NULL, NULL) < 0)
		fprintf(f, "select failed");
	ds_writer_opts(&w, opts);
	fn(&w);
	ds_writer_free(&w);
	fclose(f);
	return buf;
}

static char *
render(enum ds_fmt fmt, int header, void (*fn)(struct ds_writer *))
{
	return render_sel(fmt, header, NULL, 0, fn);
}

static void
one(struct ds_writer *w)
{
	ds_w_time(w, 1000000000ull * 1764469461 + 5000000);
	ds_w_str(w, "a\tb");
	ds_w_u64(w, UINT64_MAX);
	ds_w_u64(w, 1466698);
	ds_w_f(w, 2.5);
	ds_w_row_end(w);
	ds_w_report_end(w);
}

static void
two_reports(struct ds_writer *w)
{
	one(w);
	ds_w_time(w, 0);
	ds_w_str(w, "x");
	ds_w_null(w);
	ds_w_u64(w, 5);
	ds_w_f(w, 100);
	ds_w_row_end(w);
	ds_w_report_end(w);
}

/* Two reports of one run, today: the time without its date. */
static void
today(struct ds_writer *w)
{
	uint64_t now = (uint64_t)time(NULL) / 86400 * 86400 * 1000000000ull;

	ds_w_time(w, now + 3723000000000ull);	/* 01:02:03 UTC */
	ds_w_str(w, "x");
	ds_w_u64(w, 7);
	ds_w_u64(w, 4294966784u);
	ds_w_f(w, 1024);
	ds_w_row_end(w);
	ds_w_report_end(w);
	ds_w_time(w, now + 3724000000000ull);
	ds_w_str(w, "y");
	ds_w_u64(w, 1);
	ds_w_u64(w, 1);
	ds_w_f(w, 0.5);
	ds_w_row_end(w);
	ds_w_report_end(w);
}

static void
human(const char *want, double v)
{
	char buf[64];

	ds_fmt_human(buf, sizeof(buf), v);
	is_str(buf, want, want);
}

/* The scaling of the person-facing byte sizes: value and unit. */
static void
scale(double v, double want, const char *unit)
{
	const char *u = NULL;
	double got = ds_human_scale(v, &u);

	ok(got > want - 1e-9 && got < want + 1e-9 && u != NULL &&
	    strcmp(u, unit) == 0, "ds_human_scale(%.0f): %g %s", v, want, unit);
}

static void
selection(void)
{
	static const struct ds_col hcols[] = {
		{ "b", DS_T_U64, DS_P_GAUGE, "b_bytes", "B.", 0, 0,
		    DS_C_BYTES },
		{ "k", DS_T_F2, DS_P_GAUGE, "k_bytes", "K.", 0, 1024,
		    DS_C_KB | DS_C_WIDE },
	};
	struct ds_writer w;
	const char *bad;
	size_t badlen;
	char *s;

	s = render_sel(DS_FMT_TSV, 1, "rate,name", 0, two_reports);
	is_str(s, "rate\tname\n2.50\ta\\tb\n100.00\tx\n",
	    "-O rate,name: tsv in that order");
	free(s);
	s = render_sel(DS_FMT_JSON, 1, "ms,time", 0, one);
	is_str(s, "{\"ms\":1466698,\"time\":1764469461.005}\n",
	    "-O ms,time: json keys in that order, Unix seconds kept");
	free(s);
	s = render_sel(DS_FMT_TABLE, 1, "name,count", 0, today);
	is_str(s, "name  count\nx         7\n\nname  count\ny         1\n",
	    "-O: table, widths kept across reports");
	free(s);
	s = render_sel(DS_FMT_TABLE, 1, "time,ms,rate", DS_W_HUMAN, today);
	is_str(s, "    time          ms     rate\n01:02:03  4294966784  1024.00\n"
	    "\n    time          ms     rate\n01:02:04           1     0.50\n",
	    "table: today's time as HH:MM:SS; -h leaves unmarked columns");
	free(s);
	s = render_sel(DS_FMT_PROM, 1, "ms", 0, one);
	is_str(s, "# HELP t_seconds_total Time.\\\\ \\n\n"
	    "# TYPE t_seconds_total counter\n"
	    "t_seconds_total{name=\"a\tb\"} 1466.698\n",
	    "-O ms: prom has that metric, labels kept");
	free(s);

	ds_writer_init(&w, stdout, DS_FMT_TSV, cols, NCOLS, 1, "t");
	is_int(ds_writer_select(&w, "name,nope", &bad, &badlen), -EINVAL,
	    "-O unknown column refused");
	is_int((int)badlen, 4, "the bad name's length");
	ok(strncmp(bad, "nope", 4) == 0, "the bad name");
	is_int(ds_writer_select(&w, "name,name", &bad, &badlen), -EINVAL,
	    "-O a column twice refused");
	is_int(ds_writer_select(&w, "+name", &bad, &badlen), 0,
	    "-O +name: already shown, no error");
	ds_writer_free(&w);

	/* DS_C_WIDE: out of the default table, in every other format. */
	ds_writer_init(&w, stdout, DS_FMT_TABLE, hcols, 2, 1, "t");
	is_int((int)w.nview, 1, "table default leaves DS_C_WIDE out");
	ds_writer_select(&w, "+k", NULL, NULL);
	is_int((int)w.nview, 2, "-O +k adds it");
	ds_writer_free(&w);
	ds_writer_init(&w, stdout, DS_FMT_TSV, hcols, 2, 1, "t");
	is_int((int)w.nview, 2, "tsv keeps every column");
	ds_writer_free(&w);
	{
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		ds_writer_init(&w, f, DS_FMT_TABLE, hcols, 2, 1, "t");
		ds_writer_select(&w, "+k", NULL, NULL);
		ds_writer_opts(&w, DS_W_HUMAN);
		ds_w_u64(&w, 270553174016ull);
		ds_w_f(&w, 5255.60);
		ds_w_row_end(&w);
		ds_w_report_end(&w);
		ds_writer_free(&w);
		fclose(f);
		is_str(buf, "   b     k\n252G  5.1M\n",
		    "-h: bytes and KiB in human units");
		free(buf);
	}
	human("0", 0);
	human("512", 512);
	human("1023", 1023);
	human("1K", 1024);
	human("1.5K", 1536);
	human("4G", 4294966784.0);
	human("251.9G", 251.9 * 1073741824.0);
	human("1M", 1048575.0);
	human("-2K", -2048);
	human("16E", 18446744073709551615.0);
}

static void
esc(int (*fn)(struct ds_buf *, const char *, size_t), const char *in,
    size_t len, const char *want, const char *name)
{
	struct ds_buf b = { 0 };

	fn(&b, in, len);
	is_str(b.data, want, name);
	ds_buf_free(&b);
}

int
main(int argc, char **argv)
{
	struct ds_writer w;
	enum ds_fmt fmt;
	char *s;

	setenv("TZ", "UTC", 1);
	tzset();
	if (argc > 1) {
		if (tool_fmt_parse(argv[1], &fmt) < 0)
			return 2;
		ds_writer_init(&w, stdout, fmt, cols, NCOLS, 1, "t");
		rows(&w);
		ds_writer_free(&w);
		return w.error ? 1 : 0;
	}

	scale(0, 0, "B");
	scale(1023, 1023, "B");
	scale(1024, 1, "KiB");
	scale(1536 * 1024.0, 1.5, "MiB");
	scale(1024.0 * 1024 * 1024 * 1024 * 1024 * 2048, 2048, "PiB");
	s = render(DS_FMT_TSV, 1, one);
	is_str(s, "time\tname\tcount\tms\trate\n"
	    "1764469461.005\ta\\tb\t18446744073709551615\t1466698\t2.50\n",
	    "tsv row, tab escaped, u64 exact");
	free(s);
	s = render(DS_FMT_TSV, 0, two_reports);
	is_str(s, "1764469461.005\ta\\tb\t18446744073709551615\t1466698\t2.50\n"
	    "0.000\tx\t-\t5\t100.00\n", "tsv -H, missing as -");
	free(s);
	s = render(DS_FMT_TSV, 1, two_reports);
	ok(strncmp(s, "time\t", 5) == 0 && strstr(s + 5, "time\t") == NULL,
	    "tsv header printed once over reports");
	free(s);
	s = render(DS_FMT_JSON, 1, two_reports);
	is_str(s, "{\"time\":1764469461.005,\"name\":\"a\\tb\","
	    "\"count\":18446744073709551615,\"ms\":1466698,\"rate\":2.50}\n"
	    "{\"time\":0.000,\"name\":\"x\",\"count\":null,\"ms\":5,"
	    "\"rate\":100.00}\n", "json lines, null, exact integers");
	free(s);
	s = render(DS_FMT_TABLE, 1, two_reports);
	is_str(s,
	    "               time  name                 count       ms  rate\n"
	    "2025-11-30 02:24:21  a\\tb  18446744073709551615  1466698  2.50\n"
	    "\n"
	    "               time  name                 count       ms    rate\n"
	    "1970-01-01 00:00:00  x                        -        5  100.00\n",
	    "table: header each report, widths kept, times of other days "
	    "dated");
	free(s);
	s = render(DS_FMT_PROM, 1, one);
	is_str(s,
	    "# HELP t_count_total A count.\n"
	    "# TYPE t_count_total counter\n"
	    "t_count_total{name=\"a\tb\"} 18446744073709551615\n"
	    "# HELP t_seconds_total Time.\\\\ \\n\n"
	    "# TYPE t_seconds_total counter\n"
	    "t_seconds_total{name=\"a\tb\"} 1466.698\n"
	    "# HELP t_rate_bytes kB/s as bytes/s.\n"
	    "# TYPE t_rate_bytes gauge\n"
	    "t_rate_bytes{name=\"a\tb\"} 2560\n",
	    "prom families, exact ms to s, kB to bytes");
	free(s);
	s = render(DS_FMT_PROM, 1, two_reports);
	ok(strstr(s, "t_count_total{name=\"x\"}") == NULL,
	    "prom omits a missing value");
	free(s);

	selection();
	esc(ds_esc_tsv, "a\tb\nc\rd\\e", 9, "a\\tb\\nc\\rd\\\\e", "tsv escapes");
	esc(ds_esc_json, "q\"b\\\x01\x1f\x7f", 7,
	    "\"q\\\"b\\\\\\u0001\\u001f\\u007f\"", "json escapes");
	esc(ds_esc_json, "\xff" "a\xc3", 3, "\"\\ufffda\\ufffd\"",
	    "json: invalid UTF-8 as U+FFFD");
	esc(ds_esc_json, "\xe2\x82\xac", 3, "\"\xe2\x82\xac\"",
	    "json: valid UTF-8 kept");
	esc(ds_esc_json, "a\0b", 3, "\"a\\u0000b\"", "json: NUL escaped");
	esc(ds_esc_prom, "a\"b\\c\nd\xff", 8, "a\\\"b\\\\c\\nd\xef\xbf\xbd",
	    "prom label escapes");
	esc(ds_esc_table, "a\033[31m\t", 7, "a\\x1b[31m\\t",
	    "table: terminal escapes neutralised");
	/* Issue 15, 8: NUL in TSV, bidi controls in table and messages. */
	esc(ds_esc_tsv, "x\0y", 3, "x\\0y", "tsv: NUL as \\0");
	esc(ds_esc_tsv, "\033[31mRED\x7f\xc2\x9b\xff", 12,
	    "\\x1b[31mRED\\x7f\\xc2\\x9b\\xff",
	    "tsv: ESC, DEL, C1 CSI, invalid UTF-8 as \\xHH");
	esc(ds_esc_tsv, "a\xe2\x80\xae" "b\xe2\x82\xac", 8,
	    "a\\xe2\\x80\\xaeb\xe2\x82\xac",
	    "tsv: U+202E as \\xHH, U+20AC kept");
	esc(ds_esc_json, "a\xe2\x80\xae" "b\xc2\x9b\xe2\x81\xa6\xe2\x82\xac", 13,
	    "\"a\\u202eb\\u009b\\u2066\xe2\x82\xac\"",
	    "json: U+202E, C1 CSI, U+2066 as \\u, U+20AC kept");
	esc(ds_esc_table, "a\xe2\x80\xae" "b", 5, "a\\xe2\\x80\\xaeb",
	    "table: U+202E neutralised");
	esc(ds_esc_table, "\xe2\x81\xa6\xe2\x81\xa9\xe2\x80\x8f\xd8\x9c", 11,
	    "\\xe2\\x81\\xa6\\xe2\\x81\\xa9\\xe2\\x80\\x8f\\xd8\\x9c",
	    "table: U+2066, U+2069, U+200F, U+061C neutralised");
	esc(ds_esc_table, "\xe2\x80\x94\xe2\x81\xa5", 6, "\xe2\x80\x94\xe2\x81\xa5",
	    "table: U+2014 and U+2065 kept (not controls)");
	esc(ds_esc_msg, "d\033]0;x\007\n\xff", 9, "d\\x1b]0;x\\x07\\n\\xff",
	    "msg: OSC, BEL, newline, invalid UTF-8 escaped");
	is_int((int)ds_utf8_len((const unsigned char *)"\xed\xa0\x80", 3), 0,
	    "surrogate refused");
	is_int((int)ds_utf8_len((const unsigned char *)"\xc0\x80", 2), 0,
	    "overlong refused");
	is_int((int)ds_utf8_len((const unsigned char *)"\xf0\x9f\x98\x80", 4),
	    4, "4-byte ok");
	is_int((int)ds_utf8_len((const unsigned char *)"\xf0\x9f\x98", 3), 0,
	    "truncated refused");

	/* Writing to a full device is an error the caller sees. */
	{
		FILE *full = fopen("/dev/full", "w");
		if (full != NULL) {
			ds_writer_init(&w, full, DS_FMT_TSV, cols, NCOLS, 1, "t");
			rows(&w);
			is_int(w.error, -ENOSPC, "/dev/full gives ENOSPC");
			ds_writer_free(&w);
			fclose(full);
		} else {
			skip("/dev/full gives ENOSPC", "no /dev/full");
		}
	}
	/* A row with the wrong number of cells is the caller's bug. */
	{
		FILE *f = fopen("/dev/null", "w");
		ds_writer_init(&w, f, DS_FMT_TSV, cols, NCOLS, 1, "t");
		ds_w_str(&w, "x");
		is_int(ds_w_row_end(&w), -EINVAL, "short row reported");
		ds_writer_free(&w);
		fclose(f);
	}
	return tap_done();
}
