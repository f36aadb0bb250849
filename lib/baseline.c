/*
 * The quiet-time baseline: what each device's latency and queue were in
 * the intervals in which it was lightly queued, from a directory of
 * snapshot files and captures (one history: the timer's one-sample
 * captures and the snapshots cron wrote before).  Files are read
 * through the snapshot reader (ds_snap_head, ds_diskstats_next),
 * captures' samples by ds_histpt_read, paired with ds_disk_delta and
 * measured with ds_xstat_compute, as two snapshot files are compared.
 *
 * Rule: an interval is quiet for reads when aqu-sz <= DS_BASE_QUIET_AQU
 * (1.5: about one request at a time, so await is the service time and
 * not a wait behind others) and at least DS_BASE_MIN_IOS (50) reads
 * completed in it (an await over fewer is noise: one slow request in
 * ten moves it by a tenth); the same for writes.  The quiet-time
 * latency is the median over at least DS_BASE_MIN_QUIET (3) such
 * intervals (the median, so that an odd interval does not move it), and
 * the quiet-time queue is the median aqu-sz of the intervals quiet in
 * either direction.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/* A boot time (wall clock - uptime) that moved by more: another boot. */
#define BOOT_SLACK_NS (60ull * 1000000000ull)
/* A directory of more files than this is not a snapshot store. */
#define FILES_MAX 1000000u

struct sfile {
	char *name;
	uint64_t key;		/* time line, else mtime, ns */
	uint64_t uptime_ns;
	uint64_t time_ns;	/* 0: no time line */
	struct ds_histpt *pt;	/* a capture's sample, read when listed */
};

/* ---- Devices ----------------------------------------------------------- */

/*
 * The place of the device name with identity id (NULL: the first of
 * that name), or where it would go (*found 0).  Records are sorted by
 * name, then identity, so one name's histories are side by side.
 */
static size_t
dev_find(const struct ds_base *b, const char *name, const char *id,
    int *found)
{
	size_t lo = 0, hi = b->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(b->d[mid].name, name);

		if (c == 0 && id != NULL)
			c = strcmp(b->d[mid].id, id);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < b->n && strcmp(b->d[lo].name, name) == 0 &&
	    (id == NULL || strcmp(b->d[lo].id, id) == 0);
	return lo;
}

/* The record of name with identity id ("": unknown), made if new. */
static struct ds_base_dev *
dev_get(struct ds_base *b, const char *name, const char *id)
{
	struct ds_base_dev *d;
	char *copy;
	size_t i;
	int found;

	if (strlen(name) >= DS_DISK_NAME_MAX)
		return NULL;
	i = dev_find(b, name, id, &found);
	if (found)
		return &b->d[i];
	if (ds_grow(&b->d, &b->cap, b->n + 1, sizeof(*b->d)) < 0)
		return NULL;
	if ((copy = strdup(id)) == NULL)
		return NULL;
	memmove(&b->d[i + 1], &b->d[i], (b->n - i) * sizeof(*b->d));
	b->n++;
	d = &b->d[i];
	memset(d, 0, sizeof(*d));
	strcpy(d->name, name);
	d->id = copy;
	return d;
}

static float
clampf(double v)
{
	return v > 3e38 ? 3e38f : (float)v;
}

