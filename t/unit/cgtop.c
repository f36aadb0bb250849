/*
 * lib/cgtop.c: a cgroup's path made one way ("/", "/a/b": leading and
 * trailing slashes dropped, the inside left alone), and the cgroup
 * opened below the v2 mount of a made-up tree's mount table, with what
 * a message needs on each failure (no cgroup2 mount, an unreadable
 * table: no mount point; ".." out of the hierarchy, no such cgroup: the
 * path and the mount point).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"
#include "tree.h"

static void
path_is(const char *in, const char *want)
{
	char *got = ds_cgroup_path_top(in);

	is_str(got, want, in != NULL ? in : "(null)");
	free(got);
}

static void
test_path(void)
{
	path_is(NULL, "/");
	path_is("", "/");
	path_is("/", "/");
	path_is("///", "/");
	path_is("a", "/a");
	path_is("/a/b/", "/a/b");
	path_is("a/b//", "/a/b");
	path_is("//a//b", "/a//b");
	path_is("a/../b", "/a/../b");
}

static void
test_open(void)
{
	struct ds_root r;
	char *top = (char *)"x", p[320], mnt[256];
	int fd;

	tree_put("proc", NULL);
	tree_put("proc/self", NULL);
	tree_put("proc/self/mountinfo",
	    "22 1 0:20 / /sys/fs/cgroup rw - tmpfs tmpfs rw\n"
	    "23 22 0:21 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n");
	tree_put("sys", NULL);
	tree_put("sys/fs", NULL);
	tree_put("sys/fs/cgroup", NULL);
	tree_put("sys/fs/cgroup/unified", NULL);
	tree_put("sys/fs/cgroup/unified/a", NULL);
	tree_put("sys/fs/cgroup/unified/a/b", NULL);
	tree_put("sys/fs/cgroup/unified/a/b/io.pressure", "");
	ds_root_open(&r, tree_top);

	fd = ds_cgroup_top_open(&r, "a/b/", &top, mnt, sizeof(mnt));
	ok(fd >= 0, "a/b/: opened");
	is_str(top, "/a/b", "a/b/: its path");
	ok(fd >= 0 && faccessat(fd, "io.pressure", F_OK, 0) == 0,
	    "a/b/: the directory below the cgroup2 mount, not the tmpfs");
	if (fd >= 0)
		close(fd);
	free(top);
	fd = ds_cgroup_top_open(&r, NULL, &top, mnt, sizeof(mnt));
	ok(fd >= 0 && top != NULL && strcmp(top, "/") == 0, "NULL: the top");
	if (fd >= 0)
		close(fd);
	free(top);

	is_int(ds_cgroup_top_open(&r, "nope", &top, mnt, sizeof(mnt)),
	    -ENOENT, "missing");
	is_str(top, "/nope", "missing: the path kept for a message");
	is_str(mnt, "/sys/fs/cgroup/unified", "missing: the mount point");
	free(top);
	is_int(ds_cgroup_top_open(&r, "a/../../..", &top, mnt, sizeof(mnt)),
	    -EINVAL, "..");
	ok(top != NULL && strcmp(top, "/a/../../..") == 0 && mnt[0] == '/',
	    "..: refused below the mount, the path kept");
	free(top);

	tree_put("proc/self/mountinfo",
	    "22 1 0:20 / /sys/fs/cgroup rw - tmpfs tmpfs rw\n");
	is_int(ds_cgroup_top_open(&r, "a", &top, mnt, sizeof(mnt)), -ENOENT,
	    "no cgroup2");
	is_str(mnt, "", "no cgroup2: no mount point, the table's error");
	free(top);
	snprintf(p, sizeof(p), "%s/proc/self/mountinfo", tree_top);
	unlink(p);
	tree_put("proc/self/mountinfo", NULL);
	is_int(ds_cgroup_top_open(&r, "a", &top, mnt, sizeof(mnt)), -EISDIR,
	    "a table that is a directory");
	is_str(mnt, "", "unreadable table: no mount point");
	free(top);
	ds_root_close(&r);
}

int
main(void)
{
	tree_make("cgtop-unit");
	test_path();
	test_open();
	if (tree_remove() < 0)
		return 1;
	return tap_done();
}
