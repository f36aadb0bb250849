/*
 * Memory cgroups with a limit: a cgroup whose limit is below its working
 * set reads its own pages back from the disk (refaults), so its tasks
 * wait on I/O that no disk can make faster.  v2 files
 * (Documentation/admin-guide/cgroup-v2.rst): memory.max and memory.high
 * ("max" or bytes), memory.current, memory.stat ("workingset_refault_file
 * N", 5.9+; "workingset_refault N" before), memory.pressure (PSI),
 * memory.events ("max N", "oom N").  v1 (cgroup-v1/memory.rst):
 * memory.limit_in_bytes, memory.usage_in_bytes, memory.failcnt,
 * memory.stat's hierarchical "total_workingset_refault_file N".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/*
 * No limit: v2 prints "max"; v1 prints PAGE_COUNTER_MAX pages in bytes
 * (9223372036854771712 with 4 KiB pages, LONG_MAX rounded down to a
 * page), and no machine has 2^62 bytes to limit.
 */
#define NO_LIMIT (1ull << 62)

int
ds_memlimit_parse(const char *text, uint64_t *out)
{
	const char *s = text;
	uint64_t v;

	while (*s == ' ' || *s == '\t')
		s++;
	if (strncmp(s, "max", 3) == 0) {
		for (s += 3; *s == ' ' || *s == '\t' || *s == '\n'; s++)
			;
		if (*s != '\0')
			return -EINVAL;
		*out = UINT64_MAX;
		return 0;
	}
	if (ds_strtou64(text, &v) < 0)
		return -EINVAL;
	*out = v >= NO_LIMIT ? UINT64_MAX : v;
	return 0;
}

int
ds_memstat_parse(const char *text, int v1, struct ds_memcg *m)
{
	static const char *const key[3] = { "workingset_refault_file",
	    "workingset_refault_anon", "workingset_refault" };
	char line[256], *f[4], *k;
	const char *p = text;
	uint64_t v, legacy = 0;
	int r, i, e = 0, have_legacy = 0;
	size_t n;

	m->have_refault = 0;
	while ((r = ds_cgtext_line(&p, line, sizeof(line))) != 0) {
		if (r < 0 || (n = ds_split(line, f, 4)) == 0)
			continue;
		k = f[0];
		/* v1's own keys are this cgroup's alone; total_ is the subtree. */
		if (v1) {
			if (strncmp(k, "total_", 6) != 0)
				continue;
			k += 6;
		}
		for (i = 0; i < 3; i++)
			if (strcmp(k, key[i]) == 0)
				break;
		if (i == 3)
			continue;
		if (n != 2 || ds_strtou64(f[1], &v) < 0) {
			e = -EINVAL;
			continue;
		}
		if (i == 0) {
			m->refault_file = v;
			m->have_refault |= DS_REFAULT_FILE;
		} else if (i == 1) {
			m->refault_anon = v;
			m->have_refault |= DS_REFAULT_ANON;
		} else {
			legacy = v;
			have_legacy = 1;
		}
	}
	/* Before 5.9 only file pages had shadow entries: all refaults are. */
	if (have_legacy && !(m->have_refault & DS_REFAULT_FILE)) {
		m->refault_file = legacy;
		m->have_refault |= DS_REFAULT_FILE;
	}
	return e;
}

int
ds_memevents_parse(const char *text, struct ds_memcg *m)
{
	static const char *const key[4] = { "max", "oom", "high", "oom_kill" };
	static const int bit[4] = { DS_MEMEV_MAX, DS_MEMEV_OOM, DS_MEMEV_HIGH,
	    DS_MEMEV_OOM_KILL };
	uint64_t *const dst[4] = { &m->ev_max, &m->ev_oom, &m->ev_high,
	    &m->ev_oom_kill };
	char line[256], *f[4];
	const char *p = text;
	uint64_t v;
	int r, i, e = 0;
	size_t n;

	m->have_events = 0;
	while ((r = ds_cgtext_line(&p, line, sizeof(line))) != 0) {
		if (r < 0 || (n = ds_split(line, f, 4)) == 0)
			continue;
		for (i = 0; i < 4; i++)
			if (strcmp(f[0], key[i]) == 0)
				break;
		if (i == 4)
			continue;
		if (n != 2 || ds_strtou64(f[1], &v) < 0) {
			e = -EINVAL;
			continue;
		}
		*dst[i] = v;
		m->have_events |= bit[i];
	}
	return e;
}

struct memwalk {
	const struct ds_root *r;
	struct ds_memcgs *out;
	struct ds_buf b;
	int v1;
	size_t count, max;
};

/*
 * A file of one value: 0, 1 when it is not there (or the cgroup went),
 * or -ENOMEM.  A value that does not parse counts as bad, and is 1.
 */
static int
value(struct memwalk *w, int fd, const char *name, int limit, uint64_t *v)
{
	uint64_t x;
	int e;

	if ((e = ds_cgfile_read(fd, name, &w->b)) == -ENOMEM)
		return e;
	if (e < 0)
		return 1;
	e = limit ? ds_memlimit_parse(w->b.data, &x) :
	    ds_strtou64(w->b.data, &x);
	if (e < 0) {
		w->out->bad++;
		return 1;
	}
	*v = x;
	return 0;
}

