/*
 * Block devices as sysfs shows them: /sys/block holds one entry per
 * whole disk (partitions live below their disk), /sys/block/dm-N/dm/name
 * is a device-mapper device's name.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diskstat.h"

static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
ds_blockdevs_read(const struct ds_root *r, struct ds_blockdevs *out)
{
	struct dirent *de;
	DIR *d;
	int fd;
	size_t i;

	ds_blockdevs_free(out);
	fd = ds_openat(r, "sys/block", O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return fd;
	d = fdopendir(fd);
	if (d == NULL) {
		int e = -errno;
		close(fd);
		return e;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (out->n == out->cap) {
			size_t cap = out->cap ? out->cap * 2 : 32;
			char **p = realloc(out->name, cap * sizeof(*p));
			if (p == NULL)
				goto nomem;
			out->name = p;
			out->cap = cap;
		}
		if ((out->name[out->n] = strdup(de->d_name)) == NULL)
			goto nomem;
		out->n++;
	}
	closedir(d);
	qsort(out->name, out->n, sizeof(*out->name), cmpstr);
	return 0;
nomem:
	closedir(d);
	for (i = 0; i < out->n; i++)
		free(out->name[i]);
	out->n = 0;
	return -ENOMEM;
}

int
ds_blockdevs_has(const struct ds_blockdevs *b, const char *name)
{
	return bsearch(&name, b->name, b->n, sizeof(*b->name), cmpstr) != NULL;
}

void
ds_blockdevs_free(struct ds_blockdevs *b)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		free(b->name[i]);
	free(b->name);
	b->name = NULL;
	b->n = b->cap = 0;
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
