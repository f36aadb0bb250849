/*
 * The first N of the elements offered, in a heap whose memory follows
 * N, and a stable merge sort of its own, so that the order of the rows
 * kept (-s, -t, -n) never depends on qsort(3).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dwho/dwho.h"

#define AT(t, i) ((unsigned char *)(t)->v + (i) * (t)->size)

void
topn_init(struct topn *t, size_t size, uint64_t top,
    int (*cmp)(const void *, const void *))
{
	memset(t, 0, sizeof(*t));
	t->size = size;
	t->top = top;
	t->cmp = cmp;
}

void
topn_free(struct topn *t)
{
	free(t->v);
	free(t->tmp);
	t->v = t->tmp = NULL;
	t->n = t->cap = 0;
}

/* Exchange elements i and j through the spare element. */
static void
swap(struct topn *t, size_t i, size_t j)
{
	memcpy(t->tmp, AT(t, i), t->size);
	memcpy(AT(t, i), AT(t, j), t->size);
	memcpy(AT(t, j), t->tmp, t->size);
}

/* Does element i sort after j (is it the worse)? */
static int
worse(const struct topn *t, size_t i, size_t j)
{
	return t->cmp(AT(t, i), AT(t, j)) > 0;
}

int
topn_wants(const struct topn *t, const void *elem)
{
	return t->top == 0 || t->n < t->top || t->cmp(elem, t->v) < 0;
}

int
topn_offer(struct topn *t, const void *elem, void *evicted)
{
	size_t i, c, cap;
	void *v;

	if (!topn_wants(t, elem))
		return 0;
	if (t->tmp == NULL && (t->tmp = malloc(t->size)) == NULL)
		return -ENOMEM;
	if (t->top > 0 && t->n == t->top) {
		/* Full: the worst (the root) goes. */
		memcpy(evicted, t->v, t->size);
		memcpy(t->v, elem, t->size);
		/* Down while a child is worse. */
		for (i = 0; (c = 2 * i + 1) < t->n; i = c) {
			if (c + 1 < t->n && worse(t, c + 1, c))
				c++;
			if (!worse(t, c, i))
				break;
			swap(t, i, c);
		}
		return 2;
	}
	if (t->n == t->cap) {
		cap = t->cap ? t->cap * 2 : 16;
		if (t->top > 0 && cap > t->top)
			cap = (size_t)t->top;
		if ((v = reallocarray(t->v, cap, t->size)) == NULL)
			return -ENOMEM;
		t->v = v;
		t->cap = cap;
	}
	memcpy(AT(t, t->n), elem, t->size);
	i = t->n++;
	if (t->top == 0)
		return 1;
	/* Up while it is worse than its parent. */
	for (; i > 0 && worse(t, i, (i - 1) / 2); i = (i - 1) / 2)
		swap(t, i, (i - 1) / 2);
	return 1;
}

/*
 * A stable merge sort, so that the order of what is kept depends on cmp
 * alone, never on the C library's qsort (which need not be stable, and
 * may compare an element with a copy of another).  Bottom up, on
 * pointers to the elements (rows are hundreds of bytes), each then copied
 * once into its place in a new array: v moves.
 */
int
topn_sort(struct topn *t)
{
	const unsigned char **a, **b, **src, **dst, **sw;
	unsigned char *sorted;
	size_t w, lo, mid, hi, i, j, k, sz = t->size, n = t->n;

	if (n < 2)
		return 0;
	a = malloc(2 * n * sizeof(*a));
	sorted = malloc(t->cap * sz);
	if (a == NULL || sorted == NULL) {
		free(a);
		free(sorted);
		return -ENOMEM;
	}
	b = a + n;
	for (i = 0; i < n; i++)
		a[i] = AT(t, i);
	src = a;
	dst = b;
	for (w = 1; w < n; w *= 2) {
		for (lo = 0; lo < n; lo += 2 * w) {
			mid = lo + w < n ? lo + w : n;
			hi = lo + 2 * w < n ? lo + 2 * w : n;
			i = lo;
			j = mid;
			/* Ties from the left run: stable. */
			for (k = lo; k < hi; k++)
				dst[k] = i < mid && (j >= hi ||
				    t->cmp(src[i], src[j]) <= 0) ?
				    src[i++] : src[j++];
		}
		sw = src;
		src = dst;
		dst = sw;
	}
	for (i = 0; i < n; i++)
		memcpy(sorted + i * sz, src[i], sz);
	free(t->v);
	t->v = sorted;
	free(a);
	return 0;
}
