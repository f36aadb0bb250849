/* Checked number parsing and field splitting. */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"

/* Space or tab: what separates a number from what comes before it. */
static int
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

int
ds_parse_u64(const char *s, const char **end, uint64_t *out)
{
	uint64_t v = 0;
	const char *p = s;
	unsigned d;

	while (is_blank(*p))
		p++;
	if (*p < '0' || *p > '9') {
		if (end != NULL)
			*end = s;
		return -EINVAL;
	}
	for (; *p >= '0' && *p <= '9'; p++) {
		d = (unsigned)(*p - '0');
		if (v > (UINT64_MAX - d) / 10) {
			/* Consume the rest so the caller's position is sane. */
			while (*p >= '0' && *p <= '9')
				p++;
			if (end != NULL)
				*end = p;
			return -ERANGE;
		}
		v = v * 10 + d;
	}
	if (end != NULL)
		*end = p;
	*out = v;
	return 0;
}

int
ds_strtou64(const char *s, uint64_t *out)
{
	const char *end;
	int e;

	if ((e = ds_parse_u64(s, &end, out)) < 0)
		return e;
	while (is_blank(*end) || *end == '\n')
		end++;
	return *end == '\0' ? 0 : -EINVAL;
}

int
ds_parse_fixed(const char *s, const char **end, unsigned scale, uint64_t *out)
{
	const char *p;
	uint64_t v, frac = 0;
	unsigned i;
	int e;

	/* 10^20 is past UINT64_MAX: a wider scale would wrap the fraction. */
	if (scale > 19) {
		if (end != NULL)
			*end = s;
		return -EINVAL;
	}
	if ((e = ds_parse_u64(s, &p, &v)) < 0) {
		if (end != NULL)
			*end = p;
		return e;
	}
	if (*p == '.') {
		p++;
		for (i = 0; i < scale && *p >= '0' && *p <= '9'; i++, p++)
			frac = frac * 10 + (uint64_t)(*p - '0');
		for (; i < scale; i++)
			frac *= 10;
		while (*p >= '0' && *p <= '9')
			p++;
	} else {
		for (i = 0; i < scale; i++)
			frac *= 10;
	}
	for (i = 0; i < scale; i++) {
		if (v > UINT64_MAX / 10) {
			if (end != NULL)
				*end = p;
			return -ERANGE;
		}
		v *= 10;
	}
	if (v > UINT64_MAX - frac) {
		if (end != NULL)
			*end = p;
		return -ERANGE;
	}
	if (end != NULL)
		*end = p;
	*out = v + frac;
	return 0;
}

size_t
ds_split(char *s, char **fields, size_t max)
{
	size_t n = 0;

	for (;;) {
		while (is_blank(*s))
			*s++ = '\0';
		if (*s == '\0' || *s == '\n')
			break;
		if (n < max)
			fields[n] = s;
		n++;
		while (*s != '\0' && *s != '\n' && !is_blank(*s))
			s++;
	}
	*s = '\0';
	return n;
}

char *
ds_next_line(char **cursor)
{
	char *line = *cursor, *nl;

	if (line == NULL || *line == '\0')
		return NULL;
	nl = strchr(line, '\n');
	if (nl != NULL) {
		*nl = '\0';
		*cursor = nl + 1;
	} else {
		*cursor = line + strlen(line);
	}
	return line;
}

