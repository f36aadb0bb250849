/*
 * The row writer: one API for TSV, JSON Lines, aligned tables and
 * Prometheus text exposition.
 */
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

/*
 * Room for any number: "%.2f" of a double near DBL_MAX is 309 digits,
 * a sign, a point and two decimals.
 */
#define NUMBUF 352

int
ds_writer_init(struct ds_writer *w, FILE *out, enum ds_fmt fmt,
    const struct ds_col *cols, size_t ncols, int header, const char *prefix)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
	w->stream = out;
	w->fmt = fmt;
	w->cols = cols;
	w->ncols = ncols;
	w->header = header;
	w->prefix = prefix;
	w->day0 = -1;
	return ds_writer_select(w, NULL, NULL, NULL);
}

void
ds_writer_free(struct ds_writer *w)
{
	free(w->cells);
	w->cells = NULL;
	free(w->view);
	w->view = NULL;
	free(w->width);
	w->width = NULL;
	ds_buf_free(&w->text);
	ds_buf_free(&w->line);
	ds_writer_abort(w);
	free(w->file);
	w->file = NULL;
}

/* The API's writer: the same, on the heap, for a caller without the layout. */
struct ds_writer *
ds_writer_new(FILE *out, enum ds_fmt fmt, const struct ds_col *cols,
    size_t ncols, int header, const char *prefix)
{
	struct ds_writer *w;
	int e;

	if ((w = malloc(sizeof(*w))) == NULL)
		return NULL;
	if ((e = ds_writer_init(w, out, fmt, cols, ncols, header, prefix)) < 0) {
		ds_writer_free(w);
		free(w);
		errno = -e;
		return NULL;
	}
	return w;
}

void
ds_writer_delete(struct ds_writer *w)
{
	if (w == NULL)
		return;
	ds_writer_free(w);
	free(w);
}

static void
fail(struct ds_writer *w, int e)
{
	if (w->error == 0)
		w->error = e;
}

/* Cells kept until the report ends (table, prom) or the row ends (-O). */
static int
held(const struct ds_writer *w)
{
	return w->fmt == DS_FMT_TABLE || w->fmt == DS_FMT_PROM || w->viewed;
}

static int
is_default(const struct ds_writer *w, size_t i)
{
	return w->fmt != DS_FMT_TABLE || !(w->cols[i].flags & DS_C_WIDE);
}

static int
in_view(const size_t *view, size_t n, size_t i)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (view[k] == i)
			return 1;
	return 0;
}

static int
find_col(const struct ds_writer *w, const char *s, size_t len, size_t *i)
{
	for (*i = 0; *i < w->ncols; (*i)++)
		if (strlen(w->cols[*i].name) == len &&
		    memcmp(w->cols[*i].name, s, len) == 0)
			return 0;
	return -EINVAL;
}

int
ds_writer_select(struct ds_writer *w, const char *spec, const char **bad,
    size_t *badlen)
{
	size_t *view, n = 0, i, len;
	int add = 0;

	if ((view = calloc(w->ncols + 1, sizeof(*view))) == NULL)
		return -ENOMEM;
	if (spec == NULL || *spec == '\0' || *spec == '+') {
		for (i = 0; i < w->ncols; i++)
			if (is_default(w, i))
				view[n++] = i;
		add = spec != NULL && *spec == '+';
		spec = spec == NULL || *spec == '\0' ? NULL : spec + add;
	}
	while (spec != NULL) {
		len = strcspn(spec, ",");
		if (find_col(w, spec, len, &i) < 0 ||
		    (in_view(view, n, i) && !add)) {
			free(view);
			if (bad != NULL)
				*bad = spec;
			if (badlen != NULL)
				*badlen = len;
			return -EINVAL;
		}
		/* "+COL" naming a column already shown is no error. */
		if (!in_view(view, n, i))
			view[n++] = i;
		spec = spec[len] == ',' ? spec + len + 1 : NULL;
	}
	/* A series is known by its labels: prom keeps every one. */
	for (i = 0; w->fmt == DS_FMT_PROM && i < w->ncols; i++)
		if (w->cols[i].prom == DS_P_LABEL && !in_view(view, n, i))
			view[n++] = i;
	free(w->view);
	w->view = view;
	w->nview = n;
	w->viewed = n != w->ncols;
	for (i = 0; i < n; i++)
		if (view[i] != i)
			w->viewed = 1;
	return 0;
}

