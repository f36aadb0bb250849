/*
 * The columns of dwho's reports (per process, thread or cgroup from
 * /proc/PID/io, and per cgroup and device from io.stat), the sort keys
 * that name them, and a row written in them.
 */
#include <errno.h>
#include <string.h>

#include "dwho/dwho.h"

/* The value columns in output order (hit% before %iodelay). */
static const int vorder[WHO_NV] = {
	DS_WR_READ, DS_WR_WRITE, DS_WR_CANCELLED, DS_WR_RCHAR, DS_WR_WCHAR,
	DS_WR_SYSCR, DS_WR_SYSCW, WV_HIT, DS_WR_DELAY,
};

/* Gauges for rates (used by -g with -o prom, and every other format). */
static const struct ds_col rate_col[WHO_NV] = {
	{ "kB_rd/s", DS_T_F2, DS_P_GAUGE, "read_bytes_per_second",
	    "Bytes read from block devices per second.", 0, 1024, 0 },
	{ "kB_wr/s", DS_T_F2, DS_P_GAUGE, "write_bytes_per_second",
	    "Bytes dirtied or written directly per second.", 0, 1024, 0 },
	{ "kB_ccwr/s", DS_T_F2, DS_P_GAUGE, "cancelled_write_bytes_per_second",
	    "Dirtied bytes not written back (truncated) per second.", 0, 1024, 0 },
	{ "kB_rchar/s", DS_T_F2, DS_P_GAUGE, "rchar_bytes_per_second",
	    "Bytes asked for by read syscalls per second.", 0, 1024, 0 },
	{ "kB_wchar/s", DS_T_F2, DS_P_GAUGE, "wchar_bytes_per_second",
	    "Bytes passed to write syscalls per second.", 0, 1024, 0 },
	{ "syscr/s", DS_T_F2, DS_P_GAUGE, "read_syscalls_per_second",
	    "Read syscalls per second.", 0, 0, 0 },
	{ "syscw/s", DS_T_F2, DS_P_GAUGE, "write_syscalls_per_second",
	    "Write syscalls per second.", 0, 0, 0 },
	{ "%iodelay", DS_T_F2, DS_P_GAUGE, "blkio_delay_ratio",
	    "Share of time spent waiting for block I/O, summed over threads.",
	    0, 0.01, 0 },
	{ "hit%", DS_T_F2, DS_P_GAUGE, "page_cache_hit_ratio",
	    "Estimated page cache hit ratio 1 - read_bytes/rchar.", 0, 0.01, 0 },
};

/* Counters since the process started (-o prom per process/thread). */
static const struct ds_col ctr_col[DS_WR_N] = {
	{ "read_bytes", DS_T_U64, DS_P_COUNTER, "read_bytes_total",
	    "Bytes read from block devices.", 0, 0, 0 },
	{ "write_bytes", DS_T_U64, DS_P_COUNTER, "write_bytes_total",
	    "Bytes dirtied or written directly.", 0, 0, 0 },
	{ "cancelled_write_bytes", DS_T_U64, DS_P_COUNTER,
	    "cancelled_write_bytes_total",
	    "Dirtied bytes not written back (truncated).", 0, 0, 0 },
	{ "rchar", DS_T_U64, DS_P_COUNTER, "rchar_bytes_total",
	    "Bytes asked for by read syscalls.", 0, 0, 0 },
	{ "wchar", DS_T_U64, DS_P_COUNTER, "wchar_bytes_total",
	    "Bytes passed to write syscalls.", 0, 0, 0 },
	{ "syscr", DS_T_U64, DS_P_COUNTER, "read_syscalls_total",
	    "Read syscalls.", 0, 0, 0 },
	{ "syscw", DS_T_U64, DS_P_COUNTER, "write_syscalls_total",
	    "Write syscalls.", 0, 0, 0 },
	{ "blkio_delay", DS_T_F2, DS_P_COUNTER, "blkio_delay_seconds_total",
	    "Seconds spent waiting for block I/O, summed over threads.", 0, 0, 0 },
};
/* The io fields of the counters, in ctr_col's order. */
static const int io_field[DS_WR_DELAY] = {
	DS_IO_READ_BYTES, DS_IO_WRITE_BYTES, DS_IO_CANCELLED_WRITE_BYTES,
	DS_IO_RCHAR, DS_IO_WCHAR, DS_IO_SYSCR, DS_IO_SYSCW,
};

