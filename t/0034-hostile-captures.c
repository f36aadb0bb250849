/*
 * Hostile capture archives for t/0034-hostile-captures.t, made header by
 * header so that each can be broken just so.  Every command appends to
 * the archive OUT (created 0600 if missing):
 *
 *   mktar OUT copy ARCHIVE [DROP...]  ARCHIVE's members but DROP's (a
 *                                     name, a prefix ending in "/", or
 *                                     a pattern, '*' matching '/' too),
 *                                     without its end-of-archive blocks
 *   mktar OUT hdr NAME TYPE SIZE [LINK]  a header alone: no data follows
 *                                     (SIZE decimal; 8 GiB or more in 12
 *                                     octal digits, 64 GiB or more in
 *                                     GNU's base-256)
 *   mktar OUT file NAME PATH          a file member of PATH's bytes
 *   mktar OUT zeros NAME SIZE         a file member of SIZE zero bytes
 *                                     (a hole in OUT: cheap at any size)
 *   mktar OUT many N                  N members "./" (the top directory,
 *                                     which the reader makes nothing of)
 *   mktar OUT sum N                   header N (1-based) of OUT given a
 *                                     wrong checksum
 *   mktar OUT end                     the two zero blocks of the end
 *   mktar - get ARCHIVE NAME          member NAME's data to stdout
 *
 * and one command that runs a tool for the test, in a process of its own
 * rather than the four or five (timeout, tr, wc, find, sort, cmp) a
 * check cost in the shell, some hundreds of times:
 *
 *   mktar - run [-t SECS] [-e ERR] [-m REGEX] [-w DIR]... [-x SKIP]... CMD...
 *        CMD run with stdout to /dev/null, stderr to ERR, killed (its
 *        process group) with SIGTERM after SECS (120) as timeout(1)
 *        does.  Prints "STATUS RAW SAYS": STATUS as the shell would
 *        see it (124 on the timeout, 128 + N for a signal N), RAW the
 *        bytes of ERR that are neither printable ASCII nor a newline,
 *        SAYS 1 when a line of ERR matches the extended REGEX (0
 *        without -m); then the paths under each DIR (DIR too) but
 *        SKIPs and what is under them, sorted by bytes: what find
 *        DIR... -path SKIP -prune -o -print | sort prints.
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <fnmatch.h>
#include <regex.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define BLOCK 512

static const char *out;
static int ofd = -1;

static void
die(const char *what)
{
	fprintf(stderr, "mktar: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void
put(const void *p, size_t n)
{
	const char *c = p;
	ssize_t w;

	while (n > 0) {
		if ((w = write(ofd, c, n)) < 0)
			die(out);
		c += w;
		n -= (size_t)w;
	}
}

static void
sum(unsigned char *h)
{
	unsigned int s = 0, i;

	memset(h + 148, ' ', 8);
	for (i = 0; i < BLOCK; i++)
		s += h[i];
	snprintf((char *)h + 148, 8, "%06o", s);
}

static void
hdr(const char *name, int type, uint64_t size, const char *link)
{
	unsigned char h[BLOCK];
	size_t n = strlen(name);
	const char *cut;
	int i;

	memset(h, 0, sizeof(h));
	if (n > 100 && (cut = strchr(name + n - 101, '/')) != NULL &&
	    cut - name <= 155) {
		memcpy(h + 345, name, (size_t)(cut - name));
		memcpy(h, cut + 1, strlen(cut + 1));
	} else
		memcpy(h, name, n > 100 ? 100 : n);
	snprintf((char *)h + 100, 8, "%07o", 0600);
	snprintf((char *)h + 108, 8, "%07o", 0);
	snprintf((char *)h + 116, 8, "%07o", 0);
	if (size < 8ull << 30)
		snprintf((char *)h + 124, 12, "%011llo",
		    (unsigned long long)size);
	else if (size < 64ull << 30) {
		char o[16];

		snprintf(o, sizeof(o), "%012llo", (unsigned long long)size);
		memcpy(h + 124, o, 12);
	} else {
		h[124] = 0x80;
		for (i = 11; i > 0; i--, size >>= 8)
			h[124 + i] = (unsigned char)size;
	}
	snprintf((char *)h + 136, 12, "%011o", 0);
	h[156] = (unsigned char)type;
	if (link != NULL)
		memcpy(h + 157, link, strlen(link) > 100 ? 100 : strlen(link));
	memcpy(h + 257, "ustar\0" "00", 8);
	sum(h);
	put(h, sizeof(h));
}

static void
pad(uint64_t size)
{
	static const char z[BLOCK];

	if (size % BLOCK != 0)
		put(z, BLOCK - size % BLOCK);
}

/* The size of header h (octal: the archives read here are ours). */
static uint64_t
hsize(const unsigned char *h)
{
	char f[13];

	memcpy(f, h + 124, 12);
	f[12] = '\0';
	return strtoull(f, NULL, 8);
}