void
ds_writer_opts(struct ds_writer *w, unsigned int opts)
{
	w->opts = opts;
}

double
ds_human_scale(double v, const char **unit)
{
	static const char *const u[] = { "B", "KiB", "MiB", "GiB", "TiB",
	    "PiB" };
	int i = 0;

	while (v >= 1024 && i < 5) {
		v /= 1024;
		i++;
	}
	*unit = u[i];
	return v;
}

size_t
ds_fmt_human(char *buf, size_t sz, double v)
{
	static const char unit[] = "KMGTPE";
	double a = v < 0 ? -v : v;
	int u = -1, n;

	/* Powers of 1024 as df -h; one decimal, ".0" left out. */
	while (a >= 1024 && u < 5) {
		a /= 1024;
		u++;
	}
	if (u >= 0 && a >= 1023.95 && u < 5) {
		a /= 1024;
		u++;
	}
	if (u < 0)
		n = snprintf(buf, sz, "%s%.0f", v < 0 ? "-" : "", a);
	else if (a - (double)(uint64_t)(a + 0.05) > -0.05 &&
	    a - (double)(uint64_t)(a + 0.05) < 0.05)
		n = snprintf(buf, sz, "%s%.0f%c", v < 0 ? "-" : "", a,
		    unit[u]);
	else
		n = snprintf(buf, sz, "%s%.1f%c", v < 0 ? "-" : "", a,
		    unit[u]);
	return n < 0 ? 0 : (size_t)n < sz ? (size_t)n : sz - 1;
}

static long
day_of(time_t t, int utc)
{
	struct tm tm;

	if ((utc ? gmtime_r(&t, &tm) : localtime_r(&t, &tm)) == NULL)
		return -1;
	return (long)tm.tm_year * 1000 + tm.tm_yday;
}

/* Unix ns as local (utc: UTC) "HH:MM:SS", with date "YYYY-MM-DD HH:MM:SS". */
static size_t
ds_fmt_clock(char *buf, size_t sz, uint64_t unix_ns, int utc, int date)
{
	time_t t = (time_t)(unix_ns / 1000000000u);
	struct tm tm;
	size_t n;

	if ((utc ? gmtime_r(&t, &tm) : localtime_r(&t, &tm)) == NULL)
		return 0;
	n = strftime(buf, sz, date ? "%Y-%m-%d %H:%M:%S" : "%H:%M:%S", &tm);
	return n;
}

