/*
 * Reading a line at a time through a window: every line exactly once,
 * at every place a line can fall against the window's edge, long lines
 * cut and counted, and diskstats read this way equal to the whole text
 * parsed at once.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "oracle.h"
#include "tap.h"

/* A descriptor reading text, from the start. */
static int
text_fd(const char *text, size_t len)
{
	int fd = memfd_create("lines", MFD_CLOEXEC);

	if (fd < 0 || write(fd, text, len) != (ssize_t)len ||
	    lseek(fd, 0, SEEK_SET) != 0) {
		perror("memfd");
		exit(1);
	}
	return fd;
}

/* Lines of text split with memchr, the reference. */
static size_t
ref_lines(const char *text, size_t len, const char **start, size_t *llen,
    size_t max)
{
	const char *p = text, *end = text + len, *nl;
	size_t n = 0;

	while (p < end && n < max) {
		nl = memchr(p, '\n', (size_t)(end - p));
		start[n] = p;
		llen[n] = (size_t)((nl != NULL ? nl : end) - p);
		n++;
		p = nl != NULL ? nl + 1 : end;
	}
	return n;
}

/*
 * Lines of lengths around the window's size, shifted by one byte per
 * round, so that a line ends at every offset near the edge, and one
 * line is exactly as long as the window gives whole (DS_LINES_WINDOW -
 * 2 bytes: with its newline and the NUL, the window).
 */
static void
edges(void)
{
	static const char *start[64];
	static size_t llen[64];
	struct ds_buf w = { 0 };
	struct ds_lines l;
	char *text, *line;
	size_t shift, n, i, len, got, bad = 0, rounds = 0;
	int fd, e;

	text = malloc(8 * DS_LINES_WINDOW);
	for (shift = 0; shift < 40; shift++) {
		size_t sizes[] = { shift, DS_LINES_WINDOW - 40, 7,
		    DS_LINES_WINDOW - 2, 0, DS_LINES_WINDOW - 2 - shift, 3 };

		len = 0;
		for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			memset(text + len, 'a' + (int)i, sizes[i]);
			len += sizes[i];
			text[len++] = '\n';
		}
		len -= shift & 1;	/* every other text: no last newline */
		n = ref_lines(text, len, start, llen, 64);
		fd = text_fd(text, len);
		ds_lines_fd(&l, fd, &w);
		for (i = 0; (e = ds_lines_next(&l, &line, &got)) == 1; i++) {
			if (i >= n || l.cut || got != llen[i] ||
			    memcmp(line, start[i], got) != 0 ||
			    line[got] != '\0' || l.lineno != i + 1)
				bad++;
		}
		if (e != 0 || i != n || w.cap > 2 * DS_LINES_WINDOW)
			bad++;
		close(fd);
		rounds++;
	}
	ok(bad == 0, "%zu texts: every line whole and in order at every "
	    "offset against the window's edge", rounds);
	free(text);
	ds_buf_free(&w);
}

static void
cut_and_again(void)
{
	struct ds_buf w = { 0 };
	struct ds_lines l;
	size_t big = 3 * DS_LINES_WINDOW + 5, len, got;
	char *text = malloc(big + 64), *line;
	int fd;

	len = (size_t)sprintf(text, "first\n");
	memset(text + len, 'x', big);
	len += big;
	len += (size_t)sprintf(text + len, "\nlast\n");
	fd = text_fd(text, len);
	ds_lines_fd(&l, fd, &w);
	is_int(ds_lines_next(&l, &line, &got), 1, "cut: first line");
	ok(got == 5 && strcmp(line, "first") == 0 && !l.cut, "cut: first whole");
	ds_lines_again(&l);
	is_int(ds_lines_next(&l, &line, &got), 1, "again: a line");
	ok(strcmp(line, "first") == 0 && l.lineno == 1,
	    "again: the same line, counted once");
	is_int(ds_lines_next(&l, &line, &got), 1, "cut: the long line");
	ok(l.cut && got == DS_LINES_CUT && line[0] == 'x' &&
	    line[got - 1] == 'x' && l.lineno == 2,
	    "cut: a window's worth, marked cut, line 2");
	is_int(ds_lines_next(&l, &line, &got), 1, "cut: the line after");
	ok(!l.cut && strcmp(line, "last") == 0 && l.lineno == 3,
	    "cut: its rest skipped, the next line is line 3");
	is_int(ds_lines_next(&l, &line, &got), 0, "cut: then the end");
	is_int(ds_lines_next(&l, &line, &got), 0, "the end stays the end");
	close(fd);

	/* Empty file, a lone newline, a file of one unterminated line. */
	fd = text_fd("", 0);
	ds_lines_fd(&l, fd, &w);
	is_int(ds_lines_next(&l, &line, &got), 0, "empty: no line");
	close(fd);
	fd = text_fd("\n", 1);
	ds_lines_fd(&l, fd, &w);
	ok(ds_lines_next(&l, &line, &got) == 1 && got == 0 &&
	    ds_lines_next(&l, &line, &got) == 0, "a newline: one empty line");
	close(fd);
	fd = text_fd("abc", 3);
	ds_lines_fd(&l, fd, &w);
	ok(ds_lines_next(&l, &line, &got) == 1 && strcmp(line, "abc") == 0 &&
	    ds_lines_next(&l, &line, &got) == 0, "unterminated: one line");
	close(fd);

	/* An error sticks, and empties the window. */
	fd = open("/", O_RDONLY | O_DIRECTORY);
	ds_lines_fd(&l, fd, &w);
	is_int(ds_lines_next(&l, &line, &got), -EISDIR, "directory: -EISDIR");
	is_int(ds_lines_next(&l, &line, &got), -EISDIR, "the error sticks");
	ok(w.len == 0 && w.data[0] == '\0', "error: window left empty");
	close(fd);
	free(text);
	ds_buf_free(&w);
}

