/*
 * Stalled threads and what they wait in: PSI io, CPU iowait and
 * procs_blocked count every task in an I/O wait, a disk's or not
 * (io_uring's completion wait, dirty-page throttling, a driver tag,
 * FUSE and network filesystems); a look at each thread's state and
 * wchan tells them apart.  And what a process's descriptors are.
 */
#ifndef DISKSTAT_STALL_H
#define DISKSTAT_STALL_H

#include "diskstat.h"

enum ds_wait {
	DS_WAIT_NONE,	/* no wchan, "0", running, or another state */
	DS_WAIT_BLOCK,	/* any other wait in D: folio_wait_bit_common,
			   submit_bio_wait, __wait_on_buffer... */
	DS_WAIT_TAG,	/* blk_mq_get_tag: a request waits for a driver tag */
	DS_WAIT_URING,	/* io_cqring_wait*: io_uring's completion wait */
	DS_WAIT_DIRTY,	/* balance_dirty_pages: held by the dirty-page limit */
	DS_WAIT_FUSE,	/* fuse_*, request_wait_answer (the daemon's own
			   fuse_dev_do_read is OTHER) */
	DS_WAIT_NFS,	/* nfs*, rpc_* (sunrpc); nfsd* is OTHER */
	DS_WAIT_CIFS,	/* cifs_*, smb2_*, smb3_*, wait_for_response... */
	DS_WAIT_OTHER,	/* a thread in S sleeping in anything else, or in D
			   in a wait known not to be I/O (vfork, RCU) */
	DS_WAIT_N
};
/* The class of a thread from its state letter and its wchan text. */
enum ds_wait ds_wait_class(char state, const char *wchan);
/* "none" "block" "tag" "io_uring" "dirty" "fuse" "nfs" "cifs" "other"; NULL out of range. */
const char *ds_wait_name(enum ds_wait w);

struct ds_stall {
	int pid, tid;
	char state;		/* stat's state letter */
	enum ds_wait wait;
	int kthread;		/* PF_KTHREAD in stat's flags (field 9) */
	char comm[16];		/* the thread's comm, as the kernel has it
				   (cut to 15 bytes, NUL-terminated) */
	char wchan[64];		/* proc/PID/task/TID/wchan; "" unreadable */
};
struct ds_stalls {
	struct ds_stall *t;	/* by pid, then tid */
	size_t n, cap;
	size_t threads;		/* threads looked at */
	size_t nd;		/* of them in D */
	size_t wchan_denied;	/* wchan unreadable (permission: the kernel
				   shows "0" to who may not ptrace) */
	size_t bad;		/* stat files that did not parse (a tree) */
};
/*
 * One look at every thread under r (proc/PID/task/TID/stat): every
 * thread in D is kept with its wchan; with sleeping nonzero, threads in
 * S are looked at too and kept when their wchan is an I/O wait
 * (DS_WAIT_URING and the network/FUSE classes), since io_uring's
 * completion wait sleeps in S yet counts as iowait.  Kernel threads in S
 * are left out (a filesystem's own idle helpers).  Threads that vanish
 * mid-scan are skipped.  Replaces out.  0 or -errno.
 */
int ds_stalls_scan(const struct ds_root *r, int sleeping, struct ds_buf *scratch,
    struct ds_stalls *out);
void ds_stalls_free(struct ds_stalls *s);

/* What a process's open descriptors are (proc/PID/fd). */
#define DS_PROCFDS_DEVS 8
#define DS_PROCFDS_MAX	65536	/* descriptors looked at, at most */
struct ds_procfds {
	size_t uring;		/* anon_inode:[io_uring] instances */
	size_t cached;		/* regular files and block devices: a page
				   cache can serve them */
	size_t other;		/* pipes, sockets, character devices, other
				   anon inodes */
	size_t unknown;		/* a path whose file could not be looked at */
	size_t ndev;		/* distinct st_dev of its regular files, at
				   most DS_PROCFDS_DEVS */
	struct { unsigned int major, minor; } dev[DS_PROCFDS_DEVS];
	int more_devs;		/* more than DS_PROCFDS_DEVS st_dev seen */
	int truncated;		/* more than DS_PROCFDS_MAX descriptors */
	int denied;		/* its fd directory could not be read */
};
/*
 * proc/PID/fd under r: each descriptor's link text classified, and a
 * path's file looked at through the root (live, the magic link; in a
 * tree, what the link names inside it).  0 (denied set when the
 * directory, or a link, may not be read), -ENOENT when the process is
 * gone, or -errno.
 */
int ds_procfds_read(const struct ds_root *r, int pid, struct ds_procfds *out);

#endif
