/*
 * ds_stat_parse against the parser it replaced (kept below as
 * old_stat_parse, verbatim but for its name): the same return and the
 * same struct, byte for byte, on every stat file of this machine's
 * /proc (processes and threads), on the fuzz corpus, on each of them
 * cut at every length and with every byte replaced by each of the
 * bytes that matter (blanks, newline, NUL, parentheses, digits), and
 * on random lines of fields.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tap.h"

static int
old_stat_parse(const char *text, size_t len, struct ds_stat *st)
{
	const char *open, *close, *p, *end = text + len;
	char buf[1024], *f[64];
	size_t n, l;
	uint64_t v;

	memset(st, 0, sizeof(*st));
	open = memchr(text, '(', len);
	close = NULL;
	for (p = end; p > text; p--)
		if (p[-1] == ')') {
			close = p - 1;
			break;
		}
	if (open == NULL || close == NULL || close < open)
		return -EINVAL;
	if (ds_parse_u64(text, &p, &v) < 0 || v > INT32_MAX || p > open)
		return -EINVAL;
	st->pid = (int)v;
	l = (size_t)(close - open - 1);
	st->comm_len = l < sizeof(st->comm) - 1 ? l : sizeof(st->comm) - 1;
	memcpy(st->comm, open + 1, st->comm_len);
	st->comm[st->comm_len] = '\0';
	l = (size_t)(end - close - 1);
	if (l >= sizeof(buf))
		l = sizeof(buf) - 1;
	memcpy(buf, close + 1, l);
	buf[l] = '\0';
	n = ds_split(buf, f, sizeof(f) / sizeof(f[0]));
	/* f[0] is field 3 (state). */
	if (n < 20)
		return -EINVAL;
	st->state = f[0][0];
	st->nfields = (unsigned int)(n + 2);
	/* A pid is at most 2^22 (PID_MAX_LIMIT); the int must hold it. */
	if (ds_strtou64(f[1], &v) < 0 || v > INT32_MAX)
		return -EINVAL;
	st->ppid = (int)v;
	if (ds_strtou64(f[11], &v) < 0)		/* 14 utime */
		return -EINVAL;
	st->utime = v;
	if (ds_strtou64(f[12], &v) < 0)		/* 15 stime */
		return -EINVAL;
	st->stime = v;
	if (ds_strtou64(f[6], &v) == 0)		/* 9 flags: PF_KTHREAD */
		st->kthread = (v & 0x00200000u) != 0;
	if (ds_strtou64(f[17], &v) < 0)		/* 20 num_threads */
		return -EINVAL;
	st->num_threads = v;
	if (ds_strtou64(f[19], &v) < 0)		/* 22 starttime, ticks */
		return -EINVAL;
	st->starttime = v;
	/* 42 delayacct_blkio_ticks: since 2.6.18, absent on short lines. */
	if (n >= 40 && ds_strtou64(f[39], &v) == 0) {
		st->blkio_ticks = v;
		st->have_blkio = 1;
	}
	return 0;
}

static size_t checked, differ;
static char first[256];

static void
check(const char *text, size_t len, const char *what)
{
	struct ds_stat a, b;
	char *t;
	int ra, rb;

	/* Both read text[len] at most as a terminator, as a ds_buf has. */
	if ((t = malloc(len + 1)) == NULL)
		abort();
	memcpy(t, text, len);
	t[len] = '\0';
	ra = old_stat_parse(t, len, &a);
	rb = ds_stat_parse(t, len, &b);
	checked++;
	if (ra != rb || memcmp(&a, &b, sizeof(a)) != 0) {
		if (differ++ == 0)
			snprintf(first, sizeof(first), "%s (%zu bytes)", what,
			    len);
	}
	free(t);
}

/* Cut at every length; every byte replaced by each that matters. */
static void
mutate(const char *text, size_t len, const char *what)
{
	static const char sub[] = { ' ', '\t', '\n', '\0', ')', '(', '0',
	    '9', 'x', '-' };
	char *t;
	size_t i, j;

	for (i = 0; i <= len; i++)
		check(text, i, what);
	if ((t = malloc(len + 1)) == NULL)
		abort();
	for (i = 0; i < len; i++) {
		memcpy(t, text, len);
		for (j = 0; j < sizeof(sub); j++) {
			t[i] = sub[j];
			check(t, len, what);
		}
	}
	free(t);
}

