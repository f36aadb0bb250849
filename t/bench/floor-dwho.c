/*
 * floor-dwho: the least a program can do to print dwho's one-shot
 * report (each process's I/O since it started), so the benchmark can
 * say how close dwho is to the limit.
 *
 *	floor-dwho [-d]
 *
 * getdents64 of /proc once; per process openat/fstat/read/close of
 * PID/stat (fstat gives the owner, for the user column) and
 * openat/read/close of PID/io: 7 syscalls.  With -d (delay accounting
 * on), a multi-threaded process also needs every thread's stat, as
 * field 42 of PID/stat is the leader's alone: openat/getdents64/close
 * of PID/task and openat/read/close of each task/TID/stat.  A process
 * with one thread needs nothing more.  Rows go through printf into one
 * fully buffered stdout.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static char *passwd;

static const char *
user(uid_t uid, char *num, size_t size)
{
	char *p = passwd;

	while (p && *p) {
		char *nl = strchr(p, '\n'), *c1 = strchr(p, ':'), *c2, *c3;

		if (c1 && (!nl || c1 < nl) && (c2 = strchr(c1 + 1, ':')) &&
		    (c3 = strchr(c2 + 1, ':')) && (!nl || c3 < nl) &&
		    strtoul(c2 + 1, NULL, 10) == uid) {
			snprintf(num, size, "%.*s", (int)(c1 - p), p);
			return num;
		}
		p = nl ? nl + 1 : NULL;
	}
	snprintf(num, size, "%u", (unsigned)uid);
	return num;
}

static ssize_t
readat(int dfd, const char *rel, char *buf, size_t size, struct stat *st)
{
	int fd = openat(dfd, rel, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	if (st && fstat(fd, st) < 0)
		n = -1;
	else
		n = read(fd, buf, size - 1);
	close(fd);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

static uint64_t
field(const char *p, int n)		/* n-th blank-separated field, 0-based */
{
	while (n-- > 0) {
		while (*p && *p != ' ')
			p++;
		while (*p == ' ')
			p++;
	}
	return strtoull(p, NULL, 10);
}

/* Field 42 (delayacct_blkio_ticks) of a stat line, after the last ')'. */
static uint64_t
blkio(const char *s)
{
	const char *rp = strrchr(s, ')');

	return rp ? field(rp + 2, 39) : 0;
}

static int
getdents_all(int dfd, char **buf, size_t *cap, size_t *len)
{
	long n;

	*len = 0;
	for (;;) {
		if (*cap - *len < 32768) {
			*cap = *cap ? *cap * 2 : 1 << 16;
			*buf = realloc(*buf, *cap);
		}
		n = syscall(SYS_getdents64, dfd, *buf + *len, *cap - *len);
		if (n <= 0)
			return (int)n;
		*len += (size_t)n;
	}
}

struct d64 {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

int
main(int argc, char **argv)
{
	static char obuf[1 << 20], st[4096], io[1024], tst[4096];
	char *ents = NULL, *tents = NULL, rel[64], name[64];
	size_t cap = 0, len, tcap = 0, tlen, plen;
	int delay = argc > 1 && strcmp(argv[1], "-d") == 0;
	long hz = sysconf(_SC_CLK_TCK);
	struct timespec bt, rt;
	double up;
	int proc;

	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	clock_gettime(CLOCK_BOOTTIME, &bt);
	clock_gettime(CLOCK_REALTIME, &rt);
	up = (double)bt.tv_sec + (double)bt.tv_nsec / 1e9;
	{
		char *pw = malloc(1 << 16);
		ssize_t n = readat(AT_FDCWD, "/etc/passwd", pw, 1 << 16, NULL);

		passwd = n >= 0 ? pw : NULL;
	}
	proc = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (proc < 0 || getdents_all(proc, &ents, &cap, &len) < 0) {
		perror("/proc");
		return 1;
	}
	fputs("time\tpid\tuser\tcommand\tkB_rd/s\tkB_wr/s\tkB_ccwr/s"
	    "\tkB_rchar/s\tkB_wchar/s\tsyscr/s\tsyscw/s\thit%\t%iodelay\n",
	    stdout);
	for (size_t off = 0; off < len;) {
		struct d64 *d = (struct d64 *)(ents + off);
		uint64_t v[7] = { 0 }, ticks;
		const char *lp, *rp, *p;
		struct stat sb;
		double el;

		off += d->reclen;
		if (d->name[0] < '1' || d->name[0] > '9')
			continue;
		plen = (size_t)snprintf(rel, sizeof(rel), "%s/stat", d->name);
		if (readat(proc, rel, st, sizeof(st), &sb) < 0)
			continue;
		memcpy(rel + plen - 4, "io", 3);
		if (readat(proc, rel, io, sizeof(io), NULL) < 0)
			continue;
		lp = strchr(st, '(');
		rp = strrchr(st, ')');
		if (lp == NULL || rp == NULL)
			continue;
		/* io: rchar wchar syscr syscw read_bytes write_bytes cancelled */
		p = io;
		for (int i = 0; i < 7 && p; i++) {
			p = strchr(p, ':');
			if (p)
				v[i] = strtoull(++p, (char **)&p, 10);
		}
		ticks = blkio(st);
		if (delay && field(rp + 2, 17) > 1) {
			int tfd;

			snprintf(rel, sizeof(rel), "%s/task", d->name);
			tfd = openat(proc, rel, O_RDONLY | O_DIRECTORY |
			    O_CLOEXEC);
			if (tfd >= 0) {
				ticks = 0;
				getdents_all(tfd, &tents, &tcap, &tlen);
				for (size_t t = 0; t < tlen;) {
					struct d64 *e = (struct d64 *)
					    (tents + t);

					t += e->reclen;
					if (e->name[0] < '1' ||
					    e->name[0] > '9')
						continue;
					snprintf(rel, sizeof(rel), "%s/stat",
					    e->name);
					if (readat(tfd, rel, tst, sizeof(tst),
					    NULL) >= 0)
						ticks += blkio(tst);
				}
				close(tfd);
			}
		}
		el = up - (double)field(rp + 2, 19) / (double)hz;
		if (el <= 0)
			el = 1e-9;
		printf("%lld.%03ld\t%s\t%s\t%.*s", (long long)rt.tv_sec,
		    rt.tv_nsec / 1000000, d->name,
		    user(sb.st_uid, name, sizeof(name)),
		    (int)(rp - lp - 1), lp + 1);
		printf("\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f",
		    (double)v[4] / 1024 / el, (double)v[5] / 1024 / el,
		    (double)v[6] / 1024 / el, (double)v[0] / 1024 / el,
		    (double)v[1] / 1024 / el, (double)v[2] / el,
		    (double)v[3] / el);
		if (v[0])
			printf("\t%.2f", v[4] >= v[0] ? 0.0 :
			    100.0 * (1 - (double)v[4] / (double)v[0]));
		else
			fputs("\t-", stdout);
		if (delay)
			printf("\t%.2f\n", 100.0 * (double)ticks /
			    (double)hz / el);
		else
			fputs("\t-\n", stdout);
	}
	return fflush(stdout) != 0;
}
