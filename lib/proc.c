/*
 * Processes: the PID list, /proc/PID/stat and /proc/PID/io.
 * A process can exit at any moment; callers treat -ENOENT and -ESRCH
 * from these as "gone", not as errors.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

static int
cmppid(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int
ds_pids_read(const struct ds_root *r, const char *rel, struct ds_pids *out)
{
	struct dirent *de;
	uint64_t v;
	DIR *d;
	int fd, sorted = 1;

	out->n = 0;
	fd = ds_openat(r, rel, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return fd;
	d = fdopendir(fd);
	if (d == NULL) {
		int e = -errno;
		close(fd);
		return e;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9' ||
		    ds_strtou64(de->d_name, &v) < 0 || v > INT32_MAX)
			continue;
		if (out->n > 0 && (int)v < out->pid[out->n - 1])
			sorted = 0;
		if (ds_grow(&out->pid, &out->cap, out->n + 1,
		    sizeof(*out->pid)) < 0) {
			closedir(d);
			return -ENOMEM;
		}
		out->pid[out->n++] = (int)v;
	}
	closedir(d);
	/*
	 * procfs lists pids in ascending order already; a copied tree
	 * need not.  Sorting thousands of sorted pids was 8% of the user
	 * time of a scan of every process.
	 */
	if (out->n > 1 && !sorted)
		qsort(out->pid, out->n, sizeof(*out->pid), cmppid);
	return 0;
}

void
ds_pids_free(struct ds_pids *p)
{
	free(p->pid);
	p->pid = NULL;
	p->n = p->cap = 0;
}

/*
 * A field of stat as ds_strtou64 takes it: decimal digits only, at most
 * UINT64_MAX.
 */
