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

struct ds_tar {
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
	/* Reading: the archive through rb, skips by lseek. */
	unsigned char *rb;	/* CHUNK bytes read ahead */
	size_t rpos, rlen;
	size_t ra;		/* the next read's size: 4 KiB, doubled */
	uint64_t fsize;		/* the archive's size */
	uint64_t left;		/* the member's data and padding unread */
	int data_read;		/* the member's, by ds_tar_data */
	/* The member whose header was read last. */
	int type;
	uint64_t size, mtime;
	size_t depth;		/* path's components */
};

/* A refusal: "member N (NAME): why" into t->why; returns e. */
static int
refuse(struct ds_tar *t, int e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
refuse(struct ds_tar *t, int e, const char *fmt, ...)
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

/*
 * n bytes of the archive into p through t->rb: the count (fewer at the
 * end of the file) or -errno.  Small members come many to a read.
 */
static long
get(struct ds_tar *t, void *p, size_t n)
{
	size_t got = 0, k;
	long r;

	while (got < n) {
		if (t->rpos == t->rlen) {
			if (n - got >= CHUNK)
				return (r = rd(t->fd, (char *)p + got,
				    n - got)) < 0 ? r : (long)(got + (size_t)r);
			/*
			 * A reader of the first members (the history's
			 * diskstats) reads a page, not 64 KiB.
			 */
			if ((r = rd(t->fd, t->rb, t->ra)) <= 0)
				return r < 0 ? r : (long)got;
			t->rpos = 0;
			t->rlen = (size_t)r;
			if (t->ra < CHUNK)
				t->ra *= 2;
		}
		k = t->rlen - t->rpos < n - got ? t->rlen - t->rpos : n - got;
		memcpy((char *)p + got, t->rb + t->rpos, k);
		t->rpos += k;
		got += k;
	}
	return (long)got;
}

/* n bytes of the archive passed over: what is read ahead, then lseek. */
static int
skip(struct ds_tar *t, uint64_t n)
{
	uint64_t k = t->rlen - t->rpos;
	off_t at;

	if (n <= k) {
		t->rpos += (size_t)n;
		return 0;
	}
	t->rpos = t->rlen = 0;
	if ((at = lseek(t->fd, (off_t)(n - k), SEEK_CUR)) < 0)
		return refuse(t, -errno, NULL);
	/* lseek goes past the end without a word: the size tells. */
	if ((uint64_t)at > t->fsize)
		return refuse(t, -EINVAL, "truncated (the archive ends inside "
		    "it)");
	return 0;
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

size_t
ds_path_comp(const char **pp)
{
	const char *p = *pp;
	size_t n;

	for (;;) {
		while (*p == '/')
			p++;
		n = (size_t)(strchrnul(p, '/') - p);
		if (n != 1 || *p != '.')
			break;
		p++;
	}
	*pp = p;
	return n;
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
header(struct ds_tar *t, int *type, uint64_t *size)
{
	const unsigned char *h = t->h;
	uint64_t want;
	uint32_t sum = 0;
	int posix;
	size_t i;
	char prefix[160];

	/*
	 * The checksum field counts as blanks.  A plain sum (at most
	 * 512 x 255: 32 bits) vectorizes: thousands of headers are read
	 * for the quiet-time history.
	 */
	for (i = 0; i < BLOCK; i++)
		sum += h[i];
	for (i = 148; i < 156; i++)
		sum += (uint32_t)' ' - h[i];
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
name_check(struct ds_tar *t, int type, size_t *depth)
{
	const char *p = t->name;
	size_t n, len = 0;

	*depth = 0;
	if (*p == '\0')
		return refuse(t, -EINVAL, "an empty name");
	if (*p == '/')
		return refuse(t, -EINVAL, "an absolute name");
	for (; (n = ds_path_comp(&p)) > 0; p += n) {
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
link_check(struct ds_tar *t, size_t depth)
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
	for (; (n = ds_path_comp(&p)) > 0; p += n) {
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
parent(struct ds_tar *t, const char **last)
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
put_file(struct ds_tar *t, int dir, const char *name, uint64_t size)
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
		if ((r = get(t, t->buf, n)) < 0)
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
		if ((r = get(t, t->buf, n)) < 0)
			e = refuse(t, (int)r, NULL);
		else if ((size_t)r < n)
			e = refuse(t, -EINVAL, "truncated (the archive ends "
			    "inside its padding)");
	}
	return e;
}

static int
put_dir(struct ds_tar *t, int dir, const char *name)
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
member(struct ds_tar *t)
{
	const char *last;
	int dir, e;

	if (t->path[0] == '\0')
		return 0;	/* "./": the top, made already */
	if (t->depth == 1) {
		/* A sample's or capture/'s own directory. */
		dir = t->top;
		last = t->path;
	} else if ((e = parent(t, &last)) < 0)
		return e;
	else
		dir = t->dfd;
	switch (t->type) {
	case '5':
		return put_dir(t, dir, last);
	case '2':
		if (symlinkat(t->link, dir, last) == 0)
			return 0;
		return errno == EEXIST ? refuse(t, -EINVAL, "a second member "
		    "of this name") : refuse(t, -errno, NULL);
	}
	return put_file(t, dir, last, t->size);
}

/* The end: a zero block, then another or the end of the file. */
static int
end(struct ds_tar *t)
{
	long r;
	int i;

	if ((r = get(t, t->h, BLOCK)) < 0)
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

/*
 * The next member's header read and checked (its name, link, size and
 * the archive's bounds) into t: 1, 0 at the archive's end, or -errno
 * with the reason.  The data of the member before must have been read
 * or skipped (t->left).
 */
static int
next(struct ds_tar *t)
{
	long r;
	int i, e;

	if (t->left > 0 && (e = skip(t, t->left)) < 0)
		return e;
	t->left = 0;
	if ((r = get(t, t->h, BLOCK)) < 0)
		return refuse(t, (int)r, NULL);
	if (r == 0)
		return 0;	/* the end of the file at a block's boundary */
	t->member++;
	t->name[0] = '\0';
	if (r < BLOCK)
		return refuse(t, -EINVAL, t->member == 1 ? "not a ustar "
		    "archive (shorter than one header)" : "truncated header");
	for (i = 0; i < BLOCK; i++)
		if (t->h[i] != 0)
			break;
	if (i == BLOCK) {
		t->member--;
		return (e = end(t)) < 0 ? e : 0;
	}
	if (t->member > DS_CAPTURE_MEMBERS)
		return refuse(t, -EINVAL, "more than %u members",
		    DS_CAPTURE_MEMBERS);
	if ((e = header(t, &t->type, &t->size)) < 0 ||
	    (e = name_check(t, t->type, &t->depth)) < 0)
		return e;
	if (t->type == '2' && (e = link_check(t, t->depth)) < 0)
		return e;
	if (t->size > DS_CAPTURE_MEMBER_MAX)
		return refuse(t, -EINVAL, "%llu bytes: more than %u MiB",
		    (unsigned long long)t->size, DS_CAPTURE_MEMBER_MAX >> 20);
	if (t->size > DS_CAPTURE_TOTAL_MAX - t->total)
		return refuse(t, -EINVAL, "more than %u GiB in all",
		    (unsigned int)(DS_CAPTURE_TOTAL_MAX >> 30));
	t->total += t->size;
	/* A bad date is no reason to refuse: 0, unknown. */
	if (octal(t->h + 136, 12, &t->mtime) < 0)
		t->mtime = 0;
	t->left = (t->size + BLOCK - 1) / BLOCK * BLOCK;
	t->data_read = 0;
	return 1;
}

/*
 * The archive on fd (the caller's) ready to be read by next: a regular
 * file, its size known, buffers made.  -errno with the reason.
 */
static int
start(struct ds_tar *t, int fd, struct ds_buf *why, unsigned char *rb)
{
	struct stat st;

	memset(t, 0, sizeof(*t));
	t->fd = fd;
	t->top = -1;
	t->why = why;
	t->dfd = -1;
	if (why != NULL)
		ds_buf_fail(why, 0);
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return refuse(t, -EINVAL, "not a regular file (a capture is "
		    "read from a file or a directory, not a pipe or device)");
	t->fsize = (uint64_t)st.st_size;
	t->ra = 4096;
	if ((t->rb = rb) == NULL && (t->rb = malloc(CHUNK)) == NULL)
		return -ENOMEM;
	return 0;
}

int
ds_tar_extract_at(const char *path, int top, struct ds_buf *why)
{
	struct ds_tar t;
	int fd, e;

	/* O_NONBLOCK: a FIFO given by mistake cannot hang the open. */
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY |
	    O_CLOEXEC)) < 0) {
		if (why != NULL)
			ds_buf_fail(why, 0);
		return -errno;
	}
	if ((e = start(&t, fd, why, NULL)) == 0 &&
	    (t.buf = malloc(CHUNK)) == NULL)
		e = -ENOMEM;
	t.top = top;
	while (e == 0 && (e = next(&t)) == 1) {
		/* put_file reads the data and its padding. */
		t.left = 0;
		e = member(&t);
	}
	if (t.dfd >= 0)
		close(t.dfd);
	close(fd);
	free(t.buf);
	free(t.rb);
	return e;
}

int
ds_tar_open(int fd, struct ds_buf *why, struct ds_tar **out)
{
	struct ds_tar *t;
	int e;

	*out = NULL;
	/* The buffer with the rest: one allocation per archive read. */
	if ((t = malloc(sizeof(*t) + CHUNK)) == NULL)
		return -ENOMEM;
	if ((e = start(t, fd, why, (unsigned char *)(t + 1))) < 0) {
		ds_tar_close(t);
		return e;
	}
	*out = t;
	return 0;
}

int
ds_tar_next(struct ds_tar *t, struct ds_tar_member *m)
{
	int e;

	if ((e = next(t)) != 1)
		return e;
	m->path = t->path;
	m->link = t->link;
	m->type = t->type == '\0' ? '0' : t->type;
	m->size = t->size;
	m->mtime = t->mtime;
	return 1;
}

int
ds_tar_data(struct ds_tar *t, struct ds_buf *b)
{
	long r;
	int e;

	if (t->data_read)
		return ds_buf_fail(b, -EINVAL);
	b->len = 0;
	if ((e = ds_buf_reserve(b, (size_t)t->size)) < 0)
		return ds_buf_fail(b, e);
	if ((r = get(t, b->data, (size_t)t->size)) < 0)
		return ds_buf_fail(b, refuse(t, (int)r, NULL));
	if ((uint64_t)r < t->size)
		return ds_buf_fail(b, refuse(t, -EINVAL, "truncated (the "
		    "archive ends inside it)"));
	b->len = (size_t)t->size;
	b->data[b->len] = '\0';
	t->left -= t->size;
	t->data_read = 1;
	return 0;
}

void
ds_tar_close(struct ds_tar *t)
{
	free(t);
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