static const struct ds_col c_time =
	{ "time", DS_T_TIME, DS_P_NONE, NULL, NULL, 0, 0, 0 };
static const struct ds_col c_pid =
	{ "pid", DS_T_U64, DS_P_LABEL, "pid", NULL, 0, 0, 0 };
static const struct ds_col c_tid =
	{ "tid", DS_T_U64, DS_P_LABEL, "tid", NULL, 0, 0, 0 };
static const struct ds_col c_user =
	{ "user", DS_T_STR, DS_P_LABEL, "user", NULL, 0, 0, 0 };
static const struct ds_col c_command =
	{ "command", DS_T_STR, DS_P_LABEL, "command", NULL, 0, 0, 0 };
/*
 * At the end, so that TSV fields keep their numbers.  start labels a
 * series in prom: a pid is reused, a pid with its start time is not.
 */
static const struct ds_col c_carries =
	{ "carries", DS_T_STR, DS_P_NONE, NULL,
	    "a kernel thread doing others' I/O: loop, flush, journal", 0, 0,
	    0 };
static const struct ds_col c_start =
	{ "start", DS_T_U64, DS_P_LABEL, "start",
	    "start time, clock ticks after boot (stat field 22)", 0, 0,
	    DS_C_WIDE };
static const struct ds_col c_cgroup =
	{ "cgroup", DS_T_STR, DS_P_LABEL, "cgroup", NULL, 0, 0, 0 };
static const struct ds_col c_procs =
	{ "procs", DS_T_U64, DS_P_GAUGE, "cgroup_processes",
	    "Processes in the cgroup.", 0, 0, 0 };
static const struct ds_col c_limit =
	{ "limit", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 };
static const struct ds_col c_device =
	{ "device", DS_T_STR, DS_P_LABEL, "device", NULL, 0, 0, 0 };

/* io.stat's keys: rates, or counters since the cgroup's creation. */
static const char *const cg_rate_name[DS_IOS_N] = {
	"rkB/s", "wkB/s", "r/s", "w/s", "dkB/s", "d/s",
};
static const struct ds_col cg_ctr_col[DS_IOS_N] = {
	{ "rbytes", DS_T_U64, DS_P_COUNTER, "cgroup_read_bytes_total",
	    "Bytes read by the cgroup's I/O, per device (io.stat).", 0, 0, 0 },
	{ "wbytes", DS_T_U64, DS_P_COUNTER, "cgroup_write_bytes_total",
	    "Bytes written by the cgroup's I/O, per device (io.stat).", 0, 0, 0 },
	{ "rios", DS_T_U64, DS_P_COUNTER, "cgroup_reads_total",
	    "Read I/Os of the cgroup, per device (io.stat).", 0, 0, 0 },
	{ "wios", DS_T_U64, DS_P_COUNTER, "cgroup_writes_total",
	    "Write I/Os of the cgroup, per device (io.stat).", 0, 0, 0 },
	{ "dbytes", DS_T_U64, DS_P_COUNTER, "cgroup_discard_bytes_total",
	    "Bytes discarded by the cgroup, per device (io.stat).", 0, 0, 0 },
	{ "dios", DS_T_U64, DS_P_COUNTER, "cgroup_discards_total",
	    "Discard I/Os of the cgroup, per device (io.stat).", 0, 0, 0 },
};

size_t
who_columns(unsigned int how, struct ds_col *cols)
{
	int group = (how & WHOCOL_GROUP) != 0, i;
	size_t n = 0;

	cols[n++] = c_time;
	if (group) {
		cols[n++] = c_cgroup;
		cols[n++] = c_procs;
	} else {
		cols[n++] = c_pid;
		if (how & WHOCOL_THREAD)
			cols[n++] = c_tid;
		cols[n++] = c_user;
		cols[n++] = c_command;
	}
	if (how & WHOCOL_COUNTERS)
		for (i = 0; i < DS_WR_N; i++)
			cols[n++] = ctr_col[i];
	else
		for (i = 0; i < WHO_NV; i++)
			cols[n++] = rate_col[vorder[i]];
	if (!group) {
		cols[n++] = c_carries;
		cols[n++] = c_start;
	} else
		cols[n++] = c_limit;
	return n;
}

