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

static void
clear(struct ds_cgids *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		free(c->e[i].path);
	c->n = 0;
}

int
ds_cgids_read(const struct ds_root *r, struct ds_cgids *c)
{
	char mnt[4096];
	int e;

	clear(c);
	if ((e = ds_cgroup2_mount(r, mnt, sizeof(mnt))) < 0)
		return e;
	if ((e = ds_cgwalk_mount(r, mnt, one, c)) < 0) {
		clear(c);
		return e;
	}
	if (c->n > 1)
		qsort(c->e, c->n, sizeof(*c->e), cmp_id);
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
