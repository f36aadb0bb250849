/*
 * cmd/dpsi/arm.c: opening a trigger's file and arming it, and what each
 * failure means.  A made-up tree: a regular file is no kernel trigger
 * (sample instead), a missing file means PSI is off (or, in a cgroup,
 * the cgroup gone or its accounting off), any other errno is an error
 * naming the file; a trigger this process may not set is said with its
 * spec.  Arming: /dev/full's ENOSPC is an error, oom_score_adj's EINVAL
 * is the kernel refusing (sample instead, the file closed).  The live
 * /proc/pressure/io, where there is one, opens and arms.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "dpsi/dpsi.h"
#include "tap.h"
#include "tree.h"

static void
test_open(void)
{
	static const char io[] =
	    "some avg10=0.00 avg60=0.00 avg300=0.00 total=100\n";
	struct ds_psi_trigger tr = { DS_PSI_IO, DS_PSI_SOME, 150000, 2000000 };
	struct dpsi_arming a;
	char *b = NULL;
	struct ds_root r;
	int fd = 7, cg;

	tree_put("proc", NULL);
	tree_put("proc/pressure", NULL);
	tree_put("proc/pressure/io", io);
	tree_put("proc/pressure/cpu", NULL);
	tree_put("cg", NULL);
	tree_put("cg/off", NULL);
	tree_put("cg/off/cgroup.procs", "");
	tree_put("cg/gone", NULL);
	tree_put("cg/odd", NULL);
	tree_put("cg/odd/io.pressure", NULL);
	ds_root_open(&r, tree_top);
	a = (struct dpsi_arming){ &r, -1, NULL, &tr, "io:some:150ms/2s" };

	is_int(dpsi_arm_open(&a, &fd, &b), DS_PSI_NOTKERNEL,
	    "a regular file: not the kernel's, sample");
	is_int(fd, -1, "not the kernel's: no fd");
	tr.res = DS_PSI_MEMORY;
	is_int(dpsi_arm_open(&a, &fd, &b), -ENOENT, "no file: ENOENT");
	is_str(b, "proc/pressure/memory: PSI is disabled in this kernel: "
	    "boot with psi=1 (or build with CONFIG_PSI=y)", "no file: PSI off");
	tr.res = DS_PSI_CPU;
	is_int(dpsi_arm_open(&a, &fd, &b), -EISDIR, "a directory: EISDIR");
	is_str(b, "proc/pressure/cpu: Is a directory",
	    "another errno: the file named");

	tr.res = DS_PSI_IO;
	a.dirfd = cg = tree_open("cg/off");
	a.top = "/off";
	is_int(dpsi_arm_open(&a, &fd, &b), -ENODEV,
	    "cgroup without the file: accounting off");
	is_str(b, "cgroup /off: pressure accounting is off for this "
	    "cgroup: echo 1 > cgroup.pressure", "accounting off: says how");
	close(cg);
	a.dirfd = cg = tree_open("cg/gone");
	a.top = "/gone";
	is_int(dpsi_arm_open(&a, &fd, &b), -ENOENT,
	    "cgroup without cgroup.procs: gone");
	ok(strncmp(b, "cgroup /gone: no pressure files: the cgroup is "
	    "gone", 49) == 0, "gone: %s", b);
	close(cg);
	a.dirfd = cg = tree_open("cg/odd");
	a.top = "/odd";
	is_int(dpsi_arm_open(&a, &fd, &b), -EISDIR, "cgroup: EISDIR");
	is_str(b, "io.pressure: Is a directory", "cgroup: the file named");
	close(cg);
	is_int(fd, -1, "errors: no fd");
	ds_root_close(&r);
	free(b);
}

static void
test_arm(void)
{
	struct ds_psi_trigger tr = { DS_PSI_IO, DS_PSI_SOME, 150000, 2000000 };
	struct dpsi_arming a = { NULL, -1, NULL, &tr, "io:some:150ms/2s" };
	struct ds_buf why = { 0 };
	char *b = NULL;
	int fd;

	if ((fd = open("/dev/full", O_WRONLY | O_CLOEXEC)) < 0) {
		skip("ENOSPC: an error", "no /dev/full");
	} else {
		is_int(dpsi_arm(&a, &fd, &b), -ENOSPC, "ENOSPC: an error");
		is_str(b, "io:some:150ms/2s: arming the trigger: No space "
		    "left on device", "an error: said with the spec");
		is_int(fd, -1, "an error: closed");
	}
	/* The trigger is no number: EINVAL, as kernels before 5.2 say. */
	if ((fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC)) < 0) {
		skip("EINVAL: the kernel refused",
		    "no /proc/self/oom_score_adj");
	} else {
		free(b);
		b = NULL;
		is_int(dpsi_arm(&a, &fd, &b), DS_PSI_REFUSED,
		    "EINVAL: the kernel refused, sample");
		is_int(fd, -1, "refused: closed");
		ok(b == NULL, "refused: no message");
		ds_psi_fallback_msg(DS_PSI_REFUSED, &why);
		is_str(why.data, "the kernel refused the trigger (no triggers "
		    "before 5.2)", "refused: why");
	}
	ds_buf_free(&why);
	free(b);
}

static void
test_live(void)
{
	struct ds_psi_trigger tr = { DS_PSI_IO, DS_PSI_SOME, 150000, 2000000 };
	struct dpsi_arming a = { NULL, -1, NULL, &tr, "io:some:150ms/2s" };
	char *b = NULL;
	struct ds_root r;
	int fd, e;

	ds_root_open(&r, "/");
	a.r = &r;
	if (access("/proc/pressure/io", W_OK) != 0) {
		skip("live", "no writable /proc/pressure/io");
		ds_root_close(&r);
		return;
	}
	/* The window's range is checked for anyone, before the kernel. */
	tr.window_us = 20000000;
	is_int(dpsi_arm_open(&a, &fd, &b), -ERANGE, "live: 20 s window");
	is_str(b, "io:some:150ms/2s: the window must be 500ms to 10s",
	    "live: said with the spec");
	is_int(fd, -1, "live: closed");
	tr.window_us = 2000000;
	e = dpsi_arm_open(&a, &fd, &b);
	is_int(e, 0, "live: opened");
	ok(fd >= 0, "live: an fd");
	if (e == 0) {
		is_int(dpsi_arm(&a, &fd, &b), 0, "live: armed");
		ok(fd >= 0, "live: still open");
		is_int(dpsi_arm(&a, &fd, &b), -EBUSY, "live: armed twice");
		is_str(b, "io:some:150ms/2s: a trigger is already armed on "
		    "this file (one per open file)", "twice: said");
		is_int(fd, -1, "twice: closed");
	}
	ds_root_close(&r);
	free(b);
}

int
main(void)
{
	tree_make("psiarm-unit");
	test_open();
	test_arm();
	test_live();
	if (tree_remove() < 0)
		return 1;
	return tap_done();
}
