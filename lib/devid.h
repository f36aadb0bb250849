/*
 * Device identity in snapshot files: the header lines "id NAME
 * IDENTITY" written and read.  The reader of a disk's identity is
 * diskstat.h's.
 */
#ifndef DS_DEVID_H
#define DS_DEVID_H

#include "diskstat.h"

/*
 * Is s (len bytes) a name or an identity as an id line holds them?  A
 * name: 1 to DS_DISK_NAME_MAX - 1 bytes of printable ASCII, no space.
 * An identity: 1 to DS_DEVID_MAX - 1 bytes of printable ASCII or
 * space, neither first nor last a space.
 */
int ds_devid_name_ok(const char *s, size_t len);
int ds_devid_ok(const char *s, size_t len);

/*
 * ds_devid_read with the attributes read by attr: rel below the root,
 * into buf (DS_ATTR_MAX + 1 bytes); its length, 0 when it gives no
 * value (absent, over DS_ATTR_MAX), or -errno.
 */
#define DS_ATTR_MAX 4096
typedef long (*ds_attr_fn)(void *arg, const char *rel, char *buf);
int ds_devid_read_by(ds_attr_fn attr, void *arg, const char *name,
    char id[DS_DEVID_MAX]);

/* The identities of one snapshot file, by name. */
struct ds_devid_ent {
	char name[DS_DISK_NAME_MAX];
	size_t off;		/* of the identity in pool */
};
struct ds_devids {
	struct ds_devid_ent *e;	/* sorted by name once the header is read */
	size_t n, cap;
	struct ds_buf pool;
};

/*
 * ds_snap_head, keeping the id lines in ids (emptied first; NULL: they
 * are checked and passed over).  A malformed id line is -EINVAL with
 * s->why, as any header line; with ids, so is a name given twice.
 */
int ds_snap_head_ids(struct ds_lines *l, struct ds_snap *s,
    struct ds_devids *ids);
/* Add one; -ENOMEM.  ds_devids_sort before ds_devids_get. */
int ds_devids_add(struct ds_devids *ids, const char *name, const char *id,
    size_t len);
/* Sort by name: 0, or -EEXIST when a name is there twice. */
int ds_devids_sort(struct ds_devids *ids);
/* The identity recorded for name, or NULL. */
const char *ds_devids_get(const struct ds_devids *ids, const char *name);
void ds_devids_free(struct ds_devids *ids);

#endif
