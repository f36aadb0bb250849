/*
 * Stalled threads: every thread's state from proc/PID/task/TID/stat,
 * and for those kept the kernel function they sleep in (wchan), sorted
 * into what the wait is.  And a process's descriptors by kind, from
 * proc/PID/fd.
 *
 * The wchan names of the table below were seen on Linux 6.18: an
 * io_uring reader of an empty pipe sleeps in S in io_cqring_wait and is
 * counted in procs_blocked; readers short of a driver tag (nr_requests
 * 4) in D in blk_mq_get_tag; a writer over vm.dirty_bytes in D in
 * balance_dirty_pages; a reader of a FUSE file opened FOPEN_DIRECT_IO
 * in S in request_wait_answer (not iowait), while a page-cache read of
 * a FUSE file waits in D in folio_wait_bit_common like any disk's; a
 * direct reader of a block device waits in submit_bio_wait.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/capability.h>

#include "internal.h"

#define PF_KTHREAD	0x00200000u	/* include/linux/sched.h */
#define STAT_MAX	4096	/* a kernel's stat line is under 1 KiB */

/*
 * wchan names, first match wins: exact names, or prefixes ending in
 * '*'.  The daemon side of FUSE and the NFS server come before the
 * prefixes that would take them for a client's wait.
 */
static const struct {
	const char *name;
	enum ds_wait wait;
} wait_table[] = {
	{ "fuse_dev_*", DS_WAIT_OTHER },	/* a FUSE daemon waiting for work */
	{ "nfsd*", DS_WAIT_OTHER },		/* the NFS server */
	{ "io_cqring_wait*", DS_WAIT_URING },
	{ "blk_mq_get_tag", DS_WAIT_TAG },
	{ "balance_dirty_pages", DS_WAIT_DIRTY },
	{ "fuse_*", DS_WAIT_FUSE },
	{ "request_wait_answer", DS_WAIT_FUSE },
	{ "nfs*", DS_WAIT_NFS },
	{ "rpc_*", DS_WAIT_NFS },		/* rpc_wait_bit_killable */
	{ "cifs_*", DS_WAIT_CIFS },
	{ "smb2_*", DS_WAIT_CIFS },
	{ "smb3_*", DS_WAIT_CIFS },
	{ "SendReceive*", DS_WAIT_CIFS },
	{ "wait_for_response", DS_WAIT_CIFS },
	{ "wait_for_free_credits", DS_WAIT_CIFS },
	{ "wait_for_compound_request", DS_WAIT_CIFS },
	/* In D, but no I/O: a vfork parent (_do_fork before 5.10), RCU. */
	{ "kernel_clone", DS_WAIT_OTHER },
	{ "_do_fork", DS_WAIT_OTHER },
	{ "__wait_rcu_gp", DS_WAIT_OTHER },
	{ "rcu_barrier*", DS_WAIT_OTHER },
	{ "synchronize_rcu*", DS_WAIT_OTHER },
};

static const char *const wait_names[DS_WAIT_N] = {
	"none", "block", "tag", "io_uring", "dirty", "fuse", "nfs", "cifs",
	"other",
};

const char *
ds_wait_name(enum ds_wait w)
{
	return (unsigned)w < DS_WAIT_N ? wait_names[w] : NULL;
}

enum ds_wait
ds_wait_class(char state, const char *wchan)
{
	size_t i, n;
	const char *p;

	if ((state != 'D' && state != 'S') || wchan == NULL ||
	    *wchan == '\0' || strcmp(wchan, "0") == 0)
		return DS_WAIT_NONE;
	for (i = 0; i < nitems(wait_table); i++) {
		p = wait_table[i].name;
		n = strlen(p);
		if (p[n - 1] == '*' ? strncmp(wchan, p, n - 1) == 0 :
		    strcmp(wchan, p) == 0)
			return wait_table[i].wait;
	}
	return state == 'D' ? DS_WAIT_BLOCK : DS_WAIT_OTHER;
}

/*
 * Kept when in S: io_uring's completion wait (counted as iowait), and a
 * FUSE or network filesystem's request wait (not counted, but a reader
 * of the file waits all the same).
 */
static int
sleep_kept(enum ds_wait w)
{
	return w == DS_WAIT_URING || w == DS_WAIT_FUSE || w == DS_WAIT_NFS ||
	    w == DS_WAIT_CIFS;
}

