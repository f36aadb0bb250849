/* Placeholder until the stall readers land: the wait classes only. */
#ifndef DISKSTAT_STALL_H
#define DISKSTAT_STALL_H

#include "diskstat.h"

enum ds_wait {
	DS_WAIT_NONE,
	DS_WAIT_BLOCK,
	DS_WAIT_TAG,
	DS_WAIT_URING,
	DS_WAIT_DIRTY,
	DS_WAIT_FUSE,
	DS_WAIT_NFS,
	DS_WAIT_CIFS,
	DS_WAIT_OTHER,
	DS_WAIT_N
};

const char *ds_wait_name(enum ds_wait w);

#endif
