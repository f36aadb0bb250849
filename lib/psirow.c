/*
 * The report of pressure: its columns (names, types, Prometheus
 * families), its rows, the messages for what a sample noted or what
 * ends the report, and for a trigger that will not do.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* The columns of the table, tsv and json; "cgroup" only with a cgroup. */
static const struct ds_col cols[] = {
	{ "time", DS_T_TIME, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "cgroup", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "resource", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "kind", DS_T_STR, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "avg10", DS_T_F2, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "avg60", DS_T_F2, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "avg300", DS_T_F2, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "total", DS_T_U64, DS_P_NONE, NULL, NULL, 0, 0, 0 },
	{ "stall%", DS_T_F2, DS_P_NONE, NULL, NULL, 0, 0, 0 },
};

/*
 * Prometheus: one metric family per resource, kind and value, so the
 * names are made here; each cgroup is one wide row, and the writer
 * prints each column as one family (HELP and TYPE once).
 */
static void
prom_build(unsigned int how, const enum ds_psi_res *order, size_t nres,
    struct ds_psi_cols *pc)
{
	static const char *const what[DS_PSI_PER_LINE] = {
	    "avg10_ratio", "avg60_ratio", "avg300_ratio",
	    "stall_seconds_total", "stall_ratio" };
	static const char *const help[DS_PSI_PER_LINE] = {
	    "kernel's 10 s exponential moving average of the stalled share",
	    "kernel's 60 s exponential moving average of the stalled share",
	    "kernel's 300 s exponential moving average of the stalled share",
	    "cumulative stall time",
	    "share of the last interval stalled, from the total" };
	size_t i, k, j, m = 0;

	pc->col[pc->n++] = cols[0];
	if (how & DS_PSICOL_CGROUP)
		pc->col[pc->n++] = (struct ds_col){ "cgroup", DS_T_STR,
		    DS_P_LABEL, "cgroup", NULL, 0, 0, 0 };
	for (i = 0; i < nres; i++)
		for (k = 0; k < DS_PSI_NKINDS; k++)
			for (j = 0; j < DS_PSI_PER_LINE; j++, m++) {
				const char *rn = ds_psi_res_name(order[i]);
				const char *kn = ds_psi_kind_name(k);
				struct ds_col *c = &pc->col[pc->n++];

				snprintf(pc->names[m], sizeof(pc->names[m]),
				    "%s_%s_%s", rn, kn, what[j]);
				snprintf(pc->helps[m], sizeof(pc->helps[m]),
				    "PSI %s %s: %s%s.", rn, kn, help[j],
				    j == 3 ? ", seconds" : " (0 to 1)");
				c->name = pc->names[m];
				c->metric = pc->names[m];
				c->help = pc->helps[m];
				if (j == 3) {
					c->type = DS_T_U64;
					c->prom = DS_P_COUNTER;
					c->div10 = 6;	/* us to s */
				} else {
					c->type = DS_T_F2;
					c->prom = DS_P_GAUGE;
					c->scale = 0.01;	/* % to ratio */
				}
			}
}

size_t
ds_psi_columns(unsigned int how, const enum ds_psi_res *order, size_t nres,
    struct ds_psi_cols *pc)
{
	size_t i;