/* The window doubles once for a long file, never for a short one. */
static void
growth(void)
{
	struct ds_buf w = { 0 };
	struct ds_lines l;
	size_t len, i, lines, got;
	char *text, *line;
	int fd;

	for (len = 3 * DS_LINES_WINDOW; len <= 64 * DS_LINES_WINDOW;
	    len *= 4) {
		text = malloc(len);
		for (i = 0; i < len; i++)
			text[i] = i % 100 == 99 ? '\n' : 'a' + (char)(i % 26);
		fd = text_fd(text, len);
		ds_lines_fd(&l, fd, &w);
		for (lines = 0; ds_lines_next(&l, &line, &got) == 1; lines++)
			if (got != 99 || l.cut)
				break;
		ok(lines == len / 100 && l.total == len &&
		    w.cap == (len < 4 * DS_LINES_WINDOW ? 1 : 2) *
		    DS_LINES_WINDOW, "%zu KiB file: every line, window %zu KiB",
		    len >> 10, w.cap >> 10);
		close(fd);
		free(text);
		ds_buf_free(&w);
	}
}

/* diskstats through the window equal to the whole text parsed at once. */
static void
diskstats_equal(void)
{
	struct ds_diskstats whole = { 0 }, win = { 0 };
	struct ds_buf w = { 0 }, t = { 0 };
	struct ds_lines l;
	size_t i, same = 1;
	int fd, n;

	for (i = 0; i < 3000; i++) {
		ds_buf_reserve(&t, 256);
		if (i % 97 == 5)	/* damage, and blank lines */
			n = sprintf(t.data + t.len, "8 %zu bad%zu 1 2 x\n\n", i, i);
		else
			n = sprintf(t.data + t.len, "%zu %zu dev%zu %zu 0 %zu 4 "
			    "5 6 7 8 0 9 10 0 0 0 0 11 %zu\n", i % 300, i, i,
			    i * 3, i * 7, i * 11);
		t.len += (size_t)n;
	}
	is_int(ds_diskstats_parse(t.data, t.len, &whole), 0, "whole: parsed");
	fd = text_fd(t.data, t.len);
	ds_lines_fd(&l, fd, &w);
	is_int(ds_diskstats_fill(&l, &win), 0, "window: parsed");
	close(fd);
	same = whole.n == win.n && whole.n > 2900 && whole.bad == win.bad &&
	    whole.bad > 20 && whole.first_bad == win.first_bad;
	for (i = 0; same && i < whole.n; i++)
		same = memcmp(&whole.disk[i], &win.disk[i],
		    offsetof(struct ds_disk, name)) == 0 &&
		    strcmp(whole.disk[i].name, win.disk[i].name) == 0 &&
		    whole.disk[i].have == win.disk[i].have &&
		    memcmp(whole.disk[i].v, win.disk[i].v,
		    sizeof(whole.disk[i].v)) == 0;
	ok(same, "%zu devices, %zu bad lines from line %zu: equal either way",
	    win.n, win.bad, win.first_bad);
	ds_diskstats_free(&whole);
	ds_diskstats_free(&win);
	ds_buf_free(&w);
	ds_buf_free(&t);
}

int
main(void)
{
	edges();
	cut_and_again();
	growth();
	diskstats_equal();
	return tap_done();
}
