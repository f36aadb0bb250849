/*
 * Captures' archives (lib/tarread.c): a valid one read into a private
 * directory under $TMPDIR and removed at close; each refusal with its
 * reason, nothing written outside, nothing left behind; pairs of
 * captures (lib/capture.c) with their composed meta.  The archives are
 * made here, header by header, so that each can be broken just so.
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

static char scratch[] = "/tmp/ds-unit-tar.XXXXXX";
static char tmpdir[64];		/* $TMPDIR: where extractions go */

struct ar {
	unsigned char *d;
	size_t len, cap;
};

static void
ar_grow(struct ar *a, size_t n)
{
	if (a->len + n > a->cap) {
		a->cap = (a->len + n) * 2;
		if ((a->d = realloc(a->d, a->cap)) == NULL)
			exit(1);
	}
	memset(a->d + a->len, 0, n);
}

/* A header for name (split into prefix and name past 100 bytes). */
static unsigned char *
ar_head(struct ar *a, const char *name, int type, unsigned long long size,
    const char *link)
{
	unsigned char *h;
	unsigned int sum = 0, i;
	size_t n = strlen(name);
	const char *cut;

	ar_grow(a, 512);
	h = a->d + a->len;
	a->len += 512;
	if (n > 100 && (cut = strchr(name + n - 100, '/')) != NULL) {
		memcpy(h + 345, name, (size_t)(cut - name));
		memcpy(h, cut + 1, strlen(cut + 1));
	} else
		memcpy(h, name, n > 100 ? 100 : n);
	snprintf((char *)h + 100, 8, "%07o", 0600);
	snprintf((char *)h + 108, 8, "%07o", 0);
	snprintf((char *)h + 116, 8, "%07o", 0);
	snprintf((char *)h + 124, 12, "%011llo", size & 077777777777ull);
	snprintf((char *)h + 136, 12, "%011o", 0);
	h[156] = (unsigned char)type;
	if (link != NULL)
		memcpy(h + 157, link, strlen(link));
	memcpy(h + 257, "ustar\0" "00", 8);
	memset(h + 148, ' ', 8);
	for (i = 0; i < 512; i++)
		sum += h[i];
	snprintf((char *)h + 148, 8, "%06o", sum);
	return h;
}

/* The header's checksum again, after a test changed it. */
static void
ar_resum(unsigned char *h)
{
	unsigned int sum = 0, i;

	memset(h + 148, ' ', 8);
	for (i = 0; i < 512; i++)
		sum += h[i];
	snprintf((char *)h + 148, 8, "%06o", sum);
}

static void
ar_file(struct ar *a, const char *name, const char *text)
{
	size_t n = strlen(text);

	ar_head(a, name, '0', n, NULL);
	ar_grow(a, (n + 511) / 512 * 512);
	memcpy(a->d + a->len, text, n);
	a->len += (n + 511) / 512 * 512;
}

static void
ar_link(struct ar *a, const char *name, const char *target)
{
	ar_head(a, name, '2', 0, target);
}

static void
ar_end(struct ar *a)
{
	ar_grow(a, 1024);
	a->len += 1024;
}

static void
ar_save(const struct ar *a, const char *path, size_t len)
{
	FILE *f = fopen(path, "w");

	if (f == NULL || fwrite(a->d, 1, len, f) != len || fclose(f) != 0)
		exit(1);
}

