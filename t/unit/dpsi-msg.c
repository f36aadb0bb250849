/*
 * cmd/dpsi/msg.c: the message for each kind of note a sample makes, for
 * a trigger that does not parse or check, for what ends a report after
 * a sample (each errno of ds_psi_sample_read with the flags that change
 * its meaning), for a trigger's line that is not there, and for a
 * cgroup that cannot be opened (no cgroup2 mount, an unreadable table,
 * ".." out of the hierarchy, no such cgroup).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "dpsi/dpsi.h"
#include "tap.h"
#include "tree.h"

static void
test_notes(void)
{
	char *b = NULL;
	struct ds_psi_note n;

	n = (struct ds_psi_note){ NULL, DS_PSI_IO, 0,
	    { 1, 7, DS_PSI_WHY_MISSING, 3 } };
	is_int(dpsi_note_msg(&n, &b), 1, "malformed line: a message");
	is_str(b, "proc/pressure/io: line 7: no total (1 line skipped)",
	    "malformed line: the line and why");
	n = (struct ds_psi_note){ NULL, DS_PSI_IO, 0,
	    { 3, 2, DS_PSI_WHY_REPEAT, 0 } };
	dpsi_note_msg(&n, &b);
	is_str(b, "proc/pressure/io: line 2: a second line of its kind "
	    "(3 lines skipped)", "three bad lines: the first, the count");
	n = (struct ds_psi_note){ "/a", DS_PSI_MEMORY, -EINVAL,
	    { 2, 1, DS_PSI_WHY_TWICE, 0 } };
	dpsi_note_msg(&n, &b);
	is_str(b, "cgroup /a: memory.pressure: line 1: avg10 twice (2 lines "
	    "skipped, no line to report)", "no good line: the first, the count");
	n = (struct ds_psi_note){ "/a", DS_PSI_MEMORY, -EINVAL,
	    { 1, 1, DS_PSI_WHY_DECIMALS, 1 } };
	dpsi_note_msg(&n, &b);
	is_str(b, "cgroup /a: memory.pressure: line 1: avg60 has more "
	    "decimals than the kernel prints (1 line skipped, no line to "
	    "report)",
	    "the one line bad");
	n = (struct ds_psi_note){ "/a", DS_PSI_MEMORY, -EINVAL, { 0 } };
	dpsi_note_msg(&n, &b);
	is_str(b, "cgroup /a: memory.pressure: malformed, no line to "
	    "report", "nothing to report");
	n = (struct ds_psi_note){ NULL, DS_PSI_IRQ, -ENOENT, { 0 } };
	dpsi_note_msg(&n, &b);
	is_str(b, "proc/pressure/irq: not in this kernel (6.1+ with "
	    "CONFIG_IRQ_TIME_ACCOUNTING)", "no irq");
	n = (struct ds_psi_note){ "/a", DS_PSI_IO, -ENODEV, { 0 } };
	dpsi_note_msg(&n, &b);
	is_str(b, "cgroup /a: io.pressure: pressure accounting is off "
	    "for this cgroup: echo 1 > cgroup.pressure", "accounting off");
	n = (struct ds_psi_note){ NULL, DS_PSI_CPU, -EOPNOTSUPP, { 0 } };
	dpsi_note_msg(&n, &b);
	is_str(b, "proc/pressure/cpu: PSI is disabled in this kernel: "
	    "boot with psi=1", "PSI off");
	n = (struct ds_psi_note){ NULL, DS_PSI_IO, -EACCES, { 0 } };
	dpsi_note_msg(&n, &b);
	is_str(b, "proc/pressure/io: Permission denied", "an errno");
	n = (struct ds_psi_note){ "/deep", -1, -ELOOP, { 0 } };
	dpsi_note_msg(&n, &b);
	ok(strncmp(b, "cgroup /deep: subtree skipped: nested deeper "
	    "than ", 45) == 0, "too deep: %s", b);
	n = (struct ds_psi_note){ "/x", -1, -EMFILE, { 0 } };
	dpsi_note_msg(&n, &b);
	is_str(b, "cgroup /x: subtree skipped: Too many open files",
	    "a subtree left out");
	/* After the longer message of the note before. */
	is_int((int)strlen(b), (int)sizeof("cgroup /x: subtree skipped: Too "
	    "many open files") - 1, "replaced, not appended");
	free(b);
}

