/*
 * What dxstat tells about its input besides the rows: damaged lines
 * skipped, devices listed twice, lines of more values than their
 * format.  Each is a warning; the devices that could be read are
 * reported all the same.
 */
#include "util/util.h"
#include "dxstat.h"

void
dx_warn_bad(const char *what, const struct ds_diskstats *s)
{
	if (s->bad == 0)
		return;
	warnx("%s: line %zu: not a diskstats line (%zu line%s skipped)", what,
	    s->first_bad, s->bad, s->bad == 1 ? "" : "s");
}

void
dx_warn_bad_new(const char *what, const struct ds_diskstats *s,
    struct dx_badseen *seen)
{
	if (s->bad == 0 || (s->bad == seen->bad &&
	    s->first_bad == seen->first_bad))
		return;
	seen->bad = s->bad;
	seen->first_bad = s->first_bad;
	dx_warn_bad(what, s);
}

int
dx_warn_extra(const struct ds_disk *d)
{
	if (ds_disk_extra(d) == 0)
		return 0;
	warnx("%s: %u values where the kernel prints %u: read as that format, "
	    "the rest unused (said once)", d->name, d->ncounters,
	    ds_disk_known(d->ncounters));
	return 1;
}

void
dx_warn_rows(const struct ds_rows *rs, const struct ds_older *only_read)
{
	const struct ds_older *o = rs->o;

	if (o != NULL) {
		dx_warn_bad(o->what, &o->pend);
		if (o->twice > 0)
			warnx("%s: line %zu: a device listed again (%zu line%s "
			    "skipped)", rs->what, o->first_twice, o->twice,
			    o->twice == 1 ? "" : "s");
	}
	dx_warn_bad(rs->what, &rs->bad);
	/* Since boot after a reboot: the earlier file was only read. */
	if (only_read != NULL)
		dx_warn_bad(only_read->what, &only_read->pend);
}
