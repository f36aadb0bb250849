/*
 * Captures: the meta of one, and its archive's extraction into a
 * private directory removed again when the root is closed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

int
ds_capture_read(const struct ds_root *r, const char *rel, struct ds_buf *b)
{
	int fd, e;

	if (r->nsamples == 0)
		return ds_buf_fail(b, -ENOENT);
	if ((fd = ds_openat_walk(r->top, rel, O_RDONLY | O_NONBLOCK)) < 0)
		return ds_buf_fail(b, fd);
	e = ds_read_fd(fd, b);
	close(fd);
	return e;
}

int
ds_meta_u64(const char *text, const char *key, uint64_t *v)
{
	size_t klen = strlen(key);
	const char *p, *end;

	for (p = text; *p != '\0'; p = *end ? end + 1 : end) {
		end = strchr(p, '\n');
		if (end == NULL)
			end = p + strlen(p);
		if ((size_t)(end - p) > klen && memcmp(p, key, klen) == 0 &&
		    p[klen] == ' ') {
			if (ds_parse_u64(p + klen + 1, &p, v) < 0 || p != end)
				return -EINVAL;
			return 0;
		}
	}
	return -ENOENT;
}

int
ds_capture_u64(const struct ds_root *r, const char *key,
    struct ds_buf *scratch, uint64_t *v)
{
	int e;

	if ((e = ds_capture_read(r, DS_CAPTURE_META, scratch)) < 0)
		return e;
	return ds_meta_u64(scratch->data, key, v);
}

static int
rm1(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return (flag == FTW_DP ? rmdir(path) : unlink(path)) < 0 ? -1 : 0;
}

int
ds_tree_remove(const char *dir)
{
	if (nftw(dir, rm1, 16, FTW_DEPTH | FTW_PHYS) < 0)
		return -errno;
	return 0;
}

/*
 * Pairs: two captures made one root of two samples.  A capture given as
 * a directory has its last sample copied (with the archive's rules: its
 * bounds, no link out of its sample, files, links and directories
 * only); an archive's is extracted beside and renamed into place.
 */
struct copy {
	struct ds_buf *why;
	unsigned long n;	/* entries copied */
	uint64_t total;		/* bytes copied */
	char path[4096];	/* the entry's, in its sample */
	char *buf;
};

static int
copy_refuse(struct copy *c, int e, const char *why)
{
	if (c->why != NULL)
		ds_buf_printf(c->why, "%s%s%s", c->path,
		    why != NULL ? ": " : "", why != NULL ? why : "");
	return e;
}

/* A relative target stays in its sample when read from depth (>= 0). */
static int
target_inside(const char *p, long depth)
{
	size_t n;

	if (*p == '/')
		return 1;
	for (; *p != '\0'; p += n) {
		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (--depth < 0)
				return 0;
		} else if (n > 0 && !(n == 1 && *p == '.'))
			depth++;
	}
	return 1;
}

static int
copy_file(struct copy *c, int from, int to, const char *name)
{
	uint64_t got = 0;
	ssize_t n;
	int in, out, e = 0;

	if ((in = openat(from, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC)) < 0)
		return copy_refuse(c, -errno, NULL);
	if ((out = openat(to, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0600)) < 0) {
		e = copy_refuse(c, -errno, NULL);
		close(in);
		return e;
	}
	while ((n = read(in, c->buf, 65536)) > 0) {
		got += (uint64_t)n;
		c->total += (uint64_t)n;
		if (got > DS_CAPTURE_MEMBER_MAX) {
			e = copy_refuse(c, -EINVAL, "more than 64 MiB");
			break;
		}
		if (c->total > DS_CAPTURE_TOTAL_MAX) {
			e = copy_refuse(c, -EINVAL, "more than 2 GiB in all");
			break;
		}
		if (write(out, c->buf, (size_t)n) != n) {
			e = copy_refuse(c, errno ? -errno : -EIO, NULL);
			break;
		}
	}
	if (n < 0 && e == 0)
		e = copy_refuse(c, -errno, NULL);
	if (close(out) < 0 && e == 0)
		e = copy_refuse(c, -errno, NULL);
	close(in);
	return e;
}

