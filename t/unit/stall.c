/*
 * Stalled threads: the wait classes of the wchan names seen on 6.18, a
 * scan of a tree of proc/PID/task/TID/{stat,wchan} (hostile comms,
 * damaged and escaping files), a process's descriptors in a tree, and
 * live: an io_uring waiter on a pipe, a vfork parent.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"
#include "tree.h"

static void
classes(void)
{
	static const struct {
		char state;
		const char *wchan;
		enum ds_wait want;
	} c[] = {
		/* Seen on 6.18 (see lib/stall.c). */
		{ 'S', "io_cqring_wait", DS_WAIT_URING },
		{ 'D', "blk_mq_get_tag", DS_WAIT_TAG },
		{ 'D', "balance_dirty_pages", DS_WAIT_DIRTY },
		{ 'S', "request_wait_answer", DS_WAIT_FUSE },
		{ 'D', "request_wait_answer", DS_WAIT_FUSE },
		{ 'D', "folio_wait_bit_common", DS_WAIT_BLOCK },
		{ 'D', "submit_bio_wait", DS_WAIT_BLOCK },
		{ 'S', "fuse_dev_do_read", DS_WAIT_OTHER },
		{ 'D', "kernel_clone", DS_WAIT_OTHER },
		{ 'D', "__wait_rcu_gp", DS_WAIT_OTHER },
		{ 'D', "rcu_barrier_tasks_generic", DS_WAIT_OTHER },
		/* From the kernel's sources. */
		{ 'S', "io_cqring_wait_schedule", DS_WAIT_URING },
		{ 'D', "fuse_get_req", DS_WAIT_FUSE },
		{ 'D', "rpc_wait_bit_killable", DS_WAIT_NFS },
		{ 'D', "nfs_wait_bit_killable", DS_WAIT_NFS },
		{ 'S', "nfs4_wait_clnt_recover", DS_WAIT_NFS },
		{ 'S', "nfsd", DS_WAIT_OTHER },
		{ 'D', "wait_for_response", DS_WAIT_CIFS },
		{ 'D', "cifs_wait_bit_killable", DS_WAIT_CIFS },
		{ 'S', "smb2_reconnect", DS_WAIT_CIFS },
		{ 'D', "__wait_on_buffer", DS_WAIT_BLOCK },
		{ 'D', "jbd2_log_wait_commit", DS_WAIT_BLOCK },
		{ 'S', "ep_poll", DS_WAIT_OTHER },
		{ 'S', "do_select", DS_WAIT_OTHER },
		/* No wait to tell. */
		{ 'D', "0", DS_WAIT_NONE },
		{ 'D', "", DS_WAIT_NONE },
		{ 'R', "io_cqring_wait", DS_WAIT_NONE },
		{ 'I', "worker_thread", DS_WAIT_NONE },
		{ 'Z', "blk_mq_get_tag", DS_WAIT_NONE },
		/* A prefix is a prefix, a name a whole name. */
		{ 'D', "blk_mq_get_tags", DS_WAIT_BLOCK },
		{ 'D', "io_cqring_wai", DS_WAIT_BLOCK },
	};
	char name[96];
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		snprintf(name, sizeof(name), "%c %s: %s", c[i].state,
		    c[i].wchan, ds_wait_name(c[i].want));
		is_int(ds_wait_class(c[i].state, c[i].wchan), c[i].want, name);
	}
	is_int(ds_wait_class('D', NULL), DS_WAIT_NONE, "D NULL: none");
	is_str(ds_wait_name(DS_WAIT_NONE), "none", "name of none");
	is_str(ds_wait_name(DS_WAIT_URING), "io_uring", "name of io_uring");
	is_str(ds_wait_name(DS_WAIT_OTHER), "other", "name of other");
	ok(ds_wait_name(DS_WAIT_N) == NULL, "no name past the last");
	ok(ds_wait_name((enum ds_wait)-1) == NULL, "no name for -1");
}

/* A thread of a tree: stat text and wchan (NULL: no file). */
static void
thread(int pid, int tid, const char *stat, const char *wchan)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "proc/%d/task/%d/stat", pid, tid);
	tree_put(rel, stat);
	if (wchan != NULL) {
		snprintf(rel, sizeof(rel), "proc/%d/task/%d/wchan", pid, tid);
		tree_put(rel, wchan);
	}
}

static const struct ds_stall *
find(const struct ds_stalls *s, int tid)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->t[i].tid == tid)
			return &s->t[i];
	return NULL;
}

