/*
 * dlat under a capture (-R CAPTURE): the histograms dcapture's window
 * traced (capture/dlat.0 at its start, dlat.1 at its end), reported as
 * dlat would have reported them live with "interval = the window, count
 * 1".  The window traced every whole disk, every phase and the
 * submitters (as -P); the operands, -p and -P choose among what it
 * holds.  It records neither cgroups nor single requests: -g and -t are
 * refused.
 */
#include "dlat.h"

/* The traced disks the operands select into d->disk (exits when none). */
static void
pick(struct dl *d, const struct ds_window *w)
{
	size_t i;

	if ((d->disk = calloc(w->ntdisk ? w->ntdisk : 1,
	    sizeof(*d->disk))) == NULL)
		tool_errc(1, -ENOMEM, NULL);
	for (i = 0; i < w->ntdisk; i++)
		if (d->sel.n == 0 ||
		    ds_devsel_match(&d->sel, w->tdisk[i].name, NULL, 1) != 0)
			d->disk[d->ndisk++] = w->tdisk[i];
	if (tool_unmatched(&d->sel, "no such device") > 0)
		tool_exit(1);
	if (d->ndisk == 0)
		errx(1, "%s: the capture traced no disks", d->t.r.path);
}

/*
 * s's rows and submitters kept to the disks picked, its rows to the
 * phases -p asks for: what tracing them alone would have counted.  The
 * snapshot before is left whole (a delta looks its rows up by key).
 */
static void
keep(const struct dl *d, struct ds_blklat_snap *s)
{
	size_t i, n;

	for (i = n = 0; i < s->n; i++) {
		if (ds_blkdisk_name(d->disk, d->ndisk, s->r[i].dev) == NULL)
			continue;
		if (d->phases != 0 &&
		    !(d->phases & DS_BLKLAT_PHASE(s->r[i].phase)))
			continue;
		s->r[n++] = s->r[i];
	}
	s->n = n;
	for (i = n = 0; i < s->nw; i++)
		if (ds_blkdisk_name(d->disk, d->ndisk, s->w[i].dev) != NULL)
			s->w[n++] = s->w[i];
	s->nw = n;
}

void
dlat_capture_run(struct dl *d)
{
	struct ds_window w;
	const char *path = d->t.r.path;
	int e;

	if (d->t.r.nsamples == 0)
		errx(1, "%s: dlat traces the running kernel, not a tree", path);
	if (d->t.r.nsamples < 2)
		errx(1, "%s: a capture of one sample has no window to trace "
		    "(dcapture SECONDS traces one)", path);
	if (d->cg)
		tool_usage("-g: %s: a capture records no histograms per "
		    "cgroup", path);
	if (d->slow)
		tool_usage("-t: %s: a capture records no single requests, "
		    "only histograms", path);
	/* The window's, as "WINDOW 1" live; an interval is refused. */
	(void)tool_window(&d->t);
	memset(&w, 0, sizeof(w));
	if ((e = ds_window_load(&w, &d->t.r)) < 0)
		errx(1, "%s: %s", path, w.err[0] != '\0' ? w.err :
		    strerror(-e));
	if (!w.traced)
		errx(1, "%s: the capture's window was not traced: %s", path,
		    w.why);
	pick(d, &w);
	keep(d, &w.s[1]);
	dlat_writer_open(d);
	/* Reports are dated by the capture's end (its time1). */
	if ((e = ds_root_next(&d->t.r)) < 0)
		tool_errc(1, e, "%s: sample 1", path);
	dlat_report(d, &w.s[0], &w.s[1]);
	dlat_say_missed(d, &w.s[1]);
	ds_window_free(&w);
}
