/*
 * fusedisk: a disk whose truth we know, for the lab tests (t/lab.sh).
 *
 * Serves one file, "disk", from a FUSE mount made with mount(2) on the
 * raw /dev/fuse protocol (no libfuse).  A loop device over that file
 * with direct I/O on hands each block request to us as it comes, so
 * this daemon decides when every request completes:
 *
 *	done = max(arrival, earliest free slot) + service time
 *
 * an ideal FIFO schedule of N slots kept in virtual time.  The thread
 * holding a request sleeps to that absolute deadline (clock_nanosleep,
 * TIMER_ABSTIME) and replies, so its own wake-up latency never moves the
 * schedule.  Reads take the read service time, writes and fsyncs (a
 * loop device's flush) the write time, unless -F gives flushes their
 * own.  Reads return zeroes and writes are discarded, unless -k keeps
 * the data in memory or -b FILE in a sparse file (so a filesystem can
 * be made on the disk).  Discards and write-zeroes (fallocate) complete
 * at once.
 *
 * Faults, for the tests of a disk that misbehaves: -e START:LEN fails
 * every read or write touching sectors START to START+LEN-1 (512-byte
 * sectors) with EIO once its service time is up, as a medium error
 * would; -S N:MS makes every Nth request (reads, writes and fsyncs in
 * the order they arrive) take MS more, holding its slot that long, so
 * the requests queued behind it wait as they would behind a real slow
 * command.  Both are counted ("eio", "slow").
 *
 * The mount is made in a mount namespace of our own, so no one else on
 * the machine sees it and it goes when we go: run losetup with
 * "nsenter -t PID -m".  On SIGTERM, SIGINT or SIGHUP, or when our parent
 * dies, the mount is detached and we exit; a line of counts goes to
 * standard error, as it does on SIGUSR2.  "ready" is printed on
 * standard output once mounted.
 *
 *	fusedisk [-k | -b file] [-e start:len] [-F ms] [-n slots] [-p prio]
 *	         [-r ms] [-S n:ms] [-s size] [-t threads] [-w ms] mountpoint
 *
 * -p runs the threads SCHED_FIFO at that priority.
 *
 * Test-only: built by "make check", never installed.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/fuse.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define ROOT_ID		1	/* FUSE_ROOT_ID */
#define DISK_ID		2
#define DISK_NAME	"disk"
#define MAX_SLOTS	1024
#define MAX_PAGES	256	/* 1 MiB per FUSE request */
#define MAX_WRITE	(MAX_PAGES * 4096)
#define BUF_SIZE	(MAX_WRITE + 4096)

enum { OP_READ, OP_WRITE, OP_FLUSH, OP_N };

static int fuse_fd = -1;
static uint64_t disk_size = 1ULL << 30;
static uint64_t service_ns[OP_N] = { 10000000, 10000000, 0 };
static int nslots = 4;
static char *data;		/* kept data, or NULL: zeroes and discards */
static int data_fd = -1;	/* -b FILE */
static const char *mountpoint;
static time_t start_sec;

/* The schedule: when each slot is next free, in CLOCK_MONOTONIC ns. */
static pthread_mutex_t sched_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t slot_free[MAX_SLOTS];
static uint64_t served[OP_N];
static uint64_t late_sum, late_max;	/* replies after their deadline, ns */
static uint64_t requests;		/* scheduled, for -S's every Nth */
static uint64_t slow_every, slow_ns;	/* -S: 0 when none */
static uint64_t slowed, failed;		/* -S's slow ones, -e's EIOs */
static uint64_t bad_start, bad_end;	/* -e, in bytes: [start, end) */

static const char zeroes[MAX_WRITE];

static void
usage(void)
{
	fprintf(stderr, "usage: fusedisk [-k | -b file] [-e start:len] [-F ms] [-n slots] [-p prio]\n"
	    "                [-r ms] [-S n:ms] [-s size] [-t threads] [-w ms] mountpoint\n");
	exit(2);
}

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec;
}

