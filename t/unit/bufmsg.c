/*
 * lib/bufmsg.c: a message replaces the buffer's contents, its length
 * returned and kept; one longer than the buffer's first allocation
 * grows it; the empty message leaves an empty string.
 */
#include <string.h>

#include "diskstat.h"
#include "tap.h"

int
main(void)
{
	struct ds_buf b = { 0 };
	char big[10000];

	is_int(ds_buf_printf(&b, "cgroup %s: %s", "/a", "why"), 14, "length");
	is_str(b.data, "cgroup /a: why", "text");
	is_int((int)b.len, 14, "len");
	is_int(ds_buf_printf(&b, "%d", 7), 1, "shorter: replaced");
	is_str(b.data, "7", "shorter: no tail of the first");
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	is_int(ds_buf_printf(&b, "<%s>", big), (int)sizeof(big) + 1,
	    "past the first allocation");
	ok(b.data[0] == '<' && b.data[sizeof(big)] == '>' &&
	    b.data[sizeof(big) + 1] == '\0', "grown, whole");
	is_int(ds_buf_printf(&b, "%s", ""), 0, "empty");
	is_str(b.data, "", "empty: an empty string");
	ds_buf_free(&b);
	return tap_done();
}
