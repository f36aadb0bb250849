/*
 * ddeleted's operands: the mount points asked for and the holders they
 * keep, and --truncate's PID:FD.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "ddeleted.h"

/* statfs and st_dev of a path below the root, as a ds_delfs entry. */
static int
fs_stat(const struct ds_root *r, const char *path, struct ds_delfs *fs)
{
	struct statfs sf;
	struct stat st;
	int fd, e = 0;

	memset(fs, 0, sizeof(*fs));
	fs->mount = fs->fstype = DS_DEL_NONE;
	if ((fd = ds_openat(r, path, O_PATH | O_DIRECTORY)) < 0)
		return fd;
	if (fstat(fd, &st) < 0 || fstatfs(fd, &sf) < 0) {
		e = -errno;
	} else {
		fs->dev = st.st_dev;
		fs->have_statfs = 1;
		fs->magic = (uint64_t)sf.f_type;
		fs->frsize = (uint64_t)(sf.f_frsize ? sf.f_frsize : sf.f_bsize);
		fs->blocks = (uint64_t)sf.f_blocks;
		fs->bfree = (uint64_t)sf.f_bfree;
		fs->bavail = (uint64_t)sf.f_bavail;
	}
	close(fd);
	return e;
}

/* dir (relative) below the current directory, or NULL and errno. */
static char *
abs_path(const char *dir)
{
	char *cwd, *p;
	size_t n;

	if ((cwd = getcwd(NULL, 0)) == NULL)
		return NULL;
	n = strlen(cwd) + strlen(dir) + 2;
	if ((p = malloc(n)) != NULL)
		snprintf(p, n, "%s%s%s", cwd, strcmp(cwd, "/") == 0 ? "" : "/",
		    dir);
	free(cwd);
	return p;
}

int
del_want_stat(const struct ds_root *r, const char *arg, struct del_want *w)
{
	int e;

	memset(w, 0, sizeof(*w));
	w->path = arg;
	/*
	 * Live, a relative operand is relative to the current directory,
	 * as for df(1); paths are resolved from the root, so prefix the
	 * current directory (getcwd, not realpath(3), which pulls
	 * getgroups into a static link).  Under another root the operands
	 * are paths inside the tree, relative or not.
	 */
	if (r->live && arg[0] != '/') {
		if ((w->abs = abs_path(arg)) == NULL)
			return errno != 0 ? -errno : -ENOMEM;
		w->path = w->abs;
	}
	if ((e = fs_stat(r, w->path, &w->fs)) < 0)
		return e;
	w->ok = 1;
	return 0;
}

void
del_want_free(struct del_want *w, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(w[i].abs);
		w[i].abs = NULL;
	}
}

static int
wanted(const struct del_want *w, size_t nw, const struct ds_deleted *d,
    const struct ds_delfile *f)
{
	size_t i;

	if (nw == 0)
		return 1;
	for (i = 0; i < nw; i++) {
		if (w[i].ok && w[i].fs.dev == f->dev)
			return 1;
		if (f->mount != DS_DEL_NONE &&
		    strcmp(ds_deleted_str(d, f->mount), w[i].path) == 0)
			return 1;
	}
	return 0;
}

/*
 * The rows answer df against du, so memory-backed files (shared
 * /dev/zero mappings, memfd, SysV shm, tmpfs) only when asked for (-a);
 * the summary has every filesystem, disk ones first.
 */
void
del_filter(struct ds_deleted *d, const struct del_want *w, size_t nw,
    uint64_t min, int memory)
{
	size_t i, j;

	for (i = j = 0; i < d->n; i++)
		if (d->f[i].blocks * 512 >= min && wanted(w, nw, d, &d->f[i]) &&
		    (memory || !d->f[i].memory))
			d->f[j++] = d->f[i];
	d->n = j;
}

int
del_parse_pidfd(const char *s, int *pid, int *fd)
{
	const char *colon = strchr(s, ':'), *end;
	uint64_t v;

	if (colon == NULL || ds_parse_u64(s, &end, &v) < 0 || end != colon ||
	    s[0] < '0' || s[0] > '9' || v == 0 || v > INT32_MAX)
		return -EINVAL;
	*pid = (int)v;
	if (colon[1] < '0' || colon[1] > '9' || ds_strtou64(colon + 1, &v) < 0 ||
	    v > INT32_MAX)
		return -EINVAL;
	*fd = (int)v;
	return 0;
}
