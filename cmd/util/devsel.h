/*
 * Device operands as the tools take them (cmd/util/devsel.c), and which
 * devices each selects.  A header of its own so that a tool's own files
 * (cmd/TOOL/TOOL.h) can take a selection without the rest of util.h.
 */
#ifndef UTIL_DEVSEL_H
#define UTIL_DEVSEL_H

#include <stddef.h>

/*
 * An operand: a kernel name ("sda"), the same with "/dev/" before it,
 * "/dev/mapper/NAME" for the device-mapper device named NAME, or a
 * shell glob (fnmatch(3)) of any of these.
 */
struct ds_devop {
	const char *arg;	/* as given, for messages */
	const char *pat;	/* name or glob, /dev/ or /dev/mapper/ cut */
	int glob;		/* pat holds '*', '?' or '[' */
	int dm;			/* given as /dev/mapper/: dm names only */
	int matched;		/* it selected a device (set by the selection) */
};
struct ds_devsel {
	struct ds_devop *op;
	size_t n;
	size_t nglob;		/* operands that are globs */
	size_t ndm;		/* operands given as /dev/mapper/ */
};

/* The operands args[0..n-1], kept, not copied; -ENOMEM. */
int ds_devsel_init(struct ds_devsel *s, char *const *args, size_t n);
void ds_devsel_free(struct ds_devsel *s);
/* 1 when there are operands and none has matched a device yet. */
int ds_devsel_none_matched(const struct ds_devsel *sel);
/*
 * 1 when op names or matches the device with kernel name name and dm
 * name dm (NULL: none known): a /dev/mapper/ operand looks at dm only,
 * others at both.  Marks nothing.
 */
int ds_devop_match(const struct ds_devop *op, const char *name,
    const char *dm);
/*
 * A device against every operand: 2 when one names it (not a glob), 1
 * when only globs match it and whole is set (globs select whole disks;
 * the caller says whether this one counts as such), 0 otherwise.  Each
 * operand that selected it gets matched set.
 */
int ds_devsel_match(struct ds_devsel *s, const char *name, const char *dm,
    int whole);

#endif
