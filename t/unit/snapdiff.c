/*
 * Pairing the devices of two samples (lib/snapdiff.c): every device
 * meets its own earlier line whatever moved, in a number of name
 * comparisons linear in the devices (ds_pair.compares), for an earlier
 * sample held whole and for an earlier snapshot file read along the
 * later one; a device listed twice in the later sample is told, never
 * counted from zero.  t/1010 and t/8311 reach the same cases end to end.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "oracle.h"
#include "tap.h"

#define N 2000

/* A diskstats text of the names given; reads completed = seed + index. */
static char *
text_of(char **names, size_t n, unsigned seed, const char *head)
{
	size_t cap = n * 96 + 64, len = 0, i;
	char *t = malloc(cap);

	if (t == NULL)
		exit(1);
	len += (size_t)snprintf(t, cap, "%s", head);
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(t + len, cap - len,
		    "8 %zu %s %zu 0 8 1 1 0 8 1 0 2 2\n", i, names[i],
		    (size_t)seed + i);
	return t;
}

static char **
names_list(size_t n, const char *fmt)
{
	char **v = calloc(n + 2, sizeof(*v));
	size_t i;

	for (i = 0; i < n; i++) {
		v[i] = malloc(32);
		snprintf(v[i], 32, fmt, i);
	}
	return v;
}

static void
parse(char **names, size_t n, unsigned seed, struct ds_diskstats *s)
{
	char *t = text_of(names, n, seed, "");

	if (ds_diskstats_parse(t, strlen(t), s) < 0 || s->n != n)
		exit(1);
	free(t);
}

/*
 * Pair every device of cur with prev; returns how many were found
 * with their own line (same name, reads = 1000 + earlier index).
 */
static size_t
pair_all(const struct ds_diskstats *prev, const struct ds_diskstats *cur,
    struct ds_pair *pr, size_t *missing)
{
	size_t i, good = 0;

	memset(pr, 0, sizeof(*pr));
	*missing = 0;
	for (i = 0; i < cur->n; i++) {
		const struct ds_disk *p = ds_pair_find(pr, prev, &cur->disk[i],
		    i);

		if (p == NULL)
			(*missing)++;
		else if (strcmp(p->name, cur->disk[i].name) == 0 &&
		    p->v[DS_RD_IOS] == 1000 + (uint64_t)(p - prev->disk))
			good++;
	}
	return good;
}

static void
test_array(void)
{
	struct ds_diskstats a = { 0 }, b = { 0 };
	char **na = names_list(N, "d%zu"), **nb = names_list(N + 1, "d%zu");
	struct ds_pair pr;
	size_t good, missing, i;
	char *tmp;

	parse(na, N, 1000, &a);

	/* Same order: one comparison a device. */
	parse(na, N, 2000, &b);
	good = pair_all(&a, &b, &pr, &missing);
	is_int(good, N, "same order: every device found, its own line");
	is_int(missing, 0, "same order: none missing");
	is_u64(pr.compares, N, "same order: one comparison a device");

	/*
	 * One removed (d1000): one scan to find the device after it, then
	 * one comparison each again (a scan per row would be N * N / 2).
	 */
	for (i = 1000; i + 1 < N; i++)
		strcpy(nb[i], na[i + 1]);
	parse(nb, N - 1, 2000, &b);
	good = pair_all(&a, &b, &pr, &missing);
	is_int(good, N - 1, "one removed: every other device found");
	ok(pr.compares <= 2 * (uint64_t)N + 4, "one removed: linear (%llu "
	    "comparisons for %d devices)", (unsigned long long)pr.compares, N);

	/* One added (new, in the middle): one scan for it, no more. */
	for (i = 0; i < N; i++)
		strcpy(nb[i < 1000 ? i : i + 1], na[i]);
	strcpy(nb[1000], "new");
	parse(nb, N + 1, 2000, &b);
	good = pair_all(&a, &b, &pr, &missing);
	is_int(good, N, "one added: every old device found");
	is_int(missing, 1, "one added: the new one is not");
	ok(pr.compares <= 3 * (uint64_t)N + 4, "one added: one scan "
	    "(%llu comparisons)", (unsigned long long)pr.compares);

	/* Reversed: the place before the last match, each time. */
	for (i = 0; i < N; i++)
		strcpy(nb[i], na[N - 1 - i]);
	parse(nb, N, 2000, &b);
	good = pair_all(&a, &b, &pr, &missing);
	is_int(good, N, "reversed: every device found, its own line");
	ok(pr.compares <= 3 * (uint64_t)N, "reversed: linear (%llu "
	    "comparisons for %d devices; a scan each would be %llu)",
	    (unsigned long long)pr.compares, N,
	    (unsigned long long)N * N / 2);

	/* Two swapped, then in order again. */
	for (i = 0; i < N; i++)
		strcpy(nb[i], na[i]);
	tmp = nb[10];
	nb[10] = nb[11];
	nb[11] = tmp;
	parse(nb, N, 2000, &b);
	good = pair_all(&a, &b, &pr, &missing);
	is_int(good, N, "two swapped: every device found");
	ok(pr.compares <= (uint64_t)N + 64, "two swapped: linear (%llu)",
	    (unsigned long long)pr.compares);

	/* No earlier sample: nothing found, nothing compared. */
	memset(&pr, 0, sizeof(pr));
	ok(ds_pair_find(&pr, NULL, &b.disk[0], 0) == NULL &&
	    pr.compares == 0, "no earlier sample: NULL");

	ds_diskstats_free(&a);
	ds_diskstats_free(&b);
	for (i = 0; i < N + 1; i++) {
		free(na[i]);
		free(nb[i]);
	}
	free(na);
	free(nb);
}

