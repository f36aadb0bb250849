/*
 * What a scan of processes keeps for the next one: a compact base of
 * each entry's counters (varints, about 20 bytes an idle process where
 * a struct ds_proc takes 208), and the names its rows show.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dwho/dwho.h"

/* Room for n more bytes. */
static int
reserve(struct whobase *b, size_t n)
{
	if (n > SIZE_MAX - b->len)
		return -ENOMEM;
	/* A page at first: most runs never need more. */
	return ds_grow(&b->d, &b->cap, b->len + n < 4096 ? 4096 : b->len + n,
	    1);
}

/* At most 10 bytes: room reserved by the caller. */
static void
put_v(struct whobase *b, uint64_t v)
{
	for (; v >= 0x80; v >>= 7)
		b->d[b->len++] = (unsigned char)(v | 0x80);
	b->d[b->len++] = (unsigned char)v;
}

static uint64_t
get_v(const struct whobase *b, size_t *off)
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
whobase_reset(struct whobase *b)
{
	b->len = 0;
	b->uptime_ns = 0;
	b->sorted = 1;
	b->lt = b->lp = 0;
	whobase_rewind(b);
}

void
whobase_rewind(struct whobase *b)
{
	b->off = 0;
	b->have_at = 0;
	b->qt = b->qp = 0;
}

void
whobase_free(struct whobase *b)
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
whobase_add(struct whobase *b, const struct ds_proc *p)
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
	/* The io fields present: the others are 0, and come back so. */
	for (i = 0; i < DS_IO_NFIELDS; i++)
		if (p->io.have & (1u << i))
			put_v(b, p->io.v[i]);
	if (p->have_blkio)
		put_v(b, p->blkio_ticks);
	return 0;
}

void
whobase_get(const struct whobase *b, size_t *off, struct ds_proc *p)
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
whobase_find(struct whobase *b, int tgid, int pid)
{
	size_t off;
	int c;

	if (!b->sorted) {
		/* A captured tree whose stat files name pids out of order. */
		for (off = 0; off < b->len;) {
			whobase_get(b, &off, &b->at);
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
		whobase_get(b, &b->off, &b->at);
		b->have_at = 1;
	}
}

void
whonames_reset(struct whonames *n)
{
	n->b.len = 0;
	n->off = 0;
	n->any = 0;
}

void
whonames_free(struct whonames *n)
{
	free(n->b.d);
	memset(n, 0, sizeof(*n));
}

static int
names_same(const struct whonames *n, size_t off, size_t len,
    const char *s, size_t slen)
{
	return n->any && len == slen &&
	    (len == 0 || memcmp(n->b.d + off, s, len) == 0);
}

/* Store len bytes of s (room reserved); their offset. */
static size_t
put_bytes(struct whobase *b, const char *s, size_t len)
{
	size_t off = b->len;

	if (len > 0)		/* s may be NULL: no command line */
		memcpy(b->d + off, s, len);
	b->len += len;
	return off;
}

int
whonames_add(struct whonames *n, const struct ds_proc *p, int cmdline)
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
whonames_get(struct whonames *n, struct ds_proc *p, int cmdline)
{
	const struct whobase *b = &n->b;
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