/* A capture of two samples, their uptimes u0 and u1 (seconds). */
static void
ar_capture(struct ar *a, const char *boot, unsigned int u0, unsigned int u1)
{
	char meta[256], up[64];

	ar_head(a, "0/", '5', 0, NULL);
	snprintf(up, sizeof(up), "%u.000000000 0.00\n", u0);
	ar_file(a, "0/proc/uptime", up);
	ar_file(a, "0/proc/diskstats", "   8 0 sda 1 0 8 1 0 0 0 0 0 1 1\n");
	ar_link(a, "0/sys/block/sda", "../devices/pci0/sda");
	ar_file(a, "0/sys/devices/pci0/sda/size", "100\n");
	ar_link(a, "0/proc/9/fd/3", "/var/tmp/log (deleted)");
	snprintf(up, sizeof(up), "%u.000000000 0.00\n", u1);
	ar_file(a, "1/proc/uptime", up);
	ar_file(a, "1/proc/diskstats", "   8 0 sda 5 0 40 2 0 0 0 0 0 2 2\n");
	snprintf(meta, sizeof(meta), "format 1\nhost h\nboot_id %s\n"
	    "samples 2\nuptime0 %u000000000\nuptime1 %u000000000\n"
	    "time0 %u000000000\ntime1 %u000000000\nwindow_ns 1\n", boot, u0,
	    u1, 1000 + u0, 1000 + u1);
	ar_file(a, "capture/meta", meta);
	ar_file(a, "capture/window", "ticks\n");
}

