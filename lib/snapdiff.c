/*
 * Pairing the devices of two diskstats samples: each device of the
 * later one with its line in the earlier, in time linear in the number
 * of devices whatever was removed, added or moved between them, and
 * with the earlier sample an array or a snapshot file read along.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

static const struct ds_disk *
find(struct ds_pair *pr, const struct ds_diskstats *s, size_t hint,
    const char *name)
{
	size_t i;

	/*
	 * Devices keep their order between samples: try the same place,
	 * then the one before the last match (an order turned round; for
	 * hint < 2, hint - 2 wraps past any n).
	 */
	if (hint < s->n) {
		pr->compares++;
		if (strcmp(s->disk[hint].name, name) == 0)
			return &s->disk[hint];
	}
	if (hint - 2 < s->n) {
		pr->compares++;
		if (strcmp(s->disk[hint - 2].name, name) == 0)
			return &s->disk[hint - 2];
	}
	for (i = 0; i < s->n; i++) {
		pr->compares++;
		if (strcmp(s->disk[i].name, name) == 0)
			return &s->disk[i];
	}
	return NULL;
}

/*
 * The hint follows the last match, so that one device removed or added
 * does not make every later row a scan.
 */
const struct ds_disk *
ds_pair_find(struct ds_pair *pr, const struct ds_diskstats *prev,
    const struct ds_disk *c, size_t i)
{
	const struct ds_disk *p;

	if (prev == NULL)
		return NULL;
	p = find(pr, prev, i + (size_t)pr->shift, c->name);
	if (p != NULL)
		pr->shift = (p - prev->disk) - (ptrdiff_t)i;
	return p;
}

static uint32_t
name_hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s != '\0')
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

int
ds_names_has(struct ds_names *ns, const char *name, int add)
{
	size_t i, k, len = strlen(name) + 1;
	uint32_t *slot;

	if (2 * (ns->n + 1) > ns->nslot) {
		size_t n = ns->nslot ? ns->nslot * 2 : 256;

		if ((slot = calloc(n, sizeof(*slot))) == NULL)
			return -ENOMEM;
		for (i = 0; i < ns->nslot; i++) {
			if (ns->slot[i] == 0)
				continue;
			k = name_hash(ns->pool + ns->slot[i] - 1) & (n - 1);
			while (slot[k] != 0)
				k = (k + 1) & (n - 1);
			slot[k] = ns->slot[i];
		}
		free(ns->slot);
		ns->slot = slot;
		ns->nslot = n;
	}
	for (k = name_hash(name) & (ns->nslot - 1); ns->slot[k] != 0;
	    k = (k + 1) & (ns->nslot - 1))
		if (strcmp(ns->pool + ns->slot[k] - 1, name) == 0)
			return 1;
	if (!add)
		return 0;
	/* Offsets into the pool are uint32_t. */
	if (len > UINT32_MAX - ns->len || ds_grow(&ns->pool, &ns->cap,
	    ns->len + len < 4096 ? 4096 : ns->len + len, 1) < 0)
		return -ENOMEM;
	memcpy(ns->pool + ns->len, name, len);
	ns->slot[k] = (uint32_t)ns->len + 1;
	ns->len += len;
	ns->n++;
	return 0;
}

void
ds_names_free(struct ds_names *ns)
{
	free(ns->pool);
	free(ns->slot);
	memset(ns, 0, sizeof(*ns));
}

void
ds_older_init(struct ds_older *o, int fd, int64_t start)
{
	o->fd = fd;
	o->start = start;
	o->seekable = start >= 0 && lseek(fd, 0, SEEK_CUR) >= 0;
}

int
ds_older_read(struct ds_older *o, struct ds_pair *pr, const char *name,
    const struct ds_disk **found)
{
	struct ds_disk *d;
	int e;

	*found = NULL;
	while (!o->eof) {
		if (ds_grow(&o->pend.disk, &o->pend.cap, o->pend.n + 1,
		    sizeof(*o->pend.disk)) < 0)
			return -ENOMEM;
		/* Read into the free slot: kept only if it is not c. */
		d = &o->pend.disk[o->pend.n];
		if ((e = ds_diskstats_next(&o->l, d, &o->pend)) < 0)
			return e;
		if (e == 0) {
			o->eof = 1;
			o->have_all = !o->seekable;
			break;
		}
		if (!o->seekable && (e = ds_names_has(&o->all, d->name, 1)) < 0)
			return e;
		if (name != NULL) {
			pr->compares++;
			if (strcmp(d->name, name) == 0) {
				o->next = *d;
				*found = &o->next;
				return 0;
			}
		}
		o->pend.n++;
	}
	return 0;
}