/* Append text to a buffer, remembering failure in the writer. */
static void
bput(struct ds_writer *w, struct ds_buf *b, const char *s, size_t n)
{
	int e;

	/* Room for n and the NUL is the common case: no call for it. */
	if (n >= b->cap - b->len && (e = ds_buf_reserve(b, n)) < 0) {
		fail(w, e);
		return;
	}
	/* memcpy(3) of nothing from NULL is still undefined. */
	if (n > 0)
		memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

static void
bputs(struct ds_writer *w, struct ds_buf *b, const char *s)
{
	bput(w, b, s, strlen(s));
}

/*
 * "%.2f" without printf, digit for digit the same, for the values a
 * report is made of (|v| below 1e15); -1 otherwise, or when the buffer
 * is too small.  printf rounds the exact binary value of v to nearest,
 * ties to even; v * 100 needs at most 53 + 5 significant bits (100 is
 * 25 * 4), so in a long double of 64 or more bits it is exact, and so
 * is its fraction, and the rounding can be done here exactly.  Where
 * long double is only a double, printf is used.  printf("%.2f") costs
 * about twenty times as much and was most of dxstat's CPU time.
 */
static int
fmt_f2(char *buf, size_t sz, double v)
{
#if LDBL_MANT_DIG >= 60
	char tmp[24], *p = tmp + sizeof(tmp);
	int neg = signbit(v) != 0;	/* printf writes -0.00 too */
	long double x;
	uint64_t r;
	size_t n;

	if (neg)
		v = -v;
	if (!(v < 1e15))
		return -1;
	x = (long double)v * 100;
	r = (uint64_t)x;
	x -= (long double)r;
	if (x > 0.5L || (x == 0.5L && (r & 1)))
		r++;
	*--p = (char)('0' + r % 10);
	r /= 10;
	*--p = (char)('0' + r % 10);
	r /= 10;
	*--p = '.';
	do {
		*--p = (char)('0' + r % 10);
		r /= 10;
	} while (r != 0);
	if (neg)
		*--p = '-';
	n = (size_t)(tmp + sizeof(tmp) - p);
	if (n >= sz)
		return -1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return (int)n;
#else
	(void)buf;
	(void)sz;
	(void)v;
	return -1;
#endif
}

/* The decimal digits of v, written backwards to end; their start. */
static char *
dec_back(char *end, uint64_t v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	return end;
}

/*
 * Integers and times without printf, the same text: snprintf costs over
 * ten times as much, and dwho -a writes three of them on each of
 * thousands of rows (a fifth of its user time).  Cut to sz - 1 bytes,
 * as snprintf cuts; the length it would have written.
 */
static int
fmt_int(char *buf, size_t sz, const struct ds_cell *c)
{
	char tmp[48], *end = tmp + sizeof(tmp), *p;
	uint64_t u;
	size_t n;

	switch (c->type) {
	case DS_T_U64:
		p = dec_back(end, c->v.u);
		break;
	case DS_T_I64:
		/* The magnitude in unsigned arithmetic: INT64_MIN too. */
		u = c->v.i < 0 ? 0 - (uint64_t)c->v.i : (uint64_t)c->v.i;
		p = dec_back(end, u);
		if (c->v.i < 0)
			*--p = '-';
		break;
	default:	/* DS_T_TIME: seconds, then milliseconds "%03" */
		u = c->v.u % 1000000000u / 1000000u;
		p = dec_back(end, u);
		while (end - p < 3)
			*--p = '0';
		*--p = '.';
		p = dec_back(p, c->v.u / 1000000000u);
	}
	n = (size_t)(end - p);
	if (sz == 0)
		return (int)n;
	memcpy(buf, p, n < sz ? n : sz - 1);
	buf[n < sz ? n : sz - 1] = '\0';
	return (int)n;
}

/* Format a number cell as text (tsv, json, table). */
static size_t
fmt_num(char *buf, size_t sz, const struct ds_cell *c)
{
	int n;

	switch (c->type) {
	case DS_T_U64:
	case DS_T_I64:
	case DS_T_TIME:
		n = fmt_int(buf, sz, c);
		break;
	case DS_T_F2:
		if ((n = fmt_f2(buf, sz, c->v.d)) < 0)
			n = snprintf(buf, sz, "%.2f", c->v.d);
		break;
	case DS_T_F3:
		n = snprintf(buf, sz, "%.3f", c->v.d);
		break;
	case DS_T_G:
		/* Ten digits: bytes exact to 10 GB, seconds to the ns. */
		n = snprintf(buf, sz, "%.10g", c->v.d);
		break;
	default:
		n = 0;
	}
	/* snprintf says what it would have written; never past buf. */
	return n < 0 ? 0 : (size_t)n < sz ? (size_t)n : sz - 1;
}

/* Put one cell as text into b in the writer's format. */
static void
cell_text(struct ds_writer *w, struct ds_buf *b, const struct ds_cell *c,
    const char *str)
{
	char num[NUMBUF];
	size_t n;
	int e = 0;

	if (c->type == DS_T_NULL) {
		if (w->fmt == DS_FMT_JSON)
			bput(w, b, "null", 4);
		else
			bput(w, b, "-", 1);
		return;
	}
	if (c->type == DS_T_STR) {
		switch (w->fmt) {
		case DS_FMT_JSON:
			e = ds_esc_json(b, str, c->v.s.len);
			break;
		case DS_FMT_TABLE:
			e = ds_esc_table(b, str, c->v.s.len);
			break;
		default:
			e = ds_esc_tsv(b, str, c->v.s.len);
		}
		if (e < 0)
			fail(w, e);
		return;
	}
	n = fmt_num(num, sizeof(num), c);
	bput(w, b, num, n);
}

static void
emit(struct ds_writer *w, const char *s, size_t n)
{
	errno = 0;
	if (n > 0 && fwrite(s, 1, n, w->out) != n)
		fail(w, errno ? -errno : -EIO);
}

static void
tsv_header(struct ds_writer *w)
{
	size_t i;

	if (w->header_done || !w->header || w->fmt != DS_FMT_TSV)
		return;
	w->header_done = 1;
	w->line.len = 0;
	for (i = 0; i < w->nview; i++) {
		if (i > 0)
			bput(w, &w->line, "\t", 1);
		bputs(w, &w->line, w->cols[w->view[i]].name);
	}
	bput(w, &w->line, "\n", 1);
	emit(w, w->line.data, w->line.len);
}

/* Add a cell to the current row. */
static void
add(struct ds_writer *w, struct ds_cell c, const char *str)
{
	const struct ds_col *col;

	if (w->col >= w->ncols) {
		fail(w, -EINVAL);
		return;
	}
	col = &w->cols[w->col];
	/* A double given to a column of any precision takes the column's. */
	if (c.type == DS_T_F2 && col->type == DS_T_G)
		c.type = DS_T_G;
	if (col->type == DS_T_F3 && c.type == DS_T_F2)
		c.type = DS_T_F3;
	if (c.type != DS_T_NULL && c.type != col->type &&
	    !(col->type == DS_T_F2 && c.type == DS_T_TIME) &&
	    !(col->type == DS_T_TIME && c.type == DS_T_F2)) {
		/* A number given to a column of another numeric type. */
		if (c.type == DS_T_U64 && col->type == DS_T_F2) {
			c.v.d = (double)c.v.u;
			c.type = DS_T_F2;
		} else if (c.type == DS_T_U64 && col->type == DS_T_I64 &&
		    c.v.u <= INT64_MAX) {
			c.type = DS_T_I64;
		} else {
			fail(w, -EINVAL);
			c.type = DS_T_NULL;
		}
	}
	if ((c.type == DS_T_F2 || c.type == DS_T_G ||
	    c.type == DS_T_F3) && !isfinite(c.v.d))
		c.type = DS_T_NULL;
	w->col++;
	if (held(w)) {
		if (ds_grow(&w->cells, &w->capcells, w->ncells + 1,
		    sizeof(*w->cells)) < 0) {
			fail(w, -ENOMEM);
			return;
		}
		if (c.type == DS_T_STR) {
			c.v.s.off = w->text.len;
			bput(w, &w->text, str, c.v.s.len);
		}
		w->cells[w->ncells++] = c;
		return;
	}
	if (w->col == 1) {
		tsv_header(w);
		w->line.len = 0;
		if (w->fmt == DS_FMT_JSON)
			bput(w, &w->line, "{", 1);
	} else {
		bput(w, &w->line, w->fmt == DS_FMT_JSON ? "," : "\t", 1);
	}
	if (w->fmt == DS_FMT_JSON) {
		if (ds_esc_json(&w->line, col->name, strlen(col->name)) < 0)
			fail(w, -ENOMEM);
		bput(w, &w->line, ":", 1);
	}
	cell_text(w, &w->line, &c, str);
}

void
ds_w_strn(struct ds_writer *w, const char *s, size_t len)
{
	struct ds_cell c = { .type = DS_T_STR };

	if (s == NULL) {
		ds_w_null(w);
		return;
	}
	c.v.s.len = len;
	add(w, c, s);
}

void
ds_w_str(struct ds_writer *w, const char *s)
{
	ds_w_strn(w, s, s != NULL ? strlen(s) : 0);
}

void
ds_w_u64(struct ds_writer *w, uint64_t v)
{
	struct ds_cell c = { .type = DS_T_U64 };

	c.v.u = v;
	add(w, c, NULL);
}

void
ds_w_i64(struct ds_writer *w, int64_t v)
{
	struct ds_cell c = { .type = DS_T_I64 };

	c.v.i = v;
	add(w, c, NULL);
}

void
ds_w_f(struct ds_writer *w, double v)
{
	struct ds_cell c = { .type = DS_T_F2 };

	c.v.d = v;
	add(w, c, NULL);
}

void
ds_w_time(struct ds_writer *w, uint64_t unix_ns)
{
	struct ds_cell c = { .type = DS_T_TIME };

	c.v.u = unix_ns;
	add(w, c, NULL);
}

void
ds_w_null(struct ds_writer *w)
{
	struct ds_cell c = { .type = DS_T_NULL };

	add(w, c, NULL);
}

/* TSV or JSON of the row just held, in the order of the view. */
static void
view_row(struct ds_writer *w)
{
	const struct ds_cell *row = w->cells + w->ncells - w->ncols;
	size_t k;

	tsv_header(w);
	w->line.len = 0;
	for (k = 0; k < w->nview; k++) {
		const struct ds_cell *c = &row[w->view[k]];

		if (k > 0 || w->fmt == DS_FMT_JSON)
			bputs(w, &w->line, w->fmt != DS_FMT_JSON ? "\t" :
			    k > 0 ? "," : "{");
		if (w->fmt == DS_FMT_JSON) {
			const char *name = w->cols[w->view[k]].name;
			if (ds_esc_json(&w->line, name, strlen(name)) < 0)
				fail(w, -ENOMEM);
			bput(w, &w->line, ":", 1);
		}
		cell_text(w, &w->line, c, c->type == DS_T_STR ?
		    w->text.data + c->v.s.off : NULL);
	}
	if (w->fmt == DS_FMT_JSON && w->nview == 0)
		bputs(w, &w->line, "{");
	w->ncells = 0;
	w->text.len = 0;
}

int
ds_w_row_end(struct ds_writer *w)
{
	if (w->col != w->ncols) {
		/* A row with too few cells is a bug in the caller. */
		while (w->col < w->ncols)
			ds_w_null(w);
		fail(w, -EINVAL);
	}
	w->col = 0;
	if (w->viewed && w->fmt != DS_FMT_TABLE && w->fmt != DS_FMT_PROM &&
	    w->ncells >= w->ncols)
		view_row(w);
	if (!held(w) || (w->viewed && w->fmt != DS_FMT_TABLE &&
	    w->fmt != DS_FMT_PROM)) {
		bputs(w, &w->line, w->fmt == DS_FMT_JSON ? "}\n" : "\n");
		emit(w, w->line.data, w->line.len);
		w->line.len = 0;
	}
	return w->error;
}

static int
right_aligned(const struct ds_col *c)
{
	return c->type != DS_T_STR || (c->flags & DS_C_RIGHT);
}

/*
 * Columns a cell takes on a terminal: its characters, not its bytes
 * (a table cell is valid UTF-8 once escaped).
 */
static size_t
display_width(const char *s, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		n += ((unsigned char)s[i] & 0xc0) != 0x80;
	return n;
}

/* The byte length of s's first n characters. */
static size_t
display_prefix(const char *s, size_t len, size_t n)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80 && n-- == 0)
			break;
	return i;
}

