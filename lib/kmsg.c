/*
 * Disk errors in the kernel log (/dev/kmsg), per disk over a window, and
 * the SCSI midlayer's error counters.
 *
 * A /dev/kmsg record is "PRI,SEQ,TS_US,FLAGS[,...];TEXT\n", then
 * continuation lines " KEY=VALUE" (Documentation/ABI/testing/dev-kmsg);
 * TEXT has its unprintable bytes escaped as \xNN.  The block layer's
 * messages over the versions (block/blk-core.c, block/blk-mq.c):
 *
 *   6.x    I/O error, dev loop1, sector 2048 op 0x0:(READ) flags 0x800
 *          phys_seg 1 prio class 2
 *   5.0+   blk_update_request: I/O error, dev sda, sector 1234 op
 *          0x0:(READ) flags 0x0 phys_seg 1 prio class 0
 *   4.20   print_req_error: I/O error, dev sda, sector 1234 op 0x0 flags 0x0
 *   4.13+  print_req_error: I/O error, dev sda, sector 1234
 *   older  blk_update_request: I/O error, dev sda, sector 1234
 *          end_request: I/O error, dev sda, sector 1234
 *
 * the first word being blk_errors[]'s name of the status ("I/O",
 * "critical medium", "timeout", "critical target"...), and fs/buffer.c's
 * "Buffer I/O error on dev loop1, logical block 300, async page read"
 * ("on device" before 3.x).  All of them are printk_ratelimited: past 10
 * in 5 s the rest are dropped, and the next one that passes comes after
 * "blk_print_req_error: 20 callbacks suppressed".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

#define KMSG_READ	16384	/* larger than any record (8 KiB at most) */
#define KMSG_SLACK_US	1000000	/* records a CPU stamped a little late */

void
ds_ioerrs_free(struct ds_ioerrs *e)
{
	free(e->e);
	memset(e, 0, sizeof(*e));
}

/* Decimal digits at *p before end: 0 with *p past them, or -EINVAL/-ERANGE. */
static int
num(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p;
	unsigned d;

	*v = 0;
	if (s == end || (unsigned)(*s - '0') > 9)
		return -EINVAL;
	for (; s < end && (d = (unsigned)(*s - '0')) <= 9; s++) {
		if (*v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		*v = *v * 10 + d;
	}
	*p = s;
	return 0;
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Hex digits at *p before end (no "0x"): as num. */
static int
hexnum(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p;
	int d;

	*v = 0;
	if (s == end || hexval(*s) < 0)
		return -EINVAL;
	for (; s < end && (d = hexval(*s)) >= 0; s++) {
		if (*v > UINT64_MAX >> 4)
			return -ERANGE;
		*v = *v << 4 | (uint64_t)d;
	}
	*p = s;
	return 0;
}

/* The text at *p starts with lit: 1 with *p past it, else 0. */
static int
skip(const char **p, const char *end, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(end - *p) < n || memcmp(*p, lit, n) != 0)
		return 0;
	*p += n;
	return 1;
}

/* The kernel's name of a disk: [A-Za-z0-9_.:-]+, shorter than size. */
static int
good_name(const char *s, size_t n, size_t size)
{
	size_t i;
	char c;

	if (n == 0 || n >= size)
		return 0;
	for (i = 0; i < n; i++) {
		c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '_' || c == '.' ||
		    c == ':' || c == '-'))
			return 0;
	}
	return 1;
}

/* What a blk_errors[] name may hold: lower case words, '/' of "I/O". */
static int
good_kind(const char *s, size_t n)
{
	size_t i;
	char c;

	if (n == 0 || n > 25)
		return 0;
	for (i = 0; i < n; i++) {
		c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == ' ' || c == '/' || c == '-'))
			return 0;
	}
	return 1;
}

/* REQ_OP_* numbers that never changed (include/linux/blk_types.h). */
static const char *
op_by_number(uint64_t op)
{
	static const char *const names[] = { "READ", "WRITE", "FLUSH",
	    "DISCARD" };

	return op < nitems(names) ? names[op] : "";
}

