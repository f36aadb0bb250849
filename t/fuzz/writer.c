/*
 * The row writer and its escaping, driven by random bytes: random
 * columns (every type and Prometheus kind), random cells (hostile
 * strings, any 64-bit pattern as a number or a double), rows and
 * reports in any order, in every format.  The output is then read back
 * with parsers written here, independent of the library:
 *   tsv   every line has the header's field count, every field
 *         unescapes to exactly the bytes given, numbers print exactly;
 *   json  every line is one object under a strict RFC 8259 parser
 *         (UTF-8 checked), keys in column order, strings decode to the
 *         bytes given with each invalid byte as U+FFFD;
 *   prom  HELP, TYPE and sample lines only; sample names and labels as
 *         declared, label values unescape to the (UTF-8 mended) bytes,
 *         one value per line that parses as a number;
 *   table no control byte, no C1 control and no invalid UTF-8 reaches
 *         the terminal, one line per row.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>

#include "fuzz.h"

#define MAXCOLS 6
#define MAXROWS 64

struct in {
	const uint8_t *p;
	size_t n;
};

static int
take(struct in *in, void *out, size_t n)
{
	if (in->n < n) {
		memset(out, 0, n);
		in->n = 0;
		return 0;
	}
	memcpy(out, in->p, n);
	in->p += n;
	in->n -= n;
	return 1;
}

static unsigned
byte(struct in *in)
{
	uint8_t b = 0;

	take(in, &b, 1);
	return b;
}

/* What a cell should print as, decided here and not by the writer. */
struct exp {
	int kind;		/* 0 null, else DS_T_* + 1 */
	uint64_t u;
	int64_t i;
	double d;
	const uint8_t *s;
	size_t len;
};

/* ---- UTF-8, independent of ds_utf8_len ---------------------------------- */

