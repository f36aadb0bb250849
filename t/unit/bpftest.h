/*
 * bpf(2) as only the tests use it: the programs the kernel holds, run
 * counters turned on, and the map of issues of a tracing session.  Not
 * part of the library; linked into every unit test (t/unit/bpftest.c).
 */
#ifndef DISKSTAT_BPFTEST_H
#define DISKSTAT_BPFTEST_H

#include "internal.h"

/* BPF_ENABLE_STATS: run counters on while the returned fd is open. */
int bpft_enable_stats(void);
/* The id after id (0: the first) of the programs loaded; -ENOENT at the end. */
int bpft_prog_next_id(uint32_t id, uint32_t *next);
/* An fd of the program with this id (needs CAP_SYS_ADMIN). */
int bpft_prog_fd_by_id(uint32_t id);
/* Programs loaded in the kernel now, every user's (BPF_PROG_GET_NEXT_ID). */
int bpft_prog_count(uint64_t *n);
/* The map of issue starts (key dev, 0, sector; value ns first). */
int bpft_starts_fd(const struct ds_blklat *b);

#endif