struct hit {
	const char *dev;
	size_t devlen;
	char kind[32];
	const char *op;
	size_t oplen;
	uint64_t sector;
	int have_sector;
	int buffer;
};

static int
count(struct ds_ioerrs *o, const struct hit *h, uint64_t ts)
{
	struct ds_ioerr *e = NULL;
	size_t i;

	for (i = 0; i < o->n; i++)
		if (strlen(o->e[i].dev) == h->devlen &&
		    memcmp(o->e[i].dev, h->dev, h->devlen) == 0) {
			e = &o->e[i];
			break;
		}
	if (e == NULL) {
		if (ds_grow(&o->e, &o->cap, o->n + 1, sizeof(*o->e)) < 0)
			return -ENOMEM;
		e = &o->e[o->n++];
		memset(e, 0, sizeof(*e));
		memcpy(e->dev, h->dev, h->devlen);
		e->first_us = ts;
		e->sector = h->sector;
		e->have_sector = h->have_sector;
		memcpy(e->op, h->op, h->oplen);
		memcpy(e->kind, h->kind, sizeof(e->kind));
	}
	e->count++;
	e->buffer += h->buffer != 0;
	if (ts > e->last_us)
		e->last_us = ts;
	e->suppressed += o->pending;
	o->pending = 0;
	return 1;
}

/* "FUNC: N callbacks suppressed" of a function that prints our messages. */
static int
suppressed(const char *p, const char *end, uint64_t *n)
{
	static const char *const funcs[] = { "blk_print_req_error: ",
	    "print_req_error: ", "blk_update_request: ", "buffer_io_error: ",
	    "end_request: " };
	size_t i;

	for (i = 0; i < nitems(funcs); i++)
		if (skip(&p, end, funcs[i]))
			break;
	if (i == nitems(funcs))
		return 0;
	return num(&p, end, n) == 0 && skip(&p, end, " callbacks suppressed") &&
	    p == end;
}

/*
 * "Buffer I/O error on dev NAME, logical block N, async page read":
 * 1 with h set, 0 not such a message, -1 a refused name.
 */
static int
buffer_error(const char *p, const char *end, struct hit *h)
{
	const char *name, *comma;
	uint64_t block;

	if (!skip(&p, end, "Buffer I/O error on dev") ||
	    !(skip(&p, end, "ice ") || skip(&p, end, " ")))
		return 0;
	name = p;
	if ((comma = memchr(p, ',', (size_t)(end - p))) == NULL)
		return 0;
	p = comma;
	if (!skip(&p, end, ", logical block ") || num(&p, end, &block) < 0)
		return 0;
	if (!good_name(name, (size_t)(comma - name), sizeof(((struct ds_ioerr *)0)->dev)))
		return -1;
	h->dev = name;
	h->devlen = (size_t)(comma - name);
	snprintf(h->kind, sizeof(h->kind), "Buffer I/O error");
	h->buffer = 1;
	/* The logical block is in the filesystem's block size: no sector. */
	if (skip(&p, end, ", async page read"))
		h->op = "READ";
	else if (skip(&p, end, ", lost async page write") ||
	    skip(&p, end, ", lost sync page write"))
		h->op = "WRITE";
	else
		h->op = "";
	h->oplen = strlen(h->op);
	return 1;
}

/*
 * "[FUNC: ]KIND error, dev NAME, sector N[ op 0xH[:(NAME)] ...]": 1 with
 * h set, 0 not such a message, -1 a refused name, -2 a request refused
 * rather than failed.
 */
