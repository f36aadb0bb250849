/*
 * The report of pressure: its columns (names, types, Prometheus
 * families), the order of its resources, the ranking of -C and the rows.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dpsi.h"

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
    struct dpsi_cols *pc)
{
	static const char *const what[DPSI_PER_LINE] = {
	    "avg10_ratio", "avg60_ratio", "avg300_ratio",
	    "stall_seconds_total", "stall_ratio" };
	static const char *const help[DPSI_PER_LINE] = {
	    "kernel's 10 s exponential moving average of the stalled share",
	    "kernel's 60 s exponential moving average of the stalled share",
	    "kernel's 300 s exponential moving average of the stalled share",
	    "cumulative stall time",
	    "share of the last interval stalled, from the total" };
	size_t i, k, j, m = 0;

	pc->col[pc->n++] = cols[0];
	if (how & DPSI_COL_CGROUP)
		pc->col[pc->n++] = (struct ds_col){ "cgroup", DS_T_STR,
		    DS_P_LABEL, "cgroup", NULL, 0, 0, 0 };
	for (i = 0; i < nres; i++)
		for (k = 0; k < DS_PSI_NKINDS; k++)
			for (j = 0; j < DPSI_PER_LINE; j++, m++) {
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
dpsi_columns(unsigned int how, const enum ds_psi_res *order, size_t nres,
    struct dpsi_cols *pc)
{
	size_t i;

	memset(pc, 0, sizeof(*pc));
	if (nres > DS_PSI_NRES)
		nres = DS_PSI_NRES;
	if (how & DPSI_COL_PROM) {
		prom_build(how, order, nres, pc);
		return pc->n;
	}
	for (i = 0; i < nitems(cols); i++)
		if (i != 1 || (how & DPSI_COL_CGROUP))
			pc->col[pc->n++] = cols[i];
	return pc->n;
}

size_t
dpsi_order_default(enum ds_psi_res *order)
{
	/* Storage first: the question is whether the disk is the problem. */
	static const enum ds_psi_res def[DS_PSI_NRES] = {
		DS_PSI_IO, DS_PSI_MEMORY, DS_PSI_CPU, DS_PSI_IRQ
	};

	memcpy(order, def, sizeof(def));
	return DS_PSI_NRES;
}

double
dpsi_rank_key(const struct ds_psi_sample *prev,
    const struct ds_psi_sample *cur, const struct ds_psi_cg *c,
    enum ds_psi_res r)
{
	enum ds_psi_kind k;

	k = (c->p[r].have & (1u << DS_PSI_SOME)) ? DS_PSI_SOME : DS_PSI_FULL;
	if (!(c->p[r].have & (1u << k)))
		return -1;
	return prev != NULL ? ds_psi_sample_share(prev, cur, c, r, k) :
	    (double)c->p[r].line[k].avg[0];
}

/* A cgroup's place in the ranking: its key, its path for ties. */
struct ranked {
	double key;
	const char *path;
	size_t i;
};

static int
ranked_cmp(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? 1 : -1;
	if (x->path == NULL || y->path == NULL)
		return (x->path != NULL) - (y->path != NULL);
	return strcmp(x->path, y->path);
}

int
dpsi_rank(const struct ds_psi_sample *prev, struct ds_psi_sample *cur,
    enum ds_psi_res r)
{
	struct ranked *rk;
	struct ds_psi_cg *cg;
	size_t i, n = cur->n;

	if (n < 2)
		return 0;
	rk = malloc(n * sizeof(*rk));
	cg = malloc(n * sizeof(*cg));
	if (rk == NULL || cg == NULL) {
		free(rk);
		free(cg);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		rk[i] = (struct ranked){ dpsi_rank_key(prev, cur, &cur->cg[i],
		    r), cur->cg[i].path, i };
	qsort(rk, n, sizeof(*rk), ranked_cmp);
	/* The elements move whole: their prev links point into prev. */
	for (i = 0; i < n; i++)
		cg[i] = cur->cg[rk[i].i];
	memcpy(cur->cg, cg, n * sizeof(*cg));
	free(rk);
	free(cg);
	return 0;
}

int
dpsi_rows_order(const struct dpsi_rows *rs, const struct ds_psi_sample *prev,
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
	if (rs->rank && (prev != NULL || rs->top > 0) &&
	    (e = dpsi_rank(prev, cur, rs->order[0])) < 0)
		return e;
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
write_cg(struct ds_writer *w, const struct dpsi_rows *rs,
    const struct ds_psi_sample *prev, const struct ds_psi_sample *cur,
    const struct ds_psi_cg *c)
{
	/* Prometheus: one wide row, a family per column, null for none. */
	int prom = (rs->how & DPSI_COL_PROM) != 0, j, k;
	int cg = (rs->how & DPSI_COL_CGROUP) != 0;
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
				for (j = 0; prom && j < DPSI_PER_LINE; j++)
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
				(void)ds_w_row_end(w);
		}
	}
	if (prom)
		(void)ds_w_row_end(w);
}

void
dpsi_rows_write(struct ds_writer *w, const struct dpsi_rows *rs,
    const struct ds_psi_sample *prev, const struct ds_psi_sample *cur,
    size_t n)
{
	size_t i;

	for (i = 0; i < n && i < cur->n; i++)
		write_cg(w, rs, prev, cur, &cur->cg[i]);
}
