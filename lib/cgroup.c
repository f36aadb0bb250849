/*
 * The cgroup v2 tree: every directory below the mount is a cgroup.
 * The walk opens each directory from its parent's descriptor, so no
 * path is resolved again for each file read, and a cgroup renamed or
 * removed meanwhile cannot send us elsewhere.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

int
ds_cgroup2_mount(const struct ds_root *r, char *mnt, size_t size)
{
	struct ds_mounts ms = { 0 };
	const struct ds_mount *m;
	int e;

	/*
	 * The mount table says where v2 is: /sys/fs/cgroup on unified
	 * hosts, /sys/fs/cgroup/unified on hybrid ones.  A captured tree
	 * without the table (cgroup files copied alone) has it where
	 * unified hosts do; the running system always has the table.
	 */
	e = ds_mountinfo_read(r, "proc/self/mountinfo", &ms);
	if (e == -ENOENT && !r->live) {
		ds_mounts_free(&ms);
		if (size < sizeof("/sys/fs/cgroup"))
			return -ENAMETOOLONG;
		strcpy(mnt, "/sys/fs/cgroup");
		return 0;
	}
	if (e < 0) {
		ds_mounts_free(&ms);
		return e;
	}
	e = 0;
	if ((m = ds_mount_cgroup2(&ms)) == NULL)
		e = -ENOENT;
	else if (strlen(m->mnt) >= size)
		e = -ENAMETOOLONG;
	else
		strcpy(mnt, m->mnt);
	ds_mounts_free(&ms);
	return e;
}

int
ds_cgroup_open(const struct ds_root *r, const struct ds_mount *m,
    const char *path)
{
	struct ds_buf b = { 0 };
	const char *p;
	size_t n;
	int fd, e;

	/* No way out of the hierarchy through "..". */
	for (p = path; *p != '\0'; p += n) {
		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if (n == 2 && p[0] == '.' && p[1] == '.')
			return -EINVAL;
	}
	n = strlen(m->mnt) + strlen(path) + 2;
	if ((e = ds_buf_reserve(&b, n)) < 0)
		return e;
	strcpy(b.data, m->mnt);
	strcat(b.data, "/");
	strcat(b.data, path);
	fd = ds_openat(r, b.data, O_RDONLY | O_DIRECTORY);
	ds_buf_free(&b);
	return fd;
}

static int
namecmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A subtree left out: fn hears its path and why; a non-zero return ends. */
static int
skipped(int (*fn)(void *, int, const char *), void *arg, int e,
    const struct ds_buf *path)
{
	e = fn(arg, e, path->len > 0 ? path->data : "/");
	return e == DS_CGROUP_PRUNE ? 0 : e;
}

/*
 * The names of d's subdirectories into *names (*n of them, also when it
 * fails): 0, -ENOMEM, or readdir's -errno.
 */
static int
read_names(DIR *d, char ***names, size_t *n)
{
	struct dirent *de;
	size_t cap = 0;

	while ((errno = 0, de = readdir(d)) != NULL) {
		if (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN)
			continue;
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		if (ds_grow(names, &cap, *n + 1, sizeof(**names)) < 0 ||
		    ((*names)[*n] = strdup(de->d_name)) == NULL)
			return -ENOMEM;
		(*n)++;
	}
	return errno != 0 ? -errno : 0;
}

static void
free_names(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* path holds the cgroup's path; children are appended to it in turn. */
static int
walk(int fd, struct ds_buf *path, int depth,
    int (*fn)(void *, int, const char *), void *arg)
{
	char **names = NULL;
	size_t n = 0, i, plen;
	DIR *d;
	int e, cfd, dfd;

	/*
	 * cgroup.max.depth defaults to unlimited, and any user with a
	 * delegated subtree can nest deeper than we hold descriptors: such
	 * a subtree is skipped and named (fn with -ELOOP), not the walk.
	 */
	if (depth > DS_CGROUP_DEPTH_MAX)
		return skipped(fn, arg, -ELOOP, path);
	if ((e = fn(arg, fd, path->len > 0 ? path->data : "/")) != 0)
		return e == DS_CGROUP_PRUNE ? 0 : e;
	/*
	 * A new open file, not dup(): a dup shares the directory offset,
	 * and the caller's fd must read from the start at the next walk.
	 */
	if ((dfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return skipped(fn, arg, -errno, path);
	if ((d = fdopendir(dfd)) == NULL) {
		e = -errno;
		close(dfd);
		return skipped(fn, arg, e, path);
	}
	e = read_names(d, &names, &n);
	closedir(d);
	/* The children of a directory that could not be read to its end. */
	if (e < 0 && e != -ENOMEM) {
		free_names(names, n);
		return skipped(fn, arg, e, path);
	}
	if (e == 0 && n > 1)
		qsort(names, n, sizeof(*names), namecmp);
	plen = path->len;
	for (i = 0; e == 0 && i < n; i++) {
		cfd = openat(fd, names[i], O_RDONLY | O_DIRECTORY |
		    O_NOFOLLOW | O_CLOEXEC);
		if (cfd < 0 && (errno == ENOENT || errno == ENOTDIR ||
		    errno == ELOOP))
			continue;	/* removed since readdir, or no directory */
		if ((e = ds_buf_reserve(path, strlen(names[i]) + 1)) == 0) {
			path->data[path->len++] = '/';
			memcpy(path->data + path->len, names[i],
			    strlen(names[i]) + 1);
			path->len += strlen(names[i]);
			/* Out of descriptors (EMFILE) or denied: skip, say. */
			e = cfd < 0 ? skipped(fn, arg, -errno, path) :
			    walk(cfd, path, depth + 1, fn, arg);
			path->len = plen;
			path->data[plen] = '\0';
		}
		if (cfd >= 0)
			close(cfd);
	}
	free_names(names, n);
	return e;
}

int
ds_cgroup_walk(int topfd, int (*fn)(void *arg, int dirfd, const char *path),
    void *arg)
{
	struct ds_buf path = { 0 };
	int e;

	if ((e = ds_buf_reserve(&path, 256)) < 0)
		return e;
	path.data[0] = '\0';
	e = walk(topfd, &path, 0, fn, arg);
	ds_buf_free(&path);
	return e;
}
