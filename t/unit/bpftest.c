/*
 * bpf(2) as only the tests use it (bpftest.h): kept out of the library,
 * which never lists other programs nor turns the kernel's counters on.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <linux/bpf.h>
#include <sys/syscall.h>

#include "bpftest.h"
#include "../../lib/blklat.h"

static long
sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

/* The run counters of every program, while the fd stays open (5.8+). */
int
bpft_enable_stats(void)
{
	union bpf_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.enable_stats.type = BPF_STATS_RUN_TIME;
	fd = sys_bpf(BPF_ENABLE_STATS, &attr);
	return fd < 0 ? -errno : (int)fd;
}

/* An fd for the program with this id (CAP_SYS_ADMIN), or -errno. */
int
bpft_prog_fd_by_id(uint32_t id)
{
	union bpf_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_id = id;
	fd = sys_bpf(BPF_PROG_GET_FD_BY_ID, &attr);
	return fd < 0 ? -errno : (int)fd;
}

/* The id of the program after id (0: the first); -ENOENT at the end. */
int
bpft_prog_next_id(uint32_t id, uint32_t *next)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.start_id = id;
	if (sys_bpf(BPF_PROG_GET_NEXT_ID, &attr) < 0)
		return -errno;
	*next = attr.next_id;
	return 0;
}

/* How many programs the kernel holds now (every user's). */
int
bpft_prog_count(uint64_t *n)
{
	union bpf_attr attr;

	*n = 0;
	memset(&attr, 0, sizeof(attr));
	for (;;) {
		if (sys_bpf(BPF_PROG_GET_NEXT_ID, &attr) < 0)
			return errno == ENOENT ? 0 : -errno;
		(*n)++;
		attr.start_id = attr.next_id;
	}
}


int
bpft_starts_fd(const struct ds_blklat *b)
{
	return b->map[M_ISTART];
}
