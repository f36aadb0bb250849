/*
 * Block latency in the kernel: four tracepoint programs written with
 * the assembler of bpfasm.h, fed with the field offsets of this
 * kernel's `format` files, counting into histograms (struct ds_lat)
 * per device, operation and phase:
 *
 *   block_bio_queue     the bio enters the block layer: Q, kept by
 *                       (disk, sector) with the submitter's tgid and
 *                       the bio's size
 *   block_rq_issue      the request goes to the driver: D, kept by
 *                       (disk, sector) with its Q, which is taken out
 *                       of the Q map; Q found: q2d
 *   block_rq_complete   D found: d2c; its Q: q2c (and who)
 *   block_bio_complete  bio-based devices (dm, md, zram), which have no
 *                       requests: Q found: q2c (and who)
 *
 * Partitions are mapped to their disk in the kernel (the devs map,
 * which is also the device filter).  Completions with no start are
 * counted, never guessed: requests issued before tracing began, a flush
 * request made by the flush machinery, a start aged out of its map
 * (ds_blklat_tend).
 * The histograms are per-CPU (summed when read) on machines of up to
 * PCPU_MAX CPUs: a program counts with plain adds, not locked ones.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "bpfasm.h"

/* Registers the programs keep across helper calls (r6-r9 survive). */
#define R_CTX 6
#define R_DEV 7		/* the whole disk's dev_t */
#define R_OP 8
#define R_VAL 9		/* the latency being counted, ns */

/* Stack slots (below the frame pointer r10). */
#define S_KEY (-16)	/* start key: see now_and_key */
#define S_HKEY (-24)	/* histogram key: dev, op * 4 + phase */
#define S_IDX (-28)	/* a u32 array index */
#define S_DIDX (-32)	/* the disk's first histogram (array histograms) */
#define S_NOW (-40)
#define S_WKEY (-48)	/* who key: dev, tgid */
#define S_QVAL (-64)	/* Q value: ns, tgid, nr_sector */
#define S_DVAL (-88)	/* D value: ns, then the Q value (ns 0: none) */

#define WHO_BYTES ((int)offsetof(struct ds_blklat_whoval, bytes))
#define WHO_COMM ((int)offsetof(struct ds_blklat_whoval, comm))

/*
 * The per-CPU counters.  Issues are counted so that completions never
 * seen can be found: those with a Q are q2d's count, the others here.
 */
enum { ST_UNMATCHED_D2C, ST_UNMATCHED_Q2C, ST_MAP_FULL, ST_ISSUE_NOQ, ST_N };

enum { M_DEVS, M_ISTART, M_QSTART, M_HIST, M_WHO, M_STATS, M_ZERO, M_N };

/*
 * Histograms per CPU up to this many CPUs: a plain add instead of a
 * locked one, for 2.2 KB per histogram and CPU.  Above, one value that
 * all CPUs count into atomically keeps the kernel memory in bounds.
 */
#define PCPU_MAX 16

/* Histograms of a disk: an operation's phases, for each operation. */
#define HIST_PER_DISK (DS_BLK_OPS * DS_BLK_PHASES)

static int
pcpu(const struct ds_blklat *b)
{
	return b->ncpu <= PCPU_MAX;
}

/* Is phase ph timed? */
static int
want(const struct ds_blklat *b, int ph)
{
	return (b->flags & DS_BLKLAT_PHASE(ph)) != 0;
}

/* Are bios' queue times kept (q2c or q2d)? */
static int
want_q(const struct ds_blklat *b)
{
	return want(b, DS_BLK_Q2C) || want(b, DS_BLK_Q2D);
}

static const char *const ops[DS_BLK_OPS] = {
	"read", "write", "discard", "flush"
};
static const char *const phases[DS_BLK_PHASES] = { "d2c", "q2c", "q2d" };

const char *
ds_blk_op_name(unsigned int op)
{
	return op < DS_BLK_OPS ? ops[op] : NULL;
}

const char *
ds_blk_phase_name(unsigned int ph)
{
	return ph < DS_BLK_PHASES ? phases[ph] : NULL;
}

/*
 * "d2c,q2c": the DS_BLKLAT_PHASE bits of a comma-separated list of
 * phase names into *flags; -EINVAL for an unknown or empty name.
 */
int
ds_blk_phases_parse(const char *list, unsigned int *flags)
{
	const char *p = list, *q;
	unsigned int ph;

	*flags = 0;
	do {
		q = strchr(p, ',');
		if (q == NULL)
			q = p + strlen(p);
		for (ph = 0; ph < DS_BLK_PHASES; ph++)
			if ((size_t)(q - p) == strlen(phases[ph]) &&
			    strncmp(p, phases[ph], (size_t)(q - p)) == 0)
				break;
		if (ph == DS_BLK_PHASES)
			return -EINVAL;
		*flags |= DS_BLKLAT_PHASE(ph);
		p = q + 1;
	} while (*q != '\0');
	return 0;
}

/*
 * A field the programs read, checked against the record: the kernel
 * takes a context read at any offset and returns garbage past the end,
 * refuses one below 8 or misaligned.
 */
static int
field(const struct ds_tpfmt *f, const char *name, uint32_t size, int array,
    uint32_t *off)
{
	const struct ds_tpfield *x = ds_tpfmt_field(f, name);

	if (x == NULL || x->data_loc || x->offset < 8 ||
	    x->offset + x->size > ds_tpfmt_size(f))
		return -EPROTO;
	if (array ? x->array < size || x->size != x->array :
	    x->size != size || x->offset % size != 0)
		return -EPROTO;
	*off = x->offset;
	return 0;
}

int
ds_blkev_layout(const struct ds_tpfmt *f, int want_comm, struct ds_blkev *ev)
{
	int e;

	memset(ev, 0, sizeof(*ev));
	ev->id = f->id;
	if ((e = field(f, "dev", 4, 0, &ev->dev)) < 0 ||
	    (e = field(f, "sector", 8, 0, &ev->sector)) < 0 ||
	    (e = field(f, "nr_sector", 4, 0, &ev->nr_sector)) < 0 ||
	    (e = field(f, "rwbs", 2, 1, &ev->rwbs)) < 0)
		return e;
	ev->rwbs_len = ds_tpfmt_field(f, "rwbs")->size;
	if (want_comm && (e = field(f, "comm", 16, 1, &ev->comm)) < 0)
		return e;
	return 0;
}

/* r0 = lookup(map, fp + slot) */
static void
lookup(struct ds_asm *a, int map, int slot)
{
	ds_asm_map(a, 1, map);
	ds_asm_emit(a, B_MOV_R(2, 10));
	ds_asm_emit(a, B_ALU_I(ADD, 2, slot));
	ds_asm_emit(a, B_CALL(BPF_FUNC_map_lookup_elem));
}

static void
xadd(struct ds_asm *a, int dst, int src, int off)
{
	ds_asm_emit(a, BI(BPF_STX | BPF_ATOMIC | BPF_DW, dst, src, off,
	    BPF_ADD));
}

/* A per-CPU counter of the stats map, plus one. */
static void
stat(struct ds_asm *a, const struct ds_blklat *b, int idx)
{
	int skip = ds_asm_label(a);

	ds_asm_emit(a, B_ST(W, 10, S_IDX, idx));
	lookup(a, b->map[M_STATS], S_IDX);
	ds_asm_jmp_i(a, BPF_JEQ, 0, 0, skip);
	ds_asm_emit(a, B_LDX(DW, 1, 0, 0));
	ds_asm_emit(a, B_ALU_I(ADD, 1, 1));
	ds_asm_emit(a, B_STX(DW, 0, 1, 0));
	ds_asm_here(a, skip);
}

/* *(u64 *)(dst + off) += src: atomic for a value all CPUs share. */
static void
add(struct ds_asm *a, int atomic, int dst, int src, int off)
{
	if (atomic) {
		xadd(a, dst, src, off);
		return;
	}
	ds_asm_emit(a, B_LDX(DW, 5, dst, off));
	ds_asm_emit(a, B_ALU_R(ADD, 5, src));
	ds_asm_emit(a, B_STX(DW, dst, 5, off));
}

/*
 * Count R_VAL into the struct ds_lat at r0: count, sum, max, bucket
 * (ds_lat_bucket unrolled: log2 by halving, then three bits more).
 * atomic: the value is shared by all CPUs; else it is this CPU's (the
 * per-CPU histograms), where a program runs alone
 * (the kernel runs no second tracing program on a CPU while one runs),
 * and plain adds do, without a locked instruction each.
 * Uses r1-r5; r0 kept.
 */
