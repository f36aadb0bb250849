/*
 * Setting up block-latency tracing: the maps, the programs assembled
 * and loaded once the disks are known, attached, and all of it closed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blklat.h"
#include "bpfasm.h"

/* A start's key (now_and_key). */
static uint32_t
key_size(const struct ds_blklat *b)
{
	return b->harr ? 8 : 16;
}

/* The value of an issue: ns, then (d_has_q) its Q value. */
static uint32_t
istart_size(const struct ds_blklat *b)
{
	return 8 + (d_has_q(b) ? (uint32_t)q_size(b) : 0);
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
	/* Slow requests: no histograms.  Per cgroup: made as used. */
	if (slow(b))
		return 0;
	if (b->flags & DS_BLKLAT_CGROUP) {
		b->map[M_HIST] = pcpu(b) ?
		    ds_bpf_map_create(BPF_MAP_TYPE_PERCPU_HASH, CG_KEY, vsz,
		    DS_BLKLAT_CG_MAX, BPF_F_NO_PREALLOC, "dlat_hist") :
		    ds_bpf_map_create(BPF_MAP_TYPE_HASH, CG_KEY, vsz,
		    DS_BLKLAT_CG_MAX, BPF_F_NO_PREALLOC, "dlat_hist");
		return b->map[M_HIST] < 0 ? fail(b, "map create",
		    b->map[M_HIST]) : 0;
	}
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
	/* Per cgroup, the queueing is followed whatever the phases. */
	return (b->flags & ds_blkprogs[k].phases) != 0 ||
	    (k == 0 && (b->flags & DS_BLKLAT_CGROUP));
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
	    key_size(b), (uint32_t)q_size(b), DS_BLKLAT_STARTS, 0,
	    "dlat_queue") : -EBADF;
	b->map[M_RING] = slow(b) ? ds_bpf_map_create(BPF_MAP_TYPE_RINGBUF,
	    0, 0, DS_BLKSLOW_RING, 0, "dlat_slow") : -EBADF;
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
	/* One mode at a time: by process, by cgroup, or slow requests. */
	if (((flags & DS_BLKLAT_WHO) != 0) + ((flags & DS_BLKLAT_SLOW) != 0) +
	    ((flags & DS_BLKLAT_CGROUP) != 0) > 1)
		return fail(b, "mode", -EINVAL);
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
		if ((e = ds_tpfmt_read(&b->tfs, "block", ds_blkprogs[i].event,
		    &scratch, &f)) < 0 ||
		    (e = ds_blkev_layout(&f, ds_blkprogs[i].comm &&
		    (flags & (DS_BLKLAT_WHO | DS_BLKLAT_SLOW)), &b->ev[i])) < 0) {
			ds_buf_free(&scratch);
			return fail(b, ds_blkprogs[i].event, e);
		}
	}
	ds_buf_free(&scratch);
	if ((e = make_maps(b, ndevs, ndisks)) < 0)
		return e;
	return slow(b) ? ds_blkring_map(b) : 0;
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
		ds_blkprogs[i].gen(&a, b, &b->ev[i]);
		if ((e = ds_asm_end(&a)) < 0) {
			ds_asm_free(&a);
			return fail(b, "assembler", e);
		}
		if (b->log == NULL)
			b->log = malloc(DS_BLKLAT_LOG);
		e = ds_bpf_prog_load(BPF_PROG_TYPE_TRACEPOINT, a.ins, a.n,
		    ds_blkprogs[i].name, b->log, b->log ? DS_BLKLAT_LOG : 0);
		b->insns[i] = a.n;
		ds_asm_free(&a);
		if (e < 0)
			return fail(b, ds_blkprogs[i].name, e);
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
			return fail(b, ds_blkprogs[k].event, e);
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
	ds_blkring_unmap(b);
}

/* The API's session: made on the heap, since the layout is not the API's. */
struct ds_blklat *
ds_blklat_new(void)
{
	struct ds_blklat *b;

	if ((b = malloc(sizeof(*b))) == NULL)
		return NULL;
	ds_blklat_init(b);
	return b;
}

void
ds_blklat_delete(struct ds_blklat *b)
{
	if (b == NULL)
		return;
	ds_blklat_close(b);
	free(b);
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
		    nitems(devs), &k) < 0)
			continue;
		for (j = 0; j < k && j < nitems(devs); j++)
			if ((e = ds_blklat_dev(b, devs[j], d[i].dev)) < 0)
				return e;
	}
	return 0;
}
