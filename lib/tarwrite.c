/*
 * A streaming POSIX ustar writer (POSIX.1-2001 "ustar Interchange
 * Format"): 512-byte headers with octal fields, data padded to 512
 * bytes, two zero blocks at the end.  Only what a capture holds:
 * regular files, symbolic links and directories, all owned by uid 0
 * with empty owner names, so an archive says nothing about the users
 * of the machine that wrote it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

#define BLOCK 512

void
ds_tarw_init(struct ds_tarw *w, int fd, uint64_t mtime)
{
	w->fd = fd;
	w->mtime = mtime;
	w->bytes = 0;
	w->len = 0;
	w->err = 0;
}

static int
flush(struct ds_tarw *w)
{
	size_t off = 0;
	ssize_t n;

	while (w->err == 0 && off < w->len) {
		if ((n = write(w->fd, w->buf + off, w->len - off)) < 0) {
			if (errno != EINTR)
				w->err = -errno;
			continue;
		}
		off += (size_t)n;
	}
	w->len = 0;
	return w->err;
}

static int
put(struct ds_tarw *w, const void *p, size_t n)
{
	const char *s = p;
	size_t k;

	while (n > 0 && w->err == 0) {
		if (w->len == sizeof(w->buf) && flush(w) < 0)
			break;
		k = sizeof(w->buf) - w->len;
		if (k > n)
			k = n;
		memcpy(w->buf + w->len, s, k);
		w->len += k;
		w->bytes += k;
		s += k;
		n -= k;
	}
	return w->err;
}

static int
pad(struct ds_tarw *w, uint64_t len)
{
	static const char zero[BLOCK];

	if (len % BLOCK == 0)
		return w->err;
	return put(w, zero, BLOCK - len % BLOCK);
}

/* Octal, zero-padded, NUL-terminated, in a field of size bytes. */
static int
octal(char *f, size_t size, uint64_t v)
{
	size_t i = size - 1;

	f[i] = '\0';
	while (i > 0) {
		f[--i] = (char)('0' + (v & 7));
		v >>= 3;
	}
	return v == 0 ? 0 : -EFBIG;
}

/* A relative name without ".." components. */
static int
name_ok(const char *name)
{
	const char *p = name;

	if (*name == '\0' || *name == '/')
		return 0;
	for (;;) {
		if (p[0] == '.' && p[1] == '.' && (p[2] == '/' || p[2] == '\0'))
			return 0;
		if ((p = strchr(p, '/')) == NULL)
			return 1;
		p++;
	}
}

/*
 * name into the header's name (100 bytes) and prefix (155): split at a
 * slash so that the prefix and the rest fit.
 */
static int
split(char *h, const char *name)
{
	size_t len = strlen(name), i;

	if (len <= 100) {
		memcpy(h, name, len);
		return 0;
	}
	if (len > 256)
		return -ENAMETOOLONG;
	for (i = len - 1; i > 0; i--)
		if (name[i] == '/' && i <= 155 && len - i - 1 <= 100 &&
		    len - i - 1 > 0) {
			memcpy(h + 345, name, i);
			memcpy(h, name + i + 1, len - i - 1);
			return 0;
		}
	return -ENAMETOOLONG;
}

static int
header(struct ds_tarw *w, const char *name, char type, unsigned mode,
    uint64_t size, const char *target)
{
	char h[BLOCK];
	unsigned sum = 0;
	size_t i, tl;
	int e;

	if (w->err != 0)
		return w->err;
	if (!name_ok(name))
		return -EINVAL;
	memset(h, 0, sizeof(h));
	if ((e = split(h, name)) < 0)
		return e;
	if (target != NULL) {
		if ((tl = strlen(target)) > 100)
			return -ENAMETOOLONG;
		memcpy(h + 157, target, tl);
	}
	octal(h + 100, 8, mode);
	octal(h + 108, 8, 0);
	octal(h + 116, 8, 0);
	if ((e = octal(h + 124, 12, size)) < 0 ||
	    (e = octal(h + 136, 12, w->mtime)) < 0)
		return e;
	h[156] = type;
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	/* The checksum is summed with its own field as eight spaces. */
	memset(h + 148, ' ', 8);
	for (i = 0; i < BLOCK; i++)
		sum += (unsigned char)h[i];
	octal(h + 148, 7, sum);
	h[155] = ' ';
	return put(w, h, sizeof(h));
}

int
ds_tarw_file(struct ds_tarw *w, const char *name, const void *data,
    size_t len)
{
	return ds_tarw_file_mode(w, name, 0600, data, len);
}

/* The write bit is kept: dqueue tells settable attributes by it. */
int
ds_tarw_file_mode(struct ds_tarw *w, const char *name, unsigned mode,
    const void *data, size_t len)
{
	int e;

	if ((e = header(w, name, '0', (mode & 0200) ? 0600 : 0400, len,
	    NULL)) < 0 ||
	    (e = put(w, data, len)) < 0)
		return e;
	return pad(w, len);
}

int
ds_tarw_link(struct ds_tarw *w, const char *name, const char *target)
{
	return header(w, name, '2', 0777, 0, target);
}

int
ds_tarw_dir(struct ds_tarw *w, const char *name)
{
	char n[257];
	size_t len = strlen(name);

	/* A directory's name ends with a slash. */
	if (len == 0 || len + 2 > sizeof(n))
		return -ENAMETOOLONG;
	memcpy(n, name, len);
	if (n[len - 1] != '/')
		n[len++] = '/';
	n[len] = '\0';
	return header(w, n, '5', 0700, 0, NULL);
}

int
ds_tarw_end(struct ds_tarw *w)
{
	static const char zero[2 * BLOCK];

	if (put(w, zero, sizeof(zero)) < 0)
		return w->err;
	return flush(w);
}
