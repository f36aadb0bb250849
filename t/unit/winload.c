/*
 * A capture's window members read back (lib/winload.c's
 * ds_window_parse): each member's valid text parsed to the exact
 * values; every malformed line refused with its member and line in
 * w->err; the counts at their DS_WINDOW_*_MAX bounds and one past.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tap.h"

static int
parse(struct ds_window *w, const char *member, const char *text)
{
	return ds_window_parse(w, member, text, strlen(text));
}

static void
window_valid(void)
{
	struct ds_window w = { 0 };
	int e;

	e = parse(&w, DS_WINDOW_MEMBER, "window 1\ntick_ns 100000000\n"
	    "ticks 3\ndisk sda 1 2 3\ndisk a\\x20b\\x5c 0 4294967295 7\n"
	    "blocked 3 4 5 6\nlooks 2 7 8\ntask 1 10 11 2 1 kworker/0\n"
	    "task 0 12 13 0 0 \\x00\n");
	is_int(e, 0, "window: parsed");
	if (e < 0)
		printf("# %s\n", w.err);
	is_int(w.have_ticks, 1, "window: have_ticks");
	is_int(w.nfl, 3, "window: 3 ticks");
	is_int(w.ndisk, 2, "window: 2 disks");
	is_str(w.disk[0], "sda", "window: disk 0");
	is_str(w.disk[1], "a b\\", "window: disk 1 unescaped");
	ok(w.fl[0] == 1 && w.fl[1] == 2 && w.fl[2] == 3,
	    "window: sda's in_flight");
	ok(w.fl[w.nmax] == 0 && w.fl[w.nmax + 1] == 4294967295u &&
	    w.fl[w.nmax + 2] == 7, "window: disk 1's in_flight, UINT32_MAX");
	ok(w.nblocked == 3 && w.blocked[0] == 4 && w.blocked[2] == 6,
	    "window: blocked");
	ok(w.nlooks == 2 && w.look_fl[0] == 7 && w.look_fl[1] == 8,
	    "window: looks");
	is_int(w.ntask, 2, "window: 2 tasks");
	ok(w.task[0].look == 1 && w.task[0].pid == 10 && w.task[0].tid == 11 &&
	    w.task[0].wait == 2 && w.task[0].kthread == 1,
	    "window: task 0's numbers");
	is_str(w.task[0].comm, "kworker/0", "window: task 0's comm");
	is_str(w.task[1].comm, "", "window: an empty comm (\\x00)");
	is_int(parse(&w, DS_WINDOW_MEMBER, "window 1\nticks 1\nblocked 1 0\n"
	    "looks 0\n"), -EINVAL, "window: a second time refused");
	is_str(w.err, "capture/window: line 0: read twice", "window: read twice");
	ds_window_free(&w);
}

static void
dlat_valid(void)
{
	struct ds_window w = { 0 };
	struct ds_lat h;
	int e;

	e = parse(&w, DS_WINDOW_DLAT0, "dlat 1\ndisk sda 8388608\n"
	    "disk vdb 264241168\nmiss 1 2 3 4 5 6\nissued 7\ndone 8\n"
	    "recursion 1\nrow 8388608 0 1 3 300 200 2 2 1 2\n"
	    "row 8388608 1 0 1 5 5 0 0\n"
	    "who 8388608 42 fio 4096 3 300 200 2 2 1 2\n"
	    "who 264241168 7 a\\x09b 0 0 0 0 0 0\n");
	is_int(e, 0, "dlat.0: parsed");
	if (e < 0)
		printf("# %s\n", w.err);
	ok(w.ntdisk == 2 && strcmp(w.tdisk[0].name, "sda") == 0 &&
	    w.tdisk[0].dev == 8388608 && w.tdisk[1].dev == 264241168,
	    "dlat.0: the disks traced");
	ok(w.s[0].miss[0] == 1 && w.s[0].miss[5] == 6, "dlat.0: misses");
	ok(w.s[0].issued == 7 && w.s[0].done == 8 && w.s[0].have_recursion == 1,
	    "dlat.0: issued, done, recursion");
	is_int(w.s[0].n, 2, "dlat.0: 2 rows");
	ok(w.s[0].r[0].dev == 8388608 && w.s[0].r[0].op == 0 &&
	    w.s[0].r[0].phase == 1 && w.s[0].r[0].count == 3 &&
	    w.s[0].r[0].sum_ns == 300 && w.s[0].r[0].max_ns == 200,
	    "dlat.0: row 0's key and sums");
	ds_blklat_row_lat(&w.s[0], &w.s[0].r[0], &h);
	ok(h.b[1] == 0 && h.b[2] == 1 && h.b[3] == 2 && h.b[4] == 0,
	    "dlat.0: row 0's buckets 2 and 3");
	ok(w.s[0].r[1].op == 1 && w.s[0].r[1].count == 1, "dlat.0: row 1");
	is_int(w.s[0].nw, 2, "dlat.0: 2 who lines");
	ok(w.s[0].w[0].pid == 42 && w.s[0].w[0].bytes == 4096 &&
	    w.s[0].w[0].h.count == 3 && w.s[0].w[0].h.b[3] == 2,
	    "dlat.0: who 0");
	is_str(w.s[0].w[0].comm, "fio", "dlat.0: who 0's comm");
	is_str(w.s[0].w[1].comm, "a\tb", "dlat.0: who 1's comm unescaped");
	is_int(parse(&w, DS_WINDOW_DLAT1, "dlat 1\ndisk sda 8388608\n"
	    "disk vdb 264241168\n"), 0, "dlat.1: the same disks");
	is_int(parse(&w, DS_WINDOW_DLAT1, "dlat 1\ndisk sda 8388608\n"),
	    -EINVAL, "dlat.1: other disks refused");
	is_str(w.err, "capture/dlat.1: line 0: other disks than the other "
	    "snapshot", "dlat.1: other disks, said");
	ds_window_free(&w);
}

static void
kmsg_valid(void)
{
	struct ds_window w = { 0 };
	int e;

	e = parse(&w, DS_WINDOW_KMSG, "kmsg 1\nfrom_us 10\nto_us 20\n"
	    "error 5\nrecords 3\nmalformed 1\nrefused 2\nignored 4\n"
	    "suppressed 9\nioerr sda 2 1 3 100 200 4096 READ I/O\\x20error\n"
	    "ioerr nvme0n1 1 0 0 1 1 - \\x00 \\x00\n");
	is_int(e, 0, "kmsg: parsed");
	if (e < 0)
		printf("# %s\n", w.err);
	ok(w.have_kmsg && w.kmsg_from_us == 10 && w.kmsg_to_us == 20 &&
	    w.kmsg_err == -5, "kmsg: the window and the error");
	ok(w.ioerr.records == 3 && w.ioerr.malformed == 1 &&
	    w.ioerr.refused == 2 && w.ioerr.ignored == 4 &&
	    w.ioerr.suppressed == 9, "kmsg: the counts");
	is_int(w.ioerr.n, 2, "kmsg: 2 disks");
	ok(w.ioerr.e[0].count == 2 && w.ioerr.e[0].buffer == 1 &&
	    w.ioerr.e[0].suppressed == 3 && w.ioerr.e[0].first_us == 100 &&
	    w.ioerr.e[0].last_us == 200 && w.ioerr.e[0].have_sector &&
	    w.ioerr.e[0].sector == 4096, "kmsg: sda's numbers");
	ok(strcmp(w.ioerr.e[0].dev, "sda") == 0 &&
	    strcmp(w.ioerr.e[0].op, "READ") == 0 &&
	    strcmp(w.ioerr.e[0].kind, "I/O error") == 0, "kmsg: sda's words");
	ok(!w.ioerr.e[1].have_sector && w.ioerr.e[1].op[0] == '\0' &&
	    w.ioerr.e[1].kind[0] == '\0', "kmsg: no sector, empty words");
	ds_window_free(&w);
}

struct bad {
	const char *member, *text, *err;
};

static const struct bad bads[] = {
	{ DS_WINDOW_MEMBER, "", "capture/window: line 0: cut short (no "
	    "newline at its end)" },
	{ DS_WINDOW_MEMBER, "window 1", "capture/window: line 0: cut short "
	    "(no newline at its end)" },
	{ DS_WINDOW_MEMBER, "window 1\n\0\n", "capture/window: line 0: a NUL "
	    "byte" },
	{ DS_WINDOW_MEMBER, "windows 1\n", "capture/window: line 1: not a "
	    "window member (no \"window 1\" line)" },
	{ DS_WINDOW_MEMBER, "window 2\n", "capture/window: line 1: format 2: "
	    "this version reads format 1" },
	{ DS_WINDOW_MEMBER, "window 1\n", "capture/window: line 0: cut short "
	    "(no ticks line)" },
	{ DS_WINDOW_MEMBER, "window 1\nticks 1\nblocked 1 0\n",
	    "capture/window: line 0: cut short (no looks line)" },
	{ DS_WINDOW_MEMBER, "window 1\nticks 1\nlooks 0\n",
	    "capture/window: line 0: cut short (no blocked line)" },
	{ DS_WINDOW_MEMBER, "window 1\ntick_ns 10\n", "capture/window: line "
	    "2: ticks of 10 ns, not 100000000" },
	{ DS_WINDOW_MEMBER, "window 1\ntick_ns\n", "capture/window: line 2: "
	    "1 words, not 2" },
	{ DS_WINDOW_MEMBER, "window 1\nticks 1\nticks 1\n", "capture/window: "
	    "line 3: a second ticks line" },
	{ DS_WINDOW_MEMBER, "window 1\nticks x\n", "capture/window: line 2: "
	    "word 2: not a number" },
	{ DS_WINDOW_MEMBER, "window 1\nticks -1\n", "capture/window: line 2: "
	    "word 2: not a number" },
	{ DS_WINDOW_MEMBER, "window 1\nticks \n", "capture/window: line 2: "
	    "word 2: not a number" },
	{ DS_WINDOW_MEMBER, "window 1\nticks  1\n", "capture/window: line 2: "
	    "3 words, not 2" },
	{ DS_WINDOW_MEMBER, "window 1\nticks 36003\n", "capture/window: line "
	    "2: word 2: too large" },
	{ DS_WINDOW_MEMBER, "window 1\nticks 99999999999999999999999\n",
	    "capture/window: line 2: word 2: too large" },
	{ DS_WINDOW_MEMBER, "window 1\ndisk sda 1\n", "capture/window: line "
	    "2: a disk before the ticks line" },
	{ DS_WINDOW_MEMBER, "window 1\nticks 1\ndisk\n", "capture/window: "
	    "line 3: no disk name" },
	{ DS_WINDOW_MEMBER, "window 1\nticks 1\ndisk sda\n", "capture/window: "
	    "line 3: 0 values, not 1" },
	{ DS_WINDOW_MEMBER, "window 1\nticks 1\ndisk sda 1 2\n",
	    "capture/window: line 3: 2 values, not 1" },
	{ DS_WINDOW_MEMBER, "window 1\nticks 1\ndisk sda 4294967296\n",
	    "capture/window: line 3: word 3: too large" },
	{ DS_WINDOW_MEMBER, "window 1\nticks 1\ndisk \\x00 1\n",
	    "capture/window: line 3: an empty disk name" },
	{ DS_WINDOW_MEMBER, "window 1\nticks 1\ndisk sda 1\ndisk sda 1\n",
	    "capture/window: line 4: disk sda twice" },
	{ DS_WINDOW_MEMBER, "window 1\nticks 1\ndisk s\\q 1\n",
	    "capture/window: line 3: word 2: a bad escape" },
	{ DS_WINDOW_MEMBER, "window 1\nticks 1\ndisk s\\xg0 1\n",
	    "capture/window: line 3: word 2: a bad escape" },
	{ DS_WINDOW_MEMBER, "window 1\nticks 1\ndisk s\\x00x 1\n",
	    "capture/window: line 3: word 2: a NUL" },
	{ DS_WINDOW_MEMBER, "window 1\nticks 1\ndisk s\tx 1\n",
	    "capture/window: line 3: word 2: an unescaped byte" },
	{ DS_WINDOW_MEMBER, "window 1\nticks 1\ndisk s\377 1\n",
	    "capture/window: line 3: word 2: an unescaped byte" },
	{ DS_WINDOW_MEMBER, "window 1\nticks 1\ndisk "
	    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	    " 1\n", "capture/window: line 3: word 2: too long" },
	{ DS_WINDOW_MEMBER, "window 1\nticks 1\nblocked\n", "capture/window: "
	    "line 3: no count" },
	{ DS_WINDOW_MEMBER, "window 1\nticks 1\nblocked 2 1\n",
	    "capture/window: line 3: 1 values, not 2" },
	{ DS_WINDOW_MEMBER, "window 1\nticks 1\nblocked 1 1\nblocked 1 1\n",
	    "capture/window: line 4: a second blocked line" },
	{ DS_WINDOW_MEMBER, "window 1\nticks 1\nlooks 36003\n",
	    "capture/window: line 3: word 2: too large" },
	{ DS_WINDOW_MEMBER, "window 1\nticks 1\ntask 0 1 1 0 0 x\n",
	    "capture/window: line 3: a task before the looks line" },
	{ DS_WINDOW_MEMBER, "window 1\nticks 1\nlooks 0\ntask 0 1 1 0 0 x\n",
	    "capture/window: line 4: a task without a look" },
	{ DS_WINDOW_MEMBER, "window 1\nticks 1\nlooks 1 0\ntask 1 1 1 0 0 x\n",
	    "capture/window: line 4: word 2: too large" },
	{ DS_WINDOW_MEMBER, "window 1\nticks 1\nlooks 1 0\n"
	    "task 0 2147483648 1 0 0 x\n", "capture/window: line 4: word 3: "
	    "too large" },
	{ DS_WINDOW_MEMBER, "window 1\nticks 1\nlooks 1 0\n"
	    "task 0 1 1 99 0 x\n", "capture/window: line 4: word 5: too large" },
	{ DS_WINDOW_MEMBER, "window 1\nticks 1\nlooks 1 0\n"
	    "task 0 1 1 0 2 x\n", "capture/window: line 4: word 6: too large" },
	{ DS_WINDOW_MEMBER, "window 1\nticks 1\nlooks 1 0\ntask 0 1 1 0 0\n",
	    "capture/window: line 4: 6 words, not 7" },
	{ DS_WINDOW_MEMBER, "window 1\nbogus\n", "capture/window: line 2: "
	    "unknown line \"bogus\"" },
	{ DS_WINDOW_DLAT0, "dlat 1\ndisk sda\n", "capture/dlat.0: line 2: 2 "
	    "words, not 3" },
	{ DS_WINDOW_DLAT0, "dlat 1\ndisk sda 1\ndisk sdb 1\n",
	    "capture/dlat.0: line 3: device 1 twice" },
	{ DS_WINDOW_DLAT0, "dlat 1\ndisk \\x00 1\n", "capture/dlat.0: line 2: "
	    "an empty disk name" },
	{ DS_WINDOW_DLAT0, "dlat 1\nmiss 1 2 3\n", "capture/dlat.0: line 2: 4 "
	    "words, not 7" },
	{ DS_WINDOW_DLAT0, "dlat 1\nrecursion 2\n", "capture/dlat.0: line 2: "
	    "word 2: too large" },
	{ DS_WINDOW_DLAT0, "dlat 1\nrow 8 0\n", "capture/dlat.0: line 2: a "
	    "row cut short" },
	{ DS_WINDOW_DLAT0, "dlat 1\nrow 8 4 0 1 1 1 0 0\n", "capture/dlat.0: "
	    "line 2: word 3: too large" },
	{ DS_WINDOW_DLAT0, "dlat 1\nrow 8 0 3 1 1 1 0 0\n", "capture/dlat.0: "
	    "line 2: word 4: too large" },
	{ DS_WINDOW_DLAT0, "dlat 1\nrow 8 0 0 1 1\n", "capture/dlat.0: "
	    "line 2: a histogram cut short" },
	{ DS_WINDOW_DLAT0, "dlat 1\nrow 8 0 0 1 1 1 280 0\n",
	    "capture/dlat.0: line 2: word 8: too large" },
	{ DS_WINDOW_DLAT0, "dlat 1\nrow 8 0 0 1 1 1 279 2 1 1\n",
	    "capture/dlat.0: line 2: word 9: too large" },
	{ DS_WINDOW_DLAT0, "dlat 1\nrow 8 0 0 1 1 1 0 2 1\n",
	    "capture/dlat.0: line 2: 1 buckets, not 2" },
	{ DS_WINDOW_DLAT0, "dlat 1\nrow 8 1 0 1 1 1 0 0\nrow 8 0 0 1 1 1 0 0\n",
	    "capture/dlat.0: line 3: rows out of order" },
	{ DS_WINDOW_DLAT0, "dlat 1\nrow 8 0 0 1 1 1 0 0\nrow 8 0 0 1 1 1 0 0\n",
	    "capture/dlat.0: line 3: rows out of order" },
	{ DS_WINDOW_DLAT0, "dlat 1\nwho 8 1 x 0 0 0 0 0 0\n"
	    "row 8 0 0 1 1 1 0 0\n", "capture/dlat.0: line 3: a row after "
	    "the who lines" },
	{ DS_WINDOW_DLAT0, "dlat 1\nwho 8 1 x\n", "capture/dlat.0: line 2: a "
	    "who line cut short" },
	{ DS_WINDOW_DLAT0, "dlat 1\nwho 8 2 x 0 0 0 0 0 0\n"
	    "who 8 1 x 0 0 0 0 0 0\n", "capture/dlat.0: line 3: who lines out "
	    "of order" },
	{ DS_WINDOW_DLAT0, "dlat 1\nwho 8 1 x 0 0 0 0 0\n", "capture/dlat.0: "
	    "line 2: a histogram cut short" },
	{ DS_WINDOW_DLAT1, "kmsg 1\n", "capture/dlat.1: line 1: not a dlat "
	    "member (no \"dlat 1\" line)" },
	{ DS_WINDOW_DLAT1, "dlat 1\nticks 1\n", "capture/dlat.1: line 2: "
	    "unknown line \"ticks\"" },
	{ DS_WINDOW_KMSG, "kmsg 1\nerror 4096\n", "capture/kmsg: line 2: word "
	    "2: too large" },
	{ DS_WINDOW_KMSG, "kmsg 1\nrecords\n", "capture/kmsg: line 2: 1 words, "
	    "not 2" },
	{ DS_WINDOW_KMSG, "kmsg 1\nioerr sda 1 1 1 1\n", "capture/kmsg: line "
	    "2: 6 words, not 10" },
	{ DS_WINDOW_KMSG, "kmsg 1\nioerr sda 1 1 1 1 1 x READ e\n",
	    "capture/kmsg: line 2: word 8: not a number" },
	{ DS_WINDOW_KMSG, "kmsg 1\nioerr \\x00 1 1 1 1 1 - READ e\n",
	    "capture/kmsg: line 2: an empty device name" },
	{ DS_WINDOW_KMSG, "kmsg 1\nioerr sda 1 1 1 1 1 - READ "
	    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n",
	    "capture/kmsg: line 2: word 10: too long" },
	{ DS_WINDOW_KMSG, "kmsg 1\nfrom_us 1\nwho 1\n", "capture/kmsg: line 3: "
	    "unknown line \"who\"" },
};

static void
malformed(void)
{
	struct ds_window w;
	char name[96];
	size_t i, len;
	int e;

	for (i = 0; i < nitems(bads); i++) {
		memset(&w, 0, sizeof(w));
		len = strlen(bads[i].text);
		/* The NUL case: its length counted past the NUL. */
		if (strstr(bads[i].err, "a NUL byte") != NULL)
			len += 2;
		e = ds_window_parse(&w, bads[i].member, bads[i].text, len);
		snprintf(name, sizeof(name), "refused: %.70s", bads[i].err);
		is_int(e, -EINVAL, name);
		is_str(w.err, bads[i].err, name);
		ds_window_free(&w);
	}
	memset(&w, 0, sizeof(w));
	is_int(ds_window_parse(&w, "capture/meta", "x\n", 2), -EINVAL,
	    "a member not of the window refused");
	ds_window_free(&w);
}