/* Directory from's entries into to; c->path names from, depth its depth. */
static int
copy_tree(struct copy *c, int from, int to, long depth)
{
	struct dirent *de;
	struct stat st;
	size_t plen = strlen(c->path);
	char target[4096];
	ssize_t tn;
	int dfd, f2, t2, e = 0;
	DIR *d;

	if (depth > 128)
		return copy_refuse(c, -EINVAL, "more than 128 directories "
		    "deep");
	if ((dfd = dup(from)) < 0 || (d = fdopendir(dfd)) == NULL) {
		if (dfd >= 0)
			close(dfd);
		return copy_refuse(c, -errno, NULL);
	}
	while (e == 0 && (de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		c->path[plen] = '\0';
		if ((size_t)snprintf(c->path + plen, sizeof(c->path) - plen,
		    "/%s", de->d_name) >= sizeof(c->path) - plen) {
			e = copy_refuse(c, -ENAMETOOLONG, NULL);
			break;
		}
		if (++c->n > DS_CAPTURE_MEMBERS) {
			e = copy_refuse(c, -EINVAL, "more than 1000000 entries");
			break;
		}
		if (fstatat(from, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			e = copy_refuse(c, -errno, NULL);
		} else if (S_ISREG(st.st_mode)) {
			e = copy_file(c, from, to, de->d_name);
		} else if (S_ISLNK(st.st_mode)) {
			tn = readlinkat(from, de->d_name, target,
			    sizeof(target) - 1);
			if (tn < 0)
				e = copy_refuse(c, -errno, NULL);
			else if ((target[tn] = '\0', tn == 0) ||
			    !target_inside(target, depth))
				e = copy_refuse(c, -EINVAL, "a link out of its "
				    "sample");
			else if (symlinkat(target, to, de->d_name) < 0)
				e = copy_refuse(c, -errno, NULL);
		} else if (S_ISDIR(st.st_mode)) {
			if (mkdirat(to, de->d_name, 0700) < 0)
				e = copy_refuse(c, -errno, NULL);
			else if ((f2 = openat(from, de->d_name, O_RDONLY |
			    O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
				e = copy_refuse(c, -errno, NULL);
			else {
				if ((t2 = openat(to, de->d_name, O_RDONLY |
				    O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
					e = copy_refuse(c, -errno, NULL);
				else {
					e = copy_tree(c, f2, t2, depth + 1);
					close(t2);
				}
				close(f2);
			}
		} else
			e = copy_refuse(c, -EINVAL, "not a file, link or "
			    "directory");
	}
	closedir(d);
	c->path[plen] = '\0';
	return e;
}

/* The value of key in meta text, its length in *len; NULL: none. */
static const char *
meta_get(const char *text, const char *key, size_t *len)
{
	size_t klen = strlen(key);
	const char *p, *end;

	for (p = text; *p != '\0'; p = *end ? end + 1 : end) {
		end = strchr(p, '\n');
		if (end == NULL)
			end = p + strlen(p);
		if ((size_t)(end - p) > klen && memcmp(p, key, klen) == 0 &&
		    p[klen] == ' ') {
			*len = (size_t)(end - p) - klen - 1;
			return p + klen + 1;
		}
	}
	return NULL;
}

static int
meta_u64(const char *text, const char *key, uint64_t *v)
{
	const char *p, *end;
	size_t len;

	if ((p = meta_get(text, key, &len)) == NULL)
		return -ENOENT;
	if (ds_parse_u64(p, &end, v) < 0 || end != p + len)
		return -EINVAL;
	return 0;
}

/* What the pair keeps of one capture. */
struct side {
	const char *path;
	struct ds_buf meta;
	uint64_t uptime, time;
	int have_time;
};

/*
 * Capture s->path's last sample made directory to of top (the pair's
 * directory tmp); work: a name of top free for an archive's extraction.
 */
static int
pair_take(const char *tmp, int top, struct side *s, const char *to,
    const char *work, struct ds_buf *why)
{
	struct copy c;
	struct stat st;
	char name[32], key[32], x[4200];
	unsigned int n;
	int src, fd, dst, e;

	if (stat(s->path, &st) < 0)
		return -errno;
	if (S_ISDIR(st.st_mode))
		src = open(s->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	else {
		if (mkdirat(top, work, 0700) < 0)
			return -errno;
		if ((src = openat(top, work, O_RDONLY | O_DIRECTORY |
		    O_NOFOLLOW | O_CLOEXEC)) < 0)
			return -errno;
		if ((e = ds_tar_extract_at(s->path, src, why)) < 0) {
			close(src);
			return e;
		}
	}
	if (src < 0)
		return -errno;
	e = -EINVAL;
	if ((fd = ds_openat_walk(src, DS_CAPTURE_META, O_RDONLY |
	    O_NONBLOCK)) < 0) {
		if (why != NULL)
			ds_buf_printf(why, "not a capture: no %s",
			    DS_CAPTURE_META);
		goto out;
	}
	e = ds_read_fd(fd, &s->meta);
	close(fd);
	if (e < 0)
		goto out;
	for (n = 0; n < DS_CAPTURE_SAMPLES; n++) {
		snprintf(name, sizeof(name), "%u", n);
		if ((fd = ds_openat_walk(src, name, O_PATH | O_DIRECTORY)) < 0)
			break;
		close(fd);
	}
	e = -EINVAL;
	if (n == 0) {
		if (why != NULL)
			ds_buf_printf(why, "not a capture: no sample 0/");
		goto out;
	}
	/* The checks -R makes at open, so that a pair trusts no more. */
	if ((e = ds_capture_meta_check(src, n, why)) < 0)
		goto out;
	e = -EINVAL;
	snprintf(name, sizeof(name), "%u", n - 1);
	snprintf(key, sizeof(key), "uptime%u", n - 1);
	if (meta_u64(s->meta.data, key, &s->uptime) < 0) {
		if (why != NULL)
			ds_buf_printf(why, "%s: no %s in %s", name, key,
			    DS_CAPTURE_META);
		goto out;
	}
	snprintf(key, sizeof(key), "time%u", n - 1);
	s->have_time = meta_u64(s->meta.data, key, &s->time) == 0;
	if (!S_ISDIR(st.st_mode)) {
		e = renameat(src, name, top, to) < 0 ? -errno : 0;
		snprintf(x, sizeof(x), "%s/%s", tmp, work);
		close(src);
		src = -1;
		(void)ds_tree_remove(x);
		goto out;
	}
	memset(&c, 0, sizeof(c));
	c.why = why;
	snprintf(c.path, sizeof(c.path), "%s", name);
	if ((c.buf = malloc(65536)) == NULL) {
		e = -ENOMEM;
		goto out;
	}
	if (mkdirat(top, to, 0700) < 0 || (dst = openat(top, to, O_RDONLY |
	    O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		e = -errno;
	else {
		if ((fd = ds_openat_walk(src, name, O_RDONLY |
		    O_DIRECTORY)) < 0)
			e = fd;
		else {
			e = copy_tree(&c, fd, dst, 0);
			close(fd);
		}
		close(dst);
	}
	free(c.buf);
out:
	if (src >= 0)
		close(src);
	return e;
}

/* The meta of the pair: NEW's identity, both samples' times. */
static int
pair_meta(int top, struct side *o, struct side *n, struct ds_buf *why)
{
	static const char *const keep[] = { "version", "host", "kernel",
	    "boot_id", "uid" };
	struct ds_buf m = { 0 };
	const char *bo, *bn, *v;
	size_t lo, ln, len, i;
	int fd, e;

	bo = meta_get(o->meta.data, "boot_id", &lo);
	bn = meta_get(n->meta.data, "boot_id", &ln);
	if (bo == NULL || bn == NULL) {
		if (why != NULL)
			ds_buf_printf(why, "%s: no boot_id in %s",
			    bo == NULL ? o->path : n->path, DS_CAPTURE_META);
		return -EINVAL;
	}
	if (lo != ln || memcmp(bo, bn, lo) != 0) {
		if (why != NULL)
			ds_buf_printf(why, "%s and %s: captures of different "
			    "boots (boot_id %.*s and %.*s): counters restart "
			    "at boot", o->path, n->path, (int)lo, bo, (int)ln,
			    bn);
		return -EINVAL;
	}
	if (n->uptime <= o->uptime) {
		if (why != NULL)
			ds_buf_printf(why, "%s and %s: the second was not taken "
			    "after the first", o->path, n->path);
		return -EINVAL;
	}
	e = ds_buf_printf(&m, "format 1\n");
	for (i = 0; e >= 0 && i < sizeof(keep) / sizeof(keep[0]); i++)
		if ((v = meta_get(n->meta.data, keep[i], &len)) != NULL)
			e = ds_buf_appendf(&m, "%s %.*s\n", keep[i], (int)len,
			    v);
	if (e >= 0)
		e = ds_buf_appendf(&m, "samples 2\nuptime0 %llu\nuptime1 %llu\n",
		    (unsigned long long)o->uptime,
		    (unsigned long long)n->uptime);
	if (e >= 0 && o->have_time && n->have_time)
		e = ds_buf_appendf(&m, "time0 %llu\ntime1 %llu\n",
		    (unsigned long long)o->time, (unsigned long long)n->time);
	if (e >= 0)
		e = ds_buf_appendf(&m, "window_ns %llu\ntraced 0\ntraced_why "
		    "a pair of captures: nothing traced between them\n",
		    (unsigned long long)(n->uptime - o->uptime));
	if (e < 0)
		goto out;
	if (mkdirat(top, "capture", 0700) < 0 ||
	    (fd = openat(top, DS_CAPTURE_META, O_WRONLY | O_CREAT | O_EXCL |
	    O_NOFOLLOW | O_CLOEXEC, 0600)) < 0) {
		e = -errno;
		goto out;
	}
	e = write(fd, m.data, m.len) == (ssize_t)m.len ? 0 : errno ? -errno :
	    -EIO;
	if (close(fd) < 0 && e == 0)
		e = -errno;
out:
	ds_buf_free(&m);
	return e;
}

static int
pair_open(struct ds_root *r, const char *old, const char *new,
    struct ds_buf *why)
{
	struct side o = { .path = old }, n = { .path = new };
	struct ds_buf inner = { 0 };
	char tmp[sizeof(r->tmp)];
	int top, e;

	if (why != NULL)
		ds_buf_fail(why, 0);
	if ((e = ds_capture_mkdtemp(tmp, sizeof(tmp))) < 0)
		return e;
	if ((top = open(tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) < 0) {
		e = -errno;
		goto out;
	}
	if ((e = pair_take(tmp, top, &o, "0", "old",
	    why != NULL ? &inner : NULL)) < 0 && why != NULL &&
	    inner.len > 0)
		ds_buf_printf(why, "%s: %s", old, inner.data);
	if (e == 0 && (e = pair_take(tmp, top, &n, "1", "new",
	    why != NULL ? &inner : NULL)) < 0 && why != NULL &&
	    inner.len > 0)
		ds_buf_printf(why, "%s: %s", new, inner.data);
	if (e == 0)
		e = pair_meta(top, &o, &n, why);
	close(top);
	if (e == 0 && (e = ds_root_open(r, tmp)) == 0) {
		strcpy(r->tmp, tmp);
		/* Messages name a file of the pair as one of NEW's. */
		snprintf(r->path, sizeof(r->path), "%s", new);
	}
out:
	if (e < 0)
		(void)ds_tree_remove(tmp);
	ds_buf_free(&o.meta);
	ds_buf_free(&n.meta);
	ds_buf_free(&inner);
	return e;
}

int
ds_root_open_pair(struct ds_root *r, const char *old, const char *new)
{
	return pair_open(r, old, new, NULL);
}

int
ds_capture_pair_check(const char *old, const char *new, struct ds_buf *why)
{
	struct ds_root r;
	int e;

	if ((e = pair_open(&r, old, new, why)) == 0)
		ds_root_close(&r);
	return e;
}

/*
 * A capture's meta as the reader trusts it: a hand edit or a cut makes
 * it say what its samples do not.  Keys not named here are free text
 * (host, kernel, traced_why); those named are numbers, given once.
 */
static const char *const meta_nums[] = { "format", "samples", "uptime0",
    "uptime1", "time0", "time1", "window_ns", "tick_ns", "traced", "uid" };

static int
meta_bad(struct ds_buf *why, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
meta_bad(struct ds_buf *why, const char *fmt, ...)
{
	va_list ap;

	if (why != NULL) {
		ds_buf_printf(why, "%s: ", DS_CAPTURE_META);
		va_start(ap, fmt);
		ds_buf_vappendf(why, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

int
ds_capture_meta_check(int top, unsigned int nsamples, struct ds_buf *why)
{
	struct ds_buf b = { 0 };
	uint64_t v[nitems(meta_nums)];
	unsigned int have = 0, line = 0;
	const char *p, *end, *sp, *e;
	size_t i, klen;
	int fd, r;

	if ((fd = ds_openat_walk(top, DS_CAPTURE_META, O_RDONLY |
	    O_NONBLOCK)) < 0)
		return fd;
	r = ds_read_fd(fd, &b);
	close(fd);
	if (r < 0) {
		ds_buf_free(&b);
		return r;
	}
	for (p = b.data; r == 0 && *p != '\0'; p = *end ? end + 1 : end) {
		line++;
		if ((end = strchr(p, '\n')) == NULL)
			end = p + strlen(p);
		sp = memchr(p, ' ', (size_t)(end - p));
		klen = sp != NULL ? (size_t)(sp - p) : (size_t)(end - p);
		for (i = 0; i < nitems(meta_nums); i++)
			if (strlen(meta_nums[i]) == klen &&
			    memcmp(p, meta_nums[i], klen) == 0)
				break;
		if (i == nitems(meta_nums))
			continue;
		if (have & 1u << i)
			r = meta_bad(why, "line %u: %s a second time", line,
			    meta_nums[i]);
		else if (sp == NULL || ds_parse_u64(sp + 1, &e, &v[i]) < 0 ||
		    e != end)
			r = meta_bad(why, "line %u: %s \"%.*s\": not a number",
			    line, meta_nums[i], sp == NULL ? 0 :
			    (int)(end - sp - 1 > 40 ? 40 : end - sp - 1),
			    sp == NULL ? "" : sp + 1);
		have |= 1u << i;
	}
	ds_buf_free(&b);
	if (r < 0)
		return r;
	/* Indexes into meta_nums. */
	enum { FORMAT, SAMPLES, UP0, UP1, WINDOW = 6 };
	if (!(have & 1u << FORMAT))
		return meta_bad(why, "no format line");
	if (v[FORMAT] != 1)
		return meta_bad(why, "format %llu: this version reads format "
		    "1", (unsigned long long)v[FORMAT]);
	if (!(have & 1u << SAMPLES))
		return meta_bad(why, "no samples line");
	if (v[SAMPLES] < 1 || v[SAMPLES] > DS_CAPTURE_SAMPLES)
		return meta_bad(why, "samples %llu: a capture has 1 or %u",
		    (unsigned long long)v[SAMPLES], DS_CAPTURE_SAMPLES);
	if (v[SAMPLES] != nsamples)
		return meta_bad(why, "samples %llu, but the capture has %s",
		    (unsigned long long)v[SAMPLES], nsamples == 1 ?
		    "no sample 1/ (cut short?)" : "a sample 1/ too");
	/* The uptimes may be left out: each sample's proc/uptime says it. */
	if (nsamples == 1 || !(have & 1u << UP0) || !(have & 1u << UP1)) {
		if ((have & 1u << WINDOW) && nsamples == 1 && v[WINDOW] != 0)
			return meta_bad(why, "window_ns %llu in a capture of "
			    "one sample", (unsigned long long)v[WINDOW]);
		return 0;
	}
	if (v[UP1] <= v[UP0])
		return meta_bad(why, "uptime1 not after uptime0");
	if ((have & 1u << WINDOW) && v[WINDOW] > v[UP1] - v[UP0])
		return meta_bad(why, "window_ns %llu: longer than the %llu ns "
		    "between the samples", (unsigned long long)v[WINDOW],
		    (unsigned long long)(v[UP1] - v[UP0]));
	return 0;
}