/*
 * Take a slot for a request that arrived at t: the slot free soonest,
 * from max(t, its free time), for the op's service time (and -S's extra
 * for every Nth).  Returns the absolute completion time.
 */
static uint64_t
schedule(int op, uint64_t t)
{
	uint64_t start, done;
	int i, best = 0;

	pthread_mutex_lock(&sched_lock);
	for (i = 1; i < nslots; i++)
		if (slot_free[i] < slot_free[best])
			best = i;
	start = slot_free[best] > t ? slot_free[best] : t;
	done = start + service_ns[op];
	if (slow_every != 0 && ++requests % slow_every == 0) {
		done += slow_ns;
		slowed++;
	}
	slot_free[best] = done;
	served[op]++;
	pthread_mutex_unlock(&sched_lock);
	return done;
}

/* Sleep to an absolute deadline; how late we woke is kept, so the
 * exit line says how closely the schedule was kept. */
static void
sleep_until(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000), (long)(ns % 1000000000) };
	uint64_t late;

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
	late = now_ns() - ns;
	pthread_mutex_lock(&sched_lock);
	late_sum += late;
	if (late > late_max)
		late_max = late;
	pthread_mutex_unlock(&sched_lock);
}

/* Reply: header and up to two pieces of payload.  A reply to a request
 * the kernel gave up on (interrupted, aborted) fails; nothing to do. */
static void
reply(uint64_t unique, int error, const void *a, size_t alen, const void *b, size_t blen)
{
	struct fuse_out_header h;
	struct iovec iov[3];

	h.len = (uint32_t)(sizeof(h) + alen + blen);
	h.error = error;
	h.unique = unique;
	iov[0].iov_base = &h;
	iov[0].iov_len = sizeof(h);
	iov[1].iov_base = (void *)a;
	iov[1].iov_len = alen;
	iov[2].iov_base = (void *)b;
	iov[2].iov_len = blen;
	(void)writev(fuse_fd, iov, 3);
}

static void
fill_attr(uint64_t id, struct fuse_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->ino = id;
	a->atime = a->mtime = a->ctime = (uint64_t)start_sec;
	a->blksize = 4096;
	if (id == ROOT_ID) {
		a->mode = S_IFDIR | 0755;
		a->nlink = 2;
	} else {
		a->mode = S_IFREG | 0600;
		a->nlink = 1;
		a->size = disk_size;
		a->blocks = disk_size / 512;
	}
}

static void
do_init(const struct fuse_in_header *h, const struct fuse_init_in *in)
{
	struct fuse_init_out out;
	uint32_t want = FUSE_ASYNC_READ | FUSE_BIG_WRITES | FUSE_ASYNC_DIO | FUSE_MAX_PAGES;

	memset(&out, 0, sizeof(out));
	if (in->major != FUSE_KERNEL_VERSION) {
		/* Older or newer major: tell the kernel ours, it retries. */
		out.major = FUSE_KERNEL_VERSION;
		out.minor = FUSE_KERNEL_MINOR_VERSION;
		reply(h->unique, 0, &out, sizeof(out), NULL, 0);
		return;
	}
	out.major = FUSE_KERNEL_VERSION;
	out.minor = in->minor < FUSE_KERNEL_MINOR_VERSION ? in->minor : FUSE_KERNEL_MINOR_VERSION;
	out.max_readahead = in->max_readahead;
	/* Without FUSE_ASYNC_DIO the kernel waits for each direct request
	 * before sending the next, and loop would see one slot. */
	out.flags = in->flags & want;
	/* Async direct I/O goes through the background queue: let all of
	 * it reach us at once, so queueing happens in our schedule. */
	out.max_background = UINT16_MAX;
	out.congestion_threshold = UINT16_MAX;
	out.max_write = MAX_WRITE;
	out.time_gran = 1;
	out.max_pages = MAX_PAGES;
	reply(h->unique, 0, &out, sizeof(out), NULL, 0);
}