void
ds_stalls_free(struct ds_stalls *s)
{
	free(s->t);
	memset(s, 0, sizeof(*s));
}

/* A directory entry that is a pid: its value, else -1. */
static int
entry_id(const char *name)
{
	uint64_t v;

	if (name[0] < '1' || name[0] > '9' || ds_strtou64(name, &v) < 0 ||
	    v > INT32_MAX)
		return -1;
	return (int)v;
}

static int
gone(int e)
{
	return e == -ENOENT || e == -ESRCH;
}

/* Out of descriptors or memory: the scan cannot go on. */
static int
fatal(int e)
{
	return e == -EMFILE || e == -ENFILE || e == -ENOMEM;
}

/* One read of at most max bytes into b (NUL-terminated): length or -errno. */
static long
read_once(int fd, struct ds_buf *b, size_t max)
{
	ssize_t n;
	int e;

	b->len = 0;
	if ((e = ds_buf_reserve(b, max)) < 0)
		return ds_buf_fail(b, e);
	do
		n = read(fd, b->data, max);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return ds_buf_fail(b, errno == EAGAIN ? -EINVAL : -errno);
	b->len = (size_t)n;
	b->data[n] = '\0';
	return n;
}

struct tstat {
	char state;
	int kthread;
	char comm[16];
};

/*
 * proc(5) stat of thread tid: "tid (comm) state ppid pgrp session tty_nr
 * tpgid flags ...".  comm may hold any byte, ") " and newlines too, so
 * it ends at the LAST ')'.
 */
static int
parse_stat(const char *s, size_t n, int tid, struct tstat *t)
{
	const char *open, *close, *p, *end = s + n, *q;
	uint64_t v;
	size_t l;
	int f;

	open = memchr(s, '(', n);
	close = memrchr(s, ')', n);
	if (open == NULL || close == NULL || close < open)
		return -EINVAL;
	if (ds_parse_u64(s, &p, &v) < 0 || p != open - 1 || *p != ' ' ||
	    v != (uint64_t)tid)
		return -EINVAL;
	l = (size_t)(close - open - 1);
	if (l > sizeof(t->comm) - 1)
		l = sizeof(t->comm) - 1;
	memcpy(t->comm, open + 1, l);
	t->comm[l] = '\0';
	p = close + 1;
	if (end - p < 3 || p[0] != ' ' || p[2] != ' ' ||
	    !((p[1] >= 'A' && p[1] <= 'Z') || (p[1] >= 'a' && p[1] <= 'z')))
		return -EINVAL;
	t->state = p[1];
	p += 2;
	/* Fields 4 to 8 (tty_nr and tpgid may be negative), then flags. */
	for (f = 4; f <= 9; f++) {
		if (p == end || *p != ' ')
			return -EINVAL;
		p++;
		if (f == 9)
			break;
		q = p;
		if (q < end && *q == '-')
			q++;
		while (q < end && *q >= '0' && *q <= '9')
			q++;
		if (q == p || (q == p + 1 && *p == '-'))
			return -EINVAL;
		p = q;
	}
	if (ds_parse_u64(p, &q, &v) < 0 || q == p || (q < end && *q != ' '))
		return -EINVAL;
	t->kthread = (v & PF_KTHREAD) != 0;
	return 0;
}

struct scan {
	const struct ds_root *r;
	struct ds_buf *b;
	struct ds_stalls *out;
	int sleeping;
	int ptrace;		/* CAP_SYS_PTRACE: every wchan readable */
	uid_t euid;
};

static int
has_ptrace(void)
{
	struct __user_cap_header_struct h;
	struct __user_cap_data_struct d[2];

	memset(&h, 0, sizeof(h));
	memset(d, 0, sizeof(d));
	h.version = _LINUX_CAPABILITY_VERSION_3;
	if (syscall(SYS_capget, &h, d) < 0)
		return 0;
	return (d[CAP_SYS_PTRACE / 32].effective >> (CAP_SYS_PTRACE % 32)) & 1;
}

/*
 * The wchan of tid into w (cut to its size).  0; 1 when denied: the
 * kernel shows "0" to a reader that may not ptrace the thread, so "0"
 * of another user's thread, live and without CAP_SYS_PTRACE, is taken
 * for a refusal; -errno.
 */
