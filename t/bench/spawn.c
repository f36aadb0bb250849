/*
 * spawn: build the process scenarios of the benchmark, and take them
 * down again.
 *
 *	spawn sleep N			N idle processes (each read one byte)
 *	spawn threads N			one process with N idle threads
 *	spawn fds NPROC NFD DIR		NPROC processes holding NFD descriptors
 *					each to files in DIR, a few deleted
 *
 * When everything is in place, prints the pid of a manager process and
 * exits.  The manager leads its own session and process group; every
 * process it made dies with it (PR_SET_PDEATHSIG), so `kill PID` (or a
 * KILL) removes the whole scenario, and so does the end of the process
 * SPAWN_OWNER names, if set.  Nothing outside DIR is created.
 *
 * fds: DIR gets files f.0 .. f.NFD-1 (empty).  Processes 0-4 each hold
 * one file they created and unlinked (deleted.I, 64 KiB) and share one
 * more deleted file (shared, 64 KiB, one inode with five holders): ten
 * deleted descriptors in all, six inodes.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static void
die(const char *what)
{
	fprintf(stderr, "spawn: %s: %s\n", what, strerror(errno));
	exit(1);
}

static long
num(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (end == s || *end || v < 0 || v > 4194304) {
		fprintf(stderr, "spawn: bad number: %s\n", s);
		exit(2);
	}
	return v;
}

static void
on_term(int sig)
{
	(void)sig;
	kill(0, SIGKILL);	/* the whole process group, this one too */
}

/* In a new child: die with the manager, even if it is already gone. */
static void
tie(pid_t mgr)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != mgr)
		_exit(0);
	signal(SIGTERM, SIG_DFL);
}

/*
 * An idle process has still done some I/O in its life: one byte read
 * gives it nonzero rchar and syscr, so dwho and the floor report it
 * (no tool can skip it as never having done I/O).
 */
static void
touch(void)
{
	char c;
	int fd = open("/dev/zero", O_RDONLY);

	if (fd < 0 || read(fd, &c, 1) != 1)
		die("/dev/zero");
	close(fd);
}

