/*
 * dlat's disks: those its operands select (every whole disk without
 * any), and their names.
 */
#include "dlat.h"

/* The disks the operands select, each operand that does marked. */
static int
selected(void *arg, const char *name)
{
	struct ds_devsel *sel = arg;

	return sel->n == 0 || ds_devsel_match(sel, name, NULL, 1) != 0;
}

/* d->disk, and their devices with their partitions into *ndevs. */
void
dlat_disks_pick(struct dl *d, size_t *ndevs)
{
	int e;

	if ((e = ds_blkdisks_read(&d->t.r, selected, &d->sel, &d->disk,
	    &d->ndisk, ndevs)) < 0)
		tool_errc(1, e, "%s", tool_path(&d->t, "sys/block"));
	if (tool_unmatched(&d->sel, "no such device") > 0)
		tool_exit(1);
	if (d->ndisk == 0)
		errx(1, "no block devices to trace");
}

/* A disk's name; "-" for one not traced. */
const char *
dlat_disk_name(const struct dl *d, uint32_t dev)
{
	const char *n = ds_blkdisk_name(d->disk, d->ndisk, dev);

	return n != NULL ? n : "-";
}
