/*
 * Arming a trigger: the pressure file opened for it and the trigger
 * checked, then armed; what each failure means (a reason to sample
 * the total instead, or an error said as a sentence for the tool).
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

/* e, with out holding the message of fmt (empty if it could not be made). */
static int
say(struct ds_buf *out, int e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ds_buf_vprintf(out, fmt, ap);
	va_end(ap);
	return e;
}

/* Why the file of a cgroup or of the system gave no pressure: e. */
static int
nopressure(const struct ds_psi_arming *a, int e, struct ds_buf *out)
{
	struct ds_buf b = { 0 };
	int k;

	/* No file in a cgroup: removed, or its accounting off. */
	if (a->dirfd >= 0 && e == -ENOENT)
		e = ds_psi_cgroup_nofiles(a->dirfd);
	if ((k = ds_psi_err_msg(e, a->dirfd >= 0, &b)) < 0)
		ds_buf_fail(out, 0);
	else if (a->dirfd < 0)
		say(out, e, "proc/pressure/%s: %s", ds_psi_res_name(a->tr->res),
		    k > 0 ? b.data : strerror(-e));
	else
		say(out, e, "cgroup %s: %s", a->top, k > 0 ? b.data :
		    strerror(-e));
	ds_buf_free(&b);
	return e;
}

/* "SPEC: why" for an errno e of checking or arming the trigger: e. */
static int
refused(const struct ds_psi_arming *a, int e, struct ds_buf *out)
{
	struct ds_buf b = { 0 };
	int k;

	if ((k = ds_psi_trigger_err_msg(e, &b)) < 0)
		ds_buf_fail(out, 0);
	else
		say(out, e, "%s: %s", a->spec, k > 0 ? b.data : strerror(-e));
	ds_buf_free(&b);
	return e;
}

int
ds_psi_arm_open(const struct ds_psi_arming *a, int *fd, struct ds_buf *out)
{
	const char *rn = ds_psi_res_name(a->tr->res);
	int e, why;

	*fd = -1;
	e = ds_psi_trigger_open(a->r, a->dirfd, a->tr->res);
	if (e == -ENOENT || e == -ENODEV || e == -EOPNOTSUPP)
		return nopressure(a, e, out);
	if ((why = ds_psi_fallback(e, 0)) != 0)
		return why;
	if (e < 0 && a->dirfd >= 0)
		return say(out, e, "%s.pressure: %s", rn, strerror(-e));
	if (e < 0)
		return say(out, e, "proc/pressure/%s: %s", rn, strerror(-e));
	if (ds_psi_trigger_supported(e) != 1) {
		close(e);
		return DS_PSI_NOTKERNEL;
	}
	*fd = e;
	/* What this process may set; the rest is the kernel's to say. */
	if ((e = ds_psi_trigger_check(a->tr, ds_psi_privileged())) < 0) {
		close(*fd);
		*fd = -1;
		return refused(a, e, out);
	}
	return 0;
}

int
ds_psi_arm(const struct ds_psi_arming *a, int *fd, struct ds_buf *out)
{
	int e, why;

	if ((e = ds_psi_trigger_arm(*fd, a->tr)) == 0)
		return 0;
	close(*fd);
	*fd = -1;
	if (e == -EBUSY || e == -EOPNOTSUPP)
		return refused(a, e, out);
	if ((why = ds_psi_fallback(e, 1)) == 0)
		return say(out, e, "%s: arming the trigger: %s", a->spec,
		    strerror(-e));
	return why;
}
