/*
 * I/O limits of cgroups: v2 io.max, io.latency and the iocost and
 * io.latency keys of io.stat; v1 blkio.throttle.*_device.  Each with
 * the cgroup's counters for the device, so a rate at its limit shows.
 * Also where the hierarchies are mounted, and a process's cgroup for a
 * controller.  Formats (Documentation/admin-guide/cgroup-v2.rst,
 * cgroup-v1/blkio-controller.rst):
 *   io.max      8:16 rbps=2097152 wbps=max riops=max wiops=120
 *   io.latency  8:16 target=75000
 *   io.stat     8:16 rbytes=N wbytes=N rios=N wios=N dbytes=N dios=N
 *               [cost.vrate=100.00] cost.usage=N [cost.wait=N cost.indebt=N
 *               cost.indelay=N] [depth=max avg_lat=N win=N]
 *   blkio.throttle.read_iops_device       8:16 50
 *   blkio.throttle.io_serviced            8:16 Read 12 ... 8:16 Total 15, Total 15
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

int
ds_cgtext_line(const char **p, char *buf, size_t size)
{
	const char *s = *p, *nl;
	size_t l;

	if (*s == '\0')
		return 0;
	nl = strchr(s, '\n');
	l = nl != NULL ? (size_t)(nl - s) : strlen(s);
	*p = nl != NULL ? nl + 1 : s + l;
	if (l >= size)
		return -1;
	memcpy(buf, s, l);
	buf[l] = '\0';
	return 1;
}

int
ds_cgfile_read(int dirfd, const char *name, struct ds_buf *b)
{
	int fd, e;

	/* cgroupfs has no symlinks; one in a tree leads nowhere we read. */
	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
	if (fd < 0)
		return ds_buf_fail(b, -errno);
	e = ds_read_fd(fd, b);
	close(fd);
	return e;
}

/* "MAJ:MIN", both within 32 bits. */
static int
devnum(const char *s, unsigned int *maj, unsigned int *min)
{
	const char *end;
	uint64_t a, b;

	if (*s < '0' || *s > '9' || ds_parse_u64(s, &end, &a) < 0 ||
	    *end != ':' || end[1] < '0' || end[1] > '9' ||
	    ds_parse_u64(end + 1, &end, &b) < 0 || *end != '\0' ||
	    a > UINT32_MAX || b > UINT32_MAX)
		return -EINVAL;
	*maj = (unsigned int)a;
	*min = (unsigned int)b;
	return 0;
}

/*
 * cg's entry of a device: 0 with *out (NULL when absent and not to be
 * made), -ENOSPC past DS_CG_DEVS_MAX, -ENOMEM.
 */
static int
dev_entry(struct ds_iolimits *cg, unsigned int maj, unsigned int min,
    int create, struct ds_iolimit **out)
{
	struct ds_iolimit *l;
	size_t i;
	int k;

	*out = NULL;
	for (i = 0; i < cg->n; i++)
		if (cg->l[i].major == maj && cg->l[i].minor == min) {
			*out = &cg->l[i];
			return 0;
		}
	if (!create)
		return 0;
	if (cg->n >= DS_CG_DEVS_MAX)
		return -ENOSPC;
	if (ds_grow(&cg->l, &cg->cap, cg->n + 1, sizeof(*cg->l)) < 0)
		return -ENOMEM;
	l = &cg->l[cg->n++];
	memset(l, 0, sizeof(*l));
	l->major = maj;
	l->minor = min;
	for (k = 0; k < DS_LIM_N; k++)
		l->lim[k] = UINT64_MAX;
	*out = l;
	return 0;
}

/* dev_entry for a parser: a full cgroup's line is a bad one. */
static int
parser_entry(struct ds_iolimits *cg, unsigned int maj, unsigned int min,
    int create, struct ds_iolimit **out)
{
	int e = dev_entry(cg, maj, min, create, out);

	if (e == -ENOSPC) {
		cg->bad++;
		return 0;
	}
	return e;
}

