/*
 * cgroup v2 io.stat: the kernel's per-cgroup, per-device I/O totals,
 * read for every cgroup under the v2 mount; then per-cgroup I/O over an
 * interval from two such samples: a row per cgroup and device, and one
 * for the cgroup's whole-disk sum, with cgroups recreated and devices
 * reset between the samples counted from zero rather than as huge or
 * negative rates.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

struct cgwalk {
	struct ds_cgios *out;
	struct ds_buf *b;
};

void
ds_iostat_free(struct ds_iostat *s)
{
	free(s->d);
	memset(s, 0, sizeof(*s));
}

/*
 * "MAJ:MIN rbytes=N wbytes=N rios=N wios=N dbytes=N dios=N" and, with
 * iocost or iolatency, more keys (cost.vrate=..., depth=...) that are
 * ignored.  A line can be "MAJ:MIN " with no keys at all (a device
 * with no I/O yet in this cgroup); the file can be empty.
 */
int
ds_iostat_parse(const char *text, struct ds_iostat *out)
{
	static const char *const key[DS_IOS_N] = {
		"rbytes", "wbytes", "rios", "wios", "dbytes", "dios",
	};
	char line[4096], *f[64], *cur, *eq;
	const char *p = text, *nl;
	struct ds_iostat_dev *d;
	size_t n, i, l;
	uint64_t maj, min, v;
	const char *end;
	int k;

	out->n = 0;
	out->bad = 0;
	for (; *p != '\0'; p = *nl != '\0' ? nl + 1 : nl) {
		nl = strchr(p, '\n');
		if (nl == NULL)
			nl = p + strlen(p);
		l = (size_t)(nl - p);
		if (l == 0)
			continue;
		if (l >= sizeof(line)) {
			out->bad++;
			continue;
		}
		memcpy(line, p, l);
		line[l] = '\0';
		n = ds_split(line, f, sizeof(f) / sizeof(f[0]));
		if (n == 0)
			continue;
		if (ds_parse_u64(f[0], &end, &maj) < 0 || *end != ':' ||
		    ds_parse_u64(end + 1, &end, &min) < 0 || *end != '\0' ||
		    maj > UINT32_MAX || min > UINT32_MAX) {
			out->bad++;
			continue;
		}
		if (out->n == out->cap) {
			size_t cap = out->cap ? out->cap * 2 : 16;
			d = realloc(out->d, cap * sizeof(*d));
			if (d == NULL)
				return -ENOMEM;
			out->d = d;
			out->cap = cap;
		}
		d = &out->d[out->n++];
		memset(d, 0, sizeof(*d));
		d->major = (unsigned int)maj;
		d->minor = (unsigned int)min;
		for (i = 1; i < n && i < sizeof(f) / sizeof(f[0]); i++) {
			cur = f[i];
			if ((eq = strchr(cur, '=')) == NULL)
				continue;
			*eq = '\0';
			for (k = 0; k < DS_IOS_N; k++)
				if (strcmp(cur, key[k]) == 0)
					break;
			if (k == DS_IOS_N || ds_strtou64(eq + 1, &v) < 0)
				continue;
			d->v[k] = v;
			d->have |= 1u << k;
		}
	}
	return 0;
}

static void
skipped_free(struct ds_cgios *cs)
{
	size_t i;

	for (i = 0; i < cs->nskipped; i++)
		free(cs->skipped[i]);
	free(cs->skipped);
	free(cs->skipped_err);
	cs->skipped = NULL;
	cs->skipped_err = NULL;
	cs->nskipped = 0;
}

void
ds_cgios_free(struct ds_cgios *cs)
{
	size_t i;

	for (i = 0; i < cs->n; i++) {
		free(cs->c[i].path);
		ds_iostat_free(&cs->c[i].st);
	}
	free(cs->c);
	skipped_free(cs);
	memset(cs, 0, sizeof(*cs));
}

static int
cmp_cgio(const void *a, const void *b)
{
	return strcmp(((const struct ds_cgio *)a)->path,
	    ((const struct ds_cgio *)b)->path);
}

const struct ds_cgio *
ds_cgios_find(const struct ds_cgios *cs, const char *path)
{
	struct ds_cgio key;

	if (cs->n == 0)
		return NULL;
	key.path = (char *)path;
	return bsearch(&key, cs->c, cs->n, sizeof(*cs->c), cmp_cgio);
}

