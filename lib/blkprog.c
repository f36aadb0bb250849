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
#include <stddef.h>
#include <string.h>

#include "blklat.h"
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
#define S_QVAL (-88)	/* Q value: ns, tgid, nr_sector, cgroup, comm */
#define S_DVAL (-136)	/* D value: ns, then the Q value (ns 0: none) */
#define S_CKEY (-152)	/* cgroup histogram key (CG_KEY bytes) */
#define S_REC (-240)	/* a slow request's struct ds_blkslow */

/* Where the Q value keeps its parts (q_size). */
#define Q_TGID 8
#define Q_NSEC 12
#define Q_CG 16
#define Q_COMM 24

#define REC(f) (S_REC + (int)offsetof(struct ds_blkslow, f))

#define WHO_BYTES ((int)offsetof(struct ds_blklat_whoval, bytes))
#define WHO_COMM ((int)offsetof(struct ds_blklat_whoval, comm))

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

/* r0 = map_lookup(map, fp + slot) */
static void
map_lookup(struct ds_asm *a, int map, int slot)
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
stat_inc(struct ds_asm *a, const struct ds_blklat *b, int idx)
{
	int skip = ds_asm_label(a);

	ds_asm_emit(a, B_ST(W, 10, S_IDX, idx));
	map_lookup(a, b->map[M_STATS], S_IDX);
	ds_asm_jmp_i(a, BPF_JEQ, 0, 0, skip);
	ds_asm_emit(a, B_LDX(DW, 1, 0, 0));
	ds_asm_emit(a, B_ALU_I(ADD, 1, 1));
	ds_asm_emit(a, B_STX(DW, 0, 1, 0));
	ds_asm_here(a, skip);
}