/* Text of n lines made by line(i, buf) after a header. */
static char *
lines(const char *head, size_t n, void (*line)(size_t, char *),
    const char *tail, size_t *len)
{
	size_t cap = strlen(head) + strlen(tail) + (n + 1) * 64, at;
	char *t = malloc(cap), buf[64];
	size_t i;

	if (t == NULL)
		exit(1);
	at = (size_t)snprintf(t, cap, "%s", head);
	for (i = 0; i < n; i++) {
		line(i, buf);
		at += (size_t)snprintf(t + at, cap - at, "%s", buf);
	}
	at += (size_t)snprintf(t + at, cap - at, "%s", tail);
	*len = at;
	return t;
}

static void
disk_line(size_t i, char *b)
{
	snprintf(b, 64, "disk d%zu\n", i);
}

static void
task_line(size_t i, char *b)
{
	snprintf(b, 64, "task 0 %zu %zu 0 0 t\n", i, i);
}

static void
row_line(size_t i, char *b)
{
	snprintf(b, 64, "row %zu 0 0 1 1 1 0 0\n", i);
}

static void
who_line(size_t i, char *b)
{
	snprintf(b, 64, "who 8 %zu c 0 0 0 0 0 0\n", i);
}

static void
ioerr_line(size_t i, char *b)
{
	snprintf(b, 64, "ioerr d%zu 1 0 0 1 1 - R e\n", i);
}

