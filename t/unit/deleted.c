/*
 * lib/deleted.c: fdinfo and maps parsing, the suffix, the memory class,
 * the host view of a container mount, the per-inode summary, the du
 * walk, a live scan of this process, and lib/deltrunc.c's probe and
 * truncation of a file of its own.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"

#define FIXDIR "t/fixtures/ddeleted/"

static struct ds_root root, fix;	/* "/" and "." */

static char *
slurp(const char *rel, struct ds_buf *b)
{
	if (ds_read_file(&fix, rel, b) < 0) {
		printf("# cannot read %s (run from the top directory)\n", rel);
		return NULL;
	}
	return b->data;
}

static void
test_fdinfo(void)
{
	struct ds_buf b = { 0 };
	struct ds_fdinfo fi;

	if (slurp(FIXDIR "fdinfo-append", &b) != NULL) {
		is_int(ds_fdinfo_parse(b.data, &fi), 0, "fdinfo parses");
		is_int(fi.have, DS_FDI_POS | DS_FDI_FLAGS | DS_FDI_MNT,
		    "pos, flags, mnt_id found");
		is_u64(fi.pos, 10, "pos");
		is_int(fi.flags, 02102001, "flags read as octal");
		ok(fi.flags & O_APPEND, "O_APPEND seen");
		is_int(fi.flags & O_ACCMODE, O_WRONLY, "O_WRONLY");
		is_int(fi.mnt_id, 27, "mnt_id");
	}
	if (slurp(FIXDIR "fdinfo-memfd", &b) != NULL) {
		is_int(ds_fdinfo_parse(b.data, &fi), 0, "memfd fdinfo parses");
		is_int(fi.mnt_id, 0, "memfd: mnt_id 0, no mount");
		ok(!(fi.flags & O_APPEND), "memfd: no O_APPEND");
	}
	is_int(ds_fdinfo_parse("flags:\t0109\nmnt_id:\t-1\npos:\tx\n", &fi),
	    -EINVAL, "bad digits: nothing kept");
	is_int(ds_fdinfo_parse("", &fi), -EINVAL, "empty fdinfo");
	is_int(ds_fdinfo_parse("pos:\t5\nflags:\t02\n", &fi), 0,
	    "no mnt_id (kernels before 3.15)");
	ok(!(fi.have & DS_FDI_MNT), "mnt_id marked missing");
	ds_buf_free(&b);
}

static void
test_maps(void)
{
	struct ds_buf b = { 0 };
	struct ds_map m[16];
	char *cur, *line;
	size_t n = 0, bad = 0, len;

	if (slurp(FIXDIR "maps-deleted", &b) == NULL)
		return;
	cur = b.data;
	while ((line = ds_next_line(&cur)) != NULL && n < 16) {
		if (ds_map_parse(line, strlen(line), &m[n]) < 0)
			bad++;
		else
			n++;
	}
	is_int(n, 10, "ten good maps lines");
	is_int(bad, 2, "two bad lines");
	is_u64(m[0].start, 0x55d4c4a2e000ULL, "start");
	is_u64(m[0].end, 0x55d4c4a30000ULL, "end");
	is_str(m[0].perms, "r--p", "perms");
	is_int(m[0].major, 0xfe, "major is hex");
	is_u64(m[0].inode, 1835120, "inode");
	is_str(m[0].path, "/usr/bin/cat", "path");
	is_u64(m[1].inode, 0, "heap: inode 0");
	is_u64(m[3].offset, 0xa000, "offset");
	len = m[5].path_len;
	ok(ds_deleted_strip(m[5].path, &len) &&
	    len == strlen("/var/log/app with space.log"),
	    "path with spaces, suffix stripped");
	len = m[6].path_len;
	ok(ds_deleted_strip(m[6].path, &len) &&
	    len == strlen("/tmp/x (deleted)"), "only the last suffix");
	is_u64(m[8].start, 0x400000, "zero-padded start");
	is_int(m[8].minor, 0x1f, "minor is hex");
	is_u64(m[9].start, 0xffffffffff600000ULL, "vsyscall start");
	ds_buf_free(&b);
}

static void
test_strip_class(void)
{
	size_t len;

	len = 5;
	ok(!ds_deleted_strip("/a/b", &len) && len == 5, "no suffix");
	len = strlen(" (deleted)");
	ok(ds_deleted_strip(" (deleted)", &len) && len == 0, "suffix only");
	len = strlen("/x(deleted)");
	ok(!ds_deleted_strip("/x(deleted)", &len), "needs the space");
	ok(ds_deleted_memory("/memfd:x", 8, NULL, 0), "memfd");
	ok(ds_deleted_memory("/SYSV0000002a", 13, NULL, 0), "SysV shm");
	ok(ds_deleted_memory("/dev/shm/q", 10, NULL, 0), "POSIX shm");
	ok(ds_deleted_memory("/run/x", 6, "tmpfs", 0), "tmpfs by type");
	ok(ds_deleted_memory("/x", 2, NULL, 0x01021994), "tmpfs by magic");
	ok(!ds_deleted_memory("/var/log/x", 10, "ext4", 0xef53), "ext4: disk");
	ok(!ds_deleted_memory("/memfdx", 7, NULL, 0), "not memfd");
}