static void
lat_add(struct ds_asm *a, int atomic)
{
	int nomax = ds_asm_label(a), done = ds_asm_label(a), s;
	static const int step[] = { 32, 16, 8, 4, 2, 1 };
	size_t i;

	ds_asm_emit(a, B_MOV_I(1, 1));
	add(a, atomic, 0, 1, 0);
	add(a, atomic, 0, R_VAL, 8);
	ds_asm_emit(a, B_LDX(DW, 1, 0, 16));
	ds_asm_jmp_r(a, BPF_JGE, 1, R_VAL, nomax);
	ds_asm_emit(a, B_STX(DW, 0, R_VAL, 16));
	ds_asm_here(a, nomax);
	ds_asm_emit(a, B_MOV_R(1, R_VAL));
	ds_asm_jmp_i(a, BPF_JLT, 1, 2 * DS_LAT_SUB, done);
	ds_asm_emit(a, B_MOV_R(3, R_VAL));
	ds_asm_emit(a, B_MOV_I(2, 0));
	for (i = 0; i < sizeof(step) / sizeof(step[0]); i++) {
		s = ds_asm_label(a);
		ds_asm_emit(a, B_MOV_R(4, 3));
		ds_asm_emit(a, B_ALU_I(RSH, 4, step[i]));
		ds_asm_jmp_i(a, BPF_JEQ, 4, 0, s);
		ds_asm_emit(a, B_MOV_R(3, 4));
		ds_asm_emit(a, B_ALU_I(ADD, 2, step[i]));
		ds_asm_here(a, s);
	}
	/* r2 = e; r1 = (e - 2) * 8 + ((v >> (e - 3)) & 7) */
	ds_asm_emit(a, B_MOV_R(3, 2));
	ds_asm_emit(a, B_ALU_I(SUB, 3, 3));
	ds_asm_emit(a, B_ALU_R(RSH, 1, 3));
	ds_asm_emit(a, B_ALU_I(AND, 1, 7));
	ds_asm_emit(a, B_ALU_I(SUB, 2, 2));
	ds_asm_emit(a, B_ALU_I(LSH, 2, 3));
	ds_asm_emit(a, B_ALU_R(ADD, 1, 2));
	ds_asm_jmp_i(a, BPF_JLE, 1, DS_LAT_NB - 1, done);
	ds_asm_emit(a, B_MOV_I(1, DS_LAT_NB - 1));
	ds_asm_here(a, done);
	ds_asm_emit(a, B_ALU_I(LSH, 1, 3));
	ds_asm_emit(a, B_MOV_R(2, 0));
	ds_asm_emit(a, B_ALU_R(ADD, 2, 1));
	ds_asm_emit(a, B_MOV_I(1, 1));
	add(a, atomic, 2, 1, (int)offsetof(struct ds_lat, b));
}

/*
 * r0 = the entry of map at key slot, made from the zero value when
 * missing; jumps to out when it cannot be had (map full: counted).
 */
static void
find_or_make(struct ds_asm *a, const struct ds_blklat *b, int map, int slot,
    int out)
{
	int have = ds_asm_label(a), again = ds_asm_label(a);

	lookup(a, map, slot);
	ds_asm_jmp_i(a, BPF_JNE, 0, 0, have);
	ds_asm_emit(a, B_ST(W, 10, S_IDX, 0));
	lookup(a, b->map[M_ZERO], S_IDX);
	ds_asm_jmp_i(a, BPF_JEQ, 0, 0, out);
	ds_asm_emit(a, B_MOV_R(3, 0));
	ds_asm_map(a, 1, map);
	ds_asm_emit(a, B_MOV_R(2, 10));
	ds_asm_emit(a, B_ALU_I(ADD, 2, slot));
	ds_asm_emit(a, B_MOV_I(4, BPF_NOEXIST));
	ds_asm_emit(a, B_CALL(BPF_FUNC_map_update_elem));
	ds_asm_jmp_i(a, BPF_JEQ, 0, 0, again);
	ds_asm_jmp_i(a, BPF_JEQ, 0, -EEXIST, again);
	stat(a, b, ST_MAP_FULL);
	ds_asm_jmp_i(a, BPF_JA, 0, 0, out);
	ds_asm_here(a, again);
	lookup(a, map, slot);
	ds_asm_jmp_i(a, BPF_JEQ, 0, 0, out);
	ds_asm_here(a, have);
}

/*
 * R_VAL into this CPU's histogram of (R_DEV, R_OP, phase): in the array
 * at the disk's S_DIDX + R_OP * DS_BLK_PHASES + phase when the disks are
 * few (an array lookup is an add, a hash lookup hashes the key and
 * walks a bucket), else in the hash, made when first used.
 */
static void
hist(struct ds_asm *a, const struct ds_blklat *b, int phase)
{
	int out = ds_asm_label(a);

	if (b->harr) {
		ds_asm_emit(a, B_MOV_R(1, R_OP));
		ds_asm_emit(a, B_ALU_I(MUL, 1, DS_BLK_PHASES));
		ds_asm_emit(a, B_LDX(W, 2, 10, S_DIDX));
		ds_asm_emit(a, B_ALU_R(ADD, 1, 2));
		ds_asm_emit(a, B_ALU_I(ADD, 1, phase));
		ds_asm_emit(a, B_STX(W, 10, 1, S_IDX));
		lookup(a, b->map[M_HIST], S_IDX);
		ds_asm_jmp_i(a, BPF_JEQ, 0, 0, out);
		lat_add(a, !pcpu(b));
		ds_asm_here(a, out);
		return;
	}
	ds_asm_emit(a, B_STX(W, 10, R_DEV, S_HKEY));
	ds_asm_emit(a, B_MOV_R(1, R_OP));
	ds_asm_emit(a, B_ALU_I(LSH, 1, 2));
	ds_asm_emit(a, B_ALU_I(ADD, 1, phase));
	ds_asm_emit(a, B_STX(W, 10, 1, S_HKEY + 4));
	find_or_make(a, b, b->map[M_HIST], S_HKEY, out);
	lat_add(a, !pcpu(b));
	ds_asm_here(a, out);
}

/*
 * R_DEV = devs[ctx->dev] (its disk) and S_DIDX its disk's first
 * histogram, or to out for a device not traced.
 */
static void
filter(struct ds_asm *a, const struct ds_blklat *b, const struct ds_blkev *ev,
    int out)
{
	ds_asm_emit(a, B_MOV_R(R_CTX, 1));
	ds_asm_emit(a, B_LDX(W, 1, R_CTX, (int16_t)ev->dev));
	ds_asm_emit(a, B_STX(W, 10, 1, S_IDX));
	lookup(a, b->map[M_DEVS], S_IDX);
	ds_asm_jmp_i(a, BPF_JEQ, 0, 0, out);
	ds_asm_emit(a, B_LDX(W, R_DEV, 0, 0));
	if (b->harr) {
		ds_asm_emit(a, B_LDX(W, 1, 0, 4));
		ds_asm_emit(a, B_STX(W, 10, 1, S_DIDX));
	}
}

/*
 * R_DEV = ctx->dev of a request event (always its disk's), or to out
 * for a disk not traced: compared with each when they are few (most
 * events of a busy machine are other disks', and a compare costs less
 * than a lookup), else the devs map.
 */
static void
rq_filter(struct ds_asm *a, const struct ds_blklat *b,
    const struct ds_blkev *ev, int out)
{
	int ok = ds_asm_label(a), next;
	size_t i;

	if (b->nrq > DS_BLKLAT_RQ_INLINE) {
		filter(a, b, ev, out);
		return;
	}
	ds_asm_emit(a, B_MOV_R(R_CTX, 1));
	ds_asm_emit(a, B_LDX(W, R_DEV, R_CTX, (int16_t)ev->dev));
	for (i = 0; i < b->nrq; i++) {
		next = ds_asm_label(a);
		/*
		 * A 32-bit move zero-extends (a 64-bit one would extend
		 * the sign of a dev_t of major 2048 and above).
		 */
		ds_asm_emit(a, BI(BPF_ALU | BPF_MOV | BPF_K, 1, 0, 0,
		    (int32_t)b->rq[i]));
		ds_asm_jmp_r(a, BPF_JNE, R_DEV, 1, next);
		if (b->harr)
			ds_asm_emit(a, B_ST(W, 10, S_DIDX,
			    (int32_t)(i * HIST_PER_DISK)));
		ds_asm_jmp_i(a, BPF_JA, 0, 0, ok);
		ds_asm_here(a, next);
	}
	ds_asm_jmp_i(a, BPF_JA, 0, 0, out);
	ds_asm_here(a, ok);
}

/*
 * R_OP from rwbs: R W D, or a flush: "F" alone or before anything but
 * R W D (the flag PREFLUSH on a write is "FW..."; REQ_OP_FLUSH "FF",
 * "FN" on old kernels).  Anything else (zone and driver operations) to
 * out.  Read a byte at a time: the verifier refuses misaligned reads.
 */
static void
op(struct ds_asm *a, const struct ds_blkev *ev, int out)
{
	int notf = ds_asm_label(a), cls = ds_asm_label(a), done = ds_asm_label(a);
	int rd = ds_asm_label(a), wr = ds_asm_label(a), dc = ds_asm_label(a);

	ds_asm_emit(a, B_LDX(B, 1, R_CTX, (int16_t)ev->rwbs));
	ds_asm_jmp_i(a, BPF_JNE, 1, 'F', notf);
	ds_asm_emit(a, B_LDX(B, 1, R_CTX, (int16_t)(ev->rwbs + 1)));
	ds_asm_emit(a, B_MOV_I(R_OP, DS_BLK_FLUSH));
	ds_asm_jmp_i(a, BPF_JA, 0, 0, cls);
	ds_asm_here(a, notf);
	ds_asm_emit(a, B_MOV_I(R_OP, -1));
	ds_asm_here(a, cls);
	ds_asm_jmp_i(a, BPF_JEQ, 1, 'R', rd);
	ds_asm_jmp_i(a, BPF_JEQ, 1, 'W', wr);
	ds_asm_jmp_i(a, BPF_JEQ, 1, 'D', dc);
	ds_asm_jmp_i(a, BPF_JEQ, R_OP, -1, out);
	ds_asm_jmp_i(a, BPF_JA, 0, 0, done);
	ds_asm_here(a, rd);
	ds_asm_emit(a, B_MOV_I(R_OP, DS_BLK_READ));
	ds_asm_jmp_i(a, BPF_JA, 0, 0, done);
	ds_asm_here(a, wr);
	ds_asm_emit(a, B_MOV_I(R_OP, DS_BLK_WRITE));
	ds_asm_jmp_i(a, BPF_JA, 0, 0, done);
	ds_asm_here(a, dc);
	ds_asm_emit(a, B_MOV_I(R_OP, DS_BLK_DISCARD));
	ds_asm_here(a, done);
}

