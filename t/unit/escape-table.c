/*
 * Table output is for a terminal: no C0 or C1 control and no byte of
 * invalid UTF-8 may reach it raw (0x9b alone is CSI to an 8-bit
 * terminal, U+009B is CSI to many UTF-8 ones).
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tap.h"

static void
esc(const char *in, size_t len, const char *want, const char *name)
{
	struct ds_buf b = { 0 };

	is_int(ds_esc_table(&b, in, len), 0, name);
	is_str(b.data, want, name);
	ds_buf_free(&b);
}

int
main(void)
{
	esc("plain", 5, "plain", "ascii kept");
	esc("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x92\xbe", 14,
	    "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x92\xbe", "valid UTF-8 kept");
	esc("a\x9b" "31mb", 6, "a\\x9b31mb", "lone 0x9b (8-bit CSI) escaped");
	esc("a\xc2\x9b" "31m", 6, "a\\xc2\\x9b31m", "U+009B (C1 CSI) escaped");
	esc("\xc2\x80\xc2\x9f\xc2\xa0", 6, "\\xc2\\x80\\xc2\\x9f\xc2\xa0",
	    "C1 range escaped, U+00A0 kept");
	esc("\xff\xfe", 2, "\\xff\\xfe", "bytes never valid in UTF-8 escaped");
	esc("\xe2\x82", 2, "\\xe2\\x82", "truncated sequence escaped");
	esc("\xed\xa0\x80", 3, "\\xed\\xa0\\x80", "surrogate escaped");
	esc("\xc0\xaf", 2, "\\xc0\\xaf", "overlong escaped");
	esc("\x1b[2J\x7f\t\\", 7, "\\x1b[2J\\x7f\\t\\\\",
	    "C0, DEL, tab and backslash as before");
	esc("a\0b", 3, "a\\x00b", "NUL escaped");
	return tap_done();
}