/* A cell as a person reads it: local time, human units with -h. */
static void
table_cell(struct ds_writer *w, struct ds_buf *b, const struct ds_col *col,
    const struct ds_cell *c)
{
	char num[NUMBUF];
	size_t n;
	double v;

	if (c->type == DS_T_TIME) {
		n = ds_fmt_clock(num, sizeof(num), c->v.u,
		    (w->opts & DS_W_UTC) != 0, w->dates);
		bput(w, b, num, n);
		return;
	}
	if ((w->opts & DS_W_HUMAN) && (col->flags & (DS_C_KB | DS_C_BYTES)) &&
	    c->type != DS_T_NULL && c->type != DS_T_STR) {
		v = c->type == DS_T_U64 ? (double)c->v.u :
		    c->type == DS_T_I64 ? (double)c->v.i : c->v.d;
		if (col->flags & DS_C_KB)
			v *= 1024;
		n = ds_fmt_human(num, sizeof(num), v);
		bput(w, b, num, n);
		return;
	}
	cell_text(w, b, c, c->type == DS_T_STR ?
	    w->text.data + c->v.s.off : NULL);
}

/*
 * Times carry their date once one of them falls on another day than the
 * writer's first (a run past midnight, snapshots of other days); from
 * then on, so that the column keeps its width.
 */
