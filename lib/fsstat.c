/*
 * Filesystem space as df(1) shows it: statfs(2) of a directory below
 * the root.  f_bavail is what an unprivileged user may still write;
 * f_bfree includes the blocks reserved for root (ext4: 5% by default).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "internal.h"

int
ds_fsstat_read(const struct ds_root *r, const char *path,
    struct ds_fsstat *out)
{
	struct statfs sf;
	struct stat st;
	int fd, e = 0;

	memset(out, 0, sizeof(*out));
	/* O_PATH: no open of the directory itself, no automount trigger. */
	if ((fd = ds_openat(r, path, O_PATH | O_DIRECTORY | O_NOFOLLOW)) < 0)
		return fd;
	if (fstat(fd, &st) < 0 || fstatfs(fd, &sf) < 0) {
		e = -errno;
	} else {
		out->dev = (uint64_t)st.st_dev;
		out->magic = (uint64_t)sf.f_type;
		/* f_frsize is the unit of the counts; old kernels left it 0. */
		out->frsize = (uint64_t)(sf.f_frsize ? sf.f_frsize : sf.f_bsize);
		out->blocks = (uint64_t)sf.f_blocks;
		out->bfree = (uint64_t)sf.f_bfree;
		out->bavail = (uint64_t)sf.f_bavail;
		out->files = (uint64_t)sf.f_files;
		out->ffree = (uint64_t)sf.f_ffree;
	}
	close(fd);
	return e;
}

/* a * b, saturating: a corrupt statfs must not wrap into a small size. */
static uint64_t
mul(uint64_t a, uint64_t b)
{
	if (a != 0 && b > UINT64_MAX / a)
		return UINT64_MAX;
	return a * b;
}

uint64_t
ds_fs_size(const struct ds_fsstat *s)
{
	return mul(s->blocks, s->frsize);
}

uint64_t
ds_fs_used(const struct ds_fsstat *s)
{
	return s->blocks > s->bfree ? mul(s->blocks - s->bfree, s->frsize) : 0;
}

uint64_t
ds_fs_avail(const struct ds_fsstat *s)
{
	return mul(s->bavail, s->frsize);
}

double
ds_fs_use(const struct ds_fsstat *s)
{
	double used = s->blocks > s->bfree ? (double)(s->blocks - s->bfree) : 0;
	double t = used + (double)s->bavail;

	return t > 0 ? used / t : 0;
}

double
ds_fs_iuse(const struct ds_fsstat *s)
{
	if (s->files == 0)
		return -1;
	return s->files > s->ffree ?
	    (double)(s->files - s->ffree) / (double)s->files : 0;
}
