/*
 * The capture writer (lib/tarwrite.c) read back by the reader
 * (lib/tarread.c): files of every size about a block's boundary and the
 * writer's buffer, names split into ustar's prefix up to the longest
 * that fits, links, directories; names and targets refused with nothing
 * written; a full disk (/dev/full) an error that sticks.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"

static char scratch[] = "/tmp/ds-unit-tarw.XXXXXX";

static char *
path_of(const char *name)
{
	static char p[2][700];
	static int i;

	i = !i;
	snprintf(p[i], sizeof(p[i]), "%s/%s", scratch, name);
	return p[i];
}

/* A fresh archive file open for writing. */
static int
ar_open(const char *name)
{
	int fd = open(path_of(name), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0600);

	if (fd < 0) {
		perror(name);
		exit(1);
	}
	return fd;
}

/* The archive name extracted into a new directory dir (made here). */
static int
extract(const char *name, const char *dir, struct ds_buf *why)
{
	int top, e;

	if (mkdir(path_of(dir), 0700) < 0 ||
	    (top = open(path_of(dir), O_RDONLY | O_DIRECTORY)) < 0)
		return -errno;
	e = ds_tar_extract_at(path_of(name), top, why);
	close(top);
	return e;
}

/* 1 when file rel under dir holds exactly n bytes of pattern seed. */
static int
same(const char *dir, const char *rel, size_t n, unsigned seed)
{
	char p[600];
	unsigned char *b;
	size_t i;
	ssize_t r;
	int fd, ok = 1;

	snprintf(p, sizeof(p), "%s/%s/%s", scratch, dir, rel);
	if ((fd = open(p, O_RDONLY)) < 0)
		return 0;
	if ((b = malloc(n + 1)) == NULL)
		exit(1);
	r = read(fd, b, n + 1);
	close(fd);
	if (r != (ssize_t)n)
		ok = 0;
	for (i = 0; ok && i < n; i++)
		if (b[i] != (unsigned char)(i * 31 + seed))
			ok = 0;
	free(b);
	return ok;
}

static unsigned char *
pattern(size_t n, unsigned seed)
{
	unsigned char *b = malloc(n + 1);
	size_t i;

	if (b == NULL)
		exit(1);
	for (i = 0; i < n; i++)
		b[i] = (unsigned char)(i * 31 + seed);
	return b;
}

static off_t
size_of(const char *name)
{
	struct stat st;

	return stat(path_of(name), &st) == 0 ? st.st_size : -1;
}

/* Sizes about 512 and about the writer's 64 KiB buffer. */
static void
sizes(void)
{
	static const size_t n[] = { 0, 1, 511, 512, 513, 1023, 1024, 1025,
	    65535, 65536, 65537, 200000 };
	struct ds_tarw *w = malloc(sizeof(*w));
	struct ds_buf why = { 0 };
	unsigned char *b;
	char name[64];
	uint64_t want = 0;
	size_t i;
	int fd, e = 0;

	if (w == NULL)
		exit(1);
	fd = ar_open("sizes.tar");
	ds_tarw_init(w, fd, 1700000000);
	for (i = 0; i < nitems(n) && e == 0; i++) {
		b = pattern(n[i], (unsigned)i);
		snprintf(name, sizeof(name), "0/f%zu", n[i]);
		e = ds_tarw_file(w, name, b, n[i]);
		want += 512 + (n[i] + 511) / 512 * 512;
		free(b);
	}
	is_int(e, 0, "sizes: every file written");
	is_int(ds_tarw_end(w), 0, "sizes: the end written");
	close(fd);
	want += 1024;
	is_u64(w->bytes, want, "sizes: bytes counted: headers, padded data, "
	    "two zero blocks");
	is_int(size_of("sizes.tar"), (long long)want, "sizes: the file as long");
	is_int(extract("sizes.tar", "sizes", &why), 0, "sizes: read back");
	for (i = 0; i < nitems(n); i++) {
		snprintf(name, sizeof(name), "0/f%zu", n[i]);
		ok(same("sizes", name, n[i], (unsigned)i),
		    "sizes: %zu bytes read back exactly", n[i]);
	}
	ds_buf_free(&why);
	free(w);
}

/* A name of n bytes: "0/" then components of 50 then the last of k. */
static void
long_name(char *out, size_t n, size_t last)
{
	size_t i = 2;

	memcpy(out, "0/", 2);
	while (i < n - last - 1) {
		out[i] = (i - 2) % 50 == 49 && i < n - last - 2 ? '/' : 'd';
		i++;
	}
	out[i++] = '/';
	while (i < n)
		out[i++] = 'f';
	out[n] = '\0';
}