static const char *const lim_key[DS_LIM_N] = { "rbps", "wbps", "riops",
    "wiops" };

int
ds_iomax_parse(const char *text, struct ds_iolimits *cg)
{
	char line[1024], *f[16], *eq;
	const char *p = text;
	uint64_t v[DS_LIM_N];
	unsigned int maj, min, set;
	struct ds_iolimit *l;
	size_t n, i;
	int r, k, e;

	while ((r = ds_cgtext_line(&p, line, sizeof(line))) != 0) {
		if (r < 0) {
			cg->bad++;
			continue;
		}
		if ((n = ds_split(line, f, 16)) == 0)
			continue;
		if (n > 16 || devnum(f[0], &maj, &min) < 0) {
			cg->bad++;
			continue;
		}
		/* The whole line is checked before any of it is kept. */
		for (set = 0, i = 1; i < n; i++) {
			if ((eq = strchr(f[i], '=')) == NULL)
				break;
			*eq = '\0';
			for (k = 0; k < DS_LIM_N; k++)
				if (strcmp(f[i], lim_key[k]) == 0)
					break;
			if (k == DS_LIM_N)
				continue;	/* idle=, latency= of io.low */
			if (set & (1u << k))
				break;
			if (strcmp(eq + 1, "max") == 0)
				v[k] = UINT64_MAX;
			/* The kernel refuses 0 (-ERANGE): not a limit. */
			else if (ds_strtou64(eq + 1, &v[k]) < 0 || v[k] == 0)
				break;
			set |= 1u << k;
		}
		if (i < n) {
			cg->bad++;
			continue;
		}
		if ((e = parser_entry(cg, maj, min, 1, &l)) < 0)
			return e;
		for (k = 0; l != NULL && k < DS_LIM_N; k++)
			if (set & (1u << k))
				l->lim[k] = v[k];
	}
	return 0;
}

int
ds_iolatency_parse(const char *text, struct ds_iolimits *cg)
{
	char line[1024], *f[4];
	const char *p = text;
	unsigned int maj, min;
	struct ds_iolimit *l;
	uint64_t v = 0;
	size_t n;
	int r, e;

	while ((r = ds_cgtext_line(&p, line, sizeof(line))) != 0) {
		if (r < 0) {
			cg->bad++;
			continue;
		}
		if ((n = ds_split(line, f, 4)) == 0)
			continue;
		if (n != 2 || devnum(f[0], &maj, &min) < 0 ||
		    strncmp(f[1], "target=", 7) != 0 ||
		    (strcmp(f[1] + 7, "max") != 0 &&
		    ds_strtou64(f[1] + 7, &v) < 0)) {
			cg->bad++;
			continue;
		}
		/* "max" and 0 are no target (the kernel prints neither). */
		if (strcmp(f[1] + 7, "max") == 0 || v == 0)
			continue;
		if ((e = parser_entry(cg, maj, min, 1, &l)) < 0)
			return e;
		if (l != NULL) {
			l->lat_target_us = v;
			l->have_lat = 1;
		}
	}
	return 0;
}

/* The io.stat keys of iocost and io.latency. */
enum qkey {
	Q_VRATE, Q_USAGE, Q_WAIT, Q_INDEBT, Q_INDELAY,
	Q_DEPTH, Q_AVG, Q_WIN, Q_MISSED, Q_TOTAL, Q_N
};
static const char *const qkey_name[Q_N] = {
	"cost.vrate", "cost.usage", "cost.wait", "cost.indebt",
	"cost.indelay", "depth", "avg_lat", "win", "missed", "total",
};

/* One key's value into v; -EINVAL. */
static int
qvalue(int k, const char *s, uint64_t *v)
{
	const char *end, *dot;

	if (k == Q_DEPTH && strcmp(s, "max") == 0) {
		*v = UINT64_MAX;
		return 0;
	}
	if (k != Q_VRATE)
		return ds_strtou64(s, v);
	/* "%u.%02u" percent, kept in hundredths; a third decimal is not it. */
	if ((dot = strchr(s, '.')) != NULL && strlen(dot + 1) > 2)
		return -EINVAL;
	if (ds_parse_fixed(s, &end, 2, v) < 0 || *end != '\0')
		return -EINVAL;
	return 0;
}