static void
do_entry(const struct fuse_in_header *h, const char *name)
{
	struct fuse_entry_out e;

	if (h->nodeid != ROOT_ID || strcmp(name, DISK_NAME) != 0) {
		reply(h->unique, -ENOENT, NULL, 0, NULL, 0);
		return;
	}
	memset(&e, 0, sizeof(e));
	e.nodeid = DISK_ID;
	e.generation = 1;
	e.entry_valid = e.attr_valid = 3600;
	fill_attr(DISK_ID, &e.attr);
	reply(h->unique, 0, &e, sizeof(e), NULL, 0);
}

static void
do_attr(const struct fuse_in_header *h)
{
	struct fuse_attr_out a;

	if (h->nodeid != ROOT_ID && h->nodeid != DISK_ID) {
		reply(h->unique, -ENOENT, NULL, 0, NULL, 0);
		return;
	}
	memset(&a, 0, sizeof(a));
	a.attr_valid = 3600;
	fill_attr(h->nodeid, &a.attr);
	reply(h->unique, 0, &a, sizeof(a), NULL, 0);
}

static void
do_open(const struct fuse_in_header *h, int dir)
{
	struct fuse_open_out o;

	memset(&o, 0, sizeof(o));
	if (dir != (h->nodeid == ROOT_ID)) {
		reply(h->unique, dir ? -ENOTDIR : -EISDIR, NULL, 0, NULL, 0);
		return;
	}
	/* No page cache: every read and write of the disk comes to us. */
	if (!dir)
		o.open_flags = FOPEN_DIRECT_IO;
	reply(h->unique, 0, &o, sizeof(o), NULL, 0);
}

/* Whether bytes [off, off + len) touch -e's failing range. */
static int
bad(uint64_t off, size_t len)
{
	return len > 0 && off < bad_end && off + len > bad_start;
}

/* Count a request that fails with -e's EIO. */
static void
count_failed(void)
{
	pthread_mutex_lock(&sched_lock);
	failed++;
	pthread_mutex_unlock(&sched_lock);
}

/* An I/O range within the disk, clipped; 0 when it starts beyond. */
static size_t
clip(uint64_t off, size_t len)
{
	if (off >= disk_size)
		return 0;
	if (len > disk_size - off)
		len = (size_t)(disk_size - off);
	return len;
}

static void
do_read(const struct fuse_in_header *h, const struct fuse_read_in *in, char *buf)
{
	uint64_t done = schedule(OP_READ, now_ns());
	size_t len = clip(in->offset, in->size > MAX_WRITE ? MAX_WRITE : in->size);
	const char *p = zeroes;

	if (bad(in->offset, len)) {
		sleep_until(done);
		count_failed();
		reply(h->unique, -EIO, NULL, 0, NULL, 0);
		return;
	}
	if (data != NULL && len > 0) {
		memcpy(buf, data + in->offset, len);
		p = buf;
	}
	sleep_until(done);
	reply(h->unique, 0, p, len, NULL, 0);
}

static void
do_write(const struct fuse_in_header *h, const struct fuse_write_in *in)
{
	uint64_t done = schedule(OP_WRITE, now_ns());
	struct fuse_write_out o;
	size_t len = clip(in->offset, in->size);

	if (len < in->size) {
		reply(h->unique, -ENOSPC, NULL, 0, NULL, 0);
		return;
	}
	if (bad(in->offset, len)) {
		sleep_until(done);
		count_failed();
		reply(h->unique, -EIO, NULL, 0, NULL, 0);
		return;
	}
	if (data != NULL)
		memcpy(data + in->offset, (const char *)(in + 1), len);
	memset(&o, 0, sizeof(o));
	o.size = (uint32_t)len;
	sleep_until(done);
	reply(h->unique, 0, &o, sizeof(o), NULL, 0);
}

