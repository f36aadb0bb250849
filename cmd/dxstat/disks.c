/*
 * The devices a dxstat report shows: whole disks (the names in
 * sys/block), partitions too on request, the operands, and devices that
 * never did I/O left out unless asked for; with -N, their dm names.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dxstat.h"

struct dx_dmname {
	char dev[DS_DISK_NAME_MAX];
	char name[256];		/* "" when not a device-mapper device */
};

void
dx_disks_init(struct dx_disks *s, const struct ds_root *r,
    struct ds_devsel *sel, int use_sys)
{
	s->r = r;
	s->sel = sel;
	s->use_sys = use_sys;
	s->bd_state = use_sys ? 0 : -1;
}

void
dx_disks_free(struct dx_disks *s)
{
	ds_blockdevs_free(&s->bd);
	ds_buf_free(&s->scratch);
	free(s->dmn);
	s->dmn = NULL;
	s->ndmn = s->capdmn = 0;
}

/* sys/block into s->bd; without it (a tree of proc only), names decide. */
static void
read_bd(struct dx_disks *s)
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
whole_disk(struct dx_disks *s, const char *name, int seen)
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
dx_disks_dm(struct dx_disks *s, const char *dev, const char **dm)
{
	struct dx_dmname *d;
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
	if (ds_grow(&s->dmn, &s->capdmn, s->ndmn + 1, sizeof(*s->dmn)) < 0)
		return -ENOMEM;
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
selected(struct dx_disks *s, const char *name, int seen)
{
	const char *dm = NULL;
	int e;

	if (s->sel->n == 0)
		return s->part || whole_disk(s, name, seen);
	if ((s->dm || s->sel->ndm > 0) && (e = dx_disks_dm(s, name, &dm)) < 0)
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
dx_disks_show(struct dx_disks *s, const struct ds_disk *c, int seen)
{
	int sel;

	if ((sel = selected(s, c->name, seen)) <= 0)
		return sel;
	return sel == 2 || s->all || !never_did_io(c);
}

int
dx_disks_pick(struct dx_disks *s, const struct ds_disk *c, int seen,
    const char **name)
{
	int e;

	*name = NULL;
	if ((e = dx_disks_show(s, c, seen)) <= 0)
		return e;
	if (s->dm && (e = dx_disks_dm(s, c->name, name)) < 0)
		return e;
	return 1;
}
