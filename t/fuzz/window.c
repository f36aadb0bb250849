/*
 * A capture's window members (lib/winload.c): ds_window_parse on the
 * bytes after the first, which picks the member (capture/window,
 * dlat.0, dlat.1 or kmsg).  Refused: -EINVAL with w->err naming the
 * member and a line, or -ENOMEM.  Accepted: every count within its
 * DS_WINDOW_*_MAX, names terminated and not empty, a disk named once,
 * tasks of a look taken, histograms' rows and who lines in strictly
 * increasing key order, the kernel log's error an errno.  The same
 * input gives the same answer twice.
 */
#include <errno.h>

#include "fuzz.h"

static const char *const members[] = { DS_WINDOW_MEMBER, DS_WINDOW_DLAT0,
    DS_WINDOW_DLAT1, DS_WINDOW_KMSG };

static void
check_window(const struct ds_window *w)
{
	size_t i, j;

	FUZZ_CHECK(w->have_ticks == 1);
	FUZZ_CHECK(w->nfl <= DS_WINDOW_TICKS_MAX && w->nmax >= 1);
	FUZZ_CHECK(w->nfl == 0 || w->nmax == w->nfl);
	FUZZ_CHECK(w->ndisk <= DS_WINDOW_DISKS_MAX);
	FUZZ_CHECK(w->nblocked <= DS_WINDOW_TICKS_MAX && w->blocked != NULL);
	FUZZ_CHECK(w->nlooks <= DS_WINDOW_TICKS_MAX && w->look_fl != NULL);
	FUZZ_CHECK(w->ntask <= DS_WINDOW_TASKS_MAX);
	for (i = 0; i < w->ndisk; i++) {
		FUZZ_CHECK(w->disk[i][0] != '\0');
		FUZZ_CHECK(strnlen(w->disk[i], sizeof(w->disk[i])) <
		    sizeof(w->disk[i]));
		for (j = 0; j < i; j++)
			FUZZ_CHECK(strcmp(w->disk[i], w->disk[j]) != 0);
	}
	for (i = 0; i < w->ntask; i++) {
		FUZZ_CHECK(w->task[i].look < w->nlooks);
		FUZZ_CHECK(w->task[i].pid >= 0 && w->task[i].tid >= 0);
		FUZZ_CHECK(w->task[i].wait >= 0 && w->task[i].wait < DS_WAIT_N);
		FUZZ_CHECK(w->task[i].kthread == 0 || w->task[i].kthread == 1);
		FUZZ_CHECK(strnlen(w->task[i].comm, sizeof(w->task[i].comm)) <
		    sizeof(w->task[i].comm));
	}
}

static void
check_dlat(const struct ds_window *w, const struct ds_blklat_snap *s)
{
	struct ds_lat h;
	size_t i, j;

	FUZZ_CHECK(s->n <= DS_WINDOW_ROWS_MAX && s->nw <= DS_BLKLAT_WHO_MAX);
	FUZZ_CHECK(s->have_recursion == 0 || s->have_recursion == 1);
	for (i = 0; i < s->n; i++) {
		FUZZ_CHECK(s->r[i].op < DS_BLK_OPS);
		FUZZ_CHECK(s->r[i].phase < DS_BLK_PHASES);
		FUZZ_CHECK(s->r[i].first + s->r[i].nb <= DS_LAT_NB);
		if (i > 0)
			FUZZ_CHECK(s->r[i - 1].dev < s->r[i].dev ||
			    (s->r[i - 1].dev == s->r[i].dev &&
			    s->r[i - 1].op * 4 + s->r[i - 1].phase <
			    s->r[i].op * 4 + s->r[i].phase));
		ds_blklat_row_lat(s, &s->r[i], &h);
		FUZZ_CHECK(h.count == s->r[i].count);
	}
	for (i = 0; i < s->nw; i++) {
		FUZZ_CHECK(strnlen(s->w[i].comm, sizeof(s->w[i].comm)) <
		    sizeof(s->w[i].comm));
		if (i > 0)
			FUZZ_CHECK(s->w[i - 1].dev < s->w[i].dev ||
			    (s->w[i - 1].dev == s->w[i].dev &&
			    s->w[i - 1].pid < s->w[i].pid));
	}
	FUZZ_CHECK(w->ntdisk <= DS_WINDOW_DISKS_MAX);
	for (i = 0; i < w->ntdisk; i++) {
		FUZZ_CHECK(w->tdisk[i].name[0] != '\0');
		for (j = 0; j < i; j++)
			FUZZ_CHECK(w->tdisk[i].dev != w->tdisk[j].dev);
	}
}

static void
check_kmsg(const struct ds_window *w)
{
	size_t i;

	FUZZ_CHECK(w->have_kmsg == 1);
	FUZZ_CHECK(w->kmsg_err <= 0 && w->kmsg_err >= -4095);
	FUZZ_CHECK(w->ioerr.n <= DS_WINDOW_DISKS_MAX);
	for (i = 0; i < w->ioerr.n; i++) {
		FUZZ_CHECK(w->ioerr.e[i].dev[0] != '\0');
		FUZZ_CHECK(strnlen(w->ioerr.e[i].op, sizeof(w->ioerr.e[i].op)) <
		    sizeof(w->ioerr.e[i].op));
		FUZZ_CHECK(strnlen(w->ioerr.e[i].kind,
		    sizeof(w->ioerr.e[i].kind)) < sizeof(w->ioerr.e[i].kind));
		FUZZ_CHECK(w->ioerr.e[i].have_sector ||
		    w->ioerr.e[i].sector == 0);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ds_window *w, *again;
	const char *m;
	char *text, prefix[64];
	int e, e2, k;

	if (size == 0)
		return 0;
	k = data[0] % 4;
	m = members[k];
	text = fuzz_memdup(data + 1, size - 1);
	w = calloc(1, sizeof(*w));
	again = calloc(1, sizeof(*again));
	FUZZ_CHECK(w != NULL && again != NULL);
	e = ds_window_parse(w, m, text, size - 1);
	e2 = ds_window_parse(again, m, text, size - 1);
	FUZZ_CHECK(e == e2);
	FUZZ_CHECK(e == 0 || e == -EINVAL || e == -ENOMEM);
	if (e == -EINVAL) {
		snprintf(prefix, sizeof(prefix), "%s: line ", m);
		FUZZ_CHECK(strncmp(w->err, prefix, strlen(prefix)) == 0);
		FUZZ_CHECK(strcmp(w->err, again->err) == 0);
	} else if (e == 0 && k == 0)
		check_window(w);
	else if (e == 0 && k == 3)
		check_kmsg(w);
	else if (e == 0)
		check_dlat(w, &w->s[k - 1]);
	ds_window_free(w);
	ds_window_free(again);
	free(w);
	free(again);
	free(text);
	return 0;
}
