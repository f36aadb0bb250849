/*
 * procfiles: what reading a set of /proc/PID files costs, whatever is
 * done with them, to tell the kernel's share of a process scan from the
 * reader's.
 *
 *	procfiles FILE...
 *
 * getdents64 of /proc once; per process, for each FILE, openat/read/
 * close of PID/FILE into an 8 KiB buffer; one line per process read.
 * "procfiles stat io" is what dwho reads, "procfiles stat status
 * schedstat io" what pidstat -d 12.6 reads (strace), "procfiles comm"
 * the smallest file there is: the price of open/read/close alone.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	char buf[8192], rel[512];
	struct dirent *e;
	DIR *d;
	int procfd, fd, i, got;
	long n = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: procfiles file ...\n");
		return 2;
	}
	if ((d = opendir("/proc")) == NULL) {
		perror("/proc");
		return 1;
	}
	procfd = dirfd(d);
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		got = 0;
		for (i = 1; i < argc; i++) {
			/* A name too long for rel is no file of /proc. */
			if ((size_t)snprintf(rel, sizeof(rel), "%s/%s",
			    e->d_name, argv[i]) >= sizeof(rel))
				continue;
			if ((fd = openat(procfd, rel, O_RDONLY | O_CLOEXEC)) < 0)
				continue;
			if (read(fd, buf, sizeof(buf)) > 0)
				got++;
			close(fd);
		}
		if (got > 0) {
			printf("%s %d\n", e->d_name, got);
			n++;
		}
	}
	closedir(d);
	return n > 0 ? 0 : 1;
}
