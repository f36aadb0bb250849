/*
 * A window: each disk's in_flight and procs_blocked ticked 10 times a
 * second, looks at the threads in an I/O wait, block-latency tracing
 * over it, the kernel log's I/O errors of it; and the same written as a
 * capture's members and read back (ds_window_load, in winload.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

#define LOOK_TICKS 10		/* a look at the stalled threads: 1 a second */
#define LOOK_SPACE 20		/* a look's time: at most 1/20 of the window */
#define KMSG_BACK_US 5000000ull	/* the kernel log's rate-limit interval */

static uint64_t
mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/*
 * Tracing with the who map over every whole disk and the first
 * snapshot; on any failure w->why says why and nothing stays attached.
 */
static int
trace_open(struct ds_window *w)
{
	size_t ndevs;
	int e;

	ds_blklat_init(&w->b);
	if (ds_blklat_probe() < 0) {
		snprintf(w->why, sizeof(w->why), "%s",
		    "needs CAP_BPF and CAP_PERFMON, or root");
		return 0;
	}
	if ((e = ds_blkdisks_read(w->r, NULL, NULL, &w->tdisk, &w->ntdisk,
	    &ndevs)) < 0 || w->ntdisk == 0) {
		snprintf(w->why, sizeof(w->why), "%s", "no disks to trace");
		return e == -ENOMEM ? e : 0;
	}
	if ((e = ds_blklat_open(&w->b, DS_BLKLAT_WHO, ndevs, w->ntdisk)) < 0 ||
	    (e = ds_blklat_add_disks(&w->b, w->r, w->tdisk, w->ntdisk)) < 0 ||
	    (e = ds_blklat_attach(&w->b)) < 0 ||
	    (e = ds_blklat_take(&w->b, w->r, w->tdisk, w->ntdisk, NULL,
	    &w->s[0])) < 0) {
		snprintf(w->why, sizeof(w->why), "%s",
		    e == -EPERM || e == -EACCES ?
		    "refused: kernel lockdown or missing capabilities" :
		    e == -ENOMEM ? "out of memory" : "the kernel refused it");
		ds_blklat_close(&w->b);
		return 0;
	}
	w->tracing = w->traced = 1;
	return 0;
}

int
ds_window_begin(struct ds_window *w, const struct ds_root *r,
    uint64_t window_ns, unsigned int flags)
{
	struct ds_blockdevs bd = { 0 };
	size_t i;
	int e;

	w->r = r;
	w->window_ns = r->live ? window_ns : 0;
	w->flags = flags;
	w->t0 = w->ntick = w->look_next = 0;
	if ((e = ds_whole_disks(r, &w->buf, &bd)) < 0 && e != -ENOENT)
		return e;
	w->nmax = (size_t)(w->window_ns / DS_WINDOW_TICK_NS) + 2;
	w->ndisk = bd.n;
	w->disk = calloc(bd.n ? bd.n : 1, sizeof(*w->disk));
	w->fl = calloc(bd.n ? bd.n * w->nmax : 1, sizeof(*w->fl));
	w->blocked = calloc(w->nmax, sizeof(*w->blocked));
	if (w->disk == NULL || w->fl == NULL || w->blocked == NULL) {
		ds_blockdevs_free(&bd);
		return -ENOMEM;
	}
	for (i = 0; i < bd.n; i++)
		snprintf(w->disk[i], sizeof(w->disk[i]), "%s", bd.name[i]);
	ds_blockdevs_free(&bd);
	snprintf(w->why, sizeof(w->why), "%s", r->live ?
	    "not asked for" : "a captured tree is not traced");
	if (r->live && (flags & DS_WINDOW_TRACE) && (e = trace_open(w)) < 0)
		return e;
	w->have_ticks = 1;
	w->mono0_us = mono_us();
	return 0;
}

/*
 * A look at the threads in an I/O wait (D, and io_uring's wait in S)
 * when the kernel counts some.  A look reads every thread's stat: on a
 * host of many threads the looks are spaced so as to take at most 5%
 * of the window.
 */