/*
 * S_NOW = ktime; S_KEY = the start's key, (sector_t)-1 as 0: with the
 * array histograms (few disks) 8 bytes, the sector with the disk's
 * S_DIDX in its top 7 bits (xor: one disk's keys never meet another's
 * below 2^57 sectors, 64 EiB), hashed and compared as one word; else
 * 16 bytes, (R_DEV, 0, sector).
 */
static void
now_and_key(struct ds_asm *a, const struct ds_blklat *b,
    const struct ds_blkev *ev)
{
	int ok = ds_asm_label(a);

	ds_asm_emit(a, B_CALL(BPF_FUNC_ktime_get_ns));
	ds_asm_emit(a, B_STX(DW, 10, 0, S_NOW));
	ds_asm_emit(a, B_LDX(DW, 1, R_CTX, (int16_t)ev->sector));
	/* A flush logs sector 0 at issue, (sector_t)-1 at completion. */
	ds_asm_jmp_i(a, BPF_JNE, 1, -1, ok);
	ds_asm_emit(a, B_MOV_I(1, 0));
	ds_asm_here(a, ok);
	if (b->harr) {
		ds_asm_emit(a, B_LDX(W, 2, 10, S_DIDX));
		ds_asm_emit(a, B_ALU_I(LSH, 2, 57));
		ds_asm_emit(a, B_ALU_R(XOR, 1, 2));
		ds_asm_emit(a, B_STX(DW, 10, 1, S_KEY));
		return;
	}
	ds_asm_emit(a, B_STX(W, 10, R_DEV, S_KEY));
	ds_asm_emit(a, B_ST(W, 10, S_KEY + 4, 0));
	ds_asm_emit(a, B_STX(DW, 10, 1, S_KEY + 8));
}

/* R_VAL = S_NOW - *(u64 *)r0 */
static void
since(struct ds_asm *a)
{
	ds_asm_emit(a, B_LDX(DW, R_VAL, 10, S_NOW));
	ds_asm_emit(a, B_LDX(DW, 1, 0, 0));
	ds_asm_emit(a, B_ALU_R(SUB, R_VAL, 1));
}

static void
delete(struct ds_asm *a, int map, int slot)
{
	ds_asm_map(a, 1, map);
	ds_asm_emit(a, B_MOV_R(2, 10));
	ds_asm_emit(a, B_ALU_I(ADD, 2, slot));
	ds_asm_emit(a, B_CALL(BPF_FUNC_map_delete_elem));
}

/* The Q value (16 bytes) at r0 + off to S_DVAL + 8; r0 kept. */
static void
q_copy(struct ds_asm *a, int off)
{
	ds_asm_emit(a, B_LDX(DW, 1, 0, off));
	ds_asm_emit(a, B_STX(DW, 10, 1, S_DVAL + 8));
	ds_asm_emit(a, B_LDX(DW, 1, 0, off + 8));
	ds_asm_emit(a, B_STX(DW, 10, 1, S_DVAL + 16));
}

/*
 * The Q value at r0 (ns, tgid, nr_sector) of this completion: q2c into
 * the histogram and, in who mode, into the submitter's entry with the
 * bytes completed.  To end.
 */
static void
q2c(struct ds_asm *a, const struct ds_blklat *b, int end)
{
	since(a);
	ds_asm_emit(a, B_STX(W, 10, R_DEV, S_WKEY));
	ds_asm_emit(a, B_LDX(W, 1, 0, 8));
	ds_asm_emit(a, B_STX(W, 10, 1, S_WKEY + 4));
	ds_asm_emit(a, B_LDX(W, 1, 0, 12));
	ds_asm_emit(a, B_STX(W, 10, 1, S_QVAL));
	hist(a, b, DS_BLK_Q2C);
	if (b->flags & DS_BLKLAT_WHO) {
		lookup(a, b->map[M_WHO], S_WKEY);
		ds_asm_jmp_i(a, BPF_JEQ, 0, 0, end);
		lat_add(a, 1);
		/* The bio's size when queued: a request may end in parts. */
		ds_asm_emit(a, B_LDX(W, 1, 10, S_QVAL));
		ds_asm_emit(a, B_ALU_I(LSH, 1, 9));
		xadd(a, 0, 1, WHO_BYTES);
	}
	ds_asm_jmp_i(a, BPF_JA, 0, 0, end);
}

/* The Q of this bio's completion (bio-based devices). */
static void
complete_q(struct ds_asm *a, const struct ds_blklat *b)
{
	int noq = ds_asm_label(a), end = ds_asm_label(a);

	lookup(a, b->map[M_QSTART], S_KEY);
	ds_asm_jmp_i(a, BPF_JEQ, 0, 0, noq);
	/* Copied out: the entry is deleted before q2c's helper calls. */
	q_copy(a, 0);
	delete(a, b->map[M_QSTART], S_KEY);
	ds_asm_emit(a, B_MOV_R(0, 10));
	ds_asm_emit(a, B_ALU_I(ADD, 0, S_DVAL + 8));
	q2c(a, b, end);
	ds_asm_here(a, noq);
	stat(a, b, ST_UNMATCHED_Q2C);
	ds_asm_here(a, end);
}

static void
epilogue(struct ds_asm *a, int out)
{
	ds_asm_here(a, out);
	ds_asm_emit(a, B_MOV_I(0, 0));
	ds_asm_emit(a, B_EXIT());
}

/*
 * The Q of this request into the D value at S_DVAL + 8 (ns 0: none),
 * q2d counted (and so the issue), the Q entry deleted: the completion
 * then needs one lookup.  A requeued request, issued again, keeps the
 * Q its first issue took.
 */
static void
issue_q(struct ds_asm *a, const struct ds_blklat *b)
{
	int noq = ds_asm_label(a), end = ds_asm_label(a);

	lookup(a, b->map[M_QSTART], S_KEY);
	ds_asm_jmp_i(a, BPF_JEQ, 0, 0, noq);
	q_copy(a, 0);
	since(a);
	delete(a, b->map[M_QSTART], S_KEY);
	/* Without q2d still counted: issues are what lost_completion needs. */
	if (want(b, DS_BLK_Q2D))
		hist(a, b, DS_BLK_Q2D);
	else
		stat(a, b, ST_ISSUE_NOQ);
	ds_asm_jmp_i(a, BPF_JA, 0, 0, end);
	ds_asm_here(a, noq);
	stat(a, b, ST_ISSUE_NOQ);
	ds_asm_emit(a, B_ST(DW, 10, S_DVAL + 8, 0));
	ds_asm_emit(a, B_ST(DW, 10, S_DVAL + 16, 0));
	if (want(b, DS_BLK_Q2C)) {
		lookup(a, b->map[M_ISTART], S_KEY);
		ds_asm_jmp_i(a, BPF_JEQ, 0, 0, end);
		ds_asm_emit(a, B_LDX(DW, 1, 0, 8));
		ds_asm_jmp_i(a, BPF_JEQ, 1, 0, end);
		ds_asm_emit(a, B_STX(DW, 10, 1, S_DVAL + 8));
		ds_asm_emit(a, B_LDX(DW, 1, 0, 16));
		ds_asm_emit(a, B_STX(DW, 10, 1, S_DVAL + 16));
	}
	ds_asm_here(a, end);
}

/*
 * The issue is stamped last, after the program's other work, so that
 * d2c holds as little of dlat's own time as can be.
 */
static void
prog_issue(struct ds_asm *a, const struct ds_blklat *b,
    const struct ds_blkev *ev)
{
	int out = ds_asm_label(a);

	rq_filter(a, b, ev, out);
	op(a, ev, out);
	if (!want_q(b)) {
		/*
		 * d2c alone: no queue time to find, one clock read; the
		 * issue counted (lost_completion's figure).
		 */
		stat(a, b, ST_ISSUE_NOQ);
		now_and_key(a, b, ev);
		ds_asm_emit(a, B_LDX(DW, 1, 10, S_NOW));
		ds_asm_emit(a, B_STX(DW, 10, 1, S_DVAL));
	} else {
		now_and_key(a, b, ev);
		issue_q(a, b);
		/* q2d alone: no D entry, no completion program. */
		if (!want(b, DS_BLK_D2C) && !want(b, DS_BLK_Q2C)) {
			epilogue(a, out);
			return;
		}
		ds_asm_emit(a, B_CALL(BPF_FUNC_ktime_get_ns));
		ds_asm_emit(a, B_STX(DW, 10, 0, S_DVAL));
	}
	ds_asm_map(a, 1, b->map[M_ISTART]);
	ds_asm_emit(a, B_MOV_R(2, 10));
	ds_asm_emit(a, B_ALU_I(ADD, 2, S_KEY));
	ds_asm_emit(a, B_MOV_R(3, 10));
	ds_asm_emit(a, B_ALU_I(ADD, 3, S_DVAL));
	ds_asm_emit(a, B_MOV_I(4, BPF_ANY));
	ds_asm_emit(a, B_CALL(BPF_FUNC_map_update_elem));
	/* Not kept (the hash is full): its completion will be unmatched. */
	ds_asm_jmp_i(a, BPF_JEQ, 0, 0, out);
	stat(a, b, ST_MAP_FULL);
	epilogue(a, out);
}

