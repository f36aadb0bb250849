/* Placeholder until the stall readers land. */
#include "internal.h"

const char *
ds_wait_name(enum ds_wait w)
{
	static const char *const n[DS_WAIT_N] = { "none", "block", "tag",
	    "io_uring", "dirty", "fuse", "nfs", "cifs", "other" };

	return (unsigned)w < DS_WAIT_N ? n[w] : "?";
}
