/*
 * A sample of pressure: the system's files, or those of one cgroup or
 * of each cgroup below a top, read into a growing array with the
 * problems met on the way; two samples paired by path, and the exact
 * share of the interval from the totals.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

struct ds_psi_cg *
ds_psi_sample_add(struct ds_psi_sample *s, const char *top, const char *path)
{
	struct ds_psi_cg *c;
	size_t tl = 0;
	char *p = NULL;

	if (path != NULL) {
		/* The path below the mount: the top's and the walk's. */
		if (top != NULL && strcmp(top, "/") != 0)
			tl = strlen(top);
		if ((p = malloc(tl + strlen(path) + 1)) == NULL)
			return NULL;
		if (tl > 0)
			memcpy(p, top, tl);
		strcpy(p + tl, path);
	}
	if (ds_grow(&s->cg, &s->cap, s->n + 1, sizeof(*s->cg)) < 0) {
		free(p);
		return NULL;
	}
	c = &s->cg[s->n++];
	memset(c, 0, sizeof(*c));
	c->path = p;
	return c;
}

void
ds_psi_sample_pop(struct ds_psi_sample *s)
{
	if (s->n > 0)
		free(s->cg[--s->n].path);
}

void
ds_psi_sample_clear(struct ds_psi_sample *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->cg[i].path);
	s->n = 0;
	for (i = 0; i < s->nnote; i++)
		free(s->note[i].path);
	s->nnote = 0;
}

void
ds_psi_sample_free(struct ds_psi_sample *s)
{
	ds_psi_sample_clear(s);
	free(s->cg);
	free(s->note);
	s->cg = NULL;
	s->note = NULL;
	s->cap = s->capnote = 0;
}

/* A problem with res's file of path (res -1: a subtree left out). */
static int
note_add(struct ds_psi_sample *s, const char *path, int res, int e,
    const struct ds_psi_bad *bad)
{
	struct ds_psi_note *n;
	char *p = NULL;

	if (path != NULL && (p = strdup(path)) == NULL)
		return -ENOMEM;
	if (ds_grow(&s->note, &s->capnote, s->nnote + 1,
	    sizeof(*s->note)) < 0) {
		free(p);
		return -ENOMEM;
	}
	n = &s->note[s->nnote++];
	n->path = p;
	n->res = res;
	n->e = e;
	if (bad != NULL)
		n->bad = *bad;
	else
		memset(&n->bad, 0, sizeof(n->bad));
	return 0;
}

/*
 * The files of src's resources for c (dirfd -1: the system), noted as
 * they go.  Returns how many were read, or -errno: -EOPNOTSUPP (PSI
 * off: the last note says where), -EMFILE or -ENFILE deep in a walk
 * (the subtree is to be left out), -ENOMEM.  A missing file is normal
 * in a walk (cgroup removed, its accounting off) and for a resource
 * not asked for by name: not noted.
 */
static int
cg_read(const struct ds_psi_src *src, struct ds_psi_sample *s,
    struct ds_psi_cg *c, int dirfd, int walking)
{
	size_t i;
	int e, n = 0;

	for (i = 0; i < src->nres; i++) {
		enum ds_psi_res r = src->order[i];
		struct ds_psi *p = &c->p[r];

		e = ds_psi_read_res(src->r, dirfd, r, src->scratch, p);
		if (e == 0) {
			c->ok |= 1u << r;
			n++;
			if (p->bad.n > 0 && note_add(s, c->path, (int)r, 0,
			    &p->bad) < 0)
				return -ENOMEM;
			continue;
		}
		if ((e == -ENOENT || e == -ENODEV) &&
		    (walking || !src->explicit))
			continue;
		if (walking && (e == -EMFILE || e == -ENFILE))
			return e;
		/* p's bad lines when malformed, none when it was not read. */
		if (note_add(s, c->path, (int)r, e, &p->bad) < 0)
			return -ENOMEM;
		/* 4.20 to 5.5, RHEL 8: files there, PSI off. */
		if (e == -EOPNOTSUPP)
			return e;
	}
	return n;
}

struct walk {
	const struct ds_psi_src *src;
	struct ds_psi_sample *s;
	int err;
};

