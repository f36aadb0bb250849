/*
 * lib/parse.c, ds_parse_fixed: a fixed-point scale past 10^19 is
 * refused, not wrapped.
 */
#include <errno.h>
#include <stdint.h>

#include "internal.h"
#include "tap.h"

int
main(void)
{
	const char *end = NULL, *s19 = "1.8446744073709551615";
	uint64_t v = 0;

	/* Scale 19 is the widest 64 bits can hold. */
	is_int(ds_parse_fixed(s19, &end, 19, &v), 0, "fixed: scale 19");
	is_u64(v, UINT64_MAX, "fixed: scale 19, UINT64_MAX exactly");
	ok(end != NULL && *end == '\0', "fixed: scale 19 ends past the digits");
	is_int(ds_parse_fixed("1.8446744073709551616", &end, 19, &v),
	    -ERANGE, "fixed: scale 19, one past UINT64_MAX");
	is_int(ds_parse_fixed("0.2", &end, 19, &v), 0, "fixed: 0.2 scale 19");
	is_u64(v, UINT64_C(2000000000000000000), "fixed: 0.2 at 10^-19");
	v = 12345;
	is_int(ds_parse_fixed("0.2", &end, 20, &v), -EINVAL,
	    "fixed: scale 20 refused (0.2 would wrap)");
	is_u64(v, 12345, "fixed: scale 20 leaves *out alone");
	ok(end != NULL && *end == '0', "fixed: scale 20, end at the start");
	is_int(ds_parse_fixed("0", NULL, 20, &v), -EINVAL,
	    "fixed: scale 20 refused even for 0");
	is_int(ds_parse_fixed("1", NULL, UINT32_MAX, &v), -EINVAL,
	    "fixed: scale UINT_MAX refused");

	return tap_done();
}
