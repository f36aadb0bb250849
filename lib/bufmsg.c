/*
 * A message made in a ds_buf: the library never prints, so where a
 * tool needs a sentence (a path with the reason a call failed) the
 * library builds it here and the tool says it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "diskstat.h"

int
ds_buf_vprintf(struct ds_buf *b, const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	b->len = 0;
	if (b->data != NULL)
		b->data[0] = '\0';
	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return -ENOMEM;
	if (ds_buf_reserve(b, (size_t)n + 1) < 0)
		return -ENOMEM;
	vsnprintf(b->data, (size_t)n + 1, fmt, ap);
	b->len = (size_t)n;
	return n;
}

int
ds_buf_printf(struct ds_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = ds_buf_vprintf(b, fmt, ap);
	va_end(ap);
	return n;
}
