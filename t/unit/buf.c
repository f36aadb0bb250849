/*
 * lib/buf.c's messages: one replaces the buffer's contents, its length
 * kept; one longer than the buffer's first allocation grows it; the
 * empty message leaves an empty string.
 */
#include <string.h>

#include "internal.h"
#include "tap.h"

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
	return tap_done();
}
