/*
 * Sentences for a tool to warn, gathered by the library (which never
 * prints): each ended by a NUL, one after the other in a buffer.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

int
ds_said(struct ds_buf *said, const char *fmt, ...)
{
	va_list ap;
	size_t len = said->len;
	int e;

	va_start(ap, fmt);
	e = ds_buf_vappendf(said, fmt, ap);
	va_end(ap);
	/* The sentence's NUL, and the buffer's own NUL after it. */
	if (e < 0 || (e = ds_buf_reserve(said, 1)) < 0) {
		said->len = len;
		if (said->data != NULL)
			said->data[len] = '\0';
		return e;
	}
	said->len++;
	said->data[said->len] = '\0';
	return 0;
}

int
ds_said_bad(struct ds_buf *said, const char *what,
    const struct ds_diskstats *s)
{
	if (s->bad == 0)
		return 0;
	return ds_said(said, "%s: line %zu: not a diskstats line (%zu line%s "
	    "skipped)", what, s->first_bad, s->bad, s->bad == 1 ? "" : "s");
}

int
ds_said_bad_new(struct ds_buf *said, const char *what,
    const struct ds_diskstats *s, struct ds_badseen *seen)
{
	if (s->bad == 0 || (s->bad == seen->bad &&
	    s->first_bad == seen->first_bad))
		return 0;
	seen->bad = s->bad;
	seen->first_bad = s->first_bad;
	return ds_said_bad(said, what, s);
}

int
ds_said_extra(struct ds_buf *said, const struct ds_disk *d)
{
	int e;

	if (ds_disk_extra(d) == 0)
		return 0;
	if ((e = ds_said(said, "%s: %u values where the kernel prints %u: "
	    "read as that format, the rest unused (said once)", d->name,
	    d->ncounters, ds_disk_known(d->ncounters))) < 0)
		return e;
	return 1;
}