static size_t
utf8_ok(const uint8_t *s, size_t avail)
{
	uint32_t c;
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		n = 2, c = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3, c = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		n = 4, c = s[0] & 0x07;
	else
		return 0;
	if (avail < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((n == 2 && c < 0x80) || (n == 3 && c < 0x800) ||
	    (n == 4 && c < 0x10000) || c > 0x10ffff ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	return n;
}

/* The bytes with each byte of an invalid sequence as U+FFFD. */
static size_t
mend(const uint8_t *s, size_t len, uint8_t *out)
{
	size_t i = 0, o = 0, n;

	while (i < len) {
		if ((n = utf8_ok(s + i, len - i)) == 0) {
			memcpy(out + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		} else {
			memcpy(out + o, s + i, n);
			o += n;
			i += n;
		}
	}
	return o;
}

/* ---- expected number text ------------------------------------------------ */

static size_t
num_text(const struct exp *e, char *buf, size_t sz)
{
	int n = 0;

	switch (e->kind - 1) {
	case DS_T_U64:
		n = snprintf(buf, sz, "%" PRIu64, e->u);
		break;
	case DS_T_I64:
		n = snprintf(buf, sz, "%" PRId64, e->i);
		break;
	case DS_T_F2:
		n = snprintf(buf, sz, "%.2f", e->d);
		break;
	case DS_T_TIME:
		n = snprintf(buf, sz, "%" PRIu64 ".%03" PRIu64,
		    e->u / 1000000000u, e->u % 1000000000u / 1000000u);
		break;
	}
	FUZZ_CHECK(n >= 0 && (size_t)n < sz);
	return (size_t)n;
}

static char numbuf[512];

/* ---- TSV ----------------------------------------------------------------- */

/* A lower-case hex digit's value (the writer's \xHH), else -1. */
static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static void
check_tsv_field(const char *f, size_t len, const struct exp *e)
{
	uint8_t *u;
	size_t i, o = 0, n;

	if (e->kind == 0) {
		FUZZ_CHECK(len == 1 && f[0] == '-');
		return;
	}
	if (e->kind - 1 != DS_T_STR) {
		n = num_text(e, numbuf, sizeof(numbuf));
		FUZZ_CHECK(len == n && memcmp(f, numbuf, n) == 0);
		return;
	}
	u = malloc(len + 1);
	for (i = 0; i < len; i++) {
		/* No raw control byte: TSV reaches terminals (issue 15). */
		FUZZ_CHECK((unsigned char)f[i] >= 0x20 && f[i] != 0x7f);
		if (f[i] != '\\') {
			u[o++] = (uint8_t)f[i];
			continue;
		}
		FUZZ_CHECK(i + 1 < len);
		switch (f[++i]) {
		case 't': u[o++] = '\t'; break;
		case 'n': u[o++] = '\n'; break;
		case 'r': u[o++] = '\r'; break;
		case '\\': u[o++] = '\\'; break;
		case '0': u[o++] = '\0'; break;	/* a NUL (issue 15) */
		case 'x':	/* another control byte, as table has it */
			FUZZ_CHECK(i + 2 < len && hexval(f[i + 1]) >= 0 &&
			    hexval(f[i + 2]) >= 0);
			u[o++] = (uint8_t)(hexval(f[i + 1]) << 4 |
			    hexval(f[i + 2]));
			i += 2;
			break;
		default: FUZZ_CHECK(!"bad TSV escape");
		}
	}
	FUZZ_CHECK(o == e->len && (o == 0 || memcmp(u, e->s, o) == 0));
	free(u);
}

/* ---- JSON: a strict parser ------------------------------------------------ */

struct js {
	const char *p, *end;
	uint8_t *str;		/* decoded string */
	size_t len;
};

static void
ws(struct js *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' ||
	    *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

static unsigned
hex4(struct js *j)
{
	unsigned v = 0, k;
	char c;

	FUZZ_CHECK(j->end - j->p >= 4);
	for (k = 0; k < 4; k++) {
		c = *j->p++;
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			FUZZ_CHECK(!"bad \\u escape");
	}
	return v;
}

static void
put_cp(struct js *j, uint32_t c)
{
	if (c < 0x80) {
		j->str[j->len++] = (uint8_t)c;
	} else if (c < 0x800) {
		j->str[j->len++] = (uint8_t)(0xc0 | c >> 6);
		j->str[j->len++] = (uint8_t)(0x80 | (c & 0x3f));
	} else if (c < 0x10000) {
		j->str[j->len++] = (uint8_t)(0xe0 | c >> 12);
		j->str[j->len++] = (uint8_t)(0x80 | (c >> 6 & 0x3f));
		j->str[j->len++] = (uint8_t)(0x80 | (c & 0x3f));
	} else {
		j->str[j->len++] = (uint8_t)(0xf0 | c >> 18);
		j->str[j->len++] = (uint8_t)(0x80 | (c >> 12 & 0x3f));
		j->str[j->len++] = (uint8_t)(0x80 | (c >> 6 & 0x3f));
		j->str[j->len++] = (uint8_t)(0x80 | (c & 0x3f));
	}
}

static void
jstring(struct js *j)
{
	uint32_t c, lo;
	size_t n;

	j->len = 0;
	FUZZ_CHECK(j->p < j->end && *j->p == '"');
	j->p++;
	for (;;) {
		FUZZ_CHECK(j->p < j->end);
		c = (uint8_t)*j->p;
		if (c == '"') {
			j->p++;
			return;
		}
		FUZZ_CHECK(c >= 0x20);
		if (c >= 0x80) {
			n = utf8_ok((const uint8_t *)j->p,
			    (size_t)(j->end - j->p));
			FUZZ_CHECK(n > 0);
			memcpy(j->str + j->len, j->p, n);
			j->len += n;
			j->p += n;
			continue;
		}
		j->p++;
		if (c != '\\') {
			j->str[j->len++] = (uint8_t)c;
			continue;
		}
		FUZZ_CHECK(j->p < j->end);
		switch (*j->p++) {
		case '"': put_cp(j, '"'); break;
		case '\\': put_cp(j, '\\'); break;
		case '/': put_cp(j, '/'); break;
		case 'b': put_cp(j, '\b'); break;
		case 'f': put_cp(j, '\f'); break;
		case 'n': put_cp(j, '\n'); break;
		case 'r': put_cp(j, '\r'); break;
		case 't': put_cp(j, '\t'); break;
		case 'u':
			c = hex4(j);
			if (c >= 0xd800 && c <= 0xdbff) {
				FUZZ_CHECK(j->end - j->p >= 6 &&
				    j->p[0] == '\\' && j->p[1] == 'u');
				j->p += 2;
				lo = hex4(j);
				FUZZ_CHECK(lo >= 0xdc00 && lo <= 0xdfff);
				c = 0x10000 + ((c - 0xd800) << 10) +
				    (lo - 0xdc00);
			} else {
				FUZZ_CHECK(c < 0xdc00 || c > 0xdfff);
			}
			put_cp(j, c);
			break;
		default:
			FUZZ_CHECK(!"bad JSON escape");
		}
	}
}

/* A JSON number per RFC 8259; returns its text length. */
static size_t
jnumber(struct js *j)
{
	const char *s = j->p;

	if (j->p < j->end && *j->p == '-')
		j->p++;
	FUZZ_CHECK(j->p < j->end && *j->p >= '0' && *j->p <= '9');
	if (*j->p == '0')
		j->p++;
	else
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
	if (j->p < j->end && *j->p == '.') {
		j->p++;
		FUZZ_CHECK(j->p < j->end && *j->p >= '0' && *j->p <= '9');
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
	}
	if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
		j->p++;
		if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
			j->p++;
		FUZZ_CHECK(j->p < j->end && *j->p >= '0' && *j->p <= '9');
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
	}
	return (size_t)(j->p - s);
}

static void
check_json_line(const char *line, size_t len, const struct exp *row,
    const struct ds_col *cols, size_t ncols)
{
	struct js j = { line, line + len, malloc(len * 4 + 8), 0 };
	uint8_t *want = malloc(len * 3 + 8);
	const char *num;
	size_t i, n, wl;

	ws(&j);
	FUZZ_CHECK(j.p < j.end && *j.p++ == '{');
	for (i = 0; i < ncols; i++) {
		ws(&j);
		if (i > 0) {
			FUZZ_CHECK(j.p < j.end && *j.p++ == ',');
			ws(&j);
		}
		jstring(&j);
		FUZZ_CHECK(j.len == strlen(cols[i].name) &&
		    memcmp(j.str, cols[i].name, j.len) == 0);
		ws(&j);
		FUZZ_CHECK(j.p < j.end && *j.p++ == ':');
		ws(&j);
		FUZZ_CHECK(j.p < j.end);
		if (row[i].kind == 0) {
			FUZZ_CHECK(j.end - j.p >= 4 &&
			    memcmp(j.p, "null", 4) == 0);
			j.p += 4;
		} else if (row[i].kind - 1 == DS_T_STR) {
			jstring(&j);
			FUZZ_CHECK(row[i].len * 3 + 8 <= len * 3 + 8);
			wl = mend(row[i].s, row[i].len, want);
			FUZZ_CHECK(j.len == wl && (wl == 0 ||
			    memcmp(j.str, want, wl) == 0));
		} else {
			num = j.p;
			n = jnumber(&j);
			FUZZ_CHECK(n == num_text(&row[i], numbuf,
			    sizeof(numbuf)) && memcmp(num, numbuf, n) == 0);
		}
	}
	ws(&j);
	FUZZ_CHECK(j.p < j.end && *j.p++ == '}');
	ws(&j);
	FUZZ_CHECK(j.p == j.end);
	free(j.str);
	free(want);
}

/* ---- Prometheus ----------------------------------------------------------- */

static const char *
prom_name(const char *p, const char *end)
{
	FUZZ_CHECK(p < end && ((*p >= 'a' && *p <= 'z') ||
	    (*p >= 'A' && *p <= 'Z') || *p == '_' || *p == ':'));
	while (p < end && ((*p >= 'a' && *p <= 'z') ||
	    (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
	    *p == '_' || *p == ':'))
		p++;
	return p;
}

static void
check_prom(const char *text, size_t len, const struct exp *rows,
    size_t nrows, const struct ds_col *cols, size_t ncols)
{
	const char *p = text, *end = text + len, *nl, *q, *name;
	char metric[64], want[80];
	uint8_t *lv = malloc(len + 1), *mended = malloc(len * 3 + 8);
	size_t col = ncols, r = 0, i, k, lvl, ml;
	double d;
	char *dend;

	FUZZ_CHECK(len == 0 || text[len - 1] == '\n');
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		FUZZ_CHECK(nl != NULL);
		if (end - p > 7 && memcmp(p, "# HELP ", 7) == 0) {
			/* A new family: the next column that has samples. */
			for (col = col == ncols ? 0 : col + 1; col < ncols;
			    col++) {
				if (cols[col].prom != DS_P_GAUGE &&
				    cols[col].prom != DS_P_COUNTER)
					continue;
				for (k = 0; k < nrows; k++)
					if (rows[k * ncols + col].kind != 0)
						break;
				if (k < nrows)
					break;
			}
			FUZZ_CHECK(col < ncols);
			snprintf(metric, sizeof(metric), "t_%s",
			    cols[col].metric);
			snprintf(want, sizeof(want), "# HELP %s ", metric);
			FUZZ_CHECK(memcmp(p, want, strlen(want)) == 0);
			p = nl + 1;
			nl = memchr(p, '\n', (size_t)(end - p));
			FUZZ_CHECK(nl != NULL);
			snprintf(want, sizeof(want), "# TYPE %s %s\n", metric,
			    cols[col].prom == DS_P_COUNTER ? "counter" :
			    "gauge");
			FUZZ_CHECK((size_t)(nl + 1 - p) == strlen(want) &&
			    memcmp(p, want, strlen(want)) == 0);
			p = nl + 1;
			r = 0;
			continue;
		}
		/* A sample of column col, for the next row that has one. */
		FUZZ_CHECK(col < ncols);
		while (r < nrows && rows[r * ncols + col].kind == 0)
			r++;
		FUZZ_CHECK(r < nrows);
		name = p;
		q = prom_name(p, nl);
		FUZZ_CHECK((size_t)(q - name) == strlen(metric) &&
		    memcmp(name, metric, strlen(metric)) == 0);
		k = 0;
		for (i = 0; i < ncols; i++) {
			const struct exp *e = &rows[r * ncols + i];

			if (cols[i].prom != DS_P_LABEL)
				continue;
			FUZZ_CHECK(q < nl && *q++ == (k++ == 0 ? '{' : ','));
			p = q;
			q = prom_name(q, nl);
			FUZZ_CHECK((size_t)(q - p) == strlen(cols[i].metric) &&
			    memcmp(p, cols[i].metric, (size_t)(q - p)) == 0);
			FUZZ_CHECK(q + 1 < nl && q[0] == '=' && q[1] == '"');
			q += 2;
			lvl = 0;
			for (;;) {
				FUZZ_CHECK(q < nl);
				if (*q == '"')
					break;
				if (*q == '\\') {
					FUZZ_CHECK(q + 1 < nl);
					q++;
					FUZZ_CHECK(*q == '\\' || *q == '"' ||
					    *q == 'n');
					lv[lvl++] = *q == 'n' ? '\n' :
					    (uint8_t)*q;
				} else {
					lv[lvl++] = (uint8_t)*q;
				}
				q++;
			}
			q++;
			/* Label values are UTF-8. */
			for (ml = 0; ml < lvl; ml += utf8_ok(lv + ml,
			    lvl - ml))
				FUZZ_CHECK(utf8_ok(lv + ml, lvl - ml) > 0);
			if (e->kind == 0) {
				FUZZ_CHECK(lvl == 0);
			} else if (e->kind - 1 == DS_T_STR) {
				ml = mend(e->s, e->len, mended);
				FUZZ_CHECK(ml == lvl && (ml == 0 ||
				    memcmp(mended, lv, ml) == 0));
			} else {
				ml = num_text(e, numbuf, sizeof(numbuf));
				FUZZ_CHECK(ml == lvl &&
				    memcmp(numbuf, lv, ml) == 0);
			}
		}
		if (k > 0)
			FUZZ_CHECK(q < nl && *q++ == '}');
		FUZZ_CHECK(q < nl && *q++ == ' ');
		FUZZ_CHECK(q < nl);
		memcpy(want, q, (size_t)(nl - q) < sizeof(want) - 1 ?
		    (size_t)(nl - q) : sizeof(want) - 1);
		want[(size_t)(nl - q) < sizeof(want) - 1 ? (size_t)(nl - q) :
		    sizeof(want) - 1] = '\0';
		FUZZ_CHECK((size_t)(nl - q) < sizeof(want) - 1);
		d = strtod(want, &dend);
		FUZZ_CHECK(*dend == '\0' && dend != want);
		(void)d;
		r++;
		p = nl + 1;
	}
	free(lv);
	free(mended);
}

/* ---- table ---------------------------------------------------------------- */

static void
check_table(const char *text, size_t len, size_t nrows, int header,
    int first)
{
	const uint8_t *u = (const uint8_t *)text;
	size_t i = 0, n, lines = 0;

	while (i < len) {
		n = utf8_ok(u + i, len - i);
		FUZZ_CHECK(n > 0);
		if (u[i] == '\n')
			lines++;
		else
			FUZZ_CHECK(u[i] >= 0x20 && u[i] != 0x7f);
		/* C1 controls: U+0080 to U+009F. */
		FUZZ_CHECK(!(n == 2 && u[i] == 0xc2 && u[i + 1] < 0xa0));
		i += n;
	}
	n = nrows + (header ? 1 : 0);
	/* Reports after the first are set apart by one empty line. */
	if (!first && n > 0)
		n++;
	FUZZ_CHECK(lines == n);
}

/* ---- driver ---------------------------------------------------------------- */

static const char *const cname[MAXCOLS] = { "c0", "c1", "c2", "c3", "c4",
    "c5" };
static const char *const lname[MAXCOLS] = { "l0", "l1", "l2", "l3", "l4",
    "l5" };
static const char *const gname[MAXCOLS] = { "m0", "m1", "m2", "m3", "m4",
    "m5" };
static const char *const kname[MAXCOLS] = { "m0_total", "m1_total",
    "m2_total", "m3_total", "m4_total", "m5_total" };
static const double scales[4] = { 0, 1024, 0.01, 512 };

/* The cell the writer must store for kind k given to column c. */
static struct exp
coerce(struct exp e, const struct ds_col *c)
{
	int k = e.kind - 1;

	if (e.kind == 0 || (enum ds_type)k == c->type)
		;
	else if (c->type == DS_T_F2 && k == DS_T_TIME)
		;
	else if (c->type == DS_T_TIME && k == DS_T_F2)
		;
	else if (k == DS_T_U64 && c->type == DS_T_F2)
		e.d = (double)e.u, e.kind = DS_T_F2 + 1;
	else if (k == DS_T_U64 && c->type == DS_T_I64 && e.u <= INT64_MAX)
		e.i = (int64_t)e.u, e.kind = DS_T_I64 + 1;
	else
		e.kind = 0;
	if (e.kind - 1 == DS_T_F2 && !isfinite(e.d))
		e.kind = 0;
	return e;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct in in = { data, size };
	struct ds_col cols[MAXCOLS];
	struct exp *rows, *all, e;
	struct ds_writer w;
	enum ds_fmt fmt;
	size_t ncols, nrows = 0, nall = 0, col = 0, i, start = 0, rstart = 0;
	size_t len, lines;
	char *buf = NULL, *p, *nl;
	int header, op, first = 1;
	FILE *f;

	fmt = (enum ds_fmt)(byte(&in) % 4);
	i = byte(&in);
	ncols = 1 + i % MAXCOLS;
	header = (i >> 4) & 1;
	memset(cols, 0, sizeof(cols));
	for (i = 0; i < ncols; i++) {
		unsigned b = byte(&in), c = byte(&in);

		cols[i].name = cname[i];
		cols[i].type = (enum ds_type)(b % 5);
		cols[i].prom = (enum ds_prom)(b / 5 % 4);
		/* Text is a label or nothing in Prometheus, never a value. */
		if (cols[i].type == DS_T_STR && cols[i].prom != DS_P_NONE)
			cols[i].prom = DS_P_LABEL;
		cols[i].metric = cols[i].prom == DS_P_LABEL ? lname[i] :
		    cols[i].prom == DS_P_COUNTER ? kname[i] : gname[i];
		cols[i].help = (c & 1) ? "help with \\ and\nnewline" : "h";
		cols[i].div10 = (c >> 1) % 21;
		cols[i].scale = scales[(c >> 6) % 4];
	}
	rows = calloc(MAXROWS * MAXCOLS, sizeof(*rows));
	all = calloc(MAXROWS * MAXCOLS * 8, sizeof(*all));
	f = open_memstream(&buf, &len);
	FUZZ_CHECK(rows != NULL && all != NULL && f != NULL);
	ds_writer_init(&w, f, fmt, cols, ncols, header, "t");

	while (in.n > 0 && nall < MAXROWS * 8) {
		op = (int)(byte(&in) % 9);
		memset(&e, 0, sizeof(e));
		switch (op) {
		case 0:
			ds_w_null(&w);
			break;
		case 1:
			e.kind = DS_T_STR + 1;
			e.len = byte(&in);
			if (e.len > in.n)
				e.len = in.n;
			e.s = in.p;
			in.p += e.len;
			in.n -= e.len;
			ds_w_strn(&w, (const char *)e.s, e.len);
			break;
		case 2:
			e.kind = DS_T_U64 + 1;
			take(&in, &e.u, 8);
			ds_w_u64(&w, e.u);
			break;
		case 3:
			e.kind = DS_T_I64 + 1;
			take(&in, &e.i, 8);
			ds_w_i64(&w, e.i);
			break;
		case 4:
			e.kind = DS_T_F2 + 1;
			take(&in, &e.d, 8);
			ds_w_f(&w, e.d);
			break;
		case 5:
			e.kind = DS_T_TIME + 1;
			take(&in, &e.u, 8);
			ds_w_time(&w, e.u);
			break;
		case 6:
		case 7:
			ds_w_row_end(&w);
			for (; col < ncols; col++)
				rows[nrows * ncols + col].kind = 0;
			memcpy(all + nall * ncols, rows + nrows * ncols,
			    ncols * sizeof(*rows));
			nall++;
			col = 0;
			if (++nrows == MAXROWS)
				goto report;
			continue;
		case 8:
		report:
			if (col != 0) {
				for (; col < ncols; col++)
					rows[nrows * ncols + col].kind = 0;
				memcpy(all + nall * ncols,
				    rows + nrows * ncols,
				    ncols * sizeof(*rows));
				nall++;
				nrows++;
				col = 0;
			}
			ds_w_report_end(&w);
			FUZZ_CHECK(fflush(f) == 0);
			if (fmt == DS_FMT_PROM)
				check_prom(buf + start, len - start, rows,
				    nrows, cols, ncols);
			else if (fmt == DS_FMT_TABLE)
				check_table(buf + start, len - start, nrows,
				    header, first);
			first = 0;
			start = len;
			rstart = nall;
			nrows = 0;
			continue;
		}
		/* A cell: kept by the writer only while the row has room. */
		if (col < ncols) {
			rows[nrows * ncols + col] = coerce(e, &cols[col]);
			col++;
		}
	}
	if (col != 0 || nrows > 0 || first)
		goto report_last;
	goto done;
report_last:
	if (col != 0) {
		for (; col < ncols; col++)
			rows[nrows * ncols + col].kind = 0;
		memcpy(all + nall * ncols, rows + nrows * ncols,
		    ncols * sizeof(*rows));
		nall++;
		nrows++;
	}
	ds_w_report_end(&w);
	FUZZ_CHECK(fflush(f) == 0);
	if (fmt == DS_FMT_PROM)
		check_prom(buf + start, len - start, rows, nrows, cols, ncols);
	else if (fmt == DS_FMT_TABLE)
		check_table(buf + start, len - start, nrows, header, first);
	rstart = nall;
done:
	(void)rstart;
	FUZZ_CHECK(fflush(f) == 0);
	/* TSV and JSON: the whole stream, row by row. */
	if (fmt == DS_FMT_TSV || fmt == DS_FMT_JSON) {
		lines = 0;
		p = buf;
		if (fmt == DS_FMT_TSV && header) {
			nl = memchr(p, '\n', len);
			FUZZ_CHECK(nl != NULL);
			for (i = 0; i < ncols; i++) {
				size_t l = strlen(cols[i].name);
				FUZZ_CHECK(memcmp(p, cols[i].name, l) == 0);
				p += l;
				FUZZ_CHECK(*p++ == (i + 1 < ncols ? '\t' :
				    '\n'));
			}
		}
		while (p < buf + len) {
			nl = memchr(p, '\n', (size_t)(buf + len - p));
			FUZZ_CHECK(nl != NULL);
			FUZZ_CHECK(lines < nall);
			if (fmt == DS_FMT_JSON) {
				check_json_line(p, (size_t)(nl - p),
				    all + lines * ncols, cols, ncols);
			} else {
				char *fs = p, *t;
				for (i = 0; i < ncols; i++) {
					t = memchr(fs, '\t', (size_t)(nl - fs));
					if (i + 1 < ncols) {
						FUZZ_CHECK(t != NULL);
					} else {
						FUZZ_CHECK(t == NULL);
						t = nl;
					}
					check_tsv_field(fs, (size_t)(t - fs),
					    &all[lines * ncols + i]);
					fs = t + 1;
				}
			}
			lines++;
			p = nl + 1;
		}
		FUZZ_CHECK(lines == nall);
	}
	ds_writer_free(&w);
	fclose(f);
	free(buf);
	free(rows);
	free(all);
	return 0;
}