/* A subtree the walk left out, kept for the caller to name. */
static int
skip_add(struct ds_cgios *out, const char *path, int e)
{
	char **p;
	int *q;

	if ((p = realloc(out->skipped, (out->nskipped + 1) *
	    sizeof(*p))) == NULL)
		return -ENOMEM;
	out->skipped = p;
	if ((q = realloc(out->skipped_err, (out->nskipped + 1) *
	    sizeof(*q))) == NULL)
		return -ENOMEM;
	out->skipped_err = q;
	if ((p[out->nskipped] = strdup(path)) == NULL)
		return -ENOMEM;
	q[out->nskipped++] = e;
	return 0;
}

/* One cgroup of ds_cgroup_walk: its inode and its io.stat. */
static int
one(void *arg, int fd, const char *path)
{
	struct cgwalk *w = arg;
	struct ds_cgios *out = w->out;
	struct ds_cgio *c;
	struct stat sb;
	int sfd, e;

	if (fd < 0)
		return skip_add(out, path, fd);
	if (fstat(fd, &sb) < 0)
		return -errno;
	if (out->n == out->cap) {
		size_t cap = out->cap ? out->cap * 2 : 64;
		c = realloc(out->c, cap * sizeof(*c));
		if (c == NULL)
			return -ENOMEM;
		out->c = c;
		out->cap = cap;
	}
	c = &out->c[out->n];
	memset(c, 0, sizeof(*c));
	c->ino = (uint64_t)sb.st_ino;
	if ((c->path = strdup(path)) == NULL)
		return -ENOMEM;
	out->n++;
	/* cgroupfs has no symlinks; one in a tree leads nowhere we read. */
	sfd = openat(fd, "io.stat", O_RDONLY | O_CLOEXEC | O_NONBLOCK |
	    O_NOFOLLOW);
	if (sfd >= 0) {
		e = ds_read_fd(sfd, w->b);
		close(sfd);
		if (e == 0) {
			if ((e = ds_iostat_parse(w->b->data, &c->st)) < 0)
				return e;
			c->have = 1;
			out->with_iostat++;
			out->bad += c->st.bad;
		}
	}
	return 0;
}

int
ds_cgios_read(const struct ds_root *r, const char *mnt, struct ds_cgios *out)
{
	struct ds_buf b = { 0 };
	struct cgwalk w;
	size_t i;
	int fd, e;

	for (i = 0; i < out->n; i++) {
		free(out->c[i].path);
		ds_iostat_free(&out->c[i].st);
	}
	out->n = 0;
	out->with_iostat = 0;
	out->bad = 0;
	skipped_free(out);
	/* Totals need no clock: a tree without proc/uptime still reads. */
	if (ds_uptime_ns(r, &b, &out->uptime_ns) < 0)
		out->uptime_ns = 0;
	if ((fd = ds_openat(r, mnt, O_RDONLY | O_DIRECTORY)) < 0) {
		e = fd;
		goto done;
	}
	w.out = out;
	w.b = &b;
	e = ds_cgroup_walk(fd, one, &w);
	close(fd);
	/* By full path, for ds_cgios_find's bsearch. */
	if (e == 0 && out->n > 1)
		qsort(out->c, out->n, sizeof(*out->c), cmp_cgio);
done:
	ds_buf_free(&b);
	return e;
}

int
ds_cgroup2_has_io(const struct ds_root *r, const char *mnt,
    struct ds_buf *scratch)
{
	char rel[4200], *f[32], *s;
	size_t n, i;
	int e;

	snprintf(rel, sizeof(rel), "%s/cgroup.controllers", mnt);
	if ((e = ds_read_file(r, rel, scratch)) < 0)
		return e;
	s = scratch->data;
	n = ds_split(s, f, sizeof(f) / sizeof(f[0]));
	for (i = 0; i < n && i < sizeof(f) / sizeof(f[0]); i++) {
		size_t l = strlen(f[i]);
		if (l > 0 && f[i][l - 1] == '\n')
			f[i][--l] = '\0';
		if (strcmp(f[i], "io") == 0)
			return 1;
	}
	return 0;
}

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
in_all(const struct ds_cgrow *rows, const struct devinfo *tab, size_t ntab,
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

static struct ds_cgrow *
add(struct ds_cgrow **rows, size_t *n, size_t *cap)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 64;
		struct ds_cgrow *p = reallocarray(*rows, c, sizeof(*p));

		if (p == NULL)
			return NULL;
		*rows = p;
		*cap = c;
	}
	memset(&(*rows)[*n], 0, sizeof(**rows));
	return &(*rows)[(*n)++];
}

