/*
 * Arrays, the library's and the tools' alike (cmd/util/util.h includes
 * this): one way to grow one, one way to count one.  Never installed.
 */
#ifndef DISKSTAT_GROW_H
#define DISKSTAT_GROW_H

#include <stddef.h>

/*
 * Make the array at *(T **)pp hold at least need elements of size
 * bytes, doubling from 16 so that n appends cost O(n).  0, or -ENOMEM
 * (out of memory, or need * size past SIZE_MAX) with *pp and *cap as
 * they were.  need 0 or within *cap: 0, nothing done.
 */
int ds_grow(void *pp, size_t *cap, size_t need, size_t size);

/* The number of elements of an array (not a pointer). */
#define nitems(a)	(sizeof(a) / sizeof((a)[0]))

#endif