static void
do_fsync(const struct fuse_in_header *h)
{
	uint64_t done = schedule(OP_FLUSH, now_ns());

	if (data_fd >= 0 && msync(data, disk_size, MS_ASYNC) != 0) {
		reply(h->unique, -errno, NULL, 0, NULL, 0);
		return;
	}
	sleep_until(done);
	reply(h->unique, 0, NULL, 0, NULL, 0);
}

/* Discard (punch hole) or write zeroes (zero range, which loop asks for
 * when mkfs zeroes the journal; refused, it logs an "operation not
 * supported error" in the kernel log): forget the range, so the kept
 * data reads back as zeroes. */
static void
do_fallocate(const struct fuse_in_header *h, const struct fuse_fallocate_in *in)
{
	size_t len = clip(in->offset, in->length);
	uint64_t a, b;
	int e = 0;

	if (in->mode != (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE) &&
	    in->mode != (FALLOC_FL_ZERO_RANGE | FALLOC_FL_KEEP_SIZE)) {
		reply(h->unique, in->mode == 0 ? 0 : -EOPNOTSUPP, NULL, 0, NULL, 0);
		return;
	}
	if (data != NULL && len > 0) {
		/* Whole pages are given back, so the memory stays sparse;
		 * only the ends are written (a zeroed journal is megabytes). */
		a = (in->offset + 4095) & ~(uint64_t)4095;
		b = (in->offset + len) & ~(uint64_t)4095;
		if (b <= a) {
			memset(data + in->offset, 0, len);
		} else {
			memset(data + in->offset, 0, a - in->offset);
			memset(data + b, 0, in->offset + len - b);
			if (data_fd >= 0)
				e = fallocate(data_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				    (off_t)a, (off_t)(b - a));
			else
				e = madvise(data + a, b - a, MADV_DONTNEED);
		}
	}
	reply(h->unique, e ? -errno : 0, NULL, 0, NULL, 0);
}

static void
do_statfs(const struct fuse_in_header *h)
{
	struct fuse_statfs_out s;

	memset(&s, 0, sizeof(s));
	s.st.bsize = s.st.frsize = 4096;
	s.st.blocks = disk_size / 4096;
	s.st.files = 2;
	s.st.namelen = 255;
	reply(h->unique, 0, &s, sizeof(s), NULL, 0);
}

static void
dispatch(const struct fuse_in_header *h, const void *arg, char *buf)
{
	switch (h->opcode) {
	case FUSE_INIT:
		do_init(h, arg);
		break;
	case FUSE_LOOKUP:
		do_entry(h, arg);
		break;
	case FUSE_GETATTR:
	case FUSE_SETATTR:	/* nothing can change: the attributes as they are */
		do_attr(h);
		break;
	case FUSE_OPEN:
	case FUSE_OPENDIR:
		do_open(h, h->opcode == FUSE_OPENDIR);
		break;
	case FUSE_READ:
		do_read(h, arg, buf);
		break;
	case FUSE_WRITE:
		do_write(h, arg);
		break;
	case FUSE_FSYNC:
		do_fsync(h);
		break;
	case FUSE_FALLOCATE:
		do_fallocate(h, arg);
		break;
	case FUSE_STATFS:
		do_statfs(h);
		break;
	case FUSE_READDIR:	/* an empty listing: "disk" is found by name */
	case FUSE_RELEASE:
	case FUSE_RELEASEDIR:
	case FUSE_FLUSH:
	case FUSE_FSYNCDIR:
	case FUSE_DESTROY:
		reply(h->unique, 0, NULL, 0, NULL, 0);
		break;
	case FUSE_FORGET:
	case FUSE_BATCH_FORGET:
	case FUSE_INTERRUPT:	/* our requests end by themselves */
		break;
	default:
		reply(h->unique, -ENOSYS, NULL, 0, NULL, 0);
		break;
	}
}

