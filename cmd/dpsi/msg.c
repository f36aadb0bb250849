/*
 * dpsi's messages: what a sample noted, a trigger that will not do, what
 * ends a report, a trigger's line that is not there, and the cgroup of
 * -c that cannot be opened.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dpsi.h"

int
dpsi_say(char **msg, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	free(*msg);
	*msg = n < 0 ? NULL : s;
	return n < 0 ? -ENOMEM : 1;
}

/* No message: out of memory. */
static int
nomem(char **msg)
{
	free(*msg);
	*msg = NULL;
	return -ENOMEM;
}

int
dpsi_say_why(char **msg, const char *pre, const char *name, int e,
    int cgroup)
{
	struct ds_buf b = { 0 };
	int k;

	if ((k = ds_psi_err_msg(e, cgroup, &b)) >= 0)
		k = dpsi_say(msg, "%s%s: %s", pre, name, k > 0 ? b.data :
		    strerror(e < 0 ? -e : e));
	ds_buf_free(&b);
	return k;
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

	/* As dxstat says a damaged diskstats: the first, then how many. */
	if ((k = ds_psi_bad_msg(&n->bad, &b)) >= 0)
		snprintf(what, size, "line %zu: %s (%zu line%s skipped%s)",
		    n->bad.first, k > 0 ? b.data : "malformed", n->bad.n,
		    n->bad.n == 1 ? "" : "s",
		    n->e == 0 ? "" : ", no line to report");
	ds_buf_free(&b);
	return k;
}

int
dpsi_note_msg(const struct ds_psi_note *n, char **msg)
{
	struct ds_buf b = { 0 };
	const char *rn, *m = NULL;
	char what[160];
	int k;

	if (n->res < 0 && n->e == -ELOOP)
		return dpsi_say(msg, "cgroup %s: subtree skipped: nested "
		    "deeper than %d levels", n->path, DS_CGROUP_DEPTH_MAX);
	if (n->res < 0)
		return dpsi_say(msg, "cgroup %s: subtree skipped: %s", n->path,
		    strerror(n->e < 0 ? -n->e : n->e));
	rn = ds_psi_res_name(n->res);
	if (n->e == 0 || (n->e == -EINVAL && n->bad.first > 0)) {
		if (bad_line(n, what, sizeof(what)) >= 0)
			m = what;
	} else
		m = note_why(n, &b);
	if (m == NULL)
		k = nomem(msg);
	else if (n->path == NULL)
		k = dpsi_say(msg, "proc/pressure/%s: %s", rn, m);
	else
		k = dpsi_say(msg, "cgroup %s: %s.pressure: %s", n->path, rn, m);
	ds_buf_free(&b);
	return k;
}

int
dpsi_trigger_msg(const char *spec, struct ds_psi_trigger *t, char **msg)
{
	struct ds_buf b = { 0 };
	int e = 0, k;

	/* Privileged: what the kernel takes from anyone is checked later. */
	if ((k = ds_psi_trigger_parse_msg(spec, t, &b)) == 0 &&
	    (e = ds_psi_trigger_check(t, 1)) < 0)
		k = ds_psi_trigger_err_msg(e, &b);
	if (k > 0)
		k = dpsi_say(msg, "%s", b.data);
	else if (k == 0 && e < 0)
		k = dpsi_say(msg, "%s", strerror(-e));
	ds_buf_free(&b);
	return k;
}

int
dpsi_sample_fatal(const struct ds_psi_src *src,
    const struct ds_psi_sample *s, int e, int warned, char **msg)
{
	/* PSI off: said however many reports came before. */
	if (e == -EOPNOTSUPP && s->nnote > 0)
		return dpsi_note_msg(&s->note[s->nnote - 1], msg);
	if (e == -ENOMEM)
		return nomem(msg);
	if (e < 0 && src->all)
		return dpsi_say(msg, "cgroup %s: %s", src->top, strerror(-e));
	/* No PSI, or (a cgroup) the cgroup gone or its accounting off. */
	if (e == -ENOENT && src->topfd < 0)
		return dpsi_say_why(msg, "proc/pressure", "", e, 0);
	if (e == -ENODATA && !warned && !src->explicit)
		return dpsi_say(msg, "proc/pressure: no pressure files");
	if (e < 0 && src->topfd >= 0 && !warned)
		return dpsi_say_why(msg, "cgroup ", src->top, e, 1);
	/* No cgroup below the top (all) is an empty report, not an error. */
	return 0;
}

int
dpsi_noline_msg(const struct ds_psi_sample *s,
    const struct ds_psi_trigger *tr, const char *top, char **msg)
{
	const char *rn = ds_psi_res_name(tr->res);

	if (ds_psi_cg_line(s->n > 0 ? &s->cg[0] : NULL, tr->res,
	    tr->kind) != NULL)
		return 0;
	return dpsi_say(msg, "%s %s: no such line in %s%s", rn,
	    ds_psi_kind_name(tr->kind), top != NULL ? "cgroup " :
	    "proc/pressure/", top != NULL ? top : rn);
}

int
dpsi_top_open(const struct ds_root *r, const char *path, char **top,
    char **msg)
{
	char mnt[4096];
	int fd;

	if ((fd = ds_cgroup_top_open(r, path, top, mnt, sizeof(mnt))) >= 0)
		return fd;
	if (*top == NULL)
		nomem(msg);
	else if (mnt[0] == '\0' && fd == -ENOENT)
		dpsi_say(msg, "proc/self/mountinfo: no cgroup2 mount (no "
		    "cgroup v2 hierarchy to read)");
	else if (mnt[0] == '\0')
		dpsi_say(msg, "proc/self/mountinfo: %s", strerror(-fd));
	else if (fd == -EINVAL)
		dpsi_say(msg, "cgroup %s: \"..\" leaves the hierarchy", *top);
	else
		dpsi_say(msg, "cgroup %s (under %s): %s", *top, mnt,
		    strerror(-fd));
	free(*top);
	*top = NULL;
	return fd;
}