/* Entries of $TMPDIR: 0 when every extraction was removed. */
static int
left_over(void)
{
	struct dirent *de;
	DIR *d = opendir(tmpdir);
	int n = 0;

	if (d == NULL)
		return -1;
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

static char *
path_of(const char *name)
{
	static char p[2][256];
	static int i;

	i = !i;
	snprintf(p[i], sizeof(p[i]), "%s/%s", scratch, name);
	return p[i];
}

/* The archive a refused: -EINVAL, why, no root, nothing left. */
static void
refused(struct ar *a, size_t len, const char *why, const char *what)
{
	struct ds_root r;
	struct ds_buf b = { 0 };
	char name[128];
	int e;

	ar_save(a, path_of("bad.tar"), len);
	e = ds_root_open(&r, path_of("bad.tar"));
	snprintf(name, sizeof(name), "%s: refused", what);
	is_int(e, -EINVAL, name);
	if (e == 0)
		ds_root_close(&r);
	snprintf(name, sizeof(name), "%s: its reason", what);
	is_int(ds_capture_check(path_of("bad.tar"), &b), -EINVAL, name);
	is_str(b.data, why, name);
	snprintf(name, sizeof(name), "%s: nothing left in $TMPDIR", what);
	is_int(left_over(), 0, name);
	ds_buf_free(&b);
	a->len = 0;
}

static void
valid(void)
{
	struct ar a = { 0 };
	struct ds_root r;
	struct ds_buf b = { 0 };
	struct stat st;
	uint64_t v;
	char link[64];
	long n;
	int fd;

	ar_capture(&a, "b1", 100, 110);
	ar_end(&a);
	ar_save(&a, path_of("good.tar"), a.len);
	is_int(ds_root_open(&r, path_of("good.tar")), 0, "valid: opens");
	is_int((int)r.nsamples, 2, "valid: two samples");
	ok(strncmp(r.tmp, tmpdir, strlen(tmpdir)) == 0 &&
	    strstr(r.tmp, "/diskstat-capture.") != NULL,
	    "valid: extracted under $TMPDIR as diskstat-capture.XXXXXX");
	ok(stat(r.tmp, &st) == 0 && (st.st_mode & 0777) == 0700,
	    "valid: the private directory is 0700");
	is_int(ds_read_file(&r, "proc/uptime", &b), 0, "valid: sample 0 read");
	is_str(b.data, "100.000000000 0.00\n", "valid: sample 0's uptime");
	is_int(ds_read_file(&r, "sys/block/sda/size", &b), 0,
	    "valid: a link followed inside the sample");
	is_str(b.data, "100\n", "valid: through the link");
	n = ds_readlink_in(&r, r.fd, "proc/9/fd/3", link, sizeof(link) - 1);
	ok(n > 0 && (link[n] = '\0', strcmp(link, "/var/tmp/log (deleted)") ==
	    0), "valid: an absolute link kept as it was");
	fd = ds_openat(&r, "sys/devices/pci0/sda/size", O_RDONLY);
	ok(fd >= 0 && fstat(fd, &st) == 0 && (st.st_mode & 0777) == 0600,
	    "valid: files made 0600");
	if (fd >= 0)
		close(fd);
	is_int(ds_capture_u64(&r, "uptime1", &b, &v), 0, "valid: meta read");
	is_u64(v, 110000000000ull, "valid: uptime1");
	is_int(ds_root_next(&r), 0, "valid: the next sample");
	is_int(ds_read_file(&r, "proc/uptime", &b), 0, "valid: sample 1 read");
	is_str(b.data, "110.000000000 0.00\n", "valid: sample 1's uptime");
	ds_root_close(&r);
	is_int(left_over(), 0, "valid: removed at close");
	is_int(ds_capture_check(path_of("good.tar"), &b), 0,
	    "valid: the check passes");
	is_int((int)b.len, 0, "valid: and says nothing");

	/* The end of the file at a block's boundary ends it too. */
	a.len = 0;
	ar_capture(&a, "b1", 100, 110);
	ar_save(&a, path_of("good.tar"), a.len);
	is_int(ds_root_open(&r, path_of("good.tar")), 0,
	    "valid: without the end blocks");
	ds_root_close(&r);
	/* Long names, in ustar's prefix; "./" and "//" left out. */
	a.len = 0;
	ar_capture(&a, "b1", 100, 110);
	ar_head(&a, "./", '5', 0, NULL);
	ar_file(&a, "./0//sys/devices/pci0000:00/0000:00:1f.2/ata1/host0/"
	    "target0:0:0/0:0:0:0/block/sdz/queue/iosched/fifo_batch_long_name",
	    "16\n");
	ar_head(&a, "0/proc/", '5', 0, NULL);
	ar_end(&a);
	ar_save(&a, path_of("good.tar"), a.len);
	is_int(ds_root_open(&r, path_of("good.tar")), 0,
	    "valid: a long name, ./, a directory named again");
	is_int(ds_read_file(&r, "sys/devices/pci0000:00/0000:00:1f.2/ata1/"
	    "host0/target0:0:0/0:0:0:0/block/sdz/queue/iosched/"
	    "fifo_batch_long_name", &b), 0, "valid: the long name read");
	ds_root_close(&r);
	free(a.d);
	ds_buf_free(&b);
}

static void
refusals(void)
{
	struct ar a = { 0 };
	unsigned char *h;
	struct stat st;
	char victim[256], target[300];
	size_t cut;

	ar_file(&a, "/0/proc/uptime", "1\n");
	refused(&a, a.len, "member 1 (/0/proc/uptime): an absolute name",
	    "absolute");
	ar_file(&a, "0/proc/uptime", "1\n");
	ar_file(&a, "0/proc/../../x", "1\n");
	refused(&a, a.len, "member 2 (0/proc/../../x): a name with \"..\"",
	    "dot-dot");
	ar_file(&a, "", "1\n");
	refused(&a, a.len, "member 1: an empty name", "empty name");
	ar_file(&a, "etc/passwd", "x\n");
	refused(&a, a.len, "member 1 (etc/passwd): not in a sample (0/, 1/) "
	    "or capture/", "outside the samples");
	ar_file(&a, "0", "x\n");
	refused(&a, a.len, "member 1 (0): a file where a directory belongs",
	    "a sample as a file");
	ar_link(&a, "0/sys/block/sda", "../../../etc");
	refused(&a, a.len, "member 1 (0/sys/block/sda): a link out of its "
	    "sample (to ../../../etc)", "a link climbing out");
	ar_link(&a, "0/x", "../1/proc");
	refused(&a, a.len, "member 1 (0/x): a link out of its sample (to "
	    "../1/proc)", "a link into the other sample");
	ar_link(&a, "capture/x", "meta");
	refused(&a, a.len, "member 1 (capture/x): a link in capture/",
	    "a link in capture/");
	ar_link(&a, "0/x", "");
	refused(&a, a.len, "member 1 (0/x): a link to nothing", "empty target");

	/* Nothing written through a link an earlier member made. */
	snprintf(victim, sizeof(victim), "%s/victim", scratch);
	mkdir(victim, 0700);
	ar_link(&a, "0/x", victim);
	ar_file(&a, "0/x/passwd", "owned\n");
	refused(&a, a.len, "member 2 (0/x/passwd): a path through the link "
	    "0/x", "a path through a link");
	snprintf(target, sizeof(target), "%s/passwd", victim);
	ok(stat(target, &st) < 0 && errno == ENOENT,
	    "a path through a link: nothing written where it points");
	ar_link(&a, "0/y", victim);
	ar_head(&a, "0/y", '5', 0, NULL);
	refused(&a, a.len, "member 2 (0/y): a second member of this name",
	    "a directory over a link");
	ar_file(&a, "0/f", "1\n");
	ar_file(&a, "0/f/g", "1\n");
	refused(&a, a.len, "member 2 (0/f/g): a path through the file 0/f",
	    "a path through a file");
	ar_file(&a, "0/f", "1\n");
	ar_file(&a, "0/f", "2\n");
	refused(&a, a.len, "member 2 (0/f): a second member of this name",
	    "a name twice");

	ar_head(&a, "0/dev/sda", '4', 0, NULL);
	refused(&a, a.len, "member 1 (0/dev/sda): type '4' (a block device): "
	    "only files, links and directories", "a block device");
	ar_file(&a, "0/a", "1\n");
	ar_head(&a, "0/b", '1', 0, "0/a");
	refused(&a, a.len, "member 2 (0/b): type '1' (a hard link): only "
	    "files, links and directories", "a hard link");
	ar_head(&a, "0/f", 'x', 0, NULL);
	refused(&a, a.len, "member 1 (0/f): type 'x' (a pax extended header): "
	    "only files, links and directories", "a pax header");
	ar_head(&a, "0/f", '6', 0, NULL);
	refused(&a, a.len, "member 1 (0/f): type '6' (a FIFO): only files, "
	    "links and directories", "a FIFO");

	ar_file(&a, "0/a", "1\n");
	h = ar_head(&a, "0/b", '0', 0, NULL);
	h[0] = 'c';
	refused(&a, a.len, "member 2: header checksum wrong (a corrupt "
	    "archive)", "a bad checksum");
	h = ar_head(&a, "0/b", '0', 0, NULL);
	memcpy(h + 257, "notar", 5);
	ar_resum(h);
	refused(&a, a.len, "member 1: not a ustar archive (no ustar header at "
	    "its start)", "not an archive");
	a.len = 0;
	ar_grow(&a, 100);
	memcpy(a.d, "uptime 1.00\n", 12);
	a.len = 100;
	refused(&a, a.len, "member 1: not a ustar archive (shorter than one "
	    "header)", "a snapshot file given for a capture");
	h = ar_head(&a, "0/b", '0', 0, NULL);
	h[124] = 0x80;
	ar_resum(h);
	refused(&a, a.len, "member 1 (0/b): size in base-256 (over 8 GiB)",
	    "a base-256 size");
	h = ar_head(&a, "0/b", '0', 0, NULL);
	memcpy(h + 124, "12x", 3);
	ar_resum(h);
	refused(&a, a.len, "member 1 (0/b): size is not an octal number",
	    "a size not octal");
	ar_head(&a, "0/b", '0', (64ull << 20) + 1, NULL);
	refused(&a, a.len, "member 1 (0/b): 67108865 bytes: more than 64 MiB",
	    "a member over 64 MiB");
	ar_head(&a, "0/l", '2', 5, "x");
	refused(&a, a.len, "member 1 (0/l): a link with data",
	    "a link with data");

	ar_file(&a, "0/a", "some text that the cut leaves half of\n");
	ar_end(&a);
	refused(&a, 512 + 10, "member 1 (0/a): truncated (the archive ends "
	    "inside it)", "a member cut short");
	ar_file(&a, "0/a", "1\n");
	ar_end(&a);
	refused(&a, 512 + 100, "member 1 (0/a): truncated (the archive ends "
	    "inside its padding)", "a member's padding cut short");
	ar_file(&a, "0/a", "1\n");
	ar_file(&a, "0/b", "1\n");
	cut = 1024 + 300;
	refused(&a, cut, "member 2: truncated header", "a header cut short");
	ar_file(&a, "0/a", "1\n");
	ar_grow(&a, 512);
	a.len += 512;
	ar_file(&a, "0/b", "1\n");
	refused(&a, a.len, "data after the end-of-archive block",
	    "a member after the end");
	ar_file(&a, "0/proc/uptime", "1.00 0.00\n");
	ar_end(&a);
	refused(&a, a.len, "not a capture: an archive without capture/meta",
	    "an archive of no capture");
	ar_file(&a, "capture/meta", "format 1\n");
	ar_end(&a);
	refused(&a, a.len, "not a capture: capture/meta but no sample 0/",
	    "a capture without a sample");
	free(a.d);

	{
		struct ds_buf b = { 0 };
		struct ds_root r;

		mkfifo(path_of("fifo"), 0600);
		is_int(ds_root_open(&r, path_of("fifo")), -EINVAL,
		    "a FIFO: refused, not waited on");
		is_int(ds_capture_check(path_of("fifo"), &b), -EINVAL,
		    "a FIFO: its reason");
		is_str(b.data, "not a regular file (a capture is read from a "
		    "file or a directory, not a pipe or device)",
		    "a FIFO: its reason");
		is_int(ds_capture_check(path_of("none"), &b), -ENOENT,
		    "a missing file: ENOENT");
		is_int((int)b.len, 0, "a missing file: the errno says it");
		is_int(left_over(), 0, "a FIFO: nothing left");
		ds_buf_free(&b);
	}
}

/* A capture directory of one sample: uptime u, boot b. */
static void
capdir(const char *dir, const char *boot, unsigned int u)
{
	char cmd[1024];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "mkdir -p %s/capture %s/0/proc "
	    "%s/0/sys/devices/d && ln -s devices/d %s/0/sys/disk", dir,
	    dir, dir, dir);
	if (system(cmd) != 0)
		exit(1);
	snprintf(cmd, sizeof(cmd), "%s/capture/meta", dir);
	if ((f = fopen(cmd, "w")) == NULL)
		exit(1);
	fprintf(f, "format 1\nboot_id %s\nsamples 1\nuptime0 %u000000000\n"
	    "time0 %u000000000\n", boot, u, 2000 + u);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "%s/0/proc/uptime", dir);
	if ((f = fopen(cmd, "w")) == NULL)
		exit(1);
	fprintf(f, "%u.000000000 0.00\n", u);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "%s/0/sys/devices/d/size", dir);
	if ((f = fopen(cmd, "w")) == NULL)
		exit(1);
	fprintf(f, "%u\n", u);
	fclose(f);
}