/* *(u64 *)(dst + off) += src: atomic for a value all CPUs share. */
static void
add_u64(struct ds_asm *a, int atomic, int dst, int src, int off)
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
	add_u64(a, atomic, 0, 1, 0);
	add_u64(a, atomic, 0, R_VAL, 8);
	ds_asm_emit(a, B_LDX(DW, 1, 0, 16));
	ds_asm_jmp_r(a, BPF_JGE, 1, R_VAL, nomax);
	ds_asm_emit(a, B_STX(DW, 0, R_VAL, 16));
	ds_asm_here(a, nomax);
	ds_asm_emit(a, B_MOV_R(1, R_VAL));
	ds_asm_jmp_i(a, BPF_JLT, 1, 2 * DS_LAT_SUB, done);
	ds_asm_emit(a, B_MOV_R(3, R_VAL));
	ds_asm_emit(a, B_MOV_I(2, 0));
	for (i = 0; i < nitems(step); i++) {
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
	add_u64(a, atomic, 2, 1, (int)offsetof(struct ds_lat, b));
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

	map_lookup(a, map, slot);
	ds_asm_jmp_i(a, BPF_JNE, 0, 0, have);
	ds_asm_emit(a, B_ST(W, 10, S_IDX, 0));
	map_lookup(a, b->map[M_ZERO], S_IDX);
	ds_asm_jmp_i(a, BPF_JEQ, 0, 0, out);
	ds_asm_emit(a, B_MOV_R(3, 0));
	ds_asm_map(a, 1, map);
	ds_asm_emit(a, B_MOV_R(2, 10));
	ds_asm_emit(a, B_ALU_I(ADD, 2, slot));
	ds_asm_emit(a, B_MOV_I(4, BPF_NOEXIST));
	ds_asm_emit(a, B_CALL(BPF_FUNC_map_update_elem));
	ds_asm_jmp_i(a, BPF_JEQ, 0, 0, again);
	ds_asm_jmp_i(a, BPF_JEQ, 0, -EEXIST, again);
	stat_inc(a, b, ST_MAP_FULL);
	ds_asm_jmp_i(a, BPF_JA, 0, 0, out);
	ds_asm_here(a, again);
	map_lookup(a, map, slot);
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

	if (b->flags & DS_BLKLAT_CGROUP) {
		/* The cgroup was put in S_CKEY + 8 by whoever had the Q. */
		ds_asm_emit(a, B_STX(W, 10, R_DEV, S_CKEY));
		ds_asm_emit(a, B_MOV_R(1, R_OP));
		ds_asm_emit(a, B_ALU_I(LSH, 1, 2));
		ds_asm_emit(a, B_ALU_I(ADD, 1, phase));
		ds_asm_emit(a, B_STX(W, 10, 1, S_CKEY + 4));
		find_or_make(a, b, b->map[M_HIST], S_CKEY, out);
		lat_add(a, !pcpu(b));
		ds_asm_here(a, out);
		return;
	}
	if (b->harr) {
		ds_asm_emit(a, B_MOV_R(1, R_OP));
		ds_asm_emit(a, B_ALU_I(MUL, 1, DS_BLK_PHASES));
		ds_asm_emit(a, B_LDX(W, 2, 10, S_DIDX));
		ds_asm_emit(a, B_ALU_R(ADD, 1, 2));
		ds_asm_emit(a, B_ALU_I(ADD, 1, phase));
		ds_asm_emit(a, B_STX(W, 10, 1, S_IDX));
		map_lookup(a, b->map[M_HIST], S_IDX);
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
	map_lookup(a, b->map[M_DEVS], S_IDX);
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
op_of_rwbs(struct ds_asm *a, const struct ds_blkev *ev, int out)
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

/* map_delete(map, fp + slot) */
static void
map_delete(struct ds_asm *a, int map, int slot)
{
	ds_asm_map(a, 1, map);
	ds_asm_emit(a, B_MOV_R(2, 10));
	ds_asm_emit(a, B_ALU_I(ADD, 2, slot));
	ds_asm_emit(a, B_CALL(BPF_FUNC_map_delete_elem));
}

/* The Q value (q_size bytes) at r0 + off to S_DVAL + 8; r0 kept. */
static void
q_copy(struct ds_asm *a, const struct ds_blklat *b, int off)
{
	int i;

	for (i = 0; i < q_size(b); i += 8) {
		ds_asm_emit(a, B_LDX(DW, 1, 0, off + i));
		ds_asm_emit(a, B_STX(DW, 10, 1, S_DVAL + 8 + i));
	}
}

/* S_CKEY + 8 = the cgroup of the Q at S_DVAL + 8 (0 when none). */
static void
cg_of_q(struct ds_asm *a, const struct ds_blklat *b)
{
	if (!(b->flags & DS_BLKLAT_CGROUP))
		return;
	ds_asm_emit(a, B_LDX(DW, 1, 10, S_DVAL + 8 + Q_CG));
	ds_asm_emit(a, B_STX(DW, 10, 1, S_CKEY + 8));
}

/*
 * A slow request's record: R_VAL its d2c (when ph has d2c), the Q at
 * S_DVAL + 8 (ns 0: none; its D's ns at S_DVAL when ph has q2d), into
 * S_REC and out through the ring (or counted when it is full).
 * Every byte is written: the helper copies the whole record.
 */
static void
slow_out(struct ds_asm *a, const struct ds_blklat *b,
    const struct ds_blkev *ev, unsigned int ph)
{
	int noq = ds_asm_label(a), sent = ds_asm_label(a), i;

	ds_asm_emit(a, B_LDX(DW, 1, 10, S_NOW));
	ds_asm_emit(a, B_STX(DW, 10, 1, REC(ns)));
	ds_asm_emit(a, B_LDX(DW, 1, R_CTX, (int16_t)ev->sector));
	ds_asm_emit(a, B_STX(DW, 10, 1, REC(sector)));
	ds_asm_emit(a, B_STX(W, 10, R_DEV, REC(dev)));
	ds_asm_emit(a, B_STX(W, 10, R_OP, REC(op)));
	ds_asm_emit(a, B_LDX(W, 1, R_CTX, (int16_t)ev->nr_sector));
	ds_asm_emit(a, B_ALU_I(LSH, 1, 9));
	ds_asm_emit(a, B_STX(W, 10, 1, REC(bytes)));
	ds_asm_emit(a, B_ST(W, 10, REC(pad), 0));
	if (ph & DS_BLKLAT_PHASE(DS_BLK_D2C) && want(b, DS_BLK_D2C))
		ds_asm_emit(a, B_STX(DW, 10, R_VAL, REC(d2c_ns)));
	else
		ds_asm_emit(a, B_ST(DW, 10, REC(d2c_ns), -1));
	/* Nothing known of the bio until its Q is found. */
	ds_asm_emit(a, B_ST(DW, 10, REC(q2d_ns), -1));
	ds_asm_emit(a, B_ST(DW, 10, REC(q2c_ns), -1));
	ds_asm_emit(a, B_ST(DW, 10, REC(cg), 0));
	ds_asm_emit(a, B_ST(W, 10, REC(pid), 0));
	ds_asm_emit(a, B_ST(W, 10, REC(who), 0));
	ds_asm_emit(a, B_ST(DW, 10, REC(comm), 0));
	ds_asm_emit(a, B_ST(DW, 10, REC(comm) + 8, 0));
	if (want_q(b)) {
		ds_asm_emit(a, B_LDX(DW, 2, 10, S_DVAL + 8));
		ds_asm_jmp_i(a, BPF_JEQ, 2, 0, noq);
		if (want(b, DS_BLK_Q2C)) {
			ds_asm_emit(a, B_LDX(DW, 1, 10, S_NOW));
			ds_asm_emit(a, B_ALU_R(SUB, 1, 2));
			ds_asm_emit(a, B_STX(DW, 10, 1, REC(q2c_ns)));
		}
		if (ph & DS_BLKLAT_PHASE(DS_BLK_Q2D) && want(b, DS_BLK_Q2D)) {
			ds_asm_emit(a, B_LDX(DW, 1, 10, S_DVAL));
			ds_asm_emit(a, B_ALU_R(SUB, 1, 2));
			ds_asm_emit(a, B_STX(DW, 10, 1, REC(q2d_ns)));
		}
		ds_asm_emit(a, B_ST(W, 10, REC(who), 1));
		ds_asm_emit(a, B_LDX(W, 1, 10, S_DVAL + 8 + Q_TGID));
		ds_asm_emit(a, B_STX(W, 10, 1, REC(pid)));
		ds_asm_emit(a, B_LDX(DW, 1, 10, S_DVAL + 8 + Q_CG));
		ds_asm_emit(a, B_STX(DW, 10, 1, REC(cg)));
		for (i = 0; i < 16; i += 8) {
			ds_asm_emit(a, B_LDX(DW, 1, 10, S_DVAL + 8 + Q_COMM + i));
			ds_asm_emit(a, B_STX(DW, 10, 1, REC(comm) + i));
		}
		ds_asm_here(a, noq);
	}
	ds_asm_map(a, 1, b->map[M_RING]);
	ds_asm_emit(a, B_MOV_R(2, 10));
	ds_asm_emit(a, B_ALU_I(ADD, 2, S_REC));
	ds_asm_emit(a, B_MOV_I(3, (int32_t)sizeof(struct ds_blkslow)));
	ds_asm_emit(a, B_MOV_I(4, 0));
	ds_asm_emit(a, B_CALL(BPF_FUNC_ringbuf_output));
	ds_asm_jmp_i(a, BPF_JEQ, 0, 0, sent);
	stat_inc(a, b, ST_RING_FULL);
	ds_asm_here(a, sent);
}

/*
 * Is this completion slow: does a phase timed reach the threshold?
 * R_VAL holds d2c (ph has it) or q2c (bio-based: ph q2c alone); the Q
 * is at S_DVAL + 8 for the request's q2c and q2d.  Then slow_out.
 */
static void
slow_check(struct ds_asm *a, const struct ds_blklat *b,
    const struct ds_blkev *ev, unsigned int ph)
{
	int hit = ds_asm_label(a), no = ds_asm_label(a);

	ds_asm_emit(a, BI(BPF_LD | BPF_DW | BPF_IMM, 2, 0, 0,
	    (int32_t)b->slow_ns));
	ds_asm_emit(a, BI(0, 0, 0, 0, (int32_t)(b->slow_ns >> 32)));
	if (ph == DS_BLKLAT_PHASE(DS_BLK_Q2C)) {
		/* A bio's completion: R_VAL is its q2c. */
		ds_asm_jmp_r(a, BPF_JLT, R_VAL, 2, no);
		slow_out(a, b, ev, ph);
		ds_asm_here(a, no);
		return;
	}
	if (want(b, DS_BLK_D2C))
		ds_asm_jmp_r(a, BPF_JGE, R_VAL, 2, hit);
	if (want_q(b)) {
		ds_asm_emit(a, B_LDX(DW, 3, 10, S_DVAL + 8));
		ds_asm_jmp_i(a, BPF_JEQ, 3, 0, no);
		if (want(b, DS_BLK_Q2C)) {
			ds_asm_emit(a, B_LDX(DW, 1, 10, S_NOW));
			ds_asm_emit(a, B_ALU_R(SUB, 1, 3));
			ds_asm_jmp_r(a, BPF_JGE, 1, 2, hit);
		}
		if (want(b, DS_BLK_Q2D)) {
			ds_asm_emit(a, B_LDX(DW, 1, 10, S_DVAL));
			ds_asm_emit(a, B_ALU_R(SUB, 1, 3));
			ds_asm_jmp_r(a, BPF_JGE, 1, 2, hit);
		}
	}
	ds_asm_jmp_i(a, BPF_JA, 0, 0, no);
	ds_asm_here(a, hit);
	slow_out(a, b, ev, ph);
	ds_asm_here(a, no);
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
		map_lookup(a, b->map[M_WHO], S_WKEY);
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
complete_q(struct ds_asm *a, const struct ds_blklat *b,
    const struct ds_blkev *ev)
{
	int noq = ds_asm_label(a), end = ds_asm_label(a);

	map_lookup(a, b->map[M_QSTART], S_KEY);
	ds_asm_jmp_i(a, BPF_JEQ, 0, 0, noq);
	/* Copied out: the entry is deleted before q2c's helper calls. */
	q_copy(a, b, 0);
	map_delete(a, b->map[M_QSTART], S_KEY);
	ds_asm_emit(a, B_MOV_R(0, 10));
	ds_asm_emit(a, B_ALU_I(ADD, 0, S_DVAL + 8));
	if (slow(b)) {
		since(a);
		slow_check(a, b, ev, DS_BLKLAT_PHASE(DS_BLK_Q2C));
		ds_asm_jmp_i(a, BPF_JA, 0, 0, end);
	} else {
		cg_of_q(a, b);
		q2c(a, b, end);
	}
	ds_asm_here(a, noq);
	stat_inc(a, b, ST_UNMATCHED_Q2C);
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

	int i;

	map_lookup(a, b->map[M_QSTART], S_KEY);
	ds_asm_jmp_i(a, BPF_JEQ, 0, 0, noq);
	q_copy(a, b, 0);
	since(a);
	map_delete(a, b->map[M_QSTART], S_KEY);
	/*
	 * Without q2d still counted: issues are what lost_completion
	 * needs (slow requests keep no histograms).
	 */
	if (want(b, DS_BLK_Q2D) && !slow(b)) {
		cg_of_q(a, b);
		hist(a, b, DS_BLK_Q2D);
	} else {
		stat_inc(a, b, ST_ISSUE_NOQ);
	}
	ds_asm_jmp_i(a, BPF_JA, 0, 0, end);
	ds_asm_here(a, noq);
	stat_inc(a, b, ST_ISSUE_NOQ);
	for (i = 0; i < q_size(b); i += 8)
		ds_asm_emit(a, B_ST(DW, 10, S_DVAL + 8 + i, 0));
	if (d_has_q(b)) {
		map_lookup(a, b->map[M_ISTART], S_KEY);
		ds_asm_jmp_i(a, BPF_JEQ, 0, 0, end);
		ds_asm_emit(a, B_LDX(DW, 1, 0, 8));
		ds_asm_jmp_i(a, BPF_JEQ, 1, 0, end);
		q_copy(a, b, 8);
	}
	ds_asm_here(a, end);
}

/*
 * The issue is stamped last, after the program's other work, so that
 * d2c holds as little of the tracer's own time as can be.
 */
static void
prog_issue(struct ds_asm *a, const struct ds_blklat *b,
    const struct ds_blkev *ev)
{
	int out = ds_asm_label(a);

	rq_filter(a, b, ev, out);
	op_of_rwbs(a, ev, out);
	if (!want_q(b)) {
		/*
		 * d2c alone: no queue time to find, one clock read; the
		 * issue counted (lost_completion's figure).
		 */
		stat_inc(a, b, ST_ISSUE_NOQ);
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
	stat_inc(a, b, ST_MAP_FULL);
	epilogue(a, out);
}

/* A request's dev is its disk's (partitions are bio events'). */
static void
prog_rq_complete(struct ds_asm *a, const struct ds_blklat *b,
    const struct ds_blkev *ev)
{
	int out = ds_asm_label(a), nod = ds_asm_label(a), end = ds_asm_label(a);

	rq_filter(a, b, ev, out);
	op_of_rwbs(a, ev, out);
	now_and_key(a, b, ev);
	map_lookup(a, b->map[M_ISTART], S_KEY);
	ds_asm_jmp_i(a, BPF_JEQ, 0, 0, nod);
	if (d_has_q(b))
		q_copy(a, b, 8);
	if (slow(b) && want(b, DS_BLK_Q2D)) {
		ds_asm_emit(a, B_LDX(DW, 1, 0, 0));
		ds_asm_emit(a, B_STX(DW, 10, 1, S_DVAL));
	}
	since(a);
	map_delete(a, b->map[M_ISTART], S_KEY);
	if (slow(b)) {
		/* The completions, for lost_completion: no histogram has them. */
		if (want(b, DS_BLK_D2C))
			stat_inc(a, b, ST_DONE);
		slow_check(a, b, ev, DS_BLKLAT_ALL);
		ds_asm_jmp_i(a, BPF_JA, 0, 0, out);
		ds_asm_here(a, nod);
		stat_inc(a, b, want(b, DS_BLK_D2C) ? ST_UNMATCHED_D2C :
		    ST_UNMATCHED_Q2C);
		epilogue(a, out);
		return;
	}
	cg_of_q(a, b);
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
	stat_inc(a, b, want(b, DS_BLK_D2C) ? ST_UNMATCHED_D2C :
	    ST_UNMATCHED_Q2C);
	if (want(b, DS_BLK_Q2C) && want(b, DS_BLK_D2C)) {
		ds_asm_here(a, end);
		stat_inc(a, b, ST_UNMATCHED_Q2C);
	} else if (want(b, DS_BLK_Q2C)) {
		ds_asm_jmp_i(a, BPF_JA, 0, 0, out);
		ds_asm_here(a, end);
		stat_inc(a, b, ST_UNMATCHED_Q2C);
	}
	epilogue(a, out);
}

static void
prog_bio_complete(struct ds_asm *a, const struct ds_blklat *b,
    const struct ds_blkev *ev)
{
	int out = ds_asm_label(a);

	filter(a, b, ev, out);
	op_of_rwbs(a, ev, out);
	now_and_key(a, b, ev);
	complete_q(a, b, ev);
	epilogue(a, out);
}

/* Who: the submitter's entry made at its first bio, with its comm. */
static void
who_make(struct ds_asm *a, const struct ds_blklat *b,
    const struct ds_blkev *ev, int out)
{
	int i;

	ds_asm_emit(a, B_STX(W, 10, R_DEV, S_WKEY));
	ds_asm_emit(a, B_LDX(W, 1, 10, S_QVAL + Q_TGID));
	ds_asm_emit(a, B_STX(W, 10, 1, S_WKEY + 4));
	map_lookup(a, b->map[M_WHO], S_WKEY);
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
	int out = ds_asm_label(a), i;

	filter(a, b, ev, out);
	now_and_key(a, b, ev);
	ds_asm_emit(a, B_LDX(DW, 1, 10, S_NOW));
	ds_asm_emit(a, B_STX(DW, 10, 1, S_QVAL));
	/* The submitter and the size are for who and slow modes alone. */
	if (b->flags & (DS_BLKLAT_WHO | DS_BLKLAT_SLOW)) {
		ds_asm_emit(a, B_CALL(BPF_FUNC_get_current_pid_tgid));
		ds_asm_emit(a, B_ALU_I(RSH, 0, 32));
		ds_asm_emit(a, B_STX(W, 10, 0, S_QVAL + Q_TGID));
		ds_asm_emit(a, B_LDX(W, 1, R_CTX, (int16_t)ev->nr_sector));
		ds_asm_emit(a, B_STX(W, 10, 1, S_QVAL + Q_NSEC));
	} else {
		ds_asm_emit(a, B_ST(DW, 10, S_QVAL + 8, 0));
	}
	if (q_size(b) > Q_CG) {
		ds_asm_emit(a, B_CALL(BPF_FUNC_get_current_cgroup_id));
		ds_asm_emit(a, B_STX(DW, 10, 0, S_QVAL + Q_CG));
	}
	/* comm may sit at an odd offset (rwbs[9]): bytewise. */
	for (i = 0; i < 16 && q_size(b) > Q_COMM; i++) {
		ds_asm_emit(a, B_LDX(B, 1, R_CTX, (int16_t)(ev->comm + i)));
		ds_asm_emit(a, B_STX(B, 10, 1, S_QVAL + Q_COMM + i));
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

/* The program names are what bpftool and make bench show. */
const struct ds_blkprog ds_blkprogs[DS_BLKLAT_PROGS] = {
	{ "block_bio_queue", prog_bio_queue, "dlat_bio_queue", 1,
	    DS_BLKLAT_PHASE(DS_BLK_Q2C) | DS_BLKLAT_PHASE(DS_BLK_Q2D) },
	{ "block_rq_issue", prog_issue, "dlat_rq_issue", 0, DS_BLKLAT_ALL },
	{ "block_rq_complete", prog_rq_complete, "dlat_rq_complete", 0,
	    DS_BLKLAT_PHASE(DS_BLK_D2C) | DS_BLKLAT_PHASE(DS_BLK_Q2C) },
	{ "block_bio_complete", prog_bio_complete, "dlat_bio_complete", 0,
	    DS_BLKLAT_PHASE(DS_BLK_Q2C) },
};