static uint32_t
cap32(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

/* ds_base_add for the device of identity id. */
static int
add_id(struct ds_base *b, const char *name, const char *id,
    const struct ds_xstat *x, const uint64_t d[DS_NCOUNTERS])
{
	struct ds_base_dev *dev;
	struct ds_base_iv *iv;

	if ((dev = dev_get(b, name, id)) == NULL)
		return strlen(name) >= DS_DISK_NAME_MAX ? -EINVAL : -ENOMEM;
	dev->intervals++;
	if (dev->niv < DS_BASE_KEEP) {
		/* Doubled up to the ring's size, a power of two. */
		if (ds_grow(&dev->iv, &dev->ivcap, dev->niv + 1,
		    sizeof(*dev->iv)) < 0)
			return -ENOMEM;
		iv = &dev->iv[dev->niv++];
	} else {
		/* Full: the oldest goes. */
		iv = &dev->iv[dev->head];
		dev->head = (dev->head + 1) % DS_BASE_KEEP;
	}
	memset(iv, 0, sizeof(*iv));
	iv->aqu = clampf(x->v[DS_X_AQUSZ]);
	iv->r_await = clampf(x->v[DS_X_RAWAIT]);
	iv->w_await = clampf(x->v[DS_X_WAWAIT]);
	iv->iops = clampf(x->v[DS_X_RS] + x->v[DS_X_WS] + x->v[DS_X_DS]);
	iv->kbs = clampf(x->v[DS_X_RKBS] + x->v[DS_X_WKBS]);
	iv->r_ios = cap32(d[DS_RD_IOS]);
	iv->w_ios = cap32(d[DS_WR_IOS]);
	/* Without a queue counter the interval cannot be called quiet. */
	if (!((x->have >> DS_X_AQUSZ) & 1u))
		iv->aqu = 3e38f;
	return 0;
}

int
ds_base_add(struct ds_base *b, const char *name, const struct ds_xstat *x,
    const uint64_t d[DS_NCOUNTERS])
{
	return add_id(b, name, "", x, d);
}

/* ---- Medians and ceilings ---------------------------------------------- */

static int
cmpf(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return (x > y) - (x < y);
}

/* The element at fraction q (0.5 median) of v[0..n-1], sorted in place. */
static double
quantile(float *v, size_t n, double q)
{
	if (n == 0)
		return 0;
	qsort(v, n, sizeof(*v), cmpf);
	if (q == 0.5 && n % 2 == 0)
		return ((double)v[n / 2 - 1] + (double)v[n / 2]) / 2;
	return v[(size_t)(q * (double)(n - 1) + 0.5)];
}

static int
quiet(const struct ds_base_iv *iv, int dir)
{
	return iv->aqu <= DS_BASE_QUIET_AQU &&
	    (dir == 0 ? iv->r_ios : iv->w_ios) >= DS_BASE_MIN_IOS;
}

static void
finish_dev(struct ds_base_dev *d, float *s)
{
	size_t i, n;
	int k;

	for (k = 0; k < 2; k++) {
		for (i = n = 0; i < d->niv; i++)
			if (quiet(&d->iv[i], k))
				s[n++] = k == 0 ? d->iv[i].r_await : d->iv[i].w_await;
		*(k == 0 ? &d->quiet_r : &d->quiet_w) = n;
		*(k == 0 ? &d->r_await : &d->w_await) =
		    n >= DS_BASE_MIN_QUIET ? quantile(s, n, 0.5) : 0;
	}
	for (i = n = 0; i < d->niv; i++)
		if (quiet(&d->iv[i], 0) || quiet(&d->iv[i], 1))
			s[n++] = d->iv[i].aqu;
	d->aqu = quantile(s, n, 0.5);
	for (k = 0; k < 2; k++) {
		for (i = n = 0; i < d->niv; i++)
			if (d->iv[i].iops > 0)
				s[n++] = k == 0 ? d->iv[i].iops : d->iv[i].kbs;
		*(k == 0 ? &d->iops_ceil : &d->kbs_ceil) = quantile(s, n, 0.95);
	}
	/* The queue depths at which the throughput sat at its ceiling. */
	d->ceil_n = 0;
	d->ceil_aqu_min = d->ceil_aqu_max = 0;
	for (i = 0; i < d->niv; i++) {
		const struct ds_base_iv *iv = &d->iv[i];
		double a = iv->aqu;

		if (iv->iops <= 0 || a > 1e30 ||
		    (iv->iops < 0.95 * d->iops_ceil &&
		    iv->kbs < 0.95 * d->kbs_ceil))
			continue;
		if (d->ceil_n == 0 || a < d->ceil_aqu_min)
			d->ceil_aqu_min = a;
		if (d->ceil_n == 0 || a > d->ceil_aqu_max)
			d->ceil_aqu_max = a;
		d->ceil_n++;
	}
}

int
ds_base_finish(struct ds_base *b)
{
	float *s;
	size_t i;

	if ((s = malloc(DS_BASE_KEEP * sizeof(*s))) == NULL)
		return -ENOMEM;
	for (i = 0; i < b->n; i++)
		finish_dev(&b->d[i], s);
	free(s);
	return 0;
}

/*
 * A history recorded without identity ("") exists only when no file
 * gave that name one: it may be any device's.  Otherwise the history
 * is the identity's own; a device whose identity is unknown now takes
 * its name's history only when there is one.
 */
const struct ds_base_dev *
ds_base_find(const struct ds_base *b, const char *name, const char *id)
{
	size_t i;
	int found;

	if (id != NULL && *id != '\0') {
		i = dev_find(b, name, id, &found);
		if (found)
			return &b->d[i];
	}
	i = dev_find(b, name, NULL, &found);
	if (!found)
		return NULL;
	if (b->d[i].id[0] == '\0')
		return &b->d[i];
	if (id != NULL && *id != '\0')
		return NULL;
	/* Unknown now: one identity on record is it; two, neither. */
	if (i + 1 < b->n && strcmp(b->d[i + 1].name, name) == 0)
		return NULL;
	return &b->d[i];
}

void
ds_base_free(struct ds_base *b)
{
	size_t i;

	for (i = 0; i < b->n; i++) {
		free(b->d[i].iv);
		free(b->d[i].id);
	}
	free(b->d);
	memset(b, 0, sizeof(*b));
}

/* ---- Files ------------------------------------------------------------- */

static void
files_free(struct sfile *f, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(f[i].name);
		if (f[i].pt != NULL)
			ds_histpt_free(f[i].pt);
		free(f[i].pt);
	}
	free(f);
}