/* The cgroup's limit and usage into m: 0, 1 when it has none, -ENOMEM. */
static int
mem_limits(struct memwalk *w, int fd, struct ds_memcg *m)
{
	int e;

	if (w->v1) {
		if ((e = value(w, fd, "memory.limit_in_bytes", 1,
		    &m->limit)) != 0)
			return e;
		if (m->limit == UINT64_MAX)
			return 1;
		return value(w, fd, "memory.usage_in_bytes", 0, &m->usage);
	}
	/* The root has neither file. */
	if ((e = value(w, fd, "memory.max", 1, &m->limit)) < 0 ||
	    (e = value(w, fd, "memory.high", 1, &m->high)) < 0)
		return e;
	if (m->limit == UINT64_MAX && m->high == UINT64_MAX)
		return 1;
	return value(w, fd, "memory.current", 0, &m->usage);
}

static int
mem_more(struct memwalk *w, int fd, struct ds_memcg *m)
{
	struct ds_psi p;
	int e;

	if ((e = ds_cgfile_read(fd, "memory.stat", &w->b)) == -ENOMEM)
		return e;
	if (e == 0 && ds_memstat_parse(w->b.data, w->v1, m) < 0)
		w->out->bad++;
	if (w->v1) {
		if ((e = value(w, fd, "memory.failcnt", 0, &m->failcnt)) < 0)
			return e;
		m->have_failcnt = e == 0;
		return 0;
	}
	if ((e = ds_psi_read_res(w->r, fd, DS_PSI_MEMORY, &w->b, &p)) ==
	    -ENOMEM)
		return e;
	if (e == 0) {
		m->psi_some_us = p.line[DS_PSI_SOME].total;
		m->psi_full_us = p.line[DS_PSI_FULL].total;
		m->have_psi = (int)p.have;
	}
	if ((e = ds_cgfile_read(fd, "memory.events", &w->b)) == -ENOMEM)
		return e;
	if (e == 0 && ds_memevents_parse(w->b.data, m) < 0)
		w->out->bad++;
	return 0;
}

static int
mem_one(void *arg, int fd, const char *path)
{
	struct memwalk *w = arg;
	struct ds_memcgs *out = w->out;
	struct ds_memcg m;
	struct stat sb;
	int e;

	if (fd < 0) {
		out->skipped++;
		return 0;
	}
	if (++w->count > w->max) {
		out->truncated = 1;
		return DS_CG_WALK_STOP;
	}
	memset(&m, 0, sizeof(m));
	m.v1 = w->v1;
	m.limit = m.high = UINT64_MAX;
	if ((e = mem_limits(w, fd, &m)) != 0)
		return e < 0 ? e : 0;
	if ((e = mem_more(w, fd, &m)) < 0)
		return e;
	if (fstat(fd, &sb) < 0)
		return -errno;
	m.ino = (uint64_t)sb.st_ino;
	if (ds_grow(&out->m, &out->cap, out->n + 1, sizeof(*out->m)) < 0)
		return -ENOMEM;
	if ((m.cgroup = strdup(path)) == NULL)
		return -ENOMEM;
	out->m[out->n++] = m;
	return 0;
}

static int
cmp_memcg(const void *x, const void *y)
{
	const struct ds_memcg *a = x, *b = y;
	int c;

	if ((c = strcmp(a->cgroup, b->cgroup)) != 0)
		return c;
	return a->v1 - b->v1;
}

int
ds_memcgs_read_max(const struct ds_root *r, struct ds_memcgs *out,
    size_t max)
{
	struct ds_cgmounts mt;
	struct memwalk w;
	size_t i;
	int e;

	for (i = 0; i < out->n; i++)
		free(out->m[i].cgroup);
	out->n = out->bad = out->skipped = 0;
	out->hier = 0;
	out->truncated = 0;
	if ((e = ds_cgmounts_find(r, "memory", "memory", &mt)) < 0)
		return e;
	memset(&w, 0, sizeof(w));
	w.r = r;
	w.out = out;
	w.max = max;
	e = ds_cgwalk_mounts(r, &mt, mem_one, &w, &w.v1, &w.count, &out->hier);
	ds_buf_free(&w.b);
	if (out->n > 1)
		qsort(out->m, out->n, sizeof(*out->m), cmp_memcg);
	return e;
}

int
ds_memcgs_read(const struct ds_root *r, struct ds_memcgs *out)
{
	return ds_memcgs_read_max(r, out, DS_CG_WALK_MAX);
}

const struct ds_memcg *
ds_memcgs_find(const struct ds_memcgs *s, const char *cgroup, int v1)
{
	struct ds_memcg key;

	if (s->n == 0 || cgroup == NULL)
		return NULL;
	memset(&key, 0, sizeof(key));
	key.cgroup = (char *)cgroup;
	key.v1 = v1;
	return bsearch(&key, s->m, s->n, sizeof(*s->m), cmp_memcg);
}

void
ds_memcgs_free(struct ds_memcgs *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->m[i].cgroup);
	free(s->m);
	memset(s, 0, sizeof(*s));
}
