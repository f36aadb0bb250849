/*
 * Every process, in one pass over proc and at about the cost of the
 * scans the tools make live (dwho's stat and io, ddeleted's descriptor
 * links):
 *
 *	proc/PID/stat, io	copied; stat's owner (procfs gives a
 *				process's files its effective uid, as the
 *				tools read it) as a line "PID UID" of
 *				capture/owners
 *	proc/PID/cgroup		one line, the process's cgroup in the
 *				hierarchy the tools read, from the
 *				cgroup.procs files cgroups.c read (the file
 *				itself when the process is in none of them,
 *				or in two)
 *	proc/PID/fd/		an empty directory when the descriptors
 *				could be read (ddeleted counts the others
 *				as denied), with the link and fdinfo of each
 *				descriptor of a deleted file and its stat in
 *				capture/fdstat
 *	proc/PID/task/TID/	stat and io of each thread, for processes
 *				of more than one thread (one thread: the
 *				process's files are its thread's)
 *
 * A file of these that could not be read for want of rights (PID 1's
 * io even to root) is a line of capture/refused ("proc/1/io"): a reader
 * tells it from a process that was gone.
 *
 * Never cmdline, environ, other descriptors' targets or maps: those can
 * hold secrets (capture/procfds, of sample 1, counts the descriptors of
 * the processes dtriage looks at, by kind and device, naming none).  capture/fdstat has a line per deleted descriptor:
 *
 *	pid fd dev ino nlink size blocks mnt_id mode uid
 *
 * decimal; dev as st_dev.
 */
#include <dirent.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "dcapture.h"

/*
 * rel (under proc) into c->buf, read once where it fits (cap_read_fd);
 * with st non-NULL its fstat too.  0 or -errno.
 */
