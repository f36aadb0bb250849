/*
 * Hostile input at the library layer: a 20,000-device diskstats, a
 * one-megabyte line, a directory, a truncated file, a FIFO (with and
 * without a writer), NUL bytes, a character device and a file that
 * grows while it is read.  Each must give a clear error or the good
 * rows, promptly: an alarm turns a hang into a failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"

/* Fields 23 to 41 of /proc/PID/stat. */
#define Z19 "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0"

static char dir[64];
static struct ds_root root;

static void
on_alarm(int sig)
{
	static const char msg[] = "not ok - hung: alarm fired\n";

	(void)sig;
	(void)!write(1, msg, sizeof(msg) - 1);
	_exit(1);
}

static void
put(const char *rel, const char *text, size_t len)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	if (f == NULL || fwrite(text, 1, len, f) != len || fclose(f) != 0) {
		printf("Bail out! cannot write %s\n", path);
		exit(1);
	}
}

static void
rm_tree(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	(void)!system(cmd);
}

static uint64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void
many_devices(void)
{
	struct ds_diskstats s = { 0 };
	struct ds_buf b = { 0 }, text = { 0 };
	char line[160];
	size_t i;
	int n;

	for (i = 0; i < 20000; i++) {
		n = snprintf(line, sizeof(line), "%4u %7u loop%zu %zu 0 %zu 4 "
		    "5 6 7 8 0 9 10 0 0 0 0 11 12\n", 7u, (unsigned)i, i, i,
		    i * 8);
		ds_buf_reserve(&text, (size_t)n);
		memcpy(text.data + text.len, line, (size_t)n);
		text.len += (size_t)n;
	}
	put("proc/diskstats", text.data, text.len);
	is_int(ds_diskstats_read(&root, &b, &s), 0, "20000 devices: read");
	is_int((int)s.n, 20000, "20000 devices: all parsed");
	is_int((int)s.bad, 0, "20000 devices: none bad");
	ok(s.n == 20000 && strcmp(s.disk[19999].name, "loop19999") == 0 &&
	    s.disk[19999].minor == 19999 &&
	    s.disk[19999].v[DS_RD_SECTORS] == 19999 * 8,
	    "20000 devices: the last one exact");
	ds_diskstats_free(&s);
	ds_buf_free(&b);
	ds_buf_free(&text);
}