static void
test_names(void)
{
	struct ds_names ns = { 0 };
	char name[32];
	size_t i, bad = 0;

	for (i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name), "dev%zu", i);
		if (ds_names_has(&ns, name, 1) != 0)
			bad++;
	}
	is_int(bad, 0, "names: 5000 added, none there before");
	is_int(ns.n, 5000, "names: 5000 held");
	for (i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name), "dev%zu", i);
		if (ds_names_has(&ns, name, 0) != 1)
			bad++;
	}
	is_int(bad, 0, "names: each found after the table grew");
	is_int(ds_names_has(&ns, "dev5000", 0), 0, "names: absent not added");
	is_int(ds_names_has(&ns, "dev", 0), 0, "names: a prefix is not a name");
	is_int(ds_names_has(&ns, "", 1), 0, "names: the empty name added");
	is_int(ds_names_has(&ns, "", 0), 1, "names: and found");
	ds_names_free(&ns);
	is_int(ds_names_has(&ns, "dev1", 0), 0, "names: freed is empty");
	ds_names_free(&ns);
}

/* A descriptor reading text from its start: a file, or a pipe. */
static int
text_fd(const char *text, int pipe_it)
{
	size_t len = strlen(text);
	int fd, p[2];

	if (pipe_it) {
		if (pipe(p) < 0 || fcntl(p[1], F_SETPIPE_SZ, 1 << 20) < 0 ||
		    write(p[1], text, len) != (ssize_t)len) {
			perror("pipe");
			exit(1);
		}
		close(p[1]);
		return p[0];
	}
	fd = memfd_create("snap", MFD_CLOEXEC);
	if (fd < 0 || write(fd, text, len) != (ssize_t)len ||
	    lseek(fd, 0, SEEK_SET) != 0) {
		perror("memfd");
		exit(1);
	}
	return fd;
}

struct stream {
	struct ds_older o;
	struct ds_buf window;
	struct ds_snap head;
	struct ds_pair pr;
};

static void
stream_open(struct stream *s, const char *text, int pipe_it)
{
	int fd = text_fd(text, pipe_it);

	memset(s, 0, sizeof(*s));
	ds_lines_fd(&s->o.l, fd, &s->window);
	if (ds_snap_head(&s->o.l, &s->head) < 0)
		exit(1);
	ds_older_init(&s->o, fd, 0);
}

static void
stream_close(struct stream *s)
{
	close(s->o.fd);
	ds_older_free(&s->o);
	ds_buf_free(&s->window);
}

/*
 * The later sample's devices against the stream, as dxstat -f a -f b
 * does; into got, one "name=reads|" each ("name=new", "name=twice").
 */
static int
stream_pair(struct stream *s, const struct ds_diskstats *later, char *got,
    size_t cap)
{
	const struct ds_disk *p;
	size_t i, row = 0, len = 0;
	int e, twice;

	got[0] = '\0';
	for (i = 0; i < later->n; i++) {
		if ((e = ds_older_find(&s->o, &s->pr, &later->disk[i], row, &p,
		    &twice)) < 0)
			return e;
		if (twice) {
			len += (size_t)snprintf(got + len, cap - len,
			    "%s=twice|", later->disk[i].name);
			continue;
		}
		row++;
		if (p == NULL)
			len += (size_t)snprintf(got + len, cap - len,
			    "%s=new|", later->disk[i].name);
		else
			len += (size_t)snprintf(got + len, cap - len,
			    "%s=%llu|", p->name,
			    (unsigned long long)p->v[DS_RD_IOS]);
		if (len >= cap)
			return -ENOSPC;
	}
	return ds_older_read(&s->o, &s->pr, NULL, &p);
}