/* time and cgroup as -g from /proc/PID/io has them. */
size_t
cgio_columns(int rates, struct ds_col *cols)
{
	int i;

	cols[0] = c_time;
	cols[1] = c_cgroup;
	cols[2] = c_device;
	for (i = 0; i < DS_IOS_N; i++) {
		cols[3 + i] = cg_ctr_col[i];
		if (rates) {
			cols[3 + i].name = cg_rate_name[i];
			cols[3 + i].type = DS_T_F2;
			cols[3 + i].prom = DS_P_NONE;
		}
	}
	cols[3 + DS_IOS_N] = c_limit;
	return 4 + DS_IOS_N;
}

/*
 * Sort keys: one set of names on every host.  Each name gives the
 * column of the proc source (/proc/PID/io) and of io.stat (-g where the
 * kernel has it); a name of either source, or a plain word, works with
 * both.  Reads and writes pair syscalls with io.stat's I/Os: the
 * nearest count each source has.
 */
static const struct skey {
	const char *name;
	int proc;		/* index of whorow.v, WV_PID */
	int cg;			/* enum ds_iostat_key */
} skeys[] = {
	{ "read", DS_WR_READ, 0 }, { "kB_rd/s", DS_WR_READ, 0 },
	{ "rkB/s", DS_WR_READ, 0 }, { "rbytes", DS_WR_READ, 0 },
	{ "write", DS_WR_WRITE, 1 }, { "kB_wr/s", DS_WR_WRITE, 1 },
	{ "wkB/s", DS_WR_WRITE, 1 }, { "wbytes", DS_WR_WRITE, 1 },
	{ "reads", DS_WR_SYSCR, 2 }, { "syscr/s", DS_WR_SYSCR, 2 },
	{ "r/s", DS_WR_SYSCR, 2 }, { "rios", DS_WR_SYSCR, 2 },
	{ "writes", DS_WR_SYSCW, 3 }, { "syscw/s", DS_WR_SYSCW, 3 },
	{ "w/s", DS_WR_SYSCW, 3 }, { "wios", DS_WR_SYSCW, 3 },
	{ "discard", WV_NONE, 4 }, { "dkB/s", WV_NONE, 4 },
	{ "dbytes", WV_NONE, 4 }, { "discards", WV_NONE, 5 },
	{ "d/s", WV_NONE, 5 }, { "dios", WV_NONE, 5 },
	{ "cancelled", DS_WR_CANCELLED, WV_NONE },
	{ "kB_ccwr/s", DS_WR_CANCELLED, WV_NONE },
	{ "rchar", DS_WR_RCHAR, WV_NONE },
	{ "kB_rchar/s", DS_WR_RCHAR, WV_NONE },
	{ "wchar", DS_WR_WCHAR, WV_NONE },
	{ "kB_wchar/s", DS_WR_WCHAR, WV_NONE },
	{ "hit", WV_HIT, WV_NONE }, { "hit%", WV_HIT, WV_NONE },
	{ "iodelay", DS_WR_DELAY, WV_NONE },
	{ "%iodelay", DS_WR_DELAY, WV_NONE },
	{ "io", WV_TOTAL, WV_NONE }, { "pid", WV_PID, WV_NONE },
};

int
who_sort_key(const char *name, int *proc, int *cg)
{
	size_t i;

	for (i = 0; i < nitems(skeys); i++)
		if (strcmp(name, skeys[i].name) == 0) {
			*proc = skeys[i].proc;
			*cg = skeys[i].cg;
			return 0;
		}
	return -ENOENT;
}

int
who_key(const char *name, int iostat, int *key, const char **why)
{
	int proc, cg;

	if (who_sort_key(name, &proc, &cg) < 0) {
		*why = "not a sort key (read write reads writes discard "
		    "discards cancelled rchar wchar hit iodelay io pid, or a "
		    "column name)";
		return -ENOENT;
	}
	*key = iostat ? cg : proc;
	if (*key != WV_NONE)
		return 0;
	*why = iostat ? "not in io.stat (-G proc sums /proc/PID/io by "
	    "cgroup)" : "discards are counted only in io.stat (-g on a "
	    "kernel with the io controller)";
	return -ENOTSUP;
}

static int
has(const char *s, size_t len, const char *what)
{
	size_t n = strlen(what), i;

	for (i = 0; i + n <= len; i++)
		if (memcmp(s + i, what, n) == 0)
			return 1;
	return 0;
}