/* A request's dev is its disk's (partitions are bio events'). */
static void
prog_rq_complete(struct ds_asm *a, const struct ds_blklat *b,
    const struct ds_blkev *ev)
{
	int out = ds_asm_label(a), nod = ds_asm_label(a), end = ds_asm_label(a);

	rq_filter(a, b, ev, out);
	op(a, ev, out);
	now_and_key(a, b, ev);
	lookup(a, b->map[M_ISTART], S_KEY);
	ds_asm_jmp_i(a, BPF_JEQ, 0, 0, nod);
	if (want(b, DS_BLK_Q2C))
		q_copy(a, 8);
	since(a);
	delete(a, b->map[M_ISTART], S_KEY);
	if (want(b, DS_BLK_D2C))
		hist(a, b, DS_BLK_D2C);
	if (!want(b, DS_BLK_Q2C)) {
		ds_asm_jmp_i(a, BPF_JA, 0, 0, out);
	} else {
		ds_asm_emit(a, B_MOV_R(0, 10));
		ds_asm_emit(a, B_ALU_I(ADD, 0, S_DVAL + 8));
		ds_asm_emit(a, B_LDX(DW, 1, 0, 0));
		ds_asm_jmp_i(a, BPF_JEQ, 1, 0, end);
		q2c(a, b, out);
	}
	ds_asm_here(a, nod);
	stat(a, b, want(b, DS_BLK_D2C) ? ST_UNMATCHED_D2C : ST_UNMATCHED_Q2C);
	if (want(b, DS_BLK_Q2C) && want(b, DS_BLK_D2C)) {
		ds_asm_here(a, end);
		stat(a, b, ST_UNMATCHED_Q2C);
	} else if (want(b, DS_BLK_Q2C)) {
		ds_asm_jmp_i(a, BPF_JA, 0, 0, out);
		ds_asm_here(a, end);
		stat(a, b, ST_UNMATCHED_Q2C);
	}
	epilogue(a, out);
}

static void
prog_bio_complete(struct ds_asm *a, const struct ds_blklat *b,
    const struct ds_blkev *ev)
{
	int out = ds_asm_label(a);

	filter(a, b, ev, out);
	op(a, ev, out);
	now_and_key(a, b, ev);
	complete_q(a, b);
	epilogue(a, out);
}

/* Who: the submitter's entry made at its first bio, with its comm. */
static void
who_make(struct ds_asm *a, const struct ds_blklat *b,
    const struct ds_blkev *ev, int out)
{
	int i;

	ds_asm_emit(a, B_STX(W, 10, R_DEV, S_WKEY));
	ds_asm_emit(a, B_LDX(W, 1, 10, S_QVAL + 8));
	ds_asm_emit(a, B_STX(W, 10, 1, S_WKEY + 4));
	lookup(a, b->map[M_WHO], S_WKEY);
	ds_asm_jmp_i(a, BPF_JNE, 0, 0, out);
	find_or_make(a, b, b->map[M_WHO], S_WKEY, out);
	/* comm may sit at an odd offset (rwbs[9]): bytewise. */
	for (i = 0; i < 16; i++) {
		ds_asm_emit(a, B_LDX(B, 1, R_CTX, (int16_t)(ev->comm + i)));
		ds_asm_emit(a, B_STX(B, 0, 1, WHO_COMM + i));
	}
}

static void
prog_bio_queue(struct ds_asm *a, const struct ds_blklat *b,
    const struct ds_blkev *ev)
{
	int out = ds_asm_label(a);

	filter(a, b, ev, out);
	now_and_key(a, b, ev);
	ds_asm_emit(a, B_LDX(DW, 1, 10, S_NOW));
	ds_asm_emit(a, B_STX(DW, 10, 1, S_QVAL));
	/* The submitter and the size are for who mode alone. */
	if (b->flags & DS_BLKLAT_WHO) {
		ds_asm_emit(a, B_CALL(BPF_FUNC_get_current_pid_tgid));
		ds_asm_emit(a, B_ALU_I(RSH, 0, 32));
		ds_asm_emit(a, B_STX(W, 10, 0, S_QVAL + 8));
		ds_asm_emit(a, B_LDX(W, 1, R_CTX, (int16_t)ev->nr_sector));
		ds_asm_emit(a, B_STX(W, 10, 1, S_QVAL + 12));
	} else {
		ds_asm_emit(a, B_ST(DW, 10, S_QVAL + 8, 0));
	}
	ds_asm_map(a, 1, b->map[M_QSTART]);
	ds_asm_emit(a, B_MOV_R(2, 10));
	ds_asm_emit(a, B_ALU_I(ADD, 2, S_KEY));
	ds_asm_emit(a, B_MOV_R(3, 10));
	ds_asm_emit(a, B_ALU_I(ADD, 3, S_QVAL));
	ds_asm_emit(a, B_MOV_I(4, BPF_ANY));
	ds_asm_emit(a, B_CALL(BPF_FUNC_map_update_elem));
	if (b->flags & DS_BLKLAT_WHO)
		who_make(a, b, ev, out);
	epilogue(a, out);
}

static const struct {
	const char *event;
	void (*gen)(struct ds_asm *, const struct ds_blklat *,
	    const struct ds_blkev *);
	const char *name;
	int comm;		/* needs the comm field (who mode) */
	unsigned int phases;	/* loaded when one of these is timed */
} progs[DS_BLKLAT_PROGS] = {
	{ "block_bio_queue", prog_bio_queue, "dlat_bio_queue", 1,
	    DS_BLKLAT_PHASE(DS_BLK_Q2C) | DS_BLKLAT_PHASE(DS_BLK_Q2D) },
	{ "block_rq_issue", prog_issue, "dlat_rq_issue", 0, DS_BLKLAT_ALL },
	{ "block_rq_complete", prog_rq_complete, "dlat_rq_complete", 0,
	    DS_BLKLAT_PHASE(DS_BLK_D2C) | DS_BLKLAT_PHASE(DS_BLK_Q2C) },
	{ "block_bio_complete", prog_bio_complete, "dlat_bio_complete", 0,
	    DS_BLKLAT_PHASE(DS_BLK_Q2C) },
};

/* A start's key (now_and_key). */
static uint32_t
key_size(const struct ds_blklat *b)
{
	return b->harr ? 8 : 16;
}

/* The value of an issue: ns, then for q2c its Q value. */
static uint32_t
istart_size(const struct ds_blklat *b)
{
	return want(b, DS_BLK_Q2C) ? 24 : 8;
}

static int fail(struct ds_blklat *b, const char *what, int e);

/*
 * The histograms, once the disks are known.  Up to DS_BLKLAT_RQ_INLINE
 * disks an array, HIST_PER_DISK a disk (the request programs know the
 * disk's place from their compares, the others from the devs map);
 * above, a hash whose entries are made as used.  Per CPU up to
 * PCPU_MAX CPUs, else one value all CPUs add to atomically.
 */
static int
make_hist(struct ds_blklat *b)
{
	uint32_t vsz = sizeof(struct ds_lat);

	/* More disks added than ds_blklat_open was told of. */
	if (b->harr && b->nrq > DS_BLKLAT_RQ_INLINE)
		return fail(b, "devices", -EINVAL);
	if (b->harr)
		b->nhist = (uint32_t)(b->nrq * HIST_PER_DISK);
	if (b->nhist == 0)
		return fail(b, "devices", -ENODEV);
	b->map[M_HIST] = b->harr ? ds_bpf_map_create(pcpu(b) ?
	    BPF_MAP_TYPE_PERCPU_ARRAY : BPF_MAP_TYPE_ARRAY, 4, vsz, b->nhist,
	    0, "dlat_hist") : pcpu(b) ?
	    ds_bpf_map_create(BPF_MAP_TYPE_PERCPU_HASH, 8, vsz, b->nhist,
	    BPF_F_NO_PREALLOC, "dlat_hist") :
	    ds_bpf_map_create(BPF_MAP_TYPE_HASH, 8, vsz, b->nhist, 0,
	    "dlat_hist");
	return b->map[M_HIST] < 0 ? fail(b, "map create", b->map[M_HIST]) : 0;
}

/* Is program k loaded for the phases b times? */
static int
need(const struct ds_blklat *b, size_t k)
{
	return (b->flags & progs[k].phases) != 0;
}

static int
fail(struct ds_blklat *b, const char *what, int e)
{
	if (b->what == NULL)
		b->what = what;
	return e;
}

