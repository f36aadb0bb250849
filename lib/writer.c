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

#include "diskstat.h"

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
	w->fmt = fmt;
	w->cols = cols;
	w->ncols = ncols;
	w->header = header;
	w->prefix = prefix;
	return 0;
}

void
ds_writer_free(struct ds_writer *w)
{
	free(w->cells);
	w->cells = NULL;
	ds_buf_free(&w->text);
	ds_buf_free(&w->line);
}

static void
fail(struct ds_writer *w, int e)
{
	if (w->error == 0)
		w->error = e;
}

static int
held(const struct ds_writer *w)
{
	return w->fmt == DS_FMT_TABLE || w->fmt == DS_FMT_PROM;
}

/* Append text to a buffer, remembering failure in the writer. */
static void
bput(struct ds_writer *w, struct ds_buf *b, const char *s, size_t n)
{
	int e;

	if ((e = ds_buf_reserve(b, n)) < 0) {
		fail(w, e);
		return;
	}
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

/* Format a number cell as text (tsv, json, table). */
static size_t
fmt_num(char *buf, size_t sz, const struct ds_cell *c)
{
	int n;

	switch (c->kind - 1) {
	case DS_T_U64:
		n = snprintf(buf, sz, "%" PRIu64, c->v.u);
		break;
	case DS_T_I64:
		n = snprintf(buf, sz, "%" PRId64, c->v.i);
		break;
	case DS_T_F2:
		if ((n = fmt_f2(buf, sz, c->v.d)) < 0)
			n = snprintf(buf, sz, "%.2f", c->v.d);
		break;
	case DS_T_F3:
		n = snprintf(buf, sz, "%.3f", c->v.d);
		break;
	case DS_T_TIME:
		n = snprintf(buf, sz, "%" PRIu64 ".%03" PRIu64,
		    c->v.u / 1000000000u, c->v.u % 1000000000u / 1000000u);
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

	if (c->kind == 0) {
		bputs(w, b, w->fmt == DS_FMT_JSON ? "null" : "-");
		return;
	}
	if (c->kind - 1 == DS_T_STR) {
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
	for (i = 0; i < w->ncols; i++) {
		if (i > 0)
			bput(w, &w->line, "\t", 1);
		bputs(w, &w->line, w->cols[i].name);
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
	if (col->type == DS_T_F3 && c.kind - 1 == DS_T_F2)
		c.kind = DS_T_F3 + 1;
	if (c.kind != 0 && (enum ds_type)(c.kind - 1) != col->type &&
	    !(col->type == DS_T_F2 && c.kind - 1 == DS_T_TIME) &&
	    !(col->type == DS_T_TIME && c.kind - 1 == DS_T_F2)) {
		/* A number given to a column of another numeric type. */
		if (c.kind - 1 == DS_T_U64 && col->type == DS_T_F2) {
			c.v.d = (double)c.v.u;
			c.kind = DS_T_F2 + 1;
		} else if (c.kind - 1 == DS_T_U64 && col->type == DS_T_I64 &&
		    c.v.u <= INT64_MAX) {
			c.kind = DS_T_I64 + 1;
		} else {
			fail(w, -EINVAL);
			c.kind = 0;
		}
	}
	if ((c.kind - 1 == DS_T_F2 || c.kind - 1 == DS_T_F3) &&
	    !isfinite(c.v.d))
		c.kind = 0;
	w->col++;
	if (held(w)) {
		if (w->ncells == w->capcells) {
			size_t cap = w->capcells ? w->capcells * 2 : 256;
			struct ds_cell *p = realloc(w->cells, cap * sizeof(*p));
			if (p == NULL) {
				fail(w, -ENOMEM);
				return;
			}
			w->cells = p;
			w->capcells = cap;
		}
		if (c.kind - 1 == DS_T_STR) {
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
		bputs(w, &w->line, w->fmt == DS_FMT_JSON ? "," : "\t");
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
	struct ds_cell c = { .kind = DS_T_STR + 1 };

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
	struct ds_cell c = { .kind = DS_T_U64 + 1 };

	c.v.u = v;
	add(w, c, NULL);
}

void
ds_w_i64(struct ds_writer *w, int64_t v)
{
	struct ds_cell c = { .kind = DS_T_I64 + 1 };

	c.v.i = v;
	add(w, c, NULL);
}

void
ds_w_f(struct ds_writer *w, double v)
{
	struct ds_cell c = { .kind = DS_T_F2 + 1 };

	c.v.d = v;
	add(w, c, NULL);
}

void
ds_w_time(struct ds_writer *w, uint64_t unix_ns)
{
	struct ds_cell c = { .kind = DS_T_TIME + 1 };

	c.v.u = unix_ns;
	add(w, c, NULL);
}

void
ds_w_null(struct ds_writer *w)
{
	struct ds_cell c = { .kind = 0 };

	add(w, c, NULL);
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
	if (!held(w)) {
		bputs(w, &w->line, w->fmt == DS_FMT_JSON ? "}\n" : "\n");
		emit(w, w->line.data, w->line.len);
		w->line.len = 0;
	}
	return w->error;
}

static int
right_aligned(const struct ds_col *c)
{
	return c->type != DS_T_STR;
}

static void
table_flush(struct ds_writer *w)
{
	size_t nrows = w->ncells / w->ncols, r, i, k, *width;
	struct ds_buf *t = &w->line;
	size_t *off;

	/* Every cell rendered once into line, then aligned. */
	width = calloc(w->ncols, sizeof(*width));
	off = calloc(w->ncells + 1, sizeof(*off));
	if (width == NULL || off == NULL) {
		free(width);
		free(off);
		fail(w, -ENOMEM);
		return;
	}
	t->len = 0;
	for (k = 0; k < w->ncells; k++) {
		off[k] = t->len;
		cell_text(w, t, &w->cells[k], w->cells[k].kind - 1 == DS_T_STR ?
		    w->text.data + w->cells[k].v.s.off : NULL);
	}
	off[w->ncells] = t->len;
	for (i = 0; i < w->ncols; i++)
		width[i] = w->header ? strlen(w->cols[i].name) : 0;
	for (k = 0; k < w->ncells; k++) {
		size_t l = off[k + 1] - off[k];
		if (l > width[k % w->ncols])
			width[k % w->ncols] = l;
	}
	if (w->reports > 0 && (w->header || nrows > 0))
		emit(w, "\n", 1);
	for (r = w->header ? 0 : 1; r <= nrows; r++) {
		for (i = 0; i < w->ncols; i++) {
			const char *s;
			size_t l, pad;

			if (r == 0) {
				s = w->cols[i].name;
				l = strlen(s);
			} else {
				k = (r - 1) * w->ncols + i;
				s = t->data + off[k];
				l = off[k + 1] - off[k];
			}
			pad = width[i] - l;
			if (i > 0)
				emit(w, "  ", 2);
			if (right_aligned(&w->cols[i]))
				for (; pad > 0; pad--)
					emit(w, " ", 1);
			emit(w, s, l);
			if (i + 1 < w->ncols)
				for (; pad > 0; pad--)
					emit(w, " ", 1);
		}
		emit(w, "\n", 1);
	}
	free(width);
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

	switch (c->kind - 1) {
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
	size_t nrows = w->ncells / w->ncols, r, i, j, any;
	struct ds_buf *b = &w->line;
	char num[NUMBUF];
	size_t n;

	for (i = 0; i < w->ncols; i++) {
		const struct ds_col *col = &w->cols[i];

		if (col->prom != DS_P_GAUGE && col->prom != DS_P_COUNTER)
			continue;
		for (any = 0, r = 0; r < nrows; r++)
			if (w->cells[r * w->ncols + i].kind != 0)
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

			if (c->kind == 0)
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
				if (l->kind - 1 == DS_T_STR) {
					if (ds_esc_prom(b, w->text.data +
					    l->v.s.off, l->v.s.len) < 0)
						fail(w, -ENOMEM);
				} else if (l->kind != 0) {
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