static void
hname(const unsigned char *h, char *name)
{
	if (h[345] != '\0')
		snprintf(name, 300, "%.155s/%.100s", (const char *)h + 345,
		    (const char *)h);
	else
		snprintf(name, 300, "%.100s", (const char *)h);
}

static int
dropped(const char *name, char **drop, int n)
{
	size_t k;
	int i;

	for (i = 0; i < n; i++) {
		k = strlen(drop[i]);
		if (k > 0 && drop[i][k - 1] == '/' ? strncmp(name, drop[i], k) == 0
		    : fnmatch(drop[i], name, 0) == 0)
			return 1;
	}
	return 0;
}

/* Each member of path: f(its header, its name, its data) until the end. */
static void
walk(const char *path, char **drop, int ndrop, const char *want)
{
	unsigned char h[BLOCK];
	char name[300], *data;
	uint64_t size, padded;
	FILE *f = fopen(path, "r");

	if (f == NULL)
		die(path);
	while (fread(h, 1, BLOCK, f) == BLOCK) {
		if (h[0] == '\0')
			break;
		size = hsize(h);
		padded = (size + BLOCK - 1) / BLOCK * BLOCK;
		if ((data = malloc(padded + 1)) == NULL)
			die("malloc");
		if (fread(data, 1, padded, f) != padded)
			die(path);
		hname(h, name);
		if (want != NULL && strcmp(name, want) == 0) {
			fwrite(data, 1, size, stdout);
			free(data);
			fclose(f);
			exit(0);
		}
		if (want == NULL && !dropped(name, drop, ndrop)) {
			put(h, BLOCK);
			put(data, padded);
		}
		free(data);
	}
	fclose(f);
	if (want != NULL) {
		fprintf(stderr, "mktar: %s: no member %s\n", path, want);
		exit(1);
	}
}

static uint64_t
number(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0' || end == s) {
		fprintf(stderr, "mktar: %s: not a number\n", s);
		exit(2);
	}
	return v;
}

/* The tree listing of run: paths gathered, then sorted. */
static char **paths;
static size_t npaths, cpaths;
static char **skips;
static int nskips;

static void
keep(const char *path)
{
	if (npaths == cpaths) {
		cpaths = cpaths ? 2 * cpaths : 256;
		if ((paths = realloc(paths, cpaths * sizeof(*paths))) == NULL)
			die("realloc");
	}
	if ((paths[npaths++] = strdup(path)) == NULL)
		die("strdup");
}

static void
tree(const char *path)
{
	struct dirent *de;
	struct stat st;
	char sub[4096];
	DIR *d;
	int i;

	for (i = 0; i < nskips; i++)
		if (strcmp(path, skips[i]) == 0)
			return;
	keep(path);
	if (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode) ||
	    (d = opendir(path)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", path,
		    de->d_name) < sizeof(sub))
			tree(sub);
		else
			keep(sub);	/* cut, but a change all the same */
	}
	closedir(d);
}

