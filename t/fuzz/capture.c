/*
 * Captures' archives: ds_capture_extract on the bytes as a file (a
 * memfd, a regular file).  Refused: -EINVAL (a reason from
 * ds_capture_check) and nothing left in $TMPDIR; accepted: the tree
 * holds only what the rules let in, checked here from the tree itself
 * (first names a sample digit or capture, files, links and directories
 * only, files within 64 MiB, links in samples only and none climbing
 * out of its sample by its text), then removed.  $TMPDIR is a directory
 * of the harness's own, and nothing may appear beside it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <sys/stat.h>

#include "fuzz.h"

static char base[64];		/* the harness's: holds tmp/ alone */
static size_t toplen;		/* strlen of the extraction's top */

static int
names_in(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int n = 0;

	FUZZ_CHECK(d != NULL);
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

/* The link's target stays in its sample, read from its directory. */
static int
inside(const char *target, long depth)
{
	const char *p = target;
	size_t n;

	if (*p == '/')
		return 1;
	for (; *p != '\0'; p += n) {
		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (--depth < 0)
				return 0;
		} else if (n > 0 && !(n == 1 && p[0] == '.'))
			depth++;
	}
	return 1;
}

static int
check_entry(const char *path, const struct stat *st, int flag,
    struct FTW *ftw)
{
	const char *rel = path + toplen;
	char target[4096];
	ssize_t n;

	(void)flag;
	if (ftw->level == 0)
		return 0;
	FUZZ_CHECK(*rel == '/');
	rel++;
	if (ftw->level == 1) {
		FUZZ_CHECK((rel[0] >= '0' && rel[0] <= '9' && rel[1] == '\0') ||
		    strcmp(rel, "capture") == 0);
		FUZZ_CHECK(S_ISDIR(st->st_mode));
	}
	FUZZ_CHECK(S_ISDIR(st->st_mode) || S_ISREG(st->st_mode) ||
	    S_ISLNK(st->st_mode));
	if (S_ISREG(st->st_mode))
		FUZZ_CHECK((uint64_t)st->st_size <= DS_CAPTURE_MEMBER_MAX);
	if (S_ISLNK(st->st_mode)) {
		FUZZ_CHECK(rel[0] >= '0' && rel[0] <= '9');
		n = readlink(path, target, sizeof(target) - 1);
		FUZZ_CHECK(n > 0);
		target[n] = '\0';
		/* In sample N/, a link at level L has its directory at L-2. */
		FUZZ_CHECK(inside(target, ftw->level - 2));
	}
	return 0;
}

static void
base_remove(void)
{
	char dir[80];

	snprintf(dir, sizeof(dir), "%s/tmp", base);
	rmdir(dir);
	rmdir(base);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ds_buf why = { 0 };
	char path[64], tmp[64], dir[80];
	int fd = fuzz_fd(data, size), e, c;

	if (base[0] == '\0') {
		snprintf(base, sizeof(base), "/tmp/ds-fuzz-capture.XXXXXX");
		FUZZ_CHECK(mkdtemp(base) != NULL);
		snprintf(dir, sizeof(dir), "%s/tmp", base);
		FUZZ_CHECK(mkdir(dir, 0700) == 0);
		setenv("TMPDIR", dir, 1);
		atexit(base_remove);
	}
	snprintf(dir, sizeof(dir), "%s/tmp", base);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	e = ds_capture_extract(path, tmp, sizeof(tmp));
	FUZZ_CHECK(e == 0 || e == -EINVAL);
	if (e == 0) {
		FUZZ_CHECK(strncmp(tmp, dir, strlen(dir)) == 0);
		toplen = strlen(tmp);
		FUZZ_CHECK(nftw(tmp, check_entry, 16, FTW_PHYS) == 0);
		FUZZ_CHECK(ds_tree_remove(tmp) == 0);
	} else
		FUZZ_CHECK(tmp[0] == '\0');
	c = ds_capture_check(path, &why);
	FUZZ_CHECK(c == 0 || c == -EINVAL);
	/* A refused archive, or an accepted one that is no capture. */
	if (c == -EINVAL)
		FUZZ_CHECK(why.len > 0);
	if (e == -EINVAL)
		FUZZ_CHECK(c == -EINVAL);
	FUZZ_CHECK(names_in(dir) == 0);
	FUZZ_CHECK(names_in(base) == 1);
	ds_buf_free(&why);
	close(fd);
	return 0;
}