	memset(pc, 0, sizeof(*pc));
	if (nres > DS_PSI_NRES)
		nres = DS_PSI_NRES;
	if (how & DS_PSICOL_PROM) {
		prom_build(how, order, nres, pc);
		return pc->n;
	}
	for (i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		if (i != 1 || (how & DS_PSICOL_CGROUP))
			pc->col[pc->n++] = cols[i];
	return pc->n;
}


/* Why a file could not be read, as a note says it (b: the library's). */
static const char *
note_why(const struct ds_psi_note *n, struct ds_buf *b)
{
	int k;

	/* irq pressure needs 6.1 and IRQ time accounting. */
	if (n->e == -ENOENT && n->res == DS_PSI_IRQ)
		return "not in this kernel (6.1+ with "
		    "CONFIG_IRQ_TIME_ACCOUNTING)";
	if ((n->e == -ENOENT || n->e == -ENODEV || n->e == -EOPNOTSUPP) &&
	    (k = ds_psi_err_msg(n->e, n->path != NULL, b)) != 0)
		return k > 0 ? b->data : NULL;
	return n->e == -EINVAL ? "malformed, no line to report" :
	    strerror(-n->e);
}

/* Malformed lines noted: "line 3: no total (1 line skipped)". */
static int
bad_line(const struct ds_psi_note *n, char *what, size_t size)
{
	struct ds_buf b = { 0 };
	int k;

	/* As diskstats' (ds_said_bad): the first, then how many. */
	if ((k = ds_psi_bad_msg(&n->bad, &b)) >= 0)
		snprintf(what, size, "line %zu: %s (%zu line%s skipped%s)",
		    n->bad.first, k > 0 ? b.data : "malformed", n->bad.n,
		    n->bad.n == 1 ? "" : "s",
		    n->e == 0 ? "" : ", no line to report");
	ds_buf_free(&b);
	return k;
}

int
ds_psi_note_msg(const struct ds_psi_note *n, struct ds_buf *out)
{
	struct ds_buf b = { 0 };
	const char *rn, *m = NULL;
	char what[160];
	int k;

	if (n->res < 0 && n->e == -ELOOP)
		return ds_buf_printf(out, "cgroup %s: subtree skipped: nested deeper "
		    "than %d levels", n->path, DS_CGROUP_DEPTH_MAX);
	if (n->res < 0)
		return ds_buf_printf(out, "cgroup %s: subtree skipped: %s", n->path,
		    strerror(n->e < 0 ? -n->e : n->e));
	rn = ds_psi_res_name(n->res);
	if (n->e == 0 || (n->e == -EINVAL && n->bad.first > 0)) {
		if (bad_line(n, what, sizeof(what)) >= 0)
			m = what;
	} else
		m = note_why(n, &b);
	if (m == NULL)
		k = ds_buf_fail(out, -ENOMEM);
	else if (n->path == NULL)
		k = ds_buf_printf(out, "proc/pressure/%s: %s", rn, m);
	else
		k = ds_buf_printf(out, "cgroup %s: %s.pressure: %s", n->path,
		    rn, m);
	ds_buf_free(&b);
	return k;
}

int
ds_psi_trigger_msg(const char *spec, struct ds_psi_trigger *t,
    struct ds_buf *out)
{
	int e = 0, k;

	/* Privileged: what the kernel takes from anyone is checked later. */
	if ((k = ds_psi_trigger_parse_msg(spec, t, out)) == 0 &&
	    (e = ds_psi_trigger_check(t, 1)) < 0 &&
	    (k = ds_psi_trigger_err_msg(e, out)) == 0)
		k = ds_buf_printf(out, "%s", strerror(-e));
	return k;
}

size_t
ds_psi_order_default(enum ds_psi_res *order)
{
	/* Storage first: the question is whether the disk is the problem. */
	static const enum ds_psi_res def[DS_PSI_NRES] = {
		DS_PSI_IO, DS_PSI_MEMORY, DS_PSI_CPU, DS_PSI_IRQ
	};

	memcpy(order, def, sizeof(def));
	return DS_PSI_NRES;
}

int
ds_psi_rows_order(const struct ds_psi_rows *rs, const struct ds_psi_sample *prev,
    struct ds_psi_sample *cur, size_t *n)
{
	int e;