static void
test_host_view(void)
{
	struct ds_mounts host = { 0 }, ct = { 0 };
	const struct ds_mount *m, *h;
	char ctinfo[] =
	    "600 599 259:2 /var/lib/docker/vol1 /data rw - ext4 /dev/dm-2 rw\n"
	    "601 599 259:2 / /host rw - ext4 /dev/dm-2 rw\n"
	    "602 599 0:99 / /scratch rw - tmpfs tmpfs rw\n"
	    "603 599 260:0 / /k8s rw - ext4 /dev/sdb rw\n";

	if (ds_mountinfo_read(&fix, FIXDIR
	    "node_exporter/collector/fixtures/proc/1/mountinfo", &host) < 0) {
		ok(0, "host mountinfo fixture");
		return;
	}
	is_int(ds_mountinfo_parse(ctinfo, &ct), 0, "container mountinfo");
	m = ds_mount_by_id(&ct, 600);
	h = m != NULL ? ds_mount_host_view(&host, m) : NULL;
	ok(h != NULL && strcmp(h->mnt, "/") == 0,
	    "subdirectory of the root fs: the host's / (root / preferred)");
	m = ds_mount_by_id(&ct, 601);
	h = m != NULL ? ds_mount_host_view(&host, m) : NULL;
	ok(h != NULL && h->id == 29, "same root: mount 29");
	m = ds_mount_by_id(&ct, 602);
	ok(m != NULL && ds_mount_host_view(&host, m) == NULL,
	    "container-only tmpfs: no host mount");
	m = ds_mount_by_id(&ct, 603);
	h = m != NULL ? ds_mount_host_view(&host, m) : NULL;
	ok(h != NULL && h->id == 3148, "first of several host mounts");
	ds_mounts_free(&ct);
	ds_mounts_free(&host);
}

static void
test_summary(void)
{
	struct ds_deleted d = { 0 };
	struct ds_delfile f[5];
	struct ds_delfs fs[2];
	struct ds_delsum *s;
	size_t n;

	memset(f, 0, sizeof(f));
	memset(fs, 0, sizeof(fs));
	/* A shell and its child share one log; another file; a memfd. */
	f[0].pid = 10; f[0].fd = 1; f[0].ino = 5; f[0].blocks = 81920;
	f[0].size = 41943040; f[0].fs = 0;
	f[1] = f[0]; f[1].pid = 11;
	f[2].pid = 10; f[2].fd = 4; f[2].ino = 6; f[2].blocks = 8;
	f[2].size = 100; f[2].fs = 0;
	f[3].pid = 12; f[3].fd = -1; f[3].ino = 7; f[3].blocks = 16;
	f[3].fs = 1;
	f[4] = f[3]; f[4].fd = 3;	/* same process, fd and mapping */
	d.f = f;
	d.n = 5;
	d.fs = fs;
	d.nfs = 2;
	is_int(ds_deleted_summary(&d, &s, &n), 0, "summary");
	is_int(n, 2, "two filesystems");
	if (n == 2) {
		is_u64(s[0].held, (81920 + 8) * 512ULL, "held: each inode once");
		is_u64(s[0].size, 41943040 + 100, "size: each inode once");
		is_u64(s[0].files, 2, "two files");
		is_u64(s[0].holders, 2, "two processes");
		is_u64(s[1].files, 1, "memfd once");
		is_u64(s[1].holders, 1, "one process");
	}
	free(s);
	ds_deleted_sort(&d);
	ok(f[0].pid == 10 && f[0].fd == 1 && f[1].fd == 4 && f[2].pid == 11 &&
	    f[3].fd == 3 && f[4].fd == -1, "sorted: pid, fd, mappings last");
	d.n = 0;
	is_int(ds_deleted_summary(&d, &s, &n), 0, "no files");
	is_int(n, 0, "no rows");
	free(s);
}

