/*
 * Like du -sx: the space allocated to every inode reachable by name
 * below a directory, each inode once, without crossing into other
 * filesystems: set beside df's used space and what deleted files still
 * hold, it shows what neither explains.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/* Inodes with more than one link, so each is counted once. */
struct inoset {
	uint64_t *v;		/* 0 is a free slot; inode 0 does not occur */
	size_t n, cap;
};

static int
inoset_add(struct inoset *s, uint64_t ino)
{
	size_t i, mask;

	if (s->n * 2 >= s->cap) {
		struct inoset t = { 0 };
		t.cap = s->cap ? s->cap * 2 : 1024;
		if ((t.v = calloc(t.cap, sizeof(*t.v))) == NULL)
			return -ENOMEM;
		for (i = 0; i < s->cap; i++)
			if (s->v[i] != 0)
				(void)inoset_add(&t, s->v[i]);
		free(s->v);
		*s = t;
	}
	mask = s->cap - 1;
	for (i = (size_t)(ino * 0x9e3779b97f4a7c15ULL) & mask; s->v[i] != 0;
	    i = (i + 1) & mask)
		if (s->v[i] == ino)
			return 0;
	s->v[i] = ino;
	s->n++;
	return 1;
}

struct du {
	dev_t dev;
	uint64_t bytes, errors;
	struct inoset links;
	int e;
};

/*
 * One level of the walk: the directory's identity, to come back to it
 * through ".." and know it is the same, and the subdirectories still to
 * enter.  Only the deepest level holds a descriptor, so an 8,000-deep
 * tree needs neither 8,000 stack frames nor 8,000 descriptors; memory
 * is the pending names along one path.
 */
struct du_level {
	dev_t dev;
	ino_t ino;
	char **sub;
	size_t n, i;
};

static void
du_level_free(struct du_level *l)
{
	while (l->i < l->n)
		free(l->sub[l->i++]);
	free(l->sub);
	l->sub = NULL;
	l->n = l->i = 0;
}

/* Count the entries of the directory fd; its subdirectories into l. */
static void
du_read(struct du *u, int fd, struct du_level *l)
{
	struct dirent *de;
	struct stat st;
	size_t cap = 0;
	DIR *dir;
	int dfd;

	if ((dfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0 ||
	    (dir = fdopendir(dfd)) == NULL) {
		if (dfd >= 0)
			close(dfd);
		u->errors++;
		return;
	}
	while (u->e == 0 && (de = readdir(dir)) != NULL) {
		if (de->d_name[0] == '.' && (de->d_name[1] == '\0' ||
		    (de->d_name[1] == '.' && de->d_name[2] == '\0')))
			continue;
		if (fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			if (errno != ENOENT)
				u->errors++;
			continue;
		}
		/* -x: a mount point below belongs to another filesystem. */
		if (st.st_dev != u->dev)
			continue;
		if (st.st_nlink > 1 && !S_ISDIR(st.st_mode)) {
			int a = inoset_add(&u->links, st.st_ino);
			if (a < 0) {
				u->e = a;
				break;
			}
			if (a == 0)
				continue;
		}
		u->bytes += (uint64_t)st.st_blocks * 512;
		if (!S_ISDIR(st.st_mode))
			continue;
		if (ds_grow(&l->sub, &cap, l->n + 1, sizeof(*l->sub)) < 0) {
			u->e = -ENOMEM;
			break;
		}
		if ((l->sub[l->n] = strdup(de->d_name)) == NULL) {
			u->e = -ENOMEM;
			break;
		}
		l->n++;
	}
	closedir(dir);
}

/* Walk below the open directory cur (closed here), depth first. */
static void
du_walk(struct du *u, int cur)
{
	struct du_level *lv = NULL, *l;
	size_t n = 0, cap = 0;
	struct stat st;
	int fd, entered = 1;

	for (;;) {
		if (entered) {
			if (ds_grow(&lv, &cap, n + 1, sizeof(*lv)) < 0) {
				u->e = -ENOMEM;
				break;
			}
			l = &lv[n++];
			memset(l, 0, sizeof(*l));
			if (fstat(cur, &st) == 0) {
				l->dev = st.st_dev;
				l->ino = st.st_ino;
			}
			du_read(u, cur, l);
			if (u->e < 0)
				break;
			entered = 0;
		}
		l = &lv[n - 1];
		if (l->i < l->n) {
			char *name = l->sub[l->i++];

			fd = openat(cur, name, O_RDONLY | O_DIRECTORY |
			    O_NOFOLLOW | O_CLOEXEC);
			free(name);
			if (fd < 0) {
				if (errno != ENOENT)
					u->errors++;
				continue;	/* the next sibling */
			}
			close(cur);
			cur = fd;
			entered = 1;
			continue;
		}
		/* Done with this level: back up to its parent. */
		du_level_free(l);
		if (--n == 0)
			break;
		fd = openat(cur, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		close(cur);
		cur = fd;
		l = &lv[n - 1];
		/* Moved away under us: the rest cannot be found again. */
		if (fd < 0 || fstat(fd, &st) < 0 || st.st_dev != l->dev ||
		    st.st_ino != l->ino) {
			u->errors++;
			break;
		}
	}
	while (n > 0)
		du_level_free(&lv[--n]);
	free(lv);
	if (cur >= 0)
		close(cur);
}

int
ds_du(const struct ds_root *r, const char *dir, uint64_t dev,
    uint64_t *bytes, uint64_t *errors)
{
	struct du u;
	struct stat st;
	int fd;

	memset(&u, 0, sizeof(u));
	if ((fd = ds_openat(r, dir, O_RDONLY | O_DIRECTORY)) < 0)
		return fd;
	if (fstat(fd, &st) < 0) {
		u.e = -errno;
		close(fd);
		return u.e;
	}
	if (dev != 0 && st.st_dev != dev) {
		close(fd);
		return -EXDEV;
	}
	u.dev = st.st_dev;
	u.bytes = (uint64_t)st.st_blocks * 512;
	du_walk(&u, fd);
	free(u.links.v);
	*bytes = u.bytes;
	*errors = u.errors;
	return u.e;
}
