/*
 * Block queue attributes: sys/block/DISK/queue, read, written and
 * compared.  A partition has no queue of its own; it uses its disk's.
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

static const struct {
	const char *name;
	int numeric;
} qattrs[DS_QA_N] = {
	[DS_QA_ROTATIONAL] = { "rotational", 1 },
	[DS_QA_SCHEDULER] = { "scheduler", 0 },
	[DS_QA_NR_REQUESTS] = { "nr_requests", 1 },
	[DS_QA_READ_AHEAD_KB] = { "read_ahead_kb", 1 },
	[DS_QA_MAX_SECTORS_KB] = { "max_sectors_kb", 1 },
	[DS_QA_MAX_HW_SECTORS_KB] = { "max_hw_sectors_kb", 1 },
	[DS_QA_LOGICAL_BLOCK_SIZE] = { "logical_block_size", 1 },
	[DS_QA_PHYSICAL_BLOCK_SIZE] = { "physical_block_size", 1 },
	[DS_QA_MINIMUM_IO_SIZE] = { "minimum_io_size", 1 },
	[DS_QA_OPTIMAL_IO_SIZE] = { "optimal_io_size", 1 },
	[DS_QA_NOMERGES] = { "nomerges", 1 },
	[DS_QA_NR_HW_QUEUES] = { "nr_hw_queues", 1 },
	[DS_QA_WRITE_CACHE] = { "write_cache", 0 },
	[DS_QA_DISCARD_MAX_BYTES] = { "discard_max_bytes", 1 },
	[DS_QA_WBT_LAT_USEC] = { "wbt_lat_usec", 1 },
	[DS_QA_ZONED] = { "zoned", 0 },
	[DS_QA_HOLDERS] = { "holders", 0 },
	[DS_QA_SLAVES] = { "slaves", 0 },
};

const char *
ds_qattr_name(enum ds_qattr a)
{
	return (unsigned)a < DS_QA_N ? qattrs[a].name : NULL;
}

int
ds_qattr_numeric(enum ds_qattr a)
{
	return (unsigned)a < DS_QA_N && qattrs[a].numeric;
}

/* Space, tab, newline or return: what sysfs puts around a word. */
static int
is_white(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int
ds_sched_parse(const char *text, struct ds_sched *s)
{
	const char *p = text, *start;
	size_t len;
	int bracket;

	memset(s, 0, sizeof(*s));
	for (;;) {
		while (is_white((unsigned char)*p))
			p++;
		if (*p == '\0')
			break;
		bracket = *p == '[';
		if (bracket)
			p++;
		start = p;
		while (*p != '\0' && !is_white((unsigned char)*p) &&
		    *p != '[' && *p != ']')
			p++;
		len = (size_t)(p - start);
		if (bracket) {
			if (*p != ']' || s->active[0] != '\0')
				return -EINVAL;
			p++;
		} else if (*p == '[' || *p == ']')
			return -EINVAL;
		/* "[mq-deadline]x": a bracket must end a word. */
		if (*p != '\0' && !is_white((unsigned char)*p))
			return -EINVAL;
		if (len == 0 || len >= DS_SCHED_NAME_MAX ||
		    s->n == DS_SCHED_MAX)
			return -EINVAL;
		memcpy(s->name[s->n], start, len);
		s->name[s->n][len] = '\0';
		if (bracket)
			memcpy(s->active, s->name[s->n], len + 1);
		s->n++;
	}
	return 0;
}

int
ds_queue_resolve(const struct ds_root *r, const struct ds_blockdevs *disks,
    const char *name, char *disk, size_t size)
{
	char rel[4096];
	size_t i;

	if (!ds_component_ok(name))
		return -EINVAL;
	if (ds_blockdevs_has(disks, name)) {
		if (strlen(name) >= size)
			return -ENAMETOOLONG;
		strcpy(disk, name);
		return 0;
	}
	/*
	 * A partition lives below its disk: sys/block/sda/sda1.  Walking
	 * the disks also works in captured trees, which rarely keep the
	 * sys/class/block symlinks.
	 */
	for (i = 0; i < disks->n; i++) {
		int fd;

		/* Only a partition has a "partition" file (its number). */
		if ((size_t)snprintf(rel, sizeof(rel),
		    "sys/block/%s/%s/partition", disks->name[i], name) >=
		    sizeof(rel))
			continue;
		fd = ds_openat(r, rel, O_PATH);
		if (fd < 0)
			continue;
		close(fd);
		if (strlen(disks->name[i]) >= size)
			return -ENAMETOOLONG;
		strcpy(disk, disks->name[i]);
		return 0;
	}
	return -ENOENT;
}

/* Cut trailing blanks (the kernel's newline) in place; returns the length. */
static size_t
rtrim(char *s, size_t len)
{
	while (len > 0 && is_white((unsigned char)s[len - 1]))
		len--;
	s[len] = '\0';
	return len;
}

/* Read one file relative to dirfd into b, trailing blanks cut. */
static int
read_at(const struct ds_root *r, int dirfd, const char *name,
    struct ds_buf *b)
{
	struct stat st;
	int fd, e, reg;

	b->len = 0;
	if (b->data != NULL)
		b->data[0] = '\0';
	fd = ds_openat_in(r, dirfd, name, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return fd;
	reg = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	e = ds_read_fd(fd, b);
	close(fd);
	if (e < 0)
		return e;
	b->len = rtrim(b->data, b->len);
	/*
	 * An empty regular file is what cp(1) leaves in a captured tree
	 * where the kernel refused the read (wbt_lat_usec without
	 * writeback throttling): a value not shown, not damage.  sysfs
	 * never prints nothing, and a FIFO is still refused by its parser.
	 */
	if (reg && b->len == 0)
		return -ENODATA;
	return 0;
}

/* Copy a short text attribute; -EINVAL when empty or too long. */
static int
text_copy(char *dst, size_t size, const struct ds_buf *b)
{
	if (b->len == 0 || b->len >= size)
		return -EINVAL;
	memcpy(dst, b->data, b->len + 1);
	return 0;
}

/*
 * A read that fails with EINVAL, EOPNOTSUPP or ENODEV is the kernel
 * saying the attribute does not apply to this queue (wbt_lat_usec
 * without writeback throttling): no value, but nothing wrong either.
 */
static int
read_err(int e)
{
	if (e == -EINVAL || e == -EOPNOTSUPP || e == -ENODEV)
		return -ENODATA;
	return e;
}

/* The attributes in queue/ (qfd, or its -errno) into q. */
static void
read_queue_dir(const struct ds_root *r, int qfd, struct ds_buf *scratch,
    struct ds_queue *q)
{
	int qerr = qfd < 0 ? qfd : 0, e;
	size_t i;

	for (i = 0; i < DS_QA_N; i++) {
		if (i == DS_QA_NR_HW_QUEUES || i == DS_QA_HOLDERS ||
		    i == DS_QA_SLAVES)
			continue;
		/* A captured tree may leave queue/ out: every value missing. */
		if (qfd < 0) {
			q->err[i] = qerr;
			continue;
		}
		if ((e = read_at(r, qfd, qattrs[i].name, scratch)) < 0) {
			q->err[i] = read_err(e);
			continue;
		}
		if (qattrs[i].numeric)
			e = ds_strtou64(scratch->data, &q->v[i]);
		else if (i == DS_QA_SCHEDULER)
			/*
			 * sysfs always prints at least "none"; nothing at all
			 * (a FIFO in a damaged tree) is no scheduler line.
			 */
			e = scratch->len == 0 ? -EINVAL :
			    ds_sched_parse(scratch->data, &q->sched);
		else if (i == DS_QA_WRITE_CACHE)
			e = text_copy(q->write_cache, sizeof(q->write_cache),
			    scratch);
		else
			e = text_copy(q->zoned, sizeof(q->zoned), scratch);
		q->err[i] = e < 0 ? -EINVAL : 0;
	}
}

int
ds_queue_read(const struct ds_root *r, const char *disk, const char *dev,
    struct ds_buf *scratch, struct ds_queue *q)
{
	struct ds_blockdevs mq = { 0 };
	char rel[4096];
	int qfd, dfd, e;

	ds_queue_free(q);
	q->qerr = 0;
	memset(q->err, 0, sizeof(q->err));
	memset(q->v, 0, sizeof(q->v));
	memset(&q->sched, 0, sizeof(q->sched));
	q->write_cache[0] = q->zoned[0] = '\0';
	if (!ds_component_ok(disk) || (dev != NULL && !ds_component_ok(dev)))
		return -EINVAL;
	if ((size_t)snprintf(rel, sizeof(rel), "sys/block/%s", disk) >=
	    sizeof(rel))
		return -ENAMETOOLONG;
	if ((dfd = ds_openat(r, rel, O_PATH | O_DIRECTORY)) < 0)
		return dfd;
	qfd = ds_openat_in(r, dfd, "queue", O_PATH | O_DIRECTORY);
	q->qerr = qfd < 0 ? qfd : 0;
	read_queue_dir(r, qfd, scratch, q);
	if (qfd >= 0)
		close(qfd);
	/*
	 * There is no file for the number of hardware queues: blk-mq makes
	 * one mq/N directory per queue.  Bio-based devices have no mq/.
	 */
	if ((e = ds_dir_names_in(r, dfd, "mq", 1, &mq)) < 0)
		q->err[DS_QA_NR_HW_QUEUES] = e;
	else
		q->v[DS_QA_NR_HW_QUEUES] = mq.n;
	ds_blockdevs_free(&mq);
	/* Stacking belongs to the device itself, partition or disk. */
	if (dev != NULL && strcmp(dev, disk) != 0) {
		int pfd = ds_openat_in(r, dfd, dev, O_PATH | O_DIRECTORY);

		close(dfd);
		if (pfd < 0) {
			e = pfd;
			q->err[DS_QA_HOLDERS] = q->err[DS_QA_SLAVES] = e;
			return 0;
		}
		dfd = pfd;
	}
	q->err[DS_QA_HOLDERS] = ds_dir_names_in(r, dfd, "holders", 0, &q->holders);
	q->err[DS_QA_SLAVES] = ds_dir_names_in(r, dfd, "slaves", 0, &q->slaves);
	close(dfd);
	return 0;
}

void
ds_queue_free(struct ds_queue *q)
{
	ds_blockdevs_free(&q->holders);
	ds_blockdevs_free(&q->slaves);
}

static int
qfile_add(struct ds_qfiles *out, const char *prefix, const char *name,
    const char *value, int err, int writable)
{
	struct ds_qfile *f;
	size_t l = strlen(prefix) + strlen(name) + 1;

	if (ds_grow(&out->f, &out->cap, out->n + 1, sizeof(*out->f)) < 0)
		return -ENOMEM;
	f = &out->f[out->n];
	memset(f, 0, sizeof(*f));
	if ((f->name = malloc(l)) == NULL)
		return -ENOMEM;
	snprintf(f->name, l, "%s%s", prefix, name);
	if (value != NULL && (f->value = strdup(value)) == NULL) {
		free(f->name);
		return -ENOMEM;
	}
	f->err = err;
	f->writable = writable;
	out->n++;
	return 0;
}

/* The regular files of one directory, sorted, appended to out. */
static int
files_of(const struct ds_root *r, int at, const char *dir, const char *prefix, struct ds_buf *scratch,
    struct ds_qfiles *out)
{
	struct ds_blockdevs names = { 0 };
	struct stat st;
	size_t i;
	int fd, e = 0;

	fd = ds_openat_in(r, at, dir, O_PATH | O_DIRECTORY);
	if (fd < 0)
		return fd;
	if ((e = ds_dir_names_in(r, fd, ".", 0, &names)) < 0) {
		close(fd);
		return e;
	}
	for (i = 0; i < names.n && e == 0; i++) {
		int re;

		if (fstatat(fd, names.name[i], &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISREG(st.st_mode))
			continue;
		re = read_at(r, fd, names.name[i], scratch);
		e = qfile_add(out, prefix, names.name[i],
		    re < 0 ? NULL : scratch->data, re,
		    (st.st_mode & 0222) != 0);
	}
	ds_blockdevs_free(&names);
	close(fd);
	return e;
}

int
ds_queue_files(const struct ds_root *r, const char *disk,
    struct ds_buf *scratch, struct ds_qfiles *out)
{
	char rel[4096];
	int qfd, e;

	ds_qfiles_free(out);
	if (!ds_component_ok(disk))
		return -EINVAL;
	if ((size_t)snprintf(rel, sizeof(rel), "sys/block/%s/queue", disk) >=
	    sizeof(rel))
		return -ENAMETOOLONG;
	if ((qfd = ds_openat(r, rel, O_PATH | O_DIRECTORY)) < 0)
		return qfd;
	e = files_of(r, qfd, ".", "", scratch, out);
	/* Without a scheduler there is no iosched/: nothing to list. */
	if (e == 0) {
		e = files_of(r, qfd, "iosched", "iosched/", scratch, out);
		if (e == -ENOENT)
			e = 0;
	}
	close(qfd);
	if (e < 0)
		ds_qfiles_free(out);
	return e;
}

void
ds_qfiles_free(struct ds_qfiles *fs)
{
	size_t i;

	for (i = 0; i < fs->n; i++) {
		free(fs->f[i].name);
		free(fs->f[i].value);
	}
	free(fs->f);
	fs->f = NULL;
	fs->n = fs->cap = 0;
}

/* [a-z0-9_], the alphabet of every queue attribute's name. */
static int
attr_word(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s != '\0'; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		    *s == '_'))
			return 0;
	return 1;
}

static int
queue_rel(char *rel, size_t size, const char *disk, const char *attr)
{
	if (!ds_component_ok(disk))
		return -EINVAL;
	if ((size_t)snprintf(rel, size, "sys/block/%s/queue/%s", disk, attr) >=
	    size)
		return -ENAMETOOLONG;
	return 0;
}

int
ds_queue_attr_path(const struct ds_root *r, const char *disk,
    const char *attr, char *rel, size_t size)
{
	char p[4096];
	struct stat st;
	const char *word = attr;
	int e;

	if (strncmp(attr, "iosched/", 8) == 0)
		word = attr + 8;
	if (!attr_word(word))
		return -EINVAL;
	if (!ds_component_ok(disk))
		return -EINVAL;
	if ((e = queue_rel(p, sizeof(p), disk, attr)) < 0)
		return e;
	if (ds_fstatat_in(r, r->fd, p, &st) == 0 && S_ISREG(st.st_mode)) {
		if (strlen(attr) >= size)
			return -ENAMETOOLONG;
		strcpy(rel, attr);
		return 0;
	}
	if (word != attr)
		return -ENOENT;
	/* A scheduler's tunable by its bare name: read_expire. */
	if ((size_t)snprintf(p, sizeof(p), "sys/block/%s/queue/iosched/%s",
	    disk, attr) >= sizeof(p))
		return -ENAMETOOLONG;
	if (ds_fstatat_in(r, r->fd, p, &st) == 0 && S_ISREG(st.st_mode)) {
		if ((size_t)snprintf(rel, size, "iosched/%s", attr) >= size)
			return -ENAMETOOLONG;
		return 0;
	}
	return -ENOENT;
}

int
ds_queue_attr_read(const struct ds_root *r, const char *disk,
    const char *rel, struct ds_buf *b)
{
	char p[4096];
	int e;

	if ((e = queue_rel(p, sizeof(p), disk, rel)) < 0)
		return e;
	if ((e = ds_read_file(r, p, b)) < 0)
		return e;
	b->len = rtrim(b->data, b->len);
	return 0;
}

int
ds_queue_attr_writable(const struct ds_root *r, const char *disk,
    const char *rel)
{
	char p[4096];
	struct stat st;
	int e;

	if ((e = queue_rel(p, sizeof(p), disk, rel)) < 0)
		return e;
	if ((e = ds_fstatat_in(r, r->fd, p, &st)) < 0)
		return e;
	return (st.st_mode & 0222) != 0;
}

/* value with blanks around it cut: start and length. */
static const char *
trim(const char *s, size_t *len)
{
	size_t n;

	while (is_white((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n > 0 && is_white((unsigned char)s[n - 1]))
		n--;
	*len = n;
	return s;
}

int
ds_queue_attr_write(const struct ds_root *r, const char *disk,
    const char *rel, const char *value)
{
	char p[4096], *buf;
	const char *v;
	size_t len;
	ssize_t n;
	int fd, e;

	if ((e = queue_rel(p, sizeof(p), disk, rel)) < 0)
		return e;
	v = trim(value, &len);
	if ((buf = malloc(len + 2)) == NULL)
		return -ENOMEM;
	memcpy(buf, v, len);
	buf[len] = '\n';
	/*
	 * No O_CREAT: a missing attribute must not become a file.  O_TRUNC
	 * is what a shell's ">" does; sysfs ignores it, a captured tree
	 * needs it.
	 */
	if ((fd = ds_openat(r, p, O_WRONLY | O_TRUNC | O_NONBLOCK)) < 0) {
		free(buf);
		return fd;
	}
	/*
	 * sysfs hands the store method the whole buffer of one write(2);
	 * its verdict (EINVAL for "noop") comes back from write or close.
	 */
	n = write(fd, buf, len + 1);
	e = n < 0 ? -errno : (size_t)n != len + 1 ? -EIO : 0;
	if (close(fd) < 0 && e == 0)
		e = -errno;
	free(buf);
	return e;
}

int
ds_queue_value_canon(const char *attr, const char *value, char *out,
    size_t size)
{
	struct ds_sched s;
	const char *v;
	size_t len, i, o = 0;
	uint64_t n;
	char tmp[256];
	int blank = 0;

	v = trim(value, &len);
	/* Runs of blanks inside ("write  back") count as one space. */
	for (i = 0; i < len; i++) {
		if (is_white((unsigned char)v[i])) {
			blank = 1;
			continue;
		}
		if (blank) {
			if (o + 1 >= size)
				return -ENAMETOOLONG;
			out[o++] = ' ';
			blank = 0;
		}
		if (o + 1 >= size)
			return -ENAMETOOLONG;
		out[o++] = v[i];
	}
	if (size == 0)
		return -ENAMETOOLONG;
	out[o] = '\0';
	if (strcmp(attr, "scheduler") == 0) {
		/*
		 * A whole scheduler line compares by its bracketed name;
		 * brackets that do not make one active name ("[x] [y]")
		 * are a damaged line, equal to nothing.
		 */
		if (strpbrk(out, "[]") != NULL) {
			if (ds_sched_parse(out, &s) < 0 ||
			    s.active[0] == '\0')
				return -EINVAL;
			if (strlen(s.active) >= size)
				return -ENAMETOOLONG;
			strcpy(out, s.active);
		}
		/* mq-deadline's elevator_alias: the kernel takes either. */
		if (strcmp(out, "deadline") == 0) {
			if (size <= strlen("mq-deadline"))
				return -ENAMETOOLONG;
			strcpy(out, "mq-deadline");
		}
		return 0;
	}
	if (ds_strtou64(out, &n) == 0) {
		snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)n);
		if (strlen(tmp) >= size)
			return -ENAMETOOLONG;
		strcpy(out, tmp);
	}
	return 0;
}

int
ds_queue_value_eq(const char *attr, const char *want, const char *got)
{
	char a[512], b[512];

	if (ds_queue_value_canon(attr, want, a, sizeof(a)) < 0 ||
	    ds_queue_value_canon(attr, got, b, sizeof(b)) < 0)
		return 0;
	return strcmp(a, b) == 0;
}

int
ds_qnames_join(char *const *names, size_t n, const char *sep,
    struct ds_buf *out)
{
	size_t i, sl = strlen(sep);

	out->len = 0;
	if (ds_buf_reserve(out, 1) < 0)
		return -ENOMEM;
	out->data[0] = '\0';
	for (i = 0; i < n; i++) {
		size_t l = strlen(names[i]), s = i > 0 ? sl : 0;

		if (ds_buf_reserve(out, l + s) < 0)
			return -ENOMEM;
		memcpy(out->data + out->len, sep, s);
		memcpy(out->data + out->len + s, names[i], l);
		out->len += l + s;
		out->data[out->len] = '\0';
	}
	return 0;
}

int
ds_sched_join(const struct ds_sched *s, struct ds_buf *out)
{
	char *names[DS_SCHED_MAX];
	size_t i;

	for (i = 0; i < s->n && i < DS_SCHED_MAX; i++)
		names[i] = (char *)s->name[i];
	return ds_qnames_join(names, i, " ", out);
}

int
ds_queue_sched_read(const struct ds_root *r, const char *disk,
    struct ds_buf *scratch, struct ds_sched *s)
{
	int e;

	if ((e = ds_queue_attr_read(r, disk, "scheduler", scratch)) < 0)
		return e;
	return ds_sched_parse(scratch->data, s);
}

int
ds_queue_attr_err(const struct ds_queue *q, enum ds_qattr a)
{
	int e;

	if ((unsigned)a >= DS_QA_N)
		return 0;
	e = q->err[a];
	/* Missing, or not applicable to this queue: a "-", no message. */
	if (e == -ENOENT || e == -ENODATA)
		return 0;
	/* Said once for queue/; these three live outside it. */
	if (q->qerr != 0 && e == q->qerr && a != DS_QA_NR_HW_QUEUES &&
	    a != DS_QA_HOLDERS && a != DS_QA_SLAVES)
		return 0;
	return e;
}