static void
megabyte_line(void)
{
	struct ds_diskstats s = { 0 };
	struct ds_mounts ms = { 0 };
	struct ds_buf b = { 0 };
	struct ds_stat st;
	struct ds_io io;
	size_t big = 1 << 20, i;
	char *t = malloc(big + 256);
	int n;

	/* diskstats: a good line, a 1 MB line, a good line. */
	n = sprintf(t, "8 0 sda 1 2 3 4 5 6 7 8 9 10 11\n8 16 sdb ");
	memset(t + n, '7', big);
	n += (int)big;
	n += sprintf(t + n, "\n8 32 sdc 1 2 3 4 5 6 7 8 9 10 11\n");
	put("proc/diskstats", t, (size_t)n);
	is_int(ds_diskstats_read(&root, &b, &s), 0, "1 MB line: diskstats read");
	ok(b.cap <= 2 * DS_LINES_WINDOW, "1 MB line: never held whole (window of "
	    "%zu bytes)", b.cap);
	is_int((int)s.n, 2, "1 MB line: the two good devices kept");
	is_int((int)s.bad, 1, "1 MB line: counted bad");
	is_int((int)s.first_bad, 2, "1 MB line: on line 2");
	ok(s.n == 2 && strcmp(s.disk[1].name, "sdc") == 0,
	    "1 MB line: the line after it parsed");

	/* mountinfo: a 1 MB mount point between two good lines. */
	n = sprintf(t, "1 0 8:1 / / rw - ext4 /dev/sda1 rw\n2 1 0:5 / /");
	memset(t + n, 'm', big);
	n += (int)big;
	n += sprintf(t + n, " rw - tmpfs tmpfs rw\n3 1 0:6 / /x rw - tmpfs t rw\n");
	put("proc/mountinfo", t, (size_t)n);
	is_int(ds_mountinfo_read(&root, "proc/mountinfo", &ms), 0,
	    "1 MB line: mountinfo read");
	is_int((int)ms.n, 3, "1 MB mount point: kept (it is valid)");
	ok(ms.n == 3 && strlen(ms.m[1].mnt) == big + 1,
	    "1 MB mount point: whole");
	ds_mounts_free(&ms);

	/* stat: a 1 MB comm is cut to the struct's size. */
	n = sprintf(t, "42 (");
	memset(t + n, 'c', big);
	n += (int)big;
	n += sprintf(t + n, ") R 1 42 42 0 -1 0 0 0 0 0 7 9 0 0 20 0 1 0 500 "
	    "%s 33 0 0\n", Z19);
	is_int(ds_stat_parse(t, (size_t)n, &st), 0, "1 MB comm: parses");
	is_int((int)st.comm_len, 63, "1 MB comm: cut to 63 bytes");
	ok(st.utime == 7 && st.stime == 9 && st.starttime == 500 &&
	    st.have_blkio && st.blkio_ticks == 33,
	    "1 MB comm: the fields after it exact");

	/* stat: 1 MB of fields after comm: refused, not misread. */
	n = sprintf(t, "42 (x) R");
	for (i = 0; (size_t)n < big; i++)
		n += sprintf(t + n, " %zu", i);
	is_int(ds_stat_parse(t, (size_t)n, &st), 0,
	    "1 MB of stat fields: the first 1 KB parsed");
	is_int((int)st.ppid, 0, "1 MB of stat fields: ppid is field 4");

	/* io: a 1 MB value line. */
	n = sprintf(t, "rchar: 5\nwchar: ");
	memset(t + n, '9', big);
	n += (int)big;
	n += sprintf(t + n, "\nsyscr: 6\n");
	is_int(ds_io_parse(t, &io), 0, "1 MB io line: parses");
	ok(io.v[DS_IO_RCHAR] == 5 && io.v[DS_IO_SYSCR] == 6 &&
	    !(io.have >> DS_IO_WCHAR & 1u),
	    "1 MB io line: the overflowing value dropped, others kept");
	ds_diskstats_free(&s);
	ds_buf_free(&b);
	free(t);
}

static void
directory_and_truncated(void)
{
	struct ds_diskstats s = { 0 };
	struct ds_mounts ms = { 0 };
	struct ds_buf b = { 0 };
	struct ds_stat st;
	static const char stat1[] = "42 (x) R 1 42 42 0 -1 0 0 0 0 0 7 9 0 0 "
	    "20 0 1 0 500 " Z19 " 33 0 0\n";
	const char *f22 = strstr(stat1, " 500 ");
	static const char cut3[] =
	    "8 0 sda 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n"
	    "8 1 sda1 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n8 2 sd";
	size_t cut;
	int e, good = 1;

	{
		char p[256];

		snprintf(p, sizeof(p), "%s/proc/diskstats", dir);
		unlink(p);
		mkdir(p, 0755);
	}
	is_int(ds_diskstats_read(&root, &b, &s), -EISDIR,
	    "a directory as diskstats: -EISDIR");
	ok(b.len == 0 && (b.data == NULL || b.data[0] == '\0'),
	    "a directory: buffer left empty");
	is_int(ds_mountinfo_read(&root, "proc/diskstats", &ms), -EISDIR,
	    "a directory as mountinfo: -EISDIR");
	ds_mounts_free(&ms);
	{
		char p[256];

		snprintf(p, sizeof(p), "%s/proc/diskstats", dir);
		rmdir(p);
	}

	/* Truncated in the middle of the last line. */
	put("proc/diskstats", cut3, sizeof(cut3) - 1);
	is_int(ds_diskstats_read(&root, &b, &s), 0, "truncated: read");
	is_int((int)s.n, 2, "truncated: whole lines kept");
	is_int((int)s.bad, 1, "truncated: the cut line is bad");
	put("proc/diskstats", "8 0 sda 1 2 3 4 5", 17);
	is_int(ds_diskstats_read(&root, &b, &s), 0, "cut to 5 counters: read");
	is_int((int)s.n + (int)s.bad, 1, "cut to 5 counters: bad, not guessed");
	is_int((int)s.n, 0, "cut to 5 counters: no device");

	/*
	 * stat cut before field 22 is refused; cut after it, the fields
	 * kept are exact.  (Cut inside field 22 itself cannot be told from
	 * a shorter number: the kernel writes the file in one piece, so
	 * only a damaged copy can show it.)
	 */
	for (cut = 0; cut < sizeof(stat1) - 1; cut++) {
		e = ds_stat_parse(stat1, cut, &st);
		if (cut <= (size_t)(f22 - stat1) && e != -EINVAL)
			good = 0;
		if (cut >= (size_t)(f22 + 4 - stat1) &&
		    (e != 0 || st.starttime != 500 || st.utime != 7))
			good = 0;
		/* "33 0 0\n" ends the text: field 42 whole, or absent. */
		if (cut >= sizeof(stat1) - 6 && (!st.have_blkio ||
		    st.blkio_ticks != 33))
			good = 0;
		if (cut <= sizeof(stat1) - 8 && st.have_blkio)
			good = 0;
	}
	ok(good, "stat cut anywhere: refused before field 22, exact after");
	ds_diskstats_free(&s);
	ds_buf_free(&b);
}

