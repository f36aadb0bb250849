/* Root prefix and whole-file reading. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "diskstat.h"

int
ds_root_open(struct ds_root *r, const char *dir)
{
	struct stat st, rs;

	if (dir == NULL || *dir == '\0') {
		dir = getenv("DISKSTAT_ROOT");
		if (dir == NULL || *dir == '\0')
			dir = "/";
	}
	if (strlen(dir) >= sizeof(r->path))
		return -ENAMETOOLONG;
	strcpy(r->path, dir);
	r->fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
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
	return 0;
}

void
ds_root_close(struct ds_root *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
}

int
ds_openat(const struct ds_root *r, const char *rel, int flags)
{
	int fd;

	while (*rel == '/')
		rel++;
	if (*rel == '\0')
		rel = ".";
	fd = openat(r->fd, rel, flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int
ds_buf_reserve(struct ds_buf *b, size_t n)
{
	size_t want, cap;
	char *p;

	if (n > SIZE_MAX - b->len - 1)
		return -ENOMEM;
	want = b->len + n + 1;
	if (want <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 4096;
	while (cap < want)
		cap = cap > SIZE_MAX / 2 ? want : cap * 2;
	p = realloc(b->data, cap);
	if (p == NULL)
		return -ENOMEM;
	b->data = p;
	b->cap = cap;
	return 0;
}

void
ds_buf_free(struct ds_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

int
ds_buf_fail(struct ds_buf *b, int e)
{
	b->len = 0;
	if (b->data != NULL)
		b->data[0] = '\0';
	return e;
}

int
ds_read_fd(int fd, struct ds_buf *b)
{
	ssize_t n;
	int e;

	b->len = 0;
	for (;;) {
		/* Grow by at least a page; /proc files come a page at a time. */
		if (b->cap - b->len < 4096 + 1 &&
		    (e = ds_buf_reserve(b, b->cap > 4096 ? b->cap : 4096)) < 0)
			return ds_buf_fail(b, e);
		n = read(fd, b->data + b->len, b->cap - b->len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			/* A FIFO with a writer but no data: not a file for us. */
			if (errno == EAGAIN)
				return ds_buf_fail(b, -EINVAL);
			return ds_buf_fail(b, -errno);
		}
		if (n == 0)
			break;
		b->len += (size_t)n;
		if (b->len > DS_READ_MAX)
			return ds_buf_fail(b, -EFBIG);
	}
	b->data[b->len] = '\0';
	return 0;
}

int
ds_read_file(const struct ds_root *r, const char *rel, struct ds_buf *b)
{
	int fd, e;

	/* O_NONBLOCK: opening a FIFO must not wait for a writer. */
	fd = ds_openat(r, rel, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return ds_buf_fail(b, fd);
	e = ds_read_fd(fd, b);
	close(fd);
	return e;
}
