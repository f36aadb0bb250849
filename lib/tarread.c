/*
 * A capture's archive (POSIX ustar) read into a private directory.  The
 * archive is input like any other, hand-edited or hostile: every header
 * is checked (checksum, magic, octal fields) before anything is made,
 * names stay inside a sample (0/ to 9/) or capture/, links may not climb
 * out of their sample, and everything is made from directory descriptors
 * we made, with O_NOFOLLOW at every step, so that no link an earlier
 * member planted is ever followed: "0/x -> /etc" then "0/x/passwd" is
 * refused, not written to /etc.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

#define BLOCK 512
#define CHUNK (64u << 10)

struct tar {
	int fd;			/* the archive */
	int top;		/* the directory extracted into */
	struct ds_buf *why;	/* the reason of a refusal, or NULL */
	unsigned long member;	/* 1-based number of the member read */
	unsigned long dirs;	/* directories made, implicit ones too */
	uint64_t total;		/* bytes of the members so far */
	char name[BLOCK];	/* the member's name as the archive gives it */
	char path[BLOCK];	/* the same, "." and empty components left out */
	char link[BLOCK];	/* a link's target */
	char dpath[BLOCK];	/* the directory open as dfd (path's parent) */
	int dfd;		/* -1: none */
	unsigned char h[BLOCK];
	char *buf;		/* CHUNK bytes */
};