static void
tick_word(size_t i, char *b)
{
	snprintf(b, 64, " %zu", i % 10);
}

/* n lines parse; n + 1 are refused with said. */
static void
bound(const char *member, const char *head, size_t n,
    void (*line)(size_t, char *), const char *tail, const char *said)
{
	struct ds_window w = { 0 };
	char name[128], *t;
	size_t len;
	int e;

	t = lines(head, n, line, tail, &len);
	e = ds_window_parse(&w, member, t, len);
	snprintf(name, sizeof(name), "%s: %zu lines at the bound", member, n);
	is_int(e, 0, name);
	if (e < 0)
		printf("# %s\n", w.err);
	free(t);
	ds_window_free(&w);
	memset(&w, 0, sizeof(w));
	t = lines(head, n + 1, line, tail, &len);
	snprintf(name, sizeof(name), "%s: one more refused", member);
	is_int(ds_window_parse(&w, member, t, len), -EINVAL, name);
	ok(strstr(w.err, said) != NULL, "%s: says \"%s\"", member, said);
	if (strstr(w.err, said) == NULL)
		printf("# %s\n", w.err);
	free(t);
	ds_window_free(&w);
}

static void
bounds(void)
{
	struct ds_window w = { 0 };
	char *t, head[64];
	size_t len;
	int e;

	bound(DS_WINDOW_MEMBER, "window 1\nticks 0\n", DS_WINDOW_DISKS_MAX,
	    disk_line, "blocked 0\nlooks 0\n", "more than 65536 disks");
	bound(DS_WINDOW_MEMBER, "window 1\nticks 0\nblocked 0\nlooks 1 0\n",
	    DS_WINDOW_TASKS_MAX, task_line, "", "more than 65536 tasks");
	bound(DS_WINDOW_DLAT0, "dlat 1\n", DS_WINDOW_ROWS_MAX, row_line, "",
	    "more than 65536 rows");
	bound(DS_WINDOW_DLAT0, "dlat 1\n", DS_BLKLAT_WHO_MAX, who_line, "",
	    "more than 4096 who lines");
	bound(DS_WINDOW_KMSG, "kmsg 1\n", DS_WINDOW_DISKS_MAX, ioerr_line, "",
	    "more than 65536 ioerr lines");
	/* A tick line of DS_WINDOW_TICKS_MAX values: the longest line. */
	snprintf(head, sizeof(head), "window 1\nticks %u\ndisk sda",
	    DS_WINDOW_TICKS_MAX);
	t = lines(head, DS_WINDOW_TICKS_MAX, tick_word, "\nblocked 0\nlooks 0\n",
	    &len);
	e = ds_window_parse(&w, DS_WINDOW_MEMBER, t, len);
	is_int(e, 0, "window: a disk of 36002 ticks");
	if (e < 0)
		printf("# %s\n", w.err);
	ok(w.nfl == DS_WINDOW_TICKS_MAX && w.fl[DS_WINDOW_TICKS_MAX - 1] == 1,
	    "window: the last tick's value");
	free(t);
	ds_window_free(&w);
}

int
main(void)
{
	window_valid();
	dlat_valid();
	kmsg_valid();
	malformed();
	bounds();
	return tap_done();
}