static int
cmpfile(const void *a, const void *b)
{
	const struct sfile *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->uptime_ns != y->uptime_ns)
		return x->uptime_ns < y->uptime_ns ? -1 : 1;
	return strcmp(x->name, y->name);
}

/*
 * Open name in dir and read its snapshot header into s and its id lines
 * into ids, l left at the diskstats text.  The fd, or -errno (-EINVAL:
 * not a snapshot).
 */
static int
snap_open(int dirfd, const char *name, struct ds_lines *l,
    struct ds_buf *window, struct ds_snap *s, struct ds_devids *ids)
{
	int fd, e;

	fd = openat(dirfd, name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ds_lines_fd(l, fd, window);
	if ((e = ds_snap_head_ids(l, s, ids)) < 0) {
		close(fd);
		return e;
	}
	return fd;
}

/* ---- Identities -------------------------------------------------------- */

/* Per device name, the identities the directory's files record for it. */
struct named {
	char name[DS_DISK_NAME_MAX];
	char *id;		/* the first recorded */
	int many;		/* and another one */
};

struct namedset {
	struct named *e;	/* sorted by name */
	size_t n, cap;
};

static size_t
named_find(const struct namedset *m, const char *name, int *found)
{
	size_t lo = 0, hi = m->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(m->e[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < m->n && strcmp(m->e[lo].name, name) == 0;
	return lo;
}

/* A file records id for name.  0 or -ENOMEM. */
static int
named_add(struct namedset *m, const char *name, const char *id)
{
	struct named *e;
	size_t i;
	int found;

	i = named_find(m, name, &found);
	if (found) {
		if (strcmp(m->e[i].id, id) != 0)
			m->e[i].many = 1;
		return 0;
	}
	if (ds_grow(&m->e, &m->cap, m->n + 1, sizeof(*m->e)) < 0)
		return -ENOMEM;
	memmove(&m->e[i + 1], &m->e[i], (m->n - i) * sizeof(*m->e));
	e = &m->e[i];
	/* Names of an id line are shorter than DS_DISK_NAME_MAX. */
	snprintf(e->name, sizeof(e->name), "%s", name);
	e->many = 0;
	if ((e->id = strdup(id)) == NULL) {
		memmove(&m->e[i], &m->e[i + 1], (m->n - i) * sizeof(*m->e));
		return -ENOMEM;
	}
	m->n++;
	return 0;
}

static void
named_free(struct namedset *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		free(m->e[i].id);
	free(m->e);
	memset(m, 0, sizeof(*m));
}

/*
 * The identity of name in a file: the one it records; else, the file
 * recording none, the one the directory records for that name, or ""
 * when it records none (any device); NULL when it records several
 * (which one the file saw cannot be told).
 */
static const char *
file_id(const struct ds_devids *ids, const struct namedset *m,
    const char *name)
{
	const char *id;
	size_t i;
	int found;

	if ((id = ds_devids_get(ids, name)) != NULL)
		return id;
	i = named_find(m, name, &found);
	if (!found)
		return "";
	return m->e[i].many ? NULL : m->e[i].id;
}

static void
skip(struct ds_base *b, const char *name)
{
	if (b->skipped++ == 0)
		snprintf(b->first_bad, sizeof(b->first_bad), "%s", name);
}

/* What listing the directory gathers besides the files. */
struct listing {
	ds_base_keep keep;
	void *arg;
	struct ds_buf window;
	struct ds_devids ids;	/* one file's */
	struct namedset named;	/* every file's, of the devices kept */
	struct ds_buf why;	/* a damaged capture's */
};

/* The identities of a file recorded, of the devices kept. */
static int
named_ids(struct listing *ls, const struct ds_devids *ids)
{
	size_t i;
	int e;

	for (i = 0; i < ids->n; i++) {
		const char *dev = ids->e[i].name;

		if ((ls->keep == NULL || ls->keep(dev, ls->arg)) &&
		    (e = named_add(&ls->named, dev,
		    ids->pool.data + ids->e[i].off)) < 0)
			return e;
	}
	return 0;
}

/*
 * A capture: each of its samples an entry of f, read now up to its
 * block devices, its identities into ls->named; pairing reads its
 * diskstats again, the archive's first member.  The entries made; 0
 * for a file that is no capture; -EINVAL for a damaged one, counted in
 * b with the first one's reason; -ENOMEM.
 */
static int
list_capture(int fd, const char *name, struct listing *ls, struct ds_base *b,
    struct sfile *f)
{
	struct ds_histpt pt[DS_CAPTURE_SAMPLES];
	int n, i, e = 0;

	if ((n = ds_histpt_read(fd, ls->keep, ls->arg, pt, &ls->why)) < 0) {
		if (n == -ENOMEM)
			return n;
		if (b->damaged++ == 0)
			snprintf(b->damaged_msg, sizeof(b->damaged_msg),
			    "%s: %s", name, ls->why.len > 0 ? ls->why.data :
			    strerror(-n));
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		if (e == 0 && (e = named_ids(ls, &pt[i].ids)) == 0 &&
		    ((f[i].name = strdup(name)) == NULL ||
		    (f[i].pt = malloc(sizeof(*f[i].pt))) == NULL))
			e = -ENOMEM;
		if (e < 0) {
			ds_histpt_free(&pt[i]);
			continue;
		}
		*f[i].pt = pt[i];
		/* Its devices read again when paired: memory stays bounded. */
		ds_histpt_slim(f[i].pt);
		f[i].uptime_ns = pt[i].uptime_ns;
		f[i].key = f[i].time_ns = pt[i].time_ns;
	}
	if (e < 0)
		for (i = 0; i < n; i++) {
			free(f[i].name);
			if (f[i].pt != NULL)
				ds_histpt_free(f[i].pt);
			free(f[i].pt);
			f[i].name = NULL;
			f[i].pt = NULL;
		}
	return e < 0 ? e : n;
}

/*
 * One directory entry: a regular file whose header is a snapshot's, or
 * a capture; the identities it records go into ls->named.  The entries
 * of f made (a capture's samples), or -ENOMEM.
 */
static int
list_one(int dirfd, const char *name, struct listing *ls, struct ds_base *b,
    struct sfile *f)
{
	struct ds_lines l;
	struct ds_snap s;
	struct stat st;
	int fd, e;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    !S_ISREG(st.st_mode))
		return 0;
	memset(f, 0, DS_CAPTURE_SAMPLES * sizeof(*f));
	fd = openat(dirfd, name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		e = list_capture(fd, name, ls, b, f);
		close(fd);
		/* A damaged capture is no snapshot either: counted. */
		if (e != 0)
			return e == -EINVAL ? 0 : e;
	}
	memset(&s, 0, sizeof(s));
	if ((fd = snap_open(dirfd, name, &l, &ls->window, &s,
	    &ls->ids)) < 0) {
		if (fd == -ENOMEM)
			return fd;
		skip(b, name);
		return 0;
	}
	close(fd);
	if ((e = named_ids(ls, &ls->ids)) < 0)
		return e;
	if ((f->name = strdup(name)) == NULL)
		return -ENOMEM;
	f->uptime_ns = s.uptime_ns;
	f->time_ns = s.time_ns;
	f->key = s.time_ns != 0 ? s.time_ns :
	    (uint64_t)st.st_mtim.tv_sec * 1000000000u +
	    (uint64_t)st.st_mtim.tv_nsec;
	return 1;
}

static int
list_files(int dirfd, struct listing *ls, struct ds_base *b,
    struct sfile **out, size_t *nout)
{
	struct sfile *f = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *d;
	int fd, e = 0;

	if ((fd = dup(dirfd)) < 0)
		return -errno;
	if ((d = fdopendir(fd)) == NULL) {
		e = -errno;
		close(fd);
		return e;
	}
	rewinddir(d);
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (n >= FILES_MAX) {
			e = -EFBIG;
			break;
		}
		if (ds_grow(&f, &cap, n + DS_CAPTURE_SAMPLES,
		    sizeof(*f)) < 0) {
			e = -ENOMEM;
			break;
		}
		if ((e = list_one(dirfd, de->d_name, ls, b, &f[n])) < 0)
			break;
		n += (size_t)e;
		e = 0;
	}
	closedir(d);
	if (e < 0) {
		files_free(f, n);
		return e;
	}
	qsort(f, n, sizeof(*f), cmpfile);
	*out = f;
	*nout = n;
	return 0;
}

/* ---- Pairing ----------------------------------------------------------- */

static int
sample_read(int dirfd, const struct sfile *f, ds_base_keep keep, void *arg,
    struct ds_buf *window, struct ds_histpt *s)
{
	struct ds_diskstats *ds = &s->ds;
	struct ds_lines l;
	struct ds_snap sn;
	struct ds_disk dk;
	int fd, e;

