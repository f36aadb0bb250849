/*
 * Captures' archives: ds_capture_extract on the bytes as a file (a
 * memfd, a regular file).  Refused: -EINVAL (a reason from
 * ds_capture_check) and nothing left in $TMPDIR; accepted: the tree
 * holds only what the rules let in, checked here from the tree itself
 * (first names a sample digit or capture, files, links and directories
 * only, files within 64 MiB, links in samples only and none climbing
 * out of its sample by its text), then removed.  $TMPDIR is a directory
 * of the harness's own, and nothing may appear beside it.  Read in place
 * (ds_tar_next), an archive extraction accepts is accepted, its names
 * relative and without ".."; as history (ds_histpt_read) it gives at
 * most two points or a refusal with a reason, and writes nothing.
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

/* The archive read in place to its end: 0, or -EINVAL with a reason. */
static int
scan(int fd)
{
	struct ds_buf why = { 0 }, b = { 0 };
	struct ds_tar_member m;
	struct ds_tar *t;
	const char *p;
	size_t k;
	int e, n = 0;

	FUZZ_CHECK(lseek(fd, 0, SEEK_SET) == 0);
	FUZZ_CHECK(ds_tar_open(fd, &why, &t) == 0);
	while ((e = ds_tar_next(t, &m)) == 1) {
		FUZZ_CHECK(m.path[0] != '/');
		for (p = m.path; (k = ds_path_comp(&p)) > 0; p += k)
			FUZZ_CHECK(!(k == 2 && p[0] == '.' && p[1] == '.'));
		FUZZ_CHECK(m.type == '0' || m.type == '2' || m.type == '5');
		/* Every other file's data read, the rest passed over. */
		if (m.type == '0' && n++ % 2 == 0 && ds_tar_data(t, &b) == 0)
			FUZZ_CHECK(b.len == m.size);
	}
	FUZZ_CHECK(e == 0 || e == -EINVAL);
	if (e == -EINVAL)
		FUZZ_CHECK(why.len > 0);
	ds_tar_close(t);
	ds_buf_free(&why);
	ds_buf_free(&b);
	return e;
}

static void
history(int fd)
{
	struct ds_histpt pt[DS_CAPTURE_SAMPLES];
	struct ds_buf why = { 0 };
	int n, i;

	FUZZ_CHECK(lseek(fd, 0, SEEK_SET) == 0);
	n = ds_histpt_read(fd, NULL, NULL, pt, &why);
	FUZZ_CHECK(n >= 0 ? n <= (int)DS_CAPTURE_SAMPLES : n == -EINVAL);
	if (n == -EINVAL)
		FUZZ_CHECK(why.len > 0);
	for (i = 0; i < n; i++)
		ds_histpt_free(&pt[i]);
	ds_buf_free(&why);
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
	/* What extraction accepts, the reader in place accepts. */
	if (scan(fd) == -EINVAL)
		FUZZ_CHECK(e == -EINVAL);
	history(fd);
	FUZZ_CHECK(names_in(dir) == 0);
	FUZZ_CHECK(names_in(base) == 1);
	ds_buf_free(&why);
	close(fd);
	return 0;
}
