/*
 * uringwait: a task waiting on io_uring with no disk I/O at all, for the
 * lab tests (t/lab.sh, lab_uring_idle).
 *
 * Sets up a ring with raw io_uring syscalls (no liburing), submits N
 * reads on the read end of a pipe that nobody writes, and waits in
 * io_uring_enter(GETEVENTS, min_complete 1) until killed.  The reads
 * are armed as polls and never complete, so the task sleeps in
 * io_cqring_wait with requests pending; the kernel then marks it as in
 * iowait (it counts in procs_blocked and in PSI's io pressure) although
 * no block device is involved.  -n passes IORING_ENTER_NO_IOWAIT
 * (kernel 6.15+, IORING_FEAT_NO_IOWAIT), the waiter's opt-out.
 *
 *	uringwait [-n] N
 *
 * Prints "pid PID", then "ready" just before it starts to wait.  Exit
 * status 3: this kernel cannot (no io_uring, io_uring disabled by
 * kernel.io_uring_disabled, -n without IORING_FEAT_NO_IOWAIT); 1 other
 * errors; 2 usage.
 *
 * Test-only: built by "make check", never installed.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <err.h>
#include <errno.h>
#include <linux/io_uring.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Newer than the uapi headers of some build hosts (kernel 6.15). */
#ifndef IORING_FEAT_NO_IOWAIT
#define IORING_FEAT_NO_IOWAIT	(1U << 17)
#endif
#ifndef IORING_ENTER_NO_IOWAIT
#define IORING_ENTER_NO_IOWAIT	(1U << 7)
#endif

#define MAX_READS	4096
#define EXIT_CANNOT	3

static void
usage(void)
{
	fprintf(stderr, "usage: uringwait [-n] reads\n");
	exit(2);
}

static int
cannot(int e)
{
	return e == ENOSYS || e == EPERM || e == EACCES || e == EOPNOTSUPP;
}

int
main(int argc, char **argv)
{
	struct io_uring_params p;
	struct io_uring_sqe *sqes;
	unsigned int *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail, flags;
	char *sq, *cq, *end, buf[64];
	size_t sq_len, cq_len;
	long n;
	int c, fd, pfd[2], noiowait = 0, i, r;

	while ((c = getopt(argc, argv, "n")) != -1) {
		switch (c) {
		case 'n': noiowait = 1; break;
		default: usage();
		}
	}
	if (argc - optind != 1)
		usage();
	errno = 0;
	n = strtol(argv[optind], &end, 10);
	if (errno || end == argv[optind] || *end || n < 1 || n > MAX_READS)
		errx(2, "%s: reads must be 1 to %d", argv[optind], MAX_READS);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0)
		err(1, "prctl");
	if (pipe(pfd) != 0)
		err(1, "pipe");

	memset(&p, 0, sizeof(p));
	if ((fd = (int)syscall(__NR_io_uring_setup, (unsigned)n, &p)) < 0) {
		if (cannot(errno))
			err(EXIT_CANNOT, "io_uring_setup");
		err(1, "io_uring_setup");
	}
	if (noiowait && !(p.features & IORING_FEAT_NO_IOWAIT))
		errx(EXIT_CANNOT, "io_uring: no IORING_FEAT_NO_IOWAIT (kernel before 6.15)");
	if (!(p.features & IORING_FEAT_SINGLE_MMAP))
		errx(EXIT_CANNOT, "io_uring: no IORING_FEAT_SINGLE_MMAP (kernel before 5.4)");

	/* One mapping holds both rings (IORING_FEAT_SINGLE_MMAP). */
	sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (cq_len > sq_len)
		sq_len = cq_len;
	sq = mmap(NULL, sq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd,
	    IORING_OFF_SQ_RING);
	if (sq == MAP_FAILED)
		err(1, "mmap sq ring");
	cq = sq;
	sqes = mmap(NULL, p.sq_entries * sizeof(*sqes), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_SQES);
	if (sqes == MAP_FAILED)
		err(1, "mmap sqes");
	sq_tail = (unsigned int *)(sq + p.sq_off.tail);
	sq_mask = (unsigned int *)(sq + p.sq_off.ring_mask);
	sq_array = (unsigned int *)(sq + p.sq_off.array);
	cq_head = (unsigned int *)(cq + p.cq_off.head);
	cq_tail = (unsigned int *)(cq + p.cq_off.tail);

	/* N reads of the empty pipe: each is armed as a poll, no worker
	 * thread, nothing ever completes. */
	for (i = 0; i < n; i++) {
		unsigned int t = *sq_tail, k = t & *sq_mask;

		memset(&sqes[k], 0, sizeof(sqes[k]));
		sqes[k].opcode = IORING_OP_READ;
		sqes[k].fd = pfd[0];
		sqes[k].addr = (uint64_t)(uintptr_t)buf;
		sqes[k].len = sizeof(buf);
		sqes[k].off = (uint64_t)-1;	/* the file position: a pipe has none */
		sqes[k].user_data = (uint64_t)i;
		sq_array[k] = k;
		__atomic_store_n(sq_tail, t + 1, __ATOMIC_RELEASE);
	}
	r = (int)syscall(__NR_io_uring_enter, fd, (unsigned)n, 0U, 0U, NULL, (size_t)0);
	if (r < 0)
		err(1, "io_uring_enter: submit");
	if (r != n)
		errx(1, "io_uring_enter: %d of %ld reads submitted", r, n);
	if (__atomic_load_n(cq_tail, __ATOMIC_ACQUIRE) != *cq_head)
		errx(1, "a read of the empty pipe completed");

	printf("pid %ld\nready\n", (long)getpid());
	fflush(stdout);
	flags = IORING_ENTER_GETEVENTS | (noiowait ? IORING_ENTER_NO_IOWAIT : 0);
	for (;;) {
		r = (int)syscall(__NR_io_uring_enter, fd, 0U, 1U, flags, NULL, (size_t)0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			err(1, "io_uring_enter: wait");
		if (__atomic_load_n(cq_tail, __ATOMIC_ACQUIRE) != *cq_head)
			errx(1, "a read of the empty pipe completed");
	}
}