/* A refusal: "member N (NAME): why" into t->why; returns e. */
static int
refuse(struct tar *t, int e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
refuse(struct tar *t, int e, const char *fmt, ...)
{
	va_list ap;

	if (t->why == NULL)
		return e;
	if (t->member > 0 && t->name[0] != '\0')
		ds_buf_printf(t->why, "member %lu (%s)%s", t->member, t->name,
		    fmt != NULL ? ": " : "");
	else if (t->member > 0)
		ds_buf_printf(t->why, "member %lu%s", t->member,
		    fmt != NULL ? ": " : "");
	else
		ds_buf_fail(t->why, 0);
	if (fmt != NULL) {
		va_start(ap, fmt);
		ds_buf_vappendf(t->why, fmt, ap);
		va_end(ap);
	}
	return e;
}

/* Exactly n bytes, or fewer at the end of the file: the count or -errno. */
static long
rd(int fd, void *p, size_t n)
{
	size_t got = 0;
	ssize_t r;

	while (got < n) {
		r = read(fd, (char *)p + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (long)got;
}

static int
wr(int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n > 0) {
		w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * An octal field: blanks, then at least one digit, then only NULs or
 * blanks.  GNU's base-256 (the top bit of the first byte, for sizes
 * over 8 GiB) is refused: no member may be that large anyway.
 */
static int
octal(const unsigned char *f, size_t n, uint64_t *v)
{
	size_t i = 0, d = 0;

	*v = 0;
	while (i < n && f[i] == ' ')
		i++;
	for (; i < n && f[i] >= '0' && f[i] <= '7'; i++, d++)
		*v = *v << 3 | (uint64_t)(f[i] - '0');
	if (d == 0 || d > 21)
		return -EINVAL;
	for (; i < n; i++)
		if (f[i] != '\0' && f[i] != ' ')
			return -EINVAL;
	return 0;
}

/* A field up to its first NUL (or its whole width) into out. */
static void
field(char *out, const unsigned char *f, size_t n)
{
	size_t len = strnlen((const char *)f, n);

	memcpy(out, f, len);
	out[len] = '\0';
}

static const char *
type_name(int type)
{
	switch (type) {
	case '1': return "a hard link";
	case '3': return "a character device";
	case '4': return "a block device";
	case '6': return "a FIFO";
	case '7': return "a contiguous file";
	case 'x': case 'g': return "a pax extended header";
	case 'L': case 'K': return "a GNU long name";
	case 'S': return "a GNU sparse file";
	}
	return "of an unknown type";
}

/*
 * The header in t->h checked and read: its type into *type, its size
 * into *size, its name into t->name and t->path, a link's target into
 * t->link.  -EINVAL with the reason.
 */
static int
header(struct tar *t, int *type, uint64_t *size)
{
	const unsigned char *h = t->h;
	uint64_t sum = 0, want;
	int posix;
	size_t i;
	char prefix[160];

	for (i = 0; i < BLOCK; i++)
		sum += i >= 148 && i < 156 ? ' ' : h[i];
	posix = memcmp(h + 257, "ustar\0", 6) == 0;
	if (!posix && memcmp(h + 257, "ustar  \0", 8) != 0)
		return refuse(t, -EINVAL, t->member == 1 ? "not a ustar "
		    "archive (no ustar header at its start)" : "not a ustar "
		    "header (a corrupt archive)");
	if (octal(h + 148, 8, &want) < 0 || want != sum)
		return refuse(t, -EINVAL, "header checksum wrong (a corrupt "
		    "archive)");
	field(t->name, h, 100);
	if (posix && h[345] != '\0') {
		field(prefix, h + 345, 155);
		memmove(t->name + strlen(prefix) + 1, t->name,
		    strlen(t->name) + 1);
		memcpy(t->name, prefix, strlen(prefix));
		t->name[strlen(prefix)] = '/';
	}
	field(t->link, h + 157, 100);
	*type = h[156];
	if (*type != '0' && *type != '\0' && *type != '2' && *type != '5') {
		if (*type >= 0x21 && *type < 0x7f)
			return refuse(t, -EINVAL, "type '%c' (%s): only files, "
			    "links and directories", *type, type_name(*type));
		return refuse(t, -EINVAL, "type 0x%02x (%s): only files, "
		    "links and directories", *type, type_name(*type));
	}
	if (h[124] & 0x80)
		return refuse(t, -EINVAL, "size in base-256 (over 8 GiB)");
	if (octal(h + 124, 12, size) < 0)
		return refuse(t, -EINVAL, "size is not an octal number");
	if ((*type == '2' || *type == '5') && *size != 0)
		return refuse(t, -EINVAL, "a %s with data",
		    *type == '2' ? "link" : "directory");
	return 0;
}

/*
 * t->name made t->path: relative, no "..", "." and empty components
 * left out, first a sample (one digit) or capture.  *depth is its
 * number of components.
 */
static int
name_check(struct tar *t, int type, size_t *depth)
{
	const char *p = t->name;
	size_t n, len = 0;

	*depth = 0;
	if (*p == '\0')
		return refuse(t, -EINVAL, "an empty name");
	if (*p == '/')
		return refuse(t, -EINVAL, "an absolute name");
	for (; *p != '\0'; p += n) {
		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if (n == 0 || (n == 1 && *p == '.'))
			continue;
		if (n == 2 && p[0] == '.' && p[1] == '.')
			return refuse(t, -EINVAL, "a name with \"..\"");
		if (len > 0)
			t->path[len++] = '/';
		memcpy(t->path + len, p, n);
		len += n;
		t->path[len] = '\0';
		if (++*depth == 1 && !(n == 1 && *p >= '0' && *p <= '9') &&
		    !(n == 7 && memcmp(p, "capture", 7) == 0))
			return refuse(t, -EINVAL, "not in a sample (0/, 1/) "
			    "or capture/");
	}
	t->path[len] = '\0';
	/* "./" alone: the top itself, which exists. */
	if (len == 0 && type != '5')
		return refuse(t, -EINVAL, "an empty name");
	if (*depth == 1 && type != '5')
		return refuse(t, -EINVAL, "a %s where a directory belongs",
		    type == '2' ? "link" : "file");
	return 0;
}

/*
 * A link's target: not empty; when relative, resolved by its text from
 * the link's directory, never above its sample (the library opens a
 * sample with RESOLVE_IN_ROOT, so an absolute target stays inside it
 * anyway, as a chroot's would).  Links live in samples only.
 */
static int
link_check(struct tar *t, size_t depth)
{
	const char *p = t->link;
	long d = (long)depth - 2;	/* the link's directory in its sample */
	size_t n;

	if (!(t->path[0] >= '0' && t->path[0] <= '9'))
		return refuse(t, -EINVAL, "a link in capture/");
	if (*p == '\0')
		return refuse(t, -EINVAL, "a link to nothing");
	if (*p == '/')
		return 0;
	for (; *p != '\0'; p += n) {
		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if (n == 0 || (n == 1 && *p == '.'))
			continue;
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (--d < 0)
				return refuse(t, -EINVAL, "a link out of its "
				    "sample (to %s)", t->link);
		} else
			d++;
	}
	return 0;
}

/*
 * The directory holding t->path opened as t->dfd, every directory on
 * the way made if missing, none of them a link: *last is the name left.
 */
static int
parent(struct tar *t, const char **last)
{
	char comp[BLOCK];
	const char *p = t->path, *slash = strrchr(t->path, '/');
	size_t plen = (size_t)(slash - t->path), n;
	struct stat st;
	int cur, fd, e;

	*last = slash + 1;
	if (t->dfd >= 0 && strlen(t->dpath) == plen &&
	    memcmp(t->dpath, t->path, plen) == 0)
		return 0;
	if (t->dfd >= 0)
		close(t->dfd);
	t->dfd = -1;
	cur = t->top;
	while (p < slash) {
		n = strcspn(p, "/");
		memcpy(comp, p, n);
		comp[n] = '\0';
		p += n + 1;
		fd = openat(cur, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
		if (fd < 0 && errno == ENOENT) {
			if (++t->dirs > DS_CAPTURE_MEMBERS) {
				e = refuse(t, -EINVAL, "more than %u "
				    "directories", DS_CAPTURE_MEMBERS);
				goto out;
			}
			if (mkdirat(cur, comp, 0700) < 0) {
				e = refuse(t, -errno, NULL);
				goto out;
			}
			fd = openat(cur, comp, O_RDONLY | O_DIRECTORY |
			    O_NOFOLLOW | O_CLOEXEC);
		}
		if (fd < 0 && (errno == ELOOP || errno == ENOTDIR)) {
			/* O_DIRECTORY on a link is ENOTDIR too: which is it? */
			e = fstatat(cur, comp, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			    S_ISLNK(st.st_mode);
			e = refuse(t, -EINVAL, "a path through the %s %.*s",
			    e ? "link" : "file", (int)(p - 1 - t->path),
			    t->path);
			goto out;
		}
		if (fd < 0) {
			e = refuse(t, -errno, NULL);
			goto out;
		}
		if (cur != t->top)
			close(cur);
		cur = fd;
	}
	t->dfd = cur;
	memcpy(t->dpath, t->path, plen);
	t->dpath[plen] = '\0';
	return 0;
out:
	if (cur != t->top)
		close(cur);
	return e;
}

/* The member's data into a new file name of dir, then its padding. */
static int
put_file(struct tar *t, int dir, const char *name, uint64_t size)
{
	uint64_t left = size;
	size_t n;
	long r;
	int fd, e = 0;

	fd = openat(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0600);
	if (fd < 0)
		return errno == EEXIST ? refuse(t, -EINVAL, "a second member "
		    "of this name") : refuse(t, -errno, NULL);
	for (; left > 0 && e == 0; left -= n) {
		n = left < CHUNK ? (size_t)left : CHUNK;
		if ((r = rd(t->fd, t->buf, n)) < 0)
			e = refuse(t, (int)r, NULL);
		else if ((size_t)r < n)
			e = refuse(t, -EINVAL, "truncated (the archive ends "
			    "inside it)");
		else if ((e = wr(fd, t->buf, n)) < 0)
			e = refuse(t, e, NULL);
	}
	if (close(fd) < 0 && e == 0)
		e = refuse(t, -errno, NULL);
	if (e == 0 && size % BLOCK != 0) {
		n = BLOCK - size % BLOCK;
		if ((r = rd(t->fd, t->buf, n)) < 0)
			e = refuse(t, (int)r, NULL);
		else if ((size_t)r < n)
			e = refuse(t, -EINVAL, "truncated (the archive ends "
			    "inside its padding)");
	}
	return e;
}

static int
put_dir(struct tar *t, int dir, const char *name)
{
	struct stat st;

	if (++t->dirs > DS_CAPTURE_MEMBERS)
		return refuse(t, -EINVAL, "more than %u directories",
		    DS_CAPTURE_MEMBERS);
	if (mkdirat(dir, name, 0700) == 0)
		return 0;
	if (errno != EEXIST)
		return refuse(t, -errno, NULL);
	/* A directory named again (or after its contents): the same one. */
	if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISDIR(st.st_mode))
		return 0;
	return refuse(t, -EINVAL, "a second member of this name");
}

static int
member(struct tar *t, int type, uint64_t size)
{
	const char *last;
	size_t depth;
	int dir, e;

	if ((e = name_check(t, type, &depth)) < 0)
		return e;
	if (type == '2' && (e = link_check(t, depth)) < 0)
		return e;
	if (size > DS_CAPTURE_MEMBER_MAX)
		return refuse(t, -EINVAL, "%llu bytes: more than %u MiB",
		    (unsigned long long)size, DS_CAPTURE_MEMBER_MAX >> 20);
	if (size > DS_CAPTURE_TOTAL_MAX - t->total)
		return refuse(t, -EINVAL, "more than %u GiB in all",
		    (unsigned int)(DS_CAPTURE_TOTAL_MAX >> 30));
	t->total += size;
	if (t->path[0] == '\0')
		return 0;	/* "./": the top, made already */
	if (depth == 1) {
		/* A sample's or capture/'s own directory. */
		dir = t->top;
		last = t->path;
	} else if ((e = parent(t, &last)) < 0)
		return e;
	else
		dir = t->dfd;
	switch (type) {
	case '5':
		return put_dir(t, dir, last);
	case '2':
		if (symlinkat(t->link, dir, last) == 0)
			return 0;
		return errno == EEXIST ? refuse(t, -EINVAL, "a second member "
		    "of this name") : refuse(t, -errno, NULL);
	}
	return put_file(t, dir, last, size);
}

/* The end: a zero block, then another or the end of the file. */
static int
end(struct tar *t)
{
	long r;
	int i;

	if ((r = rd(t->fd, t->h, BLOCK)) < 0)
		return refuse(t, (int)r, NULL);
	if (r == 0)
		return 0;
	for (i = 0; i < BLOCK && r == BLOCK; i++)
		if (t->h[i] != 0)
			break;
	if (r == BLOCK && i == BLOCK)
		return 0;
	t->member = 0;
	return refuse(t, -EINVAL, "data after the end-of-archive block");
}

int
ds_tar_extract_at(const char *path, int top, struct ds_buf *why)
{
	struct tar t;
	struct stat st;
	uint64_t size = 0;
	long r;
	int type = 0, e = 0, i;

	memset(&t, 0, sizeof(t));
	t.top = top;
	t.why = why;
	t.dfd = -1;
	if (why != NULL)
		ds_buf_fail(why, 0);
	/* O_NONBLOCK: a FIFO given by mistake cannot hang the open. */
	if ((t.fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY |
	    O_CLOEXEC)) < 0)
		return -errno;
	if (fstat(t.fd, &st) < 0)
		e = -errno;
	else if (!S_ISREG(st.st_mode))
		e = refuse(&t, -EINVAL, "not a regular file (a capture is "
		    "read from a file or a directory, not a pipe or device)");
	else if ((t.buf = malloc(CHUNK)) == NULL)
		e = -ENOMEM;
	while (e == 0) {
		if ((r = rd(t.fd, t.h, BLOCK)) < 0) {
			e = refuse(&t, (int)r, NULL);
			break;
		}
		if (r == 0)
			break;	/* the end of the file at a block's boundary */
		t.member++;
		t.name[0] = '\0';
		if (r < BLOCK) {
			e = refuse(&t, -EINVAL, t.member == 1 ? "not a ustar "
			    "archive (shorter than one header)" :
			    "truncated header");
			break;
		}
		for (i = 0; i < BLOCK; i++)
			if (t.h[i] != 0)
				break;
		if (i == BLOCK) {
			t.member--;
			e = end(&t);
			break;
		}
		if (t.member > DS_CAPTURE_MEMBERS) {
			e = refuse(&t, -EINVAL, "more than %u members",
			    DS_CAPTURE_MEMBERS);
			break;
		}
		if ((e = header(&t, &type, &size)) == 0)
			e = member(&t, type, size);
	}
	if (t.dfd >= 0)
		close(t.dfd);
	close(t.fd);
	free(t.buf);
	return e;
}

/* A private directory (0700) under $TMPDIR, or /tmp. */
int
ds_capture_mkdtemp(char *tmp, size_t n)
{
	const char *dir = getenv("TMPDIR");
	int len;

	/*
	 * A relative TMPDIR would move with the working directory, and a
	 * long one does not fit the root's field: /tmp then.
	 */
	if (dir == NULL || *dir != '/' ||
	    (size_t)snprintf(tmp, n, "%s/diskstat-capture.XXXXXX", dir) >= n)
		dir = "/tmp";
	len = snprintf(tmp, n, "%s/diskstat-capture.XXXXXX", dir);
	if (len < 0 || (size_t)len >= n) {
		tmp[0] = '\0';
		return -ENAMETOOLONG;
	}
	if (mkdtemp(tmp) == NULL) {
		tmp[0] = '\0';
		return -errno;
	}
	return 0;
}

int
ds_capture_extract_why(const char *path, char *tmp, size_t n,
    struct ds_buf *why)
{
	int top, e;

	if (why != NULL)
		ds_buf_fail(why, 0);
	if ((e = ds_capture_mkdtemp(tmp, n)) < 0) {
		if (why != NULL)
			ds_buf_printf(why, "a private directory in $TMPDIR "
			    "or /tmp");
		return e;
	}
	if ((top = open(tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) < 0)
		e = -errno;
	else {
		e = ds_tar_extract_at(path, top, why);
		close(top);
	}
	if (e < 0) {
		(void)ds_tree_remove(tmp);
		tmp[0] = '\0';
	}
	return e;
}

int
ds_capture_extract(const char *path, char *tmp, size_t n)
{
	return ds_capture_extract_why(path, tmp, n, NULL);
}
