/*
 * A sample of pressure for dpsi: the system's files, or those of each
 * cgroup, in a growing array; two samples paired by path, the exact
 * share of the interval from the totals, and -C's ranking.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "diskstat.h"

struct ds_psi_cg *
ds_psi_sample_add(struct ds_psi_sample *s, const char *top, const char *path)
{
	struct ds_psi_cg *c;
	size_t tl = 0;
	char *p = NULL;

	if (path != NULL) {
		/* The path below the mount: the top (-c) and the walk's. */
		if (top != NULL && strcmp(top, "/") != 0)
			tl = strlen(top);
		if ((p = malloc(tl + strlen(path) + 1)) == NULL)
			return NULL;
		if (tl > 0)
			memcpy(p, top, tl);
		strcpy(p + tl, path);
	}
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;

		if ((c = realloc(s->cg, cap * sizeof(*c))) == NULL) {
			free(p);
			return NULL;
		}
		s->cg = c;
		s->cap = cap;
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
}

void
ds_psi_sample_free(struct ds_psi_sample *s)
{
	ds_psi_sample_clear(s);
	free(s->cg);
	s->cg = NULL;
	s->cap = 0;
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

static int
key_cmp(const void *a, const void *b)
{
	const struct ds_psi_cg *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? 1 : -1;
	if (x->path == NULL || y->path == NULL)
		return (x->path != NULL) - (y->path != NULL);
	return strcmp(x->path, y->path);
}

void
ds_psi_sample_rank(const struct ds_psi_sample *prev,
    struct ds_psi_sample *cur, enum ds_psi_res r)
{
	enum ds_psi_kind k;
	size_t i;

	for (i = 0; i < cur->n; i++) {
		struct ds_psi_cg *c = &cur->cg[i];

		c->key = -1;
		k = (c->p[r].have & (1u << DS_PSI_SOME)) ? DS_PSI_SOME :
		    DS_PSI_FULL;
		if (!(c->p[r].have & (1u << k)))
			continue;
		c->key = prev != NULL ? ds_psi_sample_share(prev, cur, c, r, k) :
		    (double)c->p[r].line[k].avg[0];
	}
	/* The prev links stay valid: they point into prev. */
	if (cur->n > 1)
		qsort(cur->cg, cur->n, sizeof(*cur->cg), key_cmp);
}
