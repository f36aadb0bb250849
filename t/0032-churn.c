/*
 * storm SECONDS FILE STOP: fork/exit and pthread_create/join loops for
 * SECONDS at most, or until the file STOP exists and each loop has made
 * its 2,000 (the tools may be done before a slow machine made them).
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int held = -1;

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *
work(void *arg)
{
	char c;

	(void)!pread(held, &c, 1, 0);
	return arg;
}

int
main(int argc, char **argv)
{
	double end;
	long n = 0;
	pid_t kid[2];
	int k, i;

	if (argc != 4)
		return 2;
	end = now() + atof(argv[1]);
	if ((held = open(argv[2], O_RDWR | O_CREAT | O_TRUNC, 0600)) < 0 ||
	    write(held, "x", 1) != 1 || unlink(argv[2]) != 0)
		return 1;
	for (k = 0; k < 2; k++) {
		if ((kid[k] = fork()) < 0)
			return 1;
		if (kid[k] > 0)
			continue;
		/* Killed with the storm: nothing outlives the test. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		while (now() < end && (access(argv[3], F_OK) != 0 || n < 2000)) {
			if (k == 0) {
				pid_t p[16];

				/* 16 at a time: each reads, then exits. */
				for (i = 0; i < 16; i++)
					if ((p[i] = fork()) == 0) {
						work(NULL);
						_exit(0);
					}
				for (i = 0; i < 16; i++)
					if (p[i] > 0 && waitpid(p[i], NULL, 0) == p[i])
						n++;
			} else {
				pthread_t t[16];

				for (i = 0; i < 16; i++)
					if (pthread_create(&t[i], NULL, work, NULL) != 0)
						break;
				while (i-- > 0)
					if (pthread_join(t[i], NULL) == 0)
						n++;
			}
		}
		printf("%s %ld\n", k == 0 ? "forks" : "threads", n);
		fflush(stdout);
		_exit(0);
	}
	for (k = 0; k < 2; k++)
		waitpid(kid[k], NULL, 0);
	return 0;
}
