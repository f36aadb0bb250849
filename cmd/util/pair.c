/*
 * TEMPORARY (issue 31, part C): ds_root_open_pair for capture
 * DIRECTORIES, until part A's lands in lib/.  The lead drops this file
 * and its declaration in util.h then.  It copies OLD's last sample and
 * NEW's last sample into a private directory as samples 0/ and 1/ of a
 * new capture, with a meta of their times, and opens that.
 */
#include <dirent.h>
#include <limits.h>
#include <sys/stat.h>

#include "util.h"

static int
copy_tree(int from, int to)
{
	struct dirent *de;
	struct stat st;
	char buf[65536], link[PATH_MAX];
	ssize_t n;
	DIR *d;
	int fd, src, dst, sub, e = 0;

	if ((fd = openat(from, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -errno;
	if ((d = fdopendir(fd)) == NULL) {
		close(fd);
		return -errno;
	}
	while (e == 0 && (de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (fstatat(from, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (S_ISLNK(st.st_mode)) {
			n = readlinkat(from, de->d_name, link, sizeof(link) - 1);
			if (n < 0)
				continue;
			link[n] = '\0';
			if (symlinkat(link, to, de->d_name) < 0)
				e = -errno;
		} else if (S_ISDIR(st.st_mode)) {
			if (mkdirat(to, de->d_name, 0700) < 0) {
				e = -errno;
				break;
			}
			src = openat(from, de->d_name, O_PATH | O_DIRECTORY |
			    O_NOFOLLOW | O_CLOEXEC);
			sub = openat(to, de->d_name, O_PATH | O_DIRECTORY |
			    O_NOFOLLOW | O_CLOEXEC);
			if (src >= 0 && sub >= 0)
				e = copy_tree(src, sub);
			else
				e = -errno;
			if (src >= 0)
				close(src);
			if (sub >= 0)
				close(sub);
		} else if (S_ISREG(st.st_mode)) {
			src = openat(from, de->d_name, O_RDONLY | O_NOFOLLOW |
			    O_NONBLOCK | O_CLOEXEC);
			if (src < 0)
				continue;
			dst = openat(to, de->d_name, O_WRONLY | O_CREAT |
			    O_EXCL | O_CLOEXEC, 0600);
			if (dst < 0)
				e = -errno;
			while (e == 0 && (n = read(src, buf, sizeof(buf))) > 0)
				if (write(dst, buf, (size_t)n) != n)
					e = -EIO;
			if (dst >= 0)
				close(dst);
			close(src);
		}
	}
	closedir(d);
	return e;
}

/* The capture at path's last sample: its times, copied to at/name. */
static int
last_sample(const char *path, int at, const char *name, uint64_t *up,
    uint64_t *tm)
{
	struct ds_buf scratch = { 0 };
	struct ds_root r;
	char key[16];
	int e, to;

	if ((e = ds_root_open(&r, path)) < 0)
		return e;
	if (r.nsamples == 0) {
		ds_root_close(&r);
		return -EINVAL;
	}
	while ((e = ds_root_next(&r)) == 0)
		;
	snprintf(key, sizeof(key), "uptime%u", r.sample);
	if ((e = ds_capture_u64(&r, key, &scratch, up)) == 0) {
		snprintf(key, sizeof(key), "time%u", r.sample);
		e = ds_capture_u64(&r, key, &scratch, tm);
	}
	ds_buf_free(&scratch);
	if (e == 0 && mkdirat(at, name, 0700) < 0)
		e = -errno;
	if (e == 0) {
		to = openat(at, name, O_PATH | O_DIRECTORY | O_CLOEXEC);
		e = to < 0 ? -errno : copy_tree(r.fd, to);
		if (to >= 0)
			close(to);
	}
	ds_root_close(&r);
	return e;
}

int
ds_root_open_pair(struct ds_root *r, const char *old, const char *new)
{
	const char *tmpdir = getenv("TMPDIR");
	char tmp[sizeof(r->tmp)];
	uint64_t up0 = 0, up1 = 0, t0 = 0, t1 = 0;
	FILE *fp;
	int at = -1, e;

	if (tmpdir == NULL || *tmpdir == '\0')
		tmpdir = "/tmp";
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s/dspair.XXXXXX", tmpdir) >=
	    sizeof(tmp))
		return -ENAMETOOLONG;
	if (mkdtemp(tmp) == NULL)
		return -errno;
	if ((at = open(tmp, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0 ||
	    mkdirat(at, "capture", 0700) < 0) {
		e = -errno;
		goto fail;
	}
	if ((e = last_sample(old, at, "0", &up0, &t0)) < 0 ||
	    (e = last_sample(new, at, "1", &up1, &t1)) < 0)
		goto fail;
	if (up1 <= up0) {
		e = -ERANGE;	/* NEW not after OLD (or another boot) */
		goto fail;
	}
	{
		char meta[sizeof(tmp) + 32];

		snprintf(meta, sizeof(meta), "%s/%s", tmp, DS_CAPTURE_META);
		if ((fp = fopen(meta, "w")) == NULL) {
			e = -errno;
			goto fail;
		}
	}
	fprintf(fp, "format 1\nsamples 2\nuptime0 %llu\nuptime1 %llu\n"
	    "time0 %llu\ntime1 %llu\nwindow_ns %llu\n",
	    (unsigned long long)up0, (unsigned long long)up1,
	    (unsigned long long)t0, (unsigned long long)t1,
	    (unsigned long long)(up1 - up0));
	if (fclose(fp) == EOF) {
		e = -EIO;
		goto fail;
	}
	close(at);
	if ((e = ds_root_open(r, tmp)) < 0) {
		(void)ds_tree_remove(tmp);
		return e;
	}
	strcpy(r->tmp, tmp);	/* removed by ds_root_close */
	snprintf(r->path, sizeof(r->path), "%s", new);
	return 0;
fail:
	if (at >= 0)
		close(at);
	(void)ds_tree_remove(tmp);
	return e;
}
