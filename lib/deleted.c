/*
 * Deleted files still held open or mapped.
 *
 * The kernel marks the target of /proc/PID/fd/N with " (deleted)" once
 * the dentry is unlinked, so readlinkat() of every descriptor is a cheap
 * pre-filter; only those candidates are stat'ed (through the magic link,
 * which follows even to an unlinked inode) and kept when st_nlink is 0.
 * The suffix alone is not proof: a hard link whose other name survives,
 * an overlayfs lower file and a file really named "x (deleted)" all
 * show it.  Mappings come from /proc/PID/maps and are confirmed through
 * /proc/PID/map_files (CAP_SYS_ADMIN).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "internal.h"

#ifndef STATX_MNT_ID
#define STATX_MNT_ID 0x00001000U
#endif

#define SUFFIX " (deleted)"
#define SUFFIX_LEN (sizeof(SUFFIX) - 1)

/* statfs(2) f_type values of memory-backed filesystems (linux/magic.h). */
#define TMPFS_MAGIC_	0x01021994
#define RAMFS_MAGIC_	0x858458f6
#define HUGETLBFS_MAGIC_ 0x958458f6

int
ds_fdinfo_parse(const char *text, struct ds_fdinfo *fi)
{
	const char *p = text, *nl, *v;
	uint64_t x;
	size_t i;

	memset(fi, 0, sizeof(*fi));
	while (*p != '\0') {
		nl = strchr(p, '\n');
		if (nl == NULL)
			nl = p + strlen(p);
		if (strncmp(p, "pos:", 4) == 0) {
			if (ds_parse_u64(p + 4, &v, &x) == 0 && v == nl) {
				fi->pos = x;
				fi->have |= DS_FDI_POS;
			}
		} else if (strncmp(p, "flags:", 6) == 0) {
			/* Octal, as the kernel prints it ("0100002"). */
			for (v = p + 6; *v == ' ' || *v == '\t'; v++)
				;
			for (x = 0, i = 0; v < nl && *v >= '0' && *v <= '7' &&
			    i < 11; v++, i++)
				x = x * 8 + (uint64_t)(*v - '0');
			if (i > 0 && v == nl && x <= UINT32_MAX) {
				fi->flags = (uint32_t)x;
				fi->have |= DS_FDI_FLAGS;
			}
		} else if (strncmp(p, "mnt_id:", 7) == 0) {
			if (ds_parse_u64(p + 7, &v, &x) == 0 && v == nl &&
			    x <= UINT32_MAX) {
				fi->mnt_id = (uint32_t)x;
				fi->have |= DS_FDI_MNT;
			}
		}
		p = *nl != '\0' ? nl + 1 : nl;
	}
	return fi->have != 0 ? 0 : -EINVAL;
}