static size_t
slurp(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (f == NULL)
		return (size_t)-1;
	n = fread(buf, 1, size, f);
	fclose(f);
	return n;
}

/* Every proc/PID/stat and proc/PID/task/TID/stat; returns how many. */
static size_t
live(int deep)
{
	char path[600], buf[4096];
	struct dirent *de, *te;
	DIR *d, *td;
	size_t n, files = 0;

	if ((d = opendir("/proc")) == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/task", de->d_name);
		if ((td = opendir(path)) == NULL)
			continue;
		while ((te = readdir(td)) != NULL) {
			if (te->d_name[0] < '1' || te->d_name[0] > '9')
				continue;
			snprintf(path, sizeof(path), "/proc/%s/task/%s/stat",
			    de->d_name, te->d_name);
			if ((n = slurp(path, buf, sizeof(buf))) == (size_t)-1)
				continue;
			files++;
			if (deep && files <= 6)
				mutate(buf, n, path);
			else
				check(buf, n, path);
		}
		closedir(td);
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		if ((n = slurp(path, buf, sizeof(buf))) != (size_t)-1)
			check(buf, n, path);
	}
	closedir(d);
	return files;
}

static size_t
corpus(const char *dir)
{
	char path[4096 + 300];
	static char buf[1 << 16];
	struct dirent *de;
	size_t n, files = 0;
	DIR *d;

	if ((d = opendir(dir)) == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if ((n = slurp(path, buf, sizeof(buf))) == (size_t)-1)
			continue;
		files++;
		if (n <= 2048)
			mutate(buf, n, path);
		else
			check(buf, n, path);
	}
	closedir(d);
	return files;
}

static unsigned long rng = 12345;

static unsigned
rnd(unsigned n)
{
	rng = rng * 6364136223846793005ul + 1442695040888963407ul;
	return (unsigned)(rng >> 33) % n;
}

int
main(int argc, char **argv)
{
	static const char *const tok[] = { "0", "1", "42", "4194304",
	    "2147483647", "2147483648", "18446744073709551615",
	    "18446744073709551616", "99999999999999999999", "-1", "+1", "x",
	    "1x", "S", "R", ")", "(", ")(", "", " ", "\t", "\n" };
	char line[4096], dir[4096];
	const char *src;
	size_t n, i, k, files;

	(void)argc;
	/* t/unit/NAME runs from the top of the tree; the corpus is there. */
	src = getenv("TOP") != NULL ? getenv("TOP") : ".";
	snprintf(dir, sizeof(dir), "%s/t/fuzz/corpus/stat", src);
	(void)argv;

	files = live(1);
	ok(files > 0, "this machine's thread stat files read");
	files = corpus(dir);
	ok(files > 0, "fuzz corpus read");

	/* Random lines: "pid (comm) " and tokens, some past 1023 bytes. */
	for (k = 0; k < 20000; k++) {
		n = (size_t)snprintf(line, sizeof(line), "%u (%s) ",
		    rnd(5000000), rnd(4) == 0 ? "a) (b" : "c");
		for (i = rnd(80); i > 0 && n < sizeof(line) - 64; i--) {
			n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%s",
			    tok[rnd(sizeof(tok) / sizeof(tok[0]))],
			    rnd(8) == 0 ? "\t" : " ");
			if (rnd(50) == 0)	/* a long field */
				for (; n < sizeof(line) - 64 && rnd(200); n++)
					line[n] = (char)('0' + rnd(10));
		}
		check(line, n, "random");
	}
	/* A real line made longer than 1 KB after comm, cut at every byte. */
	n = (size_t)snprintf(line, sizeof(line), "7 (x) S");
	for (i = 0; n < 1100; i++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, " %zu", i * 7);
	mutate(line, n, "long");

	ok(checked > 100000, "many inputs checked");
	printf("# %zu inputs\n", checked);
	is_int((int)differ, 0, "the same return and struct on each");
	if (differ > 0)
		printf("# first: %s\n", first);
	return tap_done();
}
