/*
 * cgroup v2 io.stat: the kernel's per-cgroup, per-device I/O totals,
 * read for every cgroup under the v2 mount, and whether the io
 * controller is on there.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

struct cgwalk {
	struct ds_cgios *out;
	struct ds_buf *b;
};

void
ds_iostat_free(struct ds_iostat *s)
{
	free(s->d);
	memset(s, 0, sizeof(*s));
}

/*
 * "MAJ:MIN rbytes=N wbytes=N rios=N wios=N dbytes=N dios=N" and, with
 * iocost or iolatency, more keys (cost.vrate=..., depth=...) that are
 * ignored.  A line can be "MAJ:MIN " with no keys at all (a device
 * with no I/O yet in this cgroup); the file can be empty.
 */
int
ds_iostat_parse(const char *text, struct ds_iostat *out)
{
	static const char *const key[DS_IOS_N] = {
		"rbytes", "wbytes", "rios", "wios", "dbytes", "dios",
	};
	char line[4096], *f[64], *cur, *eq;
	const char *p = text, *nl;
	struct ds_iostat_dev *d;
	size_t n, i, l;
	uint64_t maj, min, v;
	const char *end;
	int k;

	out->n = 0;
	out->bad = 0;
	for (; *p != '\0'; p = *nl != '\0' ? nl + 1 : nl) {
		nl = strchr(p, '\n');
		if (nl == NULL)
			nl = p + strlen(p);
		l = (size_t)(nl - p);
		if (l == 0)
			continue;
		if (l >= sizeof(line)) {
			out->bad++;
			continue;
		}
		memcpy(line, p, l);
		line[l] = '\0';
		n = ds_split(line, f, nitems(f));
		if (n == 0)
			continue;
		if (ds_parse_u64(f[0], &end, &maj) < 0 || *end != ':' ||
		    ds_parse_u64(end + 1, &end, &min) < 0 || *end != '\0' ||
		    maj > UINT32_MAX || min > UINT32_MAX) {
			out->bad++;
			continue;
		}
		if (ds_grow(&out->d, &out->cap, out->n + 1,
		    sizeof(*out->d)) < 0)
			return -ENOMEM;
		d = &out->d[out->n++];
		memset(d, 0, sizeof(*d));
		d->major = (unsigned int)maj;
		d->minor = (unsigned int)min;
		for (i = 1; i < n && i < nitems(f); i++) {
			cur = f[i];
			if ((eq = strchr(cur, '=')) == NULL)
				continue;
			*eq = '\0';
			for (k = 0; k < DS_IOS_N; k++)
				if (strcmp(cur, key[k]) == 0)
					break;
			if (k == DS_IOS_N || ds_strtou64(eq + 1, &v) < 0)
				continue;
			d->v[k] = v;
			d->have |= 1u << k;
		}
	}
	return 0;
}

static void
skipped_free(struct ds_cgios *cs)
{
	size_t i;

	for (i = 0; i < cs->nskipped; i++)
		free(cs->skipped[i]);
	free(cs->skipped);
	free(cs->skipped_err);
	cs->skipped = NULL;
	cs->skipped_err = NULL;
	cs->nskipped = 0;
}

void
ds_cgios_free(struct ds_cgios *cs)
{
	size_t i;

	for (i = 0; i < cs->n; i++) {
		free(cs->c[i].path);
		ds_iostat_free(&cs->c[i].st);
	}
	free(cs->c);
	skipped_free(cs);
	memset(cs, 0, sizeof(*cs));
}

static int
cmp_cgio(const void *a, const void *b)
{
	return strcmp(((const struct ds_cgio *)a)->path,
	    ((const struct ds_cgio *)b)->path);
}

const struct ds_cgio *
ds_cgios_find(const struct ds_cgios *cs, const char *path)
{
	struct ds_cgio key;

	if (cs->n == 0)
		return NULL;
	key.path = (char *)path;
	return bsearch(&key, cs->c, cs->n, sizeof(*cs->c), cmp_cgio);
}

