/*
 * A capture as history: each sample's diskstats, uptime, wall clock
 * and disks' identities, read from the archive in place.  A week of
 * 5-minute captures is thousands of archives of mostly per-process
 * files; dcapture writes a sample's diskstats, uptime and block devices
 * before its processes, so of each archive only the headers up to
 * there are read and the data of the members not wanted passed over.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

#define BLOCK 512
/* Links followed to reach one attribute, as the kernel's limit. */
#define HOPS_MAX 40
/*
 * Links and identity attributes of one sample's sys/: a thousand disks
 * have some ten thousand.  A hostile archive may hold a million.
 */
#define ENTS_MAX 65536u

/* A link or an identity attribute of the sample's sys/, by its path. */
struct ent {
	size_t path, val, len;	/* offsets in pool; len: val's bytes */
	const char *p;		/* the path, once the pool is whole */
	int link;
};

struct scan {
	struct ds_buf pool;
	struct ent *e;
	size_t n, cap;
	struct ds_buf ds, up;	/* proc/diskstats, proc/uptime */
	int have_ds, have_up;
	int in_block;		/* sys/block seen: the block devices' part */
};

/* ---- The sample's sys/, links and all ----------------------------------- */

static int
cmpent(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;

	return strcmp(x->p, y->p);
}

static const struct ent *
find(const struct scan *s, const char *path)
{
	struct ent key;

	key.p = path;
	return s->n > 0 ? bsearch(&key, s->e, s->n, sizeof(*s->e), cmpent) :
	    NULL;
}

/*
 * The attribute at rel with the sample's links followed as the library
 * follows a tree's (RESOLVE_IN_ROOT: ".." stops at the sample's top, an
 * absolute target starts there): its entry, or NULL.
 */
static const struct ent *
resolve(const struct scan *s, const char *rel)
{
	char path[1024], pre[1024], next[2200];
	const struct ent *e;
	const char *p, *t;
	size_t n, len, hops = 0;

	if (strlen(rel) >= sizeof(path))
		return NULL;
	strcpy(path, rel);
again:
	len = 0;
	pre[0] = '\0';
	for (p = path; (n = ds_path_comp(&p)) > 0; p += n) {
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			while (len > 0 && pre[len - 1] != '/')
				len--;
			len -= len > 0;
			pre[len] = '\0';
			continue;
		}
		if (len + 1 + n >= sizeof(pre))
			return NULL;
		if (len > 0)
			pre[len++] = '/';
		memcpy(pre + len, p, n);
		len += n;
		pre[len] = '\0';
		if ((e = find(s, pre)) == NULL || !e->link)
			continue;
		if (++hops > HOPS_MAX)
			return NULL;
		t = s->pool.data + e->val;
		/* The target from the link's directory, then what is left. */
		while (len > 0 && pre[len - 1] != '/')
			len--;
		pre[len] = '\0';
		if ((size_t)snprintf(next, sizeof(next), "%s/%s/%s",
		    *t == '/' ? "" : pre, t, p + n) >= sizeof(path))
			return NULL;
		strcpy(path, next);
		goto again;
	}
	return (e = find(s, pre)) != NULL && !e->link ? e : NULL;
}

/* ds_devid_read's reader over the sample's entries. */
static long
attr(void *arg, const char *rel, char *buf)
{
	const struct scan *s = arg;
	const struct ent *e = resolve(s, rel);

	if (e == NULL || e->len > DS_ATTR_MAX)
		return 0;
	memcpy(buf, s->pool.data + e->val, e->len);
	return (long)e->len;
}

/* ---- Members ------------------------------------------------------------ */

/* path and val (len bytes) kept in the pool. */
static int
keep_ent(struct scan *s, const char *path, const char *val, size_t len,
    int link, struct ds_buf *why)
{
	size_t pl = strlen(path) + 1;
	struct ent *e;

	if (s->n >= ENTS_MAX)
		return ds_buf_printf(why, "more than %u links and identity "
		    "attributes in a sample's sys/", ENTS_MAX) < 0 ? -ENOMEM :
		    -EINVAL;
	if (ds_grow(&s->e, &s->cap, s->n + 1, sizeof(*s->e)) < 0 ||
	    ds_buf_reserve(&s->pool, pl + len + 1) < 0)
		return -ENOMEM;
	e = &s->e[s->n++];
	e->path = s->pool.len;
	memcpy(s->pool.data + s->pool.len, path, pl);
	s->pool.len += pl;
	e->val = s->pool.len;
	memcpy(s->pool.data + s->pool.len, val, len);
	s->pool.len += len;
	s->pool.data[s->pool.len++] = '\0';
	e->len = len;
	e->link = link;
	return 0;
}

