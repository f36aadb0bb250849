/*
 * The cgroup a tool is pointed at (dpsi -c PATH): its path made one
 * way ("/" or "/a/b"), and its directory opened below the cgroup v2
 * mount, with a sentence for each way that fails.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

char *
ds_cgroup_path_top(const char *path)
{
	const char *p = path != NULL ? path : "";
	char *top;
	size_t i;

	while (*p == '/')
		p++;
	if ((top = malloc(strlen(p) + 2)) == NULL)
		return NULL;
	top[0] = '/';
	strcpy(top + 1, p);
	/* "/a/b/" and "/a/b" are one cgroup. */
	for (i = strlen(top); i > 1 && top[i - 1] == '/'; i--)
		top[i - 1] = '\0';
	return top;
}

int
ds_cgroup_top_open(const struct ds_root *r, const char *path, char **top,
    struct ds_buf *out)
{
	struct ds_mount m;
	char mnt[4096];
	int e, fd;

	*top = NULL;
	/* The v2 hierarchy is wherever the mount table says. */
	if ((e = ds_cgroup2_mount(r, mnt, sizeof(mnt))) == -ENOENT) {
		ds_buf_printf(out, "proc/self/mountinfo: no cgroup2 mount "
		    "(no cgroup v2 hierarchy to read)");
		return e;
	}
	if (e < 0) {
		ds_buf_printf(out, "proc/self/mountinfo: %s", strerror(-e));
		return e;
	}
	memset(&m, 0, sizeof(m));
	m.mnt = mnt;
	if ((*top = ds_cgroup_path_top(path)) == NULL) {
		out->len = 0;
		return -ENOMEM;
	}
	if ((fd = ds_cgroup_open(r, &m, *top)) == -EINVAL)
		ds_buf_printf(out, "cgroup %s: \"..\" leaves the hierarchy",
		    *top);
	else if (fd < 0)
		ds_buf_printf(out, "cgroup %s (under %s): %s", *top, mnt,
		    strerror(-fd));
	if (fd < 0) {
		free(*top);
		*top = NULL;
	}
	return fd;
}
