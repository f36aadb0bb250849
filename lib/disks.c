/*
 * Whole disks and what sysfs says of them: the names of sys/block (or,
 * in a captured tree without it, diskstats' whole disks), a device's
 * queue_depth, whether a disk is a hypervisor's or a cloud's, and which
 * mounts hold a disk's filesystem.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

/* sys/block/DISK/device/FILE into b, trailing blanks cut. */
static int
dev_file(const struct ds_root *r, const char *disk, const char *file,
    struct ds_buf *b)
{
	char rel[512];
	int e;

	if (!ds_component_ok(disk))
		return -EINVAL;
	if ((size_t)snprintf(rel, sizeof(rel), "sys/block/%s/device/%s", disk,
	    file) >= sizeof(rel))
		return -ENAMETOOLONG;
	if ((e = ds_read_file(r, rel, b)) < 0)
		return e;
	while (b->len > 0 && (b->data[b->len - 1] == '\n' ||
	    b->data[b->len - 1] == ' ' || b->data[b->len - 1] == '\t'))
		b->data[--b->len] = '\0';
	return 0;
}

int
ds_disk_queue_depth(const struct ds_root *r, const char *disk,
    struct ds_buf *scratch, uint64_t *depth)
{
	int e;

	*depth = 0;
	/* SCSI and ATA disks have it; virtio, NVMe and loop do not. */
	if ((e = dev_file(r, disk, "queue_depth", scratch)) < 0)
		return e;
	return ds_strtou64(scratch->data, depth) < 0 ? -EINVAL : 0;
}

int
ds_disk_virtual(const struct ds_root *r, const char *disk,
    struct ds_buf *scratch)
{
	static const char *const vendors[] = { "QEMU", "VMware", "Msft",
	    "Google", "Amazon", "Xen", "VBOX", "Red Hat" };
	static const char *const models[] = { "Amazon Elastic Block Store",
	    "PersistentDisk", "Virtual disk", "VBOX HARDDISK" };
	char rel[512], link[256];
	ssize_t n;
	size_t i;

	if (!ds_component_ok(disk))
		return -EINVAL;
	/* The driver: virtio_blk, xen's vbd, Hyper-V's storvsc. */
	snprintf(rel, sizeof(rel), "sys/block/%s/device/driver", disk);
	while (rel[0] == '/')
		memmove(rel, rel + 1, strlen(rel));
	n = readlinkat(r->fd, rel, link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = '\0';
		if (strstr(link, "virtio") != NULL || strstr(link, "vbd") !=
		    NULL || strstr(link, "storvsc") != NULL ||
		    strstr(link, "xen") != NULL)
			return 1;
	}
	if (dev_file(r, disk, "vendor", scratch) == 0)
		for (i = 0; i < nitems(vendors); i++)
			if (strncmp(scratch->data, vendors[i],
			    strlen(vendors[i])) == 0)
				return 1;
	if (dev_file(r, disk, "model", scratch) == 0)
		for (i = 0; i < nitems(models); i++)
			if (strstr(scratch->data, models[i]) != NULL)
				return 1;
	return 0;
}

static int
cmpname(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
ds_whole_disks(const struct ds_root *r, struct ds_buf *window,
    struct ds_blockdevs *out)
{
	struct ds_diskstats ds = { 0 };
	size_t i, len = 0, n = 0;
	int e;

	if ((e = ds_blockdevs_read(r, out)) == 0 || e == -ENOMEM)
		return e;
	/* A captured tree without sys/block: diskstats' whole disks. */
	ds_blockdevs_free(out);
	if ((e = ds_diskstats_read(r, window, &ds)) < 0)
		return e;
	for (i = 0; i < ds.n; i++)
		if (!ds_name_is_partition(ds.disk[i].name)) {
			len += strlen(ds.disk[i].name) + 1;
			n++;
		}
	out->name = calloc(n ? n : 1, sizeof(*out->name));
	out->pool = malloc(len ? len : 1);
	if (out->name == NULL || out->pool == NULL) {
		ds_diskstats_free(&ds);
		ds_blockdevs_free(out);
		return -ENOMEM;
	}
	out->cap = n;
	out->poolcap = len;
	for (i = 0, len = 0; i < ds.n; i++)
		if (!ds_name_is_partition(ds.disk[i].name)) {
			out->name[out->n++] = strcpy(out->pool + len,
			    ds.disk[i].name);
			len += strlen(ds.disk[i].name) + 1;
		}
	ds_diskstats_free(&ds);
	qsort(out->name, out->n, sizeof(*out->name), cmpname);
	return 0;
}

int
ds_fs_on_disk(const char *fstype, unsigned int major)
{
	/* Disk or network filesystems on an anonymous device number. */
	static const char *const anon[] = { "btrfs", "zfs", "bcachefs",
	    "nfs", "nfs4", "cifs", "smb3", "ceph", "glusterfs", "9p" };
	size_t i;

	if (major != 0)
		return 1;
	for (i = 0; fstype != NULL && i < nitems(anon); i++)
		if (strcmp(fstype, anon[i]) == 0)
			return 1;
	return 0;
}