static int
read_wchan(struct scan *s, int taskfd, int tid, char *w, size_t size)
{
	char rel[32], buf[64];
	struct stat st;
	ssize_t n;
	int fd, e = 0;

	w[0] = '\0';
	snprintf(rel, sizeof(rel), "%d/wchan", tid);
	if ((fd = ds_openat_in(s->r, taskfd, rel, O_RDONLY | O_NONBLOCK)) < 0)
		return fd == -EACCES || fd == -EPERM ? 1 : fd;
	do
		n = read(fd, buf, sizeof(buf) - 1);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		e = errno == EACCES || errno == EPERM ? 1 :
		    errno == EAGAIN ? -EINVAL : -errno;
		close(fd);
		return e;
	}
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\0'))
		n--;
	buf[n] = '\0';
	if (n == 1 && buf[0] == '0' && s->r->live && !s->ptrace &&
	    fstat(fd, &st) == 0 && st.st_uid != s->euid)
		e = 1;
	close(fd);
	if (e == 0)
		snprintf(w, size, "%s", buf);
	return e;
}

/* Thread tid of pid, from its task directory: 0 or a fatal -errno. */
static int
one_thread(struct scan *s, int taskfd, int pid, int tid)
{
	struct ds_stalls *o = s->out;
	struct ds_stall *t;
	struct tstat ts;
	char rel[32], wchan[sizeof(t->wchan)];
	enum ds_wait w;
	long n;
	int fd, e;

	snprintf(rel, sizeof(rel), "%d/stat", tid);
	if ((fd = ds_openat_in(s->r, taskfd, rel, O_RDONLY | O_NONBLOCK)) < 0) {
		if (fatal(fd))
			return fd;
		if (!gone(fd) && fd != -EACCES && fd != -EPERM)
			o->bad++;
		return 0;
	}
	n = read_once(fd, s->b, STAT_MAX);
	close(fd);
	if (n == -ENOMEM)
		return (int)n;
	if (n < 0 && gone((int)n))
		return 0;
	if (n <= 0 || (size_t)n >= STAT_MAX ||
	    parse_stat(s->b->data, (size_t)n, tid, &ts) < 0) {
		/* Live, an empty read is a thread that just died. */
		if (n != 0 || !s->r->live)
			o->bad++;
		return 0;
	}
	o->threads++;
	if (ts.state == 'D')
		o->nd++;
	else if (ts.state != 'S' || !s->sleeping || ts.kthread)
		return 0;
	if ((e = read_wchan(s, taskfd, tid, wchan, sizeof(wchan))) < 0) {
		if (fatal(e) || (s->r->live && gone(e)))
			return fatal(e) ? e : 0;
		/* A tree without the file, or a damaged one: not known. */
	}
	if (e == 1)
		o->wchan_denied++;
	w = ds_wait_class(ts.state, wchan);
	if (ts.state == 'S' && !sleep_kept(w))
		return 0;
	if ((e = ds_grow(&o->t, &o->cap, o->n + 1, sizeof(*o->t))) < 0)
		return e;
	t = &o->t[o->n++];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->tid = tid;
	t->state = ts.state;
	t->wait = w;
	t->kthread = ts.kthread;
	memcpy(t->comm, ts.comm, sizeof(t->comm));
	memcpy(t->wchan, wchan, sizeof(t->wchan));
	return 0;
}

/* Every thread of pid: 0 or a fatal -errno. */
static int
one_process(struct scan *s, int procfd, int pid)
{
	struct dirent *de;
	char rel[32];
	DIR *d;
	int fd, tid, e = 0;

	snprintf(rel, sizeof(rel), "%d/task", pid);
	if ((fd = ds_openat_in(s->r, procfd, rel, O_RDONLY | O_DIRECTORY)) < 0)
		return fatal(fd) ? fd : 0;
	if ((d = fdopendir(fd)) == NULL) {
		e = -errno;
		close(fd);
		return fatal(e) ? e : 0;
	}
	while ((de = readdir(d)) != NULL && e == 0)
		if ((tid = entry_id(de->d_name)) > 0)
			e = one_thread(s, dirfd(d), pid, tid);
	closedir(d);
	return e;
}

