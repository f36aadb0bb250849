/*
 * Truncating a deleted file through the descriptor that holds it, to
 * free its space: on the live system only, after proving the file is
 * what was probed and that no process maps it (truncating under a
 * mapping raises SIGBUS in whoever touches the pages past the end).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "internal.h"

/*
 * One process's mappings of (dev, ino): a line of maps with that inode
 * number, confirmed by stat through map_files (the device in maps is
 * the superblock's, which differs from st_dev on btrfs and overlayfs).
 */
static int
maps_hold(const struct ds_root *r, int pid, uint64_t dev, uint64_t ino,
    struct ds_buf *b)
{
	char rel[96], name[40];
	struct stat st;
	struct ds_map m;
	char *cur, *line;
	int e;

	snprintf(rel, sizeof(rel), "proc/%d/maps", pid);
	if ((e = ds_read_file(r, rel, b)) < 0)
		return e;
	cur = b->data;
	while ((line = ds_next_line(&cur)) != NULL) {
		if (ds_map_parse(line, strlen(line), &m) < 0 ||
		    m.inode != ino)
			continue;
		snprintf(name, sizeof(name), "%" PRIx64 "-%" PRIx64, m.start,
		    m.end);
		snprintf(rel, sizeof(rel), "proc/%d/map_files/%s", pid, name);
		if ((e = ds_fstatat_in(r, r->fd, rel, &st)) < 0) {
			/* Unmapped since maps was read. */
			if (e == -ENOENT)
				continue;
			return DS_MAPPED_MAYBE;
		}
		if (st.st_dev == dev && st.st_ino == ino)
			return DS_MAPPED;
	}
	return 0;
}

/* b is scratch.  0, or -errno when proc cannot be listed. */
static int
ds_deleted_mapper(const struct ds_root *r, uint64_t dev, uint64_t ino,
    struct ds_buf *b, struct ds_mapcheck *c)
{
	struct ds_pids pids = { 0 };
	size_t i;
	int e;

	memset(c, 0, sizeof(*c));
	if ((e = ds_pids_read(r, "proc", &pids)) < 0)
		return e;
	for (i = 0; i < pids.n && c->mapped != DS_MAPPED; i++) {
		e = maps_hold(r, pids.pid[i], dev, ino, b);
		/* A process that exited maps nothing. */
		if (e == -ENOENT || e == -ESRCH || e == 0)
			continue;
		if (e < 0) {
			/* Another user's maps without root, or protected. */
			if (c->unreadable++ == 0)
				c->unreadable_pid = pids.pid[i];
			continue;
		}
		if (c->mapped == 0 || e == DS_MAPPED) {
			c->mapped = e;
			c->pid = pids.pid[i];
		}
	}
	ds_pids_free(&pids);
	return 0;
}

static int ds_deleted_fddir(const struct ds_root *r, int pid);

int
ds_deleted_probe(const struct ds_root *r, int pid, int fd,
    struct ds_delprobe *p)
{
	char rel[64];
	struct ds_buf b = { 0 };
	struct statfs sf;
	struct stat st, sn;
	ssize_t n;
	size_t len;
	int e, pfd, stripped;

	memset(p, 0, sizeof(*p));
	/* What truncation would act on, and nothing else: live procfs. */
	if ((pfd = ds_deleted_fddir(r, pid)) < 0)
		return pfd;
	close(pfd);
	snprintf(rel, sizeof(rel), "proc/%d/fd/%d", pid, fd);
	n = ds_readlink_in(r, r->fd, rel, p->path, sizeof(p->path));
	if (n < 0)
		return (int)n;
	if ((size_t)n >= sizeof(p->path))
		return -ENAMETOOLONG;
	len = (size_t)n;
	p->path[len] = '\0';
	stripped = ds_deleted_strip(p->path, &len);
	if ((pfd = ds_openat(r, rel, O_PATH)) < 0)
		return pfd;
	if (fstat(pfd, &st) < 0) {
		e = -errno;
		close(pfd);
		return e;
	}
	/*
	 * Not deleted, and the full name (suffix and all) is this very
	 * file: it is really called "x (deleted)"; messages show that.
	 */
	if (!(stripped && st.st_nlink != 0 &&
	    ds_fstatat_in(r, r->fd, p->path, &sn) == 0 && sn.st_dev == st.st_dev && sn.st_ino == st.st_ino))
		p->path[len] = '\0';
	else
		len = (size_t)n;
	p->dev = st.st_dev;
	p->ino = st.st_ino;
	p->size = (uint64_t)st.st_size;
	p->blocks = (uint64_t)st.st_blocks;
	p->nlink = (uint64_t)st.st_nlink;
	p->regular = S_ISREG(st.st_mode);
	p->memory = ds_deleted_memory(p->path, len, NULL,
	    fstatfs(pfd, &sf) == 0 ? (uint64_t)sf.f_type : 0);
	close(pfd);
	snprintf(rel, sizeof(rel), "proc/%d/fdinfo/%d", pid, fd);
	if (ds_read_file(r, rel, &b) == 0)
		(void)ds_fdinfo_parse(b.data, &p->fi);
	/*
	 * Mapped by any process?  Truncating under a mapping raises SIGBUS
	 * in whoever touches the pages past the new end, so every
	 * process's maps is read, not only the holder's.  Only a file
	 * truncation would act on is worth that scan.
	 */
	if (p->regular && p->nlink == 0 && !p->memory) {
		if ((e = ds_deleted_mapper(r, p->dev, p->ino, &b,
		    &p->map)) < 0) {
			ds_buf_free(&b);
			return e;
		}
	}
	ds_buf_free(&b);
	return 0;
}

