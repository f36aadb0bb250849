/* Files replaced atomically, for collectors that read at any moment. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

/*
 * The temporary file is made with open(2) and mode 0666, so the
 * kernel applies the umask (and a default ACL) as to any new file;
 * mkstemp(3) would force 0600.  An existing file keeps its mode and,
 * where we may, its owner: -w replaces the contents, not the rights.
 */
static int
tmp_open(struct ds_atomic *a, const char *path)
{
	uint64_t v;
	int fd = -1, n, tries;

	for (tries = 0; tries < 100; tries++) {
		if (getrandom(&v, sizeof(v), GRND_NONBLOCK) != sizeof(v))
			v = ((uint64_t)getpid() << 32) ^ (uint64_t)time(NULL) ^
			    (uint64_t)tries * 0x9e3779b97f4a7c15ULL;
		n = snprintf(a->tmp, sizeof(a->tmp), "%s.tmp%06llx", path,
		    (unsigned long long)(v & 0xffffff));
		if (n < 0 || (size_t)n >= sizeof(a->tmp))
			return -ENAMETOOLONG;
		fd = open(a->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		    O_CLOEXEC, 0666);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	return fd < 0 ? -errno : fd;
}

int
ds_atomic_open(struct ds_atomic *a, const char *path)
{
	struct stat st;
	int fd;

	a->fp = NULL;
	if (strlen(path) >= sizeof(a->path))
		return -ENAMETOOLONG;
	strcpy(a->path, path);
	/* Same directory as the target, so rename(2) stays on one filesystem. */
	if ((fd = tmp_open(a, path)) < 0)
		return fd;
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
		/* Not being root, the owner stays ours; the mode still holds. */
		if (fchown(fd, st.st_uid, st.st_gid) < 0 &&
		    fchown(fd, (uid_t)-1, st.st_gid) < 0) {
			/* Another group we are not in: the directory's it is. */
		}
		/* Not set-id or sticky: a report is no program. */
		if (fchmod(fd, st.st_mode & 0777) < 0) {
			int e = -errno;
			close(fd);
			unlink(a->tmp);
			return e;
		}
	}
	a->fp = fdopen(fd, "w");
	if (a->fp == NULL) {
		int e = -errno;
		close(fd);
		unlink(a->tmp);
		return e;
	}
	return 0;
}

void
ds_atomic_abort(struct ds_atomic *a)
{
	if (a->fp != NULL) {
		fclose(a->fp);
		a->fp = NULL;
		unlink(a->tmp);
	}
}

int
ds_atomic_commit(struct ds_atomic *a)
{
	int e = 0;

	if (a->fp == NULL)
		return -EBADF;
	errno = 0;
	if (fflush(a->fp) == EOF || ferror(a->fp))
		e = errno ? -errno : -EIO;
	else if (fsync(fileno(a->fp)) < 0)
		e = -errno;
	if (fclose(a->fp) == EOF && e == 0)
		e = errno ? -errno : -EIO;
	a->fp = NULL;
	if (e == 0 && rename(a->tmp, a->path) < 0)
		e = -errno;
	if (e < 0)
		unlink(a->tmp);
	return e;
}
