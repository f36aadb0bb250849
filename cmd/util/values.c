/*
 * Values given to options and operands: output formats, intervals,
 * counts and sizes (0 or -errno), and an option's seconds, which are
 * refused as a usage error.
 */
#include "util.h"

int
tool_fmt_parse(const char *s, enum ds_fmt *f)
{
	static const struct { const char *name; enum ds_fmt fmt; } t[] = {
		{ "tsv", DS_FMT_TSV }, { "json", DS_FMT_JSON },
		{ "table", DS_FMT_TABLE }, { "prom", DS_FMT_PROM },
	};
	size_t i;

	for (i = 0; i < nitems(t); i++)
		if (strcmp(s, t[i].name) == 0) {
			*f = t[i].fmt;
			return 0;
		}
	return -EINVAL;
}

enum ds_fmt
tool_fmt_default(int fd)
{
	return isatty(fd) ? DS_FMT_TABLE : DS_FMT_TSV;
}

int
tool_parse_interval(const char *s, uint64_t *ns)
{
	const char *end;
	uint64_t v;
	int e;

	if (s[0] == ' ' || s[0] == '\t')
		return -EINVAL;
	if (s[0] == '.' && (s[1] < '0' || s[1] > '9'))
		return -EINVAL;
	if (s[0] == '.') {
		/*
		 * ".5" is 0.5 s, as iostat takes it: parsed as "0.5", with
		 * as many digits as "0.5..." would take.
		 */
		size_t len = strlen(s);
		char *buf;

		if ((buf = malloc(len + 2)) == NULL)
			return -ENOMEM;
		buf[0] = '0';
		memcpy(buf + 1, s, len + 1);
		e = tool_parse_interval(buf, ns);
		free(buf);
		return e;
	}
	if ((e = ds_parse_fixed(s, &end, 9, &v)) < 0)
		return e;
	if (*end != '\0')
		return -EINVAL;
	if (v < 10000000u || v > 31ull * 86400u * 1000000000u)
		return -ERANGE;
	*ns = v;
	return 0;
}

int
tool_parse_count(const char *s, uint64_t *n)
{
	uint64_t v;
	int e;

	if (s[0] == ' ' || s[0] == '\t')
		return -EINVAL;
	if ((e = ds_strtou64(s, &v)) < 0)
		return e;
	if (v < 1 || v > UINT32_MAX)
		return -ERANGE;
	*n = v;
	return 0;
}

int
tool_parse_size(const char *s, uint64_t *out)
{
	const char *end;
	uint64_t v, mul = 1;
	int e;

	if ((e = ds_parse_u64(s, &end, &v)) < 0)
		return e;
	switch (*end) {
	case '\0':
		break;
	case 'K': case 'k':
		mul = 1ULL << 10;
		end++;
		break;
	case 'M': case 'm':
		mul = 1ULL << 20;
		end++;
		break;
	case 'G': case 'g':
		mul = 1ULL << 30;
		end++;
		break;
	case 'T': case 't':
		mul = 1ULL << 40;
		end++;
		break;
	default:
		return -EINVAL;
	}
	if (*end != '\0' || s[0] < '0' || s[0] > '9')
		return -EINVAL;
	if (v > UINT64_MAX / mul)
		return -ERANGE;
	*out = v * mul;
	return 0;
}

uint64_t
tool_seconds(const char *what, const char *s)
{
	uint64_t ns;
	int e;

	if ((e = tool_parse_interval(s, &ns)) < 0)
		tool_usage("%s '%s': %s", what, s, e == -ERANGE ?
		    "out of range (0.01 to 2678400 seconds)" :
		    "not a number");
	return ns;
}