static void
qset(struct ds_iolimit *l, unsigned int set, const uint64_t *v)
{
	static const unsigned int cbit[] = { DS_COST_VRATE, DS_COST_USAGE,
	    DS_COST_WAIT, DS_COST_INDEBT, DS_COST_INDELAY };
	static const unsigned int lbit[] = { DS_LATSTAT_DEPTH, DS_LATSTAT_AVG,
	    DS_LATSTAT_WIN, DS_LATSTAT_MISSED, DS_LATSTAT_TOTAL };
	uint64_t *const cdst[] = { NULL, &l->cost_usage, &l->cost_wait,
	    &l->cost_indebt, &l->cost_indelay };
	uint64_t *const ldst[] = { &l->lat_depth, &l->lat_avg_us,
	    &l->lat_win_ms, &l->lat_missed, &l->lat_total };
	int k;

	for (k = 0; k < Q_N; k++) {
		if (!(set & (1u << k)))
			continue;
		if (k == Q_VRATE)
			l->cost_vrate = (double)v[k] / 100.0;
		else if (k < Q_DEPTH)
			*cdst[k] = v[k];
		else
			*ldst[k - Q_DEPTH] = v[k];
		if (k < Q_DEPTH)
			l->have_cost |= (int)cbit[k];
		else
			l->have_latstat |= (int)lbit[k - Q_DEPTH];
	}
}

int
ds_iostat_limits_parse(const char *text, struct ds_iolimits *cg)
{
	static const int map[DS_LIM_N] = { DS_IOS_RBYTES, DS_IOS_WBYTES,
	    DS_IOS_RIOS, DS_IOS_WIOS };
	struct ds_iostat st = { 0 };
	char line[4096], *f[64], *eq;
	const char *p = text;
	uint64_t v[Q_N];
	unsigned int maj, min, set;
	struct ds_iolimit *l;
	size_t i, n;
	int e, k, r;

	/* The counters as ds_cgios_read has them; its bad lines are ours. */
	if ((e = ds_iostat_parse(text, &st)) < 0)
		goto done;
	cg->bad += st.bad;
	for (i = 0; i < st.n; i++) {
		if ((e = parser_entry(cg, st.d[i].major, st.d[i].minor, 1,
		    &l)) < 0)
			goto done;
		for (k = 0; l != NULL && k < DS_LIM_N; k++)
			if (st.d[i].have & (1u << map[k])) {
				l->done[k] = st.d[i].v[map[k]];
				l->have_done |= 1 << k;
			}
	}
	/* Then the keys it skips, on the lines it took (same bounds). */
	while ((r = ds_cgtext_line(&p, line, sizeof(line))) != 0) {
		if (r < 0 || (n = ds_split(line, f, 64)) == 0 ||
		    devnum(f[0], &maj, &min) < 0)
			continue;
		for (set = 0, i = 1; i < n && i < 64; i++) {
			if ((eq = strchr(f[i], '=')) == NULL)
				continue;
			*eq = '\0';
			for (k = 0; k < Q_N; k++)
				if (strcmp(f[i], qkey_name[k]) == 0)
					break;
			if (k == Q_N)
				continue;
			if ((set & (1u << k)) || qvalue(k, eq + 1, &v[k]) < 0)
				break;
			set |= 1u << k;
		}
		if (i < n && i < 64) {
			cg->bad++;
			continue;
		}
		if (set == 0)
			continue;
		if ((e = dev_entry(cg, maj, min, 0, &l)) < 0)
			goto done;
		if (l != NULL)
			qset(l, set, v);
	}
	e = 0;
done:
	ds_iostat_free(&st);
	return e;
}

