/*
 * ddeleted's columns as data: the listing (one row per holder), the
 * summary (one per filesystem; --du adds its last two) and --truncate's
 * row, with their units and Prometheus names.
 */
#include <stddef.h>

#include "ddeleted.h"

static const struct ds_col rowcols[] = {
	{ "pid", DS_T_U64, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "user", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "command", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "fd", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "size", DS_T_U64, DS_P_NONE, NULL, NULL, 0, 0, DS_C_BYTES },
	{ "allocated", DS_T_U64, DS_P_NONE, NULL, NULL, 0, 0, DS_C_BYTES },
	{ "dev", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "inode", DS_T_U64, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "mount", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "fstype", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "class", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "path", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
};

static const struct ds_col sumcols[] = {
	{ "mount", DS_T_STR, DS_P_LABEL, "mount", NULL, 0, 0, 0 },
	{ "fstype", DS_T_STR, DS_P_LABEL, "fstype", NULL, 0, 0, 0 },
	{ "size", DS_T_U64, DS_P_GAUGE, "size_bytes",
	    "Size of the filesystem (statfs blocks).", 0, 0, DS_C_BYTES },
	{ "used", DS_T_U64, DS_P_GAUGE, "used_bytes",
	    "Space in use as df shows it: statfs blocks minus free.", 0, 0, DS_C_BYTES },
	{ "avail", DS_T_U64, DS_P_GAUGE, "avail_bytes",
	    "Space available to unprivileged users.", 0, 0, DS_C_BYTES },
	{ "held", DS_T_U64, DS_P_GAUGE, "held_bytes",
	    "Space allocated to deleted files still open or mapped, each "
	    "inode once.", 0, 0, DS_C_BYTES },
	{ "files", DS_T_U64, DS_P_GAUGE, "files",
	    "Deleted inodes still open or mapped.", 0, 0, 0 },
	{ "holders", DS_T_U64, DS_P_GAUGE, "holders",
	    "Processes holding deleted files open or mapped.", 0, 0, 0 },
	{ "reachable", DS_T_U64, DS_P_GAUGE, "reachable_bytes",
	    "Space allocated to files reachable by name (du -sx).", 0, 0, DS_C_BYTES },
	{ "unexplained", DS_T_I64, DS_P_GAUGE, "unexplained_bytes",
	    "Used minus reachable minus held.", 0, 0, DS_C_BYTES },
};

static const struct ds_col trcols[] = {
	{ "pid", DS_T_U64, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "fd", DS_T_U64, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "size", DS_T_U64, DS_P_NONE, NULL, NULL, 0, 0, DS_C_BYTES },
	{ "freed", DS_T_U64, DS_P_NONE, NULL, NULL, 0, 0, DS_C_BYTES },
	{ "path", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
};

const struct ds_col *
del_columns(enum del_cols which, size_t *n)
{
	switch (which) {
	case DEL_COLS_LIST:
		*n = nitems(rowcols);
		return rowcols;
	case DEL_COLS_SUM:
		*n = nitems(sumcols) - 2;
		return sumcols;
	case DEL_COLS_SUM_DU:
		*n = nitems(sumcols);
		return sumcols;
	case DEL_COLS_TRUNC:
		break;
	}
	*n = nitems(trcols);
	return trcols;
}
