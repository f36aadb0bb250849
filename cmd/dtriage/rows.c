/*
 * The finding rows as written: their columns, and for a person (-o
 * table) the value in its unit.
 */
#include <math.h>

#include "util/util.h"
#include "dtriage/dtriage.h"

static const struct ds_col cols[] = {
	{ "severity", DS_T_STR, DS_P_LABEL, "severity", NULL, 0, 0, 0 },
	{ "finding", DS_T_STR, DS_P_LABEL, "finding", NULL, 0, 0, 0 },
	{ "subject", DS_T_STR, DS_P_LABEL, "subject", NULL, 0, 0, 0 },
	{ "value", DS_T_G, DS_P_GAUGE, "finding_value",
	    "The finding's main figure in base units (dtriage(1))", 0, 0, 0 },
	{ "evidence", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "next", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
};

/*
 * For a person: the value in its unit ("98.8%", "10.3 ms"), and the
 * evidence cut to keep a row within 160 columns (whole in tsv, json).
 */
static const struct ds_col table_cols[] = {
	{ "severity", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "finding", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "subject", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "value", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, DS_C_RIGHT },
	{ "evidence", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, DS_C_FILL },
	{ "next", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
};

/* The writer first: -O help and a bad -O answer before the window. */
void
writer_open(struct tr *x)
{
	if (ds_writer_init(&x->w, stdout, x->t.fmt, x->t.fmt == DS_FMT_TABLE ?
	    table_cols : cols, nitems(cols), x->t.header,
	    "dtriage") < 0)
		tool_errc(1, -ENOMEM, "writer");
	tool_writer(&x->t, &x->w);
}

/* Bytes for a person, 1024-based: "4.0 MiB", "118 KiB". */
static void
human_bytes(char *b, size_t size, double v, const char *per)
{
	const char *u;

	v = ds_human_scale(v, &u);
	snprintf(b, size, u[0] == 'B' || v >= 100 ? "%.0f %s%s" : "%.1f %s%s",
	    v, u, per);
}

/* A finding's value in its unit, as the evidence speaks it. */
static void
value_text(char *b, size_t size, const struct ds_finding *f)
{
	double v = f->value;

	if (strcmp(f->unit, "ratio") == 0)
		snprintf(b, size, "%.1f%%", v * 100);
	else if (strcmp(f->unit, "s") == 0)
		snprintf(b, size, v >= 1 ? "%.2f s" : v >= 1e-3 ?
		    "%.1f ms" : "%.0f us", v >= 1 ? v : v >= 1e-3 ?
		    v * 1e3 : v * 1e6);
	else if (strcmp(f->unit, "bytes") == 0)
		human_bytes(b, size, v, "");
	else if (strcmp(f->unit, "bytes/s") == 0)
		human_bytes(b, size, v, "/s");
	else
		snprintf(b, size, v > -1e15 && v < 1e15 &&
		    v == (double)(long long)v ? "%.0f" : "%.1f", v);
}

void
write_rows(struct tr *x, const struct ds_findings *f)
{
	struct ds_writer *w = &x->w;
	char val[32];
	size_t i;

	tool_report_begin(&x->t, w);
	for (i = 0; i < f->n; i++) {
		ds_w_str(w, ds_tr_sev_name(f->f[i].sev));
		ds_w_str(w, f->f[i].finding);
		ds_w_str(w, f->f[i].subject);
		if (isnan(f->f[i].value))
			ds_w_null(w);
		else if (x->t.fmt == DS_FMT_TABLE) {
			value_text(val, sizeof(val), &f->f[i]);
			ds_w_str(w, val);
		} else
			ds_w_f(w, f->f[i].value);
		ds_w_str(w, f->f[i].evidence);
		ds_w_str(w, f->f[i].next);
		(void)ds_w_row_end(w);
	}
	tool_report_end(&x->t, w);
	ds_writer_free(w);
}