int
ds_blkio_limit_parse(const char *text, int k, struct ds_iolimits *cg)
{
	char line[256], *f[4];
	const char *p = text;
	unsigned int maj, min;
	struct ds_iolimit *l;
	uint64_t v;
	size_t n;
	int r, e;

	if (k < 0 || k >= DS_LIM_N)
		return -EINVAL;
	while ((r = ds_cgtext_line(&p, line, sizeof(line))) != 0) {
		if (r < 0) {
			cg->bad++;
			continue;
		}
		if ((n = ds_split(line, f, 4)) == 0)
			continue;
		if (n != 2 || devnum(f[0], &maj, &min) < 0 ||
		    ds_strtou64(f[1], &v) < 0) {
			cg->bad++;
			continue;
		}
		/* Writing 0 removes a v1 limit; none is printed then. */
		if (v == 0)
			continue;
		if ((e = parser_entry(cg, maj, min, 1, &l)) < 0)
			return e;
		if (l != NULL)
			l->lim[k] = v;
	}
	return 0;
}

int
ds_blkio_rwstat_parse(const char *text, int bytes, struct ds_iolimits *cg)
{
	char line[256], *f[4];
	const char *p = text;
	unsigned int maj, min;
	struct ds_iolimit *l;
	uint64_t v;
	size_t n;
	int r, k;

	while ((r = ds_cgtext_line(&p, line, sizeof(line))) != 0) {
		if (r < 0) {
			cg->bad++;
			continue;
		}
		if ((n = ds_split(line, f, 4)) == 0)
			continue;
		/* The file ends with the sum of every device: "Total N". */
		if (n == 2 && strcmp(f[0], "Total") == 0 &&
		    ds_strtou64(f[1], &v) == 0)
			continue;
		if (n != 3 || devnum(f[0], &maj, &min) < 0 ||
		    ds_strtou64(f[2], &v) < 0) {
			cg->bad++;
			continue;
		}
		/* Sync, Async, Discard and Total rows overlap these two. */
		if (strcmp(f[1], "Read") == 0)
			k = bytes ? DS_LIM_RBPS : DS_LIM_RIOPS;
		else if (strcmp(f[1], "Write") == 0)
			k = bytes ? DS_LIM_WBPS : DS_LIM_WIOPS;
		else
			continue;
		(void)dev_entry(cg, maj, min, 0, &l);
		if (l != NULL) {
			l->done[k] = v;
			l->have_done |= 1 << k;
		}
	}
	return 0;
}

/* Worth a row: a limit, a latency target, or the keys of iocost, io.latency. */
static int
worth(const struct ds_iolimit *l)
{
	int k;

	for (k = 0; k < DS_LIM_N; k++)
		if (l->lim[k] != UINT64_MAX)
			return 1;
	return l->have_lat || l->have_cost || l->have_latstat;
}

struct iowalk {
	struct ds_iolimits *out;
	struct ds_iolimits cg;		/* the cgroup's devices */
	struct ds_buf b;
	int v1;
	size_t count, max;
};

/* A file of the cgroup parsed into w->cg: one that is not there is none. */
static int
io_file(struct iowalk *w, int fd, const char *name,
    int (*parse)(const char *, struct ds_iolimits *))
{
	int e = ds_cgfile_read(fd, name, &w->b);

	if (e == -ENOMEM)
		return e;
	return e < 0 ? 0 : parse(w->b.data, &w->cg);
}

