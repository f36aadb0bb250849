/*
 * -d DIR: captures kept in a directory under names that sort by time,
 * YYYYmmddTHHMMSSZ.cap (UTC, the capture's first sample), with -N
 * before .cap for a second capture in the same second.  After a capture
 * is written the older ones are pruned by age (-a) and by the total of
 * their sizes (-m).  Only names of that form are ever removed, only
 * regular files (a symbolic link so named is neither followed nor
 * removed), and never the capture just written; and a killed
 * dcapture's temporary files (.dcapture-*), ours and hours old.
 *
 * Everything after the directory is opened goes through its descriptor,
 * so that a rename of DIR or of a link to it changes nothing.
 */
#include <dirent.h>
#include <sys/stat.h>
#include <time.h>

#include "dcapture.h"

#define KEEP_SUFFIX	".cap"
#define KEEP_STAMP	16		/* "20261205T031500Z" */
#define KEEP_DUP_MAX	99999		/* "-99999" */
#define KEEP_TMP	".dcapture-"	/* never a kept name: a dot first */
/*
 * A temporary file unchanged for longer is a killed dcapture's: nothing
 * is written during a window, and the longest window is an hour.
 */
#define KEEP_STALE_NS	(2 * 3600ull * 1000000000ull)

struct kept {
	char name[KEEP_NAME];
	uint64_t time_ns;	/* from the name */
	unsigned int dup;	/* N of -N, 0 without */
	uint64_t mtime_ns;	/* within a second, the later written */
	uint64_t bytes;		/* st_size */
};

