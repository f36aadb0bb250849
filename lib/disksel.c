/*
 * Device operands matched against devices (one rule for names, /dev
 * paths, dm names and globs), and the devices a report shows: whole
 * disks (the names in sys/block), partitions too on request, the
 * operands, and devices that never did I/O left out unless asked for.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static int
devop_is(const struct ds_devop *op, const char *name)
{
	if (op->glob)
		return fnmatch(op->pat, name, 0) == 0;
	return strcmp(op->pat, name) == 0;
}

int
ds_devop_match(const struct ds_devop *op, const char *name, const char *dm)
{
	if (!op->dm && devop_is(op, name))
		return 1;
	return dm != NULL && devop_is(op, dm);
}

int
ds_devsel_match(struct ds_devsel *s, const char *name, const char *dm,
    int whole)
{
	size_t i;
	int r = 0;

	for (i = 0; i < s->n; i++) {
		struct ds_devop *op = &s->op[i];

		if (!ds_devop_match(op, name, dm))
			continue;
		if (!op->glob) {
			op->matched = 1;
			r = 2;
		} else if (whole) {
			op->matched = 1;
			if (r == 0)
				r = 1;
		}
	}
	return r;
}

struct ds_dmname {
	char dev[DS_DISK_NAME_MAX];
	char name[256];		/* "" when not a device-mapper device */
};

void
ds_disksel_init(struct ds_disksel *s, const struct ds_root *r,
    struct ds_devsel *sel, int use_sys)
{
	s->r = r;
	s->sel = sel;
	s->use_sys = use_sys;
	s->bd_state = use_sys ? 0 : -1;
}

void
ds_disksel_free(struct ds_disksel *s)
{
	ds_blockdevs_free(&s->bd);
	ds_buf_free(&s->scratch);
	free(s->dmn);
	s->dmn = NULL;
	s->ndmn = s->capdmn = 0;
}

/* sys/block into s->bd; without it (a tree of proc only), names decide. */
static void
read_bd(struct ds_disksel *s)
{
	int e;

	s->bd_rescanned = 1;
	if ((e = ds_blockdevs_read(s->r, &s->bd)) == 0) {
		s->bd_state = 1;
		return;
	}
	if (s->bd_state == 1 || (e != -ENOENT && e != -ENOTDIR))
		s->bd_error = e;
	s->bd_state = -1;
}

/*
 * Is name a whole disk?  Whole disks are the names in sys/block, read
 * when first needed (never with -p and no operand).  A name it does not
 * have is a partition, or a disk added since it was read (hot plug, a
 * new loop device): only a device new since the last sample (seen 0)
 * can be such a disk, and for one of those sys/block is read again, at
 * most once per report and only on a live system.
 */
static int
whole_disk(struct ds_disksel *s, const char *name, int seen)
{
	if (s->bd_state == 0)
		read_bd(s);
	if (s->bd_state < 0)
		return !ds_name_is_partition(name);
	if (ds_blockdevs_has(&s->bd, name))
		return 1;
	if (seen || !s->r->live || s->bd_rescanned)
		return 0;
	read_bd(s);
	if (s->bd_state < 0)
		return !ds_name_is_partition(name);
	return ds_blockdevs_has(&s->bd, name);
}

int
ds_disksel_dm(struct ds_disksel *s, const char *dev, const char **dm)
{
	struct ds_dmname *d;
	size_t i;

	*dm = NULL;
	/* A snapshot from elsewhere: the local dm names are not its. */
	if (!s->use_sys || strncmp(dev, "dm-", 3) != 0)
		return 0;
	for (i = 0; i < s->ndmn; i++)
		if (strcmp(s->dmn[i].dev, dev) == 0) {
			if (s->dmn[i].name[0] != '\0')
				*dm = s->dmn[i].name;
			return 0;
		}
	if (s->ndmn == s->capdmn) {
		size_t cap = s->capdmn ? s->capdmn * 2 : 16;

		if ((d = realloc(s->dmn, cap * sizeof(*d))) == NULL)
			return -ENOMEM;
		s->dmn = d;
		s->capdmn = cap;
	}
	d = &s->dmn[s->ndmn++];
	snprintf(d->dev, sizeof(d->dev), "%s", dev);
	if (ds_dm_name(s->r, dev, &s->scratch, d->name, sizeof(d->name)) < 0)
		d->name[0] = '\0';
	if (d->name[0] != '\0')
		*dm = d->name;
	return 0;
}

/*
 * 0: not shown; 1: shown unless idle since boot; 2: named, always
 * shown.  Operands match kernel names, and dm names with -N or when
 * given as /dev/mapper/NAME; a glob selects whole disks (all with -p).
 */
static int
selected(struct ds_disksel *s, const char *name, int seen)
{
	const char *dm = NULL;
	int e;

	if (s->sel->n == 0)
		return s->part || whole_disk(s, name, seen);
	if ((s->dm || s->sel->ndm > 0) && (e = ds_disksel_dm(s, name, &dm)) < 0)
		return e;
	return ds_devsel_match(s->sel, name, dm, s->sel->nglob == 0 ||
	    s->part || whole_disk(s, name, seen));
}

static int
never_did_io(const struct ds_disk *d)
{
	return d->v[DS_RD_IOS] == 0 && d->v[DS_WR_IOS] == 0 &&
	    d->v[DS_DC_IOS] == 0 && d->v[DS_FL_IOS] == 0;
}

int
ds_disksel_show(struct ds_disksel *s, const struct ds_disk *c, int seen)
{
	int sel;

	if ((sel = selected(s, c->name, seen)) <= 0)
		return sel;
	return sel == 2 || s->all || !never_did_io(c);
}

int
ds_disksel_pick(struct ds_disksel *s, const struct ds_disk *c, int seen,
    const char **name)
{
	int e;

	*name = NULL;
	if ((e = ds_disksel_show(s, c, seen)) <= 0)
		return e;
	if (s->dm && (e = ds_disksel_dm(s, c->name, name)) < 0)
		return e;
	return 1;
}
