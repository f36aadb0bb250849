/*
 * Device identity: what a whole disk is, apart from the kernel name it
 * has this boot (dm-3 may be another volume after a reboot), read from
 * sysfs below the root.
 */
#ifndef DS_DEVID_H
#define DS_DEVID_H

#include "diskstat.h"

/* An identity and its NUL; a longer one is not used (never cut). */
#define DS_DEVID_MAX 256

/*
 * The identity of the whole disk name (sys/block/NAME) into id: the
 * first there is of dm/uuid ("dm-uuid=..."), wwid or device/wwid
 * ("wwid=..."), serial or device/serial ("serial=..."), dm/name
 * ("dm-name=..."); "" for none (loop, zram, a partition).  Values are
 * trimmed, blank runs made one space, other bytes outside printable
 * ASCII and '\\' written \xHH.  A value that is empty, over a page,
 * too long for id, absent or unreadable (SCSI wwid without VPD page
 * 0x83: ENXIO) is passed over for the next.  0; -EINVAL for a name that
 * is no single path component; -errno (id "") when an attribute cannot
 * be opened for another reason: a weaker identity would be another.
 */
int ds_devid_read(const struct ds_root *r, const char *name,
    char id[DS_DEVID_MAX]);

#endif