static int
block_error(const char *p, const char *end, struct hit *h)
{
	static const char mid[] = " error, dev ";
	const char *q, *kind, *name, *comma, *on;
	uint64_t op;

	/* A caller's name before the kind: blk_update_request, end_request. */
	for (q = p; q < end && ((*q >= 'a' && *q <= 'z') || *q == '_' ||
	    (*q >= '0' && *q <= '9')); q++)
		;
	if (q > p && end - q >= 2 && q[0] == ':' && q[1] == ' ')
		p = q + 2;
	kind = p;
	if ((q = memmem(p, (size_t)(end - p), mid, sizeof(mid) - 1)) == NULL ||
	    !good_kind(kind, (size_t)(q - kind)))
		return 0;
	p = name = q + sizeof(mid) - 1;
	if ((comma = memchr(p, ',', (size_t)(end - p))) == NULL)
		return 0;
	p = comma;
	if (!skip(&p, end, ", sector ") || num(&p, end, &h->sector) < 0)
		return 0;
	if ((q - kind == 23 && memcmp(kind, "operation not supported", 23) == 0) ||
	    (q - kind == 17 && memcmp(kind, "nonblocking retry", 17) == 0))
		return -2;
	if (!good_name(name, (size_t)(comma - name), sizeof(((struct ds_ioerr *)0)->dev)))
		return -1;
	h->dev = name;
	h->devlen = (size_t)(comma - name);
	h->have_sector = 1;
	snprintf(h->kind, sizeof(h->kind), "%.*s error", (int)(q - kind), kind);
	h->op = "";
	h->oplen = 0;
	if (skip(&p, end, " op 0x") && hexnum(&p, end, &op) == 0) {
		if (skip(&p, end, ":(")) {
			for (on = p; p < end && ((*p >= 'A' && *p <= 'Z') ||
			    (*p >= '0' && *p <= '9') || *p == '_'); p++)
				;
			if (p < end && *p == ')' && p > on &&
			    p - on < (long)sizeof(((struct ds_ioerr *)0)->op)) {
				h->op = on;
				h->oplen = (size_t)(p - on);
			}
		} else {
			h->op = op_by_number(op);
			h->oplen = strlen(h->op);
		}
	}
	return 1;
}

/* The header "PRI,SEQ,TS_US,FLAGS[,...];": 0 with *text after it. */
static int
header(const char *p, const char *end, uint64_t *pri, uint64_t *ts,
    const char **text)
{
	const char *semi;
	uint64_t seq;

	if ((semi = memchr(p, ';', (size_t)(end - p))) == NULL)
		return -EINVAL;
	if (num(&p, semi, pri) < 0 || !skip(&p, semi, ",") ||
	    num(&p, semi, &seq) < 0 || !skip(&p, semi, ",") ||
	    num(&p, semi, ts) < 0 || !skip(&p, semi, ","))
		return -EINVAL;
	*text = semi + 1;
	return 0;
}

static int
record(const char *rec, size_t len, uint64_t from_us, uint64_t to_us,
    struct ds_ioerrs *out, uint64_t *ts)
{
	const char *end, *text, *nl;
	struct hit h;
	uint64_t pri, n;
	int k;

	*ts = 0;
	if ((nl = memchr(rec, '\n', len)) != NULL)
		len = (size_t)(nl - rec);
	if (len == 0 || rec[0] == ' ')
		return 0;	/* a blank or continuation line */
	end = rec + len;
	out->records++;
	if (header(rec, end, &pri, ts, &text) < 0) {
		out->malformed++;
		return -EINVAL;
	}
	/* Facility 0 only: what a process writes to /dev/kmsg is "user". */
	if (pri >> 3 != 0 || *ts < from_us || *ts > to_us)
		return 0;
	if (suppressed(text, end, &n)) {
		out->pending = n > UINT64_MAX - out->pending ? UINT64_MAX :
		    out->pending + n;
		return 0;
	}
	memset(&h, 0, sizeof(h));
	if ((k = buffer_error(text, end, &h)) == 0)
		k = block_error(text, end, &h);
	if (k == -1)
		out->refused++;
	else if (k == -2)
		out->ignored++;
	if (k <= 0)
		return 0;
	return count(out, &h, *ts);
}

int
ds_kmsg_record(const char *rec, size_t len, uint64_t from_us, uint64_t to_us,
    struct ds_ioerrs *out)
{
	uint64_t ts;

	return record(rec, len, from_us, to_us, out, &ts);
}