static void
pairs(void)
{
	struct ar a = { 0 };
	struct ds_root r;
	struct ds_buf b = { 0 };
	char old[256], new[256];
	uint64_t v;

	ar_capture(&a, "b1", 100, 110);
	ar_end(&a);
	ar_save(&a, path_of("old.tar"), a.len);
	a.len = 0;
	ar_capture(&a, "b1", 200, 205);
	ar_end(&a);
	ar_save(&a, path_of("new.tar"), a.len);
	snprintf(old, sizeof(old), "%s", path_of("old.tar"));
	snprintf(new, sizeof(new), "%s", path_of("new.tar"));
	is_int(ds_root_open_pair(&r, old, new), 0, "pair: two archives open");
	is_int((int)r.nsamples, 2, "pair: two samples");
	is_int(ds_read_file(&r, "proc/uptime", &b), 0, "pair: sample 0 read");
	is_str(b.data, "110.000000000 0.00\n", "pair: sample 0 is OLD's last");
	is_int(ds_capture_u64(&r, "uptime0", &b, &v), 0, "pair: uptime0");
	is_u64(v, 110000000000ull, "pair: uptime0 is OLD's last");
	is_int(ds_capture_u64(&r, "uptime1", &b, &v), 0, "pair: uptime1");
	is_u64(v, 205000000000ull, "pair: uptime1 is NEW's last");
	is_int(ds_capture_u64(&r, "time0", &b, &v), 0, "pair: time0");
	is_u64(v, 1110000000000ull, "pair: time0 is OLD's last");
	is_int(ds_capture_u64(&r, "time1", &b, &v), 0, "pair: time1");
	is_u64(v, 1205000000000ull, "pair: time1 is NEW's last");
	is_int(ds_capture_u64(&r, "window_ns", &b, &v), 0, "pair: window_ns");
	is_u64(v, 95000000000ull, "pair: the window between them");
	is_int(ds_capture_u64(&r, "samples", &b, &v), 0, "pair: samples");
	is_u64(v, 2, "pair: samples 2");
	is_int(ds_capture_read(&r, "capture/window", &b), -ENOENT,
	    "pair: no ticks carried");
	is_int(ds_root_next(&r), 0, "pair: the next sample");
	is_int(ds_read_file(&r, "proc/uptime", &b), 0, "pair: sample 1 read");
	is_str(b.data, "205.000000000 0.00\n", "pair: sample 1 is NEW's last");
	ds_root_close(&r);
	is_int(left_over(), 0, "pair: removed at close");

	/* Directories of one sample each, and an archive with one. */
	snprintf(old, sizeof(old), "%s", path_of("old.d"));
	snprintf(new, sizeof(new), "%s", path_of("new.d"));
	capdir(old, "b1", 300);
	capdir(new, "b1", 400);
	is_int(ds_root_open_pair(&r, old, new), 0, "pair: two directories");
	is_int(ds_read_file(&r, "sys/disk/size", &b), 0,
	    "pair: a directory's sample copied, links too");
	is_str(b.data, "300\n", "pair: OLD's");
	is_int(ds_capture_u64(&r, "window_ns", &b, &v), 0,
	    "pair: directories' window_ns");
	is_u64(v, 100000000000ull, "pair: directories' window");
	ds_root_close(&r);
	is_int(ds_root_open_pair(&r, path_of("old.tar"), new), 0,
	    "pair: an archive and a directory");
	ds_root_close(&r);
	is_int(left_over(), 0, "pair: nothing left");

	is_int(ds_root_open_pair(&r, new, old), -EINVAL,
	    "pair: NEW before OLD refused");
	is_int(ds_capture_pair_check(new, old, &b), -EINVAL,
	    "pair: NEW before OLD, its reason");
	snprintf(old, sizeof(old), "%s and %s: the second was not taken "
	    "after the first", path_of("new.d"), path_of("old.d"));
	is_str(b.data, old, "pair: NEW before OLD, its reason");
	capdir(path_of("other.d"), "b2", 500);
	is_int(ds_root_open_pair(&r, path_of("new.d"), path_of("other.d")),
	    -EINVAL, "pair: another boot refused");
	is_int(ds_capture_pair_check(path_of("new.d"), path_of("other.d"), &b),
	    -EINVAL, "pair: another boot, its reason");
	snprintf(old, sizeof(old), "%s and %s: captures of different boots "
	    "(boot_id b1 and b2): counters restart at boot", path_of("new.d"),
	    path_of("other.d"));
	is_str(b.data, old, "pair: another boot, its reason");
	a.len = 0;
	ar_file(&a, "0/x", "1\n");
	ar_file(&a, "0/x", "1\n");
	ar_save(&a, path_of("bad.tar"), a.len);
	is_int(ds_capture_pair_check(path_of("old.tar"), path_of("bad.tar"),
	    &b), -EINVAL, "pair: a bad archive refused");
	snprintf(old, sizeof(old), "%s: member 2 (0/x): a second member of "
	    "this name", path_of("bad.tar"));
	is_str(b.data, old, "pair: the archive named, and its member");
	is_int(left_over(), 0, "pair: nothing left after refusals");
	free(a.d);
	ds_buf_free(&b);
}