static void
table_dates(struct ds_writer *w)
{
	int utc = (w->opts & DS_W_UTC) != 0;
	size_t k;

	if (w->day0 == -1)
		w->day0 = day_of(time(NULL), utc);
	for (k = 0; k < w->ncells && !w->dates; k++)
		if (w->cells[k].type == DS_T_TIME &&
		    day_of((time_t)(w->cells[k].v.u / 1000000000u), utc) !=
		    w->day0)
			w->dates = 1;
}

static void
pad(struct ds_writer *w, size_t n)
{
	static const char sp[] = "                                ";

	while (n > 0) {
		size_t k = n < sizeof(sp) - 1 ? n : sizeof(sp) - 1;
		emit(w, sp, k);
		n -= k;
	}
}

/*
 * A DS_C_FILL column takes what the others leave of DS_TABLE_COLS (at
 * least its name), so that a long text is cut rather than the row
 * wrapped on a terminal.
 */
static void
fill_width(struct ds_writer *w)
{
	size_t v, i, total = 0, fill = w->nview, min;

	for (v = 0; v < w->nview; v++) {
		i = w->view[v];
		total += w->width[i] + (v > 0 ? 2 : 0);
		if ((w->cols[i].flags & DS_C_FILL) && fill == w->nview)
			fill = v;
	}
	if (fill == w->nview || total <= DS_TABLE_COLS)
		return;
	i = w->view[fill];
	min = strlen(w->cols[i].name) > 2 ? strlen(w->cols[i].name) : 2;
	w->width[i] = total - w->width[i] < DS_TABLE_COLS - min ?
	    DS_TABLE_COLS - (total - w->width[i]) : min;
}