/* Live /dev/kmsg: one record a read, from the oldest kept. */
static int
read_live(int fd, uint64_t from_us, uint64_t to_us, struct ds_ioerrs *out)
{
	char *buf;
	ssize_t n;
	uint64_t ts;
	int e = 0;

	if ((buf = malloc(KMSG_READ)) == NULL)
		return -ENOMEM;
	for (;;) {
		n = read(fd, buf, KMSG_READ);
		if (n < 0) {
			if (errno == EINTR || errno == EPIPE)
				continue;	/* EPIPE: overwritten, skip on */
			e = errno == EAGAIN ? 0 : -errno;
			break;
		}
		if (n == 0)
			break;
		if (record(buf, (size_t)n, from_us, to_us, out, &ts) == -ENOMEM) {
			e = -ENOMEM;
			break;
		}
		/* The log is in time order, give or take a CPU's lateness. */
		if (ts > to_us && ts - to_us > KMSG_SLACK_US)
			break;
	}
	free(buf);
	return e;
}

/* A captured tree's dev/kmsg: the records one per line. */
static int
read_tree(int fd, uint64_t from_us, uint64_t to_us, struct ds_ioerrs *out)
{
	struct ds_buf window = { 0 };
	struct ds_lines l;
	char *line;
	size_t len;
	uint64_t ts;
	int e;

	ds_lines_fd(&l, fd, &window);
	while ((e = ds_lines_next(&l, &line, &len)) > 0) {
		if (l.cut) {
			out->records++;
			out->malformed++;
			continue;
		}
		if (record(line, len, from_us, to_us, out, &ts) == -ENOMEM) {
			e = -ENOMEM;
			break;
		}
	}
	ds_lines_close(&l);
	ds_buf_free(&window);
	return e;
}

int
ds_kmsg_ioerrs(const struct ds_root *r, uint64_t from_us, uint64_t to_us,
    struct ds_ioerrs *out)
{
	struct stat st;
	int fd, e;

	out->n = out->records = out->malformed = out->refused = 0;
	out->ignored = 0;
	out->suppressed = out->pending = 0;
	/*
	 * In a tree, only a regular file: a device node there would be
	 * opened for real (the live log, or a tape that rewinds).
	 */
	if (!r->live && (e = ds_fstatat_in(r, r->fd, "dev/kmsg", &st)) < 0)
		return e;
	if (!r->live && !S_ISREG(st.st_mode))
		return -EINVAL;
	if ((fd = ds_openat(r, "dev/kmsg", O_RDONLY | O_NONBLOCK | O_NOCTTY)) < 0)
		return fd;
	if (fstat(fd, &st) < 0) {
		e = -errno;
		close(fd);
		return e;
	}
	if (r->live && S_ISCHR(st.st_mode))
		e = read_live(fd, from_us, to_us, out);
	else if (S_ISREG(st.st_mode))
		e = read_tree(fd, from_us, to_us, out);
	else
		e = -EINVAL;
	close(fd);
	out->suppressed = out->pending;
	out->pending = 0;
	return e;
}

/* "0x1f\n": the hex the SCSI midlayer prints its counters in. */
static int
scsi_hex(const char *s, uint64_t *v)
{
	const char *p = s, *end = s + strlen(s);
	int e;

	if (!skip(&p, end, "0x"))
		(void)skip(&p, end, "0X");
	if ((e = hexnum(&p, end, v)) < 0)
		return e;
	if (p < end && *p == '\n')
		p++;
	return p == end ? 0 : -EINVAL;
}

int
ds_scsi_errcnt(const struct ds_root *r, const char *disk, struct ds_buf *scratch,
    uint64_t *ioerr, uint64_t *iotmo)
{
	char rel[320];
	int e;

	if (disk == NULL || !ds_component_ok(disk) || strlen(disk) > 255)
		return -EINVAL;
	snprintf(rel, sizeof(rel), "sys/block/%s/device/ioerr_cnt", disk);
	if ((e = ds_read_file(r, rel, scratch)) < 0 ||
	    (e = scsi_hex(scratch->data, ioerr)) < 0)
		return e;
	snprintf(rel, sizeof(rel), "sys/block/%s/device/iotmo_cnt", disk);
	if ((e = ds_read_file(r, rel, scratch)) < 0 ||
	    (e = scsi_hex(scratch->data, iotmo)) < 0)
		return e;
	return 0;
}
