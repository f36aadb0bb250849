/*
 * Device operands as the tools take them: a kernel name ("sda"), the
 * same with "/dev/" before it, "/dev/mapper/NAME" for the device-mapper
 * device named NAME, or a shell glob (fnmatch(3)) of any of these; and
 * telling those that selected nothing.
 */
#include <fnmatch.h>

#include "util.h"

int
ds_devsel_init(struct ds_devsel *s, char *const *args, size_t n)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	if (n == 0)
		return 0;
	if ((s->op = calloc(n, sizeof(*s->op))) == NULL)
		return -ENOMEM;
	s->n = n;
	for (i = 0; i < n; i++) {
		struct ds_devop *op = &s->op[i];

		op->arg = op->pat = args[i];
		/* The path a user copies from ls(1) or lsblk(8). */
		if (strncmp(op->pat, "/dev/mapper/", 12) == 0) {
			op->pat += 12;
			op->dm = 1;
			s->ndm++;
		} else if (strncmp(op->pat, "/dev/", 5) == 0)
			op->pat += 5;
		if (strpbrk(op->pat, "*?[") != NULL) {
			op->glob = 1;
			s->nglob++;
		}
	}
	return 0;
}

void
ds_devsel_free(struct ds_devsel *s)
{
	free(s->op);
	memset(s, 0, sizeof(*s));
}

int
ds_devsel_none_matched(const struct ds_devsel *sel)
{
	size_t i;

	for (i = 0; i < sel->n; i++)
		if (sel->op[i].matched)
			return 0;
	return sel->n > 0;
}

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

/*
 * Warn for each operand of sel that matched no device: "ARG: no device
 * matches" for a glob, "ARG: " nosuch for a name ("no such device",
 * "no such block device").  Returns how many were told.
 */
size_t
tool_unmatched(const struct ds_devsel *sel, const char *nosuch)
{
	size_t i, n = 0;

	for (i = 0; i < sel->n; i++) {
		const struct ds_devop *op = &sel->op[i];

		if (op->matched)
			continue;
		warnx("%s: %s", op->arg, op->glob ? "no device matches" :
		    nosuch);
		n++;
	}
	return n;
}
