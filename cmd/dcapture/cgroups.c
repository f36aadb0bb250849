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
		    files[i]) < sizeof(rel))
			(void)cap_copy(c, rel);
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

	/* v2 alone: the whole tree.  v1 or hybrid: the hierarchies read. */
	if ((fd = ds_openat(&c->r, "sys/fs/cgroup/cgroup.controllers",
	    O_PATH)) >= 0) {
		close(fd);
		walk(c, "sys/fs/cgroup", 0, &left);
		return;
	}
	for (i = 0; i < sizeof(v1) / sizeof(v1[0]); i++) {
		snprintf(rel, sizeof(rel), "sys/fs/cgroup/%s", v1[i]);
		if (isdir(c, rel))
			walk(c, rel, 0, &left);
	}
	/* v1's tasks at the top of each read hierarchy (lib/cglimit.c). */
	(void)cap_copy(c, "sys/fs/cgroup/blkio/tasks");
}