static int
bybytes(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static volatile sig_atomic_t expired;

static void
alarmed(int sig)
{
	(void)sig;
	expired = 1;
}

static int
run(int argc, char **argv)
{
	const char *err = "/dev/null", *re = NULL;
	char **tops;
	int ntops = 0;
	struct sigaction sa;
	regex_t rx;
	unsigned long secs = 120, raw = 0;
	char buf[65536], *line, *nl;
	size_t len = 0, i;
	pid_t pid;
	int c, fd, st, status, says = 0;
	ssize_t r;

	if ((skips = calloc((size_t)argc, sizeof(*skips))) == NULL ||
	    (tops = calloc((size_t)argc, sizeof(*tops))) == NULL)
		die("calloc");
	while ((c = getopt(argc, argv, "+t:e:m:w:x:")) != -1) {
		switch (c) {
		case 't': secs = (unsigned long)number(optarg); break;
		case 'e': err = optarg; break;
		case 'm': re = optarg; break;
		case 'w': tops[ntops++] = optarg; break;
		case 'x': skips[nskips++] = optarg; break;
		default: return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "mktar: run: no command\n");
		return 2;
	}
	if (re != NULL && regcomp(&rx, re, REG_EXTENDED | REG_NOSUB) != 0) {
		fprintf(stderr, "mktar: run: %s: a bad regex\n", re);
		return 2;
	}
	fflush(stdout);
	if ((pid = fork()) < 0)
		die("fork");
	if (pid == 0) {
		/* A group of its own, killed whole on the timeout. */
		setpgid(0, 0);
		if ((fd = open("/dev/null", O_WRONLY)) < 0 ||
		    dup2(fd, 1) < 0)
			die("/dev/null");
		close(fd);
		if ((fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600)) < 0 ||
		    dup2(fd, 2) < 0)
			die(err);
		close(fd);
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "mktar: %s: %s\n", argv[optind],
		    strerror(errno));
		_exit(127);
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = alarmed;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);	/* no SA_RESTART: wait is cut */
	alarm((unsigned int)secs);
	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR)
			die("waitpid");
		if (expired) {
			kill(-pid, SIGTERM);
			kill(pid, SIGTERM);
		}
	}
	alarm(0);
	if (expired)
		status = 124;
	else if (WIFEXITED(st))
		status = WEXITSTATUS(st);
	else
		status = 128 + WTERMSIG(st);

	/* The messages: their raw bytes, and the line REGEX wants. */
	if ((fd = open(err, O_RDONLY)) >= 0) {
		char *all = NULL;

		while ((r = read(fd, buf, sizeof(buf))) > 0) {
			if ((all = realloc(all, len + (size_t)r + 1)) == NULL)
				die("realloc");
			memcpy(all + len, buf, (size_t)r);
			len += (size_t)r;
		}
		close(fd);
		for (i = 0; i < len; i++)
			if (all[i] != '\n' && (all[i] < ' ' || all[i] > '~'))
				raw++;
		if (re != NULL && all != NULL) {
			all[len] = '\0';
			for (line = all; !says && line < all + len;
			    line = nl + 1) {
				if ((nl = memchr(line, '\n',
				    (size_t)(all + len - line))) == NULL)
					nl = all + len;
				*nl = '\0';
				says = regexec(&rx, line, 0, NULL, 0) == 0;
			}
		}
		free(all);
	}
	printf("%d %lu %d\n", status, raw, says);
	for (c = 0; c < ntops; c++)
		tree(tops[c]);
	qsort(paths, npaths, sizeof(*paths), bybytes);
	for (i = 0; i < npaths; i++)
		printf("%s\n", paths[i]);
	if (fflush(stdout) != 0)
		die("stdout");
	return 0;
}

