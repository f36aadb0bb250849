/*
 * dcapture: what the tools read, recorded in one ustar archive (two
 * samples and the window between them), to be read back later with
 * -R by every tool.  main.c runs a capture; the files beside it each
 * collect one kind of thing into the archive.
 */
#ifndef DCAPTURE_H
#define DCAPTURE_H

#include <stdint.h>

#include "util/util.h"

#define CAP_TICK_NS	100000000ull	/* the window's tick: 100 ms */
#define CAP_FILE_MAX	(4u << 20)	/* a file read for a capture, at most */

struct cap {
	struct ds_root r;	/* the live system, "/" */
	struct ds_tarw *tw;
	unsigned int sample;	/* 0 or 1: the tree being written */
	uint64_t up[2], rt[2];	/* CLOCK_BOOTTIME, CLOCK_REALTIME at diskstats */
	struct ds_buf buf;	/* a file's contents */
	struct ds_buf line;	/* lines being built (fdstat, statfs) */
	struct ds_buf errs;	/* capture/errors */
	struct ds_buf esc;	/* scratch for escaping */
	size_t nerrs;
	unsigned int mode;	/* the last file read's mode (write bit) */
	struct ds_window win;	/* the window between the samples */
	int win_on;		/* win begun (else win_why says why not) */
	int win_dlat;		/* dlat members written */
	char win_why[160];
	struct ds_buf owners;	/* capture/owners: "PID UID" lines */
	struct ds_buf fdstat;	/* capture/fdstat */
	struct ds_buf refused;	/* capture/refused: "proc/PID/io" lines */
	char dents[32768];	/* getdents64 of a descriptor directory */
	/* Each process's cgroup, from cgroup.procs (cgroups.c). */
	const char *cg_root;	/* the hierarchy read for membership */
	struct cgmember *cgm;
	size_t ncgm, capcgm;
	struct ds_buf cgpaths;	/* the cgroups' paths, NUL-separated */
	/* Each process's rchar in each sample: dtriage's readers. */
	struct rchar *rc[2];
	size_t nrc[2], caprc[2];
};

struct rchar {
	int pid;
	uint64_t v;
};

struct cgmember {
	int pid;
	size_t path;		/* offset in cgpaths; CG_TWICE: in two */
};
#define CG_TWICE	((size_t)-1)

/* emit.c: members, reads of the live system, the errors. */
int cap_read(struct cap *c, const char *rel, struct ds_buf *b);
int cap_read_fd(int fd, struct ds_buf *b, int once);
int cap_put(struct cap *c, const char *rel, const void *data, size_t len);
int cap_put_top(struct cap *c, const char *name, const void *data,
    size_t len);
int cap_copy(struct cap *c, const char *rel);
int cap_link(struct cap *c, const char *rel, char *target, size_t size);
int cap_put_link(struct cap *c, const char *rel, const char *target);
int cap_dir(struct cap *c, const char *rel);
void cap_error(struct cap *c, const char *rel, int e);
void cap_error_why(struct cap *c, const char *rel, const char *why);
int cap_buf_add(struct ds_buf *b, const char *s, size_t len);
int cap_buf_printf(struct ds_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int cap_names(struct cap *c, const char *rel, int numeric, char ***names,
    size_t *n);
void cap_names_free(char **names, size_t n);

/* system.c: diskstats and its clocks first, then system-wide files. */
void cap_system(struct cap *c);
/* procs.c: every process's stat, io, owner, cgroup, deleted files,
 * threads. */
void cap_procs(struct cap *c);
/* block.c: sys/block, the devices' queue and identity, sys/dev/block. */
void cap_block(struct cap *c);
/* cgroups.c: every cgroup's pressure, I/O and memory files. */
void cap_cgroups(struct cap *c);
/* The cgroup (v2 path) cgroup.procs put pid in, or NULL. */
const char *cap_cgmap_find(struct cap *c, int pid);
void cap_cgmap_free(struct cap *c);
/* fds.c: statfs of the mounts. */
void cap_statfs(struct cap *c);
/* meta.c: capture/meta and capture/errors. */
int cap_meta(struct cap *c, unsigned int samples, int traced,
    const char *why);

/* window.c: the window between samples (lib's window API, ds_window). */
int cap_window_begin(struct cap *c, uint64_t window_ns);
int cap_window_tick(struct cap *c, uint64_t end, uint64_t *until);
void cap_window_end(struct cap *c);
int cap_window_emit(struct cap *c, int *traced, const char **why);
void cap_window_free(struct cap *c);

/*
 * keep.c: -d DIR, captures named by their time, the old ones pruned,
 * a killed dcapture's temporary files removed.
 */
#define KEEP_NAME	64

struct keep {
	const char *dir;	/* -d DIR, NULL: -w or stdout */
	int fd;			/* DIR, opened once by keep_open */
	uint64_t max_bytes;	/* -m: the captures' total at most; 0: any */
	uint64_t max_age_ns;	/* -a: older ones removed; 0: none */
	char tmp[KEEP_NAME];	/* the temporary file in DIR, "" when none */
	char name[KEEP_NAME];	/* the capture's name once committed */
};

void keep_open(struct keep *k);
int keep_tmp(struct keep *k);
void keep_abort(struct keep *k);
int keep_commit(struct keep *k, uint64_t time_ns);
int keep_prune(struct keep *k, uint64_t now_ns);
int keep_sweep(struct keep *k, uint64_t now_ns);

#endif