static void
look(struct ds_window *w, uint32_t inflight)
{
	uint64_t t0 = ds_boottime_ns(), t1;
	size_t i;

	if (t0 < w->look_next)
		return;
	if (ds_stalls_scan(w->r, 1, &w->scratch, &w->st) < 0)
		return;
	t1 = ds_boottime_ns();
	w->look_next = t1 + LOOK_SPACE * (t1 - t0);
	if (ds_grow(&w->look_fl, &w->lookcap, w->nlooks + 1,
	    sizeof(*w->look_fl)) < 0)
		return;
	w->look_fl[w->nlooks] = inflight;
	for (i = 0; i < w->st.n && w->ntask < DS_WINDOW_TASKS_MAX; i++) {
		const struct ds_stall *t = &w->st.t[i];
		struct ds_tr_task *k;

		if (ds_grow(&w->task, &w->taskcap, w->ntask + 1,
		    sizeof(*w->task)) < 0)
			break;
		k = &w->task[w->ntask++];
		memset(k, 0, sizeof(*k));
		k->pid = t->pid;
		k->tid = t->tid;
		k->wait = t->wait;
		k->kthread = t->kthread;
		k->look = (unsigned int)w->nlooks;
		memcpy(k->comm, t->comm, sizeof(k->comm));
	}
	w->nlooks++;
}

void
ds_window_tick(struct ds_window *w)
{
	const struct ds_disk *d;
	struct ds_procstat ps;
	uint32_t sum = 0, *f;
	uint64_t n;
	int looking;
	size_t i;

	if (w->ntick == 0)
		w->t0 = ds_boottime_ns();
	n = w->ntick++;
	/* One a second, and the last tick: the window's end. */
	looking = n % LOOK_TICKS == LOOK_TICKS / 2 ||
	    w->t0 + (n + 1) * DS_WINDOW_TICK_NS >= w->t0 + w->window_ns;
	if (w->nfl < w->nmax &&
	    ds_diskstats_read(w->r, &w->buf, &w->tick) == 0) {
		for (i = 0; i < w->ndisk; i++) {
			d = ds_diskstats_find(&w->tick, w->disk[i], i);
			f = &w->fl[i * w->nmax + w->nfl];
			*f = d != NULL && d->v[DS_IN_FLIGHT] <= UINT32_MAX ?
			    (uint32_t)d->v[DS_IN_FLIGHT] : 0;
			sum += *f;
		}
		w->nfl++;
	}
	if (w->nblocked < w->nmax &&
	    ds_procstat_read(w->r, &w->scratch, &ps) == 0 &&
	    (ps.have & DS_PS_BLOCKED)) {
		w->blocked[w->nblocked++] = ps.procs_blocked > UINT32_MAX ?
		    UINT32_MAX : (uint32_t)ps.procs_blocked;
		if (looking && ps.procs_blocked > 0)
			look(w, sum);
	}
	/* A failure to tend ends tracing: the window is not traced. */
	if (w->tracing && ds_blklat_tend(&w->b) < 0) {
		w->tracing = w->traced = 0;
		snprintf(w->why, sizeof(w->why), "%s",
		    "its maps could not be read");
		ds_blklat_close(&w->b);
	}
}

int
ds_window_due(const struct ds_window *w, uint64_t *until)
{
	uint64_t end = w->t0 + w->window_ns;
	uint64_t next = w->t0 + w->ntick * DS_WINDOW_TICK_NS;

	if (w->ntick > 0 && next < end) {
		*until = next;
		return 1;
	}
	*until = end;
	return 0;
}

void
ds_window_end(struct ds_window *w)
{
	uint64_t from, to;

	w->mono1_us = mono_us();
	if (w->tracing) {
		if (ds_blklat_take(&w->b, w->r, w->tdisk, w->ntdisk, &w->s[0],
		    &w->s[1]) < 0) {
			w->traced = 0;
			snprintf(w->why, sizeof(w->why), "%s",
			    "its maps could not be read");
		}
		/*
		 * Detached by ds_window_free, not here: closing the
		 * programs' perf events waits for the kernel (about 90 ms
		 * for four), which would fall between the window's end and
		 * the sample its caller reads next.
		 */
	}
	/*
	 * The kernel logs at most 10 errors of a kind per 5 s: a burst just
	 * before the window can hold back every message of the window, so
	 * the 5 s before it count too.  A tree: all its log holds.
	 */
	from = w->r->live && w->mono0_us > KMSG_BACK_US ?
	    w->mono0_us - KMSG_BACK_US : 0;
	to = w->r->live ? w->mono1_us : UINT64_MAX;
	w->kmsg_err = ds_kmsg_ioerrs(w->r, from, to, &w->ioerr);
	if (w->kmsg_err > 0)
		w->kmsg_err = 0;
	w->kmsg_from_us = from;
	w->kmsg_to_us = to;
	w->have_kmsg = 1;
}