/* Row rw of device d against pd (NULL: none before) over secs. */
static void
dev_row(struct ds_cgrow *rw, const struct ds_iostat_dev *d,
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
    size_t *ntab, struct ds_cgrow **rows, size_t *n, size_t *cap)
{
	struct ds_cgrow *all, *rw;
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
ds_cgio_rows(const struct ds_root *r, const struct ds_cgios *prev,
    const struct ds_cgios *cur, struct ds_cgrow **rows, size_t *n,
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
	const struct ds_cgrow *x = a, *y = b;
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
ds_cgio_select(struct ds_cgrow *rows, size_t *n, int all, int key,
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

int
ds_cgio_source(const struct ds_root *r, char *mnt, size_t size)
{
	struct ds_cgios probe = { 0 };
	struct ds_buf b = { 0 };
	int e, has;

	if ((e = ds_cgroup2_mount(r, mnt, size)) < 0)
		return e;
	has = ds_cgroup2_has_io(r, mnt, &b);
	ds_buf_free(&b);
	if (has < 0 && ds_cgios_read(r, mnt, &probe) == 0 &&
	    probe.with_iostat > 0)
		has = 1;
	ds_cgios_free(&probe);
	return has == 1;
}

/* ---- the columns of the rows (dwho -g) ---- */

static const char *const cg_rate_name[DS_IOS_N] = {
	"rkB/s", "wkB/s", "r/s", "w/s", "dkB/s", "d/s",
};
static const struct ds_col cg_ctr_col[DS_IOS_N] = {
	{ "rbytes", DS_T_U64, DS_P_COUNTER, "cgroup_read_bytes_total",
	    "Bytes read by the cgroup's I/O, per device (io.stat).", 0, 0, 0 },
	{ "wbytes", DS_T_U64, DS_P_COUNTER, "cgroup_write_bytes_total",
	    "Bytes written by the cgroup's I/O, per device (io.stat).", 0, 0, 0 },
	{ "rios", DS_T_U64, DS_P_COUNTER, "cgroup_reads_total",
	    "Read I/Os of the cgroup, per device (io.stat).", 0, 0, 0 },
	{ "wios", DS_T_U64, DS_P_COUNTER, "cgroup_writes_total",
	    "Write I/Os of the cgroup, per device (io.stat).", 0, 0, 0 },
	{ "dbytes", DS_T_U64, DS_P_COUNTER, "cgroup_discard_bytes_total",
	    "Bytes discarded by the cgroup, per device (io.stat).", 0, 0, 0 },
	{ "dios", DS_T_U64, DS_P_COUNTER, "cgroup_discards_total",
	    "Discard I/Os of the cgroup, per device (io.stat).", 0, 0, 0 },
};
static const struct ds_col c_device =
	{ "device", DS_T_STR, DS_P_LABEL, "device", NULL, 0, 0, 0 };
static const struct ds_col c_limit =
	{ "limit", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 };

size_t
ds_cgio_columns(int rates, struct ds_col *cols)
{
	struct ds_col who[DS_WHO_NCOLS];
	int i;

	/* time and cgroup as dwho -g has them from /proc/PID/io. */
	ds_who_columns(DS_WHOCOL_GROUP, who);
	cols[0] = who[0];
	cols[1] = who[1];
	cols[2] = c_device;
	for (i = 0; i < DS_IOS_N; i++) {
		cols[3 + i] = cg_ctr_col[i];
		if (rates) {
			cols[3 + i].name = cg_rate_name[i];
			cols[3 + i].type = DS_T_F2;
			cols[3 + i].prom = DS_P_NONE;
		}
	}
	cols[3 + DS_IOS_N] = c_limit;
	return 4 + DS_IOS_N;
}

void
ds_cgrow_write(struct ds_writer *w, const struct ds_cgrow *rw, int rates,
    const char *limit, uint64_t now)
{
	int x;

	ds_w_time(w, now);
	ds_w_str(w, rw->cgroup);
	ds_w_str(w, rw->device);
	for (x = 0; x < DS_IOS_N; x++)
		if (!(rw->have & (1u << x)))
			ds_w_null(w);
		else if (!rates)
			ds_w_u64(w, rw->u[x]);
		else
			ds_w_f(w, rw->v[x]);
	if (limit != NULL && *limit != '\0')
		ds_w_str(w, limit);
	else
		ds_w_null(w);
	ds_w_row_end(w);
}
