/*
 * A capture's members: files read from the live system with a limit and
 * O_NONBLOCK, written under the sample's directory ("0/proc/stat"); and
 * capture/errors, a line for each thing that could not be read.
 */
#include <dirent.h>
#include <stdarg.h>
#include <sys/stat.h>

#include "dcapture.h"

int
cap_buf_add(struct ds_buf *b, const char *s, size_t len)
{
	if (ds_buf_reserve(b, len) < 0)
		return -ENOMEM;
	memcpy(b->data + b->len, s, len);
	b->len += len;
	b->data[b->len] = '\0';
	return 0;
}

int
cap_buf_printf(struct ds_buf *b, const char *fmt, ...)
{
	va_list ap;
	char s[512];
	int n;

	va_start(ap, fmt);
	n = vsnprintf(s, sizeof(s), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(s))
		return -ENAMETOOLONG;
	return cap_buf_add(b, s, (size_t)n);
}

/*
 * The open file fd into b, read to EOF, CAP_FILE_MAX bytes at most
 * (-EFBIG beyond).  once: a first read that does not fill the buffer is
 * the end, as procfs gives a process's file whole to a read large
 * enough.  0, or -errno with b empty.
 */
int
cap_read_fd(int fd, struct ds_buf *b, int once)
{
	ssize_t n;
	int e = 0, first = 1;

	b->len = 0;
	for (;;) {
		if (b->cap - b->len < 4096 + 1 &&
		    ds_buf_reserve(b, b->cap < 16384 ? 16384 : b->cap) < 0) {
			e = -ENOMEM;
			break;
		}
		n = read(fd, b->data + b->len, b->cap - b->len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			e = -errno;
			break;
		}
		b->len += (size_t)n;
		if (n == 0 || (once && first && b->len < b->cap - 1))
			break;
		first = 0;
		if (b->len > CAP_FILE_MAX) {
			e = -EFBIG;
			break;
		}
	}
	if (b->data != NULL)
		b->data[e == 0 ? b->len : 0] = '\0';
	if (e < 0)
		b->len = 0;
	return e;
}

/*
 * rel of the live system into b: opened O_NONBLOCK (a FIFO or a
 * driver's file cannot hang the capture), read to EOF, CAP_FILE_MAX
 * bytes at most (-EFBIG beyond).
 */
int
cap_read(struct cap *c, const char *rel, struct ds_buf *b)
{
	struct stat st;
	int fd, e;

	b->len = 0;
	c->mode = 0600;
	if ((fd = ds_openat(&c->r, rel, O_RDONLY | O_NONBLOCK)) < 0)
		return fd;
	if (fstat(fd, &st) == 0)
		c->mode = st.st_mode & 0600;
	e = cap_read_fd(fd, b, 0);
	close(fd);
	return e;
}

static int
member(struct cap *c, char *name, size_t size, const char *rel)
{
	if ((size_t)snprintf(name, size, "%u/%s", c->sample, rel) >= size)
		return -ENAMETOOLONG;
	return 0;
}

/* A write error is the capture's end (main checks tw->err); a name too
 * long for ustar is an error line and the member is left out. */
static int
written(struct cap *c, const char *rel, int e)
{
	if (e == -ENAMETOOLONG || e == -EINVAL) {
		cap_error(c, rel, e);
		return 0;
	}
	return e;
}

int
cap_put(struct cap *c, const char *rel, const void *data, size_t len)
{
	char name[600];
	int e;

	if ((e = member(c, name, sizeof(name), rel)) < 0)
		return written(c, rel, e);
	return written(c, rel, ds_tarw_file(c->tw, name, data, len));
}

int
cap_put_top(struct cap *c, const char *name, const void *data, size_t len)
{
	return ds_tarw_file(c->tw, name, data, len);
}

int
cap_dir(struct cap *c, const char *rel)
{
	char name[600];
	int e;

	if ((e = member(c, name, sizeof(name), rel)) < 0)
		return written(c, rel, e);
	return written(c, rel, ds_tarw_dir(c->tw, name));
}

/*
 * rel copied into the sample.  A file that is not there is no error (a
 * process ended, a kernel without the attribute); any other failure is
 * said in capture/errors.  Returns what the read returned.
 */
int
cap_copy(struct cap *c, const char *rel)
{
	char name[600];
	int e;

	if ((e = cap_read(c, rel, &c->buf)) < 0) {
		cap_error(c, rel, e);
		return e;
	}
	if ((e = member(c, name, sizeof(name), rel)) < 0)
		return written(c, rel, e);
	return written(c, rel, ds_tarw_file_mode(c->tw, name, c->mode,
	    c->buf.data, c->buf.len));
}

/* The link rel stored as a link; its target in target when not NULL. */
int
cap_link(struct cap *c, const char *rel, char *target, size_t size)
{
	char t[4096];
	ssize_t n;
	int e;

	if (target == NULL) {
		target = t;
		size = sizeof(t);
	}
	if ((n = readlinkat(c->r.fd, rel, target, size - 1)) < 0) {
		e = -errno;
		cap_error(c, rel, e);
		return e;
	}
	target[n] = '\0';
	return cap_put_link(c, rel, target);
}

/* The link rel, to target, into the sample. */
int
cap_put_link(struct cap *c, const char *rel, const char *target)
{
	char name[600];
	int e;

	if ((e = member(c, name, sizeof(name), rel)) < 0)
		return written(c, rel, e);
	return written(c, rel, ds_tarw_link(c->tw, name, target));
}

void
cap_error_why(struct cap *c, const char *rel, const char *why)
{
	c->esc.len = 0;
	if (ds_esc_msg(&c->esc, rel, strlen(rel)) < 0)
		return;
	c->nerrs++;
	(void)cap_buf_printf(&c->errs, "%u/", c->sample);
	(void)cap_buf_add(&c->errs, c->esc.data, c->esc.len);
	(void)cap_buf_printf(&c->errs, "\t%s\n", why);
}

/* ENOENT and ESRCH are a process or attribute that is not there: normal. */
void
cap_error(struct cap *c, const char *rel, int e)
{
	if (e == -ENOENT || e == -ESRCH)
		return;
	cap_error_why(c, rel, strerror(-e));
}

static int
numeric(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s != '\0'; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

void
cap_names_free(char **names, size_t n)
{
	while (n > 0)
		free(names[--n]);
	free(names);
}

/* The entries of directory rel (all, or the numeric ones), unsorted. */
int
cap_names(struct cap *c, const char *rel, int num, char ***names, size_t *n)
{
	struct dirent *de;
	DIR *d;
	size_t cap = 0;
	int fd, e = 0;

	*names = NULL;
	*n = 0;
	if ((fd = ds_openat(&c->r, rel, O_RDONLY | O_DIRECTORY)) < 0)
		return fd;
	if ((d = fdopendir(fd)) == NULL) {
		e = -errno;
		close(fd);
		return e;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' || (num && !numeric(de->d_name)))
			continue;
		if (ds_grow(names, &cap, *n + 1, sizeof(**names)) < 0 ||
		    ((*names)[*n] = strdup(de->d_name)) == NULL) {
			e = -ENOMEM;
			break;
		}
		(*n)++;
	}
	closedir(d);
	return e;
}
