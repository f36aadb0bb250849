/* Checked number parsing, splitting, numbers, uptime. */
#include <errno.h>
#include <stdint.h>

#include "internal.h"
#include "oracle.h"
#include "tap.h"

int
main(void)
{
	uint64_t v = 0;
	const char *end;
	char line[] = "  8\t0   sda 1 2  \n";
	char *f[8];
	char text[] = "a\nb\n\nc";
	char *cur = text, *l;

	is_int(ds_strtou64("0", &v), 0, "0 parses");
	is_u64(v, 0, "0 is 0");
	is_int(ds_strtou64("18446744073709551615", &v), 0, "UINT64_MAX parses");
	is_u64(v, UINT64_MAX, "UINT64_MAX exact");
	is_int(ds_strtou64("18446744073709551616", &v), -ERANGE,
	    "UINT64_MAX + 1 overflows");
	is_int(ds_strtou64("99999999999999999999999", &v), -ERANGE,
	    "far past 64 bits overflows");
	is_int(ds_strtou64("-1", &v), -EINVAL, "leading minus refused");
	is_int(ds_strtou64("+1", &v), -EINVAL, "leading plus refused");
	is_int(ds_strtou64("", &v), -EINVAL, "empty refused");
	is_int(ds_strtou64("12x", &v), -EINVAL, "trailing junk refused");
	is_int(ds_strtou64("12\n", &v), 0, "trailing newline allowed");
	is_int(ds_strtou64("0x10", &v), -EINVAL, "hex refused");
	is_int(ds_parse_u64("123 456", &end, &v), 0, "prefix parse");
	is_str(end, " 456", "end pointer after digits");

	is_int(ds_parse_fixed("12.345", &end, 2, &v), 0, "fixed 12.345");
	is_u64(v, 1234, "fixed truncates to scale");
	is_int(ds_parse_fixed("7", &end, 3, &v), 0, "fixed integer");
	is_u64(v, 7000, "fixed integer scaled");
	is_int(ds_parse_fixed("0.5", &end, 9, &v), 0, "fixed 0.5");
	is_u64(v, 500000000, "0.5 s in ns");
	is_int(ds_parse_fixed("18446744073709551615", &end, 1, &v), -ERANGE,
	    "fixed overflow on scaling");

	is_int((int)ds_split(line, f, 8), 5, "split counts fields");
	is_str(f[0], "8", "field 1");
	is_str(f[2], "sda", "field 3");
	is_str(f[4], "2", "last field, newline dropped");
	{
		char many[] = "1 2 3 4 5 6";
		is_int((int)ds_split(many, f, 3), 6,
		    "split reports all fields beyond max");
	}
	l = ds_next_line(&cur);
	is_str(l, "a", "line 1");
	l = ds_next_line(&cur);
	is_str(l, "b", "line 2");
	l = ds_next_line(&cur);
	is_str(l, "", "empty line 3");
	l = ds_next_line(&cur);
	is_str(l, "c", "last line without newline");
	ok(ds_next_line(&cur) == NULL, "end of text");

	ok(ds_is_number("2"), "2 is a number");
	ok(ds_is_number("0.5"), "0.5 is a number");
	ok(!ds_is_number("sda"), "sda is not");
	ok(!ds_is_number("1a"), "1a is not");
	ok(!ds_is_number(""), "empty is not");
	ok(ds_is_number(".5"), ".5 is a number");
	ok(ds_is_number("1.2.3"), "1.2.3 is a (bad) number, not a name");
	ok(!ds_is_number("."), "a lone dot is not");

	is_int(ds_uptime_parse("350735.47 234388.90\n", &v), 0, "uptime");
	is_u64(v, 350735470000000ull, "uptime in ns, exact");
	is_int(ds_uptime_parse("abc", &v), -EINVAL, "bad uptime");
	is_int(ds_uptime_parse("12.5x 3", &v), -EINVAL, "junk after uptime");
	return tap_done();
}
