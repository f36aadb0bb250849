/*
 * ds_pids_read: ascending however the directory lists its entries (a
 * copied tree lists them in hash order; procfs in pid order, which is
 * then kept without a sort), names that are not pids left out.  And
 * ds_pids_parse: a list sorted, repeats dropped, a bad id named.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"

static int
ascending(const struct ds_pids *p)
{
	size_t i;

	for (i = 1; i < p->n; i++)
		if (p->pid[i - 1] > p->pid[i])
			return 0;
	return 1;
}

/* ds_pids_parse: a list of ids ("-p 12,340,5"). */
static void
test_parse(void)
{
	struct ds_pids pl = { 0 };
	char bad[32] = "";

	is_int(ds_pids_parse("30,10,,20,10", &pl, bad, sizeof(bad)), 0,
	    "pids: a list");
	ok(pl.n == 3 && pl.pid[0] == 10 && pl.pid[1] == 20 && pl.pid[2] == 30,
	    "pids: sorted, repeats dropped, empty items skipped");
	is_int(ds_pids_parse("5,30", &pl, bad, sizeof(bad)), 0, "pids: more");
	ok(pl.n == 4 && pl.pid[0] == 5 && pl.pid[3] == 30, "pids: added to");
	is_int(ds_pids_parse("7,x7,8", &pl, bad, sizeof(bad)), -EINVAL,
	    "pids: not an id");
	is_str(bad, "x7", "pids: the bad one named");
	is_int(ds_pids_parse("0", &pl, bad, sizeof(bad)), -EINVAL, "pids: 0");
	is_int(ds_pids_parse("2147483648", &pl, bad, sizeof(bad)), -EINVAL,
	    "pids: above INT_MAX");
	ds_pids_free(&pl);
	is_int(ds_pids_parse(",", &pl, bad, sizeof(bad)), -ENODATA,
	    "pids: none given");
	ds_pids_free(&pl);
}

int
main(void)
{
	/* Made in an order no directory keeps: not ascending. */
	static const int made[] = {
		907, 3, 2147483647, 45, 1, 100000, 12, 4194304, 600, 2, 99,
		31337, 8, 70, 5000, 11,
	};
	static const int want[] = {
		1, 2, 3, 8, 11, 12, 45, 70, 99, 600, 907, 5000, 31337, 100000,
		4194304, 2147483647,
	};
	static const char *const junk[] = {
		"self", "0", "01", "2147483648", "-5", "7x", "thread-self",
	};
	struct ds_pids p = { 0 };
	struct ds_root r;
	char top[256], path[512];
	size_t i;
	int same;

	snprintf(top, sizeof(top), "%s/proc-pids.XXXXXX",
	    getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/proc", top);
	mkdir(path, 0755);
	for (i = 0; i < sizeof(made) / sizeof(made[0]); i++) {
		snprintf(path, sizeof(path), "%s/proc/%d", top, made[i]);
		mkdir(path, 0755);
	}
	for (i = 0; i < sizeof(junk) / sizeof(junk[0]); i++) {
		snprintf(path, sizeof(path), "%s/proc/%s", top, junk[i]);
		mkdir(path, 0755);
	}
	ok(ds_root_open(&r, top) == 0, "tree opens");
	is_int(ds_pids_read(&r, "proc", &p), 0, "tree: read");
	is_int(p.n, sizeof(want) / sizeof(want[0]), "tree: every pid, no junk");
	same = p.n == sizeof(want) / sizeof(want[0]);
	for (i = 0; same && i < p.n; i++)
		same = p.pid[i] == want[i];
	ok(same, "tree: ascending, whatever the directory's order");
	/* Read again into the same list: reset, not appended. */
	is_int(ds_pids_read(&r, "proc", &p), 0, "tree: read again");
	is_int(p.n, sizeof(want) / sizeof(want[0]), "tree: same count again");
	is_int(ds_pids_read(&r, "proc/none", &p), -ENOENT, "missing dir");
	ds_root_close(&r);

	/* The live /proc: ascending, this process among them. */
	ok(ds_root_open(&r, "/") == 0, "live root opens");
	is_int(ds_pids_read(&r, "proc", &p), 0, "live: read");
	ok(p.n > 0 && ascending(&p), "live: ascending");
	same = 0;
	for (i = 0; i < p.n; i++)
		if (p.pid[i] == (int)getpid())
			same = 1;
	ok(same, "live: this process listed");
	ds_root_close(&r);
	ds_pids_free(&p);

	for (i = 0; i < sizeof(made) / sizeof(made[0]); i++) {
		snprintf(path, sizeof(path), "%s/proc/%d", top, made[i]);
		rmdir(path);
	}
	for (i = 0; i < sizeof(junk) / sizeof(junk[0]); i++) {
		snprintf(path, sizeof(path), "%s/proc/%s", top, junk[i]);
		rmdir(path);
	}
	snprintf(path, sizeof(path), "%s/proc", top);
	rmdir(path);
	rmdir(top);
	test_parse();
	return tap_done();
}
