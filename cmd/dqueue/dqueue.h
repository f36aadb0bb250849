/*
 * dqueue's own code beside main.c: its columns, its operands resolved
 * to queues, its --check and --set arguments, and what it says.
 */
#ifndef DQUEUE_H
#define DQUEUE_H

#include "suite.h"
#include "grow.h"
#include "util/devsel.h"

/* columns.c */

/* A listing's cell: attribute a, its schedulers (avail), KiB as bytes. */
struct dq_cell {
	enum ds_qattr a;
	int avail;
	int kib;
};
/* A listing's columns ("device" first) and the cell of each further one. */
struct dq_listing {
	const struct ds_col *cols;
	size_t ncols;
	const struct dq_cell *cells;
	size_t ncells;
};
/*
 * The listing; for Prometheus, the info family (the text settings as
 * labels, then the value 1: ncols is ncells + 2) and the gauges in
 * base units.
 */
extern const struct dq_listing dq_list_plain, dq_list_info, dq_list_gauge;
/*
 * Columns without cells: -a (device attribute value writable), --check
 * (device attribute want got), --set (device attribute old new status).
 */
extern const struct dq_listing dq_list_long, dq_check_rows, dq_set_rows;
/*
 * The value of cell c of q: 0 none (missing, unreadable, too large in
 * bytes), 1 text into text, 2 a number into *v; -ENOMEM.
 */
int dq_cell_value(const struct ds_queue *q, const struct dq_cell *c,
    struct ds_buf *text, uint64_t *v);
/* The new column of a row of --set: want, now or old; NULL when none. */
const char *dq_set_new(const struct ds_qs_item *it);

/* targets.c */

/* A device operand resolved: its name as given, the disk owning its queue. */
struct dq_target {
	char *name;
	char disk[DS_DISK_NAME_MAX * 4];
};
struct dq_targets {
	struct dq_target *t;
	size_t n, cap;
	int *err;		/* per operand of the selection: 0 or -errno */
	size_t nops;
};
/*
 * The devices of sel in operand order: a glob or a /dev/mapper/
 * operand the whole disks of disks it matches (dm devices by their dm
 * name), a plain name that device, which may be a partition
 * (ds_queue_resolve); sel NULL or empty: every whole disk.  err[k] for
 * operand k: 0, -ENOENT nothing matched or no such device, -EINVAL a
 * name that cannot be a device, another -errno of ds_queue_resolve.
 * Operands that selected a device get matched set.  0 or -ENOMEM.
 */
int dq_targets_pick(const struct ds_root *r, const struct ds_blockdevs *disks,
    struct ds_devsel *sel, struct ds_buf *scratch, struct dq_targets *out);
void dq_targets_free(struct dq_targets *t);

/* settings.c */

/* One attr=value of --check or --set, blanks around each part cut. */
struct dq_setting {
	char *attr;
	char *value;
};
struct dq_settings {
	struct dq_setting *s;
	size_t n, cap;
};
/*
 * attr=value[,attr=value...] appended to out, empty items skipped.
 * -EINVAL at the first malformed item, said ("ITEM: not attr=value",
 * "ATTR: empty value", "ATTR: not an attribute name"); -ENOMEM.
 */
int dq_settings_parse(struct dq_settings *out, const char *arg);
void dq_settings_free(struct dq_settings *s);
/*
 * The settings as the request of each of copies disks, one after the
 * other (s->n items each) in one calloc'd array: free it; NULL: ENOMEM.
 */
struct ds_qs_item *dq_settings_request(const struct dq_settings *s,
    size_t copies);
/* The first item ds_qset_prepare refused, or NULL. */
const struct ds_qs_item *dq_refusal(const struct ds_qs_item *it, size_t n);
/*
 * After ds_qset_apply of one disk: DQ_STOPPED when some setting failed
 * or does not hold (no further disk is written), DQ_HALTED when a write
 * failed or was skipped, or the last write does not hold.
 */
#define DQ_STOPPED 1
#define DQ_HALTED 2
int dq_outcome(const struct ds_qs_item *it, size_t n);

/* messages.c: each said as "dev: attr: why" (warnx). */

/*
 * What a listing of dev could not read in q: queue/ itself when it
 * could not be opened, then each attribute ds_queue_attr_err names.
 * Returns how many were said.
 */
int dq_say_problems(const struct ds_queue *q, const char *dev);
/* f's read error worth a message, or 0 (the kernel had no value to show). */
int dq_qfile_err(const struct ds_qfile *f);
/*
 * Why setting it of device dev (on disk's queue) was refused before any
 * write (it->why), or does not hold after the last (failed, changed).
 * 1 when said, 0 when there is nothing to say (it NULL too).
 */
int dq_say_setting(const struct ds_root *r, const char *disk,
    const char *dev, const struct ds_qs_item *it, struct ds_buf *scratch);
/*
 * The last word of a stopped set (outcome: the dq_outcome bits of every
 * disk), with what the kernel now holds of the requests it of the first
 * ndisks disks of tg (n items each): 1 said, 0 when not stopped, -ENOMEM.
 */
int dq_say_summary(int outcome, const struct dq_targets *tg, size_t ndisks,
    const struct ds_qs_item *it, size_t n);

#endif