/* An attribute ds_devid_read may read: by the name it ends in. */
static int
id_attr(const char *rel)
{
	static const char *const last[] = { "uuid", "name", "wwid", "serial" };
	const char *b = strrchr(rel, '/');
	size_t i;

	b = b != NULL ? b + 1 : rel;
	for (i = 0; i < nitems(last); i++)
		if (strcmp(b, last[i]) == 0)
			return 1;
	return 0;
}

/*
 * One member of the sample (rel below it): kept when wanted.  1 when
 * the sample holds what history needs and its block devices are past.
 */
static int
member(struct scan *s, struct ds_tar *t, const struct ds_tar_member *m,
    const char *rel, struct ds_buf *tmp, struct ds_buf *why)
{
	struct ds_buf *b;
	int sys = strncmp(rel, "sys/", 4) == 0, e;

	/* dcapture writes the cgroups (sys/fs/cgroup) after the devices. */
	if (s->in_block && (!sys || strncmp(rel, "sys/fs/cgroup/", 14) == 0))
		return s->have_ds && s->have_up;
	if (strcmp(rel, "proc/diskstats") == 0 ||
	    strcmp(rel, "proc/uptime") == 0) {
		b = rel[5] == 'd' ? &s->ds : &s->up;
		if (m->type != '0' || (b == &s->ds ? s->have_ds : s->have_up))
			return ds_buf_printf(why, "%s: a second member of "
			    "this name, or not a file", m->path) < 0 ?
			    -ENOMEM : -EINVAL;
		if ((e = ds_tar_data(t, b)) < 0)
			return e;
		*(b == &s->ds ? &s->have_ds : &s->have_up) = 1;
		return 0;
	}
	if (!sys)
		return 0;
	if (strncmp(rel, "sys/block/", 10) == 0)
		s->in_block = 1;
	if (m->type == '2')
		return keep_ent(s, rel, m->link, strlen(m->link), 1, why);
	if (m->type != '0' || m->size > DS_ATTR_MAX || !id_attr(rel))
		return 0;
	if ((e = ds_tar_data(t, tmp)) < 0)
		return e;
	return keep_ent(s, rel, tmp->data, tmp->len, 0, why);
}

/* ---- Points ------------------------------------------------------------- */

void
ds_histpt_free(struct ds_histpt *pt)
{
	ds_diskstats_free(&pt->ds);
	ds_devids_free(&pt->ids);
	memset(pt, 0, sizeof(*pt));
}

/* The devices keep keeps of a diskstats text (changed) appended to ds. */
static int
disks(char *text, ds_base_keep keep, void *arg, struct ds_diskstats *ds)
{
	struct ds_disk dk;
	char *line;

	while ((line = ds_next_line(&text)) != NULL) {
		/* Malformed lines are passed over, as a snapshot's are. */
		if (ds_disk_parse_line(line, &dk) < 0 ||
		    (keep != NULL && !keep(dk.name, arg)))
			continue;
		if (ds_grow(&ds->disk, &ds->cap, ds->n + 1,
		    sizeof(*ds->disk)) < 0)
			return -ENOMEM;
		ds->disk[ds->n++] = dk;
	}
	return 0;
}

/* The sample n read by s made the history point pt. */
static int
point(struct scan *s, unsigned int n, ds_base_keep keep, void *arg,
    struct ds_histpt *pt, struct ds_buf *why)
{
	char id[DS_DEVID_MAX];
	size_t i;
	int e;

	pt->sample = n;
	if (ds_uptime_parse(s->up.data, &pt->uptime_ns) < 0)
		return ds_buf_printf(why, "proc/uptime: not seconds") < 0 ?
		    -ENOMEM : -EINVAL;
	for (i = 0; i < s->n; i++)
		s->e[i].p = s->pool.data + s->e[i].path;
	if (s->n > 0)
		qsort(s->e, s->n, sizeof(*s->e), cmpent);
	for (i = 1; i < s->n; i++)
		if (cmpent(&s->e[i - 1], &s->e[i]) == 0)
			return ds_buf_printf(why, "%s: a second member of "
			    "this name", s->pool.data + s->e[i].path) < 0 ?
			    -ENOMEM : -EINVAL;
	if ((e = disks(s->ds.data, keep, arg, &pt->ds)) < 0)
		return e;
	for (i = 0; i < pt->ds.n; i++) {
		const char *name = pt->ds.disk[i].name;

		/* An identity it cannot read is unknown, as live. */
		if (ds_devid_name_ok(name, strlen(name)) &&
		    ds_devid_read_by(attr, s, name, id) == 0 &&
		    id[0] != '\0' &&
		    (e = ds_devids_add(&pt->ids, name, id, strlen(id))) < 0)
			return e;
	}
	if (ds_devids_sort(&pt->ids) < 0)
		return ds_buf_printf(why, "proc/diskstats: a disk named "
		    "twice") < 0 ? -ENOMEM : -EINVAL;
	return 0;
}