static void
tree_scan(void)
{
	struct ds_root r;
	struct ds_buf b = { 0 };
	struct ds_stalls s = { 0 };
	const struct ds_stall *t;
	char path[4096], big[5000], outside[300];
	FILE *f;
	size_t i;
	int sorted = 1;

	tree_make("stall-unit");
	/* A reader in D, its comm holding ") S (" and a newline. */
	thread(100, 100, "100 (a) S (b\nc) D 1 100 100 0 -1 4194560 5 0 0 0\n",
	    "folio_wait_bit_common");
	/* Its io_uring thread, in S. */
	thread(100, 103, "103 (iou) S 1 100 100 0 -1 4194560 5 0 0 0\n",
	    "io_cqring_wait\n");
	/* A process in S in epoll: never kept. */
	thread(200, 200, "200 (srv) S 1 200 200 0 -1 4194560 5 0 0 0\n",
	    "ep_poll");
	/* A kernel thread in D for a tag, one in S in nfs: the first only. */
	thread(300, 300, "300 (kworker/u8:3+loop0) D 2 0 0 0 -1 69238880 0 0\n",
	    "blk_mq_get_tag");
	thread(301, 301, "301 (NFSv4 callback) S 2 0 0 0 -1 2129984 0 0\n",
	    "nfs41_callback_svc");
	/* Running. */
	thread(400, 400, "400 (busy) R 1 400 400 34816 400 4194304 0 0\n",
	    "0");
	/* In D without a wchan file: kept, not known. */
	thread(500, 500, "500 (nowchan) D 1 500 500 0 -1 4194560 0 0\n", NULL);
	/* Damage: garbage, a pid that is not the thread's, no flags. */
	thread(600, 600, "garbage\n", "blk_mq_get_tag");
	thread(700, 700, "701 (liar) D 1 700 700 0 -1 4194560 0 0\n",
	    "blk_mq_get_tag");
	thread(710, 710, "710 (short) D 1 700 700 0\n", "blk_mq_get_tag");
	thread(720, 720, "720 (neg) D 1 700 700 0 -1 -5 0 0\n", "x");
	/* Too long for a kernel's stat. */
	memset(big, 'x', sizeof(big));
	memcpy(big, "730 (big) D 1 1 1 0 -1 0 ", 25);
	big[sizeof(big) - 1] = '\0';
	thread(730, 730, big, "blk_mq_get_tag");
	/* A directory where stat should be, and a FIFO (must not block). */
	tree_dir("proc/740/task/740/stat");
	tree_path(path, sizeof(path), "proc/750/task/750/stat");
	ok(mkfifo(path, 0600) == 0, "a FIFO for a stat file");
	/* Links that would leave the tree. */
	snprintf(outside, sizeof(outside), "%s.outside", tree_top);
	if ((f = fopen(outside, "w")) != NULL) {
		fputs("760 (escaped) D 1 1 1 0 -1 0 0 0\n", f);
		fclose(f);
	}
	snprintf(path, sizeof(path), "../../../../%s",
	    strrchr(outside, '/') + 1);
	tree_dir("proc/760/task/760");
	tree_link("proc/760/task/760/stat", path);
	tree_link("proc/770", "/");		/* proc/770/task: none */
	tree_link("proc/780", outside);
	/* Not processes. */
	tree_put("proc/self", "x");
	tree_put("proc/0abc/task/1/stat", "1 (x) D 0 0 0 0 0 0 0\n");

	ok(ds_root_open(&r, tree_top) == 0, "tree opened");
	is_int(ds_stalls_scan(&r, 0, &b, &s), 0, "scan without sleepers");
	is_int(s.n, 3, "three kept: the two in D and the one without wchan");
	is_int(s.nd, 3, "three in D");
	is_int(s.threads, 7, "seven threads read");
	is_int(s.bad, 8, "eight damaged or escaping stat files counted");
	is_int(s.wchan_denied, 0, "no wchan denied in a tree");
	t = find(&s, 100);
	ok(t != NULL && t->pid == 100 && t->state == 'D', "100: in D");
	if (t != NULL) {
		is_str(t->comm, "a) S (b\nc", "100: comm to the last ')'");
		is_str(t->wchan, "folio_wait_bit_common", "100: wchan");
		is_int(t->wait, DS_WAIT_BLOCK, "100: block");
		is_int(t->kthread, 0, "100: not a kernel thread");
	}
	ok(find(&s, 103) == NULL, "103 (S) not kept without sleepers");
	t = find(&s, 300);
	ok(t != NULL && t->kthread && t->wait == DS_WAIT_TAG, "300: a kernel thread waiting for a tag");
	if (t != NULL)
		is_str(t->comm, "kworker/u8:3+lo", "300: comm cut to 15 bytes");
	t = find(&s, 500);
	ok(t != NULL && t->wchan[0] == '\0' && t->wait == DS_WAIT_NONE,
	    "500: in D, wchan not known");
	ok(find(&s, 760) == NULL, "a stat outside the tree is never read");

	is_int(ds_stalls_scan(&r, 1, &b, &s), 0, "scan with sleepers");
	is_int(s.n, 4, "four kept: the io_uring waiter too");
	is_int(s.nd, 3, "still three in D");
	t = find(&s, 103);
	ok(t != NULL && t->pid == 100 && t->state == 'S' &&
	    t->wait == DS_WAIT_URING, "103: io_uring's wait, in S");
	if (t != NULL)
		is_str(t->wchan, "io_cqring_wait", "103: wchan without its newline");
	ok(find(&s, 200) == NULL, "200 in ep_poll: not kept");
	ok(find(&s, 301) == NULL, "301, a kernel thread in S: not kept");
	ok(find(&s, 400) == NULL, "400 running: not kept");
	for (i = 1; i < s.n; i++)
		if (s.t[i - 1].pid > s.t[i].pid || (s.t[i - 1].pid ==
		    s.t[i].pid && s.t[i - 1].tid >= s.t[i].tid))
			sorted = 0;
	ok(sorted, "kept threads by pid, then tid");

	ds_root_close(&r);
	ds_stalls_free(&s);
	ok(s.t == NULL && s.n == 0 && s.cap == 0, "freed");
	ds_buf_free(&b);
	unlink(outside);
	tree_remove();
}

