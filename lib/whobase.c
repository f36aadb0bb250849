/*
 * What a scan of processes keeps for the next one: a compact base of
 * each entry's counters (varints, about 20 bytes an idle process where
 * a struct ds_proc takes 208), the names its rows show, and the best
 * rows of a report (top-N) in a heap whose memory follows N.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Room for n more bytes. */
static int
reserve(struct ds_whobase *b, size_t n)
{
	unsigned char *d;
	size_t cap;

	if (b->cap - b->len >= n)
		return 0;
	for (cap = b->cap ? b->cap : 4096; cap - b->len < n; cap *= 2)
		if (cap > SIZE_MAX / 2)
			return -ENOMEM;
	if ((d = realloc(b->d, cap)) == NULL)
		return -ENOMEM;
	b->d = d;
	b->cap = cap;
	return 0;
}

/* At most 10 bytes: room reserved by the caller. */
static void
put_v(struct ds_whobase *b, uint64_t v)
{
	for (; v >= 0x80; v >>= 7)
		b->d[b->len++] = (unsigned char)(v | 0x80);
	b->d[b->len++] = (unsigned char)v;
}

static uint64_t
get_v(const struct ds_whobase *b, size_t *off)
{
	uint64_t v = 0;
	unsigned int sh = 0;
	unsigned char c;

	do {
		c = b->d[(*off)++];
		v |= (uint64_t)(c & 0x7f) << sh;
		sh += 7;
	} while (c & 0x80);
	return v;
}

void
ds_whobase_reset(struct ds_whobase *b)
{
	b->len = 0;
	b->uptime_ns = 0;
	b->sorted = 1;
	b->lt = b->lp = 0;
	ds_whobase_rewind(b);
}

void
ds_whobase_rewind(struct ds_whobase *b)
{
	b->off = 0;
	b->have_at = 0;
	b->qt = b->qp = 0;
}

void
ds_whobase_free(struct ds_whobase *b)
{
	free(b->d);
	memset(b, 0, sizeof(*b));
}

/* (t1, p1) before (t2, p2): -1, 0, 1. */
static int
order(int t1, int p1, int t2, int p2)
{
	if (t1 != t2)
		return t1 < t2 ? -1 : 1;
	return (p1 > p2) - (p1 < p2);
}

int
ds_whobase_add(struct ds_whobase *b, const struct ds_proc *p)
{
	int i, e;

	/* Five varints, the io fields, field 42. */
	if ((e = reserve(b, 10 * (6 + DS_IO_NFIELDS))) < 0)
		return e;
	if (b->len > 0 && order(p->tgid, p->pid, b->lt, b->lp) <= 0)
		b->sorted = 0;
	b->lt = p->tgid;
	b->lp = p->pid;
	put_v(b, (uint64_t)(uint32_t)p->tgid);
	put_v(b, (uint64_t)(uint32_t)p->pid);
	put_v(b, p->starttime);
	put_v(b, (uint64_t)p->io.have << 1 | (p->have_blkio != 0));
	put_v(b, (uint64_t)(uint32_t)-p->io_err);
	/* ds_io_parse leaves the fields it did not find 0. */
	for (i = 0; i < DS_IO_NFIELDS; i++)
		if (p->io.have & (1u << i))
			put_v(b, p->io.v[i]);
	if (p->have_blkio)
		put_v(b, p->blkio_ticks);
	return 0;
}

void
ds_whobase_get(const struct ds_whobase *b, size_t *off, struct ds_proc *p)
{
	uint64_t f;
	int i;

	memset(p, 0, sizeof(*p));
	p->tgid = (int)get_v(b, off);
	p->pid = (int)get_v(b, off);
	p->starttime = get_v(b, off);
	f = get_v(b, off);
	p->have_blkio = (int)(f & 1);
	p->io.have = (uint32_t)(f >> 1);
	p->io_err = -(int)get_v(b, off);
	for (i = 0; i < DS_IO_NFIELDS; i++)
		if (p->io.have & (1u << i))
			p->io.v[i] = get_v(b, off);
	if (p->have_blkio)
		p->blkio_ticks = get_v(b, off);
}

/*
 * Lookups come in the order entries were added, so a cursor walks the
 * base once per scan.
 */
const struct ds_proc *
ds_whobase_find(struct ds_whobase *b, int tgid, int pid)
{
	size_t off;
	int c;

	if (!b->sorted) {
		/* A captured tree whose stat files name pids out of order. */
		for (off = 0; off < b->len;) {
			ds_whobase_get(b, &off, &b->at);
			if (b->at.tgid == tgid && b->at.pid == pid)
				return &b->at;
		}
		b->have_at = 0;
		return NULL;
	}
	if (order(tgid, pid, b->qt, b->qp) <= 0) {
		b->off = 0;
		b->have_at = 0;
	}
	b->qt = tgid;
	b->qp = pid;
	for (;;) {
		if (b->have_at &&
		    (c = order(b->at.tgid, b->at.pid, tgid, pid)) >= 0)
			return c == 0 ? &b->at : NULL;
		if (b->off >= b->len)
			return NULL;
		ds_whobase_get(b, &b->off, &b->at);
		b->have_at = 1;
	}
}

