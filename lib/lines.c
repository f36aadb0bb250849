/*
 * A file a line at a time through a window of fixed size.  diskstats of
 * thousands of devices and their snapshots are megabytes of text whose
 * lines are wanted one by one: holding the whole text, and the copies
 * a doubling buffer leaves behind, is most of a report's memory.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "internal.h"

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
	l->pos = 0;
	l->err = e;
	return ds_buf_fail(l->b, e);
}

void
ds_lines_again(struct ds_lines *l)
{
	l->again = 1;
}

/* Hand out p (length k, already terminated) as the next line. */
static int
give(struct ds_lines *l, char *p, size_t k, char **line, size_t *len)
{
	l->lineno++;
	l->last = *line = p;
	l->lastlen = *len = k;
	return 1;
}

/*
 * Keep the partial line at p (have bytes) and read on behind it: 0 (eof
 * set at the end of the file), or the -errno the reader now holds.
 */
static int
refill(struct ds_lines *l, char *p, size_t have)
{
	struct ds_buf *b = l->b;
	ssize_t n;
	int e;

	if (l->pos > 0) {
		memmove(b->data, p, have);
		b->len = have;
		l->pos = 0;
	}
	/*
	 * A long file (four windows read already) gets a window twice as
	 * large, once: half the reads of diskstats of thousands of devices,
	 * while a file of a few hundred lines keeps the smaller one.
	 */
	if (l->total >= 4 * b->cap && b->cap < 2 * DS_LINES_WINDOW &&
	    (e = ds_buf_reserve(b, 2 * DS_LINES_WINDOW - 1 - b->len)) < 0)
		return fail(l, e);
	while ((n = read(l->fd, b->data + b->len, b->cap - b->len - 1)) < 0 &&
	    errno == EINTR)
		;
	if (n < 0)
		/* A FIFO with a writer but no data: not a file for us. */
		return fail(l, errno == EAGAIN ? -EINVAL : -errno);
	if (n == 0) {
		l->eof = 1;
		return 0;
	}
	b->len += (size_t)n;
	b->data[b->len] = '\0';
	l->total += (size_t)n;
	if (l->total > DS_READ_MAX)
		return fail(l, -EFBIG);
	return 0;
}

int
ds_lines_next(struct ds_lines *l, char **line, size_t *len)
{
	struct ds_buf *b = l->b;
	char *nl, *p;
	size_t have, k;
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
		p = b->data + l->pos;
		have = b->len - l->pos;
		nl = have > 0 ? memchr(p, '\n', have) : NULL;
		k = nl != NULL ? (size_t)(nl - p) : have;
		if (nl != NULL || (l->eof && have > 0)) {
			/* Past the newline, or at the end: never beyond it. */
			l->pos += k + (nl != NULL);
			p[k] = '\0';
			if (l->skip) {
				/* The tail of a line already given, cut. */
				l->skip = 0;
				continue;
			}
			if (k >= DS_LINES_CUT) {
				l->cut = 1;
				p[DS_LINES_CUT] = '\0';
				k = DS_LINES_CUT;
			}
			return give(l, p, k, line, len);
		}
		if (l->eof) {
			l->skip = 0;
			return 0;
		}
		if (have >= DS_LINES_CUT) {
			/*
			 * No newline yet in a line as long as any line can be:
			 * given cut, and the rest of it skipped.
			 */
			l->pos = b->len;
			if (!l->skip) {
				l->skip = 1;
				l->cut = 1;
				p[DS_LINES_CUT] = '\0';
				return give(l, p, DS_LINES_CUT, line, len);
			}
			continue;
		}
		if ((e = refill(l, p, have)) < 0)
			return e;
	}
}

/* statfs(2) f_type of procfs (linux/magic.h). */
#define PROC_MAGIC 0x9fa0

int
ds_lines_procfs(const struct ds_lines *l)
{
	struct statfs sf;

	return fstatfs(l->fd, &sf) == 0 && sf.f_type == PROC_MAGIC;
}