/*
 * The maps, sized for ndevs devices (disks and partitions) and
 * ndisks disks (the histograms are made with the programs).  Bios'
 * queue times are an LRU hash: a bio merged into a request never has
 * its own issue, and its start ages out instead of filling the map.
 * Requests' issue times are a plain hash, cheaper to update and delete
 * in (an LRU hash takes its lists' locks too): the only starts left
 * there are those whose completion the kernel skipped (a recursion
 * miss), and ds_blklat_tend takes them out.
 */
static int
make_maps(struct ds_blklat *b, size_t ndevs, size_t ndisks)
{
	uint32_t zero = 0;
	struct ds_blklat_whoval *z;
	int e;

	b->nhist = (uint32_t)(ndisks * HIST_PER_DISK);
	b->map[M_DEVS] = ds_bpf_map_create(BPF_MAP_TYPE_HASH, 4, 8,
	    (uint32_t)ndevs, 0, "dlat_devs");
	/* An issue holds its queue time only for q2c. */
	b->map[M_ISTART] = want(b, DS_BLK_D2C) || want(b, DS_BLK_Q2C) ?
	    ds_bpf_map_create(BPF_MAP_TYPE_HASH, key_size(b), istart_size(b),
	    DS_BLKLAT_STARTS, 0, "dlat_issue") : -EBADF;
	b->map[M_QSTART] = want_q(b) ? ds_bpf_map_create(BPF_MAP_TYPE_LRU_HASH,
	    key_size(b), 16, DS_BLKLAT_STARTS, 0, "dlat_queue") : -EBADF;
	b->map[M_WHO] = (b->flags & DS_BLKLAT_WHO) ?
	    ds_bpf_map_create(BPF_MAP_TYPE_HASH, 8,
	    sizeof(struct ds_blklat_whoval), DS_BLKLAT_WHO_MAX,
	    BPF_F_NO_PREALLOC, "dlat_who") : -EBADF;
	b->map[M_STATS] = ds_bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, 4, 8,
	    ST_N, 0, "dlat_stats");
	b->map[M_ZERO] = ds_bpf_map_create(BPF_MAP_TYPE_ARRAY, 4,
	    sizeof(struct ds_blklat_whoval), 1, 0, "dlat_zero");
	for (e = 0; e < M_N; e++)
		if (e != M_HIST && b->map[e] < 0 && b->map[e] != -EBADF)
			return fail(b, "map create", b->map[e]);
	/* The zero value, written from here: the stack is too small. */
	if ((z = calloc(1, sizeof(*z))) == NULL)
		return -ENOMEM;
	e = ds_bpf_map_update(b->map[M_ZERO], &zero, z, BPF_ANY);
	free(z);
	return e < 0 ? fail(b, "map update", e) : 0;
}

void
ds_blklat_init(struct ds_blklat *b)
{
	size_t i;

	memset(b, 0, sizeof(*b));
	for (i = 0; i < M_N; i++)
		b->map[i] = -1;
	for (i = 0; i < DS_BLKLAT_PROGS; i++)
		b->prog[i] = b->link[i] = -1;
}

/* Can this process use bpf(2) at all?  A tiny map says. */
int
ds_blklat_probe(void)
{
	int fd = ds_bpf_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 1, 0, NULL);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

int
ds_blklat_open(struct ds_blklat *b, unsigned int flags, size_t ndevs,
    size_t ndisks)
{
	struct ds_buf scratch = { 0 };
	struct ds_tpfmt f;
	size_t i;
	int e;

	if ((flags & DS_BLKLAT_ALL) == 0)
		flags |= DS_BLKLAT_ALL;
	/* Who is q2c's. */
	if ((flags & DS_BLKLAT_WHO) && !(flags & DS_BLKLAT_PHASE(DS_BLK_Q2C)))
		return fail(b, "who", -EINVAL);
	b->flags = flags;
	/* Few disks: array histograms and one-word start keys. */
	b->harr = ndisks <= DS_BLKLAT_RQ_INLINE;
	if ((b->ncpu = ds_bpf_ncpus()) < 0)
		return fail(b, "sys/devices/system/cpu/possible", b->ncpu);
	if (ndevs == 0 || ndisks == 0)
		return fail(b, "devices", -ENODEV);
	if ((e = ds_tracefs_find(&b->tfs)) < 0)
		return fail(b, "tracefs", e);
	for (i = 0; i < DS_BLKLAT_PROGS; i++) {
		if (!need(b, i))
			continue;
		if ((e = ds_tpfmt_read(&b->tfs, "block", progs[i].event,
		    &scratch, &f)) < 0 ||
		    (e = ds_blkev_layout(&f, progs[i].comm &&
		    (flags & DS_BLKLAT_WHO), &b->ev[i])) < 0) {
			ds_buf_free(&scratch);
			return fail(b, progs[i].event, e);
		}
	}
	ds_buf_free(&scratch);
	return make_maps(b, ndevs, ndisks);
}

/*
 * The programs, assembled and loaded once the disks are known (a few
 * are compared in the request programs themselves, cheaper than a
 * hash lookup for the other disks' events).
 */
static int
load_progs(struct ds_blklat *b)
{
	struct ds_asm a;
	size_t i;
	int e;

	if ((e = make_hist(b)) < 0)
		return e;
	for (i = 0; i < DS_BLKLAT_PROGS; i++) {
		if (!need(b, i))
			continue;
		ds_asm_init(&a);
		progs[i].gen(&a, b, &b->ev[i]);
		if ((e = ds_asm_end(&a)) < 0) {
			ds_asm_free(&a);
			return fail(b, "assembler", e);
		}
		if (b->log == NULL)
			b->log = malloc(DS_BLKLAT_LOG);
		e = ds_bpf_prog_load(BPF_PROG_TYPE_TRACEPOINT, a.ins, a.n,
		    progs[i].name, b->log, b->log ? DS_BLKLAT_LOG : 0);
		b->insns[i] = a.n;
		ds_asm_free(&a);
		if (e < 0)
			return fail(b, progs[i].name, e);
		b->prog[i] = e;
	}
	free(b->log);
	b->log = NULL;
	return 0;
}

/*
 * Trace dev (a disk or partition, ds_kdev) as disk: devs[dev] is the
 * disk and its first histogram in the array (only used when the disks
 * are few enough for one).  Before the programs are loaded.
 */
static int
ds_blklat_dev(struct ds_blklat *b, uint32_t dev, uint32_t disk)
{
	size_t i, n = b->nrq < DS_BLKLAT_RQ_INLINE ? b->nrq :
	    DS_BLKLAT_RQ_INLINE;
	uint32_t v[2];

	/* Above DS_BLKLAT_RQ_INLINE only counted: the programs use devs. */
	for (i = 0; i < n && b->rq[i] != disk; i++)
		;
	if (i == n && (b->nrq >= DS_BLKLAT_RQ_INLINE || i == b->nrq)) {
		if (b->nrq < DS_BLKLAT_RQ_INLINE)
			b->rq[b->nrq] = disk;
		b->nrq++;
	}
	v[0] = disk;
	v[1] = (uint32_t)(i * HIST_PER_DISK);
	return ds_bpf_map_update(b->map[M_DEVS], &dev, v, BPF_ANY);
}

/* Completions first: a start is never kept without its end attached. */
int
ds_blklat_attach(struct ds_blklat *b)
{
	static const int order[] = { 3, 2, 1, 0 };
	size_t i;
	int e, k;

	if (b->prog[1] < 0 && b->prog[2] < 0 && (e = load_progs(b)) < 0)
		return e;
	for (i = 0; i < DS_BLKLAT_PROGS; i++) {
		k = order[i];
		if (b->prog[k] < 0)
			continue;
		if ((e = ds_bpf_attach_tp(b->ev[k].id, b->prog[k])) < 0)
			return fail(b, progs[k].event, e);
		b->link[k] = e;
	}
	return 0;
}

void
ds_blklat_close(struct ds_blklat *b)
{
	size_t i;

	for (i = 0; i < DS_BLKLAT_PROGS; i++) {
		if (b->link[i] >= 0)
			close(b->link[i]);
		if (b->prog[i] >= 0)
			close(b->prog[i]);
		b->link[i] = b->prog[i] = -1;
	}
	for (i = 0; i < M_N; i++) {
		if (b->map[i] >= 0)
			close(b->map[i]);
		b->map[i] = -1;
	}
	free(b->log);
	b->log = NULL;
	free(b->rbuf);
	b->rbuf = NULL;
	free(b->tbuf);
	b->tbuf = NULL;
	b->tcap = 0;
}

static int grow(void **p, size_t *cap, size_t n, size_t size);

int
ds_blklat_starts_fd(const struct ds_blklat *b)
{
	return b->map[M_ISTART];
}

/* An issue start as ds_blklat_tend reads it. */
struct tstart {
	uint64_t ns;
	uint32_t key[4];
};

static int
cmp_tstart(const void *x, const void *y)
{
	const struct tstart *a = x, *b = y;

	return (a->ns > b->ns) - (a->ns < b->ns);
}

/*
 * A key at a time: the map holds the requests in flight, a few dozen
 * as a rule, and this runs every DS_BLKLAT_TEND_NS.  The oldest go
 * first, the stale by age, then down to a quarter of the map when it
 * is over half full (so a request just issued always finds room).
 */
