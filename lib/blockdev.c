/*
 * Block devices as sysfs shows them: /sys/block holds one entry per
 * whole disk (partitions live below their disk), /sys/block/dm-N/dm/name
 * is a device-mapper device's name, sys/dev/block/MAJ:MIN says what a
 * device number is (whole disk, partition, or stacked on others).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The names go one after the other into one pool, not one allocation
 * each: a machine with ten thousand disks lists 100 kB, not 400.  While
 * the pool grows, name[i] holds the offset of name i in it.
 */
int
ds_dir_names(int at, const char *rel, int dirs_only, struct ds_blockdevs *out)
{
	return ds_dir_names_in(NULL, at, rel, dirs_only, out);
}

int
ds_dir_names_in(const struct ds_root *r, int at, const char *rel,
    int dirs_only, struct ds_blockdevs *out)
{
	struct dirent *de;
	size_t len, i, used = 0;
	DIR *d;
	int fd;

	ds_blockdevs_free(out);
	fd = ds_openat_in(r, at, rel, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return fd;
	if ((d = fdopendir(fd)) == NULL) {
		int e = -errno;
		close(fd);
		return e;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (dirs_only && de->d_type != DT_DIR) {
			struct stat st;

			/* Some filesystems leave d_type unknown: ask. */
			if (de->d_type != DT_UNKNOWN)
				continue;
			if (ds_fstatat_in(r, dirfd(d), de->d_name, &st) < 0 ||
			    !S_ISDIR(st.st_mode))
				continue;
		}
		len = strlen(de->d_name) + 1;
		if (ds_grow(&out->name, &out->cap, out->n + 1,
		    sizeof(*out->name)) < 0 ||
		    ds_grow(&out->pool, &out->poolcap, used + len, 1) < 0)
			goto nomem;
		memcpy(out->pool + used, de->d_name, len);
		out->name[out->n++] = (char *)(uintptr_t)used;
		used += len;
	}
	closedir(d);
	for (i = 0; i < out->n; i++)
		out->name[i] = out->pool + (uintptr_t)out->name[i];
	/* qsort(3) wants a valid array even for zero entries. */
	if (out->n > 1)
		qsort(out->name, out->n, sizeof(*out->name), cmpstr);
	return 0;
nomem:
	closedir(d);
	ds_blockdevs_free(out);
	return -ENOMEM;
}

int
ds_blockdevs_read(const struct ds_root *r, struct ds_blockdevs *out)
{
	return ds_dir_names_in(r, r->fd, "sys/block", 0, out);
}

int
ds_blockdevs_has(const struct ds_blockdevs *b, const char *name)
{
	/* bsearch(3) wants a valid array even for zero entries. */
	if (b->n == 0)
		return 0;
	return bsearch(&name, b->name, b->n, sizeof(*b->name), cmpstr) != NULL;
}

void
ds_blockdevs_free(struct ds_blockdevs *b)
{
	free(b->pool);
	free(b->name);
	b->pool = NULL;
	b->name = NULL;
	b->n = b->cap = b->poolcap = 0;
}

int
ds_name_is_partition(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || name[n - 1] < '0' || name[n - 1] > '9')
		return 0;
	while (n > 0 && name[n - 1] >= '0' && name[n - 1] <= '9')
		n--;
	/* nvme0n1p2, mmcblk0p1, loop0p1: "p" before the partition number. */
	if (n >= 2 && name[n - 1] == 'p' && name[n - 2] >= '0' &&
	    name[n - 2] <= '9')
		return 1;
	/* sda1, vdb2, xvda3, hdc1: letters then digits. */
	if (strncmp(name, "sd", 2) == 0 || strncmp(name, "vd", 2) == 0 ||
	    strncmp(name, "hd", 2) == 0 || strncmp(name, "xvd", 3) == 0)
		return n > 2;
	return 0;
}

