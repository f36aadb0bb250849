/*
 * eBPF through bpf(2), without libbpf: maps, programs loaded with the
 * verifier's log on failure, attached to tracepoints through
 * perf_event_open(2), and the small assembler the programs are written
 * with (bpfasm.h).  Nothing is ever pinned: every object lives as long
 * as its file descriptors, so nothing stays in the kernel after the
 * process ends, however it ends.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

#include "internal.h"
#include "bpfasm.h"

void
ds_asm_init(struct ds_asm *a)
{
	memset(a, 0, sizeof(*a));
	memset(a->label, -1, sizeof(a->label));
}

void
ds_asm_free(struct ds_asm *a)
{
	free(a->ins);
	a->ins = NULL;
}

void
ds_asm_emit(struct ds_asm *a, struct bpf_insn in)
{
	if (a->error)
		return;
	if (a->n >= DS_ASM_MAX) {
		a->error = -E2BIG;
		return;
	}
	if (ds_grow(&a->ins, &a->cap, a->n + 1, sizeof(*a->ins)) < 0) {
		a->error = -ENOMEM;
		return;
	}
	a->ins[a->n++] = in;
}

int
ds_asm_label(struct ds_asm *a)
{
	if (a->nlabels == DS_ASM_LABELS) {
		a->error = -E2BIG;
		return 0;
	}
	return a->nlabels++;
}

void
ds_asm_here(struct ds_asm *a, int label)
{
	if (label >= 0 && label < a->nlabels)
		a->label[label] = (int)a->n;
}

static void
jmp(struct ds_asm *a, struct bpf_insn in, int label)
{
	if (a->nfix == nitems(a->fix)) {
		a->error = -E2BIG;
		return;
	}
	a->fix[a->nfix].at = a->n;
	a->fix[a->nfix++].label = label;
	ds_asm_emit(a, in);
}

void
ds_asm_jmp_i(struct ds_asm *a, int op, int reg, int32_t imm, int label)
{
	jmp(a, BI(BPF_JMP | op | BPF_K, reg, 0, 0, imm), label);
}

void
ds_asm_jmp_r(struct ds_asm *a, int op, int reg, int src, int label)
{
	jmp(a, BI(BPF_JMP | op | BPF_X, reg, src, 0, 0), label);
}

void
ds_asm_map(struct ds_asm *a, int reg, int fd)
{
	ds_asm_emit(a, BI(BPF_LD | BPF_DW | BPF_IMM, reg, BPF_PSEUDO_MAP_FD,
	    0, fd));
	ds_asm_emit(a, BI(0, 0, 0, 0, 0));
}

int
ds_asm_end(struct ds_asm *a)
{
	size_t i;
	long off;
	int l;

	if (a->error)
		return a->error;
	for (i = 0; i < a->nfix; i++) {
		l = a->fix[i].label;
		if (l < 0 || l >= a->nlabels || a->label[l] < 0)
			return -EINVAL;
		off = (long)a->label[l] - (long)a->fix[i].at - 1;
		if (off < -32768 || off > 32767)
			return -E2BIG;
		a->ins[a->fix[i].at].off = (int16_t)off;
	}
	return 0;
}

static long
sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

int
ds_bpf_map_create(unsigned int type, unsigned int key_size,
    unsigned int value_size, unsigned int max_entries, unsigned int flags,
    const char *name)
{
	union bpf_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = type;
	attr.key_size = key_size;
	attr.value_size = value_size;
	attr.max_entries = max_entries;
	attr.map_flags = flags;
	/* Names came in 4.15: older kernels refuse the attribute. */
	if (name != NULL)
		strncpy(attr.map_name, name, sizeof(attr.map_name) - 1);
	fd = sys_bpf(BPF_MAP_CREATE, &attr);
	if (fd < 0 && errno == EINVAL && name != NULL) {
		memset(attr.map_name, 0, sizeof(attr.map_name));
		fd = sys_bpf(BPF_MAP_CREATE, &attr);
	}
	return fd < 0 ? -errno : (int)fd;
}

static int
map_op(int cmd, int fd, const void *key, void *value, uint64_t flags)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = (uint32_t)fd;
	attr.key = (uint64_t)(uintptr_t)key;
	attr.value = (uint64_t)(uintptr_t)value;
	attr.flags = flags;
	return sys_bpf(cmd, &attr) < 0 ? -errno : 0;
}

int
ds_bpf_map_lookup(int fd, const void *key, void *value)
{
	return map_op(BPF_MAP_LOOKUP_ELEM, fd, key, value, 0);
}

int
ds_bpf_map_update(int fd, const void *key, const void *value, uint64_t flags)
{
	return map_op(BPF_MAP_UPDATE_ELEM, fd, key, (void *)value, flags);
}

int
ds_bpf_map_delete(int fd, const void *key)
{
	return map_op(BPF_MAP_DELETE_ELEM, fd, key, NULL, 0);
}

/* key NULL: the first key.  -ENOENT after the last. */
int
ds_bpf_map_next(int fd, const void *key, void *next)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = (uint32_t)fd;
	attr.key = (uint64_t)(uintptr_t)key;
	attr.next_key = (uint64_t)(uintptr_t)next;
	return sys_bpf(BPF_MAP_GET_NEXT_KEY, &attr) < 0 ? -errno : 0;
}

