/*
 * A cgroup opened by its path: the path made one way ("/" or "/a/b"),
 * and its directory opened below the cgroup v2 mount.
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
    char *mnt, size_t size)
{
	struct ds_mount m;
	int e;

	mnt[0] = '\0';
	if ((*top = ds_cgroup_path_top(path)) == NULL)
		return -ENOMEM;
	/* The v2 hierarchy is wherever the mount table says. */
	if ((e = ds_cgroup2_mount(r, mnt, size)) < 0) {
		mnt[0] = '\0';
		return e;
	}
	memset(&m, 0, sizeof(m));
	m.mnt = mnt;
	return ds_cgroup_open(r, &m, *top);
}