static void
test_twice(void)
{
	static const char earlier[] = "uptime 1000\n"
	    "8 0 sda 100 0 24 100 50 0 32 200 0 300 300\n"
	    "8 16 sdb 10 0 24 100 5 0 32 200 0 300 300\n";
	static const char later[] =
	    "8 0 sda 200 0 24 100 60 0 32 200 0 300 300\n"
	    "8 16 sdb 20 0 24 100 6 0 32 200 0 300 300\n"
	    "8 0 sda 200 0 24 100 60 0 32 200 0 300 300\n"
	    "8 32 sdc 20 0 24 100 6 0 32 200 0 300 300\n"
	    "8 48 sdz 20 0 24 100 6 0 32 200 0 300 300\n"
	    "8 48 sdz 20 0 24 100 6 0 32 200 0 300 300\n"
	    "8 16 sdb 20 0 24 100 6 0 32 200 0 300 300\n";
	struct ds_diskstats l = { 0 };
	struct stream s;
	char got[512];
	int how;

	if (ds_diskstats_parse(later, strlen(later), &l) < 0)
		exit(1);
	for (how = 0; how < 2; how++) {
		const char *w = how ? "pipe" : "file";
		char name[96];

		stream_open(&s, earlier, how);
		is_int(s.o.seekable, !how, how ? "pipe: not seekable" :
		    "file: seekable");
		is_int(stream_pair(&s, &l, got, sizeof(got)), 0, "paired");
		snprintf(name, sizeof(name), "listed twice (%s): each once, "
		    "from its own line; repeats told; new ones new", w);
		is_str(got, "sda=100|sdb=10|sda=twice|sdc=new|sdz=new|"
		    "sdz=twice|sdb=twice|", name);
		stream_close(&s);
	}
	ds_diskstats_free(&l);
}

/* An earlier file of N devices, a later one reordered, streamed. */
static void
test_stream(void)
{
	char **na = names_list(N, "d%zu"), **nb = names_list(N + 3, "d%zu");
	struct ds_diskstats l = { 0 };
	const struct ds_disk *p;
	size_t i, k, good = 0, missing = 0, row = 0;
	struct stream s;
	char *ta, *tb;
	int how, twice, e;

	/*
	 * Later: d0 gone, new0 first, d10 and d11 swapped, d150 gone,
	 * new1 at d200, d1000..d1999 reversed, new2 last.
	 */
	k = 0;
	strcpy(nb[k++], "new0");
	for (i = 1; i < 1000; i++) {
		if (i == 150)
			continue;
		if (i == 200)
			strcpy(nb[k++], "new1");
		strcpy(nb[k++], na[i == 10 ? 11 : i == 11 ? 10 : i]);
	}
	for (i = N; i-- > 1000;)
		strcpy(nb[k++], na[i]);
	strcpy(nb[k++], "new2");
	ta = text_of(na, N, 1000, "uptime 1000\n");
	/* A damaged line in the earlier file. */
	tb = text_of(nb, k, 5000, "");
	if (ds_diskstats_parse(tb, strlen(tb), &l) < 0 || l.n != k)
		exit(1);
	for (how = 0; how < 2; how++) {
		size_t cap = strlen(ta) + 64;
		char *td = malloc(cap);

		/* the damage after the header and d0's line */
		snprintf(td, cap, "%s", ta);
		strcpy(strchr(strchr(td, '\n') + 1, '\n') + 1,
		    "8 0 broken 1 2 x\n");
		strcat(td, strchr(strchr(ta, '\n') + 1, '\n') + 1);
		stream_open(&s, td, how);
		good = missing = row = 0;
		for (i = 0; i < l.n; i++) {
			if ((e = ds_older_find(&s.o, &s.pr, &l.disk[i], row, &p,
			    &twice)) < 0 || twice)
				break;
			row++;
			if (p == NULL)
				missing++;
			else if (strcmp(p->name, l.disk[i].name) == 0 &&
			    strcmp(p->name, na[p->v[DS_RD_IOS] - 1000]) == 0)
				good++;
		}
		is_int(i, l.n, how ? "streamed (pipe): no error, no repeat" :
		    "streamed (file): no error, no repeat");
		is_int(good, N - 2, "streamed: every device kept found, its "
		    "own line");
		is_int(missing, 3, "streamed: the three new ones new");
		is_int(ds_older_read(&s.o, &s.pr, NULL, &p), 0,
		    "streamed: read to the end");
		is_int(s.o.pend.bad, 1, "streamed: the damaged line counted");
		is_int(s.o.pend.first_bad, 3, "streamed: on its line");
		ok(s.pr.compares <= 8 * (uint64_t)N, "streamed: linear (%llu "
		    "comparisons for %d devices)",
		    (unsigned long long)s.pr.compares, N);
		stream_close(&s);
		free(td);
	}
	ds_diskstats_free(&l);
	free(ta);
	free(tb);
	for (i = 0; i < N + 3; i++)
		free(nb[i]);
	for (i = 0; i < N; i++)
		free(na[i]);
	free(na);
	free(nb);
}