static int
io_v1(struct iowalk *w, int fd)
{
	static const char *const lim_file[DS_LIM_N] = {
		"blkio.throttle.read_bps_device",
		"blkio.throttle.write_bps_device",
		"blkio.throttle.read_iops_device",
		"blkio.throttle.write_iops_device",
	};
	int k, e;

	for (k = 0; k < DS_LIM_N; k++) {
		if ((e = ds_cgfile_read(fd, lim_file[k], &w->b)) == -ENOMEM)
			return e;
		if (e == 0 && (e = ds_blkio_limit_parse(w->b.data, k,
		    &w->cg)) < 0)
			return e;
	}
	if (w->cg.n == 0)
		return 0;
	/*
	 * v1 throttling is flat (blk-throttle.c: off the default hierarchy
	 * a group's limits bind its own I/O only): the cgroup's own
	 * counters, not the _recursive ones.
	 */
	if ((e = ds_cgfile_read(fd, "blkio.throttle.io_service_bytes",
	    &w->b)) == -ENOMEM)
		return e;
	if (e == 0)
		(void)ds_blkio_rwstat_parse(w->b.data, 1, &w->cg);
	if ((e = ds_cgfile_read(fd, "blkio.throttle.io_serviced",
	    &w->b)) == -ENOMEM)
		return e;
	if (e == 0)
		(void)ds_blkio_rwstat_parse(w->b.data, 0, &w->cg);
	return 0;
}

static int
io_v2(struct iowalk *w, int fd)
{
	int e;

	if ((e = io_file(w, fd, "io.max", ds_iomax_parse)) < 0 ||
	    (e = io_file(w, fd, "io.latency", ds_iolatency_parse)) < 0)
		return e;
	/* v2 limits bind the subtree, and io.stat counts the subtree. */
	return io_file(w, fd, "io.stat", ds_iostat_limits_parse);
}

static int
io_one(void *arg, int fd, const char *path)
{
	struct iowalk *w = arg;
	struct ds_iolimits *out = w->out;
	struct ds_iolimit *l;
	struct stat sb;
	size_t i;
	int e;

	if (fd < 0) {
		out->skipped++;
		return 0;
	}
	if (++w->count > w->max) {
		out->truncated = 1;
		return DS_CG_WALK_STOP;
	}
	w->cg.n = 0;
	w->cg.bad = 0;
	e = w->v1 ? io_v1(w, fd) : io_v2(w, fd);
	out->bad += w->cg.bad;
	if (e < 0)
		return e;
	if (fstat(fd, &sb) < 0)
		return -errno;
	for (i = 0; i < w->cg.n; i++) {
		if (!worth(&w->cg.l[i]))
			continue;
		if (ds_grow(&out->l, &out->cap, out->n + 1,
		    sizeof(*out->l)) < 0)
			return -ENOMEM;
		l = &out->l[out->n];
		*l = w->cg.l[i];
		l->v1 = w->v1;
		l->ino = (uint64_t)sb.st_ino;
		if ((l->cgroup = strdup(path)) == NULL)
			return -ENOMEM;
		out->n++;
	}
	return 0;
}

static int
cmp_limit(const void *x, const void *y)
{
	const struct ds_iolimit *a = x, *b = y;
	int c;

	if ((c = strcmp(a->cgroup, b->cgroup)) != 0)
		return c;
	if (a->major != b->major)
		return a->major < b->major ? -1 : 1;
	if (a->minor != b->minor)
		return a->minor < b->minor ? -1 : 1;
	return a->v1 - b->v1;
}

static int
has_opt(const char *opts, const char *want)
{
	size_t n, wl = strlen(want);

	for (; *opts != '\0'; opts += n + (opts[n] == ',')) {
		n = strcspn(opts, ",");
		if (n == wl && memcmp(opts, want, n) == 0)
			return 1;
	}
	return 0;
}

/* rel exists below the root, as a directory (dir) or anything. */
static int
exists(const struct ds_root *r, const char *rel, int dir)
{
	struct stat st;

	if (ds_fstatat_in(r, r->fd, rel, &st) < 0)
		return 0;
	return !dir || S_ISDIR(st.st_mode);
}

static int
copy_mnt(char *dst, const char *src)
{
	if (strlen(src) >= sizeof(((struct ds_cgmounts *)0)->v2))
		return -ENAMETOOLONG;
	strcpy(dst, src);
	return 0;
}

/* No mount table (a tree of files alone): where the hosts put them. */
static int
mounts_guess(const struct ds_root *r, const char *v1ctl,
    struct ds_cgmounts *out)
{
	char rel[256];
	int v1;

