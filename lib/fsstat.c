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

/* mountinfo's octal escape (\040) undone in place. */
static void
unescape(char *s)
{
	char *o = s;

	while (*s != '\0') {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 |
			    (s[3] - '0'));
			s += 4;
		} else
			*o++ = *s++;
	}
	*o = '\0';
}

/*
 * A capture holds no filesystems, only what statfs said of each mount
 * when the sample was taken: its capture/statfs, a line a mount
 *	MOUNTPOINT dev magic frsize blocks bfree bavail files ffree
 * (the mount point escaped as in mountinfo).  The line of path (with
 * or without its leading slash) or, path NULL, the first of dev.
 */
int
ds_fsstat_captured(const struct ds_root *r, const char *path, uint64_t dev,
    struct ds_fsstat *out)
{
	struct ds_buf b = { 0 };
	uint64_t v[8];
	const char *q;
	char *cur, *line, *sp;
	size_t i;
	int e;

	memset(out, 0, sizeof(*out));
	if ((e = ds_read_file(r, "capture/statfs", &b)) < 0) {
		ds_buf_free(&b);
		return e;
	}
	while (path != NULL && *path == '/')
		path++;
	e = -ENOENT;
	cur = b.data;
	while ((line = ds_next_line(&cur)) != NULL) {
		if ((sp = strchr(line, ' ')) == NULL)
			continue;
		*sp = '\0';
		for (i = 0, q = sp + 1; i < 8; i++)
			if (ds_parse_u64(q, &q, &v[i]) < 0)
				break;
		if (i < 8)
			continue;
		unescape(line);
		while (*line == '/')
			line++;
		if (path != NULL ? strcmp(line, path) != 0 : v[0] != dev)
			continue;
		out->dev = v[0];
		out->magic = v[1];
		out->frsize = v[2];
		out->blocks = v[3];
		out->bfree = v[4];
		out->bavail = v[5];
		out->files = v[6];
		out->ffree = v[7];
		e = 0;
		break;
	}
	ds_buf_free(&b);
	return e;
}

int
ds_fsstat_read(const struct ds_root *r, const char *path,
    struct ds_fsstat *out)
{
	struct statfs sf;
	struct stat st;
	int fd, e = 0;

	if (r->nsamples > 0)
		return ds_fsstat_captured(r, path, 0, out);
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