static void
table_flush(struct ds_writer *w)
{
	size_t nrows = w->ncells / w->ncols, r, i, k, v;
	struct ds_buf *t = &w->line;
	size_t *off;

	/* Widths only grow, so a run's reports line up with each other. */
	if (w->width == NULL &&
	    (w->width = calloc(w->ncols, sizeof(*w->width))) == NULL) {
		fail(w, -ENOMEM);
		return;
	}
	if ((off = calloc(nrows * w->nview + 1, sizeof(*off))) == NULL) {
		fail(w, -ENOMEM);
		return;
	}
	table_dates(w);
	/* Every cell shown rendered once into line, then aligned. */
	t->len = 0;
	for (r = 0; r < nrows; r++)
		for (v = 0; v < w->nview; v++) {
			i = w->view[v];
			off[r * w->nview + v] = t->len;
			table_cell(w, t, &w->cols[i],
			    &w->cells[r * w->ncols + i]);
		}
	off[nrows * w->nview] = t->len;
	for (v = 0; v < w->nview; v++) {
		i = w->view[v];
		if (w->header && strlen(w->cols[i].name) > w->width[i])
			w->width[i] = strlen(w->cols[i].name);
		for (r = 0; r < nrows; r++) {
			k = r * w->nview + v;
			if (display_width(t->data + off[k], off[k + 1] - off[k]) >
			    w->width[i])
				w->width[i] = display_width(t->data + off[k],
				    off[k + 1] - off[k]);
		}
	}
	fill_width(w);
	if (w->reports > 0 && (w->header || nrows > 0))
		emit(w, "\n", 1);
	for (r = w->header ? 0 : 1; r <= nrows; r++) {
		for (v = 0; v < w->nview; v++) {
			const char *s;
			size_t l, p, d;
			int cut;

			i = w->view[v];
			if (r == 0) {
				s = w->cols[i].name;
				l = strlen(s);
			} else {
				k = (r - 1) * w->nview + v;
				s = t->data + off[k];
				l = off[k + 1] - off[k];
			}
			d = display_width(s, l);
			cut = d > w->width[i];
			if (cut) {
				l = display_prefix(s, l, w->width[i] - 1);
				d = w->width[i];
			}
			p = w->width[i] - d;
			if (v > 0)
				emit(w, "  ", 2);
			if (right_aligned(&w->cols[i]))
				pad(w, p);
			emit(w, s, l);
			if (cut)
				emit(w, "\xe2\x80\xa6", 3);	/* U+2026 */
			if (v + 1 < w->nview && !right_aligned(&w->cols[i]))
				pad(w, p);
		}
		emit(w, "\n", 1);
	}
	free(off);
}

