/*
 * A file a line at a time through a window of fixed size.  diskstats of
 * thousands of devices and their snapshots are megabytes of text whose
 * lines are wanted one by one: holding the whole text, and the copies
 * a doubling buffer leaves behind, is most of a report's memory.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "diskstat.h"

static void
init(struct ds_lines *l, int fd, int own, struct ds_buf *window)
{
	memset(l, 0, sizeof(*l));
	l->fd = fd;
	l->own = own;
	l->b = window;
	window->len = 0;
	if (window->data != NULL)
		window->data[0] = '\0';
}

void
ds_lines_fd(struct ds_lines *l, int fd, struct ds_buf *window)
{
	init(l, fd, 0, window);
}

int
ds_lines_open(struct ds_lines *l, const struct ds_root *r, const char *rel,
    struct ds_buf *window)
{
	int fd;

	/* O_NONBLOCK: opening a FIFO must not wait for a writer. */
	init(l, -1, 0, window);
	if ((fd = ds_openat(r, rel, O_RDONLY | O_NONBLOCK)) < 0)
		return fd;
	init(l, fd, 1, window);
	return 0;
}

void
ds_lines_close(struct ds_lines *l)
{
	if (l->own && l->fd >= 0)
		close(l->fd);
	l->fd = -1;
	l->own = 0;
}

/* On failure the window is left empty, still NUL-terminated. */
static int
fail(struct ds_lines *l, int e)
{
	l->b->len = 0;
	l->pos = 0;
	if (l->b->data != NULL)
		l->b->data[0] = '\0';
	l->err = e;
	return e;
}

void
ds_lines_again(struct ds_lines *l)
{
	l->again = 1;
}

int
ds_lines_next(struct ds_lines *l, char **line, size_t *len)
{
	struct ds_buf *b = l->b;
	char *nl;
	ssize_t n;
	size_t have;
	int e;

	if (l->err != 0)
		return l->err;
	if (l->again && l->last != NULL) {
		l->again = 0;
		*line = l->last;
		*len = l->lastlen;
		return 1;
	}
	l->again = 0;
	l->last = NULL;
	l->cut = 0;
	if (!l->ready) {
		/* Empty since init: reserve makes cap exactly the window. */
		if (b->cap < DS_LINES_WINDOW &&
		    (e = ds_buf_reserve(b, DS_LINES_WINDOW - 1)) < 0)
			return fail(l, e);
		l->ready = 1;
	}
	for (;;) {
		have = b->len - l->pos;
		nl = have > 0 ? memchr(b->data + l->pos, '\n', have) : NULL;
		if (nl != NULL || (l->eof && have > 0)) {
			char *p = b->data + l->pos;
			size_t k = nl != NULL ? (size_t)(nl - p) : have;

			/* Past the newline, or at the end: never beyond it. */
			l->pos += k + (nl != NULL);
			p[k] = '\0';
			if (l->skip) {
				/* The tail of a line already given, cut. */
				l->skip = 0;
				continue;
			}
			l->lineno++;
			l->last = *line = p;
			l->lastlen = *len = k;
			return 1;
		}
		if (l->eof) {
			l->skip = 0;
			return 0;
		}
		/* Keep the partial line and read on behind it. */
		if (l->pos > 0) {
			memmove(b->data, b->data + l->pos, have);
			b->len = have;
			l->pos = 0;
		}
		if (b->len + 1 >= b->cap) {
			/*
			 * A line longer than the window: given as far as it
			 * fits, marked cut, and the rest skipped.
			 */
			if (l->skip) {
				b->len = 0;
			} else {
				b->data[b->len] = '\0';
				l->skip = 1;
				l->cut = 1;
				l->lineno++;
				l->pos = b->len;
				l->last = *line = b->data;
				l->lastlen = *len = b->len;
				return 1;
			}
		}
		n = read(l->fd, b->data + b->len, b->cap - b->len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			/* A FIFO with a writer but no data: not a file for us. */
			if (errno == EAGAIN)
				return fail(l, -EINVAL);
			return fail(l, -errno);
		}
		if (n == 0) {
			l->eof = 1;
			continue;
		}
		b->len += (size_t)n;
		b->data[b->len] = '\0';
		l->total += (size_t)n;
		if (l->total > DS_READ_MAX)
			return fail(l, -EFBIG);
	}
}