#define PROC_SUPER_MAGIC 0x9fa0

/*
 * proc/PID/fd of the live system, checked to be procfs (an O_PATH fd):
 * -EPERM under any other root, -EXDEV when proc is not procfs.  The
 * probe and the truncation both refuse without it.
 */
static int
ds_deleted_fddir(const struct ds_root *r, int pid)
{
	char rel[48];
	struct statfs sf;
	int dfd;

	/*
	 * Only the live system, and only through procfs itself: a tree's
	 * proc/PID/fd/N may be a symlink anywhere (into the real /proc
	 * among others), and the mapping check would have read the tree's
	 * maps while the truncation hit a live file.
	 */
	if (!r->live)
		return -EPERM;
	snprintf(rel, sizeof(rel), "proc/%d/fd", pid);
	if ((dfd = ds_openat(r, rel, O_PATH | O_DIRECTORY | O_NOFOLLOW)) < 0)
		return dfd;
	if (fstatfs(dfd, &sf) < 0 || sf.f_type != PROC_SUPER_MAGIC) {
		close(dfd);
		return -EXDEV;
	}
	return dfd;
}

int
ds_deleted_truncate(const struct ds_root *r, int pid, int fd,
    const struct ds_delprobe *p, uint64_t *freed)
{
	char num[16];
	struct stat st;
	uint64_t before;
	int wfd, dfd, e = 0;

	*freed = 0;
	if ((dfd = ds_deleted_fddir(r, pid)) < 0)
		return dfd;
	snprintf(num, sizeof(num), "%d", fd);
	/* procfs's own magic link: the open file itself, whatever its name. */
	wfd = openat(dfd, num, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	e = wfd < 0 ? -errno : 0;
	close(dfd);
	if (wfd < 0)
		return e;
	/* The descriptor number may have been reused since the probe. */
	if (fstat(wfd, &st) < 0) {
		e = -errno;
		goto out;
	}
	if (st.st_dev != p->dev || st.st_ino != p->ino || st.st_nlink != 0 ||
	    !S_ISREG(st.st_mode)) {
		e = -ESTALE;
		goto out;
	}
	before = (uint64_t)st.st_blocks;
	if (ftruncate(wfd, 0) < 0 || fstat(wfd, &st) < 0) {
		e = -errno;
		goto out;
	}
	if ((uint64_t)st.st_blocks < before)
		*freed = (before - (uint64_t)st.st_blocks) * 512;
out:
	close(wfd);
	return e;
}

int
ds_deltrunc_verdict(const struct ds_delprobe *p, int root)
{
	if (!p->regular)
		return DS_TRUNC_NOT_REGULAR;
	if (p->nlink != 0)
		return DS_TRUNC_LINKED;
	if (p->memory)
		return DS_TRUNC_MEMORY;
	if (p->map.mapped == DS_MAPPED)
		return DS_TRUNC_MAPPED;
	if (p->map.mapped == DS_MAPPED_MAYBE)
		return DS_TRUNC_MAPPED_MAYBE;
	/*
	 * Maps that cannot be read: without root, other users' processes,
	 * any of which may map the file.  Root is refused only by
	 * processes protected from it (the supervisor of an outer
	 * namespace), which the scan cannot see either: the caller says so
	 * and goes on.
	 */
	if (p->map.unreadable > 0 && !root)
		return DS_TRUNC_MAPS_UNREAD;
	return DS_TRUNC_GO;
}