int
ds_dm_name(const struct ds_root *r, const char *dev, struct ds_buf *scratch,
    char *name, size_t size)
{
	char rel[128 + DS_DISK_NAME_MAX];
	size_t l;
	int e, n;

	/*
	 * dev comes from diskstats text (a snapshot, a captured tree): it
	 * becomes one path component, so it must not climb out of
	 * sys/block or reach below another device.
	 */
	if (!ds_component_ok(dev))
		return -EINVAL;
	/* A cut path would name another file: refuse it. */
	n = snprintf(rel, sizeof(rel), "sys/block/%s/dm/name", dev);
	if (n < 0 || (size_t)n >= sizeof(rel))
		return -ENAMETOOLONG;
	if ((e = ds_read_file(r, rel, scratch)) < 0)
		return e;
	l = strcspn(scratch->data, "\n");
	if (l == 0)
		return -ENOENT;
	if (l >= size)
		return -ENAMETOOLONG;
	memcpy(name, scratch->data, l);
	name[l] = '\0';
	return 0;
}

/*
 * The name of a sysfs block device from a link target such as
 * "../../devices/.../block/sda/sda2": the last part, and in *disk the
 * whole disk it belongs to (itself, or the part before a partition).
 */
static int
link_names(const char *link, char *name, char *disk, size_t size)
{
	const char *last, *prev, *p;
	size_t l;

	last = strrchr(link, '/');
	last = last != NULL ? last + 1 : link;
	if (strlen(last) >= size || *last == '\0')
		return -ENAMETOOLONG;
	strcpy(name, last);
	strcpy(disk, last);
	if (last - link < 2)
		return 0;
	/* the component before the last */
	for (p = last - 2; p > link && *p != '/'; p--)
		;
	prev = *p == '/' ? p + 1 : p;
	l = (size_t)(last - 1 - prev);
	if (l == 0 || l >= size || (l == 5 && memcmp(prev, "block", 5) == 0))
		return 0;
	/* .../block/sda/sda2: a partition of sda */
	memcpy(disk, prev, l);
	disk[l] = '\0';
	return 0;
}

int
ds_blockdev_info(const struct ds_root *r, unsigned int major,
    unsigned int minor, struct ds_devinfo *out)
{
	char rel[160], link[4096], name[64], disk[64];
	struct dirent *de;
	ssize_t n;
	DIR *d;
	int fd, e;

	memset(out, 0, sizeof(*out));
	out->major = major;
	out->minor = minor;
	snprintf(rel, sizeof(rel), "sys/dev/block/%u:%u", major, minor);
	/* sysfs links point into /sys/devices: the last part is the name. */
	if ((n = ds_readlink_in(r, r->fd, rel, link, sizeof(link) - 1)) < 0)
		return (int)n;
	link[n] = '\0';
	if ((e = link_names(link, out->name, disk, sizeof(out->name))) < 0)
		return e;
	snprintf(rel, sizeof(rel), "sys/dev/block/%u:%u/partition", major,
	    minor);
	if ((fd = ds_openat(r, rel, O_PATH)) >= 0) {
		close(fd);
		out->partition = 1;
		return 0;
	}
	/* dm, md and other stacked devices list what they sit on. */
	snprintf(rel, sizeof(rel), "sys/dev/block/%u:%u/slaves", major, minor);
	if ((fd = ds_openat(r, rel, O_RDONLY | O_DIRECTORY)) < 0)
		return 0;
	if ((d = fdopendir(fd)) == NULL) {
		close(fd);
		return 0;
	}
	while ((de = readdir(d)) != NULL && out->nbelow < DS_BELOW_MAX) {
		if (de->d_name[0] == '.')
			continue;
		n = readlinkat(dirfd(d), de->d_name, link, sizeof(link) - 1);
		if (n < 0) {
			/* not a link (a copied tree): the name alone */
			snprintf(link, sizeof(link), "%s", de->d_name);
			n = (ssize_t)strlen(link);
		}
		link[n] = '\0';
		if (link_names(link, name, disk, sizeof(name)) == 0)
			strcpy(out->below[out->nbelow++], disk);
	}
	closedir(d);
	return 0;
}