	snprintf(rel, sizeof(rel), "sys/fs/cgroup/%s/tasks", v1ctl);
	if ((v1 = exists(r, rel, 0)))
		snprintf(out->v1, sizeof(out->v1), "sys/fs/cgroup/%s", v1ctl);
	if (exists(r, "sys/fs/cgroup/unified", 1))
		strcpy(out->v2, "sys/fs/cgroup/unified");
	else if (exists(r, "sys/fs/cgroup/cgroup.controllers", 0) ||
	    (!v1 && exists(r, "sys/fs/cgroup", 1)))
		strcpy(out->v2, "sys/fs/cgroup");
	return 0;
}

int
ds_cgmounts_find(const struct ds_root *r, const char *v1ctl,
    const char *v2ctl, struct ds_cgmounts *out)
{
	struct ds_mounts ms = { 0 };
	const struct ds_mount *m, *v1 = NULL;
	struct ds_buf b = { 0 };
	char rel[4200], *f[64];
	size_t i, n;
	int e;

	out->v1[0] = out->v2[0] = '\0';
	e = ds_mountinfo_read(r, "proc/self/mountinfo", &ms);
	if (e == -ENOENT && !r->live) {
		ds_mounts_free(&ms);
		e = mounts_guess(r, v1ctl, out);
	} else if (e == 0) {
		if ((m = ds_mount_cgroup2(&ms)) != NULL)
			e = copy_mnt(out->v2, m->mnt);
		/* The hierarchy's own root before a bind mount of a part. */
		for (i = 0; i < ms.n; i++)
			if (strcmp(ms.m[i].fstype, "cgroup") == 0 &&
			    has_opt(ms.m[i].super_opts, v1ctl) &&
			    (v1 == NULL || (strcmp(v1->root, "/") != 0 &&
			    strcmp(ms.m[i].root, "/") == 0)))
				v1 = &ms.m[i];
		if (e == 0 && v1 != NULL)
			e = copy_mnt(out->v1, v1->mnt);
		ds_mounts_free(&ms);
	} else {
		ds_mounts_free(&ms);
	}
	if (e < 0 || out->v2[0] == '\0')
		return e;
	/*
	 * Hybrid hosts mount v2 with no controller at all: its files
	 * would all be missing.  A tree without cgroup.controllers is
	 * walked all the same.
	 */
	snprintf(rel, sizeof(rel), "%s/cgroup.controllers", out->v2);
	if (ds_read_file(r, rel, &b) == 0) {
		for (i = 0; i < b.len; i++)
			if (b.data[i] == '\n')
				b.data[i] = ' ';
		n = ds_split(b.data, f, 64);
		for (i = 0; i < n && i < 64; i++)
			if (strcmp(f[i], v2ctl) == 0)
				break;
		if (i == n || i == 64)
			out->v2[0] = '\0';
	}
	ds_buf_free(&b);
	return 0;
}

void
ds_iolimits_free(struct ds_iolimits *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->l[i].cgroup);
	free(s->l);
	memset(s, 0, sizeof(*s));
}

int
ds_cgwalk_mount(const struct ds_root *r, const char *mnt,
    int (*fn)(void *, int, const char *), void *arg)
{
	int fd, e;

	if ((fd = ds_openat(r, mnt, O_RDONLY | O_DIRECTORY)) < 0)
		return fd;
	e = ds_cgroup_walk(fd, fn, arg);
	close(fd);
	return e == DS_CG_WALK_STOP ? 0 : e;
}

int
ds_cgwalk_mounts(const struct ds_root *r, const struct ds_cgmounts *m,
    int (*fn)(void *, int, const char *), void *arg, int *v1, size_t *count,
    unsigned int *hier)
{
	int e = 0, i;

	for (i = 0; i <= 1 && e == 0; i++) {
		const char *mnt = i ? m->v1 : m->v2;

		if (*mnt == '\0')
			continue;
		*v1 = i;
		*count = 0;
		e = ds_cgwalk_mount(r, mnt, fn, arg);
		if (e == -ENOENT && !r->live) {
			e = 0;
			continue;
		}
		if (e == 0)
			*hier |= i ? DS_CG_V1 : DS_CG_V2;
	}
	return e;
}

