/*
 * A window read back from a capture's members (lib/window.c writes
 * them).  Each is lines of words separated by one space; a word that
 * is a name has its bytes <= ' ', >= 0x7f and '\' written \xNN ("\x00"
 * for an empty name).  Counts are bounded, every number checked, and
 * any line out of place is an error naming the member and the line: a
 * capture may have been cut short or edited by hand.
 *
 * capture/window (format 1):
 *	window 1
 *	tick_ns 100000000
 *	ticks N			ticks with diskstats read
 *	disk NAME V1 .. VN	per whole disk: in_flight at each tick
 *	blocked M V1 .. VM	procs_blocked at each tick
 *	looks K V1 .. VK	looks at stalled threads: in flight at each
 *	task LOOK PID TID WAIT KTHREAD COMM	a thread seen in a look
 *				(WAIT an enum ds_wait)
 * capture/dlat.0, capture/dlat.1 (format 1), a struct ds_blklat_snap:
 *	dlat 1
 *	disk NAME DEV		a disk traced (dev as the tracepoints log it)
 *	miss M0 .. M5		missed events (DS_MISS_*)
 *	issued N  done N  recursion 0|1		(one a line)
 *	row DEV OP PHASE COUNT SUM_NS MAX_NS FIRST NB B1 .. BNB
 *	who DEV PID COMM BYTES COUNT SUM_NS MAX_NS FIRST NB B1 .. BNB
 *				rows and who sorted by key, as taken
 * capture/kmsg (format 1), a struct ds_ioerrs:
 *	kmsg 1
 *	from_us N  to_us N	the window, the kernel log's clock
 *	error ERRNO		0, or why the log could not be read
 *	records N  malformed N  refused N  ignored N  suppressed N
 *	ioerr DEV COUNT BUFFER SUPPRESSED FIRST_US LAST_US SECTOR|- OP KIND
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define WORDS_MAX (DS_WINDOW_TICKS_MAX + 16)

struct pl {
	struct ds_window *w;
	const char *member;
	size_t line;
	char *word[WORDS_MAX];
	size_t n;
	size_t diskcap, flcap;	/* capture/window's arrays */
};

