/*
 * The messages of a report of pressure: for what a sample noted or what
 * ends the report, and for a trigger that will not do.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

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
