/*
 * floor-dxstat: the least a program can do to print dxstat's report,
 * so the benchmark can say how close dxstat is to the limit.
 *
 *	floor-dxstat DISKSTATS UPTIME	since-boot report (a live or -R tree)
 *	floor-dxstat -2 SNAP1 SNAP2	report between two dxstat -s snapshots
 *
 * One open/read/close per file (the buffer is big enough for one read
 * plus the read that sees EOF), a digit loop for the counters, the
 * iostat formulas, and every row printed with printf("%.2f") into one
 * fully buffered stdout that is written once at exit.  All devices
 * (partitions too) are printed: the `-p ALL` report.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NC 17

struct dev {
	char name[64];
	unsigned int maj, min, nc;
	uint64_t v[NC];
};

static char *
slurp(const char *path, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *b = malloc(cap + 1);
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || b == NULL) {
		perror(path);
		exit(1);
	}
	for (;;) {
		if (n == cap) {
			cap *= 4;
			if ((b = realloc(b, cap + 1)) == NULL)
				exit(1);
		}
		r = read(fd, b + n, cap - n);
		if (r < 0) {
			perror(path);
			exit(1);
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	b[n] = '\0';
	*len = n;
	return b;
}

static const char *
num(const char *p, uint64_t *v)
{
	uint64_t x = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p < '0' || *p > '9')
		return NULL;
	while (*p >= '0' && *p <= '9')
		x = x * 10 + (uint64_t)(*p++ - '0');
	*v = x;
	return p;
}

/* Parse diskstats text; returns the device count. */
static size_t
parse(char *p, struct dev **out)
{
	size_t n = 0, cap = 256;
	struct dev *d = malloc(cap * sizeof(*d));
	uint64_t x;

	while (*p) {
		char *nl = strchr(p, '\n'), *s;
		const char *q;
		struct dev *e;
		size_t l;

		if (nl)
			*nl = '\0';
		if (n == cap) {
			cap *= 2;
			d = realloc(d, cap * sizeof(*d));
		}
		e = &d[n];
		if ((q = num(p, &x)) == NULL)
			goto next;
		e->maj = (unsigned int)x;
		if ((q = num(q, &x)) == NULL)
			goto next;
		e->min = (unsigned int)x;
		while (*q == ' ')
			q++;
		s = (char *)q;
		while (*q && *q != ' ')
			q++;
		l = (size_t)(q - s);
		if (l == 0 || l >= sizeof(e->name))
			goto next;
		memcpy(e->name, s, l);
		e->name[l] = '\0';
		memset(e->v, 0, sizeof(e->v));
		for (e->nc = 0; e->nc < NC; e->nc++)
			if ((q = num(q, &e->v[e->nc])) == NULL)
				break;
		if (e->nc >= 11)
			n++;
	next:
		if (nl == NULL)
			break;
		p = nl + 1;
	}
	*out = d;
	return n;
}

/* 32-bit kernel counters (the ms ones always) wrap; others reset. */
static uint64_t
delta(uint64_t a, uint64_t b, int ms)
{
	if (b >= a)
		return b - a;
	if (ms || a <= UINT32_MAX)
		return (b - a) & UINT32_MAX;
	return b;
}

static void
row(const char *tm, const struct dev *d, const uint64_t *v, double itv_s)
{
	double ms = itv_s * 1000;
	double r = (double)v[0], w = (double)v[4], dc = (double)v[11];

	printf("%s\t%s", tm, d->name);
	printf("\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f", r / itv_s,
	    (double)v[2] / 2 / itv_s, (double)v[1] / itv_s,
	    v[1] + v[0] ? 100.0 * (double)v[1] / (double)(v[1] + v[0]) : 0,
	    v[0] ? (double)v[3] / r : 0, v[0] ? (double)v[2] / 2 / r : 0);
	printf("\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f", w / itv_s,
	    (double)v[6] / 2 / itv_s, (double)v[5] / itv_s,
	    v[5] + v[4] ? 100.0 * (double)v[5] / (double)(v[5] + v[4]) : 0,
	    v[4] ? (double)v[7] / w : 0, v[4] ? (double)v[6] / 2 / w : 0);
	if (d->nc >= 15)
		printf("\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f", dc / itv_s,
		    (double)v[13] / 2 / itv_s, (double)v[12] / itv_s,
		    v[12] + v[11] ? 100.0 * (double)v[12] /
		    (double)(v[12] + v[11]) : 0,
		    v[11] ? (double)v[14] / dc : 0,
		    v[11] ? (double)v[13] / 2 / dc : 0);
	else
		fputs("\t-\t-\t-\t-\t-\t-", stdout);
	if (d->nc >= 17)
		printf("\t%.2f\t%.2f", (double)v[15] / itv_s,
		    v[15] ? (double)v[16] / (double)v[15] : 0);
	else
		fputs("\t-\t-", stdout);
	printf("\t%.2f\t%.2f\t%llu\n", (double)v[10] / ms,
	    100.0 * (double)v[9] / ms, (unsigned long long)d->v[8]);
}

int
main(int argc, char **argv)
{
	static char obuf[1 << 20];
	struct dev *a = NULL, *b;
	size_t na = 0, nb, len, i, j;
	double up0 = 0, up1;
	char *t0 = NULL, *t1, tm[32];
	struct timespec now;
	int two = argc == 4 && strcmp(argv[1], "-2") == 0;

	if (!two && argc != 3) {
		fprintf(stderr, "usage: floor-dxstat DISKSTATS UPTIME | "
		    "-2 SNAP1 SNAP2\n");
		return 2;
	}
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	clock_gettime(CLOCK_REALTIME, &now);
	snprintf(tm, sizeof(tm), "%lld.%03ld", (long long)now.tv_sec,
	    now.tv_nsec / 1000000);
	if (two) {
		/* "uptime SECONDS\n" then the diskstats text */
		t0 = slurp(argv[2], &len);
		up0 = strtod(t0 + 7, &t1);
		na = parse(strchr(t0, '\n') + 1, &a);
		t1 = slurp(argv[3], &len);
		up1 = strtod(t1 + 7, NULL);
		nb = parse(strchr(t1, '\n') + 1, &b);
	} else {
		t1 = slurp(argv[1], &len);
		nb = parse(t1, &b);
		t0 = slurp(argv[2], &len);
		up1 = strtod(t0, NULL);
	}
	fputs("time\tdevice\tr/s\trkB/s\trrqm/s\t%rrqm\tr_await\trareq-sz"
	    "\tw/s\twkB/s\twrqm/s\t%wrqm\tw_await\twareq-sz\td/s\tdkB/s"
	    "\tdrqm/s\t%drqm\td_await\tdareq-sz\tf/s\tf_await\taqu-sz"
	    "\t%util\tin_flight\n", stdout);
	for (i = 0; i < nb; i++) {
		uint64_t v[NC];
		const struct dev *o = NULL;

		/* Devices keep their order; search only when it changed. */
		if (i < na && a[i].maj == b[i].maj && a[i].min == b[i].min)
			o = &a[i];
		else
			for (j = 0; j < na; j++)
				if (a[j].maj == b[i].maj &&
				    a[j].min == b[i].min) {
					o = &a[j];
					break;
				}
		for (j = 0; j < NC; j++)
			v[j] = o ? delta(o->v[j], b[i].v[j],
			    j == 3 || j == 7 || j == 9 || j == 10 || j == 14 ||
			    j == 16) : b[i].v[j];
		row(tm, &b[i], v, o ? up1 - up0 : up1);
	}
	return fflush(stdout) != 0;
}
