/* A message of any length made into a ds_buf, for the library's sentences. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "diskstat.h"

int
ds_buf_printf(struct ds_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	b->len = 0;
	if (n < 0 || ds_buf_reserve(b, (size_t)n) < 0)
		return ds_buf_fail(b, -ENOMEM);
	va_start(ap, fmt);
	vsnprintf(b->data, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len = (size_t)n;
	return 0;
}
