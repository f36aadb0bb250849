/*
 * Reading block-latency tracing: snapshots of its maps (histograms
 * kept compact, per-process entries, missed events), and what one
 * snapshot counted since another.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "blklat.h"

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

static int
cmp_row(const void *x, const void *y)
{
	const struct ds_blklat_row *a = x, *b = y;

	if (a->dev != b->dev)
		return a->dev < b->dev ? -1 : 1;
	if (a->op != b->op)
		return a->op < b->op ? -1 : 1;
	if (a->phase != b->phase)
		return a->phase < b->phase ? -1 : 1;
	return (a->cg > b->cg) - (a->cg < b->cg);
}

static int
cmp_who(const void *x, const void *y)
{
	const struct ds_blklat_who *a = x, *b = y;

	if (a->dev != b->dev)
		return a->dev < b->dev ? -1 : 1;
	return (a->pid > b->pid) - (a->pid < b->pid);
}

/*
 * A histogram read (the values of its CPUs at pc) into s's next row:
 * key dev, op << 2 | phase, and per cgroup the id (two words more).
 */
static int
add_row(struct ds_blklat_snap *s, const uint32_t *key, int cg,
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
	if ((e = ds_grow(&s->r, &s->cap, s->n + 1, sizeof(*s->r))) < 0)
		return e;
	r = &s->r[s->n];
	if ((e = ds_blklat_row_set(s, r, pc)) < 0)
		return e;
	s->n++;
	r->dev = key[0];
	r->op = key[1] >> 2;
	r->phase = key[1] & 3;
	r->cg = 0;
	if (cg)
		memcpy(&r->cg, key + 2, sizeof(r->cg));
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
	size_t need;

	r->count = h->count;
	r->sum_ns = h->sum_ns;
	r->max_ns = h->max_ns;
	r->first = r->nb = 0;
	r->off = s->nbk;
	if (ds_lat_span(h, &first, &last, &top) < 0)
		return 0;
	need = s->nbk + (size_t)(last - first + 1) * 10;
	if (ds_grow(&s->bk, &s->capbk, need < 4096 ? 4096 : need, 1) < 0)
		return -ENOMEM;
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
	const unsigned char *p, *end;
	unsigned int i, sh;
	uint64_t v;

	memset(h, 0, sizeof(*h));
	h->count = r->count;
	h->sum_ns = r->sum_ns;
	h->max_ns = r->max_ns;
	/* No buckets: a snapshot of such rows alone has no bk at all. */
	if (r->nb == 0 || r->first + r->nb > DS_LAT_NB)
		return;
	p = s->bk + r->off;
	end = s->bk + s->nbk;
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

uint64_t
ds_blklat_count_delta(const struct ds_blklat_snap *prev,
    const struct ds_blklat_snap *cur, const struct ds_blklat_row *r)
{
	const struct ds_blklat_row *p = ds_blklat_find(prev, r);

	(void)cur;
	return r->count - (p != NULL && p->count <= r->count ? p->count : 0);
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
	return add_row(s, key, 0, v, nc, &b->rlat);
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
	uint32_t key[4] = { 0, 0, 0, 0 }, next[4];
	struct ds_lat *pc = b->rbuf;
	int e, cg = (b->flags & DS_BLKLAT_CGROUP) != 0;

	while ((e = ds_bpf_map_next(b->map[M_HIST], key, next)) == 0) {
		memcpy(key, next, sizeof(key));
		if ((e = ds_bpf_map_lookup(b->map[M_HIST], key, pc)) == -ENOENT)
			continue;
		if (e < 0 || (e = add_row(s, key, cg, pc, nc, &b->rlat)) < 0)
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
	uint32_t tok[2][4], cnt, i, *keys;
	int e, r, nc = pcpu(b) ? b->ncpu : 1, t = 0, first = 1;
	int cg = (b->flags & DS_BLKLAT_CGROUP) != 0;
	size_t vsz = (size_t)nc * sizeof(struct ds_lat), ksz = cg ? CG_KEY : 8;
	struct ds_lat *v;

	s->n = 0;
	s->nbk = 0;
	s->issued = 0;
	if (slow(b))
		return 0;
	if (b->rbuf == NULL) {
		b->rmax = (uint32_t)(65536 / vsz) + 1;
		/* Zeroed: valgrind knows no BPF_MAP_LOOKUP_BATCH writes. */
		if ((b->rbuf = calloc(b->rmax, vsz + ksz)) == NULL)
			return -ENOMEM;
	}
	v = b->rbuf;
	keys = (uint32_t *)((char *)b->rbuf + b->rmax * vsz);
	if (b->harr && !cg)
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
			void *q = realloc(b->rbuf, 2 * b->rmax * (vsz + ksz));

			if (q == NULL)
				return -ENOMEM;
			memset((char *)q + b->rmax * (vsz + ksz), 0,
			    b->rmax * (vsz + ksz));
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
			if ((r = add_row(s, keys + ksz / 4 * i, cg,
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
		if ((e = ds_grow(&s->w, &s->capw, s->nw + 1,
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

/*
 * The per-CPU counters summed: the missed events into m (zeroed
 * first), issues into *issued, completions into *done; the programs'
 * run counts into s when not NULL.
 */
static int
read_stats(struct ds_blklat *b, uint64_t m[DS_MISS_N], uint64_t *issued,
    uint64_t *done, struct ds_blklat_snap *s)
{
	struct ds_bpf_prog_stats st;
	uint64_t *v, *to[ST_N];
	uint32_t i;
	size_t k;
	int e = 0, c, have = 1;

	memset(m, 0, DS_MISS_N * sizeof(*m));
	to[ST_UNMATCHED_D2C] = &m[DS_MISS_UNMATCHED_D2C];
	to[ST_UNMATCHED_Q2C] = &m[DS_MISS_UNMATCHED_Q2C];
	to[ST_MAP_FULL] = &m[DS_MISS_MAP_FULL];
	to[ST_ISSUE_NOQ] = issued;
	to[ST_DONE] = done;
	to[ST_RING_FULL] = &m[DS_MISS_RING_FULL];
	if ((v = calloc((size_t)b->ncpu, sizeof(*v))) == NULL)
		return -ENOMEM;
	for (i = 0; i < ST_N; i++) {
		if ((e = ds_bpf_map_lookup(b->map[M_STATS], &i, v)) < 0)
			break;
		for (c = 0; c < b->ncpu; c++)
			*to[i] += v[c];
	}
	free(v);
	if (e < 0)
		return e;
	for (k = 0; k < DS_BLKLAT_PROGS; k++) {
		if (b->prog[k] < 0)
			continue;
		if ((e = ds_bpf_prog_info(b->prog[k], &st)) < 0)
			return e;
		m[DS_MISS_RECURSION] += st.recursion_misses;
		have &= st.have_misses;
		if (s != NULL) {
			s->run_cnt[k] = st.run_cnt;
			s->run_time_ns[k] = st.run_time_ns;
		}
	}
	if (s != NULL)
		s->have_recursion = have;
	return 0;
}

/* The counters of everything counted so far (they only grow). */
static int
ds_blklat_read(struct ds_blklat *b, struct ds_blklat_snap *s)
{
	int e;

	if ((e = read_hist(b, s)) < 0 || (e = read_who(b, s)) < 0)
		return e;
	s->done = 0;
	return read_stats(b, s->miss, &s->issued, &s->done, s);
}

int
ds_blklat_missed(struct ds_blklat *b, uint64_t m[DS_MISS_N])
{
	uint64_t issued = 0, done = 0;

	return read_stats(b, m, &issued, &done, NULL);
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

static const char *const miss_names[DS_MISS_N] = {
	"recursion", "unmatched_d2c", "unmatched_q2c", "map_full",
	"lost_completion", "ring_full"
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
	uint64_t done = s->done, lost;
	size_t i;

	lost = prev != NULL ? prev->miss[DS_MISS_LOST] : 0;
	if (idle) {
		/* Slow requests keep no histograms: s->done counts them. */
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