static int
cmp_stall(const void *a, const void *b)
{
	const struct ds_stall *x = a, *y = b;

	if (x->pid != y->pid)
		return (x->pid > y->pid) - (x->pid < y->pid);
	return (x->tid > y->tid) - (x->tid < y->tid);
}

int
ds_stalls_scan(const struct ds_root *r, int sleeping, struct ds_buf *scratch,
    struct ds_stalls *out)
{
	struct scan s;
	struct dirent *de;
	DIR *d;
	int fd, pid, e = 0;

	out->n = out->threads = out->nd = out->wchan_denied = out->bad = 0;
	memset(&s, 0, sizeof(s));
	s.r = r;
	s.b = scratch;
	s.out = out;
	s.sleeping = sleeping;
	s.euid = geteuid();
	s.ptrace = r->live && has_ptrace();
	if ((fd = ds_openat(r, "proc", O_RDONLY | O_DIRECTORY)) < 0)
		return fd;
	if ((d = fdopendir(fd)) == NULL) {
		e = -errno;
		close(fd);
		return e;
	}
	for (;;) {
		errno = 0;
		if ((de = readdir(d)) == NULL) {
			e = -errno;
			break;
		}
		if ((pid = entry_id(de->d_name)) > 0 &&
		    (e = one_process(&s, dirfd(d), pid)) < 0)
			break;
	}
	closedir(d);
	if (e < 0) {
		out->n = 0;
		return e;
	}
	if (out->n > 1)
		qsort(out->t, out->n, sizeof(*out->t), cmp_stall);
	return 0;
}

/* Descriptors. */

static void
add_dev(struct ds_procfds *o, dev_t dev)
{
	unsigned int ma = major(dev), mi = minor(dev);
	size_t i;

	for (i = 0; i < o->ndev; i++)
		if (o->dev[i].major == ma && o->dev[i].minor == mi)
			return;
	if (o->ndev == DS_PROCFDS_DEVS) {
		o->more_devs = 1;
		return;
	}
	o->dev[o->ndev].major = ma;
	o->dev[o->ndev].minor = mi;
	o->ndev++;
}

/*
 * The file behind descriptor name, through the root: live the magic
 * link is followed (the open file itself, wherever it is mounted), in a
 * tree what the link names inside the tree.
 */
static void
look_file(const struct ds_root *r, int pid, const char *name,
    struct ds_procfds *o)
{
	char rel[64];
	struct stat st;
	int e;

	snprintf(rel, sizeof(rel), "proc/%d/fd/%s", pid, name);
	if ((e = ds_fstatat_in(r, r->fd, rel, &st)) < 0) {
		/* Live, gone means closed since the link was read. */
		if (!(r->live && gone(e)))
			o->unknown++;
		return;
	}
	if (S_ISREG(st.st_mode)) {
		o->cached++;
		add_dev(o, st.st_dev);
	} else if (S_ISBLK(st.st_mode))
		o->cached++;
	else if (S_ISLNK(st.st_mode))
		o->unknown++;	/* without openat2, a tree's links stay links */
	else
		o->other++;
}

/*
 * A summary as a line of a capture's capture/procfds:
 *
 *	PID uring cached other unknown more_devs truncated denied MAJ:MIN...
 */
int
ds_procfds_line(struct ds_buf *b, int pid, const struct ds_procfds *p)
{
	size_t i;
	int e;

	if ((e = ds_buf_appendf(b, "%d %zu %zu %zu %zu %d %d %d", pid,
	    p->uring, p->cached, p->other, p->unknown, p->more_devs,
	    p->truncated, p->denied)) < 0)
		return e;
	for (i = 0; i < p->ndev && i < DS_PROCFDS_DEVS; i++)
		if ((e = ds_buf_appendf(b, " %u:%u", p->dev[i].major,
		    p->dev[i].minor)) < 0)
			return e;
	return ds_buf_appendf(b, "\n") < 0 ? -ENOMEM : 0;
}

#define PROCFDS_FILE_MAX	(DS_PROCFDS_LINES * 256)

