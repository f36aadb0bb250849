/* The root prefix: every path the library opens is below it. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <sys/stat.h>

#include "internal.h"

/* Sample i of the capture at r->top as r->fd (never a symlink). */
static int
sample_open(struct ds_root *r, unsigned int i)
{
	char name[16];
	int fd;

	snprintf(name, sizeof(name), "%u", i);
	if ((fd = ds_openat_walk(r->top, name, O_PATH | O_DIRECTORY)) < 0)
		return fd;
	if (r->fd >= 0)
		close(r->fd);
	r->fd = fd;
	r->sample = i;
	return 0;
}

/*
 * A capture (a directory holding capture/meta, or an archive of one
 * extracted into r->tmp): its top kept, its first sample the root.
 */
static int
capture_open(struct ds_root *r, struct ds_buf *why)
{
	char name[16];
	unsigned int n;
	int fd, e;

	if ((fd = ds_openat_walk(r->fd, DS_CAPTURE_META, O_PATH)) < 0)
		return 0;
	close(fd);
	for (n = 0; n < DS_CAPTURE_SAMPLES; n++) {
		snprintf(name, sizeof(name), "%u", n);
		if ((fd = ds_openat_walk(r->fd, name, O_PATH |
		    O_DIRECTORY)) < 0)
			break;
		close(fd);
	}
	if (n == 0) {
		if (why != NULL)
			ds_buf_printf(why, "not a capture: capture/meta but no "
			    "sample 0/");
		return -EINVAL;
	}
	if ((e = ds_capture_meta_check(r->fd, n, why)) < 0)
		return e;
	r->top = r->fd;
	r->fd = -1;
	r->nsamples = n;
	r->live = 0;
	if ((e = sample_open(r, 0)) < 0)
		return e;
	return 1;
}