static int
bad(struct pl *p, const char *fmt, ...)
{
	char msg[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(p->w->err, sizeof(p->w->err), "%s: line %zu: %s", p->member,
	    p->line, msg);
	return -EINVAL;
}

/* Word i as a number no more than max. */
static int
num(struct pl *p, size_t i, uint64_t max, uint64_t *v)
{
	const char *s = p->word[i];
	unsigned d;

	*v = 0;
	if (*s == '\0')
		return bad(p, "word %zu: not a number", i + 1);
	for (; *s != '\0'; s++) {
		if ((d = (unsigned)(*s - '0')) > 9)
			return bad(p, "word %zu: not a number", i + 1);
		if (*v > (UINT64_MAX - d) / 10 || *v * 10 + d > max)
			return bad(p, "word %zu: too large", i + 1);
		*v = *v * 10 + d;
	}
	return 0;
}

/* Word i unescaped into out (size bytes, NUL-terminated, not empty). */
static int
name(struct pl *p, size_t i, char *out, size_t size)
{
	const char *s = p->word[i];
	size_t n = 0;
	unsigned int c, k;

	if (strcmp(s, "\\x00") == 0) {
		out[0] = '\0';
		return 0;
	}
	for (; *s != '\0'; s++) {
		c = (unsigned char)*s;
		if (c == '\\') {
			if (s[1] != 'x')
				return bad(p, "word %zu: a bad escape", i + 1);
			for (c = 0, k = 2; k < 4; k++) {
				char h = s[k];

				if (h >= '0' && h <= '9')
					c = c * 16 + (unsigned)(h - '0');
				else if (h >= 'a' && h <= 'f')
					c = c * 16 + (unsigned)(h - 'a' + 10);
				else
					return bad(p, "word %zu: a bad escape",
					    i + 1);
			}
			if (c == 0)
				return bad(p, "word %zu: a NUL", i + 1);
			s += 3;
		} else if (c <= ' ' || c >= 0x7f)
			return bad(p, "word %zu: an unescaped byte", i + 1);
		if (n + 1 >= size)
			return bad(p, "word %zu: too long", i + 1);
		out[n++] = (char)c;
	}
	out[n] = '\0';
	return 0;
}

/* Split line (modified) into p->word at single spaces. */
static int
split(struct pl *p, char *line)
{
	char *s = line;

	p->n = 0;
	for (;;) {
		if (p->n == WORDS_MAX)
			return bad(p, "too many words");
		p->word[p->n++] = s;
		if ((s = strchr(s, ' ')) == NULL)
			return 0;
		*s++ = '\0';
	}
}

static int
want(struct pl *p, size_t n)
{
	return p->n == n ? 0 : bad(p, "%zu words, not %zu", p->n, n);
}

/* The header "KEY 1": the only format known. */
static int
header(struct pl *p, const char *key)
{
	if (p->n != 2 || strcmp(p->word[0], key) != 0)
		return bad(p, "not a %s member (no \"%s 1\" line)", key, key);
	if (strcmp(p->word[1], "1") != 0)
		return bad(p, "format %s: this version reads format 1",
		    p->word[1]);
	return 0;
}

/* Words from i on as n uint32 values into v. */
static int
u32s(struct pl *p, size_t i, size_t n, uint32_t *v)
{
	uint64_t x;
	size_t k;
	int e;

	if (p->n != i + n)
		return bad(p, "%zu values, not %zu", p->n - i, n);
	for (k = 0; k < n; k++) {
		if ((e = num(p, i + k, UINT32_MAX, &x)) < 0)
			return e;
		v[k] = (uint32_t)x;
	}
	return 0;
}

/* capture/window's lines after the header. */
static int
window_line(struct pl *p)
{
	struct ds_window *w = p->w;
	const char *k = p->word[0];
	struct ds_tr_task *t;
	uint64_t v[5];
	size_t i;
	int e;

	if (strcmp(k, "tick_ns") == 0) {
		if ((e = want(p, 2)) < 0 || (e = num(p, 1, UINT64_MAX, v)) < 0)
			return e;
		return v[0] == DS_WINDOW_TICK_NS ? 0 :
		    bad(p, "ticks of %llu ns, not %llu", (unsigned long long)v[0],
		    (unsigned long long)DS_WINDOW_TICK_NS);
	}
	if (strcmp(k, "ticks") == 0) {
		if (w->nmax != 0)
			return bad(p, "a second ticks line");
		if ((e = want(p, 2)) < 0 ||
		    (e = num(p, 1, DS_WINDOW_TICKS_MAX, v)) < 0)
			return e;
		w->nfl = (size_t)v[0];
		w->nmax = w->nfl ? w->nfl : 1;
		return 0;
	}
	if (strcmp(k, "disk") == 0) {
		if (w->nmax == 0)
			return bad(p, "a disk before the ticks line");
		if (w->ndisk == DS_WINDOW_DISKS_MAX)
			return bad(p, "more than %u disks", DS_WINDOW_DISKS_MAX);
		if (p->n < 2)
			return bad(p, "no disk name");
		if ((e = ds_grow(&w->disk, &p->diskcap, w->ndisk + 1,
		    sizeof(*w->disk))) < 0 ||
		    (e = ds_grow(&w->fl, &p->flcap, (w->ndisk + 1) * w->nmax,
		    sizeof(*w->fl))) < 0)
			return e;
		if ((e = name(p, 1, w->disk[w->ndisk], sizeof(*w->disk))) < 0)
			return e;
		if (w->disk[w->ndisk][0] == '\0')
			return bad(p, "an empty disk name");
		for (i = 0; i < w->ndisk; i++)
			if (strcmp(w->disk[i], w->disk[w->ndisk]) == 0)
				return bad(p, "disk %s twice", w->disk[i]);
		if ((e = u32s(p, 2, w->nfl, w->fl + w->ndisk * w->nmax)) < 0)
			return e;
		w->ndisk++;
		return 0;
	}
	if (strcmp(k, "blocked") == 0 || strcmp(k, "looks") == 0) {
		int blk = k[0] == 'b';
		uint32_t **a = blk ? &w->blocked : &w->look_fl;
		size_t *n = blk ? &w->nblocked : &w->nlooks;

		if (*a != NULL)
			return bad(p, "a second %s line", k);
		if (p->n < 2 || (e = num(p, 1, DS_WINDOW_TICKS_MAX, v)) < 0)
			return p->n < 2 ? bad(p, "no count") : e;
		if ((*a = calloc(v[0] ? v[0] : 1, sizeof(**a))) == NULL)
			return -ENOMEM;
		if (!blk)
			w->lookcap = v[0] ? v[0] : 1;
		*n = (size_t)v[0];
		return u32s(p, 2, *n, *a);
	}
	if (strcmp(k, "task") == 0) {
		if (w->look_fl == NULL)
			return bad(p, "a task before the looks line");
		if (w->ntask == DS_WINDOW_TASKS_MAX)
			return bad(p, "more than %u tasks", DS_WINDOW_TASKS_MAX);
		if ((e = want(p, 7)) < 0 ||
		    (e = num(p, 1, w->nlooks ? w->nlooks - 1 : 0, &v[0])) < 0 ||
		    (e = num(p, 2, INT32_MAX, &v[1])) < 0 ||
		    (e = num(p, 3, INT32_MAX, &v[2])) < 0 ||
		    (e = num(p, 4, DS_WAIT_N - 1, &v[3])) < 0 ||
		    (e = num(p, 5, 1, &v[4])) < 0)
			return e;
		if (w->nlooks == 0)
			return bad(p, "a task without a look");
		if (ds_grow(&w->task, &w->taskcap, w->ntask + 1,
		    sizeof(*w->task)) < 0)
			return -ENOMEM;
		t = &w->task[w->ntask];
		memset(t, 0, sizeof(*t));
		t->look = (unsigned int)v[0];
		t->pid = (int)v[1];
		t->tid = (int)v[2];
		t->wait = (int)v[3];
		t->kthread = (int)v[4];
		if ((e = name(p, 6, t->comm, sizeof(t->comm))) < 0)
			return e;
		w->ntask++;
		return 0;
	}
	return bad(p, "unknown line \"%.32s\"", k);
}

/* A histogram's words from i: COUNT SUM MAX FIRST NB B1 .. BNB. */
static int
lat(struct pl *p, size_t i, struct ds_lat *h)
{
	uint64_t first, nb, v;
	size_t k;
	int e;

	memset(h, 0, sizeof(*h));
	if (p->n < i + 5)
		return bad(p, "a histogram cut short");
	if ((e = num(p, i, UINT64_MAX, &h->count)) < 0 ||
	    (e = num(p, i + 1, UINT64_MAX, &h->sum_ns)) < 0 ||
	    (e = num(p, i + 2, UINT64_MAX, &h->max_ns)) < 0 ||
	    (e = num(p, i + 3, DS_LAT_NB - 1, &first)) < 0 ||
	    (e = num(p, i + 4, DS_LAT_NB - first, &nb)) < 0)
		return e;
	if (p->n != i + 5 + nb)
		return bad(p, "%zu buckets, not %llu", p->n - i - 5,
		    (unsigned long long)nb);
	for (k = 0; k < nb; k++) {
		if ((e = num(p, i + 5 + k, UINT64_MAX, &v)) < 0)
			return e;
		h->b[first + k] = v;
	}
	return 0;
}

struct dlat_state {
	struct ds_blklat_snap *s;
	struct ds_blkdisk *disk;
	size_t ndisk, cap;
};

static int
key_cmp(uint64_t a0, uint64_t a1, uint64_t b0, uint64_t b1)
{
	return a0 != b0 ? (a0 < b0 ? -1 : 1) : (a1 > b1) - (a1 < b1);
}

static int
dlat_line(struct pl *p, struct dlat_state *d)
{
	struct ds_blklat_snap *s = d->s;
	const char *k = p->word[0];
	struct ds_blklat_row *r;
	struct ds_blklat_who *o;
	uint64_t v[3];
	struct ds_lat h;
	size_t i;
	int e;

	if (strcmp(k, "disk") == 0) {
		if (d->ndisk == DS_WINDOW_DISKS_MAX)
			return bad(p, "more than %u disks", DS_WINDOW_DISKS_MAX);
		if ((e = want(p, 3)) < 0 || (e = num(p, 2, UINT32_MAX, v)) < 0)
			return e;
		if ((e = ds_grow(&d->disk, &d->cap, d->ndisk + 1,
		    sizeof(*d->disk))) < 0)
			return e;
		if ((e = name(p, 1, d->disk[d->ndisk].name,
		    sizeof(d->disk[d->ndisk].name))) < 0)
			return e;
		if (d->disk[d->ndisk].name[0] == '\0')
			return bad(p, "an empty disk name");
		d->disk[d->ndisk].dev = (uint32_t)v[0];
		for (i = 0; i < d->ndisk; i++)
			if (d->disk[i].dev == (uint32_t)v[0])
				return bad(p, "device %llu twice",
				    (unsigned long long)v[0]);
		d->ndisk++;
		return 0;
	}
	if (strcmp(k, "miss") == 0) {
		if ((e = want(p, 1 + DS_MISS_N)) < 0)
			return e;
		for (i = 0; i < DS_MISS_N; i++)
			if ((e = num(p, 1 + i, UINT64_MAX, &s->miss[i])) < 0)
				return e;
		return 0;
	}
	if (strcmp(k, "issued") == 0 || strcmp(k, "done") == 0 ||
	    strcmp(k, "recursion") == 0) {
		if ((e = want(p, 2)) < 0 || (e = num(p, 1, k[0] == 'r' ? 1 :
		    UINT64_MAX, v)) < 0)
			return e;
		if (k[0] == 'i')
			s->issued = v[0];
		else if (k[0] == 'd')
			s->done = v[0];
		else
			s->have_recursion = (int)v[0];
		return 0;
	}
	if (strcmp(k, "row") == 0) {
		if (s->n == DS_WINDOW_ROWS_MAX)
			return bad(p, "more than %u rows", DS_WINDOW_ROWS_MAX);
		if (s->nw > 0)
			return bad(p, "a row after the who lines");
		if (p->n < 4 || (e = num(p, 1, UINT32_MAX, &v[0])) < 0 ||
		    (e = num(p, 2, DS_BLK_OPS - 1, &v[1])) < 0 ||
		    (e = num(p, 3, DS_BLK_PHASES - 1, &v[2])) < 0)
			return p->n < 4 ? bad(p, "a row cut short") : e;
		if (s->n > 0 && key_cmp(s->r[s->n - 1].dev,
		    s->r[s->n - 1].op * 4u + s->r[s->n - 1].phase, v[0],
		    v[1] * 4 + v[2]) >= 0)
			return bad(p, "rows out of order");
		if ((e = lat(p, 4, &h)) < 0)
			return e;
		if ((e = ds_grow(&s->r, &s->cap, s->n + 1, sizeof(*s->r))) < 0)
			return e;
		r = &s->r[s->n];
		memset(r, 0, sizeof(*r));
		if ((e = ds_blklat_row_set(s, r, &h)) < 0)
			return e;
		r->dev = (uint32_t)v[0];
		r->op = (unsigned int)v[1];
		r->phase = (unsigned int)v[2];
		s->n++;
		return 0;
	}
	if (strcmp(k, "who") == 0) {
		if (s->nw == DS_BLKLAT_WHO_MAX)
			return bad(p, "more than %u who lines",
			    DS_BLKLAT_WHO_MAX);
		if (p->n < 5 || (e = num(p, 1, UINT32_MAX, &v[0])) < 0 ||
		    (e = num(p, 2, UINT32_MAX, &v[1])) < 0 ||
		    (e = num(p, 4, UINT64_MAX, &v[2])) < 0)
			return p->n < 5 ? bad(p, "a who line cut short") : e;
		if (s->nw > 0 && key_cmp(s->w[s->nw - 1].dev,
		    s->w[s->nw - 1].pid, v[0], v[1]) >= 0)
			return bad(p, "who lines out of order");
		if ((e = ds_grow(&s->w, &s->capw, s->nw + 1, sizeof(*s->w))) < 0)
			return e;
		o = &s->w[s->nw];
		memset(o, 0, sizeof(*o));
		if ((e = name(p, 3, o->comm, sizeof(o->comm))) < 0 ||
		    (e = lat(p, 5, &o->h)) < 0)
			return e;
		o->dev = (uint32_t)v[0];
		o->pid = (uint32_t)v[1];
		o->bytes = v[2];
		s->nw++;
		return 0;
	}
	return bad(p, "unknown line \"%.32s\"", k);
}

static int
kmsg_line(struct pl *p)
{
	static const char *const keys[] = { "from_us", "to_us", "error",
	    "records", "malformed", "refused", "ignored", "suppressed" };
	struct ds_window *w = p->w;
	struct ds_ioerrs *o = &w->ioerr;
	const char *k = p->word[0];
	struct ds_ioerr *x;
	uint64_t v[6];
	size_t i;
	int e;

	for (i = 0; i < nitems(keys); i++) {
		if (strcmp(k, keys[i]) != 0)
			continue;
		if ((e = want(p, 2)) < 0 || (e = num(p, 1, i == 2 ? 4095 :
		    i >= 3 && i <= 6 ? SIZE_MAX : UINT64_MAX, v)) < 0)
			return e;
		switch (i) {
		case 0: w->kmsg_from_us = v[0]; break;
		case 1: w->kmsg_to_us = v[0]; break;
		case 2: w->kmsg_err = -(int)v[0]; break;
		case 3: o->records = (size_t)v[0]; break;
		case 4: o->malformed = (size_t)v[0]; break;
		case 5: o->refused = (size_t)v[0]; break;
		case 6: o->ignored = (size_t)v[0]; break;
		default: o->suppressed = v[0]; break;
		}
		return 0;
	}
	if (strcmp(k, "ioerr") != 0)
		return bad(p, "unknown line \"%.32s\"", k);
	if (o->n == DS_WINDOW_DISKS_MAX)
		return bad(p, "more than %u ioerr lines", DS_WINDOW_DISKS_MAX);
	if ((e = want(p, 10)) < 0)
		return e;
	for (i = 0; i < 5; i++)
		if ((e = num(p, 2 + i, UINT64_MAX, &v[i])) < 0)
			return e;
	if ((e = ds_grow(&o->e, &o->cap, o->n + 1, sizeof(*o->e))) < 0)
		return e;
	x = &o->e[o->n];
	memset(x, 0, sizeof(*x));
	if ((e = name(p, 1, x->dev, sizeof(x->dev))) < 0 ||
	    (e = name(p, 8, x->op, sizeof(x->op))) < 0 ||
	    (e = name(p, 9, x->kind, sizeof(x->kind))) < 0)
		return e;
	if (x->dev[0] == '\0')
		return bad(p, "an empty device name");
	if (strcmp(p->word[7], "-") != 0) {
		if ((e = num(p, 7, UINT64_MAX, &x->sector)) < 0)
			return e;
		x->have_sector = 1;
	}
	x->count = v[0];
	x->buffer = v[1];
	x->suppressed = v[2];
	x->first_us = v[3];
	x->last_us = v[4];
	o->n++;
	return 0;
}

/* Each line of text (a copy, modified) given to the member's parser. */
static int
parse(struct pl *p, const char *key, char *text, size_t len,
    struct dlat_state *d)
{
	char *s = text, *end = text + len, *nl;
	int e;

	if (memchr(text, '\0', len) != NULL)
		return p->line = 0, bad(p, "a NUL byte");
	if (len == 0 || text[len - 1] != '\n')
		return p->line = 0, bad(p, "cut short (no newline at its end)");
	for (p->line = 1; s < end; s = nl + 1, p->line++) {
		nl = memchr(s, '\n', (size_t)(end - s));
		*nl = '\0';
		if ((e = split(p, s)) < 0)
			return e;
		if (p->line == 1)
			e = header(p, key);
		else if (strcmp(key, "window") == 0)
			e = window_line(p);
		else if (strcmp(key, "dlat") == 0)
			e = dlat_line(p, d);
		else
			e = kmsg_line(p);
		if (e < 0)
			return e;
	}
	return 0;
}

/* dlat.1's disks kept (dlat.0's must be the same). */
static int
dlat_disks(struct pl *p, struct dlat_state *d)
{
	struct ds_window *w = p->w;
	size_t i;

	if (w->tdisk == NULL) {
		w->tdisk = d->disk;
		w->ntdisk = d->ndisk;
		d->disk = NULL;
		return 0;
	}
	if (w->ntdisk != d->ndisk)
		return p->line = 0, bad(p, "other disks than the other snapshot");
	for (i = 0; i < d->ndisk; i++)
		if (w->tdisk[i].dev != d->disk[i].dev ||
		    strcmp(w->tdisk[i].name, d->disk[i].name) != 0)
			return p->line = 0,
			    bad(p, "other disks than the other snapshot");
	return 0;
}

int
ds_window_parse(struct ds_window *w, const char *member, const char *text,
    size_t len)
{
	struct dlat_state d = { 0 };
	struct pl *p;
	const char *key;
	char *copy;
	int e, k = -1;

	if (strcmp(member, DS_WINDOW_MEMBER) == 0)
		key = "window";
	else if (strcmp(member, DS_WINDOW_KMSG) == 0)
		key = "kmsg";
	else if (strcmp(member, DS_WINDOW_DLAT0) == 0 ||
	    strcmp(member, DS_WINDOW_DLAT1) == 0) {
		key = "dlat";
		k = member[strlen(member) - 1] - '0';
		ds_blklat_snap_free(&w->s[k]);
		d.s = &w->s[k];
	} else
		return -EINVAL;
	if ((p = calloc(1, sizeof(*p))) == NULL ||
	    (copy = malloc(len + 1)) == NULL) {
		free(p);
		return -ENOMEM;
	}
	memcpy(copy, text, len);
	copy[len] = '\0';
	p->w = w;
	p->member = member;
	if (key[0] == 'w' && (w->disk != NULL || w->nmax != 0 ||
	    w->blocked != NULL || w->look_fl != NULL))
		e = bad(p, "read twice");
	else
		e = parse(p, key, copy, len, &d);
	if (e == 0 && key[0] == 'w') {
		if (w->nmax == 0 || w->blocked == NULL || w->look_fl == NULL)
			e = (p->line = 0, bad(p, "cut short (no %s line)",
			    w->nmax == 0 ? "ticks" : w->blocked == NULL ?
			    "blocked" : "looks"));
		w->have_ticks = e == 0;
	}
	if (e == 0 && key[0] == 'k')
		w->have_kmsg = 1;
	if (e == 0 && k >= 0)
		e = dlat_disks(p, &d);
	free(d.disk);
	free(copy);
	free(p);
	return e;
}

/* meta's traced_why, or a sentence when it has none. */
static void
traced_why(struct ds_window *w, const struct ds_root *r)
{
	const char *s, *nl;
	size_t n;

	snprintf(w->why, sizeof(w->why), "%s", "the capture records no reason");
	if (ds_capture_read(r, DS_CAPTURE_META, &w->scratch) < 0)
		return;
	for (s = w->scratch.data; *s != '\0'; s = *nl ? nl + 1 : nl) {
		if ((nl = strchr(s, '\n')) == NULL)
			nl = s + strlen(s);
		if (strncmp(s, "traced_why ", 11) != 0)
			continue;
		n = (size_t)(nl - s - 11);
		snprintf(w->why, sizeof(w->why), "%.*s",
		    (int)(n < sizeof(w->why) ? n : sizeof(w->why) - 1), s + 11);
		return;
	}
}

/* A member into w by ds_window_parse: 0 read, 1 absent, or -errno. */
static int
member(struct ds_window *w, const struct ds_root *r, const char *name)
{
	int e;

	if ((e = ds_capture_read(r, name, &w->buf)) == -ENOENT)
		return 1;
	if (e < 0) {
		snprintf(w->err, sizeof(w->err), "%s: %s", name, strerror(-e));
		return e;
	}
	return ds_window_parse(w, name, w->buf.data, w->buf.len);
}

int
ds_window_load(struct ds_window *w, const struct ds_root *r)
{
	int e, d0, d1;

	if (r->nsamples == 0)
		return -ENOENT;
	w->r = r;
	w->err[0] = '\0';
	if ((e = member(w, r, DS_WINDOW_MEMBER)) < 0 ||
	    (e = member(w, r, DS_WINDOW_KMSG)) < 0 ||
	    (d0 = e = member(w, r, DS_WINDOW_DLAT0)) < 0 ||
	    (d1 = e = member(w, r, DS_WINDOW_DLAT1)) < 0)
		return e;
	if (d0 != d1) {
		snprintf(w->err, sizeof(w->err), "%s without %s",
		    d0 ? DS_WINDOW_DLAT1 : DS_WINDOW_DLAT0,
		    d0 ? DS_WINDOW_DLAT0 : DS_WINDOW_DLAT1);
		return -EINVAL;
	}
	w->traced = d0 == 0;
	if (!w->traced)
		traced_why(w, r);
	else
		w->why[0] = '\0';
	return 0;
}
