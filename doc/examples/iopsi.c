/*
 * iopsi [root]: the share of the last second in which some task, and
 * in which every task, was stalled on I/O (the kernel's pressure stall
 * information), as percentages; "-" for a kernel without a "full" line.
 * The root is "/" or a captured tree of /proc.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <diskstat.h>

/* A library error as "iopsi: /proc/pressure/io: No such file ...". */
static int
fail(const char *root, const char *rel, int e)
{
	fprintf(stderr, "iopsi: %s%s%s: %s\n", strcmp(root, "/") == 0 ? "" :
	    root, *rel != '\0' ? "/" : "", rel, strerror(-e));
	return 1;
}

int
main(int argc, char *argv[])
{
	const char *root = argc > 1 ? argv[1] : "/";
	const unsigned int full = 1u << DS_PSI_FULL;
	struct ds_root r;
	struct ds_buf b = { 0 };
	struct ds_psi p[2];
	struct ds_tr_psi sh;
	uint64_t t[2];
	int e, k, st = 0;

	if (argc > 2) {
		fprintf(stderr, "usage: iopsi [root]\n");
		return 2;
	}
	if ((e = ds_root_open(&r, root)) < 0)
		return fail(root, "", e);
	/* Two reads a second apart; stall totals are in microseconds. */
	for (k = 0; k < 2 && st == 0; k++) {
		if (k == 1)
			sleep(1);
		if ((e = ds_psi_read(&r, "proc/pressure/io", &b, &p[k])) < 0)
			st = fail(root, "proc/pressure/io", e);
		else if ((e = ds_uptime_ns(&r, &b, &t[k])) < 0)
			st = fail(root, "proc/uptime", e);
	}
	if (st == 0 && t[1] <= t[0]) {
		fprintf(stderr, "iopsi: the uptime did not advance\n");
		st = 1;
	}
	/* -ENODATA: the second read had no "some" line. */
	if (st == 0 && (e = ds_psi_shares(&p[0], &p[1], t[1] - t[0], &sh)) < 0)
		st = fail(root, "proc/pressure/io", e);
	if (st == 0) {
		printf("some %.2f\n", sh.some);
		if ((p[0].have & p[1].have & full) != 0)
			printf("full %.2f\n", sh.full);
		else
			printf("full -\n");
		if (fflush(stdout) == EOF || ferror(stdout)) {
			fprintf(stderr, "iopsi: write error: %s\n",
			    strerror(errno));
			st = 1;
		}
	}
	ds_buf_free(&b);
	ds_root_close(&r);
	return st;
}