void
ds_whonames_reset(struct ds_whonames *n)
{
	n->b.len = 0;
	n->off = 0;
	n->any = 0;
}

void
ds_whonames_free(struct ds_whonames *n)
{
	free(n->b.d);
	memset(n, 0, sizeof(*n));
}

static int
names_same(const struct ds_whonames *n, size_t off, size_t len,
    const char *s, size_t slen)
{
	return n->any && len == slen &&
	    (len == 0 || memcmp(n->b.d + off, s, len) == 0);
}

/* Store len bytes of s (room reserved); their offset. */
static size_t
put_bytes(struct ds_whobase *b, const char *s, size_t len)
{
	size_t off = b->len;

	if (len > 0)		/* s may be NULL: no command line */
		memcpy(b->d + off, s, len);
	b->len += len;
	return off;
}

int
ds_whonames_add(struct ds_whonames *n, const struct ds_proc *p, int cmdline)
{
	size_t clen = p->cmdline != NULL ? p->cmdline_len + 1 : 0;
	unsigned int same = 0;
	int e;

	/* Three varints, the name, the command line. */
	if ((e = reserve(&n->b, 30 + p->comm_len + (cmdline ? clen : 0))) < 0)
		return e;
	if (names_same(n, n->comm, n->comm_len, p->comm, p->comm_len))
		same |= 1;
	if (cmdline && names_same(n, n->cmd, n->cmd_len, p->cmdline, clen))
		same |= 2;
	n->any = 1;
	put_v(&n->b, p->uid);
	put_v(&n->b, (uint64_t)p->comm_len << 2 | same);
	if (!(same & 1)) {
		n->comm = put_bytes(&n->b, p->comm, p->comm_len);
		n->comm_len = p->comm_len;
	}
	if (cmdline && !(same & 2)) {
		put_v(&n->b, clen);
		n->cmd = put_bytes(&n->b, p->cmdline, clen);
		n->cmd_len = clen;
	}
	return 0;
}

void
ds_whonames_get(struct ds_whonames *n, struct ds_proc *p, int cmdline)
{
	const struct ds_whobase *b = &n->b;
	uint64_t f;

	p->uid = (uint32_t)get_v(b, &n->off);
	f = get_v(b, &n->off);
	if (!(f & 1)) {
		n->comm = n->off;
		n->comm_len = (size_t)(f >> 2);
		n->off += n->comm_len;
	}
	if (cmdline && !(f & 2)) {
		n->cmd_len = (size_t)get_v(b, &n->off);
		n->cmd = n->off;
		n->off += n->cmd_len;
	}
	memcpy(p->comm, b->d + n->comm, n->comm_len);
	p->comm[n->comm_len] = '\0';
	p->comm_len = n->comm_len;
	if (cmdline && n->cmd_len > 0) {
		p->cmdline = (char *)(b->d + n->cmd);
		p->cmdline_len = n->cmd_len - 1;
	}
}

/* ---- top-N ---- */

#define AT(t, i) ((unsigned char *)(t)->v + (i) * (t)->size)

void
ds_topn_init(struct ds_topn *t, size_t size, uint64_t top,
    int (*cmp)(const void *, const void *))
{
	memset(t, 0, sizeof(*t));
	t->size = size;
	t->top = top;
	t->cmp = cmp;
}

void
ds_topn_free(struct ds_topn *t)
{
	free(t->v);
	free(t->tmp);
	t->v = t->tmp = NULL;
	t->n = t->cap = 0;
}

/* Exchange elements i and j through the spare element. */
static void
swap(struct ds_topn *t, size_t i, size_t j)
{
	memcpy(t->tmp, AT(t, i), t->size);
	memcpy(AT(t, i), AT(t, j), t->size);
	memcpy(AT(t, j), t->tmp, t->size);
}

/* Does element i sort after j (is it the worse)? */
static int
worse(const struct ds_topn *t, size_t i, size_t j)
{
	return t->cmp(AT(t, i), AT(t, j)) > 0;
}

int
ds_topn_wants(const struct ds_topn *t, const void *elem)
{
	return t->top == 0 || t->n < t->top || t->cmp(elem, t->v) < 0;
}

int
ds_topn_offer(struct ds_topn *t, const void *elem, void *evicted)
{
	size_t i, c, cap;
	void *v;

	if (!ds_topn_wants(t, elem))
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
ds_topn_sort(struct ds_topn *t)
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