static void
test_trigger(void)
{
	char *b = NULL;
	struct ds_psi_trigger t;

	is_int(dpsi_trigger_msg("io:some:150ms/2s", &t, &b), 0, "fine");
	ok(t.res == DS_PSI_IO && t.kind == DS_PSI_SOME &&
	    t.stall_us == 150000 && t.window_us == 2000000, "parsed");
	is_int(dpsi_trigger_msg("disk:some:1s/2s", &t, &b), 1, "bad part");
	ok(strncmp(b, "resource 'disk': ", 17) == 0, "names it: %s",
	    b);
	is_int(dpsi_trigger_msg("io", &t, &b), 1, "bad shape");
	is_str(b, "not RESOURCE:KIND:STALL/WINDOW (e.g. io:some:150ms/2s)",
	    "shape: why");
	is_int(dpsi_trigger_msg("io:some:3s/2s", &t, &b), 1, "stall > win");
	is_str(b, "the stall must be more than 0 and at most the window",
	    "the check's message");
	is_int(dpsi_trigger_msg("io:some:1s/3s", &t, &b), 0,
	    "privileged: any window in range");
	free(b);
}

static void
test_fatal(void)
{
	struct ds_psi_sample s = { 0 };
	struct ds_psi_src src;
	char *b = NULL;
	struct ds_psi_note n = { NULL, DS_PSI_IO, -EOPNOTSUPP, { 0 } };

	memset(&src, 0, sizeof(src));
	src.topfd = -1;
	is_int(dpsi_sample_fatal(&src, &s, 0, 0, &b), 0, "0: a report");
	is_int(dpsi_sample_fatal(&src, &s, -ENOENT, 0, &b), 1,
	    "system, ENOENT: ends");
	is_str(b, "proc/pressure: PSI is disabled in this kernel: boot "
	    "with psi=1 (or build with CONFIG_PSI=y)", "no proc/pressure");
	is_int(dpsi_sample_fatal(&src, &s, -ENODATA, 0, &b), 1,
	    "ENODATA: ends");
	is_str(b, "proc/pressure: no pressure files", "no files");
	is_int(dpsi_sample_fatal(&src, &s, -ENODATA, 1, &b), 0,
	    "ENODATA after a warning: the warning said it");
	src.explicit = 1;
	is_int(dpsi_sample_fatal(&src, &s, -ENODATA, 0, &b), 0,
	    "ENODATA with -r: each file noted");
	src.explicit = 0;
	is_int(dpsi_sample_fatal(&src, &s, -EACCES, 0, &b), 0,
	    "system, another errno: noted, a report");
	is_int(dpsi_sample_fatal(&src, &s, -ENOMEM, 0, &b), -ENOMEM,
	    "ENOMEM");
	ok(b == NULL, "ENOMEM: no message (the one before freed)");

	/* PSI off: the last note is the message. */
	s.note = &n;
	s.nnote = 1;
	is_int(dpsi_sample_fatal(&src, &s, -EOPNOTSUPP, 0, &b), 1,
	    "EOPNOTSUPP: ends");
	is_str(b, "proc/pressure/io: PSI is disabled in this kernel: "
	    "boot with psi=1", "EOPNOTSUPP: the note's message");
	s.note = NULL;
	s.nnote = 0;

	/* A cgroup (-c): gone, accounting off, or another errno. */
	src.topfd = 3;
	src.top = "/a";
	is_int(dpsi_sample_fatal(&src, &s, -ENOENT, 0, &b), 1,
	    "cgroup ENOENT: ends");
	ok(strncmp(b, "cgroup /a: no pressure files: the cgroup is "
	    "gone", 43) == 0, "cgroup gone: %s", b);
	dpsi_sample_fatal(&src, &s, -ENODEV, 0, &b);
	is_str(b, "cgroup /a: pressure accounting is off for this "
	    "cgroup: echo 1 > cgroup.pressure", "cgroup accounting off");
	dpsi_sample_fatal(&src, &s, -EACCES, 0, &b);
	is_str(b, "cgroup /a: Permission denied", "cgroup: an errno");
	is_int(dpsi_sample_fatal(&src, &s, -ENODEV, 1, &b), 0,
	    "cgroup after a warning: said");
	/* A walk (-C): any error ends it, warned or not. */
	src.all = 1;
	is_int(dpsi_sample_fatal(&src, &s, -EMFILE, 1, &b), 1,
	    "walk: an error ends");
	is_str(b, "cgroup /a: Too many open files", "walk: the errno");
	is_int(dpsi_sample_fatal(&src, &s, 0, 0, &b), 0,
	    "walk: nothing below the top is an empty report");
	free(b);
}

