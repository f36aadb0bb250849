/*
 * Cgroup v2 ids named: the id the kernel gives a BPF program
 * (bpf_get_current_cgroup_id) is the inode number of the cgroup's
 * directory in cgroupfs, so a walk of the hierarchy and an fstat of each
 * directory pair them.  Kept sorted by id.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"

static int
cmp_id(const void *x, const void *y)
{
	const struct ds_cgid *a = x, *b = y;

	return (a->id > b->id) - (a->id < b->id);
}

static int
one(void *arg, int dirfd, const char *path)
{
	struct ds_cgids *c = arg;
	struct ds_cgid *e;
	struct stat st;
	char *p;

	/* A subtree that could not be walked: its cgroups stay unnamed. */
	if (dirfd < 0 || fstat(dirfd, &st) < 0)
		return 0;
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 64;

		if ((e = realloc(c->e, cap * sizeof(*e))) == NULL)
			return -ENOMEM;
		c->e = e;
		c->cap = cap;
	}
	if ((p = strdup(path)) == NULL)
		return -ENOMEM;
	c->e[c->n].id = (uint64_t)st.st_ino;
	c->e[c->n++].path = p;
	return 0;
}

/* A cgroup gone, its entry (and path) moved into w: 0, or -ENOMEM. */
static int
one_gone(struct ds_cgids *w, const struct ds_cgid *g)
{
	struct ds_cgid *e;

	if (w->n == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 64;

		if ((e = realloc(w->e, cap * sizeof(*e))) == NULL)
			return -ENOMEM;
		w->e = e;
		w->cap = cap;
	}
	w->e[w->n++] = *g;
	return 0;
}

static void
clear(struct ds_cgids *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		free(c->e[i].path);
	c->n = 0;
}

/*
 * The cgroups of a walk, then those of the last reads that are gone
 * (up to DS_CGIDS_GONE): a cgroup removed before its figures are
 * written keeps its name (an id is never given twice while the system
 * runs).
 */
int
ds_cgids_read(const struct ds_root *r, struct ds_cgids *c)
{
	struct ds_cgids w = { 0 };
	char mnt[4096];
	size_t i, gone = 0;
	int e;

	if ((e = ds_cgroup2_mount(r, mnt, sizeof(mnt))) < 0)
		return e;
	if ((e = ds_cgwalk_mount(r, mnt, one, &w)) < 0) {
		ds_cgids_free(&w);
		return e;
	}
	if (w.n > 1)
		qsort(w.e, w.n, sizeof(*w.e), cmp_id);
	for (i = 0; i < c->n; i++) {
		if (gone < DS_CGIDS_GONE && ds_cgids_find(&w, c->e[i].id) == NULL &&
		    one_gone(&w, &c->e[i]) == 0) {
			gone++;
			continue;
		}
		free(c->e[i].path);
	}
	free(c->e);
	if (gone > 0)
		qsort(w.e, w.n, sizeof(*w.e), cmp_id);
	*c = w;
	return 0;
}

const char *
ds_cgids_find(const struct ds_cgids *c, uint64_t id)
{
	struct ds_cgid k = { id, NULL };
	const struct ds_cgid *f;

	if (c->n == 0)
		return NULL;
	f = bsearch(&k, c->e, c->n, sizeof(*c->e), cmp_id);
	return f != NULL ? f->path : NULL;
}

void
ds_cgids_free(struct ds_cgids *c)
{
	clear(c);
	free(c->e);
	memset(c, 0, sizeof(*c));
}
