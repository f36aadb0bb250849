/*
 * The slow requests' ring buffer (BPF_MAP_TYPE_RINGBUF, Linux 5.8):
 * the kernel writes records into pages we map read-only behind its
 * producer position, we read them and move the consumer position,
 * which is the one page we may write.  The data pages are mapped twice
 * in a row, so a record that wraps reads as one.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "blklat.h"

struct ds_blkring {
	uint64_t *cons;		/* the consumer page: its position first */
	const uint64_t *prod;	/* the producer page, then the data twice */
	size_t psz;		/* a page */
};

/* A record's header: its length (and two flags), a page offset. */
#define HDR 8
#define BUSY (1u << 31)		/* being written: stop there */
#define DISCARD (1u << 30)	/* given up by its writer: skip it */

int
ds_blkring_map(struct ds_blklat *b)
{
	struct ds_blkring *r;
	long ps = sysconf(_SC_PAGESIZE);
	void *c, *p;

	if (ps <= 0)
		return -EINVAL;
	if ((r = calloc(1, sizeof(*r))) == NULL)
		return -ENOMEM;
	r->psz = (size_t)ps;
	c = mmap(NULL, r->psz, PROT_READ | PROT_WRITE, MAP_SHARED,
	    b->map[M_RING], 0);
	if (c == MAP_FAILED) {
		free(r);
		return -errno;
	}
	p = mmap(NULL, r->psz + 2 * (size_t)DS_BLKSLOW_RING, PROT_READ,
	    MAP_SHARED, b->map[M_RING], (off_t)r->psz);
	if (p == MAP_FAILED) {
		int e = -errno;

		munmap(c, r->psz);
		free(r);
		return e;
	}
	r->cons = c;
	r->prod = p;
	b->ring = r;
	return 0;
}

void
ds_blkring_unmap(struct ds_blklat *b)
{
	struct ds_blkring *r = b->ring;

	if (r == NULL)
		return;
	munmap(r->cons, r->psz);
	munmap((void *)r->prod, r->psz + 2 * (size_t)DS_BLKSLOW_RING);
	free(r);
	b->ring = NULL;
}

/*
 * The records between *cons and *prod of the data at data (mask + 1
 * bytes, mapped twice), each of size bytes, to fn; *cons moved past
 * each as it is handed.  The count handed; fn's non-zero return;
 * -EPROTO for a record not of size bytes (it is skipped).
 */
int
ds_ring_consume(uint64_t *cons, const uint64_t *prod,
    const unsigned char *data, uint64_t mask, size_t size,
    int (*fn)(void *, const void *), void *arg)
{
	uint64_t c = __atomic_load_n(cons, __ATOMIC_ACQUIRE), p;
	uint32_t len;
	const unsigned char *h;
	int n = 0, e = 0, r, more = 1;

	while (more) {
		more = 0;
		p = __atomic_load_n(prod, __ATOMIC_ACQUIRE);
		while (c < p) {
			h = data + (c & mask);
			len = __atomic_load_n((const uint32_t *)h,
			    __ATOMIC_ACQUIRE);
			if (len & BUSY)
				return e < 0 ? e : n;
			more = 1;
			c += ((len & ~(BUSY | DISCARD)) + HDR + 7) & ~7u;
			if (!(len & DISCARD)) {
				if ((len & ~(BUSY | DISCARD)) != size) {
					e = -EPROTO;
				} else if ((r = fn(arg, h + HDR)) != 0) {
					__atomic_store_n(cons, c,
					    __ATOMIC_RELEASE);
					return r;
				} else {
					n++;
				}
			}
			__atomic_store_n(cons, c, __ATOMIC_RELEASE);
		}
	}
	return e < 0 ? e : n;
}

struct hand {
	int (*fn)(void *, const struct ds_blkslow *);
	void *arg;
};

/* A record to the caller, copied: its struct, aligned. */
static int
hand(void *arg, const void *rec)
{
	struct hand *h = arg;
	struct ds_blkslow s;

	memcpy(&s, rec, sizeof(s));
	s.comm[sizeof(s.comm) - 1] = '\0';
	return h->fn(h->arg, &s);
}

int
ds_blkslow_read(struct ds_blklat *b,
    int (*fn)(void *, const struct ds_blkslow *), void *arg)
{
	struct ds_blkring *r = b->ring;
	struct hand h = { fn, arg };

	if (r == NULL)
		return -EBADF;
	return ds_ring_consume(r->cons, r->prod,
	    (const unsigned char *)r->prod + r->psz, DS_BLKSLOW_RING - 1,
	    sizeof(struct ds_blkslow), hand, &h);
}

int
ds_blkslow_wait(struct ds_blklat *b, uint64_t timeout_ns)
{
	struct pollfd pfd = { b->map[M_RING], POLLIN, 0 };
	struct timespec ts;
	int n;

	if (b->ring == NULL)
		return -EBADF;
	/* Waiting already: the kernel wakes us only for new records. */
	if (__atomic_load_n(b->ring->cons, __ATOMIC_ACQUIRE) <
	    __atomic_load_n(b->ring->prod, __ATOMIC_ACQUIRE))
		return 1;
	ts.tv_sec = (time_t)(timeout_ns / 1000000000u);
	ts.tv_nsec = (long)(timeout_ns % 1000000000u);
	if ((n = ppoll(&pfd, 1, &ts, NULL)) < 0)
		return -errno;
	return n > 0;
}
