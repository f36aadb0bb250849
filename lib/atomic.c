/* Files replaced atomically, for collectors that read at any moment. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diskstat.h"

int
ds_atomic_open(struct ds_atomic *a, const char *path)
{
	int fd, n;

	a->fp = NULL;
	if (strlen(path) >= sizeof(a->path))
		return -ENAMETOOLONG;
	strcpy(a->path, path);
	/* Same directory as the target, so rename(2) stays on one filesystem. */
	n = snprintf(a->tmp, sizeof(a->tmp), "%s.tmpXXXXXX", path);
	if (n < 0 || (size_t)n >= sizeof(a->tmp))
		return -ENAMETOOLONG;
	fd = mkostemp(a->tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* mkstemp makes 0600; a collector may run as another user. */
	(void)fchmod(fd, 0644);
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
