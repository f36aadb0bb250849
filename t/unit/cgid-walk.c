/*
 * ds_cgids_read names cgroup ids (the inode numbers of the v2
 * hierarchy's directories) by their paths, on a tree below a root; an
 * id the walk did not see is NULL; a cgroup removed since the last read
 * keeps its name.  ds_parse_duration, -t's parser (dpsi --wait's).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"

static uint64_t
ino(const char *top, const char *rel)
{
	char p[4096];
	struct stat st;

	snprintf(p, sizeof(p), "%s/sys/fs/cgroup%s", top, rel);
	return stat(p, &st) == 0 ? (uint64_t)st.st_ino : 0;
}

static void
durations(void)
{
	uint64_t us = 0;

	is_int(ds_parse_duration("100ms", 5, &us), 0, "100ms parses");
	is_u64(us, 100000, "100ms is 100000 us");
	is_int(ds_parse_duration("2s", 2, &us), 0, "2s parses");
	is_u64(us, 2000000, "2s is 2000000 us");
	is_int(ds_parse_duration("500us", 5, &us), 0, "500us parses");
	is_u64(us, 500, "500us is 500 us");
	is_int(ds_parse_duration("1.5ms", 5, &us), 0, "1.5ms parses");
	is_u64(us, 1500, "1.5ms is 1500 us");
	is_int(ds_parse_duration("100", 3, &us), -EINVAL, "no unit: -EINVAL");
	is_int(ds_parse_duration("-1s", 3, &us), -EINVAL, "negative: -EINVAL");
	is_int(ds_parse_duration("ms", 2, &us), -EINVAL, "no number: -EINVAL");
	is_int(ds_parse_duration("99999999999999999999s", 21, &us), -EINVAL,
	    "absurd: -EINVAL");
}

int
main(void)
{
	char top[] = "/tmp/cgid-walk.XXXXXX", p[4096];
	struct ds_root r;
	struct ds_cgids c = { 0 };
	uint64_t gone;

	durations();
	if (mkdtemp(top) == NULL)
		return skip_all("mkdtemp");
	snprintf(p, sizeof(p), "mkdir -p %s/sys/fs/cgroup/a/b %s/sys/fs/cgroup/c",
	    top, top);
	if (system(p) != 0)
		return skip_all("mkdir");
	is_int(ds_root_open(&r, top), 0, "a root");
	is_int(ds_cgids_read(&r, &c), 0, "the tree read");
	is_u64(c.n, 4, "four cgroups: the top, a, a/b, c");
	is_str(ds_cgids_find(&c, ino(top, "")), "/", "the top's id is /");
	is_str(ds_cgids_find(&c, ino(top, "/a/b")), "/a/b", "a/b's id is /a/b");
	is_str(ds_cgids_find(&c, ino(top, "/c")), "/c", "c's id is /c");
	ok(ds_cgids_find(&c, 0xfffffffffffull) == NULL, "an id not seen: NULL");
	gone = ino(top, "/c");
	snprintf(p, sizeof(p), "mkdir %s/sys/fs/cgroup/d && rmdir %s/sys/fs/cgroup/c",
	    top, top);
	ok(system(p) == 0, "c removed, d made");
	is_int(ds_cgids_read(&r, &c), 0, "read again");
	is_str(ds_cgids_find(&c, ino(top, "/d")), "/d", "the new cgroup named");
	is_str(ds_cgids_find(&c, gone), "/c", "the removed one keeps its name");
	ds_cgids_free(&c);
	ds_root_close(&r);
	snprintf(p, sizeof(p), "rm -rf %s", top);
	ok(system(p) == 0, "cleaned up");
	return tap_done();
}
