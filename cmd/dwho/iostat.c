/*
 * -g from io.stat: the rows of two samples of every cgroup's io.stat, a
 * row per cgroup and device and one for the cgroup's whole-disk sum,
 * with cgroups recreated and devices reset between the samples counted
 * from zero rather than as huge or negative rates; then the rows shown.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dwho/dwho.h"

/* Known devices of this report, looked up once each. */
struct devinfo {
	struct ds_devinfo i;
	int ok;			/* sys/dev/block entry found */
};

static const struct devinfo *
dev_info(const struct ds_root *r, struct devinfo **tab, size_t *n,
    unsigned int maj, unsigned int min)
{
	struct devinfo *d;
	size_t i;

	for (i = 0; i < *n; i++)
		if ((*tab)[i].i.major == maj && (*tab)[i].i.minor == min)
			return &(*tab)[i];
	if ((d = reallocarray(*tab, *n + 1, sizeof(*d))) == NULL)
		return NULL;
	*tab = d;
	d = &d[(*n)++];
	d->ok = ds_blockdev_info(r, maj, min, &d->i) == 0;
	d->i.major = maj;
	d->i.minor = min;
	return d;
}

/*
 * Is row k of a cgroup's rows [first, end) part of its whole-disk sum?
 * Each byte counts once, at the top of its stack: partitions are left
 * out, and so is a disk that another listed device (dm, md) sits on,
 * since I/O through dm-crypt and the like may reach the disk in a
 * worker's cgroup, not this one.  A device whose sysfs entry is gone
 * cannot be placed and is left out.
 */
static int
in_all(const struct cgrow *rows, const struct devinfo *tab, size_t ntab,
    size_t first, size_t end, size_t k)
{
	const struct devinfo *d = NULL, *e;
	size_t i, j, b;

	for (i = 0; i < ntab; i++)
		if (tab[i].i.major == rows[k].major &&
		    tab[i].i.minor == rows[k].minor)
			d = &tab[i];
	if (d == NULL || !d->ok || d->i.partition)
		return 0;
	for (j = first; j < end; j++) {
		if (j == k)
			continue;
		for (e = NULL, i = 0; i < ntab; i++)
			if (tab[i].i.major == rows[j].major &&
			    tab[i].i.minor == rows[j].minor)
				e = &tab[i];
		if (e == NULL || !e->ok)
			continue;
		for (b = 0; b < e->i.nbelow; b++)
			if (strcmp(e->i.below[b], d->i.name) == 0)
				return 0;
	}
	return 1;
}

static struct cgrow *
add(struct cgrow **rows, size_t *n, size_t *cap)
{
	if (ds_grow(rows, cap, *n + 1, sizeof(**rows)) < 0)
		return NULL;
	memset(&(*rows)[*n], 0, sizeof(**rows));
	return &(*rows)[(*n)++];
}

/* Row rw of device d against pd (NULL: none before) over secs. */
static void
dev_row(struct cgrow *rw, const struct ds_iostat_dev *d,
    const struct ds_iostat_dev *pd, int since, double secs)
{
	uint64_t v, pv;
	int x;

	for (x = 0; x < DS_IOS_N; x++) {
		if (!(d->have & (1u << x)))
			continue;
		pv = pd != NULL && (pd->have & (1u << x)) ? pd->v[x] : 0;
		/*
		 * Backwards: a reset (the device removed and added again),
		 * counted from zero.
		 */
		v = since ? d->v[x] : d->v[x] >= pv ? d->v[x] - pv : d->v[x];
		rw->u[x] = d->v[x];
		rw->v[x] = since ? (double)v :
		    secs > 0 ? (double)v / secs /
		    (x == DS_IOS_RBYTES || x == DS_IOS_WBYTES ||
		    x == DS_IOS_DBYTES ? 1024.0 : 1.0) : 0;
		rw->have |= 1u << x;
		if (v > 0)
			rw->active = 1;
	}
}