static int
root_open(struct ds_root *r, const char *dir, struct ds_buf *why)
{
	struct stat st, rs;
	int e;

	if (dir == NULL || *dir == '\0') {
		dir = getenv("DISKSTAT_ROOT");
		if (dir == NULL || *dir == '\0')
			dir = "/";
	}
	if (strlen(dir) >= sizeof(r->path))
		return -ENAMETOOLONG;
	strcpy(r->path, dir);
	r->top = -1;
	r->sample = r->nsamples = 0;
	r->tmp[0] = '\0';
	r->fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (r->fd < 0 && errno == ENOTDIR) {
		/* A file: a capture's archive, read into a private directory. */
		if ((e = ds_capture_extract_why(dir, r->tmp, sizeof(r->tmp),
		    why)) < 0)
			return e;
		r->fd = open(r->tmp, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (r->fd < 0) {
			e = -errno;
			ds_root_close(r);
			return e;
		}
	}
	if (r->fd < 0)
		return -errno;
	/*
	 * Only the real root is the running system, however it is spelt:
	 * "/", "//", "/." and "/.." are, "." and "./" are a captured tree
	 * (the current directory), unless that is "/" itself.  Told by the
	 * directory opened, not by the name.
	 */
	r->live = fstat(r->fd, &st) == 0 && stat("/", &rs) == 0 &&
	    st.st_dev == rs.st_dev && st.st_ino == rs.st_ino;
	if (!r->live && (e = capture_open(r, why)) < 0) {
		ds_root_close(r);
		return e;
	}
	if (r->tmp[0] != '\0' && r->nsamples == 0) {
		ds_root_close(r);
		if (why != NULL)
			ds_buf_printf(why, "not a capture: an archive without "
			    "capture/meta");
		return -EINVAL;
	}
	return 0;
}

int
ds_root_open(struct ds_root *r, const char *dir)
{
	return root_open(r, dir, NULL);
}

int
ds_capture_check(const char *path, struct ds_buf *why)
{
	struct ds_root r;
	int e;

	ds_buf_fail(why, 0);
	if ((e = root_open(&r, path, why)) == 0)
		ds_root_close(&r);
	return e;
}

int
ds_root_next(struct ds_root *r)
{
	if (r->nsamples == 0 || r->sample + 1 >= r->nsamples)
		return -ENOENT;
	return sample_open(r, r->sample + 1);
}

void
ds_root_close(struct ds_root *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	if (r->nsamples > 0 && r->top >= 0)
		close(r->top);
	r->top = -1;
	r->nsamples = 0;
	if (r->tmp[0] != '\0')
		(void)ds_tree_remove(r->tmp);
	r->tmp[0] = '\0';
}

int
ds_component_ok(const char *s)
{
	return *s != '\0' && strchr(s, '/') == NULL && strcmp(s, ".") != 0 &&
	    strcmp(s, "..") != 0;
}

/*
 * Without openat2(2) (kernels before 5.6): one component at a time,
 * none of them a symbolic link and none "..", so nothing can lead out
 * of the directory we started from.  A tree's symlinks are then refused
 * (ELOOP) rather than followed: failing closed is the price of an old
 * kernel.
 */
int
ds_openat_walk(int at, const char *rel, int flags)
{
	char comp[NAME_MAX + 1];
	const char *p = rel;
	int cur = at, fd, e;
	size_t n;

	for (;;) {
		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if (n > NAME_MAX) {
			e = -ENAMETOOLONG;
			break;
		}
		memcpy(comp, n ? p : ".", n ? n : 1);
		comp[n ? n : 1] = '\0';
		p += n;
		while (*p == '/')
			p++;
		if (strcmp(comp, "..") == 0) {
			e = -EXDEV;
			break;
		}
		if (*p == '\0') {
			fd = openat(cur, comp, flags | O_NOFOLLOW | O_CLOEXEC);
			e = fd < 0 ? -errno : fd;
			break;
		}
		fd = openat(cur, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
		if (fd < 0) {
			/* O_PATH|O_NOFOLLOW on a symlink: ENOTDIR. */
			e = errno == ENOTDIR ? -ELOOP : -errno;
			break;
		}
		if (cur != at)
			close(cur);
		cur = fd;
	}
	if (cur != at)
		close(cur);
	return e;
}

/*
 * Every path of a tree given by -R resolves inside it: openat2(2) with
 * RESOLVE_IN_ROOT from the root (a symlink, absolute or "../..", is
 * taken relative to the root, as a chroot would) or RESOLVE_BENEATH
 * from a directory already inside, and never a /proc magic link.  The
 * live root keeps plain openat(2): everything is inside "/", and
 * sysfs's own links (sys/block/NAME -> ../devices/...) must work.
 */
int
ds_openat_in(const struct ds_root *r, int at, const char *rel, int flags)
{
	struct open_how how;
	long fd;

	if (r == NULL) {
		fd = openat(at, rel, flags | O_CLOEXEC);
		return fd < 0 ? -errno : (int)fd;
	}
	while (*rel == '/')
		rel++;
	if (*rel == '\0')
		rel = ".";
	if (r->live) {
		fd = openat(at, rel, flags | O_CLOEXEC);
		return fd < 0 ? -errno : (int)fd;
	}
	memset(&how, 0, sizeof(how));
	how.flags = (uint64_t)(flags | O_CLOEXEC);
	how.resolve = (at == r->fd ? RESOLVE_IN_ROOT : RESOLVE_BENEATH) |
	    RESOLVE_NO_MAGICLINKS;
	fd = syscall(SYS_openat2, at, rel, &how, sizeof(how));
	if (fd < 0 && errno == ENOSYS)
		return ds_openat_walk(at, rel, flags);
	return fd < 0 ? -errno : (int)fd;
}

int
ds_openat(const struct ds_root *r, const char *rel, int flags)
{
	return ds_openat_in(r, r->fd, rel, flags);
}

int
ds_fstatat_in(const struct ds_root *r, int at, const char *rel,
    struct stat *st)
{
	int fd = ds_openat_in(r, at, rel, O_PATH), e = 0;

	if (fd < 0)
		return fd;
	if (fstat(fd, st) < 0)
		e = -errno;
	close(fd);
	return e;
}

long
ds_readlink_in(const struct ds_root *r, int at, const char *rel, char *buf,
    size_t size)
{
	ssize_t n;
	int fd;

	if (r == NULL || r->live) {
		n = readlinkat(at, rel, buf, size);
		return n < 0 ? -errno : n;
	}
	/* The link itself, reached inside the root, then read through "". */
	if ((fd = ds_openat_in(r, at, rel, O_PATH | O_NOFOLLOW)) < 0)
		return fd;
	n = readlinkat(fd, "", buf, size);
	if (n < 0)
		n = -errno;
	close(fd);
	return n;
}