/*
 * BPF_MAP_LOOKUP_BATCH (5.6+): up to *count entries from where the
 * token in_batch left off (NULL: the first), their keys and values
 * (per-CPU values: ncpu each) into keys and values, the token to go on
 * from into out_batch (4 bytes for a hash map), the number had into
 * *count.  -ENOENT when the map is done: *count may still be above 0.
 */
int
ds_bpf_map_lookup_batch(int fd, const void *in_batch, void *out_batch,
    void *keys, void *values, uint32_t *count)
{
	union bpf_attr attr;
	long r;

	memset(&attr, 0, sizeof(attr));
	attr.batch.map_fd = (uint32_t)fd;
	attr.batch.in_batch = (uint64_t)(uintptr_t)in_batch;
	attr.batch.out_batch = (uint64_t)(uintptr_t)out_batch;
	attr.batch.keys = (uint64_t)(uintptr_t)keys;
	attr.batch.values = (uint64_t)(uintptr_t)values;
	attr.batch.count = *count;
	r = sys_bpf(BPF_MAP_LOOKUP_BATCH, &attr);
	*count = attr.batch.count;
	return r < 0 ? -errno : 0;
}

/*
 * Load without a log first (the verifier's log costs time and a failed
 * load with too small a log says ENOSPC, not why); on failure once
 * more with log (logsize bytes), so that the caller can say why.
 */
int
ds_bpf_prog_load(unsigned int type, const struct bpf_insn *ins, size_t n,
    const char *name, char *log, size_t logsize)
{
	union bpf_attr attr;
	long fd;
	int e;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = type;
	attr.insns = (uint64_t)(uintptr_t)ins;
	attr.insn_cnt = (uint32_t)n;
	attr.license = (uint64_t)(uintptr_t)"GPL";
	if (name != NULL)
		strncpy(attr.prog_name, name, sizeof(attr.prog_name) - 1);
	if ((fd = sys_bpf(BPF_PROG_LOAD, &attr)) >= 0)
		return (int)fd;
	e = -errno;
	if (log == NULL || logsize < 2 || (e != -EINVAL && e != -EACCES))
		return e;
	log[0] = '\0';
	attr.log_buf = (uint64_t)(uintptr_t)log;
	attr.log_size = (uint32_t)(logsize > UINT32_MAX >> 8 ?
	    UINT32_MAX >> 8 : logsize);
	attr.log_level = 1;
	if ((fd = sys_bpf(BPF_PROG_LOAD, &attr)) >= 0)
		return (int)fd;	/* passed this time: keep it */
	return e;
}

int
ds_bpf_prog_info(int fd, struct ds_bpf_prog_stats *st)
{
	struct bpf_prog_info info;
	union bpf_attr attr;

	memset(&info, 0, sizeof(info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = (uint32_t)fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (uint64_t)(uintptr_t)&info;
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr) < 0)
		return -errno;
	st->id = info.id;
	memcpy(st->name, info.name, sizeof(st->name) - 1);
	st->name[sizeof(st->name) - 1] = '\0';
	st->run_cnt = info.run_cnt;
	st->run_time_ns = info.run_time_ns;
	/*
	 * recursion_misses came in 5.12 and is filled since 6.7 for
	 * tracepoint programs; an older kernel fills less of the struct.
	 */
	st->have_misses = attr.info.info_len >=
	    offsetof(struct bpf_prog_info, recursion_misses) +
	    sizeof(info.recursion_misses);
	st->recursion_misses = info.recursion_misses;
	return 0;
}

/*
 * One perf event for the tracepoint, on CPU 0 for every process: a
 * tracepoint program attached to it runs for the tracepoint on any CPU.
 * Returns the event's fd (closing it detaches the program).
 */
int
ds_bpf_attach_tp(uint32_t tp_id, int prog_fd)
{
	struct perf_event_attr pa;
	long fd;

	memset(&pa, 0, sizeof(pa));
	pa.type = PERF_TYPE_TRACEPOINT;
	pa.size = sizeof(pa);
	pa.config = tp_id;
	pa.sample_period = 1;
	pa.wakeup_events = 1;
	fd = syscall(SYS_perf_event_open, &pa, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (ioctl((int)fd, PERF_EVENT_IOC_SET_BPF, prog_fd) < 0 ||
	    ioctl((int)fd, PERF_EVENT_IOC_ENABLE, 0) < 0) {
		int e = -errno;
		close((int)fd);
		return e;
	}
	return (int)fd;
}

/* Possible CPUs: the per-CPU values a lookup returns. */
int
ds_bpf_ncpus(void)
{
	struct ds_root r;
	struct ds_buf b = { 0 };
	const char *p;
	uint64_t lo, hi = 0;
	int e, n = 0;

	if ((e = ds_root_open(&r, "/")) < 0)
		return e;
	e = ds_read_file(&r, "sys/devices/system/cpu/possible", &b);
	ds_root_close(&r);
	if (e < 0) {
		ds_buf_free(&b);
		return e;
	}
	/* "0-3", "0", "0-1,4-7" */
	for (p = b.data; *p != '\0' && *p != '\n';) {
		if (ds_parse_u64(p, &p, &lo) < 0)
			break;
		hi = lo;
		if (*p == '-' && ds_parse_u64(p + 1, &p, &hi) < 0)
			break;
		if (hi >= lo && hi - lo < 65536)
			n += (int)(hi - lo + 1);
		if (*p == ',')
			p++;
		else
			break;
	}
	ds_buf_free(&b);
	return n > 0 ? n : -EINVAL;
}