static int
read_proc(struct cap *c, int procfd, const char *rel, struct stat *st)
{
	int fd, e;

	c->buf.len = 0;
	/* The live proc (c->r is "/"): openat alone. */
	if ((fd = openat(procfd, rel, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
		return -errno;
	if (st != NULL && fstat(fd, st) < 0)
		e = -errno;
	else
		e = cap_read_fd(fd, &c->buf, st == NULL ||
		    S_ISREG(st->st_mode));
	close(fd);
	return e;
}

/* proc/REL read and stored; errors as cap_copy says them. */
static int
copy(struct cap *c, int procfd, const char *rel, struct stat *st)
{
	char full[96];
	int e;

	snprintf(full, sizeof(full), "proc/%s", rel);
	if ((e = read_proc(c, procfd, rel, st)) < 0) {
		cap_error(c, full, e);
		if (e == -EACCES || e == -EPERM) {
			(void)cap_buf_add(&c->refused, full, strlen(full));
			(void)cap_buf_add(&c->refused, "\n", 1);
		}
		return e;
	}
	return cap_put(c, full, c->buf.data, c->buf.len);
}

static void
threads(struct cap *c, int procfd, const char *pid)
{
	char rel[64], **tid;
	size_t n, i;
	int e;

	snprintf(rel, sizeof(rel), "proc/%s/task", pid);
	if ((e = cap_names(c, rel, 1, &tid, &n)) < 0) {
		cap_error(c, rel, e);
		return;
	}
	for (i = 0; i < n; i++) {
		snprintf(rel, sizeof(rel), "%s/task/%s/stat", pid, tid[i]);
		if (copy(c, procfd, rel, NULL) == -ENOENT)
			continue;
		snprintf(rel, sizeof(rel), "%s/task/%s/io", pid, tid[i]);
		(void)copy(c, procfd, rel, NULL);
	}
	cap_names_free(tid, n);
}

/* A deleted file's descriptor: its link, its stat line, its fdinfo. */
static void
deleted(struct cap *c, int procfd, int fdd, int pid, uid_t uid, int fd,
    const char *name, const char *link)
{
	char rel[64];
	struct statx stx;

	snprintf(rel, sizeof(rel), "proc/%d/fd/%d", pid, fd);
	if (statx(fdd, name, 0, STATX_BASIC_STATS | STATX_MNT_ID, &stx) < 0) {
		cap_error(c, rel, -errno);
		return;
	}
	if (stx.stx_nlink != 0)
		return;
	if (cap_put_link(c, rel, link) < 0)
		return;
	(void)cap_buf_printf(&c->fdstat, "%d %d %llu %llu %u %llu %llu %llu "
	    "%u %u\n", pid, fd,
	    (unsigned long long)makedev(stx.stx_dev_major, stx.stx_dev_minor),
	    (unsigned long long)stx.stx_ino, stx.stx_nlink,
	    (unsigned long long)stx.stx_size,
	    (unsigned long long)stx.stx_blocks,
	    (unsigned long long)((stx.stx_mask & STATX_MNT_ID) ?
	    stx.stx_mnt_id : 0), (unsigned)stx.stx_mode, (unsigned)uid);
	snprintf(rel, sizeof(rel), "%d/fdinfo/%d", pid, fd);
	(void)copy(c, procfd, rel, NULL);
}

/* The descriptors of pid: the directory, and each deleted file's. */
static void
descriptors(struct cap *c, int procfd, int pid, uid_t uid)
{
	char rel[48], link[4096];
	uint64_t v;
	ssize_t nb;
	size_t off, len;
	int fdd;

	snprintf(rel, sizeof(rel), "%d/fd", pid);
	if ((fdd = openat(procfd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) <
	    0) {
		snprintf(rel, sizeof(rel), "proc/%d/fd", pid);
		cap_error(c, rel, -errno);
		return;
	}
	snprintf(rel, sizeof(rel), "proc/%d/fd", pid);
	(void)cap_dir(c, rel);
	for (;;) {
		nb = getdents64(fdd, c->dents, sizeof(c->dents));
		if (nb <= 0)
			break;
		for (off = 0; off < (size_t)nb;) {
			struct dirent64 *de = (struct dirent64 *)(void *)
			    (c->dents + off);

			off += de->d_reclen;
			if (de->d_name[0] < '0' || de->d_name[0] > '9' ||
			    ds_strtou64(de->d_name, &v) < 0 || v > INT32_MAX)
				continue;
			if (ds_deleted_link(fdd, de->d_name, link,
			    sizeof(link), &len) == 1)
				deleted(c, procfd, fdd, pid, uid, (int)v,
				    de->d_name, link);
		}
	}
	/* Gone while read: nothing more to say. */
	if (nb < 0)
		cap_error(c, rel, -errno);
	close(fdd);
}

/* The cgroup line of pid from the cgroup.procs read, or its file. */
static void
cgroup(struct cap *c, int procfd, int pid)
{
	char rel[48];
	const char *path;

	if ((path = cap_cgmap_find(c, pid)) != NULL) {
		c->line.len = 0;
		(void)cap_buf_add(&c->line, "0::", 3);
		(void)cap_buf_add(&c->line, path, strlen(path));
		(void)cap_buf_add(&c->line, "\n", 1);
		snprintf(rel, sizeof(rel), "proc/%d/cgroup", pid);
		(void)cap_put(c, rel, c->line.data, c->line.len);
		return;
	}
	snprintf(rel, sizeof(rel), "%d/cgroup", pid);
	(void)copy(c, procfd, rel, NULL);
}

/* The rchar of an io text (c->buf), kept for the sample's readers. */
static void
keep_rchar(struct cap *c, int pid)
{
	unsigned int n = c->sample;
	const char *p = c->buf.data;
	uint64_t v;

	if (p == NULL || strncmp(p, "rchar: ", 7) != 0 ||
	    ds_parse_u64(p + 7, NULL, &v) < 0 ||
	    ds_grow(&c->rc[n], &c->caprc[n], c->nrc[n] + 1,
	    sizeof(*c->rc[n])) < 0)
		return;
	c->rc[n][c->nrc[n]].pid = pid;
	c->rc[n][c->nrc[n]++].v = v;
}

static int
cmp_rchar(const void *a, const void *b)
{
	const struct rchar *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

#define PROCFDS_MAX	DS_PROCFDS_LINES
#define READER_BPS	1048576.0	/* dtriage's page-cache reader */

static int
listed(const int *pids, size_t n, int pid)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (pids[i] == pid)
			return 1;
	return 0;
}

/*
 * Sample 1 of a window: the descriptors of the processes dtriage looks
 * at (the user threads its looks saw waiting, the processes that read
 * READER_BPS or more through syscalls), summarized as
 * ds_procfds_read gives them, in capture/procfds.  A capture keeps no
 * descriptor's target; this says what they were without naming them.
 */
static void
readers(struct cap *c)
{
	int pids[PROCFDS_MAX];
	struct ds_procfds pf;
	struct rchar *r0, *r;
	double min;
	size_t n = 0, i;

	if (c->sample != 1 || c->up[1] <= c->up[0])
		return;
	for (i = 0; c->win_on && i < c->win.ntask && n < PROCFDS_MAX; i++)
		if (!c->win.task[i].kthread &&
		    !listed(pids, n, c->win.task[i].pid))
			pids[n++] = c->win.task[i].pid;
	/* Less 10% for the scans' own time between the samples' reads. */
	min = READER_BPS * (double)(c->up[1] - c->up[0]) / 1e9 * 0.9;
	if (c->nrc[0] > 1)
		qsort(c->rc[0], c->nrc[0], sizeof(*c->rc[0]), cmp_rchar);
	for (i = 0; i < c->nrc[1] && n < PROCFDS_MAX; i++) {
		r = &c->rc[1][i];
		r0 = bsearch(r, c->rc[0], c->nrc[0], sizeof(*r), cmp_rchar);
		if ((double)(r->v - (r0 != NULL && r0->v <= r->v ? r0->v :
		    0)) >= min && !listed(pids, n, r->pid))
			pids[n++] = r->pid;
	}
	c->line.len = 0;
	for (i = 0; i < n; i++)
		if (ds_procfds_read(&c->r, pids[i], &pf) == 0)
			(void)ds_procfds_line(&c->line, pids[i], &pf);
	(void)cap_put(c, "capture/procfds", c->line.data ? c->line.data : "",
	    c->line.len);
}

static void
process(struct cap *c, int procfd, int pid)
{
	char rel[48], id[16];
	struct stat st;
	uint64_t nthr = 1;

	snprintf(id, sizeof(id), "%d", pid);
	snprintf(rel, sizeof(rel), "%d/stat", pid);
	/* Gone already: nothing of it, and nothing to say. */
	if (copy(c, procfd, rel, &st) < 0)
		return;
	(void)ds_stat_threads(c->buf.data, c->buf.len, &nthr);
	(void)cap_buf_printf(&c->owners, "%d %u\n", pid, (unsigned)st.st_uid);
	snprintf(rel, sizeof(rel), "%d/io", pid);
	if (copy(c, procfd, rel, NULL) == 0)
		keep_rchar(c, pid);
	cgroup(c, procfd, pid);
	descriptors(c, procfd, pid, st.st_uid);
	if (nthr > 1)
		threads(c, procfd, id);
}

void
cap_procs(struct cap *c)
{
	char **pid;
	size_t n, i;
	uint64_t v;
	int e, procfd;

	c->owners.len = 0;
	c->fdstat.len = 0;
	c->refused.len = 0;
	c->nrc[c->sample] = 0;
	if ((e = cap_names(c, "proc", 1, &pid, &n)) < 0 ||
	    (procfd = e = ds_openat(&c->r, "proc", O_PATH | O_DIRECTORY)) < 0) {
		if (e >= 0)
			cap_names_free(pid, n);
		cap_error(c, "proc", e);
		return;
	}
	for (i = 0; i < n && c->tw->err == 0; i++)
		if (ds_strtou64(pid[i], &v) == 0 && v > 0 && v <= INT32_MAX)
			process(c, procfd, (int)v);
	close(procfd);
	cap_names_free(pid, n);
	(void)cap_put(c, "capture/owners", c->owners.data ? c->owners.data :
	    "", c->owners.len);
	(void)cap_put(c, "capture/fdstat", c->fdstat.data ? c->fdstat.data :
	    "", c->fdstat.len);
	(void)cap_put(c, "capture/refused", c->refused.data ?
	    c->refused.data : "", c->refused.len);
	readers(c);
}
