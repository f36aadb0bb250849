/*
 * lib/grow.c: ds_grow doubles, keeps the array on failure, refuses a
 * size that would overflow, and does nothing when the array is big
 * enough or nothing is needed.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "internal.h"
#include "tap.h"

int
main(void)
{
	uint64_t *v = NULL, *was;
	size_t cap = 0, i;
	int good = 1;

	is_int(ds_grow(&v, &cap, 0, sizeof(*v)), 0, "need 0: 0");
	ok(v == NULL && cap == 0, "need 0: nothing allocated");
	is_int(ds_grow(&v, &cap, 1, sizeof(*v)), 0, "first: 0");
	ok(v != NULL && cap == 16, "first: 16 elements");
	for (i = 0; i < 1000; i++) {
		if (ds_grow(&v, &cap, i + 1, sizeof(*v)) < 0 || cap < i + 1) {
			good = 0;
			break;
		}
		v[i] = i;
	}
	ok(good, "1000 appends");
	is_int((int)cap, 1024, "capacity doubled: 1024");
	for (i = 0; i < 1000 && good; i++)
		good = v[i] == i;
	ok(good, "values kept across growth");
	is_int(ds_grow(&v, &cap, 5000, sizeof(*v)), 0, "need past double");
	is_int((int)cap, 8192, "doubled until it holds 5000");
	was = v;
	is_int(ds_grow(&v, &cap, 8192, sizeof(*v)), 0, "need == cap: 0");
	ok(v == was && cap == 8192, "need == cap: untouched");
	is_int(ds_grow(&v, &cap, SIZE_MAX / 4, sizeof(*v)), -ENOMEM,
	    "need * size past SIZE_MAX: -ENOMEM");
	is_int(ds_grow(&v, &cap, SIZE_MAX / 2 + 1, 2), -ENOMEM,
	    "just past SIZE_MAX bytes: -ENOMEM");
	ok(v == was && cap == 8192, "on failure: array and cap as they were");
	is_int(ds_grow(&v, &cap, 9000, 0), -ENOMEM, "element size 0: -ENOMEM");
	free(v);
	return tap_done();
}