	/* Each cgroup of cur with its previous sample, by path. */
	if (prev != NULL && (e = ds_psi_sample_pair(prev, cur)) < 0)
		return e;
	/*
	 * The most stalled first, of the first resource: "which workload
	 * is stalled on I/O" with the default order, not whichever
	 * resource is busiest (cpu).
	 */
	if (rs->rank && (prev != NULL || rs->top > 0))
		ds_psi_sample_rank(prev, cur, rs->order[0]);
	*n = cur->n;
	if (rs->top > 0 && rs->top < *n)
		*n = (size_t)rs->top;
	return 0;
}

/* A line's values: the averages (hundredths of a percent), total, share. */
static void
write_line(struct ds_writer *w, const struct ds_psi_line *l, double pct)
{
	ds_w_f(w, (double)l->avg[0] / 100);
	ds_w_f(w, (double)l->avg[1] / 100);
	ds_w_f(w, (double)l->avg[2] / 100);
	ds_w_u64(w, l->total);
	if (pct >= 0)
		ds_w_f(w, pct);
	else
		ds_w_null(w);
}

/* Rows of one cgroup (or the system). */
static void
write_cg(struct ds_writer *w, const struct ds_psi_rows *rs,
    const struct ds_psi_sample *prev, const struct ds_psi_sample *cur,
    const struct ds_psi_cg *c)
{
	/* Prometheus: one wide row, a family per column, null for none. */
	int prom = (rs->how & DS_PSICOL_PROM) != 0, j, k;
	int cg = (rs->how & DS_PSICOL_CGROUP) != 0;
	const struct ds_psi_line *l;
	size_t i;

	if (prom) {
		ds_w_time(w, rs->now);
		if (cg)
			ds_w_str(w, c->path);
	}
	for (i = 0; i < rs->nres && i < DS_PSI_NRES; i++) {
		enum ds_psi_res r = rs->order[i];

		for (k = 0; k < DS_PSI_NKINDS; k++) {
			l = (rs->mask & (1u << r)) ? ds_psi_cg_line(c, r, k) :
			    NULL;
			if (l == NULL) {
				for (j = 0; prom && j < DS_PSI_PER_LINE; j++)
					ds_w_null(w);
				continue;
			}
			if (!prom) {
				ds_w_time(w, rs->now);
				if (cg)
					ds_w_str(w, c->path);
				ds_w_str(w, ds_psi_res_name(r));
				ds_w_str(w, ds_psi_kind_name(k));
			}
			write_line(w, l, ds_psi_sample_share(prev, cur, c, r, k));
			if (!prom)
				ds_w_row_end(w);
		}
	}
	if (prom)
		ds_w_row_end(w);
}

void
ds_psi_rows_write(struct ds_writer *w, const struct ds_psi_rows *rs,
    const struct ds_psi_sample *prev, const struct ds_psi_sample *cur,
    size_t n)
{
	size_t i;

	for (i = 0; i < n && i < cur->n; i++)
		write_cg(w, rs, prev, cur, &cur->cg[i]);
}

/* "PRE NAME: why", why the library's sentence for e or strerror's. */
static int
why_msg(struct ds_buf *out, const char *pre, const char *name, int e,
    int cgroup)
{
	struct ds_buf b = { 0 };
	int k;

	if ((k = ds_psi_err_msg(e, cgroup, &b)) >= 0)
		k = ds_buf_printf(out, "%s%s: %s", pre, name, k > 0 ? b.data :
		    strerror(e < 0 ? -e : e));
	ds_buf_free(&b);
	return k;
}

int
ds_psi_sample_fatal(const struct ds_psi_src *src,
    const struct ds_psi_sample *s, int e, int warned, struct ds_buf *out)
{
	/* PSI off: said however many reports came before. */
	if (e == -EOPNOTSUPP && s->nnote > 0)
		return ds_psi_note_msg(&s->note[s->nnote - 1], out);
	if (e == -ENOMEM) {
		out->len = 0;
		return -ENOMEM;
	}
	if (e < 0 && src->all)
		return ds_buf_printf(out, "cgroup %s: %s", src->top, strerror(-e));
	/* No PSI, or (a cgroup) the cgroup gone or its accounting off. */
	if (e == -ENOENT && src->topfd < 0)
		return why_msg(out, "proc/pressure", "", e, 0);
	if (e == -ENODATA && !warned && !src->explicit)
		return ds_buf_printf(out, "proc/pressure: no pressure files");
	if (e < 0 && src->topfd >= 0 && !warned)
		return why_msg(out, "cgroup ", src->top, e, 1);
	/* No cgroup below the top (all) is an empty report, not an error. */
	return 0;
}

int
ds_psi_noline_msg(const struct ds_psi_sample *s,
    const struct ds_psi_trigger *tr, const char *top, struct ds_buf *out)
{
	const char *rn = ds_psi_res_name(tr->res);

	if (ds_psi_cg_line(s->n > 0 ? &s->cg[0] : NULL, tr->res,
	    tr->kind) != NULL)
		return 0;
	return ds_buf_printf(out, "%s %s: no such line in %s%s", rn,
	    ds_psi_kind_name(tr->kind), top != NULL ? "cgroup " :
	    "proc/pressure/", top != NULL ? top : rn);
}
