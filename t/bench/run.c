/*
 * run: measure a command the way the benchmark tables need it.
 *
 *	run [-n runs] [-k reps] [-w warmups] [-o file] [-e file] command [arg ...]
 *
 * Each run starts the command reps times in a row (stdout to /dev/null,
 * or to -o file, which keeps the last start's output; stderr likewise
 * to -e file; stdin from /dev/null) and takes, per start, the child's
 * CPU time (ru_utime + ru_stime from wait4), wall time and ru_maxrss.
 * warmups runs are made first and not counted (page cache, dentries).
 * Prints one line: "cpu_us wall_us maxrss_kb status", each the median
 * over the runs of the per-start figure (status: the last nonzero exit
 * status, or 0).
 *
 * ru_maxrss of a child includes the RSS of the process it was forked
 * from, at exec (the kernel keeps the high-water mark of the old mm).
 * Linked statically and started with vfork, this runner is a few
 * hundred kB, below any dynamically linked program, so the figure is
 * the command's own.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static uint64_t
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

static int
cmpu64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static uint64_t
median(uint64_t *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmpu64);
	if (n % 2)
		return v[n / 2];
	return (v[n / 2 - 1] + v[n / 2]) / 2;
}

static const char *out = "/dev/null", *errout;
static int infd, outfd, errfd;	/* not locals: vfork shares the stack */

/* One start of the command: returns its exit status, fills ru. */
static int
once(char **argv, struct rusage *ru)
{
	int status;
	pid_t pid;

	/* Reopened each time, so the file holds the last start's output. */
	outfd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (outfd < 0) {
		perror(out);
		exit(1);
	}
	errfd = -1;
	if (errout != NULL &&
	    (errfd = open(errout, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0644)) < 0) {
		perror(errout);
		exit(1);
	}
	pid = vfork();
	if (pid < 0) {
		perror("run: vfork");
		exit(1);
	}
	if (pid == 0) {
		dup2(infd, 0);
		dup2(outfd, 1);
		if (errfd >= 0)
			dup2(errfd, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(outfd);
	if (errfd >= 0)
		close(errfd);
	while (wait4(pid, &status, 0, ru) < 0)
		if (errno != EINTR) {
			perror("run: wait4");
			exit(1);
		}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

static long
num(const char *s, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		fprintf(stderr, "run: bad number: %s\n", s);
		exit(2);
	}
	return v;
}

int
main(int argc, char **argv)
{
	int runs = 5, reps = 1, warm = 1, ch, laststatus = 0;
	uint64_t *cpu, *wall, *rss;

	while ((ch = getopt(argc, argv, "+n:k:w:o:e:")) != -1) {
		switch (ch) {
		case 'n': runs = (int)num(optarg, 1, 1000); break;
		case 'k': reps = (int)num(optarg, 1, 100000); break;
		case 'w': warm = (int)num(optarg, 0, 100); break;
		case 'o': out = optarg; break;
		case 'e': errout = optarg; break;
		default:
			fprintf(stderr, "usage: run [-n runs] [-k reps] "
			    "[-w warmups] [-o file] [-e file]\n"
			    "           command [arg ...]\n");
			return 2;
		}
	}
	argv += optind;
	if (*argv == NULL) {
		fprintf(stderr, "run: no command\n");
		return 2;
	}
	infd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (infd < 0) {
		perror("run: open");
		return 1;
	}
	cpu = calloc((size_t)runs, sizeof(*cpu));
	wall = calloc((size_t)runs, sizeof(*wall));
	rss = calloc((size_t)runs, sizeof(*rss));
	if (cpu == NULL || wall == NULL || rss == NULL) {
		perror("run");
		return 1;
	}
	for (int i = -warm; i < runs; i++) {
		uint64_t c = 0, m = 0, t0 = now_us();
		struct rusage ru;

		for (int k = 0; k < reps; k++) {
			int st = once(argv, &ru);

			if (st)
				laststatus = st;
			c += (uint64_t)ru.ru_utime.tv_sec * 1000000 +
			    (uint64_t)ru.ru_utime.tv_usec +
			    (uint64_t)ru.ru_stime.tv_sec * 1000000 +
			    (uint64_t)ru.ru_stime.tv_usec;
			if ((uint64_t)ru.ru_maxrss > m)
				m = (uint64_t)ru.ru_maxrss;
		}
		if (i < 0)
			continue;
		wall[i] = (now_us() - t0) / (uint64_t)reps;
		cpu[i] = c / (uint64_t)reps;
		rss[i] = m;
	}
	printf("%llu %llu %llu %d\n", (unsigned long long)median(cpu, runs),
	    (unsigned long long)median(wall, runs),
	    (unsigned long long)median(rss, runs), laststatus);
	return 0;
}