static void
scan_reset(struct scan *s)
{
	s->pool.len = 0;
	s->n = 0;
	s->have_ds = s->have_up = s->in_block = 0;
}

static void
scan_free(struct scan *s)
{
	ds_buf_free(&s->pool);
	ds_buf_free(&s->ds);
	ds_buf_free(&s->up);
	free(s->e);
}

/*
 * capture/meta, when it ends the archive as dcapture writes it (the
 * last member before the two zero blocks): into meta, or empty.  Read
 * through the archive reader from where its header would be, so that
 * how many samples there are is known before the first is passed.
 */
static void
tail_meta(int fd, uint64_t size, struct ds_buf *meta)
{
	struct ds_tar_member m;
	struct ds_tar *t;
	uint64_t k;
	int ok;

	meta->len = 0;
	for (k = 1; k <= 2 && size >= (k + 3) * BLOCK; k++) {
		if (lseek(fd, (off_t)(size - (k + 3) * BLOCK), SEEK_SET) < 0 ||
		    ds_tar_open(fd, NULL, &t) < 0)
			break;
		ok = ds_tar_next(t, &m) == 1 && m.type == '0' &&
		    strcmp(m.path, DS_CAPTURE_META) == 0 &&
		    (m.size + BLOCK - 1) / BLOCK == k &&
		    ds_tar_data(t, meta) == 0 && ds_tar_next(t, &m) == 0;
		ds_tar_close(t);
		if (ok)
			break;
		meta->len = 0;
	}
	if (meta->data != NULL && meta->len == 0)
		meta->data[0] = '\0';
	(void)lseek(fd, 0, SEEK_SET);
}

/*
 * Is the file a capture: a ustar header whose member is in capture/ or
 * a sample, "./" before it or not?  Only a peek: the reader checks all.
 */
static int
is_capture(int fd)
{
	unsigned char h[BLOCK];
	const char *n = (const char *)h;

	if (pread(fd, h, BLOCK, 0) != BLOCK ||
	    memcmp(h + 257, "ustar", 5) != 0)
		return 0;
	while (n[0] == '.' && n[1] == '/')
		n += 2;
	return strncmp(n, "capture", 7) == 0 ? n[7] == '/' || n[7] == '\0' :
	    n[0] >= '0' && n[0] <= '9' && (n[1] == '/' || n[1] == '\0');
}

/* Sample n's wall clock: meta's when it is this sample's, else dated. */
static uint64_t
when(const struct ds_buf *meta, unsigned int n, uint64_t up, uint64_t up0,
    uint64_t mtime)
{
	char key[32];
	uint64_t v, t;

	snprintf(key, sizeof(key), "uptime%u", n);
	if (meta->len > 0 && ds_meta_u64(meta->data, key, &v) == 0 &&
	    v == up) {
		snprintf(key, sizeof(key), "time%u", n);
		if (ds_meta_u64(meta->data, key, &t) == 0)
			return t;
	}
	/* The archive's date (its start, to the second), on by uptime. */
	return mtime * 1000000000u + (up >= up0 ? up - up0 : 0);
}

int
ds_histpt_read(int fd, ds_base_keep keep, void *arg,
    struct ds_histpt pt[DS_CAPTURE_SAMPLES], struct ds_buf *why)
{
	struct ds_buf meta = { 0 }, tmp = { 0 };
	struct scan s;
	struct ds_tar_member m;
	struct ds_tar *t = NULL;
	uint64_t want = DS_CAPTURE_SAMPLES, mtime = 0, v;
	unsigned int cur = 0, got = 0, n;
	off_t size;
	int e, done = 0, need_meta;

