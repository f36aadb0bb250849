/*
 * The growing buffer every reader and formatter fills, and whole-file
 * reading into it: procfs and sysfs report st_size 0, so a file is read
 * until EOF.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

int
ds_buf_reserve(struct ds_buf *b, size_t n)
{
	size_t want;

	if (n > SIZE_MAX - b->len - 1)
		return -ENOMEM;
	want = b->len + n + 1;
	/* A page at first: most files and lines fit. */
	return ds_grow(&b->data, &b->cap, want < 4096 ? 4096 : want, 1);
}

void
ds_buf_free(struct ds_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

int
ds_buf_fail(struct ds_buf *b, int e)
{
	b->len = 0;
	if (b->data != NULL)
		b->data[0] = '\0';
	return e;
}

int
ds_read_fd(int fd, struct ds_buf *b)
{
	ssize_t n;
	int e;

	b->len = 0;
	for (;;) {
		/* Grow by at least a page; /proc files come a page at a time. */
		if (b->cap - b->len < 4096 + 1 &&
		    (e = ds_buf_reserve(b, b->cap > 4096 ? b->cap : 4096)) < 0)
			return ds_buf_fail(b, e);
		n = read(fd, b->data + b->len, b->cap - b->len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			/* A FIFO with a writer but no data: not a file for us. */
			if (errno == EAGAIN)
				return ds_buf_fail(b, -EINVAL);
			return ds_buf_fail(b, -errno);
		}
		if (n == 0)
			break;
		b->len += (size_t)n;
		if (b->len > DS_READ_MAX)
			return ds_buf_fail(b, -EFBIG);
	}
	b->data[b->len] = '\0';
	return 0;
}

int
ds_read_file(const struct ds_root *r, const char *rel, struct ds_buf *b)
{
	int fd, e;

	/* O_NONBLOCK: opening a FIFO must not wait for a writer. */
	fd = ds_openat(r, rel, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return ds_buf_fail(b, fd);
	e = ds_read_fd(fd, b);
	close(fd);
	return e;
}

int
ds_buf_vappendf(struct ds_buf *out, const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0 || ds_buf_reserve(out, (size_t)n + 1) < 0)
		return -ENOMEM;
	vsnprintf(out->data + out->len, (size_t)n + 1, fmt, ap);
	out->len += (size_t)n;
	return 1;
}

int
ds_buf_vprintf(struct ds_buf *out, const char *fmt, va_list ap)
{
	out->len = 0;
	if (out->data != NULL)
		out->data[0] = '\0';
	return ds_buf_vappendf(out, fmt, ap);
}

int
ds_buf_printf(struct ds_buf *out, const char *fmt, ...)
{
	va_list ap;
	int e;

	va_start(ap, fmt);
	e = ds_buf_vprintf(out, fmt, ap);
	va_end(ap);
	return e;
}

int
ds_buf_appendf(struct ds_buf *out, const char *fmt, ...)
{
	va_list ap;
	int e;

	va_start(ap, fmt);
	e = ds_buf_vappendf(out, fmt, ap);
	va_end(ap);
	return e;
}
