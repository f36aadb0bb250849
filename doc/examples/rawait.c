/*
 * rawait [root]: the r_await of each device over one second, as
 * iostat -x prints it: milliseconds per read completed, "-" when none
 * completed.  The root is "/" or a captured tree of /proc.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <diskstat.h>

/* A library error as "rawait: /proc/diskstats: No such file ...". */
static int
fail(const char *root, const char *rel, int e)
{
	fprintf(stderr, "rawait: %s%s%s: %s\n", strcmp(root, "/") == 0 ? "" :
	    root, *rel != '\0' ? "/" : "", rel, strerror(-e));
	return 1;
}

int
main(int argc, char *argv[])
{
	const char *root = argc > 1 ? argv[1] : "/";
	struct ds_root r;
	struct ds_buf b = { 0 };
	struct ds_diskstats s[2] = { { 0 }, { 0 } };
	const struct ds_disk *c, *p;
	struct ds_xstat x;
	uint64_t t[2], d[DS_NCOUNTERS];
	uint32_t have;
	size_t i;
	int e, k, st = 0;

	if (argc > 2) {
		fprintf(stderr, "usage: rawait [root]\n");
		return 2;
	}
	if ((e = ds_root_open(&r, root)) < 0)
		return fail(root, "", e);
	/* Two samples a second apart, each with the uptime it was taken at. */
	for (k = 0; k < 2 && st == 0; k++) {
		if (k == 1)
			sleep(1);
		if ((e = ds_diskstats_read(&r, &b, &s[k])) < 0)
			st = fail(root, "proc/diskstats", e);
		else if ((e = ds_uptime_ns(&r, &b, &t[k])) < 0)
			st = fail(root, "proc/uptime", e);
	}
	if (st == 0 && t[1] <= t[0]) {
		fprintf(stderr, "rawait: the uptime did not advance\n");
		st = 1;
	}
	for (i = 0; st == 0 && i < s[1].n; i++) {
		c = &s[1].disk[i];
		/*
		 * A device that came (or came back) within the second is
		 * counted from zero, its counters all of the second's.
		 */
		p = ds_diskstats_find(&s[0], c->name, i);
		(void)ds_disk_delta(p, c, d, &have);
		ds_xstat_compute(d, have, t[1] - t[0], &x);
		if (d[DS_RD_IOS] > 0 && (x.have & 1u << DS_X_RAWAIT) != 0)
			printf("%s %.2f\n", c->name, x.v[DS_X_RAWAIT]);
		else
			printf("%s -\n", c->name);
	}
	if (st == 0 && (fflush(stdout) == EOF || ferror(stdout))) {
		fprintf(stderr, "rawait: write error: %s\n", strerror(errno));
		st = 1;
	}
	ds_diskstats_free(&s[0]);
	ds_diskstats_free(&s[1]);
	ds_buf_free(&b);
	ds_root_close(&r);
	return st;
}