int
ds_iolimits_read_max(const struct ds_root *r, struct ds_iolimits *out,
    size_t max)
{
	struct ds_cgmounts m;
	struct iowalk w;
	size_t i;
	int e = 0;

	for (i = 0; i < out->n; i++)
		free(out->l[i].cgroup);
	out->n = out->bad = out->skipped = 0;
	out->hier = 0;
	out->truncated = 0;
	if ((e = ds_cgmounts_find(r, "blkio", "io", &m)) < 0)
		return e;
	memset(&w, 0, sizeof(w));
	w.out = out;
	w.max = max;
	e = ds_cgwalk_mounts(r, &m, io_one, &w, &w.v1, &w.count, &out->hier);
	free(w.cg.l);
	ds_buf_free(&w.b);
	if (out->n > 1)
		qsort(out->l, out->n, sizeof(*out->l), cmp_limit);
	return e;
}

int
ds_iolimits_read(const struct ds_root *r, struct ds_iolimits *out)
{
	return ds_iolimits_read_max(r, out, DS_CG_WALK_MAX);
}

const struct ds_iolimit *
ds_iolimits_find(const struct ds_iolimits *s, const struct ds_iolimit *l)
{
	if (s->n == 0 || l->cgroup == NULL)
		return NULL;
	return bsearch(l, s->l, s->n, sizeof(*s->l), cmp_limit);
}

int
ds_iolimit_rate(const struct ds_iolimit *a, const struct ds_iolimit *b,
    double secs, double rate[DS_LIM_N])
{
	int k, any = 0;

	if (!(secs > 0) || a->v1 != b->v1 || a->major != b->major ||
	    a->minor != b->minor || a->cgroup == NULL || b->cgroup == NULL ||
	    strcmp(a->cgroup, b->cgroup) != 0)
		return -EINVAL;
	for (k = 0; k < DS_LIM_N; k++)
		rate[k] = -1;
	/* Another directory under the same name: counted from its making. */
	if (a->ino != 0 && b->ino != 0 && a->ino != b->ino)
		return -ERANGE;
	for (k = 0; k < DS_LIM_N; k++) {
		if (!(a->have_done & b->have_done & (1 << k)))
			continue;
		if (b->done[k] < a->done[k]) {
			for (k = 0; k < DS_LIM_N; k++)
				rate[k] = -1;
			return -ERANGE;
		}
		rate[k] = (double)(b->done[k] - a->done[k]) / secs;
		any = 1;
	}
	return any ? 0 : -ENODATA;
}

int
ds_proc_cgroup_for(const char *text, const char *controller,
    const char **path, size_t *len, int *v1)
{
	const char *p = text, *nl, *c1, *c2, *s, *e, *v2p = NULL, *v2e = NULL;
	const char *want;
	size_t wl;

	/* The v1 controller's name; v2 calls blkio "io". */
	if (strcmp(controller, "io") == 0 || strcmp(controller, "blkio") == 0)
		want = "blkio";
	else if (strcmp(controller, "memory") == 0)
		want = "memory";
	else
		return -EINVAL;
	wl = strlen(want);
	/* Lines are "hierarchy-id:controller,list:path". */
	for (; *p != '\0'; p = *nl != '\0' ? nl + 1 : nl) {
		if ((nl = strchr(p, '\n')) == NULL)
			nl = p + strlen(p);
		if ((c1 = memchr(p, ':', (size_t)(nl - p))) == NULL ||
		    (c2 = memchr(c1 + 1, ':', (size_t)(nl - c1 - 1))) == NULL ||
		    c2 + 1 >= nl || c2[1] != '/')
			continue;
		if (c1 - p == 1 && p[0] == '0' && c2 == c1 + 1) {
			if (v2p == NULL) {
				v2p = c2 + 1;
				v2e = nl;
			}
			continue;
		}
		for (s = c1 + 1; s < c2; s = e + 1) {
			if ((e = memchr(s, ',', (size_t)(c2 - s))) == NULL)
				e = c2;
			if ((size_t)(e - s) == wl && memcmp(s, want, wl) == 0) {
				*path = c2 + 1;
				*len = (size_t)(nl - *path);
				*v1 = 1;
				return 0;
			}
		}
	}
	if (v2p == NULL)
		return -ENOENT;
	*path = v2p;
	*len = (size_t)(v2e - v2p);
	*v1 = 0;
	return 0;
}