static void *
idle(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static void
writefile(int fd, size_t bytes)
{
	static char block[4096];

	memset(block, 'x', sizeof(block));
	for (size_t n = 0; n < bytes; n += sizeof(block))
		if (write(fd, block, sizeof(block)) != (ssize_t)sizeof(block))
			die("write");
}

static void
holder(int i, long nfd, int dirfd, int shared, int ready)
{
	char name[64];
	int fd;

	if (i < 5) {
		snprintf(name, sizeof(name), "deleted.%d", i);
		fd = openat(dirfd, name, O_RDWR | O_CREAT | O_TRUNC, 0600);
		if (fd < 0)
			die(name);
		writefile(fd, 65536);
		if (unlinkat(dirfd, name, 0) < 0)
			die("unlink");
	} else if (shared >= 0)
		close(shared);
	/*
	 * Fill the table up to nfd descriptors with the shared files (open
	 * takes the lowest free number, so the last one is nfd - 1), then
	 * give the slot of the ready pipe to one more.
	 */
	for (long k = 0;; k++) {
		snprintf(name, sizeof(name), "f.%ld", k % nfd);
		fd = openat(dirfd, name, O_RDONLY);
		if (fd < 0)
			die(name);
		if (fd >= nfd - 1)
			break;
	}
	if (write(ready, "x", 1) != 1)
		die("ready");
	close(ready);
	if (openat(dirfd, "f.0", O_RDONLY) < 0)
		die("f.0");
	for (;;)
		pause();
}

int
main(int argc, char **argv)
{
	int report[2], ready[2], dirfd = -1, shared = -1, devnull;
	long n = 0, nfd = 0;
	pid_t mgr, owner = 0;
	char c;

	if (argc == 3 && strcmp(argv[1], "sleep") == 0)
		n = num(argv[2]);
	else if (argc == 3 && strcmp(argv[1], "threads") == 0)
		n = num(argv[2]);
	else if (argc == 5 && strcmp(argv[1], "fds") == 0) {
		n = num(argv[2]);
		nfd = num(argv[3]);
		if (nfd < 16) {
			fprintf(stderr, "spawn: at least 16 descriptors\n");
			return 2;
		}
	} else {
		fprintf(stderr, "usage: spawn sleep N | spawn threads N | "
		    "spawn fds NPROC NFD DIR\n");
		return 2;
	}
	if (getenv("SPAWN_OWNER") != NULL)
		owner = (pid_t)num(getenv("SPAWN_OWNER"));
	if (pipe(report) < 0)
		die("pipe");
	mgr = fork();
	if (mgr < 0)
		die("fork");
	if (mgr > 0) {
		/* The caller's side: wait for the manager's word. */
		close(report[1]);
		if (read(report[0], &c, 1) != 1) {
			fprintf(stderr, "spawn: scenario failed\n");
			return 1;
		}
		printf("%ld\n", (long)mgr);
		return 0;
	}

	/* The manager. */
	close(report[0]);
	setsid();
	signal(SIGTERM, on_term);
	signal(SIGINT, on_term);
	signal(SIGHUP, on_term);
	devnull = open("/dev/null", O_RDWR);
	dup2(devnull, 0);
	dup2(devnull, 1);
	close(devnull);
	mgr = getpid();

	if (strcmp(argv[1], "sleep") == 0) {
		for (long i = 0; i < n; i++) {
			pid_t p = fork();

			if (p < 0)
				die("fork");
			if (p == 0) {
				close(report[1]);
				tie(mgr);
				touch();
				for (;;)
					pause();
			}
		}
	} else if (strcmp(argv[1], "threads") == 0) {
		pthread_attr_t a;
		pthread_t t;

		pthread_attr_init(&a);
		pthread_attr_setstacksize(&a, 65536);
		for (long i = 0; i < n; i++) {
			int e = pthread_create(&t, &a, idle, NULL);

			if (e) {
				errno = e;
				die("pthread_create");
			}
		}
	} else {
		struct rlimit rl;
		char name[64];

		if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
			die("getrlimit");
		rl.rlim_cur = (rlim_t)nfd + 64;
		if (rl.rlim_max != RLIM_INFINITY && rl.rlim_cur > rl.rlim_max)
			rl.rlim_max = rl.rlim_cur;
		if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
			die("setrlimit");
		if ((dirfd = open(argv[4], O_RDONLY | O_DIRECTORY)) < 0)
			die(argv[4]);
		for (long k = 0; k < nfd; k++) {
			int fd;

			snprintf(name, sizeof(name), "f.%ld", k);
			fd = openat(dirfd, name, O_WRONLY | O_CREAT, 0644);
			if (fd < 0)
				die(name);
			close(fd);
		}
		shared = openat(dirfd, "shared", O_RDWR | O_CREAT | O_TRUNC,
		    0600);
		if (shared < 0)
			die("shared");
		writefile(shared, 65536);
		if (pipe(ready) < 0)
			die("pipe");
		for (long i = 0; i < n; i++) {
			pid_t p = fork();

			if (p < 0)
				die("fork");
			if (p == 0) {
				close(report[1]);
				close(ready[0]);
				tie(mgr);
				holder((int)i, nfd, dirfd, shared, ready[1]);
			}
		}
		close(ready[1]);
		for (long i = 0; i < n; i++)
			if (read(ready[0], &c, 1) != 1)
				die("holder");
		close(ready[0]);
		close(shared);
		if (unlinkat(dirfd, "shared", 0) < 0)
			die("unlink shared");
		close(dirfd);
	}
	if (write(report[1], "k", 1) != 1)
		die("report");
	close(report[1]);
	/*
	 * With SPAWN_OWNER=PID, the scenario also ends when that process
	 * is gone without cleaning up (a benchmark script killed -9).
	 */
	for (;;) {
		sleep(1);
		if (owner > 0 && kill(owner, 0) < 0 && errno == ESRCH)
			on_term(SIGTERM);
	}
}
