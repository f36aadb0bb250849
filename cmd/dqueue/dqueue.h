/*
 * dqueue's own code beside main.c: its columns, its operands resolved
 * to queues, its --check and --set arguments, and what it says.
 */
#ifndef DQUEUE_H
#define DQUEUE_H

#include "diskstat.h"

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

#endif