	memset(&sn, 0, sizeof(sn));
	ds->n = ds->bad = ds->first_bad = 0;
	if ((fd = snap_open(dirfd, f->name, &l, window, &sn, &s->ids)) < 0)
		return fd;
	s->uptime_ns = sn.uptime_ns;
	s->time_ns = sn.time_ns;
	while ((e = ds_diskstats_next(&l, &dk, ds)) == 1) {
		if (keep != NULL && !keep(dk.name, arg))
			continue;
		if (ds_grow(&ds->disk, &ds->cap, ds->n + 1,
		    sizeof(*ds->disk)) < 0) {
			e = -ENOMEM;
			break;
		}
		ds->disk[ds->n++] = dk;
	}
	close(fd);
	return e;
}

/* Does cur belong to the same boot as prev, later? */
static int
same_series(const struct ds_histpt *prev, const struct ds_histpt *cur)
{
	uint64_t bp, bc;

	if (cur->uptime_ns <= prev->uptime_ns)
		return 0;
	if (prev->time_ns == 0 || cur->time_ns == 0 ||
	    prev->time_ns < prev->uptime_ns || cur->time_ns < cur->uptime_ns)
		return 1;
	bp = prev->time_ns - prev->uptime_ns;
	bc = cur->time_ns - cur->uptime_ns;
	return (bp > bc ? bp - bc : bc - bp) <= BOOT_SLACK_NS;
}

static int
pair(const struct ds_histpt *prev, const struct ds_histpt *cur,
    const struct namedset *named, struct ds_base *b)
{
	uint64_t d[DS_NCOUNTERS], itv = cur->uptime_ns - prev->uptime_ns;
	const struct ds_disk *p;
	const char *ip, *ic;
	struct ds_xstat x;
	uint32_t have;
	size_t i;
	int e;

	b->pairs++;
	for (i = 0; i < cur->ds.n; i++) {
		const struct ds_disk *c = &cur->ds.disk[i];

		/* A device that appeared: its counters start here. */
		if ((p = ds_diskstats_find(&prev->ds, c->name, i)) == NULL)
			continue;
		/* The name was another device's, or may have been. */
		ip = file_id(&prev->ids, named, c->name);
		ic = file_id(&cur->ids, named, c->name);
		if (ip == NULL || ic == NULL || strcmp(ip, ic) != 0) {
			b->id_split++;
			continue;
		}
		if (ds_disk_delta(p, c, d, &have) == DS_DELTA_RESET) {
			struct ds_base_dev *dv = dev_get(b, c->name, ic);

			if (dv == NULL)
				return -ENOMEM;
			dv->resets++;
			continue;
		}
		ds_xstat_compute(d, have, itv, &x);
		if ((e = add_id(b, c->name, ic, &x, d)) < 0 && e != -EINVAL)
			return e;
	}
	return 0;
}

/*
 * A capture's point into c: its devices read again (c->ds, c's own),
 * its identities and clocks the point's as listed (c->ids borrowed).
 */
static int
capture_read(int dirfd, const struct sfile *f, ds_base_keep keep, void *arg,
    struct ds_buf *buf, struct ds_histpt *c)
{
	int fd, e;

