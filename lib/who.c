/*
 * Processes and their I/O rates.  A scan reads, per process, stat
 * (owner, start time, field 42), then only what the caller asked for:
 * cmdline, io, the threads' stat files, cgroup.  Each file is one
 * open/read/close; a process that exits mid-scan is skipped quietly.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "internal.h"

static int
gone(int e)
{
	/* A process or thread that exited between readdir and open. */
	return e == -ENOENT || e == -ESRCH;
}

static int
cmp_proc(const void *a, const void *b)
{
	int x = ((const struct ds_proc *)a)->pid;
	int y = ((const struct ds_proc *)b)->pid;

	return (x > y) - (x < y);
}

static void
proc_free(struct ds_proc *p)
{
	free(p->cmdline);
	free(p->cgroup);
	p->cmdline = p->cgroup = NULL;
}

void
ds_procs_free(struct ds_procs *ps)
{
	size_t i;

	for (i = 0; i < ps->n; i++)
		proc_free(&ps->p[i]);
	free(ps->p);
	memset(ps, 0, sizeof(*ps));
}

const struct ds_proc *
ds_procs_find(const struct ds_procs *ps, int pid)
{
	size_t lo = 0, hi = ps->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (ps->p[mid].pid == pid)
			return &ps->p[mid];
		if (ps->p[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int
ds_proc_cgroup_parse(const char *text, const char **path, size_t *len)
{
	const char *p = text, *nl, *c1, *c2, *best = NULL, *bend = NULL;
	int rank = 0, r;

	/* Lines are "hierarchy-id:controller,list:path". */
	for (; *p != '\0'; p = *nl != '\0' ? nl + 1 : nl) {
		nl = strchr(p, '\n');
		if (nl == NULL)
			nl = p + strlen(p);
		c1 = memchr(p, ':', (size_t)(nl - p));
		if (c1 == NULL)
			continue;
		c2 = memchr(c1 + 1, ':', (size_t)(nl - c1 - 1));
		if (c2 == NULL || c2 + 1 >= nl || c2[1] != '/')
			continue;
		if (c1 - p == 1 && p[0] == '0' && c2 == c1 + 1)
			r = 4;		/* the v2 hierarchy */
		else {
			const char *s = c1 + 1, *e;

			r = 1;
			/* The controller list is comma separated. */
			while (s < c2) {
				e = memchr(s, ',', (size_t)(c2 - s));
				if (e == NULL)
					e = c2;
				if (e - s == 5 && memcmp(s, "blkio", 5) == 0)
					r = 3;
				else if (e - s == 12 &&
				    memcmp(s, "name=systemd", 12) == 0 && r < 2)
					r = 2;
				s = e + 1;
			}
		}
		if (r > rank) {
			rank = r;
			best = c2 + 1;
			bend = nl;
		}
	}
	if (best == NULL)
		return -EINVAL;
	*path = best;
	*len = (size_t)(bend - best);
	return 0;
}

int
ds_delayacct_read(const struct ds_root *r, struct ds_buf *scratch)
{
	uint64_t v;
	int e;

	if ((e = ds_read_file(r, "proc/sys/kernel/task_delayacct",
	    scratch)) < 0)
		return e;
	if ((e = ds_strtou64(scratch->data, &v)) < 0)
		return e;
	return v != 0;
}

/* statfs(2) f_type of procfs (linux/magic.h). */
#define PROC_MAGIC 0x9fa0

/* proc is a procfs mount (not a captured tree): 1, else 0. */
static int
on_procfs(const struct ds_root *r)
{
	struct statfs sf;
	int fd, ok;

	if ((fd = ds_openat(r, "proc", O_PATH | O_DIRECTORY)) < 0)
		return 0;
	ok = fstatfs(fd, &sf) == 0 && sf.f_type == PROC_MAGIC;
	close(fd);
	return ok;
}

/*
 * Read a small file whole into b.  procfs makes PID/stat and PID/io (one
 * record each) whole in the first read when the buffer holds them, and a
 * regular file on disk ends where a read comes back short; so for a
 * regular file one read that does not fill the buffer is all, and the
 * read that would return 0 is saved.  After a full first read, reads go
 * on until one returns 0, as ds_read_fd does; anything else (a FIFO in a
 * captured tree) goes to ds_read_fd.
 */
static int
read_small(int fd, struct ds_buf *b, int regular)
{
	ssize_t n;
	int e, first = 1;

	if (!regular)
		return ds_read_fd(fd, b);
	b->len = 0;
	if (b->cap < 4096 + 1 && (e = ds_buf_reserve(b, 4096)) < 0)
		return ds_buf_fail(b, e);
	for (;;) {
		n = read(fd, b->data + b->len, b->cap - b->len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return ds_buf_fail(b, errno == EAGAIN ? -EINVAL : -errno);
		}
		if (n == 0)
			break;
		b->len += (size_t)n;
		if (b->len > DS_READ_MAX)
			return ds_buf_fail(b, -EFBIG);
		if (first && b->len < b->cap - 1)
			break;		/* short: the end of a regular file */
		first = 0;
		/* Room for at least a page more, as ds_read_fd makes. */
		if (b->cap - b->len < 4096 + 1 &&
		    (e = ds_buf_reserve(b, b->cap)) < 0)
			return ds_buf_fail(b, e);
	}
	b->data[b->len] = '\0';
	return 0;
}

/*
 * Read rel into b; with uid non-NULL also the file's owner.  procfs:
 * proc is procfs, so rel is one of its regular files (no fstat needed).
 */
static int
read_owned(const struct ds_root *r, const char *rel, struct ds_buf *b,
    uint32_t *uid, int procfs)
{
	struct stat sb;
	int fd, e, regular = procfs;

	if ((fd = ds_openat(r, rel, O_RDONLY | O_NONBLOCK)) < 0)
		return ds_buf_fail(b, fd);
	/*
	 * procfs gives a process's files the owner of its effective uid
	 * (root when it is not dumpable), as ps(1) reads it from the
	 * directory; fstat of the open file costs no extra lookup.
	 */
	if (uid != NULL) {
		if (fstat(fd, &sb) < 0) {
			e = -errno;
			close(fd);
			return ds_buf_fail(b, e);
		}
		*uid = (uint32_t)sb.st_uid;
		regular = S_ISREG(sb.st_mode);
	}
	e = read_small(fd, b, regular);
	close(fd);
	return e;
}

/* The decimal digits of id (never negative) at p; the end. */
static char *
put_id(char *p, int id)
{
	char num[12], *q = num + sizeof(num);
	unsigned int v = (unsigned int)id;
	size_t n;

	do {
		*--q = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	n = (size_t)(num + sizeof(num) - q);
	memcpy(p, q, n);
	return p + n;
}

/*
 * "proc/PID", with tid >= 0 "proc/PID/task/TID", then leaf (may be
 * ""), into buf of PROC_REL bytes.  Built by hand: snprintf, three
 * times a process, was 8% of the user time of a scan of every process.
 * Ids come from ds_pids_read or the caller (ds_pids_parse), positive.
 */
#define PROC_REL 64
static void
proc_rel(char *buf, int pid, int tid, const char *leaf)
{
	char *p = buf;

	memcpy(p, "proc/", 5);
	p = put_id(p + 5, pid);
	if (tid >= 0) {
		memcpy(p, "/task/", 6);
		p = put_id(p + 6, tid);
	}
	/* The longest leaf is "/cmdline": 5 + 10 + 6 + 10 + 8 + 1 < 64. */
	memcpy(p, leaf, strlen(leaf) + 1);
}

/* Sum field 42 over proc/PID/task/N/stat. */
static int
sum_threads(const struct ds_root *r, int pid, struct ds_buf *b,
    struct ds_pids *tids, struct ds_proc *p, int procfs)
{
	struct ds_stat st;
	char rel[PROC_REL];
	size_t i;
	int e;

	proc_rel(rel, pid, -1, "/task");
	if ((e = ds_pids_read(r, rel, tids)) < 0)
		return e;
	p->blkio_ticks = 0;
	p->have_blkio = 0;
	for (i = 0; i < tids->n; i++) {
		proc_rel(rel, pid, tids->pid[i], "/stat");
		if (read_owned(r, rel, b, NULL, procfs) < 0 ||
		    ds_stat_parse(b->data, b->len, &st) < 0 || !st.have_blkio)
			continue;
		p->blkio_ticks += st.blkio_ticks;
		p->have_blkio = 1;
	}
	return 0;
}

static char *
dup_cmdline(const struct ds_buf *b, size_t *len)
{
	size_t n = b->len, i;
	char *s;

	/* Arguments are NUL separated; the last NUL is a terminator. */
	while (n > 0 && b->data[n - 1] == '\0')
		n--;
	if (n == 0)
		return NULL;
	if ((s = malloc(n + 1)) == NULL)
		return NULL;
	for (i = 0; i < n; i++)
		s[i] = b->data[i] == '\0' ? ' ' : b->data[i];
	s[n] = '\0';
	*len = n;
	return s;
}

static void
note_bad(struct ds_procs *out, int pid)
{
	if (out->bad++ == 0)
		out->first_bad = pid;
}

/*
 * A capture's owners: its capture/owners, a line "PID UID" for each
 * process, as procfs gave it (the extracted files are the reader's).
 */
struct owner {
	int pid;
	uint32_t uid;
};

struct owners {
	struct owner *o;
	size_t n, cap;
	int *refused;		/* (tgid, tid or -1) whose io dcapture was
				   refused */
	size_t nref, capref;
};

static int
cmp_owner(const void *a, const void *b)
{
	const struct owner *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* (tgid, tid) pairs of capture/refused. */
static int
cmp_pair(const void *a, const void *b)
{
	const int *x = a, *y = b;

	if (x[0] != y[0])
		return (x[0] > y[0]) - (x[0] < y[0]);
	return (x[1] > y[1]) - (x[1] < y[1]);
}

/* 0 (none when the capture has no owners), or -ENOMEM. */
static int
owners_load(const struct ds_root *r, struct ds_buf *b, struct owners *w)
{
	const char *p, *q;
	uint64_t pid, uid;

	w->n = 0;
	if (r->nsamples == 0 || ds_read_file(r, "capture/owners", b) < 0)
		return 0;
	for (p = b->data; *p != '\0'; p = *q != '\0' ? q + 1 : q) {
		q = strchr(p, '\n');
		if (q == NULL)
			q = p + strlen(p);
		if (ds_parse_u64(p, &p, &pid) < 0 || *p != ' ' ||
		    ds_parse_u64(p, &p, &uid) < 0 || p != q ||
		    pid == 0 || pid > INT32_MAX || uid > UINT32_MAX)
			continue;
		if (ds_grow(&w->o, &w->cap, w->n + 1, sizeof(*w->o)) < 0)
			return -ENOMEM;
		w->o[w->n].pid = (int)pid;
		w->o[w->n++].uid = (uint32_t)uid;
	}
	if (w->n > 1)
		qsort(w->o, w->n, sizeof(*w->o), cmp_owner);
	/* capture/refused: "proc/PID/io" lines. */
	w->nref = 0;
	if (ds_read_file(r, "capture/refused", b) < 0)
		return 0;
	for (p = b->data; *p != '\0'; p = *q != '\0' ? q + 1 : q) {
		q = strchr(p, '\n');
		if (q == NULL)
			q = p + strlen(p);
		uid = 0;		/* the thread; 0: the process */
		if (strncmp(p, "proc/", 5) != 0 ||
		    ds_parse_u64(p + 5, &p, &pid) < 0 || pid == 0 ||
		    pid > INT32_MAX)
			continue;
		if (strncmp(p, "/task/", 6) == 0 &&
		    (ds_parse_u64(p + 6, &p, &uid) < 0 || uid == 0 ||
		    uid > INT32_MAX))
			continue;
		if (q - p != 3 || memcmp(p, "/io", 3) != 0)
			continue;
		if (ds_grow(&w->refused, &w->capref, w->nref + 2,
		    sizeof(*w->refused)) < 0)
			return -ENOMEM;
		w->refused[w->nref++] = (int)pid;
		w->refused[w->nref++] = uid == 0 ? -1 : (int)uid;
	}
	if (w->nref > 2)
		qsort(w->refused, w->nref / 2, 2 * sizeof(*w->refused),
		    cmp_pair);
	return 0;
}

/* Was proc/TGID[/task/TID]/io refused to the capture? */
static int
io_refused(const struct owners *w, int tgid, int tid)
{
	int key[2] = { tgid, tid };

	return w->nref > 0 && bsearch(key, w->refused, w->nref / 2,
	    2 * sizeof(*w->refused), cmp_pair) != NULL;
}

/* pid's owner into *uid when the table has it. */
static void
owner_of(const struct owners *w, int pid, uint32_t *uid)
{
	size_t lo = 0, hi = w->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (w->o[mid].pid == pid) {
			*uid = w->o[mid].uid;
			return;
		}
		if (w->o[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
}

/*
 * The io file of proc/TGID (or its thread tid >= 0) into p: 0, or the
 * -errno of an entry that is gone.  Refused (another user's, without
 * root) is counted apart; a directory, a FIFO with an idle writer or a
 * huge file is damage like any other.
 */
static int
read_io(const struct ds_root *r, int tid, int tgid, struct ds_buf *b,
    struct ds_proc *p, struct ds_procs *out, int procfs,
    const struct owners *own)
{
	char rel[PROC_REL];
	int e;

	proc_rel(rel, tgid, tid, "/io");
	if ((e = read_owned(r, rel, b, NULL, procfs)) < 0) {
		/* Refused to the capture, as it would be refused live. */
		if (gone(e) && io_refused(own, tgid, tid))
			e = -EACCES;
		if (gone(e))
			return e;
		if (e == -EACCES || e == -EPERM || e == -ENOMEM) {
			p->io_err = e;
		} else {
			p->io_err = -EINVAL;
			note_bad(out, tgid);
		}
	} else if (ds_io_parse(b->data, &p->io) < 0) {
		p->io_err = -EINVAL;
		note_bad(out, tgid);
	}
	return 0;
}

/*
 * One entry: proc/TGID, or with tid >= 0 proc/TGID/task/TID.  Returns 1
 * kept, 0 skipped (gone, unwanted), -errno on a hard failure (ENOMEM).
 */
static int
read_one(const struct ds_root *r, unsigned int flags, int tid, int tgid,
    ds_who_keep keep, void *arg, struct ds_buf *b, struct ds_pids *tids,
    struct ds_proc *p, struct ds_procs *out, int procfs,
    const struct owners *own)
{
	struct ds_stat st;
	char rel[PROC_REL];
	const char *cg;
	size_t cglen;
	int e;

	memset(p, 0, sizeof(*p));
	proc_rel(rel, tgid, tid, "/stat");
	if ((e = read_owned(r, rel, b, &p->uid, procfs)) < 0) {
		/*
		 * Gone or forbidden is normal; anything else (a directory,
		 * a FIFO with a writer, a huge file) is damage.
		 */
		if (!gone(e) && e != -EACCES && e != -EPERM && e != -ENOMEM)
			note_bad(out, tgid);
		return 0;
	}
	if (ds_stat_parse(b->data, b->len, &st) < 0) {
		note_bad(out, tgid);
		return 0;
	}
	owner_of(own, tgid, &p->uid);
	p->pid = st.pid;
	p->tgid = tgid;
	p->starttime = st.starttime;
	memcpy(p->comm, st.comm, st.comm_len + 1);
	p->comm_len = st.comm_len;
	p->blkio_ticks = st.blkio_ticks;
	p->have_blkio = st.have_blkio;
	p->kthread = st.kthread;
	if (flags & DS_WHO_CMDLINE) {
		proc_rel(rel, tgid, tid, "/cmdline");
		/* A capture never holds one: that process is not gone. */
		if ((e = ds_read_file(r, rel, b)) < 0 && gone(e) &&
		    r->nsamples == 0)
			return 0;
		if (e == 0)
			p->cmdline = dup_cmdline(b, &p->cmdline_len);
	}
	if (keep != NULL && !keep(p, arg)) {
		proc_free(p);
		return 0;
	}
	if (read_io(r, tid, tgid, b, p, out, procfs, own) < 0) {
		proc_free(p);
		return 0;
	}
	/*
	 * Field 42 of a process's stat is its leader thread's only; the
	 * process's figure is the sum over its threads, needed only when
	 * there is more than one (and only when accounting is on).
	 */
	if ((flags & DS_WHO_DELAY) && !(flags & DS_WHO_THREADS) &&
	    st.num_threads > 1)
		(void)sum_threads(r, p->pid, b, tids, p, procfs);
	if (flags & DS_WHO_CGROUP) {
		proc_rel(rel, tgid, -1, "/cgroup");
		if ((e = ds_read_file(r, rel, b)) == 0 &&
		    ds_proc_cgroup_parse(b->data, &cg, &cglen) == 0 &&
		    (p->cgroup = malloc(cglen + 1)) != NULL) {
			memcpy(p->cgroup, cg, cglen);
			p->cgroup[cglen] = '\0';
		}
	}
	return 1;
}

/*
 * Scan proc (or pids): store each kept entry in out, or with each given
 * hand it to each in the order read and store nothing.
 */
static int
scan(const struct ds_root *r, unsigned int flags, const int *pids,
    size_t npids, ds_who_keep keep, ds_who_each each, void *arg,
    struct ds_procs *out)
{
	struct ds_pids all = { 0 }, tids = { 0 }, ttids = { 0 };
	struct ds_buf b = { 0 };
	struct ds_proc one, *p;
	const int *list;
	size_t n, i, j, nt;
	struct owners own = { NULL, 0, 0, NULL, 0, 0 };
	char dir[PROC_REL];
	int e, k, procfs, tid, single;

	for (i = 0; i < out->n; i++)
		proc_free(&out->p[i]);
	out->n = 0;
	out->unreadable = 0;
	out->bad = 0;
	out->first_bad = 0;
	out->failed = "proc/uptime";
	if ((e = ds_uptime_ns(r, &b, &out->uptime_ns)) < 0)
		goto done;
	out->failed = "proc";
	if (npids > 0) {
		list = pids;
		n = npids;
	} else {
		if ((e = ds_pids_read(r, "proc", &all)) < 0)
			goto done;
		list = all.pid;
		n = all.n;
	}
	procfs = on_procfs(r);
	if ((e = owners_load(r, &b, &own)) < 0)
		goto done;
	for (i = 0; i < n; i++) {
		single = !(flags & DS_WHO_THREADS);
		if (!single) {
			proc_rel(dir, list[i], -1, "/task");
			/*
			 * A capture records the threads of processes of more
			 * than one: a process's files are its one thread's.
			 */
			if ((e = ds_pids_read(r, dir, &ttids)) < 0) {
				if (r->nsamples == 0 || e != -ENOENT)
					continue;
				single = 1;
			}
		}
		nt = single ? 1 : ttids.n;
		for (j = 0; j < nt; j++) {
			if (each != NULL)
				p = &one;
			else if ((e = ds_grow(&out->p, &out->cap, out->n + 1,
			    sizeof(*out->p))) < 0)
				goto done;
			else
				p = &out->p[out->n];
			tid = single ? -1 : ttids.pid[j];
			k = read_one(r, flags, tid, list[i], keep, arg, &b,
			    &tids, p, out, procfs, &own);
			if (k <= 0)
				continue;
			if (p->io_err == -EACCES || p->io_err == -EPERM)
				out->unreadable++;
			if (each == NULL) {
				out->n++;
				continue;
			}
			e = each(out, p, arg);
			proc_free(p);
			if (e != 0) {
				out->failed = NULL;
				goto done;
			}
		}
	}
	e = 0;
	out->failed = NULL;
	/* -p lists may be unsorted and threads interleave: sort by id. */
	if (out->n > 1)
		qsort(out->p, out->n, sizeof(*out->p), cmp_proc);
done:
	ds_pids_free(&all);
	ds_pids_free(&tids);
	ds_pids_free(&ttids);
	ds_buf_free(&b);
	free(own.o);
	free(own.refused);
	return e;
}

int
ds_procs_read(const struct ds_root *r, unsigned int flags,
    const int *pids, size_t npids, ds_who_keep keep, void *arg,
    struct ds_procs *out)
{
	return scan(r, flags, pids, npids, keep, NULL, arg, out);
}

int
ds_procs_each(const struct ds_root *r, unsigned int flags,
    const int *pids, size_t npids, ds_who_keep keep, ds_who_each each,
    void *arg, struct ds_procs *out)
{
	if (each == NULL)
		return -EINVAL;
	return scan(r, flags, pids, npids, keep, each, arg, out);
}

static uint64_t
delta(uint64_t prev, uint64_t cur)
{
	return cur >= prev ? cur - prev : 0;
}

void
ds_who_rate(const struct ds_proc *prev, const struct ds_proc *cur,
    double secs, long clk_tck, int delay, struct ds_who_rate *out)
{
	static const int map[DS_WR_DELAY] = {
		DS_IO_READ_BYTES, DS_IO_WRITE_BYTES,
		DS_IO_CANCELLED_WRITE_BYTES, DS_IO_RCHAR, DS_IO_WCHAR,
		DS_IO_SYSCR, DS_IO_SYSCW,
	};
	static const struct ds_proc zero;
	uint64_t d;
	int i;

	memset(out, 0, sizeof(*out));
	if (secs <= 0)
		return;
	if (prev == NULL || prev->pid != cur->pid ||
	    prev->starttime != cur->starttime)
		prev = &zero;
	for (i = 0; i < DS_WR_DELAY; i++) {
		uint32_t bit = 1u << map[i];

		if (cur->io_err != 0 || !(cur->io.have & bit))
			continue;
		/* The same process earlier without the field: unknown. */
		if (prev != &zero && (prev->io_err != 0 || !(prev->io.have & bit)))
			continue;
		d = delta(prev->io.v[map[i]], cur->io.v[map[i]]);
		out->v[i] = (double)d / secs;
		out->have |= 1u << i;
		if (d > 0)
			out->active = 1;
	}
	if (delay && cur->have_blkio && clk_tck > 0 &&
	    (prev == &zero || prev->have_blkio)) {
		d = delta(prev->blkio_ticks, cur->blkio_ticks);
		out->v[DS_WR_DELAY] = (double)d / (double)clk_tck / secs;
		/*
		 * Delay is counted in scheduler ticks, the interval by the
		 * clock: a thread that waited all the interval can show a
		 * tick more than it (101.68%).  Never more than all of it.
		 */
		if (out->v[DS_WR_DELAY] > 1)
			out->v[DS_WR_DELAY] = 1;
		out->have |= 1u << DS_WR_DELAY;
		if (d > 0)
			out->active = 1;
	}
}

void
ds_who_rate_add(struct ds_who_rate *a, const struct ds_who_rate *b)
{
	int i;

	for (i = 0; i < DS_WR_N; i++)
		if (b->have & (1u << i)) {
			a->v[i] += b->v[i];
			a->have |= 1u << i;
		}
	a->active |= b->active;
}

double
ds_proc_age(const struct ds_proc *p, uint64_t uptime_ns, long clk_tck)
{
	double start, now = (double)uptime_ns / 1e9;

	if (clk_tck <= 0)
		return 0;
	start = (double)p->starttime / (double)clk_tck;
	return now > start ? now - start : 0;
}