static void
test_noline(void)
{
	struct ds_psi_trigger tr = { DS_PSI_IO, DS_PSI_FULL, 100000, 1000000 };
	struct ds_psi_sample s = { 0 };
	struct ds_psi_cg *c;
	char *b = NULL;

	is_int(dpsi_noline_msg(&s, &tr, NULL, &b), 1, "empty sample: no line");
	is_str(b, "io full: no such line in proc/pressure/io",
	    "the system's file named");
	/* The system with its io lines, some and full. */
	if ((c = ds_psi_sample_add(&s, NULL, NULL)) == NULL) {
		perror("ds_psi_sample_add");
		exit(1);
	}
	c->ok = 1u << DS_PSI_IO;
	c->p[DS_PSI_IO].have = 3;
	is_int(dpsi_noline_msg(&s, &tr, NULL, &b), 0, "io full: there");
	tr.res = DS_PSI_CPU;
	tr.kind = DS_PSI_SOME;
	is_int(dpsi_noline_msg(&s, &tr, "/a", &b), 1, "cpu some: not read");
	is_str(b, "cpu some: no such line in cgroup /a",
	    "the cgroup named");
	ds_psi_sample_free(&s);
	free(b);
}

static void
test_top(void)
{
	struct ds_root r;
	char *top = NULL, *b = NULL, p[320];

	tree_put("proc", NULL);
	tree_put("proc/self", NULL);
	tree_put("proc/self/mountinfo",
	    "23 1 0:21 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n");
	tree_put("sys", NULL);
	tree_put("sys/fs", NULL);
	tree_put("sys/fs/cgroup", NULL);
	tree_put("sys/fs/cgroup/unified", NULL);
	tree_put("sys/fs/cgroup/unified/a", NULL);
	ds_root_open(&r, tree_top);

	is_int(dpsi_top_open(&r, "nope", &top, &b), -ENOENT, "missing");
	ok(top == NULL, "missing: no path kept");
	is_str(b, "cgroup /nope (under /sys/fs/cgroup/unified): No such "
	    "file or directory", "missing: path and mount");
	dpsi_top_open(&r, "a/../../..", &top, &b);
	is_str(b, "cgroup /a/../../..: \"..\" leaves the hierarchy",
	    "..: refused");
	tree_put("proc/self/mountinfo",
	    "22 1 0:20 / /sys/fs/cgroup rw - tmpfs tmpfs rw\n");
	dpsi_top_open(&r, "a", &top, &b);
	is_str(b, "proc/self/mountinfo: no cgroup2 mount (no cgroup v2 "
	    "hierarchy to read)", "no cgroup2: says so");
	snprintf(p, sizeof(p), "%s/proc/self/mountinfo", tree_top);
	unlink(p);
	tree_put("proc/self/mountinfo", NULL);
	is_int(dpsi_top_open(&r, "a", &top, &b), -EISDIR,
	    "a table that is a directory");
	is_str(b, "proc/self/mountinfo: Is a directory",
	    "unreadable table: the errno");
	ds_root_close(&r);
	free(b);
}

int
main(void)
{
	tree_make("dpsi-msg-unit");
	test_notes();
	test_trigger();
	test_fatal();
	test_noline();
	test_top();
	if (tree_remove() < 0)
		return 1;
	return tap_done();
}