/* A subtree the walk left out, kept for the caller to name. */
static int
skip_add(struct ds_cgios *out, const char *path, int e)
{
	char **p;
	int *q;

	if ((p = realloc(out->skipped, (out->nskipped + 1) *
	    sizeof(*p))) == NULL)
		return -ENOMEM;
	out->skipped = p;
	if ((q = realloc(out->skipped_err, (out->nskipped + 1) *
	    sizeof(*q))) == NULL)
		return -ENOMEM;
	out->skipped_err = q;
	if ((p[out->nskipped] = strdup(path)) == NULL)
		return -ENOMEM;
	q[out->nskipped++] = e;
	return 0;
}

/* One cgroup of ds_cgroup_walk: its inode and its io.stat. */
static int
one(void *arg, int fd, const char *path)
{
	struct cgwalk *w = arg;
	struct ds_cgios *out = w->out;
	struct ds_cgio *c;
	struct stat sb;
	int sfd, e;

	if (fd < 0)
		return skip_add(out, path, fd);
	if (fstat(fd, &sb) < 0)
		return -errno;
	if (ds_grow(&out->c, &out->cap, out->n + 1, sizeof(*out->c)) < 0)
		return -ENOMEM;
	c = &out->c[out->n];
	memset(c, 0, sizeof(*c));
	c->ino = (uint64_t)sb.st_ino;
	if ((c->path = strdup(path)) == NULL)
		return -ENOMEM;
	out->n++;
	/* cgroupfs has no symlinks; one in a tree leads nowhere we read. */
	sfd = openat(fd, "io.stat", O_RDONLY | O_CLOEXEC | O_NONBLOCK |
	    O_NOFOLLOW);
	if (sfd >= 0) {
		e = ds_read_fd(sfd, w->b);
		close(sfd);
		if (e == 0) {
			if ((e = ds_iostat_parse(w->b->data, &c->st)) < 0)
				return e;
			c->have = 1;
			out->with_iostat++;
			out->bad += c->st.bad;
		}
	}
	return 0;
}

int
ds_cgios_read(const struct ds_root *r, const char *mnt, struct ds_cgios *out)
{
	struct ds_buf b = { 0 };
	struct cgwalk w;
	size_t i;
	int fd, e;

	for (i = 0; i < out->n; i++) {
		free(out->c[i].path);
		ds_iostat_free(&out->c[i].st);
	}
	out->n = 0;
	out->with_iostat = 0;
	out->bad = 0;
	skipped_free(out);
	/* Totals need no clock: a tree without proc/uptime still reads. */
	if (ds_uptime_ns(r, &b, &out->uptime_ns) < 0)
		out->uptime_ns = 0;
	if ((fd = ds_openat(r, mnt, O_RDONLY | O_DIRECTORY)) < 0) {
		e = fd;
		goto done;
	}
	w.out = out;
	w.b = &b;
	e = ds_cgroup_walk(fd, one, &w);
	close(fd);
	/* By full path, for ds_cgios_find's bsearch. */
	if (e == 0 && out->n > 1)
		qsort(out->c, out->n, sizeof(*out->c), cmp_cgio);
done:
	ds_buf_free(&b);
	return e;
}

int
ds_cgroup2_has_io(const struct ds_root *r, const char *mnt,
    struct ds_buf *scratch)
{
	char rel[4200], *f[32], *s;
	size_t n, i;
	int e;

	snprintf(rel, sizeof(rel), "%s/cgroup.controllers", mnt);
	if ((e = ds_read_file(r, rel, scratch)) < 0)
		return e;
	s = scratch->data;
	n = ds_split(s, f, nitems(f));
	for (i = 0; i < n && i < nitems(f); i++) {
		size_t l = strlen(f[i]);
		if (l > 0 && f[i][l - 1] == '\n')
			f[i][--l] = '\0';
		if (strcmp(f[i], "io") == 0)
			return 1;
	}
	return 0;
}