	ds_buf_fail(why, 0);
	memset(&s, 0, sizeof(s));
	memset(pt, 0, DS_CAPTURE_SAMPLES * sizeof(*pt));
	if (!is_capture(fd))
		return 0;
	if ((size = lseek(fd, 0, SEEK_END)) < 0)
		return -errno;
	tail_meta(fd, (uint64_t)size, &meta);
	if (meta.len > 0 && ds_meta_u64(meta.data, "samples", &v) == 0 &&
	    v >= 1 && v <= DS_CAPTURE_SAMPLES)
		want = v;
	if ((e = ds_tar_open(fd, why, &t)) < 0)
		goto out;
	/* Not at the end (another writer's archive): met on the way. */
	need_meta = meta.len == 0;
	while ((e = ds_tar_next(t, &m)) == 1) {
		if (mtime == 0)
			mtime = m.mtime;
		if (need_meta && m.type == '0' &&
		    strcmp(m.path, DS_CAPTURE_META) == 0) {
			if ((e = ds_tar_data(t, &meta)) < 0)
				goto out;
			need_meta = 0;
			if (ds_meta_u64(meta.data, "samples", &v) == 0 &&
			    v >= 1 && v <= DS_CAPTURE_SAMPLES)
				want = v;
			if (got >= want)
				break;
		}
		if (!(m.path[0] >= '0' && m.path[0] <= '9' &&
		    m.path[1] == '/') || (n = (unsigned)(m.path[0] - '0')) <
		    cur)
			continue;
		if (n >= want && !need_meta)
			break;
		if (n >= want)
			continue;
		if (n > cur) {
			/* A sample whose block devices ended the archive. */
			if (!done && s.have_ds && s.have_up &&
			    (e = point(&s, cur, keep, arg, &pt[got++], why)) < 0)
				goto out;
			scan_reset(&s);
			cur = n;
			done = 0;
		}
		if (done)
			continue;	/* this sample is read: to the next */
		if ((e = member(&s, t, &m, m.path + 2, &tmp, why)) < 0)
			goto out;
		if (e == 1) {
			done = 1;
			if ((e = point(&s, cur, keep, arg, &pt[got++], why)) < 0)
				goto out;
			if (got >= want && !need_meta)
				break;
		}
	}
	if (e < 0)
		goto out;
	if (!done && s.have_ds && s.have_up &&
	    (e = point(&s, cur, keep, arg, &pt[got++], why)) < 0)
		goto out;
	if (got == 0) {
		e = ds_buf_printf(why, "no sample with proc/diskstats and "
		    "proc/uptime") < 0 ? -ENOMEM : -EINVAL;
		goto out;
	}
	for (n = 0; n < got; n++)
		pt[n].time_ns = when(&meta, n, pt[n].uptime_ns,
		    pt[0].uptime_ns, mtime);
	e = (int)got;
out:
	if (e < 0)
		for (n = 0; n < DS_CAPTURE_SAMPLES; n++)
			ds_histpt_free(&pt[n]);
	ds_tar_close(t);
	scan_free(&s);
	ds_buf_free(&meta);
	ds_buf_free(&tmp);
	return e;
}

void
ds_histpt_slim(struct ds_histpt *pt)
{
	struct ds_devids *ids = &pt->ids;
	void *p;

	ds_diskstats_free(&pt->ds);
	/* A week of points: their identities at their size, no more. */
	if (ids->n == 0) {
		ds_devids_free(ids);
		return;
	}
	if (ids->n < ids->cap &&
	    (p = realloc(ids->e, ids->n * sizeof(*ids->e))) != NULL) {
		ids->e = p;
		ids->cap = ids->n;
	}
	if (ids->pool.len + 1 < ids->pool.cap &&
	    (p = realloc(ids->pool.data, ids->pool.len + 1)) != NULL) {
		ids->pool.data = p;
		ids->pool.cap = ids->pool.len + 1;
	}
}

int
ds_histpt_disks(int fd, unsigned int n, ds_base_keep keep, void *arg,
    struct ds_diskstats *ds, struct ds_buf *buf)
{
	struct ds_tar_member m;
	struct ds_tar *t;
	char want[32];
	int e;

	ds->n = ds->bad = ds->first_bad = 0;
	snprintf(want, sizeof(want), "%u/proc/diskstats", n);
	if (lseek(fd, 0, SEEK_SET) < 0)
		return -errno;
	if ((e = ds_tar_open(fd, NULL, &t)) < 0)
		return e;
	while ((e = ds_tar_next(t, &m)) == 1)
		if (m.type == '0' && strcmp(m.path, want) == 0)
			break;
	if (e == 1 && (e = ds_tar_data(t, buf)) == 0)
		e = disks(buf->data, keep, arg, ds);
	else if (e == 0)
		e = -ENOENT;
	ds_tar_close(t);
	return e;
}