static const char *
hex(const char *p, const char *end, uint64_t *out)
{
	uint64_t x = 0;
	const char *s = p;
	int d;

	for (; p < end; p++) {
		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (*p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else
			break;
		if (x >> 60)
			return NULL;
		x = x << 4 | (uint64_t)d;
	}
	if (p == s)
		return NULL;
	*out = x;
	return p;
}

/*
 * "00400000-0040b000 r-xp 00000000 08:01 1835 /usr/bin/cat": the
 * path starts after the padding that follows the inode and may hold
 * spaces; the kernel escapes a newline in it as \012.
 */
int
ds_map_parse(const char *line, size_t len, struct ds_map *m)
{
	const char *p = line, *end = line + len, *q;
	uint64_t x;

	memset(m, 0, sizeof(*m));
	if ((p = hex(p, end, &m->start)) == NULL || p >= end || *p++ != '-')
		return -EINVAL;
	if ((p = hex(p, end, &m->end)) == NULL || p >= end || *p++ != ' ')
		return -EINVAL;
	if (end - p < 5 || p[4] != ' ')
		return -EINVAL;
	memcpy(m->perms, p, 4);
	p += 5;
	if ((p = hex(p, end, &m->offset)) == NULL || p >= end || *p++ != ' ')
		return -EINVAL;
	if ((p = hex(p, end, &x)) == NULL || p >= end || *p++ != ':' ||
	    x > UINT32_MAX)
		return -EINVAL;
	m->major = (unsigned int)x;
	if ((p = hex(p, end, &x)) == NULL || x > UINT32_MAX)
		return -EINVAL;
	m->minor = (unsigned int)x;
	if (p >= end || *p++ != ' ')
		return -EINVAL;
	for (q = p, x = 0; q < end && *q >= '0' && *q <= '9'; q++) {
		if (x > (UINT64_MAX - 9) / 10)
			return -EINVAL;
		x = x * 10 + (uint64_t)(*q - '0');
	}
	if (q == p || (q < end && *q != ' '))
		return -EINVAL;
	m->inode = x;
	while (q < end && *q == ' ')
		q++;
	m->path = q;
	m->path_len = (size_t)(end - q);
	return 0;
}

int
ds_deleted_strip(const char *s, size_t *len)
{
	if (*len < SUFFIX_LEN ||
	    memcmp(s + *len - SUFFIX_LEN, SUFFIX, SUFFIX_LEN) != 0)
		return 0;
	*len -= SUFFIX_LEN;
	return 1;
}

static int
prefix(const char *s, size_t len, const char *p)
{
	size_t n = strlen(p);

	return len >= n && memcmp(s, p, n) == 0;
}

int
ds_deleted_memory(const char *path, size_t len, const char *fstype,
    uint64_t fs_magic)
{
	static const char *const mem[] = {
		"tmpfs", "ramfs", "hugetlbfs", "devtmpfs", "shm",
	};
	size_t i;

	if (fs_magic == TMPFS_MAGIC_ || fs_magic == RAMFS_MAGIC_ ||
	    fs_magic == HUGETLBFS_MAGIC_)
		return 1;
	for (i = 0; fstype != NULL && i < nitems(mem); i++)
		if (strcmp(fstype, mem[i]) == 0)
			return 1;
	return prefix(path, len, "/memfd:") || prefix(path, len, "/SYSV") ||
	    prefix(path, len, "/dev/shm/");
}

size_t
ds_deleted_intern(struct ds_deleted *d, const char *s, size_t len)
{
	size_t off;

	if (ds_buf_reserve(&d->pool, len + 1) < 0)
		return DS_DEL_NONE;
	off = d->pool.len;
	memcpy(d->pool.data + off, s, len);
	d->pool.data[off + len] = '\0';
	d->pool.len += len + 1;
	return off;
}

const char *
ds_deleted_str(const struct ds_deleted *d, size_t off)
{
	if (off == DS_DEL_NONE || d->pool.data == NULL)
		return "";
	return d->pool.data + off;
}

void
ds_deleted_free(struct ds_deleted *d)
{
	free(d->f);
	free(d->fs);
	ds_buf_free(&d->pool);
	memset(d, 0, sizeof(*d));
}

/* ---- the scan --------------------------------------------------------- */

/* A mount id already turned into a mount point and a type. */
struct mntcache {
	uint32_t id;
	size_t mount, mount_len, fstype, fstype_len;
	size_t top, top_len;	/* the whole filesystem's mount */
};

/* Mount tables of other mount namespaces, by "mnt:[inode]". */
struct nscache {
	char key[48];
	struct ds_mounts m;
	int ok;
};

struct mapkey {
	unsigned int major, minor;
	uint64_t ino;
};

/* A capture's capture/fdstat line: the stat of a deleted descriptor. */
struct capfd {
	int pid, fd;
	uint64_t dev, ino, nlink, size, blocks, mnt_id, mode, uid;
};

struct scan {
	const struct ds_root *r;
	int pid;		/* the process being scanned */
	struct capfd *cf;	/* a capture's fdstat (r->nsamples > 0) */
	size_t ncf, capcf;
	struct ds_deleted *d;
	int procfd;
	struct ds_buf buf;
	char *dents;
	size_t dentsz;
	struct ds_mounts host;
	int have_host;
	char selfns[48];
	struct mntcache *mc;
	size_t nmc, capmc;
	struct nscache *ns;
	size_t nns;
	struct mapkey *mk;
	size_t nmk, capmk;
	char link[8192];
};

/* The getdents64(2) record. */
struct dent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

static int
gone(int e)
{
	return e == -ENOENT || e == -ESRCH;
}

static size_t
find_fs(struct scan *s, uint64_t dev, int dirfd, const char *name)
{
	struct ds_deleted *d = s->d;
	struct ds_delfs *fs;
	struct statfs sf;
	size_t i;
	int fd;

	for (i = 0; i < d->nfs; i++)
		if (d->fs[i].dev == dev)
			return i;
	if (ds_grow(&d->fs, &d->capfs, d->nfs + 1, sizeof(*d->fs)) < 0)
		return DS_DEL_NONE;
	fs = &d->fs[d->nfs];
	memset(fs, 0, sizeof(*fs));
	fs->dev = dev;
	fs->mount = fs->fstype = DS_DEL_NONE;
	if (s->r->nsamples > 0) {
		struct ds_fsstat st;

		if (ds_fsstat_captured(s->r, NULL, dev, &st) == 0) {
			fs->have_statfs = 1;
			fs->magic = st.magic;
			fs->frsize = st.frsize;
			fs->blocks = st.blocks;
			fs->bfree = st.bfree;
			fs->bavail = st.bavail;
		}
		return d->nfs++;
	}
	/* O_PATH through the magic link: the deleted file's own filesystem. */
	fd = ds_openat_in(s->r, dirfd, name, O_PATH);
	if (fd >= 0) {
		if (fstatfs(fd, &sf) == 0) {
			fs->have_statfs = 1;
			fs->magic = (uint64_t)sf.f_type;
			fs->frsize = (uint64_t)(sf.f_frsize ? sf.f_frsize :
			    sf.f_bsize);
			fs->blocks = (uint64_t)sf.f_blocks;
			fs->bfree = (uint64_t)sf.f_bfree;
			fs->bavail = (uint64_t)sf.f_bavail;
		}
		close(fd);
	}
	return d->nfs++;
}

static struct ds_mounts *
ns_mounts(struct scan *s, int pidfd)
{
	char key[48];
	struct nscache *c;
	ssize_t n;
	size_t i;
	int fd;

	n = readlinkat(pidfd, "ns/mnt", key, sizeof(key) - 1);
	if (n <= 0)
		return NULL;
	key[n] = '\0';
	if (strcmp(key, s->selfns) == 0)
		return s->have_host ? &s->host : NULL;
	for (i = 0; i < s->nns; i++)
		if (strcmp(s->ns[i].key, key) == 0)
			return s->ns[i].ok ? &s->ns[i].m : NULL;
	c = realloc(s->ns, (s->nns + 1) * sizeof(*s->ns));
	if (c == NULL)
		return NULL;
	s->ns = c;
	c = &s->ns[s->nns++];
	memset(c, 0, sizeof(*c));
	strcpy(c->key, key);
	/*
	 * This process's mountinfo names its mounts; any process of the
	 * namespace would do, so the table is read once per namespace.
	 */
	if ((fd = ds_openat_in(s->r, pidfd, "mountinfo",
	    O_RDONLY | O_NONBLOCK)) >= 0) {
		if (ds_read_fd(fd, &c->m.text) == 0 &&
		    ds_mountinfo_parse(c->m.text.data, &c->m) == 0)
			c->ok = 1;
		close(fd);
	}
	return c->ok ? &c->m : NULL;
}

/*
 * Mount point and type of mount id, as the host (our namespace) sees
 * them.  A mount of another namespace is matched by id in that
 * namespace's table, then by device in ours; when we have no mount of
 * that filesystem, the process's own mount point is kept.  *top is the
 * mount of the whole filesystem (root "/") when the host has one, for
 * the per-filesystem summary: a bind mount of a subdirectory would
 * make du see only part of it.
 */
static void
resolve_mount(struct scan *s, int pidfd, uint32_t id, struct ds_delfile *f,
    size_t *top, size_t *top_len)
{
	const struct ds_mount *m = NULL, *h, *t = NULL;
	struct ds_mounts *ms;
	struct mntcache *c;
	size_t i;

	for (i = 0; i < s->nmc; i++)
		if (s->mc[i].id == id) {
			c = &s->mc[i];
			f->mount = c->mount;
			f->mount_len = c->mount_len;
			f->fstype = c->fstype;
			f->fstype_len = c->fstype_len;
			*top = c->top;
			*top_len = c->top_len;
			return;
		}
	if (s->have_host && (m = ds_mount_by_id(&s->host, id)) != NULL)
		t = m;
	if (m == NULL && (ms = ns_mounts(s, pidfd)) != NULL &&
	    ms != &s->host && (m = ds_mount_by_id(ms, id)) != NULL &&
	    s->have_host && (h = ds_mount_host_view(&s->host, m)) != NULL)
		m = t = h;
	if (m == NULL)
		return;
	for (i = 0; t != NULL && strcmp(t->root, "/") != 0 &&
	    i < s->host.n; i++)
		if (s->host.m[i].major == t->major &&
		    s->host.m[i].minor == t->minor &&
		    strcmp(s->host.m[i].root, "/") == 0)
			t = &s->host.m[i];
	if (t == NULL)
		t = m;
	f->mount_len = strlen(m->mnt);
	f->mount = ds_deleted_intern(s->d, m->mnt, f->mount_len);
	f->fstype_len = strlen(m->fstype);
	f->fstype = ds_deleted_intern(s->d, m->fstype, f->fstype_len);
	*top = f->mount;
	*top_len = f->mount_len;
	if (t != m) {
		*top_len = strlen(t->mnt);
		*top = ds_deleted_intern(s->d, t->mnt, *top_len);
	}
	if (ds_grow(&s->mc, &s->capmc, s->nmc + 1, sizeof(*s->mc)) < 0)
		return;
	c = &s->mc[s->nmc++];
	c->id = id;
	c->mount = f->mount;
	c->mount_len = f->mount_len;
	c->fstype = f->fstype;
	c->fstype_len = f->fstype_len;
	c->top = *top;
	c->top_len = *top_len;
}

static const char *
magic_name(uint64_t magic)
{
	switch (magic) {
	case TMPFS_MAGIC_:
		return "tmpfs";
	case RAMFS_MAGIC_:
		return "ramfs";
	case HUGETLBFS_MAGIC_:
		return "hugetlbfs";
	}
	return NULL;
}

/*
 * Keep one holder.  dirfd/name reach the file (fd or map_files entry);
 * link/len is its name without the suffix.
 */
static int
add(struct scan *s, int pidfd, int fdnum, const struct statx *stx,
    int dirfd, const char *name, const char *link, size_t len,
    const struct ds_fdinfo *fi)
{
	struct ds_deleted *d = s->d;
	struct ds_delfile *f;
	struct ds_delfs *fs;
	const char *fst;
	size_t fsi, top = DS_DEL_NONE, top_len = 0;

	if (ds_grow(&d->f, &d->cap, d->n + 1, sizeof(*d->f)) < 0)
		return -ENOMEM;
	f = &d->f[d->n];
	memset(f, 0, sizeof(*f));
	f->pid = 0;
	f->fd = fdnum;
	f->dev = makedev(stx->stx_dev_major, stx->stx_dev_minor);
	f->ino = stx->stx_ino;
	f->size = stx->stx_size;
	f->blocks = stx->stx_blocks;
	f->mount = f->fstype = f->comm = DS_DEL_NONE;
	if (fi != NULL)
		f->fi = *fi;
	if ((f->path = ds_deleted_intern(d, link, len)) == DS_DEL_NONE)
		return -ENOMEM;
	f->path_len = len;
	fsi = find_fs(s, f->dev, dirfd, name);
	if (fsi == DS_DEL_NONE)
		return -ENOMEM;
	f->fs = fsi;
	/* The mount id: fdinfo's for a descriptor, statx's for a mapping. */
	if (fi != NULL && (fi->have & DS_FDI_MNT))
		resolve_mount(s, pidfd, fi->mnt_id, f, &top, &top_len);
	else if (stx->stx_mask & STATX_MNT_ID)
		resolve_mount(s, pidfd, (uint32_t)stx->stx_mnt_id, f, &top,
		    &top_len);
	fs = &d->fs[fsi];
	if (f->fstype == DS_DEL_NONE && (fst = magic_name(fs->magic)) != NULL) {
		f->fstype_len = strlen(fst);
		f->fstype = ds_deleted_intern(d, fst, f->fstype_len);
	}
	if (fs->mount == DS_DEL_NONE && top != DS_DEL_NONE) {
		fs->mount = top;
		fs->mount_len = top_len;
	}
	if (fs->fstype == DS_DEL_NONE && f->fstype != DS_DEL_NONE) {
		fs->fstype = f->fstype;
		fs->fstype_len = f->fstype_len;
	}
	f->memory = ds_deleted_memory(ds_deleted_str(d, f->path), len,
	    f->fstype != DS_DEL_NONE ? ds_deleted_str(d, f->fstype) : NULL,
	    fs->magic);
	d->n++;
	return 0;
}

/*
 * In a tree given by -R the link is followed only inside the tree (a
 * link into the real /proc is refused): see ds_openat_in.
 */
static const struct capfd *
capfd_find(const struct scan *s, const char *name)
{
	uint64_t v;
	size_t i;

	if (ds_strtou64(name, &v) < 0 || v > INT32_MAX)
		return NULL;
	for (i = 0; i < s->ncf; i++)
		if (s->cf[i].pid == s->pid && s->cf[i].fd == (int)v)
			return &s->cf[i];
	return NULL;
}

/*
 * A capture's capture/fdstat (dcapture(1)): a line a deleted descriptor,
 *	pid fd dev ino nlink size blocks mnt_id mode uid
 * decimal.  Lines that do not parse are left out.
 */
static int
capfd_load(struct scan *s)
{
	char *cur, *line;
	const char *q;
	uint64_t v[10];
	struct capfd *c;
	size_t i;
	int e;

	if ((e = ds_read_file(s->r, "capture/fdstat", &s->buf)) < 0)
		return e == -ENOENT ? 0 : e;
	cur = s->buf.data;
	while ((line = ds_next_line(&cur)) != NULL) {
		for (i = 0, q = line; i < 10; i++)
			if (ds_parse_u64(q, &q, &v[i]) < 0)
				break;
		if (i < 10 || v[0] == 0 || v[0] > INT32_MAX || v[1] > INT32_MAX ||
		    v[9] > UINT32_MAX)
			continue;
		if (ds_grow(&s->cf, &s->capcf, s->ncf + 1, sizeof(*s->cf)) < 0)
			return -ENOMEM;
		c = &s->cf[s->ncf++];
		c->pid = (int)v[0];
		c->fd = (int)v[1];
		c->dev = v[2];
		c->ino = v[3];
		c->nlink = v[4];
		c->size = v[5];
		c->blocks = v[6];
		c->mnt_id = v[7];
		c->mode = v[8];
		c->uid = v[9];
	}
	return 0;
}

static int
stx_deleted(const struct scan *s, int dirfd, const char *name,
    struct statx *stx)
{
	unsigned mask = STATX_BASIC_STATS | STATX_MNT_ID;
	const struct capfd *c;
	int fd, e = 0;

	/* A capture holds the file's stat, not the file. */
	if (s->r->nsamples > 0) {
		if ((c = capfd_find(s, name)) == NULL)
			return -ENOENT;
		memset(stx, 0, sizeof(*stx));
		stx->stx_mask = STATX_BASIC_STATS |
		    (c->mnt_id != 0 ? STATX_MNT_ID : 0);
		stx->stx_dev_major = major(c->dev);
		stx->stx_dev_minor = minor(c->dev);
		stx->stx_ino = c->ino;
		stx->stx_nlink = (uint32_t)c->nlink;
		stx->stx_size = c->size;
		stx->stx_blocks = c->blocks;
		stx->stx_mnt_id = c->mnt_id;
		stx->stx_mode = (uint16_t)c->mode;
		return c->nlink == 0 ? 1 : 0;
	}
	if (s->r->live) {
		if (statx(dirfd, name, 0, mask, stx) < 0)
			return -errno;
		return stx->stx_nlink == 0 ? 1 : 0;
	}
	if ((fd = ds_openat_in(s->r, dirfd, name, O_PATH)) < 0)
		return fd;
	if (statx(fd, "", AT_EMPTY_PATH, mask, stx) < 0)
		e = -errno;
	close(fd);
	return e < 0 ? e : stx->stx_nlink == 0 ? 1 : 0;
}

int
ds_deleted_link(int fdd, const char *name, char *link, size_t size,
    size_t *len)
{
	ssize_t n;

	if ((n = readlinkat(fdd, name, link, size)) < 0)
		return -errno;
	if (n == 0 || (size_t)n >= size)
		return 0;
	link[n] = '\0';
	*len = (size_t)n;
	return link[0] == '/' && ds_deleted_strip(link, len);
}

static int
scan_fds(struct scan *s, int pidfd, int fdd)
{
	char rel[48];
	struct statx stx;
	struct ds_fdinfo fi;
	ssize_t nb;
	size_t len, off;
	int e, fd;

	for (;;) {
		nb = getdents64(fdd, s->dents, s->dentsz);
		if (nb < 0)
			return -errno;
		if (nb == 0)
			return 0;
		for (off = 0; off < (size_t)nb;) {
			struct dent64 *de = (struct dent64 *)(void *)
			    (s->dents + off);
			const char *name = de->d_name;
			uint64_t v;

			off += de->d_reclen;
			if (name[0] < '0' || name[0] > '9')
				continue;
			if (ds_deleted_link(fdd, name, s->link,
			    sizeof(s->link), &len) != 1)
				continue;
			if (stx_deleted(s, fdd, name, &stx) != 1)
				continue;
			if (ds_strtou64(name, &v) < 0 || v > INT32_MAX)
				continue;
			fd = (int)v;
			memset(&fi, 0, sizeof(fi));
			snprintf(rel, sizeof(rel), "fdinfo/%s", name);
			e = ds_openat_in(s->r, pidfd, rel, O_RDONLY | O_NONBLOCK);
			if (e >= 0) {
				if (ds_read_fd(e, &s->buf) == 0)
					(void)ds_fdinfo_parse(s->buf.data, &fi);
				close(e);
			}
			if ((e = add(s, pidfd, fd, &stx, fdd, name, s->link,
			    len, &fi)) < 0)
				return e;
		}
	}
}

static int
seen_map(struct scan *s, const struct ds_map *m)
{
	size_t i;

	for (i = 0; i < s->nmk; i++)
		if (s->mk[i].ino == m->inode && s->mk[i].major == m->major &&
		    s->mk[i].minor == m->minor)
			return 1;
	if (ds_grow(&s->mk, &s->capmk, s->nmk + 1, sizeof(*s->mk)) < 0)
		return 0;
	s->mk[s->nmk].major = m->major;
	s->mk[s->nmk].minor = m->minor;
	s->mk[s->nmk].ino = m->inode;
	s->nmk++;
	return 0;
}

/* Mappings of deleted files; rows [first, d->n) are this process's. */
static int
scan_maps(struct scan *s, int pidfd, size_t first)
{
	struct ds_deleted *d = s->d;
	char *p, *end, *q, *ls;
	struct statx stx;
	struct ds_map m;
	char name[40];
	int fd, mapd = -2, e = 0;
	ssize_t n;
	size_t i, len;

	fd = ds_openat_in(s->r, pidfd, "maps", O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return fd;
	e = ds_read_fd(fd, &s->buf);
	close(fd);
	if (e < 0)
		return e;
	s->nmk = 0;
	p = s->buf.data;
	end = p + s->buf.len;
	while ((q = memmem(p, (size_t)(end - p), SUFFIX "\n",
	    SUFFIX_LEN + 1)) != NULL) {
		ls = q;
		while (ls > p && ls[-1] != '\n')
			ls--;
		p = q + SUFFIX_LEN + 1;
		if (ds_map_parse(ls, (size_t)(q + SUFFIX_LEN - ls), &m) < 0 ||
		    m.inode == 0 || seen_map(s, &m))
			continue;
		if (mapd == -2) {
			mapd = ds_openat_in(s->r, pidfd, "map_files",
			    O_RDONLY | O_DIRECTORY);
			if (mapd < 0)
				mapd = -1;
		}
		if (mapd < 0) {
			d->unconfirmed++;
			continue;
		}
		snprintf(name, sizeof(name), "%" PRIx64 "-%" PRIx64, m.start,
		    m.end);
		if ((e = stx_deleted(s, mapd, name, &stx)) != 1) {
			if (e == -EPERM || e == -EACCES)
				d->unconfirmed++;
			continue;
		}
		/* Open as well: listed once, with its descriptor. */
		for (i = first; i < d->n; i++)
			if (d->f[i].ino == stx.stx_ino && d->f[i].dev ==
			    makedev(stx.stx_dev_major, stx.stx_dev_minor))
				break;
		if (i < d->n)
			continue;
		n = readlinkat(mapd, name, s->link, sizeof(s->link));
		if (n > 0 && (size_t)n < sizeof(s->link)) {
			len = (size_t)n;
			(void)ds_deleted_strip(s->link, &len);
		} else {
			/* The maps text escapes a newline as \012. */
			len = m.path_len;
			memcpy(s->link, m.path, len);
		}
		if ((e = add(s, pidfd, -1, &stx, mapd, name, s->link, len,
		    NULL)) < 0)
			break;
	}
	if (mapd >= 0)
		close(mapd);
	return e < 0 && e != -ENOENT ? e : 0;
}

static int
scan_pid(struct scan *s, int pid)
{
	struct ds_deleted *d = s->d;
	char num[16];
	struct ds_stat st;
	struct stat sb;
	size_t first = d->n, i, comm = DS_DEL_NONE, comm_len = 0;
	int pidfd, fdd, e;

	snprintf(num, sizeof(num), "%d", pid);
	s->pid = pid;
	pidfd = ds_openat_in(s->r, s->procfd, num, O_PATH | O_DIRECTORY);
	if (pidfd < 0) {
		d->vanished++;
		return 0;
	}
	d->procs++;
	fdd = ds_openat_in(s->r, pidfd, "fd", O_RDONLY | O_DIRECTORY);
	if (fdd < 0) {
		e = fdd;
		/* A capture has an fd directory where it could read one. */
		if (e == -EACCES || e == -EPERM ||
		    (e == -ENOENT && s->r->nsamples > 0))
			d->denied++;
		else
			d->vanished++;
		close(pidfd);
		return 0;
	}
	e = scan_fds(s, pidfd, fdd);
	close(fdd);
	if (e == -ENOMEM)
		goto out;
	e = scan_maps(s, pidfd, first);
	if (e == -ENOMEM)
		goto out;
	e = 0;
	if (d->n == first)
		goto out;
	if (fstat(pidfd, &sb) < 0)
		sb.st_uid = (uid_t)-1;
	/* A capture's owners are in its fdstat (an archive's are root). */
	if (s->r->nsamples > 0)
		for (i = 0; i < s->ncf; i++)
			if (s->cf[i].pid == pid)
				sb.st_uid = (uid_t)s->cf[i].uid;
	fdd = ds_openat_in(s->r, pidfd, "stat", O_RDONLY | O_NONBLOCK);
	if (fdd >= 0) {
		if (ds_read_fd(fdd, &s->buf) == 0 &&
		    ds_stat_parse(s->buf.data, s->buf.len, &st) == 0) {
			comm_len = st.comm_len;
			comm = ds_deleted_intern(d, st.comm, comm_len);
		}
		close(fdd);
	}
	for (i = first; i < d->n; i++) {
		d->f[i].pid = pid;
		d->f[i].uid = (uint32_t)sb.st_uid;
		d->f[i].comm = comm;
		d->f[i].comm_len = comm_len;
	}
out:
	close(pidfd);
	return e;
}

int
ds_deleted_scan(const struct ds_root *r, struct ds_deleted *d)
{
	struct ds_pids pids = { 0 };
	struct scan s;
	ssize_t n;
	size_t i;
	int e;

	d->n = d->nfs = 0;
	d->pool.len = 0;
	d->procs = d->denied = d->vanished = d->unconfirmed = 0;
	memset(&s, 0, sizeof(s));
	s.r = r;
	s.d = d;
	if ((e = ds_pids_read(r, "proc", &pids)) < 0)
		return e;
	if ((s.procfd = ds_openat(r, "proc", O_PATH | O_DIRECTORY)) < 0) {
		ds_pids_free(&pids);
		return s.procfd;
	}
	s.dentsz = 32768;
	if ((s.dents = malloc(s.dentsz)) == NULL) {
		e = -ENOMEM;
		goto out;
	}
	if (r->nsamples > 0 && (e = capfd_load(&s)) < 0)
		goto out;
	if (ds_mountinfo_read(r, "proc/self/mountinfo", &s.host) == 0)
		s.have_host = 1;
	n = ds_readlink_in(r, s.procfd, "self/ns/mnt", s.selfns,
	    sizeof(s.selfns) - 1);
	s.selfns[n > 0 ? n : 0] = '\0';
	e = 0;
	for (i = 0; i < pids.n && e == 0; i++) {
		e = scan_pid(&s, pids.pid[i]);
		if (gone(e))
			e = 0;
	}
out:
	for (i = 0; i < s.nns; i++)
		ds_mounts_free(&s.ns[i].m);
	free(s.ns);
	free(s.mc);
	free(s.mk);
	free(s.cf);
	free(s.dents);
	ds_mounts_free(&s.host);
	ds_buf_free(&s.buf);
	close(s.procfd);
	ds_pids_free(&pids);
	return e;
}

static int
cmp_row(const void *a, const void *b)
{
	const struct ds_delfile *x = a, *y = b;
	unsigned ux = (unsigned)x->fd, uy = (unsigned)y->fd;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	/* (unsigned)-1 sorts the mappings after the descriptors. */
	if (ux != uy)
		return ux < uy ? -1 : 1;
	return (x->ino > y->ino) - (x->ino < y->ino);
}

void
ds_deleted_sort(struct ds_deleted *d)
{
	if (d->n > 1)
		qsort(d->f, d->n, sizeof(*d->f), cmp_row);
}

/* ---- per filesystem --------------------------------------------------- */

struct key {
	size_t fs;
	uint64_t a;
	size_t i;
};

static int
cmp_key(const void *a, const void *b)
{
	const struct key *x = a, *y = b;

	if (x->fs != y->fs)
		return x->fs < y->fs ? -1 : 1;
	return (x->a > y->a) - (x->a < y->a);
}

int
ds_deleted_summary(const struct ds_deleted *d, struct ds_delsum **out,
    size_t *n)
{
	struct ds_delsum *sum;
	struct key *k;
	size_t i, j, ns = 0, *slot;

	*out = NULL;
	*n = 0;
	if (d->nfs == 0)
		return 0;
	sum = calloc(d->nfs, sizeof(*sum));
	slot = malloc(d->nfs * sizeof(*slot));
	k = malloc((d->n ? d->n : 1) * sizeof(*k));
	if (sum == NULL || slot == NULL || k == NULL) {
		free(sum);
		free(slot);
		free(k);
		return -ENOMEM;
	}
	for (i = 0; i < d->nfs; i++)
		slot[i] = DS_DEL_NONE;
	for (i = 0; i < d->n; i++)
		if (slot[d->f[i].fs] == DS_DEL_NONE) {
			slot[d->f[i].fs] = ns;
			sum[ns++].fs = d->f[i].fs;
		}
	/* Each inode once: the same st_dev, so st_ino tells them apart. */
	for (i = 0; i < d->n; i++) {
		k[i].fs = d->f[i].fs;
		k[i].a = d->f[i].ino;
		k[i].i = i;
	}
	qsort(k, d->n, sizeof(*k), cmp_key);
	for (i = 0; i < d->n; i++) {
		if (i > 0 && k[i].fs == k[i - 1].fs && k[i].a == k[i - 1].a)
			continue;
		j = slot[k[i].fs];
		sum[j].files++;
		sum[j].held += d->f[k[i].i].blocks * 512;
		sum[j].size += d->f[k[i].i].size;
	}
	for (i = 0; i < d->n; i++) {
		k[i].fs = d->f[i].fs;
		k[i].a = (uint64_t)(unsigned)d->f[i].pid;
	}
	qsort(k, d->n, sizeof(*k), cmp_key);
	for (i = 0; i < d->n; i++)
		if (i == 0 || k[i].fs != k[i - 1].fs || k[i].a != k[i - 1].a)
			sum[slot[k[i].fs]].holders++;
	free(slot);
	free(k);
	/*
	 * The question is df against du: filesystems that hold disk space
	 * first, memory-backed ones (every file of it tmpfs, memfd, shm)
	 * after them, each group in the order of d->fs.
	 */
	for (i = 0; i < ns; i++)
		sum[i].memory = 1;
	for (i = 0; i < d->n; i++)
		if (!d->f[i].memory)
			for (j = 0; j < ns; j++)
				if (sum[j].fs == d->f[i].fs)
					sum[j].memory = 0;
	for (i = 1; i < ns; i++) {
		struct ds_delsum t = sum[i];

		for (j = i; j > 0 && sum[j - 1].memory && !t.memory; j--)
			sum[j] = sum[j - 1];
		sum[j] = t;
	}
	*out = sum;
	*n = ns;
	return 0;
}
