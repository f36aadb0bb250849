/*
 * The report of pressure: its columns (names, types, Prometheus
 * families), the messages for what a sample noted, and for a trigger
 * that will not do.
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


/* Why a file could not be read, as a note says it. */
static const char *
note_why(const struct ds_psi_note *n)
{
	/* irq pressure needs 6.1 and IRQ time accounting. */
	if (n->e == -ENOENT && n->res == DS_PSI_IRQ)
		return "not in this kernel (6.1+ with "
		    "CONFIG_IRQ_TIME_ACCOUNTING)";
	if (n->e == -ENOENT || n->e == -ENODEV || n->e == -EOPNOTSUPP)
		return ds_psi_errmsg(n->e, n->path != NULL);
	return n->e == -EINVAL ? "malformed, no line to report" :
	    strerror(-n->e);
}

int
ds_psi_note_msg(const struct ds_psi_note *n, struct ds_buf *out)
{
	const char *rn;
	char what[64];

	if (n->res < 0 && n->e == -ELOOP)
		return ds_buf_printf(out, "cgroup %s: subtree skipped: nested deeper "
		    "than %d levels", n->path, DS_CGROUP_DEPTH_MAX);
	if (n->res < 0)
		return ds_buf_printf(out, "cgroup %s: subtree skipped: %s", n->path,
		    strerror(n->e < 0 ? -n->e : n->e));
	rn = ds_psi_res_name(n->res);
	if (n->e == 0)
		snprintf(what, sizeof(what), "line %zu malformed, skipped",
		    n->line);
	if (n->path == NULL)
		return ds_buf_printf(out, "proc/pressure/%s: %s", rn,
		    n->e == 0 ? what : note_why(n));
	return ds_buf_printf(out, "cgroup %s: %s.pressure: %s", n->path, rn,
	    n->e == 0 ? what : note_why(n));
}

int
ds_psi_trigger_msg(const char *spec, struct ds_psi_trigger *t,
    struct ds_buf *out)
{
	struct ds_psi_trigger_bad b;
	int e;

	if (ds_psi_trigger_parse_part(spec, t, &b) < 0) {
		if (b.part == DS_TRIG_SHAPE)
			return ds_buf_printf(out, "%s", ds_psi_trigger_part_why(b.part));
		return ds_buf_printf(out, "%s '%.*s': %s",
		    ds_psi_trigger_part_name(b.part), (int)b.len, b.at,
		    ds_psi_trigger_part_why(b.part));
	}
	/* Privileged: what the kernel takes from anyone is checked later. */
	if ((e = ds_psi_trigger_check(t, 1)) < 0)
		return ds_buf_printf(out, "%s", ds_psi_trigger_errmsg(e));
	return 0;
}