int
main(int argc, char **argv)
{
	static const char z[2 * BLOCK];
	unsigned char h[BLOCK];
	char buf[65536];
	uint64_t size, n;
	off_t at;
	ssize_t r;
	int fd;

	if (argc < 3) {
		fprintf(stderr, "usage: mktar OUT command [args]\n");
		return 2;
	}
	out = argv[1];
	if (strcmp(argv[2], "run") == 0)
		return run(argc - 2, argv + 2);
	if (strcmp(argv[2], "get") == 0 && argc == 5) {
		walk(argv[3], NULL, 0, argv[4]);
		return 0;
	}
	if ((ofd = open(out, O_RDWR | O_APPEND | O_CREAT, 0600)) < 0)
		die(out);
	if (strcmp(argv[2], "copy") == 0 && argc >= 4)
		walk(argv[3], argv + 4, argc - 4, NULL);
	else if (strcmp(argv[2], "hdr") == 0 && (argc == 6 || argc == 7))
		hdr(argv[3], argv[4][0], number(argv[5]),
		    argc == 7 ? argv[6] : NULL);
	else if (strcmp(argv[2], "file") == 0 && argc == 5) {
		if ((fd = open(argv[4], O_RDONLY)) < 0)
			die(argv[4]);
		if ((at = lseek(fd, 0, SEEK_END)) < 0 ||
		    lseek(fd, 0, SEEK_SET) < 0)
			die(argv[4]);
		hdr(argv[3], '0', (uint64_t)at, NULL);
		while ((r = read(fd, buf, sizeof(buf))) > 0)
			put(buf, (size_t)r);
		if (r < 0)
			die(argv[4]);
		close(fd);
		pad((uint64_t)at);
	} else if (strcmp(argv[2], "zeros") == 0 && argc == 5) {
		size = number(argv[4]);
		hdr(argv[3], '0', size, NULL);
		size = (size + BLOCK - 1) / BLOCK * BLOCK;
		if ((at = lseek(ofd, 0, SEEK_END)) < 0 ||
		    ftruncate(ofd, at + (off_t)size) < 0)
			die(out);
	} else if (strcmp(argv[2], "many") == 0 && argc == 4) {
		/* One header, written over and over in big writes. */
		static unsigned char many[128 * BLOCK];
		uint64_t i;

		n = number(argv[3]);
		memset(h, 0, sizeof(h));
		memcpy(h, "./", 2);
		snprintf((char *)h + 100, 8, "%07o", 0700);
		snprintf((char *)h + 124, 12, "%011o", 0);
		h[156] = '5';
		memcpy(h + 257, "ustar\0" "00", 8);
		sum(h);
		for (i = 0; i < 128; i++)
			memcpy(many + i * BLOCK, h, BLOCK);
		for (; n >= 128; n -= 128)
			put(many, sizeof(many));
		put(many, n * BLOCK);
	} else if (strcmp(argv[2], "sum") == 0 && argc == 4) {
		n = number(argv[3]);
		for (at = 0; pread(ofd, h, BLOCK, at) == BLOCK && h[0] != '\0';
		    at += BLOCK + (off_t)((hsize(h) + BLOCK - 1) / BLOCK *
		    BLOCK)) {
			if (--n > 0)
				continue;
			h[148] = h[148] == '1' ? '2' : '1';
			/* O_APPEND ignores pwrite's offset: a second fd. */
			if ((fd = open(out, O_WRONLY)) < 0 ||
			    pwrite(fd, h, BLOCK, at) != BLOCK)
				die(out);
			close(fd);
			return 0;
		}
		fprintf(stderr, "mktar: %s: no such header\n", out);
		return 1;
	} else if (strcmp(argv[2], "end") == 0 && argc == 3)
		put(z, sizeof(z));
	else {
		fprintf(stderr, "mktar: %s: unknown or wrong arguments\n",
		    argv[2]);
		return 2;
	}
	if (close(ofd) < 0)
		die(out);
	return 0;
}
