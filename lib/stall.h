/*
 * Stalled threads, the parts the library and its tests use: the class
 * of a thread's wait from its state letter and wchan, and its name.
 * The scan of the threads and a process's descriptors are diskstat.h's.
 */
#ifndef DISKSTAT_STALL_H
#define DISKSTAT_STALL_H

#include "diskstat.h"

/* The class of a thread from its state letter and its wchan text. */
enum ds_wait ds_wait_class(char state, const char *wchan);
/* "none" "block" "tag" "io_uring" "dirty" "fuse" "nfs" "cifs" "other"; NULL out of range. */
const char *ds_wait_name(enum ds_wait w);

#endif