int
ds_blklat_tend(struct ds_blklat *b)
{
	int fd = b->map[M_ISTART];
	uint32_t key[4], next[4];
	uint64_t val[3], now;
	struct tstart *t;
	struct timespec ts;
	size_t n = 0, i, drop;
	int e;

	if (fd < 0 || clock_gettime(CLOCK_MONOTONIC, &ts) < 0)
		return 0;
	now = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	if (now < b->tend_next)
		return 0;
	b->tend_next = now + DS_BLKLAT_TEND_NS;
	/*
	 * A key that is never there gives the first (see read_hist): all
	 * ones is dev 0xffffffff, or a sector above 2^57.
	 */
	memset(key, 0xff, sizeof(key));
	while ((e = ds_bpf_map_next(fd, key, next)) == 0) {
		memcpy(key, next, sizeof(key));
		if ((e = ds_bpf_map_lookup(fd, key, val)) == -ENOENT)
			continue;
		if (e < 0)
			return e;
		if ((e = grow(&b->tbuf, &b->tcap, n, sizeof(*t))) < 0)
			return e;
		t = (struct tstart *)b->tbuf + n++;
		t->ns = val[0];
		memcpy(t->key, key, sizeof(key));
	}
	if (e != -ENOENT)
		return e;
	if (n > 1)
		qsort(b->tbuf, n, sizeof(*t), cmp_tstart);
	t = b->tbuf;
	drop = n > DS_BLKLAT_STARTS / 2 ? n - DS_BLKLAT_STARTS / 4 : 0;
	for (i = 0; i < n && (i < drop || t[i].ns + DS_BLKLAT_STALE_NS < now);
	    i++)
		if ((e = ds_bpf_map_delete(fd, t[i].key)) < 0 && e != -ENOENT)
			return e;
	return 0;
}

static int
cmp_row(const void *x, const void *y)
{
	const struct ds_blklat_row *a = x, *b = y;

	if (a->dev != b->dev)
		return a->dev < b->dev ? -1 : 1;
	if (a->op != b->op)
		return a->op < b->op ? -1 : 1;
	return (a->phase > b->phase) - (a->phase < b->phase);
}

static int
cmp_who(const void *x, const void *y)
{
	const struct ds_blklat_who *a = x, *b = y;

	if (a->dev != b->dev)
		return a->dev < b->dev ? -1 : 1;
	return (a->pid > b->pid) - (a->pid < b->pid);
}

static int
grow(void **p, size_t *cap, size_t n, size_t size)
{
	void *q;
	size_t c;

	if (n < *cap)
		return 0;
	c = *cap ? *cap * 2 : 16;
	if ((q = realloc(*p, c * size)) == NULL)
		return -ENOMEM;
	*p = q;
	*cap = c;
	return 0;
}

/* A histogram read (the values of its CPUs at pc) into s's next row. */
static int
add_row(struct ds_blklat_snap *s, const uint32_t *key,
    const struct ds_lat *pc, int nc, struct ds_lat *h)
{
	struct ds_blklat_row *r;
	int e, c;

	if (key[1] >> 2 >= DS_BLK_OPS || (key[1] & 3) >= DS_BLK_PHASES)
		return 0;
	if (nc > 1) {
		*h = pc[0];
		for (c = 1; c < nc; c++)
			ds_lat_merge(h, &pc[c]);
		pc = h;
	}
	/* An array's histogram never counted into (or a hash entry just made). */
	if (pc->count == 0)
		return 0;
	if ((e = grow((void **)&s->r, &s->cap, s->n, sizeof(*s->r))) < 0)
		return e;
	r = &s->r[s->n];
	if ((e = ds_blklat_row_set(s, r, pc)) < 0)
		return e;
	s->n++;
	r->dev = key[0];
	r->op = key[1] >> 2;
	r->phase = key[1] & 3;
	if (r->phase == DS_BLK_Q2D)
		s->issued += r->count;
	return 0;
}

/*
 * A bucket's count in the snapshot: LEB128, 7 bits a byte, the high
 * bit on all but the last (most counts of an interval's histograms
 * take one or two bytes of eight: 100 busy disks' two snapshots, 250
 * KB of whole counts from the first to the last bucket, take 60 KB).
 */
static size_t
put_var(unsigned char *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (unsigned char)v;
	return n;
}

int
ds_blklat_row_set(struct ds_blklat_snap *s, struct ds_blklat_row *r,
    const struct ds_lat *h)
{
	unsigned int first, last, i;
	uint64_t top;
	size_t c, need;
	unsigned char *q;

	r->count = h->count;
	r->sum_ns = h->sum_ns;
	r->max_ns = h->max_ns;
	r->first = r->nb = 0;
	r->off = s->nbk;
	if (ds_lat_span(h, &first, &last, &top) < 0)
		return 0;
	need = s->nbk + (size_t)(last - first + 1) * 10;
	if (need > s->capbk) {
		c = s->capbk ? s->capbk : 4096;
		while (c < need)
			c *= 2;
		if ((q = realloc(s->bk, c)) == NULL)
			return -ENOMEM;
		s->bk = q;
		s->capbk = c;
	}
	r->first = first;
	r->nb = last - first + 1;
	for (i = first; i <= last; i++)
		s->nbk += put_var(s->bk + s->nbk, h->b[i]);
	return 0;
}

void
ds_blklat_row_lat(const struct ds_blklat_snap *s,
    const struct ds_blklat_row *r, struct ds_lat *h)
{
	const unsigned char *p = s->bk + r->off, *end = s->bk + s->nbk;
	unsigned int i, sh;
	uint64_t v;

	memset(h, 0, sizeof(*h));
	h->count = r->count;
	h->sum_ns = r->sum_ns;
	h->max_ns = r->max_ns;
	if (r->nb == 0 || r->first + r->nb > DS_LAT_NB)
		return;
	for (i = r->first; i < r->first + r->nb && p < end; i++) {
		v = 0;
		sh = 0;
		while (p < end && (*p & 0x80) && sh < 63) {
			v |= (uint64_t)(*p++ & 0x7f) << sh;
			sh += 7;
		}
		if (p < end)
			v |= (uint64_t)*p++ << sh;
		h->b[i] = v;
	}
}

void
ds_blklat_delta(const struct ds_blklat_snap *prev,
    const struct ds_blklat_snap *cur, const struct ds_blklat_row *r,
    struct ds_lat *out)
{
	const struct ds_blklat_row *p = ds_blklat_find(prev, r);
	struct ds_lat a, c;

	/* Nothing new (most histograms of most intervals): no buckets. */
	if (p != NULL && p->count == r->count && p->sum_ns == r->sum_ns) {
		memset(out, 0, sizeof(*out));
		return;
	}
	if (p == NULL) {
		ds_blklat_row_lat(cur, r, out);
		return;
	}
	ds_blklat_row_lat(cur, r, &c);
	ds_blklat_row_lat(prev, p, &a);
	ds_lat_delta(&a, &c, out);
}

/* Histogram i of the array (its values at v) into s, when timed. */
static int
array_row(struct ds_blklat *b, struct ds_blklat_snap *s, uint32_t i,
    const struct ds_lat *v, int nc)
{
	uint32_t key[2], ph = i % DS_BLK_PHASES;

	if (i >= b->nhist || !want(b, (int)ph))
		return 0;
	key[0] = b->rq[i / HIST_PER_DISK];
	key[1] = i % HIST_PER_DISK / DS_BLK_PHASES << 2 | ph;
	return add_row(s, key, v, nc, &b->rlat);
}

/*
 * The array's histograms (few disks): BPF_MAP_LOOKUP_BATCH, as many as
 * rbuf holds a call; one at a time before Linux 5.6.
 */
static int
read_hist_array(struct ds_blklat *b, struct ds_blklat_snap *s, int nc)
{
	size_t vsz = (size_t)nc * sizeof(struct ds_lat);
	uint32_t *keys = (uint32_t *)((char *)b->rbuf + b->rmax * vsz);
	uint32_t tok[2], cnt, i;
	int e, t = 0, first = 1;

	while (!b->nobatch) {
		cnt = b->rmax;
		e = ds_bpf_map_lookup_batch(b->map[M_HIST], first ? NULL :
		    &tok[t], &tok[!t], keys, b->rbuf, &cnt);
		if (first && (e == -EINVAL || e == -ENOTSUP || e == -524)) {
			b->nobatch = 1;
			break;
		}
		if (e < 0 && e != -ENOENT)
			return e;
		for (i = 0; i < cnt; i++)
			if ((e = array_row(b, s, keys[i], (struct ds_lat *)
			    ((char *)b->rbuf + i * vsz), nc)) < 0)
				return e;
		if (e == -ENOENT || cnt == 0)
			return 0;
		first = 0;
		t = !t;
	}
	for (i = 0; i < b->nhist; i++)
		if ((e = ds_bpf_map_lookup(b->map[M_HIST], &i, b->rbuf)) < 0 ||
		    (e = array_row(b, s, i, b->rbuf, nc)) < 0)
			return e;
	return 0;
}