/* A Prometheus sample value in base units. */
static size_t
prom_value(char *buf, size_t sz, const struct ds_col *col,
    const struct ds_cell *c)
{
	uint64_t p = 1, ip, fp;
	unsigned i;
	double d;
	int n;

	switch (c->type) {
	case DS_T_U64:
		if (col->div10 == 0 || col->div10 > 19) {
			n = snprintf(buf, sz, "%" PRIu64, c->v.u);
			break;
		}
		/* Exact decimal: 1466698 us is 1.466698 s. */
		for (i = 0; i < col->div10; i++)
			p *= 10;
		ip = c->v.u / p;
		fp = c->v.u % p;
		n = snprintf(buf, sz, "%" PRIu64 ".%0*" PRIu64, ip,
		    (int)col->div10, fp);
		break;
	case DS_T_I64:
		n = snprintf(buf, sz, "%" PRId64, c->v.i);
		break;
	case DS_T_F2:
	case DS_T_G:
	case DS_T_F3:
		d = c->v.d * (col->scale != 0 ? col->scale : 1);
		n = snprintf(buf, sz, "%.15g", d);
		break;
	case DS_T_TIME:
		/* Unix seconds, as the other formats print them. */
		return fmt_num(buf, sz, c);
	default:
		n = 0;
	}
	/* snprintf says what it would have written; never past buf. */
	return n < 0 ? 0 : (size_t)n < sz ? (size_t)n : sz - 1;
}

static void
prom_flush(struct ds_writer *w)
{
	size_t nrows = w->ncells / w->ncols, r, i, j, v, any;
	struct ds_buf *b = &w->line;
	char num[NUMBUF];
	size_t n;

	for (v = 0; v < w->nview; v++) {
		const struct ds_col *col = &w->cols[i = w->view[v]];

		if (col->prom != DS_P_GAUGE && col->prom != DS_P_COUNTER)
			continue;
		for (any = 0, r = 0; r < nrows; r++)
			if (w->cells[r * w->ncols + i].type != DS_T_NULL)
				any = 1;
		if (!any)
			continue;
		b->len = 0;
		bputs(w, b, "# HELP ");
		bputs(w, b, w->prefix);
		bputs(w, b, "_");
		bputs(w, b, col->metric);
		bputs(w, b, " ");
		/* HELP text escapes backslash and newline only. */
		for (j = 0; col->help != NULL && col->help[j] != '\0'; j++) {
			if (col->help[j] == '\\')
				bputs(w, b, "\\\\");
			else if (col->help[j] == '\n')
				bputs(w, b, "\\n");
			else
				bput(w, b, &col->help[j], 1);
		}
		bputs(w, b, "\n# TYPE ");
		bputs(w, b, w->prefix);
		bputs(w, b, "_");
		bputs(w, b, col->metric);
		bputs(w, b, col->prom == DS_P_COUNTER ? " counter\n" :
		    " gauge\n");
		for (r = 0; r < nrows; r++) {
			const struct ds_cell *c = &w->cells[r * w->ncols + i];
			int first = 1;

			if (c->type == DS_T_NULL)
				continue;
			bputs(w, b, w->prefix);
			bputs(w, b, "_");
			bputs(w, b, col->metric);
			for (j = 0; j < w->ncols; j++) {
				const struct ds_cell *l =
				    &w->cells[r * w->ncols + j];
				if (w->cols[j].prom != DS_P_LABEL)
					continue;
				bputs(w, b, first ? "{" : ",");
				first = 0;
				bputs(w, b, w->cols[j].metric);
				bputs(w, b, "=\"");
				if (l->type == DS_T_STR) {
					if (ds_esc_prom(b, w->text.data +
					    l->v.s.off, l->v.s.len) < 0)
						fail(w, -ENOMEM);
				} else if (l->type != DS_T_NULL) {
					n = fmt_num(num, sizeof(num), l);
					bput(w, b, num, n);
				}
				bputs(w, b, "\"");
			}
			if (!first)
				bputs(w, b, "}");
			bputs(w, b, " ");
			n = prom_value(num, sizeof(num), col, c);
			bput(w, b, num, n);
			bputs(w, b, "\n");
		}
		emit(w, b->data, b->len);
	}
}

