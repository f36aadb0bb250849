/*
 * The filesystems' space: capture/statfs has a line per mount of
 * proc/self/mountinfo:
 *
 *	MOUNTPOINT dev magic frsize blocks bfree bavail files ffree
 *
 * the mount point escaped as mountinfo escapes it (\040 for a space).
 */
#include <sys/stat.h>
#include <sys/statfs.h>

#include "dcapture.h"

/* mountinfo's octal escapes (\040) undone into out. */
static void
unescape(const char *s, char *out, size_t size)
{
	size_t o = 0;

	while (*s != '\0' && o + 1 < size) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			out[o++] = (char)((s[1] - '0') << 6 |
			    (s[2] - '0') << 3 | (s[3] - '0'));
			s += 4;
		} else
			out[o++] = *s++;
	}
	out[o] = '\0';
}

/*
 * statfs(2) of a network filesystem waits for its server, forever when
 * the server is gone: those are left out, and said so.
 */
static int
network(const char *fstype)
{
	static const char *const net[] = { "nfs", "nfs4", "cifs", "smb3",
	    "smbfs", "ceph", "glusterfs", "9p", "afs", "lustre", "gfs2",
	    "ocfs2" };
	size_t i;

	if (strncmp(fstype, "fuse", 4) == 0)
		return 1;
	for (i = 0; i < sizeof(net) / sizeof(net[0]); i++)
		if (strcmp(fstype, net[i]) == 0)
			return 1;
	return 0;
}

static void
mount1(struct cap *c, const char *esc, const char *fstype)
{
	char mnt[4096];
	struct statfs sf;
	struct stat st;
	int fd;

	unescape(esc, mnt, sizeof(mnt));
	if (network(fstype)) {
		cap_error_why(c, mnt, "statfs not read: network filesystem");
		return;
	}
	/* O_PATH: the mount point itself, no automount triggered. */
	fd = ds_openat(&c->r, mnt[1] != '\0' ? mnt + 1 : ".",
	    O_PATH | O_DIRECTORY | O_NOFOLLOW);
	if (fd < 0) {
		cap_error(c, mnt, fd);
		return;
	}
	if (fstat(fd, &st) < 0 || fstatfs(fd, &sf) < 0) {
		cap_error(c, mnt, -errno);
		close(fd);
		return;
	}
	close(fd);
	(void)cap_buf_add(&c->line, esc, strlen(esc));
	(void)cap_buf_printf(&c->line, " %llu %llu %llu %llu %llu %llu %llu "
	    "%llu\n", (unsigned long long)st.st_dev,
	    (unsigned long long)sf.f_type,
	    (unsigned long long)(sf.f_frsize ? sf.f_frsize : sf.f_bsize),
	    (unsigned long long)sf.f_blocks, (unsigned long long)sf.f_bfree,
	    (unsigned long long)sf.f_bavail, (unsigned long long)sf.f_files,
	    (unsigned long long)sf.f_ffree);
}

void
cap_statfs(struct cap *c)
{
	char *p, *nl, *f[6], *dash;
	size_t i;
	int e;

	c->line.len = 0;
	if ((e = cap_read(c, "proc/self/mountinfo", &c->buf)) < 0) {
		cap_error(c, "proc/self/mountinfo", e);
		return;
	}
	/* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS ... - FSTYPE SOURCE ... */
	for (p = c->buf.data; *p != '\0'; p = nl) {
		if ((nl = strchr(p, '\n')) == NULL)
			break;
		*nl++ = '\0';
		if ((dash = strstr(p, " - ")) == NULL)
			continue;
		*dash = '\0';
		dash += 3;
		for (i = 0; i < 6 && (f[i] = strsep(&p, " ")) != NULL; i++)
			;
		if (i < 6)
			continue;
		f[5] = strsep(&dash, " ");
		if (f[5] == NULL || f[4][0] != '/')
			continue;
		mount1(c, f[4], f[5]);
	}
	(void)cap_put(c, "capture/statfs", c->line.data ? c->line.data : "",
	    c->line.len);
}