static int
walk_one(void *arg, int dirfd, const char *path)
{
	struct walk *wk = arg;
	const char *top = wk->src->top;
	struct ds_psi_cg *c;
	char *p;
	int e;

	/* A subtree the walk could not enter: named, the rest read. */
	if (dirfd < 0) {
		if (strcmp(top, "/") != 0 && strcmp(path, "/") == 0)
			path = "";
		if ((p = malloc(strlen(top) + strlen(path) + 1)) == NULL)
			return wk->err = -ENOMEM;
		strcpy(p, strcmp(top, "/") != 0 ? top : "");
		strcat(p, path);
		e = note_add(wk->s, p, -1, dirfd, NULL);
		free(p);
		return e < 0 ? (wk->err = e) : 0;
	}
	/*
	 * Not the top itself: it holds every cgroup below, so it would
	 * always rank first (the root's files are /proc/pressure's).
	 */
	if (strcmp(path, "/") == 0)
		return 0;
	if ((c = ds_psi_sample_add(wk->s, top, path)) == NULL)
		return wk->err = -ENOMEM;
	/* A cgroup whose pressure files are off or gone has no rows. */
	if ((e = cg_read(wk->src, wk->s, c, dirfd, 1)) == -EMFILE ||
	    e == -ENFILE) {
		/* Out of descriptors deep in a walk: the subtree left out. */
		e = note_add(wk->s, c->path, -1, e, 0);
		ds_psi_sample_pop(wk->s);
		return e < 0 ? (wk->err = e) : DS_CGROUP_PRUNE;
	}
	if (e < 0)
		return wk->err = e;
	if (e == 0)
		ds_psi_sample_pop(wk->s);
	return 0;
}

int
ds_psi_cgroup_nofiles(int cgfd)
{
	int fd = openat(cgfd, "cgroup.procs", O_PATH | O_CLOEXEC);

	if (fd < 0)
		return -ENOENT;
	close(fd);
	return -ENODEV;
}

int
ds_psi_sample_read(const struct ds_psi_src *src, struct ds_psi_sample *s)
{
	struct walk wk = { src, s, 0 };
	struct ds_psi_cg *c;
	int e, fd;

	ds_psi_sample_clear(s);
	if (src->all) {
		e = ds_cgroup_walk(src->topfd, walk_one, &wk);
		return wk.err < 0 ? wk.err : e;
	}
	c = ds_psi_sample_add(s, NULL, src->topfd >= 0 ? src->top : NULL);
	if (c == NULL)
		return -ENOMEM;
	if ((e = cg_read(src, s, c, src->topfd, 0)) != 0)
		return e < 0 ? e : 0;
	/* Nothing at all: why? */
	ds_psi_sample_pop(s);
	if (src->topfd >= 0)
		return ds_psi_cgroup_nofiles(src->topfd);
	fd = ds_openat(src->r, "proc/pressure", O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return fd == -ENOENT ? fd : 0;
	close(fd);
	return -ENODATA;
}

int
ds_psi_sample_pair(const struct ds_psi_sample *prev, struct ds_psi_sample *cur)
{
	return ds_psi_pair(prev->cg, prev->n, cur->cg, cur->n, sizeof(*cur->cg),
	    offsetof(struct ds_psi_cg, path), offsetof(struct ds_psi_cg, prev));
}

const struct ds_psi_line *
ds_psi_cg_line(const struct ds_psi_cg *c, enum ds_psi_res r,
    enum ds_psi_kind k)
{
	if (c == NULL || !(c->ok & (1u << r)) || !(c->p[r].have & (1u << k)))
		return NULL;
	return &c->p[r].line[k];
}

double
ds_psi_sample_share(const struct ds_psi_sample *prev,
    const struct ds_psi_sample *cur, const struct ds_psi_cg *c,
    enum ds_psi_res r, enum ds_psi_kind k)
{
	const struct ds_psi_line *a, *b;
	double pct;

	if (prev == NULL || (a = ds_psi_cg_line(c->prev, r, k)) == NULL ||
	    !(c->p[r].have & (1u << k)))
		return -1;
	b = &c->p[r].line[k];
	if (cur->up_ns <= prev->up_ns ||
	    ds_psi_share(a->total, b->total, cur->up_ns - prev->up_ns,
	    &pct) < 0)
		return -1;
	return pct;
}