static void
keep_name(char *buf, size_t n, uint64_t time_ns, unsigned int dup)
{
	time_t s = (time_t)(time_ns / 1000000000u);
	struct tm tm;
	char stamp[32];

	gmtime_r(&s, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	if (dup == 0)
		snprintf(buf, n, "%s%s", stamp, KEEP_SUFFIX);
	else
		snprintf(buf, n, "%s-%u%s", stamp, dup, KEEP_SUFFIX);
}

static int
two(const char *p, int lo, int hi, int *v)
{
	if (p[0] < '0' || p[0] > '9' || p[1] < '0' || p[1] > '9')
		return -EINVAL;
	*v = (p[0] - '0') * 10 + (p[1] - '0');
	return *v < lo || *v > hi ? -EINVAL : 0;
}

/* The time a kept name says; -EINVAL when it is not one of ours. */
static int
name_time(const char *name, uint64_t *ns, unsigned int *dup)
{
	struct tm tm;
	const char *p = name + KEEP_STAMP;
	int cc, yy;
	unsigned long d = 0;
	time_t t;

	if (strlen(name) < KEEP_STAMP || name[8] != 'T' || name[15] != 'Z')
		return -EINVAL;
	memset(&tm, 0, sizeof(tm));
	if (two(name, 19, 99, &cc) < 0 || two(name + 2, 0, 99, &yy) < 0 ||
	    two(name + 4, 1, 12, &tm.tm_mon) < 0 ||
	    two(name + 6, 1, 31, &tm.tm_mday) < 0 ||
	    two(name + 9, 0, 23, &tm.tm_hour) < 0 ||
	    two(name + 11, 0, 59, &tm.tm_min) < 0 ||
	    two(name + 13, 0, 60, &tm.tm_sec) < 0)
		return -EINVAL;
	if (*p == '-') {	/* a second capture in the same second */
		if (p[1] < '1' || p[1] > '9')
			return -EINVAL;
		for (p++; *p >= '0' && *p <= '9'; p++)
			if ((d = d * 10 + (unsigned long)(*p - '0')) >
			    KEEP_DUP_MAX)
				return -EINVAL;
	}
	if (strcmp(p, KEEP_SUFFIX) != 0)
		return -EINVAL;
	tm.tm_year = cc * 100 + yy - 1900;
	tm.tm_mon--;
	if ((t = timegm(&tm)) == (time_t)-1 || t < 0)
		return -EINVAL;
	*ns = (uint64_t)t * 1000000000u;
	*dup = (unsigned int)d;
	return 0;
}

static int
by_time(const void *a, const void *b)
{
	const struct kept *x = a, *y = b;

	if (x->time_ns != y->time_ns)
		return x->time_ns < y->time_ns ? -1 : 1;
	if (x->mtime_ns != y->mtime_ns)
		return x->mtime_ns < y->mtime_ns ? -1 : 1;
	return (x->dup > y->dup) - (x->dup < y->dup);
}

void
keep_open(struct keep *k)
{
	struct stat st;
	int made = 0;

	if (mkdir(k->dir, 0700) == 0)
		made = 1;
	else if (errno != EEXIST)
		tool_err(1, "%s", k->dir);
	if ((k->fd = open(k->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		tool_err(1, "%s", k->dir);
	if (fstat(k->fd, &st) < 0)
		tool_err(1, "%s", k->dir);
	/*
	 * A directory another user owns or may write is refused: pruning
	 * removes files in it, and whoever else can write it could remove
	 * or replace the evidence, or plant names for us to remove.
	 */
	if (st.st_uid != geteuid())
		tool_errx(1, "%s: owned by uid %lu, not by this user: refused",
		    k->dir, (unsigned long)st.st_uid);
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
		tool_errx(1, "%s: writable by group or others: refused",
		    k->dir);
	/* mkdir's mode passed through the umask: the directory is 0700. */
	if (made && fchmod(k->fd, 0700) < 0)
		tool_err(1, "%s", k->dir);
}

/* The temporary file in the directory, 0600 whatever the umask. */
int
keep_tmp(struct keep *k)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	uint64_t r = ds_realtime_ns() ^ ((uint64_t)getpid() << 32);
	int fd, i, j;

	for (i = 0; i < 100; i++) {
		memcpy(k->tmp, KEEP_TMP, sizeof(KEEP_TMP) - 1);
		for (j = 0; j < 8; j++) {
			k->tmp[sizeof(KEEP_TMP) - 1 + j] = set[r % 36];
			r = r / 36 ^ (r * 6364136223846793005ull + 1);
		}
		k->tmp[sizeof(KEEP_TMP) - 1 + j] = '\0';
		fd = openat(k->fd, k->tmp, O_WRONLY | O_CREAT | O_EXCL |
		    O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0) {
			if (fchmod(fd, 0600) == 0)
				return fd;
			fd = -errno;
			unlinkat(k->fd, k->tmp, 0);
			k->tmp[0] = '\0';
			return fd;
		}
		if (errno != EEXIST)
			break;
	}
	k->tmp[0] = '\0';
	return -errno;
}

void
keep_abort(struct keep *k)
{
	if (k->tmp[0] != '\0')
		(void)unlinkat(k->fd, k->tmp, 0);
	k->tmp[0] = '\0';
}

/*
 * The temporary file (written, synced, closed) under the name of
 * time_ns.  link() fails rather than replace a capture of the same
 * second, so the next -N is tried; a file system without hard links
 * gets a rename after a check (the directory is ours alone).
 */
int
keep_commit(struct keep *k, uint64_t time_ns)
{
	struct stat st;
	unsigned int dup;
	int e = 0;

	for (dup = 0; dup <= KEEP_DUP_MAX; dup++) {
		keep_name(k->name, sizeof(k->name), time_ns, dup);
		if (linkat(k->fd, k->tmp, k->fd, k->name, 0) == 0)
			break;
		if ((e = errno) == EEXIST)
			continue;
		if (e != EPERM && e != EOPNOTSUPP && e != EMLINK)
			return -e;
		if (fstatat(k->fd, k->name, &st, AT_SYMLINK_NOFOLLOW) == 0)
			continue;
		if (renameat(k->fd, k->tmp, k->fd, k->name) < 0)
			return -errno;
		k->tmp[0] = '\0';
		break;
	}
	if (dup > KEEP_DUP_MAX)
		return -EEXIST;
	keep_abort(k);
	/* The new name made durable: the directory synced. */
	(void)fsync(k->fd);
	return 0;
}

/* DIR, through its descriptor, to be read. */
static int
dir_open(struct keep *kp, DIR **d)
{
	int fd, e;

	if ((fd = openat(kp->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -errno;
	if ((*d = fdopendir(fd)) == NULL) {
		e = -errno;
		close(fd);
		return e;
	}
	return 0;
}

/*
 * The temporary files a dcapture killed before its end left behind:
 * removed when they are regular files of ours unchanged for
 * KEEP_STALE_NS, so that a running dcapture's is never touched.  A
 * link or anything else so named is left alone.  The number of
 * removals that failed, said; or -errno when the directory was not
 * read.
 */
int
keep_sweep(struct keep *kp, uint64_t now_ns)
{
	struct dirent *de;
	struct stat st;
	uint64_t mt;
	DIR *d;
	int e, failed = 0;

	if ((e = dir_open(kp, &d)) < 0)
		return e;
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, KEEP_TMP, sizeof(KEEP_TMP) - 1) != 0 ||
		    strcmp(de->d_name, kp->tmp) == 0 ||
		    fstatat(kp->fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISREG(st.st_mode) || st.st_uid != geteuid())
			continue;
		mt = (uint64_t)st.st_mtim.tv_sec * 1000000000u +
		    (uint64_t)st.st_mtim.tv_nsec;
		if (st.st_mtim.tv_sec < 0 || now_ns < mt ||
		    now_ns - mt <= KEEP_STALE_NS)
			continue;
		if (unlinkat(kp->fd, de->d_name, 0) < 0 && errno != ENOENT) {
			failed++;
			tool_warn("%s/%s", kp->dir, de->d_name);
		}
	}
	closedir(d);
	return failed;
}

/* The kept captures of the directory, oldest first. */
static int
list(struct keep *kp, struct kept **out, size_t *n)
{
	struct kept *k = NULL;
	size_t cap = 0;
	struct dirent *de;
	struct stat st;
	DIR *d;
	int e;

	*n = 0;
	*out = NULL;
	if ((e = dir_open(kp, &d)) < 0)
		return e;
	while ((de = readdir(d)) != NULL) {
		uint64_t t;
		unsigned int dup;

		if (strlen(de->d_name) >= sizeof(k->name) ||
		    name_time(de->d_name, &t, &dup) < 0 ||
		    fstatat(kp->fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISREG(st.st_mode))
			continue;
		if (ds_grow(&k, &cap, *n + 1, sizeof(*k)) < 0) {
			closedir(d);
			free(k);
			return -ENOMEM;
		}
		strcpy(k[*n].name, de->d_name);
		k[*n].time_ns = t;
		k[*n].dup = dup;
		k[*n].mtime_ns = (uint64_t)st.st_mtim.tv_sec * 1000000000u +
		    (uint64_t)st.st_mtim.tv_nsec;
		k[*n].bytes = (uint64_t)st.st_size;
		(*n)++;
	}
	closedir(d);
	if (*n > 1)
		qsort(k, *n, sizeof(*k), by_time);
	*out = k;
	return 0;
}

/*
 * Oldest first: a capture older than -a, or any while the total is
 * over -m, is removed; the one just written (k->name) stays whatever
 * its size.  A removal that fails is said and the rest still tried:
 * the number that failed, or -errno when the directory was not read.
 */
int
keep_prune(struct keep *kp, uint64_t now_ns)
{
	struct kept *k;
	uint64_t total = 0;
	size_t i, n;
	int e, failed = 0;

	if ((e = list(kp, &k, &n)) < 0)
		return e;
	for (i = 0; i < n; i++)
		total += k[i].bytes;
	for (i = 0; i < n; i++) {
		int old = kp->max_age_ns != 0 && now_ns > k[i].time_ns &&
		    now_ns - k[i].time_ns > kp->max_age_ns;
		int over = kp->max_bytes != 0 && total > kp->max_bytes;

		if (strcmp(k[i].name, kp->name) == 0 || (!old && !over))
			continue;
		if (unlinkat(kp->fd, k[i].name, 0) < 0) {
			if (errno != ENOENT) {
				failed++;
				tool_warn("%s/%s", kp->dir, k[i].name);
			}
			continue;
		}
		total -= k[i].bytes;
	}
	free(k);
	return failed;
}
