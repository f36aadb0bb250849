/*
 * The disks block-latency tracing can trace: the whole disks of
 * sys/block with their device numbers as the tracepoints log them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blklat.h"

/* MKDEV of the kernel (20 bits of minor), as tracepoints log dev_t. */
static uint32_t
ds_kdev(unsigned int major, unsigned int minor)
{
	return (uint32_t)major << 20 | (minor & 0xfffff);
}

/* "8:0\n" of sys/block/DISK[/PART]/dev */
static int
read_devnum(const struct ds_root *r, const char *rel, struct ds_buf *sc,
    uint32_t *dev)
{
	const char *p;
	uint64_t ma, mi;
	int e;

	if ((e = ds_read_file(r, rel, sc)) < 0)
		return e;
	if (ds_parse_u64(sc->data, &p, &ma) < 0 || *p != ':' ||
	    ds_parse_u64(p + 1, &p, &mi) < 0 || ma > 4095 || mi > 0xfffff)
		return -EINVAL;
	*dev = ds_kdev((unsigned int)ma, (unsigned int)mi);
	return 0;
}

/*
 * The dev_t of disk and of each of its partitions (directories of
 * sys/block/DISK holding a "partition" file): out[0] is the disk.
 * *n is set to the count, which may exceed max (the rest not stored).
 */
int
ds_disk_devnums(const struct ds_root *r, const char *disk, uint32_t *out,
    size_t max, size_t *n)
{
	struct ds_blockdevs sub = { 0 };
	struct ds_buf sc = { 0 };
	char rel[512];
	uint32_t d;
	size_t i;
	int e;

	*n = 0;
	if (strchr(disk, '/') != NULL || disk[0] == '.' || disk[0] == '\0')
		return -EINVAL;
	snprintf(rel, sizeof(rel), "sys/block/%s/dev", disk);
	if ((e = read_devnum(r, rel, &sc, &d)) < 0)
		goto out;
	if (max > 0)
		out[0] = d;
	*n = 1;
	snprintf(rel, sizeof(rel), "sys/block/%s", disk);
	if ((e = ds_dir_names(r->fd, rel, 1, &sub)) < 0)
		goto out;
	for (i = 0; i < sub.n; i++) {
		snprintf(rel, sizeof(rel), "sys/block/%s/%s/partition", disk,
		    sub.name[i]);
		if (ds_read_file(r, rel, &sc) < 0)
			continue;
		snprintf(rel, sizeof(rel), "sys/block/%s/%s/dev", disk,
		    sub.name[i]);
		if (read_devnum(r, rel, &sc, &d) < 0)
			continue;
		if (*n < max)
			out[*n] = d;
		(*n)++;
	}
	e = 0;
out:
	ds_blockdevs_free(&sub);
	ds_buf_free(&sc);
	return e;
}

/*
 * The whole disks of sys/block that can be traced, those keep accepts
 * (keep NULL: all), with the count of their devices (disks and
 * partitions) into *ndevs.  *out is allocated (free it).
 */
int
ds_blkdisks_read(const struct ds_root *r, int (*keep)(void *, const char *),
    void *arg, struct ds_blkdisk **out, size_t *n, size_t *ndevs)
{
	struct ds_blockdevs bd = { 0 };
	uint32_t dev;
	size_t i, k;
	int e;

	*out = NULL;
	*n = *ndevs = 0;
	if ((e = ds_blockdevs_read(r, &bd)) < 0)
		return e;
	if ((*out = calloc(bd.n + 1, sizeof(**out))) == NULL) {
		ds_blockdevs_free(&bd);
		return -ENOMEM;
	}
	for (i = 0; i < bd.n; i++) {
		if (keep != NULL && !keep(arg, bd.name[i]))
			continue;
		/* Gone since the listing: not traced. */
		if (ds_disk_devnums(r, bd.name[i], &dev, 1, &k) < 0)
			continue;
		snprintf((*out)[*n].name, sizeof((*out)[*n].name), "%s",
		    bd.name[i]);
		(*out)[(*n)++].dev = dev;
		*ndevs += k;
	}
	ds_blockdevs_free(&bd);
	return 0;
}

const char *
ds_blkdisk_name(const struct ds_blkdisk *d, size_t n, uint32_t dev)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (d[i].dev == dev)
			return d[i].name;
	return NULL;
}