/* A key at a time (kernels before 5.6): two calls a histogram. */
static int
read_hist_keys(struct ds_blklat *b, struct ds_blklat_snap *s, int nc)
{
	/*
	 * Dev 0 is never traced: a key not in a hash map gives its first
	 * (a NULL key would too, but valgrind takes it for a bad pointer).
	 */
	uint32_t key[2] = { 0, 0 }, next[2];
	struct ds_lat *pc = b->rbuf;
	int e;

	while ((e = ds_bpf_map_next(b->map[M_HIST], key, next)) == 0) {
		memcpy(key, next, sizeof(key));
		if ((e = ds_bpf_map_lookup(b->map[M_HIST], key, pc)) == -ENOENT)
			continue;
		if (e < 0 || (e = add_row(s, key, pc, nc, &b->rlat)) < 0)
			return e;
	}
	return e == -ENOENT ? 0 : e;
}

/*
 * The histograms, each the sum of its CPUs' when the map is per-CPU:
 * BPF_MAP_LOOKUP_BATCH, some 64 KiB of them a call (a report of 100
 * busy disks made 600 calls a key at a time, most of its CPU time).
 */
static int
read_hist(struct ds_blklat *b, struct ds_blklat_snap *s)
{
	uint32_t tok[2][2], cnt, i, *keys;
	int e, r, nc = pcpu(b) ? b->ncpu : 1, t = 0, first = 1;
	size_t vsz = (size_t)nc * sizeof(struct ds_lat);
	struct ds_lat *v;

	s->n = 0;
	s->nbk = 0;
	s->issued = 0;
	if (b->rbuf == NULL) {
		b->rmax = (uint32_t)(65536 / vsz) + 1;
		/* Zeroed: valgrind knows no BPF_MAP_LOOKUP_BATCH writes. */
		if ((b->rbuf = calloc(b->rmax, vsz + 8)) == NULL)
			return -ENOMEM;
	}
	v = b->rbuf;
	keys = (uint32_t *)((char *)b->rbuf + b->rmax * vsz);
	if (b->harr)
		e = read_hist_array(b, s, nc);
	else if (b->nobatch)
		e = read_hist_keys(b, s, nc);
	else for (;;) {
		cnt = b->rmax;
		e = ds_bpf_map_lookup_batch(b->map[M_HIST], first ? NULL :
		    tok[t], tok[!t], keys, v, &cnt);
		if (first && (e == -EINVAL || e == -ENOTSUP || e == -524)) {
			/* No batches (524: the kernel's ENOTSUPP). */
			b->nobatch = 1;
			e = read_hist_keys(b, s, nc);
			break;
		}
		if (e == -ENOSPC && cnt == 0) {
			/* A hash bucket holds more than rbuf: a larger one. */
			void *q = realloc(b->rbuf, 2 * b->rmax * (vsz + 8));

			if (q == NULL)
				return -ENOMEM;
			memset((char *)q + b->rmax * (vsz + 8), 0,
			    b->rmax * (vsz + 8));
			b->rbuf = q;
			b->rmax *= 2;
			v = b->rbuf;
			keys = (uint32_t *)((char *)b->rbuf + b->rmax * vsz);
			continue;
		}
		if (e < 0 && e != -ENOENT)
			break;
		if (e == 0 && cnt == 0) {
			/* Never from a hash map; a loop for ever if it were. */
			e = -EIO;
			break;
		}
		for (i = 0; i < cnt; i++)
			if ((r = add_row(s, keys + 2 * i,
			    (struct ds_lat *)((char *)v + i * vsz), nc,
			    &b->rlat)) < 0)
				return r;
		if (e == -ENOENT)
			break;
		first = 0;
		t = !t;
	}
	if (e < 0 && e != -ENOENT)
		return e;
	if (s->n > 1)	/* qsort of NULL, even of none, is undefined */
		qsort(s->r, s->n, sizeof(*s->r), cmp_row);
	return 0;
}

static int
read_who(struct ds_blklat *b, struct ds_blklat_snap *s)
{
	struct ds_blklat_whoval v;
	uint32_t key[2] = { 0, 0 }, next[2];	/* dev 0: see read_hist */
	struct ds_blklat_who *w;
	int e;

	s->nw = 0;
	if (!(b->flags & DS_BLKLAT_WHO))
		return 0;
	while ((e = ds_bpf_map_next(b->map[M_WHO], key, next)) == 0) {
		memcpy(key, next, sizeof(key));
		if ((e = ds_bpf_map_lookup(b->map[M_WHO], key, &v)) == -ENOENT)
			continue;
		if (e < 0)
			return e;
		if ((e = grow((void **)&s->w, &s->capw, s->nw,
		    sizeof(*s->w))) < 0)
			return e;
		w = &s->w[s->nw++];
		w->dev = key[0];
		w->pid = key[1];
		memcpy(w->comm, v.comm, sizeof(w->comm));
		w->comm[sizeof(w->comm) - 1] = '\0';
		w->bytes = v.bytes;
		w->h = v.h;
	}
	if (e != -ENOENT)
		return e;
	if (s->nw > 1)
		qsort(s->w, s->nw, sizeof(*s->w), cmp_who);
	return 0;
}

/* The counters of everything counted so far (they only grow). */
static int
ds_blklat_read(struct ds_blklat *b, struct ds_blklat_snap *s)
{
	struct ds_bpf_prog_stats st;
	uint64_t *v;
	uint32_t i;
	size_t k;
	int e, c;

	if ((e = read_hist(b, s)) < 0 || (e = read_who(b, s)) < 0)
		return e;
	memset(s->miss, 0, sizeof(s->miss));
	if ((v = calloc((size_t)b->ncpu, sizeof(*v))) == NULL)
		return -ENOMEM;
	for (i = 0; i < ST_N; i++) {
		if ((e = ds_bpf_map_lookup(b->map[M_STATS], &i, v)) < 0)
			break;
		for (c = 0; c < b->ncpu; c++)
			*(i == ST_ISSUE_NOQ ? &s->issued :
			    i == ST_UNMATCHED_D2C ? &s->miss[DS_MISS_UNMATCHED_D2C] :
			    i == ST_UNMATCHED_Q2C ? &s->miss[DS_MISS_UNMATCHED_Q2C] :
			    &s->miss[DS_MISS_MAP_FULL]) += v[c];
	}
	free(v);
	if (e < 0)
		return e;
	s->have_recursion = 1;
	for (k = 0; k < DS_BLKLAT_PROGS; k++) {
		if (b->prog[k] < 0)
			continue;
		if ((e = ds_bpf_prog_info(b->prog[k], &st)) < 0)
			return e;
		s->miss[DS_MISS_RECURSION] += st.recursion_misses;
		s->have_recursion &= st.have_misses;
		s->run_cnt[k] = st.run_cnt;
		s->run_time_ns[k] = st.run_time_ns;
	}
	return 0;
}

void
ds_blklat_snap_free(struct ds_blklat_snap *s)
{
	free(s->r);
	free(s->bk);
	free(s->w);
	memset(s, 0, sizeof(*s));
}

/* prev's row of the same key as r, or NULL; both sorted. */
const struct ds_blklat_row *
ds_blklat_find(const struct ds_blklat_snap *prev,
    const struct ds_blklat_row *r)
{
	const struct ds_blklat_row *p;

	if (prev == NULL || prev->n == 0)
		return NULL;
	p = bsearch(r, prev->r, prev->n, sizeof(*prev->r), cmp_row);
	return p;
}

static const struct ds_blklat_who *
ds_blklat_find_who(const struct ds_blklat_snap *prev,
    const struct ds_blklat_who *w)
{
	if (prev == NULL || prev->nw == 0)
		return NULL;
	return bsearch(w, prev->w, prev->nw, sizeof(*prev->w), cmp_who);
}

/* MKDEV of the kernel (20 bits of minor), as tracepoints log dev_t. */
static uint32_t
ds_kdev(unsigned int major, unsigned int minor)
{
	return (uint32_t)major << 20 | (minor & 0xfffff);
}

/* "8:0\n" of sys/block/DISK[/PART]/dev */
static int
read_devnum(const struct ds_root *r, const char *rel, struct ds_buf *sc,
    uint32_t *dev)
{
	const char *p;
	uint64_t ma, mi;
	int e;

	if ((e = ds_read_file(r, rel, sc)) < 0)
		return e;
	if (ds_parse_u64(sc->data, &p, &ma) < 0 || *p != ':' ||
	    ds_parse_u64(p + 1, &p, &mi) < 0 || ma > 4095 || mi > 0xfffff)
		return -EINVAL;
	*dev = ds_kdev((unsigned int)ma, (unsigned int)mi);
	return 0;
}

/*
 * The dev_t of disk and of each of its partitions (directories of
 * sys/block/DISK holding a "partition" file): out[0] is the disk.
 * *n is set to the count, which may exceed max (the rest not stored).
 */
static int
ds_disk_devnums(const struct ds_root *r, const char *disk, uint32_t *out,
    size_t max, size_t *n)
{
	struct ds_blockdevs sub = { 0 };
	struct ds_buf sc = { 0 };
	char rel[512];
	uint32_t d;
	size_t i;
	int e;

	*n = 0;
	if (strchr(disk, '/') != NULL || disk[0] == '.' || disk[0] == '\0')
		return -EINVAL;
	snprintf(rel, sizeof(rel), "sys/block/%s/dev", disk);
	if ((e = read_devnum(r, rel, &sc, &d)) < 0)
		goto out;
	if (max > 0)
		out[0] = d;
	*n = 1;
	snprintf(rel, sizeof(rel), "sys/block/%s", disk);
	if ((e = ds_dir_names(r->fd, rel, 1, &sub)) < 0)
		goto out;
	for (i = 0; i < sub.n; i++) {
		snprintf(rel, sizeof(rel), "sys/block/%s/%s/partition", disk,
		    sub.name[i]);
		if (ds_read_file(r, rel, &sc) < 0)
			continue;
		snprintf(rel, sizeof(rel), "sys/block/%s/%s/dev", disk,
		    sub.name[i]);
		if (read_devnum(r, rel, &sc, &d) < 0)
			continue;
		if (*n < max)
			out[*n] = d;
		(*n)++;
	}
	e = 0;
out:
	ds_blockdevs_free(&sub);
	ds_buf_free(&sc);
	return e;
}