int
ds_cgroup_pids(const struct ds_root *r, const char *ctl, int v1,
    const char *cgroup, int **pids, size_t *n)
{
	struct ds_cgmounts m;
	struct ds_buf b = { 0 };
	char rel[8300];
	const char *p;
	uint64_t v;
	size_t cap = 0;
	int *a = NULL, e;

	*pids = NULL;
	*n = 0;
	if ((e = ds_cgmounts_find(r, ctl, ctl, &m)) < 0)
		return e;
	if ((v1 ? m.v1 : m.v2)[0] == '\0')
		return -ENOENT;
	if ((size_t)snprintf(rel, sizeof(rel), "%s/%s/cgroup.procs",
	    v1 ? m.v1 : m.v2, cgroup) >= sizeof(rel))
		return -ENAMETOOLONG;
	if ((e = ds_read_file(r, rel, &b)) < 0) {
		ds_buf_free(&b);
		return e;
	}
	for (p = b.data; *p != '\0'; p += strcspn(p, "\n"), p += *p != '\0') {
		const char *end;

		if (ds_parse_u64(p, &end, &v) < 0 || (*end != '\n' &&
		    *end != '\0') || v < 1 || v > INT_MAX)
			continue;
		if (ds_grow(&a, &cap, *n + 1, sizeof(*a)) < 0) {
			free(a);
			ds_buf_free(&b);
			return -ENOMEM;
		}
		a[(*n)++] = (int)v;
	}
	ds_buf_free(&b);
	*pids = a;
	return 0;
}

/* One limit's keys, as io.max writes them: "riops=50 wbps=1048576". */
static void
limit_keys(const struct ds_iolimit *l, char *b, size_t size)
{
	static const char *const key[DS_LIM_N] = { "rbps", "wbps", "riops",
	    "wiops" };
	size_t n = 0;
	int k;

	b[0] = '\0';
	for (k = 0; k < DS_LIM_N && n < size; k++)
		if (l->lim[k] != UINT64_MAX)
			n += (size_t)snprintf(b + n, size - n, "%s%s=%llu",
			    n > 0 ? " " : "", key[k],
			    (unsigned long long)l->lim[k]);
}

int
ds_iolimit_text(const struct ds_iolimits *s, const char *cgroup, int dev,
    unsigned int major, unsigned int minor, struct ds_buf *out)
{
	char keys[128];
	size_t i;
	int e;

	if ((e = ds_buf_reserve(out, 1)) < 0)
		return e;
	out->len = 0;
	out->data[0] = '\0';
	for (i = 0; i < s->n; i++) {
		const struct ds_iolimit *l = &s->l[i];

		if (strcmp(l->cgroup, cgroup) != 0 || (dev && (l->major !=
		    major || l->minor != minor)))
			continue;
		/* A latency target or iocost keys alone: no limit to show. */
		limit_keys(l, keys, sizeof(keys));
		if (keys[0] == '\0')
			continue;
		if (dev)
			e = ds_buf_printf(out, "%s", keys);
		else
			e = ds_buf_appendf(out, "%s%u:%u %s", out->len > 0 ?
			    ", " : "", l->major, l->minor, keys);
		if (e < 0)
			return e;
	}
	return 0;
}