static void
tree_fds(void)
{
	struct ds_root r;
	struct ds_procfds f;
	struct stat st;
	char path[4096], rel[64];
	int i, e, dfd;

	/* 65538 links: in memory when /dev/shm is there, it is faster. */
	snprintf(tree_top, sizeof(tree_top), "/dev/shm/procfds-unit.XXXXXX");
	if (access("/dev/shm", W_OK) != 0 || mkdtemp(tree_top) == NULL)
		tree_make("procfds-unit");
	tree_put("data/file", "x");
	tree_dir("data/dir");
	tree_link("proc/10/fd/0", "anon_inode:[io_uring]");
	tree_link("proc/10/fd/1", "pipe:[123]");
	tree_link("proc/10/fd/2", "socket:[45]");
	tree_link("proc/10/fd/3", "anon_inode:[eventfd]");
	tree_link("proc/10/fd/4", "/data/file");
	tree_link("proc/10/fd/5", "/data/missing");
	tree_link("proc/10/fd/6", "/data/dir");
	tree_link("proc/10/fd/7", "anon_inode:[io_uring]");
	tree_link("proc/10/fd/8", "/../../../../../../etc/passwd");
	tree_put("proc/10/fd/9", "a plain file standing for a link");
	tree_put("proc/10/fd/README", "not a descriptor");
	tree_dir("proc/11/fd");
	if ((dfd = tree_open("proc/11/fd")) >= 0) {
		for (i = 0; i < DS_PROCFDS_MAX + 2; i++) {
			snprintf(rel, sizeof(rel), "%d", i);
			if (symlinkat("pipe:[1]", dfd, rel) < 0)
				break;
		}
		close(dfd);
	}
	tree_path(path, sizeof(path), "data/file");
	e = stat(path, &st);

	ok(ds_root_open(&r, tree_top) == 0, "tree opened");
	is_int(ds_procfds_read(&r, 10, &f), 0, "process 10 read");
	is_int(f.uring, 2, "two io_uring instances");
	is_int(f.other, 4, "pipe, socket, eventfd, a directory: other");
	is_int(f.cached, 2, "a file by its link, and a plain file");
	is_int(f.unknown, 2, "a missing file, a link that would escape");
	is_int(f.ndev, 1, "one st_dev");
	ok(e == 0 && f.ndev == 1 && f.dev[0].major == major(st.st_dev) &&
	    f.dev[0].minor == minor(st.st_dev), "the st_dev of the tree's file");
	ok(!f.denied && !f.truncated && !f.more_devs, "nothing denied, cut or left out");
	is_int(ds_procfds_read(&r, 11, &f), 0, "process 11 read");
	ok(f.truncated, "more than DS_PROCFDS_MAX descriptors: cut");
	is_int(f.other, DS_PROCFDS_MAX, "DS_PROCFDS_MAX looked at");
	is_int(ds_procfds_read(&r, 12, &f), -ENOENT, "no process 12: -ENOENT");
	is_int(ds_procfds_read(&r, 0, &f), -EINVAL, "pid 0: -EINVAL");
	ds_root_close(&r);
	tree_remove();
}

