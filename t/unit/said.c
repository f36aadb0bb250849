/*
 * lib/said.c: sentences gathered for a tool to warn, each ended by a
 * NUL, in order; damaged lines told (once per change with
 * ds_said_bad_new, as dxstat's sampling loop tells them), a line of
 * more values than its format.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tap.h"

/* The k-th sentence of said (0-based), or NULL. */
static const char *
nth(const struct ds_buf *said, int k)
{
	size_t i;

	for (i = 0; i < said->len; i += strlen(said->data + i) + 1)
		if (k-- == 0)
			return said->data + i;
	return NULL;
}

static int
count(const struct ds_buf *said)
{
	int n = 0;

	while (nth(said, n) != NULL)
		n++;
	return n;
}

static void
test_said(void)
{
	struct ds_buf b = { 0 };

	is_int(ds_said(&b, "%s: %d", "one", 1), 0, "ds_said: appended");
	is_int(ds_said(&b, "two\nlines %zu", (size_t)2), 0, "and a second");
	is_int(count(&b), 2, "two sentences");
	is_str(nth(&b, 0), "one: 1", "the first, formatted");
	is_str(nth(&b, 1), "two\nlines 2", "the second, a newline kept in it");
	is_int(b.len, 7 + 12, "len counts each sentence's NUL");
	ok(b.data[b.len] == '\0', "data NUL-terminated after the last");
	ds_buf_free(&b);
}

static void
test_bad(void)
{
	struct ds_diskstats s = { 0 };
	struct ds_badseen seen = { 0, 0 };
	struct ds_buf b = { 0 };

	is_int(ds_said_bad(&b, "f", &s), 0, "no damaged line: 0");
	is_int(b.len, 0, "and nothing said");
	s.bad = 1;
	s.first_bad = 4;
	ds_said_bad(&b, "f", &s);
	is_str(nth(&b, 0), "f: line 4: not a diskstats line (1 line skipped)",
	    "one line: singular");
	s.bad = 3;
	ds_said_bad(&b, "/tree/proc/diskstats", &s);
	is_str(nth(&b, 1), "/tree/proc/diskstats: line 4: not a diskstats "
	    "line (3 lines skipped)", "three: plural");
	b.len = 0;
	/* Once per change: 3 at line 4, again, none, 3 at 4, 3 at 5. */
	ds_said_bad_new(&b, "f", &s, &seen);
	ds_said_bad_new(&b, "f", &s, &seen);
	is_int(count(&b), 1, "the same damage again: said once");
	s.bad = 0;
	ds_said_bad_new(&b, "f", &s, &seen);
	is_int(count(&b), 1, "none: nothing, and not remembered");
	s.bad = 3;
	ds_said_bad_new(&b, "f", &s, &seen);
	is_int(count(&b), 1, "so the same damage after it is still not new");
	s.first_bad = 5;
	ds_said_bad_new(&b, "f", &s, &seen);
	is_int(count(&b), 2, "another first line: said");
	is_str(nth(&b, 1), "f: line 5: not a diskstats line (3 lines skipped)",
	    "with its line");
	ds_buf_free(&b);
}

static void
test_extra(void)
{
	char l11[] = "8 0 sda 1 2 3 4 5 6 7 8 9 10 11";
	char l13[] = "8 0 sdb 1 2 3 4 5 6 7 8 9 10 11 12 13";
	char l18[] = "8 0 sdc 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18";
	struct ds_buf b = { 0 };
	struct ds_disk d;

	if (ds_disk_parse_line(l11, &d) < 0)
		exit(1);
	is_int(ds_said_extra(&b, &d), 0, "11 values: nothing to say");
	if (ds_disk_parse_line(l13, &d) < 0)
		exit(1);
	is_int(ds_said_extra(&b, &d), 1, "13 values: said");
	is_str(nth(&b, 0), "sdb: 13 values where the kernel prints 11: read "
	    "as that format, the rest unused (said once)", "the sentence");
	if (ds_disk_parse_line(l18, &d) < 0)
		exit(1);
	is_int(ds_said_extra(&b, &d), 0, "18 values: a kernel format");
	is_int(count(&b), 1, "nothing more said");
	ds_buf_free(&b);
}

int
main(void)
{
	test_said();
	test_bad();
	test_extra();
	return tap_done();
}