const char *
who_carrier(const char *comm, size_t len)
{
	size_t i;

	if (len > 4 && memcmp(comm, "loop", 4) == 0) {
		for (i = 4; i < len && comm[i] >= '0' && comm[i] <= '9'; i++)
			;
		if (i == len)
			return "loop";
	}
	if (len > 5 && memcmp(comm, "jbd2/", 5) == 0)
		return "journal";
	if (len > 8 && memcmp(comm, "kworker/", 8) == 0) {
		/* The work item follows a '+' (running) or '-' (last run). */
		for (i = 8; i < len && comm[i] != '+' && comm[i] != '-'; i++)
			;
		if (i < len && has(comm + i, len - i, "flush-"))
			return "flush";
		if (i < len && has(comm + i, len - i, "loop"))
			return "loop";
	}
	return NULL;
}

size_t
who_stable_len(const char *comm, size_t len)
{
	size_t i;

	if (len <= 8 || memcmp(comm, "kworker/", 8) != 0)
		return len;
	for (i = 8; i < len && comm[i] != '+' && comm[i] != '-'; i++)
		;
	return i;
}

/* Counters since the process started (WHOCOL_COUNTERS). */
static void
write_counters(struct ds_writer *w, const struct whocfg *c,
    const struct ds_proc *p)
{
	int i;

	for (i = 0; i < DS_WR_DELAY; i++)
		if (p->io_err == 0 && (p->io.have & (1u << io_field[i])))
			ds_w_u64(w, p->io.v[io_field[i]]);
		else
			ds_w_null(w);
	/* Field 42 is in clock ticks. */
	if (c->delay && p->have_blkio)
		ds_w_f(w, (double)p->blkio_ticks / (double)c->clk_tck);
	else
		ds_w_null(w);
}

/* The limit column: a cgroup's I/O limit, or nothing known. */
static void
write_limit(struct ds_writer *w, const char *limit)
{
	if (limit != NULL && *limit != '\0')
		ds_w_str(w, limit);
	else
		ds_w_null(w);
}

void
whorow_write(struct ds_writer *w, unsigned int how, const struct whocfg *c,
    struct ds_users *u, const struct ds_root *r, const struct whorow *rw,
    const char *limit, uint64_t now)
{
	const struct ds_proc *p = rw->p;
	char buf[80];
	const char *cmd;
	size_t len;
	int i;

	ds_w_time(w, now);
	if (how & WHOCOL_GROUP) {
		ds_w_str(w, rw->cgroup);
		ds_w_u64(w, rw->procs);
	} else {
		ds_w_u64(w, (uint64_t)p->tgid);
		if (how & WHOCOL_THREAD)
			ds_w_u64(w, (uint64_t)p->pid);
		ds_w_str(w, ds_user_name(u, r, p->uid));
		cmd = who_command(p, c->cmdline, buf, sizeof(buf), &len);
		/* A series keeps its name while a kworker changes work. */
		if (w->fmt == DS_FMT_PROM && !c->cmdline)
			len = who_stable_len(cmd, len);
		ds_w_strn(w, cmd, len);
	}
	if (how & WHOCOL_COUNTERS)
		write_counters(w, c, p);
	for (i = 0; !(how & WHOCOL_COUNTERS) && i < WHO_NV; i++)
		if (rw->have & (1u << vorder[i]))
			ds_w_f(w, rw->v[vorder[i]]);
		else
			ds_w_null(w);
	if (!(how & WHOCOL_GROUP)) {
		ds_w_str(w, who_carrier(p->comm, p->comm_len));
		ds_w_u64(w, p->starttime);
	} else
		write_limit(w, limit);
	(void)ds_w_row_end(w);
}

void
cgrow_write(struct ds_writer *w, const struct cgrow *rw, int rates,
    const char *limit, uint64_t now)
{
	int x;

	ds_w_time(w, now);
	ds_w_str(w, rw->cgroup);
	ds_w_str(w, rw->device);
	for (x = 0; x < DS_IOS_N; x++)
		if (!(rw->have & (1u << x)))
			ds_w_null(w);
		else if (!rates)
			ds_w_u64(w, rw->u[x]);
		else
			ds_w_f(w, rw->v[x]);
	write_limit(w, limit);
	(void)ds_w_row_end(w);
}
