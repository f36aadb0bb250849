/*
 * run: measure commands the way the benchmark tables need it.
 *
 *	run [-n runs] [-k reps | -a ms] [-w warmups] [-o dir] [-e dir]
 *	    command [arg ...] [:: command [arg ...]] ...
 *
 * The commands (separated by "::") are measured together, round-robin:
 * each run starts every command in turn, so a burst of load from the
 * other users of a shared machine falls on all of them alike and the
 * ratios between them stay fair.  A run starts each command reps times
 * in a row (-a ms: as many times as make about ms of its CPU time,
 * judged from the warm-up, at most 1000) and takes, per start, the
 * child's CPU time (ru_utime + ru_stime from wait4), wall time and
 * ru_maxrss.  warmups runs come first and are not counted.
 *
 * stdin is /dev/null; stdout and stderr go to /dev/null, or with -o/-e
 * to DIR/N.out and DIR/N.err (N: the command's index from 0), which
 * keep the last start's output.
 *
 * Prints one line per command: "cpu_us wall_us maxrss_kb status reps",
 * each the median over the runs of the per-start figure (cpu in
 * microseconds with one decimal; status: the last nonzero exit status,
 * or 0).
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

#define MAXCMD 16

struct cmd {
	char **argv;
	int reps;
	int status;
	double *cpu, *wall, *rss;	/* per run */
	char out[4096], err[4096];
};

/* Not locals: a vfork child shares the stack. */
static int infd, outfd, errfd;

static double
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int
cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmpd);
	if (n % 2)
		return v[n / 2];
	return (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int
openout(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0) {
		perror(path);
		exit(1);
	}
	return fd;
}

/* One start of the command: returns its exit status, fills ru. */
static int
once(struct cmd *c, struct rusage *ru)
{
	int status;
	pid_t pid;

	/* Reopened each time, so the files hold the last start's output. */
	outfd = openout(c->out);
	errfd = openout(c->err);
	pid = vfork();
	if (pid < 0) {
		perror("run: vfork");
		exit(1);
	}
	if (pid == 0) {
		dup2(infd, 0);
		dup2(outfd, 1);
		dup2(errfd, 2);
		execvp(c->argv[0], c->argv);
		_exit(127);
	}
	close(outfd);
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

static void
usage(void)
{
	fprintf(stderr, "usage: run [-n runs] [-k reps | -a ms] "
	    "[-w warmups] [-o dir] [-e dir]\n"
	    "           command [arg ...] [:: command [arg ...]] ...\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	int runs = 5, reps = 1, warm = 1, ch, ncmd = 0;
	double auto_ms = 0;
	const char *odir = NULL, *edir = NULL;
	struct cmd cmd[MAXCMD];

	while ((ch = getopt(argc, argv, "+n:k:a:w:o:e:")) != -1) {
		switch (ch) {
		case 'n': runs = (int)num(optarg, 1, 1000); break;
		case 'k': reps = (int)num(optarg, 1, 100000); break;
		case 'a': auto_ms = (double)num(optarg, 1, 100000); break;
		case 'w': warm = (int)num(optarg, 0, 100); break;
		case 'o': odir = optarg; break;
		case 'e': edir = optarg; break;
		default: usage();
		}
	}
	argv += optind;
	if (*argv == NULL)
		usage();
	if (auto_ms && warm == 0)
		warm = 1;
	/* Split the operands on "::". */
	memset(cmd, 0, sizeof(cmd));
	cmd[ncmd++].argv = argv;
	for (char **a = argv; *a != NULL; a++)
		if (strcmp(*a, "::") == 0) {
			*a = NULL;
			if (ncmd == MAXCMD || a[1] == NULL)
				usage();
			cmd[ncmd++].argv = a + 1;
		}
	infd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (infd < 0) {
		perror("run: /dev/null");
		return 1;
	}
	for (int j = 0; j < ncmd; j++) {
		struct cmd *c = &cmd[j];

		c->reps = reps;
		c->cpu = calloc((size_t)runs, sizeof(double));
		c->wall = calloc((size_t)runs, sizeof(double));
		c->rss = calloc((size_t)runs, sizeof(double));
		if (c->cpu == NULL || c->wall == NULL || c->rss == NULL) {
			perror("run");
			return 1;
		}
		if (odir)
			snprintf(c->out, sizeof(c->out), "%s/%d.out", odir, j);
		else
			snprintf(c->out, sizeof(c->out), "/dev/null");
		if (edir)
			snprintf(c->err, sizeof(c->err), "%s/%d.err", edir, j);
		else
			snprintf(c->err, sizeof(c->err), "/dev/null");
	}
	for (int i = -warm; i < runs; i++) {
		for (int j = 0; j < ncmd; j++) {
			struct cmd *c = &cmd[j];
			double cpu = 0, rss = 0, t0 = now_us();
			struct rusage ru;
			int n = i < 0 ? 1 : c->reps;

			for (int k = 0; k < n; k++) {
				int st = once(c, &ru);

				if (st)
					c->status = st;
				cpu += (double)ru.ru_utime.tv_sec * 1e6 +
				    (double)ru.ru_utime.tv_usec +
				    (double)ru.ru_stime.tv_sec * 1e6 +
				    (double)ru.ru_stime.tv_usec;
				if ((double)ru.ru_maxrss > rss)
					rss = (double)ru.ru_maxrss;
			}
			if (i < 0) {
				if (auto_ms) {
					double r = auto_ms * 1000 /
					    (cpu > 1 ? cpu : 1);

					c->reps = r < 1 ? 1 :
					    r > 1000 ? 1000 : (int)r;
				}
				continue;
			}
			c->wall[i] = (now_us() - t0) / n;
			c->cpu[i] = cpu / n;
			c->rss[i] = rss;
		}
	}
	for (int j = 0; j < ncmd; j++) {
		struct cmd *c = &cmd[j];

		printf("%.1f %.0f %.0f %d %d\n", median(c->cpu, runs),
		    median(c->wall, runs), median(c->rss, runs), c->status,
		    c->reps);
	}
	return 0;
}
