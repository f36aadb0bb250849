/*
 * cmd/dwho/select.c: the processes a run reads (-p -u -c), on entries
 * made here and a small tree (etc/passwd).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dwho/dwho.h"
#include "tap.h"
#include "tree.h"

static struct ds_proc
entry(const char *comm, char *cmdline, uint32_t uid)
{
	struct ds_proc p;

	memset(&p, 0, sizeof(p));
	p.pid = 42;
	p.uid = uid;
	snprintf(p.comm, sizeof(p.comm), "%s", comm);
	p.comm_len = strlen(p.comm);
	p.cmdline = cmdline;
	p.cmdline_len = cmdline != NULL ? strlen(cmdline) : 0;
	return p;
}

static void
test_select(const struct ds_root *root)
{
	char cl[] = "/usr/bin/python3 backup.py", msg[256], bad[32];
	struct ds_proc py = entry("python3", cl, 1000);
	struct ds_proc kw = entry("kworker/0:1", NULL, 0);
	struct whosel s = { 0 }, none = { 0 };
	struct ds_users u = { 0 };

	ok(!whosel_any(&s), "zeroed: nothing selected");
	ok(whosel_keep(&s, &py) && whosel_keep(&s, &kw),
	    "zeroed: every entry kept");

	is_int(whosel_regex(&s, "^py", msg, sizeof(msg)), 0, "-c ^py");
	ok(whosel_any(&s), "-c: selected");
	ok(whosel_keep(&s, &py) && !whosel_keep(&s, &kw),
	    "-c ^py: comm python3 only");
	is_int(whosel_regex(&s, "backup", msg, sizeof(msg)), 0,
	    "-c backup replaces ^py");
	ok(!whosel_keep(&s, &py), "backup is not in comm");
	s.cmdline = 1;
	ok(whosel_keep(&s, &py), "-l: backup is in the command line");
	is_int(whosel_regex(&s, "^\\[kworker", msg, sizeof(msg)), 0,
	    "-c ^\\[kworker");
	ok(whosel_keep(&s, &kw), "-l: a kernel thread is [comm]");
	is_int(whosel_regex(&s, "a(b", msg, sizeof(msg)), -EINVAL,
	    "-c 'a(b': -EINVAL");
	ok(msg[0] != '\0', "with regerror's message: %s", msg);
	ok(s.re == NULL && whosel_keep(&s, &kw),
	    "the failed pattern selects nothing");
	s.cmdline = 0;

	whosel_user(&s, "1000");
	ok(s.have_uid && s.uid == 1000, "-u 1000: a uid");
	ok(whosel_keep(&s, &py) && !whosel_keep(&s, &kw),
	    "-u 1000: python3, not root's kworker");
	whosel_user(&s, "4294967296");
	ok(!s.have_uid, "-u 4294967296: too big for a uid, a name");
	whosel_user(&s, "4294967295");
	ok(s.have_uid && s.uid == 4294967295u, "-u 4294967295: a uid");
	whosel_user(&s, "0");
	ok(s.have_uid && s.uid == 0, "-u 0: root's uid");
	whosel_user(&s, "1.5");
	ok(!s.have_uid, "-u 1.5: a name");
	whosel_user(&s, " 12");
	ok(!s.have_uid, "-u ' 12': a name");
	whosel_user(&s, "99999999999999999999999");
	ok(!s.have_uid, "-u 99999999999999999999999: past any number, a name");
	whosel_user(&s, "4294967296");
	ok(!whosel_keep(&s, &py), "an unresolved name keeps nobody");
	is_int(whosel_uid(&s, &u, root), -ENOENT, "no such user: -ENOENT");
	whosel_user(&s, "backup");
	is_int(whosel_uid(&s, &u, root), 0, "backup in etc/passwd");
	ok(s.have_uid && s.uid == 1000, "backup is uid 1000");
	ok(whosel_keep(&s, &py), "-u backup keeps python3");
	is_int(whosel_uid(&s, &u, root), 0, "looked up once, then 0");

	is_int(ds_pids_parse("7,3", &s.pl, bad, sizeof(bad)), 0, "-p 7,3");
	ok(s.pl.n == 2 && s.pl.pid[0] == 3 && s.pl.pid[1] == 7, "-p: sorted");
	is_int(ds_pids_parse("3,x9", &s.pl, bad, sizeof(bad)), -EINVAL,
	    "-p 3,x9: -EINVAL");
	is_str(bad, "x9", "-p x9: the id that is none");
	ok(whosel_any(&s), "-p: selected");
	is_int(ds_pids_parse(",", &none.pl, bad, sizeof(bad)), -ENODATA,
	    "-p ,: -ENODATA");
	ok(!whosel_any(&none), "-p ,: nothing selected");
	whosel_free(&none);
	whosel_free(&s);
	ok(s.pl.pid == NULL && s.re == NULL && s.user == NULL &&
	    !whosel_any(&s), "freed: zeroed");
	ds_users_free(&u);
}

int
main(void)
{
	struct ds_root root;
	char cmd[300];

	snprintf(tree_top, sizeof(tree_top), "%s/dwho-select-unit.XXXXXX",
	    getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(tree_top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	tree_put("etc/passwd", "root:x:0:0:root:/root:/bin/sh\n"
	    "backup:x:1000:1000::/home/backup:/bin/sh\n");
	ok(ds_root_open(&root, tree_top) == 0, "root opens");
	test_select(&root);
	ds_root_close(&root);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tree_top);
	if (system(cmd) != 0)
		return 1;
	return tap_done();
}