static void *
worker(void *arg)
{
	char *in, *buf;
	ssize_t n;

	(void)arg;
	if ((in = malloc(BUF_SIZE)) == NULL || (buf = malloc(MAX_WRITE)) == NULL)
		err(1, "malloc");
	for (;;) {
		n = read(fuse_fd, in, BUF_SIZE);
		if (n < 0 && (errno == EINTR || errno == ENOENT || errno == EAGAIN))
			continue;
		if (n < 0) {
			/* ENODEV: unmounted or aborted; main reports and exits. */
			kill(getpid(), SIGUSR1);
			return NULL;
		}
		if ((size_t)n < sizeof(struct fuse_in_header))
			continue;
		dispatch((const struct fuse_in_header *)in, in + sizeof(struct fuse_in_header), buf);
	}
}

/* One line of counts on standard error, read by lab_stats in t/lab.sh:
 * requests served by kind (failed ones too), how late (ns) the replies
 * woke in sum and at most, the requests failed by -e and slowed by -S. */
static void
report(const char *what)
{
	pthread_mutex_lock(&sched_lock);
	fprintf(stderr, "fusedisk: %s: reads %" PRIu64 " writes %" PRIu64 " fsyncs %" PRIu64
	    " late_ns %" PRIu64 " late_max_ns %" PRIu64 " eio %" PRIu64 " slow %" PRIu64 "\n",
	    what, served[OP_READ], served[OP_WRITE], served[OP_FLUSH], late_sum, late_max,
	    failed, slowed);
	pthread_mutex_unlock(&sched_lock);
}

/* A number of milliseconds, fraction allowed, as ns. */
static uint64_t
parse_ms(const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || v < 0 || v > 3600e3)
		errx(2, "%s: not a service time in ms (0 to 3600000)", s);
	return (uint64_t)(v * 1e6 + 0.5);
}

static uint64_t
parse_size(const char *s)
{
	char *end;
	unsigned long long v;
	int shift = 0;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *s == '-')
		errx(2, "%s: not a size", s);
	switch (*end) {
	case 'K': case 'k': shift = 10; end++; break;
	case 'M': case 'm': shift = 20; end++; break;
	case 'G': case 'g': shift = 30; end++; break;
	case 'T': case 't': shift = 40; end++; break;
	}
	if (*end || v == 0 || v > (1ULL << 50) >> shift || ((v << shift) & 511))
		errx(2, "%s: not a size (a multiple of 512 bytes, K M G T allowed)", s);
	return v << shift;
}

/* A decimal number of at least lo, ending at a ':' (colon 1) or at the
 * end of s; *rest is what follows the colon. */
static uint64_t
parse_count(const char *s, uint64_t lo, int colon, const char **rest, const char *what)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *s == '-' || v < lo || *end != (colon ? ':' : '\0'))
		errx(2, "%s: not %s", s, what);
	*rest = end + (colon ? 1 : 0);
	return v;
}

/* -e START:LEN, in 512-byte sectors: the bytes [start, end) that fail. */
static void
parse_bad(const char *s)
{
	const char *what = "START:LEN in 512-byte sectors (LEN from 1)";
	const char *rest;
	uint64_t start, len;

	start = parse_count(s, 0, 1, &rest, what);
	len = parse_count(rest, 1, 0, &rest, what);
	/* 2^41 sectors is 1 PiB, far beyond any lab disk: no overflow. */
	if (start > (1ULL << 41) || len > (1ULL << 41))
		errx(2, "%s: not %s", s, what);
	bad_start = start * 512;
	bad_end = (start + len) * 512;
}

/* -S N:MS: every Nth request takes MS more. */
static void
parse_slow(const char *s)
{
	const char *rest;

	slow_every = parse_count(s, 1, 1, &rest, "N:MS (every Nth request MS slower, N from 1)");
	slow_ns = parse_ms(rest);
}

static int
parse_int(const char *s, int lo, int hi, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		errx(2, "%s: %s must be %d to %d", s, what, lo, hi);
	return (int)v;
}

