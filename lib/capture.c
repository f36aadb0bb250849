/*
 * Captures: the meta of one, and its archive's extraction into a
 * private directory removed again when the root is closed.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

int
ds_capture_read(const struct ds_root *r, const char *rel, struct ds_buf *b)
{
	int fd, e;

	if (r->nsamples == 0)
		return ds_buf_fail(b, -ENOENT);
	if ((fd = ds_openat_walk(r->top, rel, O_RDONLY | O_NONBLOCK)) < 0)
		return ds_buf_fail(b, fd);
	e = ds_read_fd(fd, b);
	close(fd);
	return e;
}

int
ds_capture_u64(const struct ds_root *r, const char *key,
    struct ds_buf *scratch, uint64_t *v)
{
	size_t klen = strlen(key);
	const char *p, *end;
	int e;

	if ((e = ds_capture_read(r, DS_CAPTURE_META, scratch)) < 0)
		return e;
	for (p = scratch->data; *p != '\0'; p = *end ? end + 1 : end) {
		end = strchr(p, '\n');
		if (end == NULL)
			end = p + strlen(p);
		if ((size_t)(end - p) > klen && memcmp(p, key, klen) == 0 &&
		    p[klen] == ' ') {
			if (ds_parse_u64(p + klen + 1, &p, v) < 0 || p != end)
				return -EINVAL;
			return 0;
		}
	}
	return -ENOENT;
}

static int
rm1(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return (flag == FTW_DP ? rmdir(path) : unlink(path)) < 0 ? -1 : 0;
}

int
ds_tree_remove(const char *dir)
{
	if (nftw(dir, rm1, 16, FTW_DEPTH | FTW_PHYS) < 0)
		return -errno;
	return 0;
}
