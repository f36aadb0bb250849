/*
 * Device operands: one rule for names, /dev paths, dm names and globs,
 * and the devices each operand selects.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static int
devop_is(const struct ds_devop *op, const char *name)
{
	if (op->glob)
		return fnmatch(op->pat, name, 0) == 0;
	return strcmp(op->pat, name) == 0;
}

int
ds_devop_match(const struct ds_devop *op, const char *name, const char *dm)
{
	if (!op->dm && devop_is(op, name))
		return 1;
	return dm != NULL && devop_is(op, dm);
}

int
ds_devsel_match(struct ds_devsel *s, const char *name, const char *dm,
    int whole)
{
	size_t i;
	int r = 0;

	for (i = 0; i < s->n; i++) {
		struct ds_devop *op = &s->op[i];

		if (!ds_devop_match(op, name, dm))
			continue;
		if (!op->glob) {
			op->matched = 1;
			r = 2;
		} else if (whole) {
			op->matched = 1;
			if (r == 0)
				r = 1;
		}
	}
	return r;
}