static void
fifo_and_devices(void)
{
	struct ds_diskstats s = { 0 };
	struct ds_buf b = { 0 };
	char p[256], l[256];
	uint64_t t0;
	int wfd, rfd, e;

	snprintf(p, sizeof(p), "%s/proc/diskstats", dir);
	unlink(p);
	ok(mkfifo(p, 0600) == 0, "FIFO made");
	alarm(10);
	t0 = now_ms();
	e = ds_diskstats_read(&root, &b, &s);
	ok(e == 0 && s.n == 0, "FIFO without a writer: empty, at once");
	/* A writer that holds it open and never writes. */
	rfd = open(p, O_RDONLY | O_NONBLOCK);
	wfd = open(p, O_WRONLY | O_NONBLOCK);
	ok(wfd >= 0, "FIFO writer opened");
	is_int(ds_diskstats_read(&root, &b, &s), -EINVAL,
	    "FIFO with a silent writer: -EINVAL, no hang");
	ok(b.len == 0 && b.data[0] == '\0', "FIFO: buffer left empty");
	/* A writer that wrote half a file and stalls. */
	(void)!write(wfd, "8 0 sda 1 2 3 4\n", 16);
	is_int(ds_diskstats_read(&root, &b, &s), -EINVAL,
	    "FIFO with a stalled writer: -EINVAL, no hang");
	ok(now_ms() - t0 < 5000, "FIFO: all within 5 s");
	alarm(0);
	close(wfd);
	close(rfd);
	unlink(p);

	/*
	 * A symlink out of the tree resolves inside it (issue 15): the
	 * tree has no dev/zero.
	 */
	ok(symlink("/dev/zero", p) == 0, "proc/diskstats -> /dev/zero");
	is_int(ds_diskstats_read(&root, &b, &s), -ENOENT,
	    "/dev/zero of the host is not reached from the tree");
	unlink(p);
	/* A character device that never ends: refused at DS_READ_MAX. */
	{
		int zfd = open("/dev/zero", O_RDONLY);

		alarm(30);
		is_int(ds_read_fd(zfd, &b), -EFBIG,
		    "/dev/zero: -EFBIG, not endless");
		alarm(0);
		close(zfd);
	}
	ok(b.len == 0 && b.data != NULL && b.data[0] == '\0',
	    "/dev/zero: buffer left empty and terminated");
	/* A directory symlink and a dangling one. */
	snprintf(l, sizeof(l), ".");
	ok(symlink(l, p) == 0, "proc/diskstats -> proc/");
	is_int(ds_diskstats_read(&root, &b, &s), -EISDIR,
	    "symlink to a directory: -EISDIR");
	unlink(p);
	ok(symlink("nowhere", p) == 0, "dangling symlink");
	is_int(ds_diskstats_read(&root, &b, &s), -ENOENT, "dangling: -ENOENT");
	unlink(p);
	ds_diskstats_free(&s);
	ds_buf_free(&b);
}

