/*
 * Device operands to the queues that serve them: a glob or a
 * /dev/mapper/ name selects whole disks (sys/block; dm devices by their
 * dm name), a plain name may also be a partition, which shares its
 * disk's queue.  No operand: every whole disk.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dqueue.h"

static int
add(struct dq_targets *out, const char *name, const char *disk)
{
	struct dq_target *t;

	if (ds_grow(&out->t, &out->cap, out->n + 1, sizeof(*out->t)) < 0)
		return -ENOMEM;
	t = &out->t[out->n];
	if ((t->name = strdup(name)) == NULL)
		return -ENOMEM;
	snprintf(t->disk, sizeof(t->disk), "%s", disk);
	out->n++;
	return 0;
}

/* Every whole disk a glob or /dev/mapper/ operand matches; -ENOENT: none. */
static int
add_matches(const struct ds_root *r, const struct ds_blockdevs *disks,
    struct ds_devop *op, struct ds_buf *scratch, struct dq_targets *out)
{
	char dm[256];
	size_t i;
	int e;

	for (i = 0; i < disks->n; i++) {
		const char *n = disks->name[i];
		int hasdm = op->dm && strncmp(n, "dm-", 3) == 0 &&
		    ds_dm_name(r, n, scratch, dm, sizeof(dm)) == 0;

		if (!ds_devop_match(op, n, hasdm ? dm : NULL))
			continue;
		if ((e = add(out, n, n)) < 0)
			return e;
		op->matched = 1;
	}
	return op->matched ? 0 : -ENOENT;
}

int
dq_targets_pick(const struct ds_root *r, const struct ds_blockdevs *disks,
    struct ds_devsel *sel, struct ds_buf *scratch, struct dq_targets *out)
{
	char disk[sizeof(out->t->disk)];
	size_t i, k;
	int e;

	dq_targets_free(out);
	if (sel == NULL || sel->n == 0) {
		for (i = 0; i < disks->n; i++)
			if ((e = add(out, disks->name[i], disks->name[i])) < 0)
				return e;
		return 0;
	}
	if ((out->err = calloc(sel->n, sizeof(*out->err))) == NULL)
		return -ENOMEM;
	out->nops = sel->n;
	for (k = 0; k < sel->n; k++) {
		struct ds_devop *op = &sel->op[k];

		if (op->glob || op->dm)
			e = add_matches(r, disks, op, scratch, out);
		else if ((e = ds_queue_resolve(r, disks, op->pat, disk,
		    sizeof(disk))) == 0) {
			op->matched = 1;
			e = add(out, op->pat, disk);
		}
		if (e == -ENOMEM)
			return e;
		out->err[k] = e;
	}
	return 0;
}

void
dq_targets_free(struct dq_targets *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->t[i].name);
	free(t->t);
	free(t->err);
	memset(t, 0, sizeof(*t));
}
