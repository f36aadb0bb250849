/*
 * lib/buf.c's messages: one replaces the buffer's contents, its length
 * kept; one longer than the buffer's first allocation grows it; the
 * empty message leaves an empty string.
 */
#include <string.h>

#include "internal.h"
#include "tap.h"

/* A message longer than a page, after a short one. */
static void
test_long(void)
{
	struct ds_buf b = { 0 };
	char big[6000];

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	is_int(ds_buf_printf(&b, "%s=%d", "a", 5), 1, "ds_buf_printf: 1");
	ok(b.len == 3 && strcmp(b.data, "a=5") == 0, "a=5, its length");
	is_int(ds_buf_printf(&b, "<%s>", big), 1, "a long one: 1");
	ok(b.len == sizeof(big) + 1 && b.data[0] == '<' &&
	    b.data[b.len - 1] == '>' && b.data[b.len] == '\0',
	    "the whole of it, replacing the text before");
	ds_buf_free(&b);
}

int
main(void)
{
	struct ds_buf b = { 0 };
	char big[10000];

	is_int(ds_buf_printf(&b, "cgroup %s: %s", "/a", "why"), 1, "made");
	is_str(b.data, "cgroup /a: why", "text");
	is_int((int)b.len, 14, "len");
	is_int(ds_buf_printf(&b, "%d", 7), 1, "shorter: replaced");
	is_str(b.data, "7", "shorter: no tail of the first");
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	is_int(ds_buf_printf(&b, "<%s>", big), 1, "past the first allocation");
	is_int((int)b.len, (int)sizeof(big) + 1, "its length");
	ok(b.data[0] == '<' && b.data[sizeof(big)] == '>' &&
	    b.data[sizeof(big) + 1] == '\0', "grown, whole");
	is_int(ds_buf_printf(&b, "%s", ""), 1, "empty");
	is_int((int)b.len, 0, "empty: len 0");
	is_str(b.data, "", "empty: an empty string");
	ds_buf_free(&b);
	test_long();
	return tap_done();
}
