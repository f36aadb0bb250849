/*
 * Run a fuzz harness without libFuzzer: each argument is a file, or a
 * directory whose files (not recursively) are fed to
 * LLVMFuzzerTestOneInput one by one.  Prints one TAP line per input, so
 * "make check" replays the corpus and every saved regression with the
 * ordinary compiler (and with SANITIZE=1, under ASan and UBSan).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int n;

static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
run_file(const char *path)
{
	struct stat st;
	uint8_t *buf;
	size_t len = 0;
	ssize_t r;
	int fd;

	if ((fd = open(path, O_RDONLY)) < 0 || fstat(fd, &st) < 0) {
		printf("not ok %d - %s: %s\n", ++n, path, strerror(errno));
		return 1;
	}
	/* Exactly sized, like libFuzzer's buffer, so over-reads show. */
	if ((buf = malloc(st.st_size > 0 ? (size_t)st.st_size : 1)) == NULL) {
		printf("not ok %d - %s: out of memory\n", ++n, path);
		return 1;
	}
	while (len < (size_t)st.st_size &&
	    (r = read(fd, buf + len, (size_t)st.st_size - len)) > 0)
		len += (size_t)r;
	close(fd);
	/* Named first, so a failure shows which input it was. */
	printf("# %s\n", path);
	fflush(stdout);
	/* A failed check aborts: prove sees the missing plan and the signal. */
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	printf("ok %d - %s\n", ++n, path);
	return 0;
}

int
main(int argc, char **argv)
{
	struct dirent *de;
	struct stat st;
	char **names, path[4096];
	size_t nn, cap, i;
	int a, bad = 0;
	DIR *d;

	for (a = 1; a < argc; a++) {
		if (stat(argv[a], &st) < 0) {
			/* No saved regressions yet is not a failure. */
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			bad |= run_file(argv[a]);
			continue;
		}
		if ((d = opendir(argv[a])) == NULL)
			continue;
		names = NULL;
		nn = cap = 0;
		while ((de = readdir(d)) != NULL) {
			if (de->d_name[0] == '.')
				continue;
			if (nn == cap) {
				cap = cap ? cap * 2 : 64;
				if ((names = realloc(names,
				    cap * sizeof(*names))) == NULL)
					abort();
			}
			if ((names[nn++] = strdup(de->d_name)) == NULL)
				abort();
		}
		closedir(d);
		qsort(names, nn, sizeof(*names), cmpstr);
		for (i = 0; i < nn; i++) {
			snprintf(path, sizeof(path), "%s/%s", argv[a],
			    names[i]);
			if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
				bad |= run_file(path);
			free(names[i]);
		}
		free(names);
	}
	printf("1..%d\n", n);
	return bad;
}
