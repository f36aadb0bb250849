/* Device operands: telling those that selected nothing. */
#include "util.h"

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