const uint32_t *
ds_window_inflight(const struct ds_window *w, const char *name, size_t *n)
{
	size_t i;

	*n = 0;
	for (i = 0; w->have_ticks && i < w->ndisk; i++)
		if (strcmp(w->disk[i], name) == 0) {
			*n = w->nfl;
			return w->fl + i * w->nmax;
		}
	return NULL;
}

void
ds_window_free(struct ds_window *w)
{
	if (w->tracing)
		ds_blklat_close(&w->b);
	free(w->disk);
	free(w->fl);
	free(w->blocked);
	free(w->task);
	free(w->look_fl);
	free(w->tdisk);
	ds_blklat_snap_free(&w->s[0]);
	ds_blklat_snap_free(&w->s[1]);
	ds_ioerrs_free(&w->ioerr);
	ds_diskstats_free(&w->tick);
	ds_stalls_free(&w->st);
	ds_buf_free(&w->buf);
	ds_buf_free(&w->scratch);
	memset(w, 0, sizeof(*w));
}

/* Emitting: the text formats are documented in winload.c. */

/* A name or comm as one word: bytes <= ' ', >= 0x7f and '\' as \xNN. */
static int
put_word(struct ds_buf *b, const char *s, size_t max)
{
	size_t i;
	unsigned char c;
	int e;

	if (s[0] == '\0')
		return ds_buf_appendf(b, "\\x00") < 0 ? -ENOMEM : 0;
	for (i = 0; i < max && s[i] != '\0'; i++) {
		c = (unsigned char)s[i];
		e = c <= ' ' || c >= 0x7f || c == '\\' ?
		    ds_buf_appendf(b, "\\x%02x", c) :
		    ds_buf_appendf(b, "%c", c);
		if (e < 0)
			return -ENOMEM;
	}
	return 0;
}

#define APP(...) do { if (ds_buf_appendf(b, __VA_ARGS__) < 0) \
	return -ENOMEM; } while (0)

static int
put_u32s(struct ds_buf *b, const uint32_t *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		APP(" %u", (unsigned)v[i]);
	APP("\n");
	return 0;
}

static int
window_text(const struct ds_window *w, struct ds_buf *b)
{
	const struct ds_tr_task *t;
	size_t i;

	APP("window 1\ntick_ns %llu\nticks %zu\n",
	    (unsigned long long)DS_WINDOW_TICK_NS, w->nfl);
	for (i = 0; i < w->ndisk; i++) {
		APP("disk ");
		if (put_word(b, w->disk[i], sizeof(w->disk[i])) < 0 ||
		    put_u32s(b, w->fl + i * w->nmax, w->nfl) < 0)
			return -ENOMEM;
	}
	APP("blocked %zu", w->nblocked);
	if (put_u32s(b, w->blocked, w->nblocked) < 0)
		return -ENOMEM;
	APP("looks %zu", w->nlooks);
	if (put_u32s(b, w->look_fl, w->nlooks) < 0)
		return -ENOMEM;
	for (i = 0; i < w->ntask; i++) {
		t = &w->task[i];
		APP("task %u %d %d %d %d ", t->look, t->pid, t->tid, t->wait,
		    t->kthread);
		if (put_word(b, t->comm, sizeof(t->comm)) < 0)
			return -ENOMEM;
		APP("\n");
	}
	return 0;
}

/* A histogram's figures and its buckets from first to last in use. */
static int
put_lat(struct ds_buf *b, const struct ds_lat *h)
{
	unsigned int first = 0, last = 0, i;
	uint64_t top;
	int used = ds_lat_span(h, &first, &last, &top) == 0;

	APP(" %llu %llu %llu %u %u", (unsigned long long)h->count,
	    (unsigned long long)h->sum_ns, (unsigned long long)h->max_ns,
	    used ? first : 0, used ? last - first + 1 : 0);
	for (i = first; used && i <= last; i++)
		APP(" %llu", (unsigned long long)h->b[i]);
	APP("\n");
	return 0;
}

