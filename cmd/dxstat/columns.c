/*
 * dxstat's columns: time, device, the iostat -x figures of ds_xstat in
 * the order of enum ds_xcol, in_flight.
 */
#include "dxstat.h"

/*
 * Prometheus has the figures in base units (kB as bytes, ms as seconds,
 * percent as a ratio).
 */
static const struct ds_col cols[] = {
	{ "time", DS_T_TIME, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "device", DS_T_STR, DS_P_LABEL, "device", NULL, 0, 0, 0 },
	{ "r/s", DS_T_F2, DS_P_GAUGE, "reads_per_second",
	    "Reads completed per second.", 0, 0, 0 },
	{ "rkB/s", DS_T_F2, DS_P_GAUGE, "read_bytes_per_second",
	    "Bytes read per second.", 0, 1024, DS_C_KB },
	{ "rrqm/s", DS_T_F2, DS_P_GAUGE, "read_merges_per_second",
	    "Read requests merged per second.", 0, 0, DS_C_WIDE },
	{ "%rrqm", DS_T_F2, DS_P_GAUGE, "read_merged_ratio",
	    "Share of read requests merged before dispatch.", 0, 0.01, DS_C_WIDE },
	{ "r_await", DS_T_F2, DS_P_GAUGE, "read_await_seconds",
	    "Mean time of a completed read, queue included.", 0, 0.001, 0 },
	{ "rareq-sz", DS_T_F2, DS_P_GAUGE, "read_request_size_bytes",
	    "Mean size of a completed read.", 0, 1024, DS_C_KB },
	{ "w/s", DS_T_F2, DS_P_GAUGE, "writes_per_second",
	    "Writes completed per second.", 0, 0, 0 },
	{ "wkB/s", DS_T_F2, DS_P_GAUGE, "written_bytes_per_second",
	    "Bytes written per second.", 0, 1024, DS_C_KB },
	{ "wrqm/s", DS_T_F2, DS_P_GAUGE, "write_merges_per_second",
	    "Write requests merged per second.", 0, 0, DS_C_WIDE },
	{ "%wrqm", DS_T_F2, DS_P_GAUGE, "write_merged_ratio",
	    "Share of write requests merged before dispatch.", 0, 0.01, DS_C_WIDE },
	{ "w_await", DS_T_F2, DS_P_GAUGE, "write_await_seconds",
	    "Mean time of a completed write, queue included.", 0, 0.001, 0 },
	{ "wareq-sz", DS_T_F2, DS_P_GAUGE, "write_request_size_bytes",
	    "Mean size of a completed write.", 0, 1024, DS_C_KB },
	{ "d/s", DS_T_F2, DS_P_GAUGE, "discards_per_second",
	    "Discards completed per second.", 0, 0, 0 },
	{ "dkB/s", DS_T_F2, DS_P_GAUGE, "discarded_bytes_per_second",
	    "Bytes discarded per second.", 0, 1024, DS_C_WIDE | DS_C_KB },
	{ "drqm/s", DS_T_F2, DS_P_GAUGE, "discard_merges_per_second",
	    "Discard requests merged per second.", 0, 0, DS_C_WIDE },
	{ "%drqm", DS_T_F2, DS_P_GAUGE, "discard_merged_ratio",
	    "Share of discard requests merged before dispatch.", 0, 0.01, DS_C_WIDE },
	{ "d_await", DS_T_F2, DS_P_GAUGE, "discard_await_seconds",
	    "Mean time of a completed discard, queue included.", 0, 0.001, DS_C_WIDE },
	{ "dareq-sz", DS_T_F2, DS_P_GAUGE, "discard_request_size_bytes",
	    "Mean size of a completed discard.", 0, 1024, DS_C_WIDE | DS_C_KB },
	{ "f/s", DS_T_F2, DS_P_GAUGE, "flushes_per_second",
	    "Flush requests completed per second.", 0, 0, 0 },
	{ "f_await", DS_T_F2, DS_P_GAUGE, "flush_await_seconds",
	    "Mean time of a completed flush request.", 0, 0.001, DS_C_WIDE },
	{ "aqu-sz", DS_T_F2, DS_P_GAUGE, "queue_depth",
	    "Mean number of requests queued or in service.", 0, 0, 0 },
	{ "%util", DS_T_F2, DS_P_GAUGE, "util_ratio",
	    "Share of the interval with at least one request in flight.",
	    0, 0.01, 0 },
	{ "in_flight", DS_T_U64, DS_P_GAUGE, "in_flight_requests",
	    "Requests in flight when the sample was read.", 0, 0, DS_C_WIDE },
};

const struct ds_col *
dx_columns(size_t *n)
{
	*n = nitems(cols);
	return cols;
}
