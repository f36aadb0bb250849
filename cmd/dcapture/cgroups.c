/*
 * Every cgroup below sys/fs/cgroup: pressure, I/O and memory files as
 * the library reads them (cgroup v2, and v1's blkio and memory
 * hierarchies), and cgroup.procs, which says which processes are in
 * it.  Bounded: CG_DEPTH levels, CG_MAX directories.
 */
#include <sys/stat.h>

#include "dcapture.h"

#define CG_DEPTH	32
#define CG_MAX		100000

static const char *const files[] = {
	"cgroup.controllers", "cgroup.procs",
	"io.stat", "io.max", "io.latency", "io.pressure",
	"cpu.pressure", "memory.pressure", "irq.pressure",
	"memory.current", "memory.max", "memory.high", "memory.events",
	"memory.stat",
	"blkio.throttle.read_bps_device", "blkio.throttle.write_bps_device",
	"blkio.throttle.read_iops_device",
	"blkio.throttle.write_iops_device",
	"blkio.throttle.io_service_bytes", "blkio.throttle.io_serviced",
	"memory.limit_in_bytes", "memory.usage_in_bytes", "memory.failcnt",
};

/*
 * The processes of cgroup.procs (in c->buf) as members of dir, a cgroup
 * of the hierarchy c->cg_root: pid and the path /proc/PID/cgroup shows.
 */
static void
cgmap_add(struct cap *c, const char *dir)
{
	size_t rl = strlen(c->cg_root), at;
	const char *p, *q;
	uint64_t v;

	at = c->cgpaths.len;
	if (dir[rl] == '\0')
		(void)cap_buf_add(&c->cgpaths, "/", 1);
	else
		(void)cap_buf_add(&c->cgpaths, dir + rl, strlen(dir + rl));
	if (cap_buf_add(&c->cgpaths, "", 1) < 0)
		return;
	for (p = c->buf.data; p != NULL && *p != '\0'; p = q) {
		if (ds_parse_u64(p, &q, &v) < 0 || (*q != '\n' && *q != '\0') ||
		    v == 0 || v > INT32_MAX)
			break;
		if (*q == '\n')
			q++;
		if (ds_grow(&c->cgm, &c->capcgm, c->ncgm + 1,
		    sizeof(*c->cgm)) < 0)
			return;
		c->cgm[c->ncgm].pid = (int)v;
		c->cgm[c->ncgm++].path = at;
	}
}

static int
cmp_member(const void *a, const void *b)
{
	const struct cgmember *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* Sorted by pid; a pid in two cgroups (v2's threaded ones) is neither. */
static void
cgmap_sort(struct cap *c)
{
	size_t i, o;

	if (c->ncgm == 0)
		return;
	qsort(c->cgm, c->ncgm, sizeof(*c->cgm), cmp_member);
	for (i = 1, o = 0; i < c->ncgm; i++)
		if (c->cgm[i].pid == c->cgm[o].pid)
			c->cgm[o].path = CG_TWICE;
		else
			c->cgm[++o] = c->cgm[i];
	c->ncgm = o + 1;
}

const char *
cap_cgmap_find(struct cap *c, int pid)
{
	size_t lo = 0, hi = c->ncgm, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (c->cgm[mid].pid == pid)
			return c->cgm[mid].path == CG_TWICE ? NULL :
			    c->cgpaths.data + c->cgm[mid].path;
		if (c->cgm[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void
cap_cgmap_free(struct cap *c)
{
	free(c->cgm);
	c->cgm = NULL;
	c->ncgm = c->capcgm = 0;
	ds_buf_free(&c->cgpaths);
}

static int
isdir(struct cap *c, const char *rel)
{
	struct stat st;

	return fstatat(c->r.fd, rel, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISDIR(st.st_mode);
}

static void
walk(struct cap *c, const char *dir, int depth, size_t *left)
{
	char rel[4200], **name;
	size_t n, i;
	int e;

	if (*left == 0 || c->tw->err != 0) {
		cap_error_why(c, dir, "not read: too many cgroups");
		return;
	}
	(*left)--;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if ((size_t)snprintf(rel, sizeof(rel), "%s/%s", dir,
		    files[i]) < sizeof(rel) && cap_copy(c, rel) == 0 &&
		    c->cg_root != NULL && strcmp(files[i], "cgroup.procs") == 0 &&
		    strncmp(dir, c->cg_root, strlen(c->cg_root)) == 0 &&
		    (dir[strlen(c->cg_root)] == '\0' ||
		    dir[strlen(c->cg_root)] == '/'))
			cgmap_add(c, dir);
	if (depth >= CG_DEPTH)
		return;
	if ((e = cap_names(c, dir, 0, &name, &n)) < 0) {
		cap_error(c, dir, e);
		return;
	}
	for (i = 0; i < n; i++)
		if ((size_t)snprintf(rel, sizeof(rel), "%s/%s", dir,
		    name[i]) < sizeof(rel) && isdir(c, rel))
			walk(c, rel, depth + 1, left);
	cap_names_free(name, n);
}

void
cap_cgroups(struct cap *c)
{
	static const char *const v1[] = { "blkio", "memory", "unified" };
	char rel[64];
	size_t left = CG_MAX, i;
	int fd;

	/*
	 * The processes' cgroups come from the v2 hierarchy's cgroup.procs
	 * (the "0::" line of /proc/PID/cgroup, which the tools read first);
	 * without one, each process's file is read.
	 */
	cap_cgmap_free(c);
	c->cg_root = NULL;
	/* v2 alone: the whole tree.  v1 or hybrid: the hierarchies read. */
	if ((fd = ds_openat(&c->r, "sys/fs/cgroup/cgroup.controllers",
	    O_PATH)) >= 0) {
		close(fd);
		c->cg_root = "sys/fs/cgroup";
		walk(c, "sys/fs/cgroup", 0, &left);
		cgmap_sort(c);
		return;
	}
	if ((fd = ds_openat(&c->r,
	    "sys/fs/cgroup/unified/cgroup.controllers", O_PATH)) >= 0) {
		close(fd);
		c->cg_root = "sys/fs/cgroup/unified";
	}
	for (i = 0; i < sizeof(v1) / sizeof(v1[0]); i++) {
		snprintf(rel, sizeof(rel), "sys/fs/cgroup/%s", v1[i]);
		if (isdir(c, rel))
			walk(c, rel, 0, &left);
	}
	cgmap_sort(c);
	/* v1's tasks at the top of each read hierarchy (lib/cglimit.c). */
	(void)cap_copy(c, "sys/fs/cgroup/blkio/tasks");
}