/* pid's line of the sample's capture/procfds; -ENOENT without one. */
static int
captured(const struct ds_root *r, int pid, struct ds_procfds *out)
{
	struct ds_buf b = { 0 };
	const char *p, *q, *nl;
	uint64_t v[8], ma, mi;
	size_t k;
	int e;

	if ((e = ds_read_file(r, "capture/procfds", &b)) < 0)
		goto out;
	/* DS_PROCFDS_LINES at most: a larger file is damage, unread. */
	e = -ENOENT;
	if (b.len > PROCFDS_FILE_MAX)
		goto out;
	for (p = b.data; *p != '\0'; p = *nl != '\0' ? nl + 1 : nl) {
		if ((nl = strchr(p, '\n')) == NULL)
			nl = p + strlen(p);
		for (k = 0, q = p; k < 8; k++)
			if (ds_parse_u64(q, &q, &v[k]) < 0 || (*q != ' ' &&
			    q != nl))
				break;
		if (k < 8 || v[0] != (uint64_t)pid)
			continue;
		if (v[5] > 1 || v[6] > 1 || v[7] > 1)
			break;		/* damaged: as if not recorded */
		out->uring = (size_t)v[1];
		out->cached = (size_t)v[2];
		out->other = (size_t)v[3];
		out->unknown = (size_t)v[4];
		out->more_devs = (int)v[5];
		out->truncated = (int)v[6];
		out->denied = (int)v[7];
		while (q < nl) {
			if (ds_parse_u64(q, &q, &ma) < 0 || *q++ != ':' ||
			    ds_parse_u64(q, &q, &mi) < 0 || ma > UINT32_MAX ||
			    mi > UINT32_MAX || (*q != ' ' && q != nl))
				break;
			if (out->ndev == DS_PROCFDS_DEVS) {
				out->more_devs = 1;
				break;
			}
			out->dev[out->ndev].major = (unsigned int)ma;
			out->dev[out->ndev++].minor = (unsigned int)mi;
		}
		e = 0;
		break;
	}
	if (e < 0)
		memset(out, 0, sizeof(*out));
out:
	ds_buf_free(&b);
	return e;
}

int
ds_procfds_read(const struct ds_root *r, int pid, struct ds_procfds *out)
{
	static const char uring[] = "anon_inode:[io_uring]";
	struct dirent *de;
	char rel[32], link[256];
	size_t seen = 0;
	long n;
	DIR *d;
	int fd, e = 0;

	memset(out, 0, sizeof(*out));
	if (pid <= 0)
		return -EINVAL;
	/* A capture holds no descriptor's target: its summary instead. */
	if (r->nsamples > 0)
		return captured(r, pid, out);
	snprintf(rel, sizeof(rel), "proc/%d/fd", pid);
	if ((fd = ds_openat(r, rel, O_RDONLY | O_DIRECTORY)) < 0) {
		if (fd == -EACCES || fd == -EPERM) {
			out->denied = 1;
			return 0;
		}
		return fd;
	}
	if ((d = fdopendir(fd)) == NULL) {
		e = -errno;
		close(fd);
		return e;
	}
	for (;;) {
		errno = 0;
		if ((de = readdir(d)) == NULL) {
			e = errno == EACCES || errno == EPERM ? 0 : -errno;
			out->denied |= errno == EACCES || errno == EPERM;
			break;
		}
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		if (seen++ == DS_PROCFDS_MAX) {
			out->truncated = 1;
			break;
		}
		n = ds_readlink_in(r, dirfd(d), de->d_name, link,
		    sizeof(link) - 1);
		if (n == -EACCES || n == -EPERM) {
			out->denied = 1;
			break;
		}
		if (n == -ENOENT && r->live)
			continue;	/* closed since the listing */
		if (n == -EINVAL || n == -ENOENT) {
			/*
			 * Not a link: a plain file standing for one in a tree
			 * (readlinkat of "" says ENOENT, of a name EINVAL).
			 */
			look_file(r, pid, de->d_name, out);
			continue;
		}
		if (n < 0) {
			out->unknown++;
			continue;
		}
		link[n] = '\0';
		if ((size_t)n == sizeof(uring) - 1 && memcmp(link, uring, (size_t)n) == 0)
			out->uring++;
		else if (link[0] == '/')
			look_file(r, pid, de->d_name, out);
		else
			out->other++;	/* pipe:[N], socket:[N], anon_inode:... */
	}
	closedir(d);
	return e;
}