/* The rows of cgroup c (p: its previous sample, or NULL). */
static int
cg_rows(const struct ds_root *r, const struct ds_cgio *c,
    const struct ds_cgio *p, int since, double secs, struct devinfo **tab,
    size_t *ntab, struct cgrow **rows, size_t *n, size_t *cap)
{
	struct cgrow *all, *rw;
	size_t first = *n, j, k;
	int x;

	if ((all = add(rows, n, cap)) == NULL)
		return -ENOMEM;
	all->cgroup = c->path;
	all->all = 1;
	strcpy(all->device, "all");
	for (j = 0; j < c->st.n; j++) {
		const struct ds_iostat_dev *d = &c->st.d[j], *pd = NULL;
		const struct devinfo *di;

		for (k = 0; p != NULL && k < p->st.n; k++)
			if (p->st.d[k].major == d->major &&
			    p->st.d[k].minor == d->minor) {
				pd = &p->st.d[k];
				break;
			}
		if ((di = dev_info(r, tab, ntab, d->major, d->minor)) == NULL ||
		    (rw = add(rows, n, cap)) == NULL)
			return -ENOMEM;
		rw->cgroup = c->path;
		rw->major = d->major;
		rw->minor = d->minor;
		if (di->ok)
			snprintf(rw->device, sizeof(rw->device), "%s",
			    di->i.name);
		else
			/*
			 * Not in sysfs (vanished, or a tree without it):
			 * MAJ:MIN still tells devices apart.
			 */
			snprintf(rw->device, sizeof(rw->device), "%u:%u",
			    d->major, d->minor);
		dev_row(rw, d, pd, since, secs);
	}
	all = &(*rows)[first];	/* add may have moved it */
	for (k = first + 1; k < *n; k++) {
		rw = &(*rows)[k];
		if (!in_all(*rows, *tab, *ntab, first + 1, *n, k))
			continue;
		for (x = 0; x < DS_IOS_N; x++)
			if (rw->have & (1u << x)) {
				all->u[x] += rw->u[x];
				all->v[x] += rw->v[x];
				all->have |= 1u << x;
			}
		all->active |= rw->active;
	}
	/* Cgroups with no I/O yet: the all row of zeros. */
	if (c->st.n == 0)
		all->have = (1u << DS_IOS_N) - 1;
	return 0;
}

int
cgio_rows(const struct ds_root *r, const struct ds_cgios *prev,
    const struct ds_cgios *cur, struct cgrow **rows, size_t *n,
    size_t *cap)
{
	struct devinfo *tab = NULL;
	size_t ntab = 0, i;
	double secs = 0;
	int e = 0;

	if (prev != NULL)
		secs = (double)(cur->uptime_ns - prev->uptime_ns) / 1e9;
	*n = 0;
	for (i = 0; i < cur->n && e == 0; i++) {
		const struct ds_cgio *c = &cur->c[i], *p = NULL;

		if (!c->have)
			continue;
		if (prev != NULL) {
			p = ds_cgios_find(prev, c->path);
			/* Recreated under the same name: it starts over. */
			if (p != NULL && (p->ino != c->ino || !p->have))
				p = NULL;
		}
		e = cg_rows(r, c, p, prev == NULL, secs, &tab, &ntab, rows, n,
		    cap);
	}
	free(tab);
	return e;
}

static int
cmp_cgrow(const void *a, const void *b)
{
	const struct cgrow *x = a, *y = b;
	int k = x->key, c, hx, hy;

	if (k >= 0) {
		hx = (x->have >> k) & 1;
		hy = (y->have >> k) & 1;
		if (hx != hy)
			return hy - hx;
		if (hx && x->v[k] != y->v[k])
			return x->v[k] < y->v[k] ? 1 : -1;
	}
	if ((c = strcmp(x->cgroup, y->cgroup)) != 0)
		return c;
	if (x->all != y->all)
		return y->all - x->all;		/* "all" first */
	if (x->major != y->major)
		return x->major < y->major ? -1 : 1;
	return (x->minor > y->minor) - (x->minor < y->minor);
}

void
cgio_select(struct cgrow *rows, size_t *n, int all, int key,
    uint64_t top)
{
	size_t i, j;

	for (i = j = 0; i < *n; i++)
		if (all || rows[i].active) {
			rows[j] = rows[i];
			rows[j++].key = key;
		}
	*n = j;
	if (*n > 1)
		qsort(rows, *n, sizeof(*rows), cmp_cgrow);
	if (top > 0 && top < *n)
		*n = (size_t)top;
}