static int
field_u64(const char *s, const char *e, uint64_t *out)
{
	uint64_t v = 0;
	unsigned d;

	if (s == e)
		return -EINVAL;
	for (; s < e; s++) {
		d = (unsigned)(unsigned char)*s - '0';
		if (d > 9)
			return -EINVAL;
		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

/* What a byte is to the split of stat's fields. */
#define BLANK	1
#define END	2
static const unsigned char cls[256] = {
	[' '] = BLANK, ['\t'] = BLANK, ['\0'] = END, ['\n'] = END,
};

/*
 * proc(5): "pid (comm) state ppid ...".  comm may hold anything,
 * parentheses, spaces and newlines included, so it runs to the LAST
 * ')'.  Field numbers below are proc(5)'s, 1-based.  The fields are
 * taken from at most 1023 bytes after comm, up to a NUL or newline, and
 * only the ones kept are converted.
 */
int
ds_stat_parse(const char *text, size_t len, struct ds_stat *st)
{
	const char *open, *close, *p, *lim, *end = text + len;
	const char *fs[40], *fe[40];
	size_t n, l;
	uint64_t v;

	memset(st, 0, sizeof(*st));
	open = memchr(text, '(', len);
	close = memrchr(text, ')', len);
	if (open == NULL || close == NULL || close < open)
		return -EINVAL;
	if (ds_parse_u64(text, &p, &v) < 0 || v > INT32_MAX || p > open)
		return -EINVAL;
	st->pid = (int)v;
	l = (size_t)(close - open - 1);
	st->comm_len = l < sizeof(st->comm) - 1 ? l : sizeof(st->comm) - 1;
	memcpy(st->comm, open + 1, st->comm_len);
	st->comm[st->comm_len] = '\0';
	p = close + 1;
	lim = end - p > 1023 ? p + 1023 : end;
	/* Split on blanks; fs[0] is field 3 (state). */
	for (n = 0;; n++) {
		while (p < lim && cls[(unsigned char)*p] == BLANK)
			p++;
		if (p == lim || cls[(unsigned char)*p] == END)
			break;
		if (n < 40)
			fs[n] = p;
		while (++p < lim && cls[(unsigned char)*p] == 0)
			;
		if (n < 40)
			fe[n] = p;
	}
	if (n < 20)
		return -EINVAL;
	st->state = fs[0][0];
	st->nfields = (unsigned int)(n + 2);
	/* A pid is at most 2^22 (PID_MAX_LIMIT); the int must hold it. */
	if (field_u64(fs[1], fe[1], &v) < 0 || v > INT32_MAX)
		return -EINVAL;
	st->ppid = (int)v;
	if (field_u64(fs[11], fe[11], &v) < 0)		/* 14 utime */
		return -EINVAL;
	st->utime = v;
	if (field_u64(fs[12], fe[12], &v) < 0)		/* 15 stime */
		return -EINVAL;
	st->stime = v;
	if (field_u64(fs[6], fe[6], &v) == 0)		/* 9 flags */
		st->kthread = (v & 0x00200000u) != 0;	/* PF_KTHREAD */
	if (field_u64(fs[17], fe[17], &v) < 0)		/* 20 num_threads */
		return -EINVAL;
	st->num_threads = v;
	if (field_u64(fs[19], fe[19], &v) < 0)		/* 22 starttime, ticks */
		return -EINVAL;
	st->starttime = v;
	/* 42 delayacct_blkio_ticks: since 2.6.18, absent on short lines. */
	if (n >= 40 && field_u64(fs[39], fe[39], &v) == 0) {
		st->blkio_ticks = v;
		st->have_blkio = 1;
	}
	return 0;
}

int
ds_io_parse(const char *text, struct ds_io *io)
{
	static const char *const key[DS_IO_NFIELDS] = {
		"rchar", "wchar", "syscr", "syscw", "read_bytes",
		"write_bytes", "cancelled_write_bytes",
	};
	const char *p = text, *colon, *nl;
	size_t i, kl;
	uint64_t v;

	memset(io, 0, sizeof(*io));
	while (*p != '\0') {
		colon = strchr(p, ':');
		nl = strchr(p, '\n');
		if (nl == NULL)
			nl = p + strlen(p);
		if (colon != NULL && colon < nl) {
			kl = (size_t)(colon - p);
			for (i = 0; i < DS_IO_NFIELDS; i++)
				if (strlen(key[i]) == kl &&
				    memcmp(p, key[i], kl) == 0)
					break;
			/* Unknown keys are ignored; bad values are not kept. */
			if (i < DS_IO_NFIELDS) {
				const char *e;
				if (ds_parse_u64(colon + 1, &e, &v) == 0 &&
				    (e == nl || *e == ' ')) {
					io->v[i] = v;
					io->have |= 1u << i;
				}
			}
		}
		p = *nl != '\0' ? nl + 1 : nl;
	}
	return io->have != 0 ? 0 : -EINVAL;
}

int
ds_pids_parse(const char *list, struct ds_pids *out, char *bad, size_t size)
{
	char *s, *tok, *save, *copy;
	uint64_t v;
	size_t i, j;
	int e = 0;

	if ((copy = strdup(list)) == NULL)
		return -ENOMEM;
	for (s = copy; e == 0 && (tok = strtok_r(s, ",", &save)) != NULL;
	    s = NULL) {
		if (ds_strtou64(tok, &v) < 0 || v < 1 || v > INT_MAX) {
			if (size > 0)
				snprintf(bad, size, "%s", tok);
			e = -EINVAL;
		} else if (ds_grow(&out->pid, &out->cap, out->n + 1,
		    sizeof(*out->pid)) < 0)
			e = -ENOMEM;
		if (e == 0)
			out->pid[out->n++] = (int)v;
	}
	free(copy);
	if (e == 0 && out->n == 0)
		e = -ENODATA;
	if (e < 0)
		return e;
	/* Sorted and unique, so each is read once. */
	qsort(out->pid, out->n, sizeof(*out->pid), cmppid);
	for (i = j = 0; i < out->n; i++)
		if (j == 0 || out->pid[j - 1] != out->pid[i])
			out->pid[j++] = out->pid[i];
	out->n = j;
	return 0;
}

int
ds_stat_threads(const char *text, size_t len, uint64_t *n)
{
	struct ds_stat st;
	int e;

	if ((e = ds_stat_parse(text, len, &st)) < 0)
		return e;
	if (st.nfields < 20)
		return -EINVAL;
	*n = st.num_threads;
	return 0;
}
