/*
 * Device identity from sysfs, and the identities of a snapshot file.
 * The kernel name of a disk is only this boot's: device-mapper numbers
 * its devices in the order they were made, so a history kept by name
 * needs what the device is.  See ds_devid_read for the order.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

/* A sysfs attribute is at most a page; more is not an attribute. */
#define ATTR_MAX DS_ATTR_MAX

static const struct {
	const char *rel;	/* below sys/block/NAME */
	const char *prefix;
} sources[] = {
	/* Set by whoever made the volume (LVM, multipath, cryptsetup). */
	{ "dm/uuid", "dm-uuid=" },
	/* The disk's own: NVMe namespaces on the disk, SCSI on the device. */
	{ "wwid", "wwid=" },
	{ "device/wwid", "wwid=" },
	/* virtio_blk on the disk; NVMe controllers and SCSI (6.x) below. */
	{ "serial", "serial=" },
	{ "device/serial", "serial=" },
	/* Chosen by the admin and reusable, but steadier than dm-N. */
	{ "dm/name", "dm-name=" },
};

static int
is_blank(int c)
{
	return c == ' ' || c == '\t';
}

/*
 * The attribute rel into buf (size ATTR_MAX + 1): its length, or 0 when
 * it gives no value (absent, unreadable, over a page), or -errno when
 * it could not be opened for another reason.
 */
static long
read_attr(void *arg, const char *rel, char *buf)
{
	const struct ds_root *r = arg;
	size_t len = 0;
	ssize_t n;
	int fd;

	if ((fd = ds_openat(r, rel, O_RDONLY | O_NONBLOCK)) < 0)
		return fd == -ENOENT || fd == -ENOTDIR ? 0 : fd;
	for (;;) {
		n = read(fd, buf + len, ATTR_MAX + 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
		if (len > ATTR_MAX)
			break;
	}
	close(fd);
	if (n < 0 || len > ATTR_MAX)
		return 0;
	return (long)len;
}

/*
 * prefix and the value v (len bytes) made printable into id: 1, or 0
 * when the value is empty or does not fit.
 */
static int
clean(const char *prefix, const char *v, size_t len, char *id)
{
	static const char hex[] = "0123456789abcdef";
	size_t o, i;
	unsigned char c;

	/* Kernel attributes end in a newline; serials come space-padded. */
	while (len > 0 && (is_blank(v[0]) || v[0] == '\n' || v[0] == '\r'))
		v++, len--;
	while (len > 0 && (is_blank(v[len - 1]) || v[len - 1] == '\n' ||
	    v[len - 1] == '\r'))
		len--;
	if (len == 0)
		return 0;
	o = strlen(prefix);
	memcpy(id, prefix, o);
	for (i = 0; i < len; i++) {
		c = (unsigned char)v[i];
		if (o + 4 >= DS_DEVID_MAX)
			return 0;
		if (is_blank(c)) {
			if (id[o - 1] != ' ')
				id[o++] = ' ';
		} else if (c < 0x21 || c > 0x7e || c == '\\') {
			id[o++] = '\\';
			id[o++] = 'x';
			id[o++] = hex[c >> 4];
			id[o++] = hex[c & 15];
		} else
			id[o++] = (char)c;
	}
	id[o] = '\0';
	return 1;
}

int
ds_devid_read_by(ds_attr_fn attr, void *arg, const char *name,
    char id[DS_DEVID_MAX])
{
	char rel[64 + DS_DISK_NAME_MAX], buf[ATTR_MAX + 1];
	size_t i;
	long n;

	id[0] = '\0';
	/* One component of sys/block, never a way out of it. */
	if (!ds_component_ok(name) || strlen(name) >= DS_DISK_NAME_MAX)
		return -EINVAL;
	for (i = 0; i < nitems(sources); i++) {
		snprintf(rel, sizeof(rel), "sys/block/%s/%s", name,
		    sources[i].rel);
		if ((n = attr(arg, rel, buf)) < 0)
			return (int)n;
		if (n > 0 && clean(sources[i].prefix, buf, (size_t)n, id))
			return 0;
	}
	return 0;
}

int
ds_devid_read(const struct ds_root *r, const char *name,
    char id[DS_DEVID_MAX])
{
	return ds_devid_read_by(read_attr, (void *)r, name, id);
}

int
ds_devid_name_ok(const char *s, size_t len)
{
	size_t i;

	if (len == 0 || len >= DS_DISK_NAME_MAX)
		return 0;
	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x21 || (unsigned char)s[i] > 0x7e)
			return 0;
	return 1;
}