/* Every name of the earlier file, read again from its start. */
static int
older_names(struct ds_older *o)
{
	struct ds_diskstats bad = { 0 };
	struct ds_buf w = { 0 };
	struct ds_lines l;
	struct ds_disk d;
	int e;

	if (lseek(o->fd, o->start, SEEK_SET) != o->start)
		return -errno;
	ds_lines_fd(&l, o->fd, &w);
	/* The header lines are no devices: skipped with the damage. */
	while ((e = ds_diskstats_next(&l, &d, &bad)) > 0)
		if ((e = ds_names_has(&o->all, d.name, 1)) < 0)
			break;
	ds_buf_free(&w);
	if (e < 0)
		return e;
	o->have_all = 1;
	return 0;
}

int
ds_older_find(struct ds_older *o, struct ds_pair *pr, const struct ds_disk *c,
    size_t i, const struct ds_disk **found, int *twice)
{
	const struct ds_disk *p = NULL;
	int e, searched = 0;
	size_t k;

	*found = NULL;
	*twice = 0;
	/*
	 * In pend: where the last match there points, or anywhere while
	 * pend is short.  A long pend (many devices removed) is searched
	 * whole only once the earlier file is read to its end, or every
	 * device after them would cost a scan.
	 */
	if (o->pend.n > 0) {
		k = i + (size_t)pr->shift;
		if (k < o->pend.n && (pr->compares++,
		    strcmp(o->pend.disk[k].name, c->name) == 0))
			p = &o->pend.disk[k];
		else if (o->pend.n <= 64 || o->eof) {
			p = ds_pair_find(pr, &o->pend, c, i);
			searched = 1;
		}
	}
	if (p == NULL) {
		if ((e = ds_older_read(o, pr, c->name, &p)) < 0)
			return e;
		if (p != NULL) {
			*found = p;
			return 0;
		}
	}
	if (p == NULL && !searched && o->pend.n > 64)
		p = ds_pair_find(pr, &o->pend, c, i);
	if (p != NULL) {
		/* Used: an empty name matches no later line again. */
		o->next = *p;
		o->pend.disk[p - o->pend.disk].name[0] = '\0';
		*found = &o->next;
		return 0;
	}
	/*
	 * In neither: new since, or listed again in the later file (its
	 * earlier line used up, or new and already counted from zero).
	 */
	if (!o->have_all && (e = older_names(o)) < 0)
		return e;
	if ((e = ds_names_has(&o->all, c->name, 0)) < 0)
		return e;
	if (e == 0 && (e = ds_names_has(&o->fresh, c->name, 1)) < 0)
		return e;
	*twice = e;
	return 0;
}

void
ds_older_free(struct ds_older *o)
{
	ds_diskstats_free(&o->pend);
	ds_names_free(&o->all);
	ds_names_free(&o->fresh);
}

int
ds_snapfile_open(const char *path, struct ds_lines *l, struct ds_buf *window,
    struct ds_snap *s)
{
	int fd = STDIN_FILENO;

	if (strcmp(path, "-") != 0 &&
	    (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		ds_lines_fd(l, -1, window);
		return -errno;
	}
	ds_lines_fd(l, fd, window);
	/* Closed by ds_lines_close; standard input is left open. */
	l->own = fd != STDIN_FILENO;
	return ds_snap_head(l, s);
}

const char *
ds_snapfile_name(const char *path)
{
	return strcmp(path, "-") == 0 ? "stdin" : path;
}

int
ds_older_open(struct ds_older *o, const char *path, struct ds_buf *window,
    struct ds_snap *s)
{
	int e;

	memset(o, 0, sizeof(*o));
	o->what = ds_snapfile_name(path);
	/* Standard input need not start at its file's beginning. */
	o->start = strcmp(path, "-") == 0 ?
	    lseek(STDIN_FILENO, 0, SEEK_CUR) : 0;
	if ((e = ds_snapfile_open(path, &o->l, window, s)) < 0)
		return e;
	ds_older_init(o, o->l.fd, o->start);
	return 0;
}

void
ds_older_close(struct ds_older *o)
{
	ds_lines_close(&o->l);
	ds_older_free(o);
}

int
ds_older_pair(struct ds_older *o, struct ds_pair *pr, const struct ds_disk *c,
    size_t i, size_t lineno, const struct ds_disk **found)
{
	int e, twice;

	if ((e = ds_older_find(o, pr, c, i, found, &twice)) < 0)
		return e;
	if (!twice)
		return 0;
	if (o->twice++ == 0)
		o->first_twice = lineno;
	return 1;
}

int
ds_snap_interval(const struct ds_snap *a, const struct ds_snap *b,
    uint64_t *ns)
{
	if (b->uptime_ns == a->uptime_ns)
		return -EINVAL;
	/* Uptime went back: a reboot, or the files swapped. */
	if (b->uptime_ns < a->uptime_ns) {
		*ns = b->uptime_ns;
		return 1;
	}
	*ns = b->uptime_ns - a->uptime_ns;
	return 0;
}
