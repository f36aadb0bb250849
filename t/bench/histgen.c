/*
 * histgen: a week of the history timer's captures made from one.
 *
 *	histgen CAPTURE DIR N
 *
 * N one-sample captures in DIR (hNNNN.cap), 5 minutes apart: CAPTURE's
 * members as they are, but for 0/proc/uptime and capture/meta's
 * uptime0 and time0, moved on by 300 s each, and 0/proc/diskstats,
 * where every device does 100 reads/s of 1 ms with one in flight: the
 * quiet history dtriage's baseline is made of.  Read and written with
 * the library's own archive reader and writer.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

#define STEP_NS (300ull * 1000000000ull)

/* Each diskstats line with i intervals of 30000 reads of 1 ms added. */
static void
disks(struct ds_buf *out, const char *text, unsigned long i)
{
	unsigned long long v[20], add = 30000ull * i;
	char name[64];
	const char *p = text;
	int n, k, used;

	out->len = 0;
	while (*p != '\0') {
		n = sscanf(p, "%llu %llu %63s %llu %llu %llu %llu %llu %llu %llu "
		    "%llu %llu %llu %llu%n", &v[0], &v[1], name, &v[2], &v[3],
		    &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10], &v[11],
		    &v[12], &used);
		if (n == 14) {
			/* reads, sectors, ms reading; io_ticks, time in queue */
			v[2] += add;
			v[4] += add * 8;
			v[5] += add;
			v[11] += add;
			v[12] += add;
			ds_buf_appendf(out, "%4llu %7llu %s", v[0], v[1], name);
			for (k = 2; k < 13; k++)
				ds_buf_appendf(out, " %llu", v[k]);
			p += used;
			k = (int)strcspn(p, "\n");
			ds_buf_appendf(out, "%.*s\n", k, p);
			p += k;
		} else
			p += strcspn(p, "\n");
		p += *p == '\n';
	}
}

/* capture/meta with uptime0 made up, time0 moved on by i steps. */
static void
meta(struct ds_buf *out, const char *text, unsigned long i, uint64_t up)
{
	unsigned long long v;
	const char *p = text;
	char key[32];
	int k;

	out->len = 0;
	while (*p != '\0') {
		k = (int)strcspn(p, "\n");
		if (sscanf(p, "%31s %llu", key, &v) == 2 &&
		    strcmp(key, "uptime0") == 0)
			ds_buf_appendf(out, "%s %llu\n", key,
			    (unsigned long long)up);
		else if (sscanf(p, "%31s %llu", key, &v) == 2 &&
		    strcmp(key, "time0") == 0)
			ds_buf_appendf(out, "%s %llu\n", key, v + i * STEP_NS);
		else
			ds_buf_appendf(out, "%.*s\n", k, p);
		p += k;
		p += *p == '\n';
	}
}

static int
one(int in, const char *path, unsigned long i, uint64_t up0,
    struct ds_buf *data, struct ds_buf *alt)
{
	struct ds_tar_member m;
	struct ds_tar *t;
	struct ds_tarw *w;
	uint64_t up = up0 + i * STEP_NS;
	int out, e;

	if ((w = malloc(sizeof(*w))) == NULL)
		return -ENOMEM;
	if ((out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600)) < 0) {
		free(w);
		return -errno;
	}
	lseek(in, 0, SEEK_SET);
	if ((e = ds_tar_open(in, NULL, &t)) < 0) {
		close(out);
		free(w);
		return e;
	}
	ds_tarw_init(w, out, 1796000000 + i * 300);
	while ((e = ds_tar_next(t, &m)) == 1) {
		if (m.type == '2') {
			ds_tarw_link(w, m.path, m.link);
			continue;
		}
		if (m.type == '5') {
			ds_tarw_dir(w, m.path);
			continue;
		}
		if ((e = ds_tar_data(t, data)) < 0)
			break;
		if (strcmp(m.path, "0/proc/uptime") == 0) {
			ds_buf_printf(alt, "%llu.%09llu 0.00\n",
			    (unsigned long long)(up / 1000000000u),
			    (unsigned long long)(up % 1000000000u));
			ds_tarw_file(w, m.path, alt->data, alt->len);
		} else if (strcmp(m.path, "0/proc/diskstats") == 0) {
			disks(alt, data->data, i);
			ds_tarw_file(w, m.path, alt->data, alt->len);
		} else if (strcmp(m.path, "capture/meta") == 0) {
			meta(alt, data->data, i, up);
			ds_tarw_file(w, m.path, alt->data, alt->len);
		} else
			ds_tarw_file(w, m.path, data->data, data->len);
	}
	ds_tar_close(t);
	if (e == 0)
		e = ds_tarw_end(w);
	free(w);
	if (close(out) < 0 && e == 0)
		e = -errno;
	return e;
}

int
main(int argc, char **argv)
{
	struct ds_buf data = { 0 }, alt = { 0 };
	char path[4096];
	unsigned long i, n;
	uint64_t up0;
	int in, e;

	if (argc != 4 || (n = strtoul(argv[3], NULL, 10)) == 0) {
		fprintf(stderr, "usage: histgen capture dir n\n");
		return 2;
	}
	if ((in = open(argv[1], O_RDONLY)) < 0) {
		perror(argv[1]);
		return 1;
	}
	/* A boot a day old at the first. */
	up0 = 86400ull * 1000000000ull;
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/h%04lu.cap", argv[2], i);
		if ((e = one(in, path, i, up0, &data, &alt)) < 0) {
			fprintf(stderr, "histgen: %s: %s\n", path, strerror(-e));
			return 1;
		}
	}
	return 0;
}