	fd = openat(dirfd, f->name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW |
	    O_CLOEXEC);
	if (fd < 0)
		return -errno;
	e = ds_histpt_disks(fd, f->pt->sample, keep, arg, &c->ds, buf);
	close(fd);
	c->ids = f->pt->ids;
	c->uptime_ns = f->pt->uptime_ns;
	c->time_ns = f->pt->time_ns;
	return e;
}

static int
pair_files(int dirfd, const struct sfile *f, size_t n, ds_base_keep keep,
    void *arg, const struct namedset *named, struct ds_base *b)
{
	/* Two of each: a file's, a capture's (its ids not its own). */
	struct ds_histpt s[2], c[2], *prev = NULL, *cur;
	struct ds_buf window = { 0 };
	size_t i;
	int e = 0;

	memset(s, 0, sizeof(s));
	memset(c, 0, sizeof(c));
	for (i = 0; i < n; i++) {
		if (f[i].pt != NULL) {
			cur = prev == &c[0] ? &c[1] : &c[0];
			e = capture_read(dirfd, &f[i], keep, arg, &window, cur);
		} else {
			cur = prev == &s[0] ? &s[1] : &s[0];
			e = sample_read(dirfd, &f[i], keep, arg, &window, cur);
		}
		if (e < 0) {
			if (e == -ENOMEM)
				break;
			/* Changed or gone since it was listed. */
			skip(b, f[i].name);
			e = 0;
			continue;
		}
		b->files++;
		if (b->files == 1)
			b->first_ns = cur->time_ns;
		b->last_ns = cur->time_ns;
		if (prev == NULL || !same_series(prev, cur))
			b->series++;
		else if ((e = pair(prev, cur, named, b)) < 0)
			break;
		prev = cur;
	}
	for (i = 0; i < 2; i++) {
		ds_diskstats_free(&s[i].ds);
		ds_devids_free(&s[i].ids);
		ds_diskstats_free(&c[i].ds);
	}
	ds_buf_free(&window);
	return e;
}

int
ds_base_read_fd(int dirfd, ds_base_keep keep, void *arg, struct ds_base *out)
{
	struct listing ls;
	struct sfile *f = NULL;
	size_t n = 0;
	int e;

	ds_base_free(out);
	memset(&ls, 0, sizeof(ls));
	ls.keep = keep;
	ls.arg = arg;
	e = list_files(dirfd, &ls, out, &f, &n);
	ds_buf_free(&ls.window);
	ds_buf_free(&ls.why);
	ds_devids_free(&ls.ids);
	/* Listing counted the files that are no snapshot; pairing recounts. */
	if (e == 0 && (e = pair_files(dirfd, f, n, keep, arg, &ls.named,
	    out)) == 0)
		e = ds_base_finish(out);
	files_free(f, n);
	named_free(&ls.named);
	return e;
}

int
ds_base_read(const struct ds_root *r, const char *dir, ds_base_keep keep,
    void *arg, struct ds_base *out)
{
	int fd, e;

	if ((fd = ds_openat(r, dir, O_RDONLY | O_DIRECTORY)) < 0) {
		ds_base_free(out);
		return fd;
	}
	e = ds_base_read_fd(fd, keep, arg, out);
	close(fd);
	return e;
}