static void
names(void)
{
	struct ds_tarw *w = malloc(sizeof(*w));
	struct ds_buf why = { 0 };
	char name[300], link[128];
	uint64_t before;
	ssize_t r;
	size_t len;
	int fd, e;

	if (w == NULL)
		exit(1);
	fd = ar_open("names.tar");
	ds_tarw_init(w, fd, 0);
	long_name(name, 100, 10);
	is_int(ds_tarw_file(w, name, "a", 1), 0, "a 100-byte name: no prefix");
	long_name(name, 101, 10);
	is_int(ds_tarw_file(w, name, "b", 1), 0, "a 101-byte name: split");
	long_name(name, 255, 100);
	is_int(ds_tarw_file(w, name, "c", 1), 0, "a 255-byte name: split");
	long_name(name, 256, 100);
	is_int(ds_tarw_file(w, name, "d", 1), 0,
	    "a 256-byte name: prefix of 155, name of 100");
	before = w->bytes;
	long_name(name, 257, 100);
	is_int(ds_tarw_file(w, name, "e", 1), -ENAMETOOLONG,
	    "a 257-byte name: too long");
	long_name(name, 200, 101);
	is_int(ds_tarw_file(w, name, "e", 1), -ENAMETOOLONG,
	    "a last component of 101 bytes: no split fits");
	is_int(ds_tarw_file(w, "/etc/x", "e", 1), -EINVAL, "an absolute name");
	is_int(ds_tarw_file(w, "0/../x", "e", 1), -EINVAL, "a \"..\" component");
	is_int(ds_tarw_file(w, "..", "e", 1), -EINVAL, "\"..\" alone");
	is_int(ds_tarw_file(w, "", "e", 1), -EINVAL, "an empty name");
	memset(link, 'l', 101);
	link[101] = '\0';
	is_int(ds_tarw_link(w, "0/l", link), -ENAMETOOLONG,
	    "a link target of 101 bytes");
	is_u64(w->bytes, before, "nothing written for a refused name");
	is_int(w->err, 0, "a refused name is no write error");
	link[100] = '\0';
	is_int(ds_tarw_link(w, "0/l100", link), 0, "a link target of 100 bytes");
	is_int(ds_tarw_link(w, "0/sys/block/sda", "../devices/pci0/sda"), 0,
	    "a relative link");
	is_int(ds_tarw_link(w, "0/proc/9/fd/3", "/var/tmp/log (deleted)"), 0,
	    "an absolute link (a deleted file's path)");
	is_int(ds_tarw_dir(w, "1"), 0, "a directory");
	is_int(ds_tarw_dir(w, "1/empty/"), 0, "a directory named with its slash");
	is_int(ds_tarw_end(w), 0, "names: the end");
	close(fd);
	e = extract("names.tar", "names", &why);
	is_int(e, 0, "names: read back");
	if (e < 0)
		printf("# %s\n", why.data);
	long_name(name, 256, 100);
	{
		char p[600];

		snprintf(p, sizeof(p), "names/%s", name);
		fd = open(path_of(p), O_RDONLY);
		ok(fd >= 0 && read(fd, link, 2) == 1 && link[0] == 'd',
		    "names: the 256-byte name read back whole");
		if (fd >= 0)
			close(fd);
		long_name(name, 255, 100);
		snprintf(p, sizeof(p), "names/%s", name);
		fd = open(path_of(p), O_RDONLY);
		ok(fd >= 0 && read(fd, link, 2) == 1 && link[0] == 'c',
		    "names: the 255-byte name read back whole");
		if (fd >= 0)
			close(fd);
	}
	r = readlink(path_of("names/0/sys/block/sda"), link, sizeof(link) - 1);
	len = r > 0 ? (size_t)r : 0;
	link[len] = '\0';
	is_str(link, "../devices/pci0/sda", "names: the relative link's target");
	r = readlink(path_of("names/0/proc/9/fd/3"), link, sizeof(link) - 1);
	len = r > 0 ? (size_t)r : 0;
	link[len] = '\0';
	is_str(link, "/var/tmp/log (deleted)", "names: the absolute link's target");
	r = readlink(path_of("names/0/l100"), link, sizeof(link) - 1);
	is_int(r, 100, "names: a 100-byte target read back whole");
	{
		struct stat st;

		ok(stat(path_of("names/1/empty"), &st) == 0 &&
		    S_ISDIR(st.st_mode), "names: the directory made");
	}
	ds_buf_free(&why);
	free(w);
}

/* A full disk: the error of the write that failed, at every call after. */
static void
full(void)
{
	struct ds_tarw *w = malloc(sizeof(*w));
	unsigned char *b = pattern(100000, 1);
	int fd;

	if (w == NULL)
		exit(1);
	if ((fd = open("/dev/full", O_WRONLY | O_CLOEXEC)) < 0) {
		skip("a full disk", "no /dev/full");
		free(b);
		free(w);
		return;
	}
	ds_tarw_init(w, fd, 0);
	is_int(ds_tarw_file(w, "0/small", "x", 1), 0,
	    "/dev/full: a small file stays in the buffer");
	is_int(ds_tarw_end(w), -ENOSPC, "/dev/full: the end's flush fails");
	is_int(ds_tarw_end(w), -ENOSPC, "/dev/full: and again");
	ds_tarw_init(w, fd, 0);
	is_int(ds_tarw_file(w, "0/big", b, 100000), -ENOSPC,
	    "/dev/full: a file over the buffer fails as it is written");
	is_int(ds_tarw_link(w, "0/l", "x"), -ENOSPC, "/dev/full: a link after");
	is_int(ds_tarw_dir(w, "0/d"), -ENOSPC, "/dev/full: a directory after");
	is_int(ds_tarw_file(w, "0/f", "x", 1), -ENOSPC, "/dev/full: a file after");
	is_int(ds_tarw_end(w), -ENOSPC, "/dev/full: the end after");
	close(fd);
	free(b);
	free(w);
}

/* A closed descriptor: EBADF, not a crash nor a success. */
static void
closed(void)
{
	struct ds_tarw *w = malloc(sizeof(*w));
	int fd = ar_open("closed.tar");

	if (w == NULL)
		exit(1);
	close(fd);
	ds_tarw_init(w, fd, 0);
	is_int(ds_tarw_file(w, "0/a", "x", 1), 0, "closed: buffered");
	is_int(ds_tarw_end(w), -EBADF, "closed: EBADF at the end");
	free(w);
}

int
main(void)
{
	char cmd[64];

	if (mkdtemp(scratch) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	sizes();
	names();
	full();
	closed();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", scratch);
	if (system(cmd) != 0)
		return 1;
	return tap_done();
}