static void
test_du_scan(void)
{
	char dir[] = "/tmp/ds-deleted.XXXXXX", p[256], q[256];
	struct ds_deleted d = { 0 };
	struct ds_delprobe pr;
	struct stat st;
	uint64_t bytes, errs, want = 0, freed;
	size_t i, found = 0, found_link = 0, found_map = 0;
	int fd, fd2, fd3;
	void *map;
	char buf[65536];

	if (mkdtemp(dir) == NULL) {
		ok(0, "mkdtemp");
		return;
	}
	memset(buf, 'x', sizeof(buf));
	snprintf(p, sizeof(p), "%s/a", dir);
	fd = open(p, O_WRONLY | O_CREAT | O_APPEND, 0600);
	ok(fd >= 0 && write(fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf),
	    "write 64 KiB");
	fsync(fd);
	snprintf(q, sizeof(q), "%s/b", dir);
	ok(link(p, q) == 0, "hard link");
	snprintf(q, sizeof(q), "%s/sub", dir);
	mkdir(q, 0700);
	snprintf(q, sizeof(q), "%s/sub/c", dir);
	ok(link(p, q) == 0, "second hard link");
	/* du counts each inode once: the dirs and one copy of a. */
	stat(dir, &st);
	want += (uint64_t)st.st_blocks * 512;
	snprintf(q, sizeof(q), "%s/sub", dir);
	stat(q, &st);
	want += (uint64_t)st.st_blocks * 512;
	stat(p, &st);
	want += (uint64_t)st.st_blocks * 512;
	is_int(ds_du(&root, dir, 0, &bytes, &errs), 0, "du walk");
	is_u64(bytes, want, "du: hard links once");
	is_u64(errs, 0, "du: no errors");
	is_int(ds_du(&root, "/nonexistent-ds", 0, &bytes, &errs), -ENOENT,
	    "du: missing dir");
	stat(dir, &st);
	is_int(ds_du(&root, dir, st.st_dev + 1, &bytes, &errs), -EXDEV,
	    "du: another device");

	/* a loses one name: b survives, so it is not deleted. */
	unlink(p);
	snprintf(p, sizeof(p), "%s/c", dir);
	fd2 = open(p, O_RDWR | O_CREAT, 0600);
	ok(fd2 >= 0 && write(fd2, buf, 8192) == 8192, "write c");
	map = mmap(NULL, 8192, PROT_READ, MAP_SHARED, fd2, 0);
	ok(map != MAP_FAILED, "map c");
	fd3 = dup(fd2);
	close(fd2);
	close(fd3);
	unlink(p);
	snprintf(p, sizeof(p), "%s/d", dir);
	fd2 = open(p, O_RDWR | O_CREAT, 0600);
	ok(fd2 >= 0 && write(fd2, buf, 12288) == 12288, "write d");
	fsync(fd2);
	unlink(p);
	is_int(ds_deleted_scan(&root, &d), 0, "scan");
	for (i = 0; i < d.n; i++) {
		const char *path = ds_deleted_str(&d, d.f[i].path);

		if (d.f[i].pid != getpid())
			continue;
		if (d.f[i].fd == fd)
			found_link++;
		if (d.f[i].fd == fd2 && d.f[i].size == 12288 &&
		    strcmp(path, p) == 0 && d.f[i].comm != DS_DEL_NONE)
			found++;
		if (d.f[i].fd == -1 && strstr(path, "/c") != NULL)
			found_map++;
	}
	is_int(found_link, 0, "a hard link with a surviving name: not listed");
	is_int(found, 1, "deleted d: listed once, path without suffix");
	if (geteuid() == 0)
		is_int(found_map, 1, "mapped-only c: listed as a mapping");
	else
		ok(d.unconfirmed > 0, "mapped-only c: unconfirmed without root");
	ds_deleted_free(&d);

	is_int(ds_deleted_probe(&root, getpid(), fd2, &pr), 0, "probe");
	ok(pr.regular && pr.nlink == 0 && pr.map.mapped == 0, "probe: deleted, "
	    "regular, not mapped");
	ok(pr.fi.have & DS_FDI_FLAGS, "probe: flags");
	is_int(ds_deleted_truncate(&root, getpid(), fd2, &pr, &freed), 0,
	    "truncate");
	ok(fstat(fd2, &st) == 0 && st.st_size == 0, "size now 0");
	is_u64(freed, pr.blocks * 512, "freed = allocation before");
	pr.ino++;
	is_int(ds_deleted_truncate(&root, getpid(), fd2, &pr, &freed),
	    -ESTALE, "another inode: refused");
	is_int(ds_deleted_probe(&root, getpid(), fd, &pr), 0, "probe a");
	is_u64(pr.nlink, 2, "probe a: two names left");
	munmap(map, 8192);
	close(fd);
	close(fd2);
	snprintf(p, sizeof(p), "%s/b", dir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/sub/c", dir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/sub", dir);
	rmdir(p);
	rmdir(dir);
}

int
main(void)
{
	if (ds_root_open(&root, "/") < 0 || ds_root_open(&fix, ".") < 0) {
		return skip_all("no root");
	}
	test_fdinfo();
	test_maps();
	test_strip_class();
	test_host_view();
	test_summary();
	test_du_scan();
	ds_root_close(&root);
	ds_root_close(&fix);
	return tap_done();
}