static void
setup_data(int keep, const char *file)
{
	if (file != NULL) {
		if ((data_fd = open(file, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)) < 0)
			err(1, "%s", file);
		if (ftruncate(data_fd, (off_t)disk_size) != 0)
			err(1, "%s: truncate", file);
		data = mmap(NULL, disk_size, PROT_READ | PROT_WRITE, MAP_SHARED, data_fd, 0);
	} else if (keep) {
		/* Untouched pages read as zeroes and take no memory. */
		data = mmap(NULL, disk_size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	} else
		return;
	if (data == MAP_FAILED)
		err(1, "mmap %" PRIu64 " bytes", disk_size);
}

static void
do_mount(void)
{
	char opts[128];

	/* Our own mount namespace: the mount is private and dies with us. */
	if (unshare(CLONE_NEWNS) != 0)
		err(1, "unshare(CLONE_NEWNS)");
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		err(1, "making / private");
	if ((fuse_fd = open("/dev/fuse", O_RDWR | O_CLOEXEC)) < 0)
		err(1, "/dev/fuse");
	snprintf(opts, sizeof(opts), "fd=%d,rootmode=40000,user_id=0,group_id=0,allow_other",
	    fuse_fd);
	if (mount("fusedisk", mountpoint, "fuse", MS_NOSUID | MS_NODEV, opts) != 0)
		err(1, "mount %s", mountpoint);
}

int
main(int argc, char **argv)
{
	pthread_attr_t attr;
	pthread_t tid;
	sigset_t set;
	siginfo_t si;
	const char *file = NULL;
	int c, i, sig, prio = 0, keep = 0, nthreads = 64, flush_set = 0;

	while ((c = getopt(argc, argv, "b:e:F:kn:p:r:S:s:t:w:")) != -1) {
		switch (c) {
		case 'b': file = optarg; break;
		case 'e': parse_bad(optarg); break;
		case 'p': prio = parse_int(optarg, 1, 99, "priority"); break;
		case 'F': service_ns[OP_FLUSH] = parse_ms(optarg); flush_set = 1; break;
		case 'k': keep = 1; break;
		case 'n': nslots = parse_int(optarg, 1, MAX_SLOTS, "slots"); break;
		case 'r': service_ns[OP_READ] = parse_ms(optarg); break;
		case 'S': parse_slow(optarg); break;
		case 's': disk_size = parse_size(optarg); break;
		case 't': nthreads = parse_int(optarg, 1, 4096, "threads"); break;
		case 'w': service_ns[OP_WRITE] = parse_ms(optarg); break;
		default: usage();
		}
	}
	if (argc - optind != 1 || (keep && file != NULL))
		usage();
	mountpoint = argv[optind];
	if (!flush_set)
		service_ns[OP_FLUSH] = service_ns[OP_WRITE];
	start_sec = time(NULL);
	setup_data(keep, file);

	/* Signals are taken by main alone, with sigwait. */
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0)
		err(1, "prctl");
	if (getppid() == 1)
		errx(1, "parent gone before start");

	/* Real-time threads (inherited by the workers) wake on time even
	 * when compilers fill the CPUs; they use next to no CPU. */
	if (prio > 0) {
		struct sched_param sp = { .sched_priority = prio };

		if (sched_setscheduler(0, SCHED_FIFO, &sp) != 0)
			err(1, "SCHED_FIFO %d", prio);
	}
	do_mount();
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	for (i = 0; i < nthreads; i++)
		if ((errno = pthread_create(&tid, &attr, worker, NULL)) != 0)
			err(1, "pthread_create");
	printf("ready\n");
	fflush(stdout);

	while ((sig = sigwaitinfo(&set, &si)) == SIGUSR2 || (sig < 0 && errno == EINTR))
		if (sig == SIGUSR2)
			report("stats");
	if (sig != SIGUSR1)
		fprintf(stderr, "fusedisk: %s from pid %ld\n", strsignal(sig), (long)si.si_pid);
	if (umount2(mountpoint, MNT_DETACH) != 0 && sig != SIGUSR1)
		warn("umount %s", mountpoint);
	report(sig == SIGUSR1 ? "connection closed" : "stopped");
	_exit(0);
}