/*
 * Two snapshot files opened as dxstat -f opens them: the earlier one
 * read along, a device listed again in the later counted, the interval
 * and the reboot case, a damaged header and a missing file.
 */
static void
test_files(void)
{
	static const char earlier[] = "uptime 1000\ntime 1764470000.5\n"
	    "8 0 sda 100 0 24 100 50 0 32 200 0 300 300\n"
	    "8 16 sdb 10 0 24 100 5 0 32 200 0 300 300\n";
	static const char later[] = "uptime 1010\n"
	    "8 0 sda 200 0 24 100 60 0 32 200 0 300 300\n"
	    "8 0 sda 200 0 24 100 60 0 32 200 0 300 300\n"
	    "8 16 sdb 20 0 24 100 6 0 32 200 0 300 300\n";
	char pa[] = "/tmp/ds-snapfile-XXXXXX", pb[] = "/tmp/ds-snapfile-XXXXXX";
	struct ds_snap a = { 0 }, b = { 0 }, bad = { 0 };
	struct ds_buf wa = { 0 }, wb = { 0 }, msg = { 0 };
	struct ds_diskstats skipped = { 0 };
	const struct ds_disk *p;
	struct ds_pair pr = { 0 };
	struct ds_older o;
	struct ds_lines lb;
	struct ds_disk c;
	char got[128] = "";
	uint64_t ns;
	size_t i = 0;
	int fa, fb, e;

	if ((fa = mkstemp(pa)) < 0 || (fb = mkstemp(pb)) < 0 ||
	    write(fa, earlier, strlen(earlier)) < 0 ||
	    write(fb, later, strlen(later)) < 0)
		exit(1);
	close(fa);
	close(fb);
	is_str(ds_snapfile_name("-"), "stdin", "\"-\" is stdin in messages");
	is_str(ds_snapfile_name(pa), pa, "a file by its name");
	is_int(ds_older_open(&o, pa, &wa, &a), 0, "earlier file opened");
	is_u64(a.uptime_ns, 1000000000000ULL, "its uptime");
	ok(o.seekable && o.start == 0, "a file: seekable, from 0");
	is_int(ds_snapfile_open(pb, &lb, &wb, &b), 0, "later file opened");
	is_int(ds_snap_interval(&a, &b, &ns), 0, "later uptime: an interval");
	is_u64(ns, 10000000000ULL, "of 10 s");
	while ((e = ds_diskstats_next(&lb, &c, &skipped)) > 0) {
		size_t n = strlen(got);

		if ((e = ds_older_pair(&o, &pr, &c, i, lb.lineno, &p)) < 0)
			break;
		snprintf(got + n, sizeof(got) - n, "%.16s=%.16s|", c.name,
		    e ? "again" :
		    p == NULL ? "new" : p->name);
		if (!e)
			i++;
	}
	is_int(e, 0, "read to the end");
	is_str(got, "sda=sda|sda=again|sdb=sdb|", "paired, the repeat told");
	ok(o.twice == 1 && o.first_twice == 3, "one repeat, on line 3 "
	    "(%zu, %zu)", o.twice, o.first_twice);
	is_int(ds_snap_interval(&b, &a, &ns), 1, "uptime went back: reboot");
	is_u64(ns, 1000000000000ULL, "since boot: the later one's uptime");
	is_int(ds_snap_interval(&a, &a, &ns), -EINVAL, "same uptime: -EINVAL");
	ds_lines_close(&lb);
	ds_older_close(&o);
	if ((fb = open(pb, O_WRONLY | O_TRUNC)) < 0 ||
	    write(fb, "time 5\n8 0 sda 1 2 3 4\n", 24) < 0)
		exit(1);
	close(fb);
	is_int(ds_snapfile_open(pb, &lb, &wb, &bad), -EINVAL,
	    "no uptime line: -EINVAL");
	is_int(ds_snap_bad_msg(&bad, &msg), 1, "with a sentence");
	is_str(msg.data, "line 2: no uptime line before the diskstats lines",
	    "the sentence");
	ds_lines_close(&lb);
	unlink(pb);
	is_int(ds_snapfile_open(pb, &lb, &wb, &bad), -ENOENT, "missing file");
	unlink(pa);
	ds_buf_free(&wa);
	ds_buf_free(&wb);
	ds_buf_free(&msg);
}

int
main(void)
{
	test_array();
	test_names();
	test_twice();
	test_stream();
	test_files();
	return tap_done();
}