static int
dlat_text(const struct ds_window *w, const struct ds_blklat_snap *s,
    struct ds_buf *b)
{
	struct ds_lat h;
	size_t i;

	APP("dlat 1\n");
	for (i = 0; i < w->ntdisk; i++) {
		APP("disk ");
		if (put_word(b, w->tdisk[i].name, sizeof(w->tdisk[i].name)) < 0)
			return -ENOMEM;
		APP(" %u\n", (unsigned)w->tdisk[i].dev);
	}
	APP("miss");
	for (i = 0; i < DS_MISS_N; i++)
		APP(" %llu", (unsigned long long)s->miss[i]);
	APP("\nissued %llu\ndone %llu\nrecursion %d\n",
	    (unsigned long long)s->issued, (unsigned long long)s->done,
	    s->have_recursion != 0);
	for (i = 0; i < s->n; i++) {
		const struct ds_blklat_row *r = &s->r[i];

		ds_blklat_row_lat(s, r, &h);
		APP("row %u %u %u", (unsigned)r->dev, r->op, r->phase);
		if (put_lat(b, &h) < 0)
			return -ENOMEM;
	}
	for (i = 0; i < s->nw; i++) {
		const struct ds_blklat_who *o = &s->w[i];

		APP("who %u %u ", (unsigned)o->dev, (unsigned)o->pid);
		if (put_word(b, o->comm, sizeof(o->comm)) < 0)
			return -ENOMEM;
		APP(" %llu", (unsigned long long)o->bytes);
		if (put_lat(b, &o->h) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int
kmsg_text(const struct ds_window *w, struct ds_buf *b)
{
	const struct ds_ioerrs *o = &w->ioerr;
	size_t i;

	APP("kmsg 1\nfrom_us %llu\nto_us %llu\nerror %d\n",
	    (unsigned long long)w->kmsg_from_us,
	    (unsigned long long)w->kmsg_to_us, -w->kmsg_err);
	APP("records %zu\nmalformed %zu\nrefused %zu\nignored %zu\n"
	    "suppressed %llu\n", o->records, o->malformed, o->refused,
	    o->ignored, (unsigned long long)o->suppressed);
	for (i = 0; w->kmsg_err == 0 && i < o->n; i++) {
		const struct ds_ioerr *e = &o->e[i];

		APP("ioerr ");
		if (put_word(b, e->dev, sizeof(e->dev)) < 0)
			return -ENOMEM;
		APP(" %llu %llu %llu %llu %llu ", (unsigned long long)e->count,
		    (unsigned long long)e->buffer,
		    (unsigned long long)e->suppressed,
		    (unsigned long long)e->first_us,
		    (unsigned long long)e->last_us);
		if (e->have_sector)
			APP("%llu ", (unsigned long long)e->sector);
		else
			APP("- ");
		if (put_word(b, e->op, sizeof(e->op)) < 0)
			return -ENOMEM;
		APP(" ");
		if (put_word(b, e->kind, sizeof(e->kind)) < 0)
			return -ENOMEM;
		APP("\n");
	}
	return 0;
}

int
ds_window_emit(const struct ds_window *w,
    int (*emit)(void *arg, const char *name, const char *data, size_t len),
    void *arg)
{
	struct ds_buf b = { 0 };
	int e;

	if ((e = window_text(w, &b)) < 0 ||
	    (e = emit(arg, DS_WINDOW_MEMBER, b.data, b.len)) != 0)
		goto out;
	if (w->traced) {
		b.len = 0;
		if ((e = dlat_text(w, &w->s[0], &b)) < 0 ||
		    (e = emit(arg, DS_WINDOW_DLAT0, b.data, b.len)) != 0)
			goto out;
		b.len = 0;
		if ((e = dlat_text(w, &w->s[1], &b)) < 0 ||
		    (e = emit(arg, DS_WINDOW_DLAT1, b.data, b.len)) != 0)
			goto out;
	}
	b.len = 0;
	if ((e = kmsg_text(w, &b)) < 0)
		goto out;
	e = emit(arg, DS_WINDOW_KMSG, b.data, b.len);
out:
	ds_buf_free(&b);
	return e;
}