static void
nul_bytes(void)
{
	struct ds_diskstats s = { 0 };
	struct ds_mounts ms = { 0 };
	struct ds_buf b = { 0 };
	struct ds_stat st;
	struct ds_io io;
	static const char ds[] = "8 0 sda 1 2 3 4\n8 1 sd\0a1 1 2 3 4\n"
	    "8 2 sda2 1 2\0 3 4\n\0\n8 3 sda3 1 2 3 4\n";
	static const char stat1[] = "42 (a\0b) R 1 42 42 0 -1 0 0 0 0 0 7 9 "
	    "0 0 20 0 1 0 500 0 0\n";
	static const char mi[] = "1 0 8:1 / / rw - ext4 /dev/sda1 rw\n"
	    "2 1 0:5 / /a\0b rw - tmpfs tmpfs rw\n3 1 0:6 / /x rw - t t rw\n";

	put("proc/diskstats", ds, sizeof(ds) - 1);
	is_int(ds_diskstats_read(&root, &b, &s), 0, "NUL bytes: diskstats read");
	is_int((int)s.n, 2, "NUL bytes: the clean lines kept");
	is_int((int)s.bad, 3, "NUL bytes: each line holding one is bad");
	ok(s.n == 2 && strcmp(s.disk[1].name, "sda3") == 0,
	    "NUL bytes: lines after them still read");

	is_int(ds_stat_parse(stat1, sizeof(stat1) - 1, &st), 0,
	    "NUL in comm: parses");
	ok(st.comm_len == 3 && memcmp(st.comm, "a\0b", 3) == 0,
	    "NUL in comm: kept with its length");

	/*
	 * Text parsers stop at a NUL: what follows is not read (a kernel
	 * never writes one in these files; a captured tree might).
	 */
	put("proc/mountinfo", mi, sizeof(mi) - 1);
	is_int(ds_mountinfo_read(&root, "proc/mountinfo", &ms), 0,
	    "NUL in mountinfo: read");
	ok(ms.n == 1 && ms.bad == 1, "NUL in mountinfo: stops there, no crash");
	ds_mounts_free(&ms);
	is_int(ds_io_parse("rchar: 1\n\0wchar: 2\n", &io), 0,
	    "NUL in io: parses");
	ok(io.have == 1, "NUL in io: stops there");
	ds_diskstats_free(&s);
	ds_buf_free(&b);
}

/* A file another process keeps appending to while we read it. */
static void
growing(void)
{
	struct ds_diskstats s = { 0 };
	struct ds_buf b = { 0 };
	static const char line[] = "8 0 sda 1 2 3 4 5 6 7 8 9 10 11\n";
	char p[256], chunk[32 * 64];
	pid_t pid;
	int fd, i, st, good = 1;
	size_t k;

	for (k = 0; k < sizeof(chunk); k += sizeof(line) - 1)
		memcpy(chunk + k, line, sizeof(line) - 1);
	snprintf(p, sizeof(p), "%s/proc/diskstats", dir);
	unlink(p);
	put("proc/diskstats", line, sizeof(line) - 1);
	pid = fork();
	if (pid == 0) {
		/* Whole lines at a time, until killed or past 80 MB. */
		fd = open(p, O_WRONLY | O_APPEND);
		for (k = 0; k < (80u << 20); k += sizeof(chunk))
			if (write(fd, chunk, sizeof(chunk)) < 0)
				_exit(1);
		_exit(0);
	}
	alarm(60);
	for (i = 0; i < 20; i++) {
		int e = ds_diskstats_read(&root, &b, &s);

		if (e == 0) {
			/* A consistent prefix: whole lines, or a cut last one. */
			if (s.n == 0 || s.bad > 1 ||
			    strcmp(s.disk[0].name, "sda") != 0)
				good = 0;
		} else if (e != -EFBIG || b.len != 0 || b.data[0] != '\0') {
			good = 0;
		}
	}
	alarm(0);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	ok(good, "growing file: every read ends, with whole lines or -EFBIG");
	ds_diskstats_free(&s);
	ds_buf_free(&b);
}

int
main(void)
{
	char p[128];

	signal(SIGALRM, on_alarm);
	snprintf(dir, sizeof(dir), "%s/diskstats-hostile.XXXXXX",
	    getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(dir) == NULL) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	snprintf(p, sizeof(p), "%s/proc", dir);
	mkdir(p, 0755);
	if (ds_root_open(&root, dir) < 0) {
		printf("Bail out! root\n");
		return 1;
	}
	ok(!root.live, "a tree is not the live system");
	many_devices();
	megabyte_line();
	directory_and_truncated();
	fifo_and_devices();
	nul_bytes();
	growing();
	ds_root_close(&root);
	rm_tree();
	return tap_done();
}