/*
 * Read in place (ds_tar_next): every member named in order, the data of
 * one read and of the others passed over, the same refusals.
 */
static void
scan(void)
{
	struct ds_buf why = { 0 }, data = { 0 };
	struct ds_tar_member m;
	struct ds_tar *t;
	struct ar a = { 0 };
	char path[300], names[512] = "";
	size_t full;
	int fd, e, n = 0;

	ar_capture(&a, "b", 10, 20);
	ar_end(&a);
	full = a.len;
	snprintf(path, sizeof(path), "%s/scan.cap", scratch);
	ar_save(&a, path, full);
	fd = open(path, O_RDONLY);
	is_int(ds_tar_open(fd, &why, &t), 0, "scan: opened");
	while ((e = ds_tar_next(t, &m)) == 1) {
		if (n++ < 6)
			snprintf(names + strlen(names),
			    sizeof(names) - strlen(names), "%s%c ", m.path,
			    m.type);
		if (strcmp(m.path, "1/proc/diskstats") == 0) {
			is_int(ds_tar_data(t, &data), 0, "scan: data read");
			is_str(data.data, "   8 0 sda 5 0 40 2 0 0 0 0 0 2 2\n",
			    "scan: the member's data, others passed over");
			is_int(ds_tar_data(t, &data), -EINVAL,
			    "scan: data once");
		}
		if (strcmp(m.path, "0/sys/block/sda") == 0)
			is_str(m.link, "../devices/pci0/sda", "scan: a link");
	}
	is_int(e, 0, "scan: to the end");
	is_int(n, 10, "scan: every member");
	is_str(names, "05 0/proc/uptime0 0/proc/diskstats0 0/sys/block/sda2 "
	    "0/sys/devices/pci0/sda/size0 0/proc/9/fd/32 ",
	    "scan: names as checked, in order");
	ds_tar_close(t);
	close(fd);

	/* Cut inside a member's data, which is passed over: still told. */
	ar_save(&a, path, 512 * 3 + 100);
	fd = open(path, O_RDONLY);
	is_int(ds_tar_open(fd, &why, &t), 0, "scan: a cut archive opened");
	while ((e = ds_tar_next(t, &m)) == 1)
		;
	is_int(e, -EINVAL, "scan: a cut archive refused");
	ok(strstr(why.data, "truncated") != NULL, "scan: truncated: %s",
	    why.data);
	ds_tar_close(t);
	close(fd);

	/* A climbing name, as extraction refuses it. */
	a.len = 0;
	ar_file(&a, "0/../../etc/passwd", "x\n");
	ar_end(&a);
	ar_save(&a, path, a.len);
	fd = open(path, O_RDONLY);
	is_int(ds_tar_open(fd, &why, &t), 0, "scan: opened again");
	is_int(ds_tar_next(t, &m), -EINVAL, "scan: \"..\" refused");
	is_str(why.data, "member 1 (0/../../etc/passwd): a name with \"..\"",
	    "scan: the reason");
	ds_tar_close(t);
	close(fd);
	free(a.d);
	ds_buf_free(&why);
	ds_buf_free(&data);
}

int
main(void)
{
	char cmd[300];

	if (mkdtemp(scratch) == NULL)
		return 1;
	snprintf(tmpdir, sizeof(tmpdir), "%s/tmp", scratch);
	mkdir(tmpdir, 0700);
	setenv("TMPDIR", tmpdir, 1);
	valid();
	refusals();
	pairs();
	scan();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", scratch);
	return tap_done();
}