int
ds_devid_ok(const char *s, size_t len)
{
	size_t i;

	if (len == 0 || len >= DS_DEVID_MAX || s[0] == ' ' ||
	    s[len - 1] == ' ')
		return 0;
	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
			return 0;
	return 1;
}

/* "id NAME IDENTITY\n" appended to head. */
static int
line(struct ds_buf *head, const char *name, const char *id)
{
	size_t n = strlen(name), k = strlen(id);
	char *p;
	int e;

	if ((e = ds_buf_reserve(head, 3 + n + 1 + k + 1)) < 0)
		return e;
	p = head->data + head->len;
	memcpy(p, "id ", 3);
	memcpy(p + 3, name, n);
	p[3 + n] = ' ';
	memcpy(p + 4 + n, id, k);
	p[4 + n + k] = '\n';
	head->len += 5 + n + k;
	head->data[head->len] = '\0';
	return 0;
}

int
ds_snap_ids(const struct ds_root *r, struct ds_buf *head)
{
	struct ds_blockdevs bd = { 0 };
	char id[DS_DEVID_MAX];
	size_t i;
	int e;

	if ((e = ds_blockdevs_read(r, &bd)) < 0)
		return e == -ENOMEM ? e : 0;
	for (i = 0; i < bd.n; i++) {
		const char *name = bd.name[i];

		if (!ds_devid_name_ok(name, strlen(name)) ||
		    ds_devid_read(r, name, id) < 0 || id[0] == '\0')
			continue;
		if (line(head, name, id) < 0) {
			ds_blockdevs_free(&bd);
			return -ENOMEM;
		}
	}
	ds_blockdevs_free(&bd);
	return 0;
}

int
ds_devids_add(struct ds_devids *ids, const char *name, const char *id,
    size_t len)
{
	struct ds_devid_ent *e;
	int r;

	if (strlen(name) >= DS_DISK_NAME_MAX)
		return -EINVAL;
	if (ds_grow(&ids->e, &ids->cap, ids->n + 1, sizeof(*ids->e)) < 0)
		return -ENOMEM;
	if ((r = ds_buf_reserve(&ids->pool, len + 1)) < 0)
		return r;
	e = &ids->e[ids->n++];
	strcpy(e->name, name);
	e->off = ids->pool.len;
	memcpy(ids->pool.data + ids->pool.len, id, len);
	ids->pool.len += len;
	ids->pool.data[ids->pool.len++] = '\0';
	return 0;
}

static int
cmpent(const void *a, const void *b)
{
	return strcmp(((const struct ds_devid_ent *)a)->name,
	    ((const struct ds_devid_ent *)b)->name);
}

int
ds_devids_sort(struct ds_devids *ids)
{
	size_t i;

	/* qsort(3) wants a valid array even for zero entries. */
	if (ids->n < 2)
		return 0;
	qsort(ids->e, ids->n, sizeof(*ids->e), cmpent);
	for (i = 1; i < ids->n; i++)
		if (strcmp(ids->e[i - 1].name, ids->e[i].name) == 0)
			return -EEXIST;
	return 0;
}

const char *
ds_devids_get(const struct ds_devids *ids, const char *name)
{
	size_t lo = 0, hi = ids->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(ids->e[mid].name, name);

		if (c == 0)
			return ids->pool.data + ids->e[mid].off;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void
ds_devids_free(struct ds_devids *ids)
{
	free(ids->e);
	ds_buf_free(&ids->pool);
	memset(ids, 0, sizeof(*ids));
}
