/*
 * The columns of the listing in every format with the attribute each
 * one shows, the value of one cell of a device, and the columns of the
 * long listing, of --check and of --set.
 */
#include <errno.h>
#include <string.h>

#include "dqueue.h"

#define STR(n, f) { n, DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, f }
#define U64(n, f) { n, DS_T_U64, DS_P_NONE, NULL, NULL, 0, 0, f }
#define LABEL(n, t) { n, t, DS_P_LABEL, n, NULL, 0, 0, 0 }
#define GAUGE(n, m, help) { n, DS_T_U64, DS_P_GAUGE, m, help, 0, 0, 0 }
#define W DS_C_WIDE

/* The listing: one row per device. */
static const struct ds_col list_cols[] = {
	STR("device", 0), U64("rotational", 0), STR("scheduler", 0),
	STR("schedulers", W), U64("nr_requests", 0),
	U64("read_ahead_kb", DS_C_KB), U64("max_sectors_kb", DS_C_KB),
	U64("max_hw_sectors_kb", W | DS_C_KB),
	U64("logical_block_size", W | DS_C_BYTES),
	U64("physical_block_size", W | DS_C_BYTES),
	U64("minimum_io_size", W | DS_C_BYTES),
	U64("optimal_io_size", W | DS_C_BYTES), U64("nomerges", 0),
	U64("nr_hw_queues", 0), STR("write_cache", 0),
	U64("discard_max_bytes", W | DS_C_BYTES), U64("wbt_lat_usec", 0),
	STR("zoned", W), STR("holders", 0), STR("slaves", 0),
};

/*
 * Prometheus: the writer puts every label column on every metric of a
 * row, so the text settings go on one info metric of their own and the
 * numbers are gauges labelled by device alone.  Two writers, flushed
 * one after the other, keep the families apart.
 */
static const struct ds_col info_cols[] = {
	LABEL("device", DS_T_STR), LABEL("scheduler", DS_T_STR),
	LABEL("schedulers", DS_T_STR), LABEL("rotational", DS_T_U64),
	LABEL("write_cache", DS_T_STR), LABEL("zoned", DS_T_STR),
	LABEL("holders", DS_T_STR), LABEL("slaves", DS_T_STR),
	GAUGE("info", "info",
	    "Queue settings of a block device as labels; always 1."),
};

/* Written out in full, so t/fixtures/prom/promcmp.py finds each gauge. */
static const struct ds_col gauge_cols[] = {
	{ "device", DS_T_STR, DS_P_LABEL, "device", NULL, 0, 0, 0 },
	{ "rotational", DS_T_U64, DS_P_GAUGE, "rotational",
	    "1 when the kernel treats the device as rotational.", 0, 0, 0 },
	{ "nr_requests", DS_T_U64, DS_P_GAUGE, "nr_requests",
	    "Requests the scheduler may hold per hardware queue.", 0, 0, 0 },
	{ "read_ahead_bytes", DS_T_U64, DS_P_GAUGE, "read_ahead_bytes",
	    "Read-ahead window (read_ahead_kb * 1024).", 0, 0, 0 },
	{ "max_sectors_bytes", DS_T_U64, DS_P_GAUGE, "max_sectors_bytes",
	    "Largest request the block layer builds (max_sectors_kb * 1024).",
	    0, 0, 0 },
	{ "max_hw_sectors_bytes", DS_T_U64, DS_P_GAUGE, "max_hw_sectors_bytes",
	    "Largest request the hardware takes (max_hw_sectors_kb * 1024).",
	    0, 0, 0 },
	{ "logical_block_size", DS_T_U64, DS_P_GAUGE, "logical_block_size_bytes",
	    "Smallest addressable unit.", 0, 0, 0 },
	{ "physical_block_size", DS_T_U64, DS_P_GAUGE, "physical_block_size_bytes",
	    "Smallest unit the device writes without read-modify-write.",
	    0, 0, 0 },
	{ "minimum_io_size", DS_T_U64, DS_P_GAUGE, "minimum_io_size_bytes",
	    "Preferred minimum request size.", 0, 0, 0 },
	{ "optimal_io_size", DS_T_U64, DS_P_GAUGE, "optimal_io_size_bytes",
	    "Preferred request size for sustained I/O; 0 when not reported.",
	    0, 0, 0 },
	{ "nomerges", DS_T_U64, DS_P_GAUGE, "nomerges",
	    "0 merges allowed, 1 only simple one-hit merges, 2 none.",
	    0, 0, 0 },
	{ "nr_hw_queues", DS_T_U64, DS_P_GAUGE, "nr_hw_queues",
	    "Hardware (blk-mq) queues of the device.", 0, 0, 0 },
	{ "discard_max_bytes", DS_T_U64, DS_P_GAUGE, "discard_max_bytes",
	    "Largest discard request issued; 0 when discard is off.", 0, 0, 0 },
	{ "wbt_lat_usec", DS_T_U64, DS_P_GAUGE, "wbt_latency_seconds",
	    "Writeback throttling latency target; 0 when off.", 6, 0, 0 },
};

