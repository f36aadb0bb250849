/*
 * Atomic output files: the new file appears whole, with the umask's
 * mode or the replaced file's, by rename; every failure leaves the old file and no temporary file.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"

static char dir[] = "/tmp/ds-unit-atomic.XXXXXX";

/* Entries of dir (without . and ..). */
static int
nentries(void)
{
	struct dirent *e;
	DIR *d;
	int n = 0;

	if ((d = opendir(dir)) == NULL)
		return -1;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

static const char *
slurp(const char *path)
{
	static char buf[256];
	ssize_t n;
	int fd;

	buf[0] = '\0';
	if ((fd = open(path, O_RDONLY)) < 0)
		return "(missing)";
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n < 0 ? 0 : n] = '\0';
	return buf;
}

static void
put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f != NULL) {
		fputs(text, f);
		fclose(f);
	}
}

int
main(void)
{
	struct ds_atomic a;
	struct stat st, st2;
	char path[4200], sub[4200], *longp;
	int fd, e;

	if (mkdtemp(dir) == NULL)
		return 1;
	snprintf(path, sizeof(path), "%s/out.prom", dir);

	/* A new file, under a umask that would make it private. */
	umask(077);
	is_int(ds_atomic_open(&a, path), 0, "open");
	ok(a.fp != NULL, "a stream to write");
	ok(strncmp(a.tmp, path, strlen(path)) == 0 &&
	    strstr(a.tmp, ".tmp") != NULL, "temporary file beside the target");
	is_int(stat(path, &st), -1, "target not there before commit");
	fputs("# TYPE x gauge\nx 1\n", a.fp);
	is_int(ds_atomic_commit(&a), 0, "commit");
	ok(a.fp == NULL, "stream closed by commit");
	is_str(slurp(path), "# TYPE x gauge\nx 1\n", "contents");
	is_int(stat(path, &st), 0, "target exists");
	/* Issue 15, 7: the umask holds for a new file. */
	is_int(st.st_mode & 07777, 0600, "mode 0600 under umask 077");
	is_int(nentries(), 1, "no temporary file left");

	/* Replacing: a new inode, the old one untouched until rename. */
	is_int(ds_atomic_open(&a, path), 0, "open over an existing file");
	fputs("second\n", a.fp);
	fflush(a.fp);
	is_str(slurp(path), "# TYPE x gauge\nx 1\n", "old contents until commit");
	is_int(ds_atomic_commit(&a), 0, "commit over the old file");
	is_str(slurp(path), "second\n", "new contents");
	is_int(stat(path, &st2), 0, "stat");
	ok(st.st_ino != st2.st_ino, "replaced by rename (new inode)");
	is_int(nentries(), 1, "still one file");
	/* An existing file keeps its mode, whatever the umask. */
	ok(chmod(path, 0640) == 0, "chmod 0640");
	umask(022);
	is_int(ds_atomic_open(&a, path), 0, "open over a 0640 file");
	fputs("third\n", a.fp);
	is_int(ds_atomic_commit(&a), 0, "commit");
	is_int(stat(path, &st2), 0, "stat");
	is_int(st2.st_mode & 07777, 0640, "the replaced file's mode 0640 kept");
	umask(077);
	ok(chmod(path, 0644) == 0 && (put(path, "second\n"), 1), "back to 0644");

	/* Abort: nothing changes. */
	is_int(ds_atomic_open(&a, path), 0, "open to abort");
	fputs("never\n", a.fp);
	ds_atomic_abort(&a);
	ok(a.fp == NULL, "abort closes");
	is_str(slurp(path), "second\n", "abort keeps the old file");
	is_int(nentries(), 1, "abort removes the temporary file");
	/*
	 * A second abort has no file of its own: it must touch nothing, not
	 * even a file that has since taken the temporary's name.
	 */
	put(a.tmp, "another's\n");
	ds_atomic_abort(&a);
	ok(a.fp == NULL && strcmp(slurp(a.tmp), "another's\n") == 0 &&
	    strcmp(slurp(path), "second\n") == 0,
	    "abort twice: nothing touched, not even at the temporary's name");
	unlink(a.tmp);
	is_int(ds_atomic_commit(&a), -EBADF, "commit without open: -EBADF");

	/* A write error (the disk is full): -ENOSPC, old file kept. */
	is_int(ds_atomic_open(&a, path), 0, "open for a failing write");
	fd = open("/dev/full", O_WRONLY);
	ok(fd >= 0 && dup2(fd, fileno(a.fp)) >= 0, "stream now writes to /dev/full");
	if (fd >= 0)
		close(fd);
	fputs("lost\n", a.fp);
	e = ds_atomic_commit(&a);
	is_int(e, -ENOSPC, "commit of a failed write: -ENOSPC");
	is_str(slurp(path), "second\n", "old file kept after the write error");
	is_int(nentries(), 1, "temporary file removed after the write error");

	/* rename fails: the target is a directory. */
	snprintf(sub, sizeof(sub), "%s/adir", dir);
	mkdir(sub, 0755);
	snprintf(path, sizeof(path), "%s/adir/x", dir);
	put(path, "x\n");
	is_int(ds_atomic_open(&a, sub), 0, "open with a directory as target");
	fputs("data\n", a.fp);
	e = ds_atomic_commit(&a);
	ok(e == -EISDIR || e == -ENOTEMPTY || e == -EEXIST,
	    "rename over a directory fails with -errno (%d)", e);
	is_int(nentries(), 2, "temporary file removed after the failed rename");
	unlink(path);
	rmdir(sub);

	/* Errors before anything is made. */
	snprintf(path, sizeof(path), "%s/no/such/dir/f", dir);
	is_int(ds_atomic_open(&a, path), -ENOENT, "missing directory: -ENOENT");
	ok(a.fp == NULL, "no stream after a failed open");
	longp = malloc(5000);
	memset(longp, 'a', 4999);
	longp[4999] = '\0';
	is_int(ds_atomic_open(&a, longp), -ENAMETOOLONG, "path too long");
	/* Fits in path but not with the ".tmpXXXXXX" suffix. */
	longp[sizeof(a.path) - 4] = '\0';
	is_int(ds_atomic_open(&a, longp), -ENAMETOOLONG,
	    "no room for the temporary name");
	free(longp);

	snprintf(path, sizeof(path), "%s/out.prom", dir);
	unlink(path);
	rmdir(dir);
	return tap_done();
}
