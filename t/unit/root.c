/* Root prefix and whole-file reading. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"

static void
put(const char *dir, const char *rel, const char *text)
{
	char p[4096];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	f = fopen(p, "w");
	if (f == NULL)
		return;
	fputs(text, f);
	fclose(f);
}

int
main(void)
{
	char dir[] = "/tmp/ds-unit-root.XXXXXX", p[4200];
	struct ds_root r;
	struct ds_buf b = { 0 };
	struct ds_diskstats s = { 0 };
	uint64_t ns;
	int fd;

	if (mkdtemp(dir) == NULL)
		return 1;
	snprintf(p, sizeof(p), "%s/proc", dir);
	mkdir(p, 0755);
	put(dir, "proc/uptime", "100.25 50.00\n");
	put(dir, "proc/diskstats", " 8 0 sda 1 2 3 4 5 6 7 8 9 10 11\n");

	is_int(ds_root_open(&r, dir), 0, "open root");
	ok(!r.live, "a tree is not live");
	is_int(ds_read_file(&r, "proc/uptime", &b), 0, "read relative");
	is_str(b.data, "100.25 50.00\n", "contents");
	is_int(ds_read_file(&r, "/proc/uptime", &b), 0, "leading / ignored");
	is_int(ds_uptime_ns(&r, &b, &ns), 0, "uptime of the tree");
	is_u64(ns, 100250000000ull, "tree's uptime, exact");
	is_int(ds_diskstats_read(&r, &b, &s), 0, "diskstats of the tree");
	is_int((int)s.n, 1, "one device");
	is_int(ds_read_file(&r, "proc/nothing", &b), -ENOENT, "missing file");
	is_int(ds_read_file(&r, "proc", &b), -EISDIR, "a directory");
	snprintf(p, sizeof(p), "%s/proc/fifo", dir);
	mkfifo(p, 0600);
	is_int(ds_read_file(&r, "proc/fifo", &b), 0,
	    "a FIFO does not hang (reads as empty)");
	is_int((int)b.len, 0, "FIFO gives nothing");
	put(dir, "proc/empty", "");
	is_int(ds_read_file(&r, "proc/empty", &b), 0, "empty file");
	is_int((int)b.len, 0, "empty");
	snprintf(p, sizeof(p), "%s/proc/uptime", dir);
	unlink(p);
	is_int(ds_uptime_ns(&r, &b, &ns), -ENOENT,
	    "a tree without proc/uptime is an error");
	ds_root_close(&r);

	/* $DISKSTAT_ROOT is the default, an argument wins. */
	setenv("DISKSTAT_ROOT", dir, 1);
	is_int(ds_root_open(&r, NULL), 0, "root from environment");
	ok(!r.live, "environment root is a tree");
	ds_root_close(&r);
	setenv("DISKSTAT_ROOT", "", 1);
	is_int(ds_root_open(&r, NULL), 0, "empty environment");
	ok(r.live, "empty DISKSTAT_ROOT means /");
	ds_root_close(&r);
	unsetenv("DISKSTAT_ROOT");
	is_int(ds_root_open(&r, "/"), 0, "live root");
	ok(r.live, "/ is live");
	fd = ds_openat(&r, "proc/self/stat", O_RDONLY);
	ok(fd >= 0, "open below live root");
	if (fd >= 0)
		close(fd);
	ds_root_close(&r);
	is_int(ds_root_open(&r, "/nonexistent/tree"), -ENOENT, "missing root");

	/* Big file: the buffer grows past many pages. */
	{
		char *big = malloc(300000);
		memset(big, 'x', 299999);
		big[299999] = '\0';
		put(dir, "proc/big", big);
		ds_root_open(&r, dir);
		is_int(ds_read_file(&r, "proc/big", &b), 0, "large file");
		is_int((int)b.len, 299999, "all of it");
		ds_root_close(&r);
		free(big);
	}
	/*
	 * Issue 15, 1: a tree's symlinks resolve inside it.  out/ is
	 * beside the root, holding a victim; in/ is the root.
	 */
	{
		char top[] = "/tmp/ds-unit-escape.XXXXXX", q[200], t[600];
		struct stat st;
		long n;

		if (mkdtemp(top) == NULL)
			return 1;
		snprintf(q, sizeof(q), "%s/in/proc", top);
		snprintf(t, sizeof(t), "mkdir -p %s %s/out/proc %s/in/d", q,
		    top, top);
		ok(system(t) == 0, "trees made");
		snprintf(q, sizeof(q), "%s/out", top);
		put(q, "proc/victim", "victim\n");
		snprintf(q, sizeof(q), "%s/in", top);
		put(q, "proc/own", "own\n");
		snprintf(t, sizeof(t), "%s/out/proc/victim", top);
		snprintf(q, sizeof(q), "%s/in/proc/abs", top);
		ok(symlink(t, q) == 0, "proc/abs -> the victim, absolute");
		snprintf(q, sizeof(q), "%s/in/proc/rel", top);
		ok(symlink("../../out/proc/victim", q) == 0,
		    "proc/rel -> ../../out/proc/victim");
		snprintf(q, sizeof(q), "%s/in/proc/inside", top);
		ok(symlink("/proc/own", q) == 0, "proc/inside -> /proc/own");
		snprintf(q, sizeof(q), "%s/in/d/up", top);
		ok(symlink("../proc", q) == 0, "d/up -> ../proc");
		snprintf(q, sizeof(q), "%s/in/d", top);
		put(q, "f", "f\n");
		snprintf(q, sizeof(q), "%s/in/d/l", top);
		ok(symlink("f", q) == 0, "d/l -> f");
		snprintf(q, sizeof(q), "%s/in", top);
		is_int(ds_root_open(&r, q), 0, "root in/");
		is_int(ds_read_file(&r, "proc/abs", &b), -ENOENT,
		    "absolute symlink: taken inside the root, not the victim");
		is_int(ds_read_file(&r, "proc/rel", &b), -ENOENT,
		    "climbing symlink: stopped at the root");
		is_int(ds_read_file(&r, "proc/inside", &b), 0,
		    "absolute symlink to a file of the tree: read");
		is_str(b.data, "own\n", "... its contents");
		is_int(ds_read_file(&r, "d/up/own", &b), 0,
		    "a relative symlink inside the tree: followed");
		fd = ds_openat(&r, "d", O_PATH | O_DIRECTORY);
		ok(fd >= 0, "d opened");
		is_int(ds_openat_in(&r, fd, "l", O_RDONLY) >= 0, 1,
		    "from below, a link staying beneath: followed");
		is_int(ds_openat_in(&r, fd, "../proc/own", O_RDONLY), -EXDEV,
		    "from below, .. above the directory: -EXDEV");
		close(fd);
		n = ds_readlink_in(&r, r.fd, "proc/abs", t, sizeof(t));
		ok(n > 0 && strncmp(t, top, strlen(top)) == 0,
		    "readlink of a link in the tree: its text");
		is_int(ds_fstatat_in(&r, r.fd, "proc/abs", &st), -ENOENT,
		    "stat through the link: not the victim");
		ds_root_close(&r);
		/* Without openat2: no symlink, no "..". */
		snprintf(q, sizeof(q), "%s/in", top);
		fd = open(q, O_PATH | O_DIRECTORY);
		is_int(ds_openat_walk(fd, "proc/abs", O_RDONLY), -ELOOP,
		    "walk: a symlink last: -ELOOP");
		is_int(ds_openat_walk(fd, "d/up/own", O_RDONLY), -ELOOP,
		    "walk: a symlink on the way: -ELOOP");
		is_int(ds_openat_walk(fd, "proc/../proc/own", O_RDONLY), -EXDEV,
		    "walk: ..: -EXDEV");
		n = ds_openat_walk(fd, "proc//own", O_RDONLY);
		ok(n >= 0, "walk: a plain path opens");
		if (n >= 0)
			close((int)n);
		close(fd);
		snprintf(t, sizeof(t), "rm -rf '%s'", top);
		ok(system(t) == 0, "removed");
	}
	ds_buf_free(&b);
	ds_diskstats_free(&s);
	snprintf(p, sizeof(p), "rm -rf '%s'", dir);
	if (system(p) != 0)
		return 1;
	return tap_done();
}