/* A child waiting in io_uring_enter for a read of an empty pipe. */
static pid_t
uring_child(int *ready)
{
	struct io_uring_params p;
	struct io_uring_sqe *sqe;
	static char buf[64];
	char *sq;
	unsigned *tail, *mask, *arr, t;
	int fd, pfd[2], rp[2];
	pid_t pid;

	if (pipe(rp) < 0)
		return -1;
	if ((pid = fork()) != 0) {
		close(rp[1]);
		*ready = read(rp[0], buf, 1) == 1 && buf[0] == 'y';
		close(rp[0]);
		return pid;
	}
	close(rp[0]);
	memset(&p, 0, sizeof(p));
	if (pipe(pfd) < 0 ||
	    (fd = (int)syscall(__NR_io_uring_setup, 8, &p)) < 0)
		_exit(write(rp[1], "n", 1) == 1 ? 1 : 2);
	sq = mmap(NULL, p.sq_off.array + p.sq_entries * sizeof(unsigned),
	    PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd,
	    IORING_OFF_SQ_RING);
	sqe = mmap(NULL, p.sq_entries * sizeof(*sqe), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_SQES);
	if (sq == MAP_FAILED || sqe == MAP_FAILED)
		_exit(write(rp[1], "n", 1) == 1 ? 1 : 2);
	tail = (unsigned *)(void *)(sq + p.sq_off.tail);
	mask = (unsigned *)(void *)(sq + p.sq_off.ring_mask);
	arr = (unsigned *)(void *)(sq + p.sq_off.array);
	t = *tail;
	memset(&sqe[t & *mask], 0, sizeof(*sqe));
	sqe[t & *mask].opcode = IORING_OP_READ;
	sqe[t & *mask].fd = pfd[0];
	sqe[t & *mask].addr = (unsigned long)buf;
	sqe[t & *mask].len = sizeof(buf);
	arr[t & *mask] = t & *mask;
	__atomic_store_n(tail, t + 1, __ATOMIC_RELEASE);
	if (write(rp[1], "y", 1) != 1)
		_exit(2);
	close(rp[1]);
	syscall(__NR_io_uring_enter, fd, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0);
	_exit(0);
}

/* Until tid is kept with wait w (the child may not sleep yet): 1. */
static int
wait_kept(const struct ds_root *r, int sleeping, struct ds_buf *b,
    struct ds_stalls *s, int tid, enum ds_wait w)
{
	const struct ds_stall *t;
	int i;

	for (i = 0; i < 100; i++) {
		if (ds_stalls_scan(r, sleeping, b, s) == 0 &&
		    (t = find(s, tid)) != NULL && t->wait == w)
			return 1;
		usleep(20000);
	}
	return 0;
}

static void
live(void)
{
	struct ds_root r;
	struct ds_buf b = { 0 };
	struct ds_stalls s = { 0 };
	struct ds_procfds f;
	const struct ds_stall *t;
	int ready = 0, st, pfd[2];
	pid_t pid, vpid;

	if (ds_root_open(&r, "/") < 0 || !r.live) {
		skip("live checks", "no live root");
		return;
	}
	pid = uring_child(&ready);
	if (pid < 0 || !ready) {
		skip("io_uring waiter", "io_uring unavailable here");
	} else {
		ok(wait_kept(&r, 1, &b, &s, pid, DS_WAIT_URING),
		    "live: the io_uring waiter kept with sleepers");
		if ((t = find(&s, pid)) != NULL) {
			ok(t->state == 'S' && t->pid == pid && !t->kthread,
			    "live: in S, not a kernel thread");
			is_str(t->wchan, "io_cqring_wait", "live: wchan");
		}
		is_int(ds_stalls_scan(&r, 0, &b, &s), 0, "live: scan without sleepers");
		ok(find(&s, pid) == NULL, "live: the waiter in S not kept without sleepers");
		ok(s.threads > 0, "live: threads counted");
		is_int(ds_procfds_read(&r, pid, &f), 0, "live: its descriptors read");
		is_int(f.uring, 1, "live: one io_uring");
		ok(f.other >= 2, "live: the pipe's two ends among the others");
	}
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
	}
	/* A vfork parent sleeps in D, and that is no I/O. */
	if (pipe(pfd) < 0)
		return;
	if ((pid = fork()) == 0) {
		close(pfd[1]);
		if ((vpid = vfork()) == 0) {
			char c;

			/* Until the pipe is closed: read(2) is safe here. */
			while (read(pfd[0], &c, 1) > 0)
				;
			_exit(0);
		}
		_exit(vpid < 0);
	}
	close(pfd[0]);
	ok(wait_kept(&r, 0, &b, &s, pid, DS_WAIT_OTHER),
	    "live: a vfork parent in D, wait other");
	if ((t = find(&s, pid)) != NULL)
		ok(t->state == 'D' && strcmp(t->wchan, "kernel_clone") == 0,
		    "live: D in kernel_clone");
	close(pfd[1]);
	waitpid(pid, &st, 0);
	ds_stalls_free(&s);
	ds_buf_free(&b);
	ds_root_close(&r);
}

int
main(void)
{
	classes();
	tree_scan();
	tree_fds();
	live();
	return tap_done();
}