static const struct dq_cell list_cells[] = {
	{ DS_QA_ROTATIONAL, 0, 0 }, { DS_QA_SCHEDULER, 0, 0 },
	{ DS_QA_SCHEDULER, 1, 0 }, { DS_QA_NR_REQUESTS, 0, 0 },
	{ DS_QA_READ_AHEAD_KB, 0, 0 }, { DS_QA_MAX_SECTORS_KB, 0, 0 },
	{ DS_QA_MAX_HW_SECTORS_KB, 0, 0 }, { DS_QA_LOGICAL_BLOCK_SIZE, 0, 0 },
	{ DS_QA_PHYSICAL_BLOCK_SIZE, 0, 0 }, { DS_QA_MINIMUM_IO_SIZE, 0, 0 },
	{ DS_QA_OPTIMAL_IO_SIZE, 0, 0 }, { DS_QA_NOMERGES, 0, 0 },
	{ DS_QA_NR_HW_QUEUES, 0, 0 }, { DS_QA_WRITE_CACHE, 0, 0 },
	{ DS_QA_DISCARD_MAX_BYTES, 0, 0 }, { DS_QA_WBT_LAT_USEC, 0, 0 },
	{ DS_QA_ZONED, 0, 0 }, { DS_QA_HOLDERS, 0, 0 }, { DS_QA_SLAVES, 0, 0 },
};

static const struct dq_cell info_cells[] = {
	{ DS_QA_SCHEDULER, 0, 0 }, { DS_QA_SCHEDULER, 1, 0 },
	{ DS_QA_ROTATIONAL, 0, 0 }, { DS_QA_WRITE_CACHE, 0, 0 },
	{ DS_QA_ZONED, 0, 0 }, { DS_QA_HOLDERS, 0, 0 }, { DS_QA_SLAVES, 0, 0 },
};

/* kB in sysfs is KiB: the kernel shifts by 10. */
static const struct dq_cell gauge_cells[] = {
	{ DS_QA_ROTATIONAL, 0, 0 }, { DS_QA_NR_REQUESTS, 0, 0 },
	{ DS_QA_READ_AHEAD_KB, 0, 1 }, { DS_QA_MAX_SECTORS_KB, 0, 1 },
	{ DS_QA_MAX_HW_SECTORS_KB, 0, 1 }, { DS_QA_LOGICAL_BLOCK_SIZE, 0, 0 },
	{ DS_QA_PHYSICAL_BLOCK_SIZE, 0, 0 }, { DS_QA_MINIMUM_IO_SIZE, 0, 0 },
	{ DS_QA_OPTIMAL_IO_SIZE, 0, 0 }, { DS_QA_NOMERGES, 0, 0 },
	{ DS_QA_NR_HW_QUEUES, 0, 0 }, { DS_QA_DISCARD_MAX_BYTES, 0, 0 },
	{ DS_QA_WBT_LAT_USEC, 0, 0 },
};

static const struct ds_col long_cols[] = {
	LABEL("device", DS_T_STR), LABEL("attribute", DS_T_STR),
	STR("value", 0),
	GAUGE("writable", "attribute_writable",
	    "1 when the attribute file's mode allows writing."),
};

static const struct ds_col check_cols[] = {
	STR("device", 0), STR("attribute", 0), STR("want", 0), STR("got", 0),
};

static const struct ds_col set_cols[] = {
	STR("device", 0), STR("attribute", 0), STR("old", 0), STR("new", 0),
	STR("status", 0),
};

#define LISTING(c, k) { c, nitems(c), k, nitems(k) }

const struct dq_listing dq_list_plain = LISTING(list_cols, list_cells);
const struct dq_listing dq_list_info = LISTING(info_cols, info_cells);
const struct dq_listing dq_list_gauge = LISTING(gauge_cols, gauge_cells);
#define COLUMNS(c) { c, nitems(c), NULL, 0 }

const struct dq_listing dq_list_long = COLUMNS(long_cols);
const struct dq_listing dq_check_rows = COLUMNS(check_cols);
const struct dq_listing dq_set_rows = COLUMNS(set_cols);

/* s as the cell's text: a list of one name. */
static int
text_of(struct ds_buf *b, const char *s)
{
	char *one = (char *)s;

	return ds_qnames_join(&one, 1, "", b) < 0 ? -ENOMEM : 1;
}

int
dq_cell_value(const struct ds_queue *q, const struct dq_cell *c,
    struct ds_buf *text, uint64_t *v)
{
	const struct ds_blockdevs *names = c->a == DS_QA_HOLDERS ?
	    &q->holders : &q->slaves;
	uint64_t mul = c->kib ? 1024 : 1;

	if ((unsigned)c->a >= DS_QA_N || q->err[c->a] != 0)
		return 0;
	switch (c->a) {
	case DS_QA_SCHEDULER:
		if (c->avail)
			return ds_sched_join(&q->sched, text) < 0 ? -ENOMEM : 1;
		/* Old kernels: bio-based "none", no active scheduler. */
		return q->sched.active[0] == '\0' ? 0 :
		    text_of(text, q->sched.active);
	case DS_QA_WRITE_CACHE:
		return text_of(text, q->write_cache);
	case DS_QA_ZONED:
		return text_of(text, q->zoned);
	case DS_QA_HOLDERS:
	case DS_QA_SLAVES:
		return ds_qnames_join(names->name, names->n, ",", text) < 0 ?
		    -ENOMEM : 1;
	default:
		/* Too large in bytes: none rather than wrapped. */
		if (mul > 1 && q->v[c->a] > UINT64_MAX / mul)
			return 0;
		*v = q->v[c->a] * mul;
		return 2;
	}
}

const char *
dq_set_new(const struct ds_qs_item *it)
{
	if (it->state == DS_QS_WOULD)
		return it->want;
	/* Held before and not read again: what it held. */
	if (it->state == DS_QS_ALREADY && it->now[0] == '\0')
		return it->old;
	return it->now[0] != '\0' ? it->now : NULL;
}