int
ds_w_report_end(struct ds_writer *w)
{
	if (w->col != 0)
		ds_w_row_end(w);
	if (w->fmt == DS_FMT_TABLE)
		table_flush(w);
	else if (w->fmt == DS_FMT_PROM)
		prom_flush(w);
	else
		tsv_header(w);
	w->ncells = 0;
	w->text.len = 0;
	w->reports++;
	errno = 0;
	if (fflush(w->out) == EOF || ferror(w->out))
		fail(w, errno ? -errno : -EIO);
	return w->error;
}

int
ds_w_report_end_into(struct ds_writer *w2, struct ds_writer *w)
{
	int e;

	w2->out = w->out;
	if ((e = ds_w_report_end(w2)) < 0)
		fail(w, e);
	return e;
}

void
ds_w_raw(struct ds_writer *w, const void *p, size_t len)
{
	emit(w, p, len);
}

int
ds_writer_error(const struct ds_writer *w)
{
	return w->error;
}

/* Back on the stream, nothing kept from the report that went to a file. */
static void
to_stream(struct ds_writer *w)
{
	w->out = w->stream;
	w->error = 0;
	w->header_done = w->stream_header_done;
	w->reports = w->stream_reports;
}

int
ds_writer_to_file(struct ds_writer *w, const char *path)
{
	int e;

	ds_writer_abort(w);
	if (w->file == NULL && (w->file = calloc(1, sizeof(*w->file))) == NULL)
		return -ENOMEM;
	if ((e = ds_atomic_open(w->file, path)) < 0)
		return e;
	w->stream_header_done = w->header_done;
	w->stream_reports = w->reports;
	w->out = w->file->fp;
	w->header_done = 0;	/* every file carries its header */
	w->reports = 0;
	return 0;
}

int
ds_writer_commit(struct ds_writer *w)
{
	int e = ds_w_report_end(w);

	if (w->file == NULL || w->file->fp == NULL)
		return e;
	if (e < 0)
		ds_atomic_abort(w->file);
	else
		e = ds_atomic_commit(w->file);
	to_stream(w);
	return e;
}

void
ds_writer_abort(struct ds_writer *w)
{
	if (w->file == NULL || w->file->fp == NULL)
		return;
	ds_atomic_abort(w->file);
	to_stream(w);
}

int
ds_writer_help(const struct ds_writer *w, FILE *fp)
{
	static const char pad[] = "                       ";	/* 23 */
	const struct ds_col *c;
	const char *wide, *help;
	size_t i, n, np;

	/* "NAME<pad to 22> (+) help": fwrite only, the caller's stream. */
	for (i = 0; i < w->ncols; i++) {
		c = &w->cols[i];
		n = strlen(c->name);
		wide = c->flags & DS_C_WIDE ? "(+) " : "";
		help = c->help != NULL ? c->help : "";
		np = n < 22 ? 23 - n : 1;
		if (fwrite(c->name, 1, n, fp) != n ||
		    fwrite(pad, 1, np, fp) != np ||
		    fwrite(wide, 1, strlen(wide), fp) != strlen(wide) ||
		    fwrite(help, 1, strlen(help), fp) != strlen(help) ||
		    putc('\n', fp) == EOF)
			return errno ? -errno : -EIO;
	}
	return 0;
}