static const char *const miss_names[DS_MISS_N] = {
	"recursion", "unmatched_d2c", "unmatched_q2c", "map_full",
	"lost_completion"
};

/*
 * Completions never seen: the kernel can skip a tracepoint's program
 * without counting it anywhere (perf's own recursion guard), so issues
 * are counted too.  What was issued and never completed under our
 * eyes was lost, but only while nothing is in flight can the two
 * counts be compared: idle says the traced disks had no request in
 * flight just before and just after s was read.  Otherwise prev's
 * figure is kept, so the counter never goes down nor guesses.
 */
static void
ds_blklat_lost(const struct ds_blklat_snap *prev, struct ds_blklat_snap *s,
    int idle)
{
	uint64_t done = 0, lost;
	size_t i;

	lost = prev != NULL ? prev->miss[DS_MISS_LOST] : 0;
	if (idle) {
		for (i = 0; i < s->n; i++)
			if (s->r[i].phase == DS_BLK_D2C)
				done += s->r[i].count;
		if (s->issued > done && s->issued - done > lost)
			lost = s->issued - done;
	}
	s->miss[DS_MISS_LOST] = lost;
}

const char *
ds_blklat_miss_name(unsigned int i)
{
	return i < DS_MISS_N ? miss_names[i] : NULL;
}

/* cur's missed events less prev's (NULL: all); *total their sum. */
void
ds_blklat_miss_delta(const struct ds_blklat_snap *prev,
    const struct ds_blklat_snap *cur, uint64_t m[DS_MISS_N], uint64_t *total)
{
	size_t i;

	*total = 0;
	for (i = 0; i < DS_MISS_N; i++) {
		m[i] = cur->miss[i] - (prev != NULL &&
		    prev->miss[i] <= cur->miss[i] ? prev->miss[i] : 0);
		*total += m[i];
	}
}

static int
cmp_bytes(const void *x, const void *y)
{
	const struct ds_blklat_who *a = x, *b = y;

	if (a->dev != b->dev)
		return a->dev < b->dev ? -1 : 1;
	if (a->bytes != b->bytes)
		return a->bytes > b->bytes ? -1 : 1;
	return (a->pid > b->pid) - (a->pid < b->pid);
}

/*
 * The interval's figures of each submitter: cur's entries less prev's
 * (NULL: all), those that completed nothing left out, by disk and then
 * most bytes first.  *out is allocated (free it); *n its rows.
 */
int
ds_blklat_who_delta(const struct ds_blklat_snap *prev,
    const struct ds_blklat_snap *cur, struct ds_blklat_who **out, size_t *n)
{
	const struct ds_blklat_who *p;
	struct ds_blklat_who *w;
	size_t i;

	*n = 0;
	if ((*out = malloc((cur->nw + 1) * sizeof(**out))) == NULL)
		return -ENOMEM;
	for (i = 0; i < cur->nw; i++) {
		w = &(*out)[*n];
		*w = cur->w[i];
		p = ds_blklat_find_who(prev, &cur->w[i]);
		ds_lat_delta(p != NULL ? &p->h : NULL, &cur->w[i].h, &w->h);
		if (p != NULL && p->bytes <= w->bytes)
			w->bytes -= p->bytes;
		if (w->h.count > 0)
			(*n)++;
	}
	if (*n > 1)
		qsort(*out, *n, sizeof(**out), cmp_bytes);
	return 0;
}

/*
 * The whole disks of sys/block that can be traced, those keep accepts
 * (keep NULL: all), with the count of their devices (disks and
 * partitions) into *ndevs.  *out is allocated (free it).
 */
int
ds_blkdisks_read(const struct ds_root *r, int (*keep)(void *, const char *),
    void *arg, struct ds_blkdisk **out, size_t *n, size_t *ndevs)
{
	struct ds_blockdevs bd = { 0 };
	uint32_t dev;
	size_t i, k;
	int e;

	*out = NULL;
	*n = *ndevs = 0;
	if ((e = ds_blockdevs_read(r, &bd)) < 0)
		return e;
	if ((*out = calloc(bd.n + 1, sizeof(**out))) == NULL) {
		ds_blockdevs_free(&bd);
		return -ENOMEM;
	}
	for (i = 0; i < bd.n; i++) {
		if (keep != NULL && !keep(arg, bd.name[i]))
			continue;
		/* Gone since the listing: not traced. */
		if (ds_disk_devnums(r, bd.name[i], &dev, 1, &k) < 0)
			continue;
		snprintf((*out)[*n].name, sizeof((*out)[*n].name), "%s",
		    bd.name[i]);
		(*out)[(*n)++].dev = dev;
		*ndevs += k;
	}
	ds_blockdevs_free(&bd);
	return 0;
}

/* Trace each disk of d and its partitions (as the disk). */
int
ds_blklat_add_disks(struct ds_blklat *b, const struct ds_root *r,
    const struct ds_blkdisk *d, size_t n)
{
	uint32_t devs[256];
	size_t i, j, k;
	int e;

	for (i = 0; i < n; i++) {
		if (ds_disk_devnums(r, d[i].name, devs,
		    sizeof(devs) / sizeof(devs[0]), &k) < 0)
			continue;
		for (j = 0; j < k && j < sizeof(devs) / sizeof(devs[0]); j++)
			if ((e = ds_blklat_dev(b, devs[j], d[i].dev)) < 0)
				return e;
	}
	return 0;
}

const char *
ds_blkdisk_name(const struct ds_blkdisk *d, size_t n, uint32_t dev)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (d[i].dev == dev)
			return d[i].name;
	return NULL;
}

/*
 * 1 when no disk of d has a request in flight (or one cannot be read:
 * 0).  From proc/diskstats, one read for all the disks (its in_flight
 * is the one of sys/block/DISK/inflight, R + W): a file per disk made
 * a report of 100 disks cost milliseconds.
 */
static int
ds_blkdisks_idle(const struct ds_root *r, const struct ds_blkdisk *d,
    size_t n)
{
	struct ds_diskstats st = { 0 };
	struct ds_buf w = { 0 };
	const struct ds_disk *k;
	size_t i, hint = 0;
	int idle = 0;

	if (ds_diskstats_read(r, &w, &st) < 0)
		goto out;
	for (i = 0; i < n; i++) {
		/* Disks keep diskstats' order as a rule: look there first. */
		k = ds_diskstats_find(&st, d[i].name, hint);
		if (k == NULL || !DS_HAVE(k, DS_IN_FLIGHT) ||
		    k->v[DS_IN_FLIGHT] != 0)
			goto out;
		hint = (size_t)(k - st.disk) + 1;
	}
	idle = 1;
out:
	ds_diskstats_free(&st);
	ds_buf_free(&w);
	return idle;
}

/*
 * The kernel's lockdown mode (sys/kernel/security/lockdown, the
 * bracketed word): "none", "integrity" or "confidentiality" into mode.
 * -ENOENT without the file (no lockdown LSM).
 */
int
ds_lockdown_mode(const struct ds_root *r, char *mode, size_t size)
{
	struct ds_buf b = { 0 };
	const char *p, *q;
	int e;

	if ((e = ds_read_file(r, "sys/kernel/security/lockdown", &b)) == 0) {
		if ((p = strchr(b.data, '[')) == NULL ||
		    (q = strchr(p, ']')) == NULL || (size_t)(q - p - 1) >= size)
			e = -EINVAL;
		else
			snprintf(mode, size, "%.*s", (int)(q - p - 1), p + 1);
	}
	ds_buf_free(&b);
	return e;
}

/*
 * ds_blklat_read, with the completions never seen (ds_blklat_lost)
 * brought up to date when the disks of d are idle: nothing in flight
 * before and after a read, and a second read (the one kept) finds no
 * request issued since the first.
 */
int
ds_blklat_take(struct ds_blklat *b, const struct ds_root *r,
    const struct ds_blkdisk *d, size_t n, const struct ds_blklat_snap *prev,
    struct ds_blklat_snap *s)
{
	int e, idle = ds_blkdisks_idle(r, d, n);
	uint64_t issued;

	if ((e = ds_blklat_tend(b)) < 0 || (e = ds_blklat_read(b, s)) < 0)
		return e;
	if (idle && ds_blkdisks_idle(r, d, n)) {
		issued = s->issued;
		if ((e = ds_blklat_read(b, s)) < 0)
			return e;
		idle = s->issued == issued;
	} else {
		idle = 0;
	}
	/* Issues less d2c completions: without d2c, nothing to say. */
	ds_blklat_lost(prev, s, idle && want(b, DS_BLK_D2C));
	return 0;
}
