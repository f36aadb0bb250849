/*
 * Block devices: each sys/block entry as the link it is, and below the
 * device directory it points to the files the library reads (counters,
 * size, queue settings, identity, holders and slaves, the hardware
 * queues' mq/N directories, partitions), the device's own directory
 * (model, serial ...) through its "device" link, and every
 * sys/dev/block link.  Links stay links, so that a reader
 * opening sys/block/sda/queue finds it as on the live system.
 */
#include <sys/stat.h>

#include "dcapture.h"

static const char *const disk_files[] = { "dev", "size", "stat",
    "inflight", "ro", "removable", "hidden", "range", "ext_range",
    "capability", "wwid", "serial", "dm/name", "dm/uuid", "dm/suspended" };
static const char *const part_files[] = { "partition", "dev", "size",
    "stat", "start", "inflight", "ro" };
static const char *const dev_files[] = { "model", "vendor", "rev",
    "serial", "wwid", "state", "queue_depth", "timeout", "ioerr_cnt",
    "iotmo_cnt" };

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* dir/target, its ".." resolved, into out: -EINVAL when it climbs out. */
static int
resolve(const char *dir, const char *target, char *out, size_t size)
{
	char tmp[4096], *p, *save = NULL;
	size_t len;

	if (target[0] == '/')
		target++, dir = "";
	out[0] = '\0';
	len = 0;
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s/%s", dir, target) >=
	    sizeof(tmp))
		return -ENAMETOOLONG;
	for (p = strtok_r(tmp, "/", &save); p != NULL;
	    p = strtok_r(NULL, "/", &save)) {
		if (strcmp(p, ".") == 0)
			continue;
		if (strcmp(p, "..") == 0) {
			if (len == 0)
				return -EINVAL;
			while (len > 0 && out[len - 1] != '/')
				len--;
			if (len > 0)
				len--;
			out[len] = '\0';
			continue;
		}
		if (len + strlen(p) + 2 > size)
			return -ENAMETOOLONG;
		if (len > 0)
			out[len++] = '/';
		strcpy(out + len, p);
		len += strlen(p);
	}
	return 0;
}

static void
copy_in(struct cap *c, const char *dir, const char *const *f, size_t n)
{
	char rel[4200];
	size_t i;

	for (i = 0; i < n; i++)
		if ((size_t)snprintf(rel, sizeof(rel), "%s/%s", dir, f[i]) <
		    sizeof(rel))
			(void)cap_copy(c, rel);
}

/* Every readable regular file of dir (queue/, queue/iosched/). */
static void
copy_all(struct cap *c, const char *dir)
{
	char rel[4200], **name;
	struct stat st;
	size_t n, i;

	if (cap_names(c, dir, 0, &name, &n) < 0)
		return;
	for (i = 0; i < n; i++) {
		if ((size_t)snprintf(rel, sizeof(rel), "%s/%s", dir,
		    name[i]) >= sizeof(rel) ||
		    fstatat(c->r.fd, rel, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		/* Write-only attributes (no read bit) have nothing to read. */
		if (S_ISREG(st.st_mode) && (st.st_mode & S_IRUSR))
			(void)cap_copy(c, rel);
	}
	cap_names_free(name, n);
}

/* The links of dir/sub (holders/, slaves/). */
static void
links_in(struct cap *c, const char *dir, const char *sub)
{
	char rel[4200], **name;
	size_t n, i;

	snprintf(rel, sizeof(rel), "%s/%s", dir, sub);
	if (cap_names(c, rel, 0, &name, &n) < 0)
		return;
	/* The directory itself: an empty one is read as none held. */
	(void)cap_dir(c, rel);
	for (i = 0; i < n; i++)
		if ((size_t)snprintf(rel, sizeof(rel), "%s/%s/%s", dir, sub,
		    name[i]) < sizeof(rel))
			(void)cap_link(c, rel, NULL, 0);
	cap_names_free(name, n);
}

/*
 * dir/mq/N, a directory per blk-mq hardware queue: no file says how
 * many there are (a bio-based device has no mq/).
 */
static void
hw_queues(struct cap *c, const char *dir)
{
	char rel[4200], **name;
	size_t n, i;

	snprintf(rel, sizeof(rel), "%s/mq", dir);
	if (cap_names(c, rel, 1, &name, &n) < 0)
		return;
	for (i = 0; i < n; i++)
		if ((size_t)snprintf(rel, sizeof(rel), "%s/mq/%s", dir,
		    name[i]) < sizeof(rel))
			(void)cap_dir(c, rel);
	cap_names_free(name, n);
}

static void
partitions(struct cap *c, const char *dir)
{
	char rel[4200], **name;
	size_t n, i;
	int fd;

	if (cap_names(c, dir, 0, &name, &n) < 0)
		return;
	for (i = 0; i < n; i++) {
		if ((size_t)snprintf(rel, sizeof(rel), "%s/%s/partition", dir,
		    name[i]) >= sizeof(rel) ||
		    (fd = ds_openat(&c->r, rel, O_PATH)) < 0)
			continue;
		close(fd);
		snprintf(rel, sizeof(rel), "%s/%s", dir, name[i]);
		copy_in(c, rel, part_files, N(part_files));
	}
	cap_names_free(name, n);
}

static void
disk(struct cap *c, const char *name)
{
	char rel[4200], t[4096], dir[4096], dev[4096];

	snprintf(rel, sizeof(rel), "sys/block/%s", name);
	if (cap_link(c, rel, t, sizeof(t)) < 0)
		return;
	if (resolve("sys/block", t, dir, sizeof(dir)) < 0) {
		cap_error_why(c, rel, "link leaves sys");
		return;
	}
	copy_in(c, dir, disk_files, N(disk_files));
	snprintf(rel, sizeof(rel), "%s/queue", dir);
	copy_all(c, rel);
	snprintf(rel, sizeof(rel), "%s/queue/iosched", dir);
	copy_all(c, rel);
	links_in(c, dir, "holders");
	links_in(c, dir, "slaves");
	hw_queues(c, dir);
	partitions(c, dir);
	snprintf(rel, sizeof(rel), "%s/device", dir);
	if (cap_link(c, rel, t, sizeof(t)) < 0 ||
	    resolve(dir, t, dev, sizeof(dev)) < 0)
		return;
	copy_in(c, dev, dev_files, N(dev_files));
	snprintf(rel, sizeof(rel), "%s/driver", dev);
	(void)cap_link(c, rel, NULL, 0);
}

void
cap_block(struct cap *c)
{
	char rel[300], **name;
	size_t n, i;
	int e;

	if ((e = cap_names(c, "sys/block", 0, &name, &n)) < 0) {
		cap_error(c, "sys/block", e);
	} else {
		for (i = 0; i < n && c->tw->err == 0; i++)
			disk(c, name[i]);
		cap_names_free(name, n);
	}
	if ((e = cap_names(c, "sys/dev/block", 0, &name, &n)) < 0) {
		cap_error(c, "sys/dev/block", e);
		return;
	}
	for (i = 0; i < n; i++)
		if ((size_t)snprintf(rel, sizeof(rel), "sys/dev/block/%s",
		    name[i]) < sizeof(rel))
			(void)cap_link(c, rel, NULL, 0);
	cap_names_free(name, n);
}
