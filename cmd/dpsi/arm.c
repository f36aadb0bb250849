/*
 * Arming the trigger of --wait: the pressure file opened for it and the
 * trigger checked, then armed; what each failure means (a reason to
 * sample the total instead, or an error said as a sentence).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dpsi.h"

/* Why the file of a cgroup or of the system gave no pressure: e. */
static int
nopressure(const struct dpsi_arming *a, int e, char **msg)
{
	if (a->dirfd < 0) {
		dpsi_say_why(msg, "proc/pressure/", ds_psi_res_name(a->tr->res),
		    e, 0);
		return e;
	}
	/* No file in a cgroup: removed, or its accounting off. */
	if (e == -ENOENT)
		e = ds_psi_cgroup_nofiles(a->dirfd);
	dpsi_say_why(msg, "cgroup ", a->top, e, 1);
	return e;
}

/* "SPEC: why" for an errno e of checking or arming the trigger: e. */
static int
refused(const struct dpsi_arming *a, int e, char **msg)
{
	struct ds_buf b = { 0 };
	int k;

	if ((k = ds_psi_trigger_err_msg(e, &b)) >= 0)
		dpsi_say(msg, "%s: %s", a->spec, k > 0 ? b.data :
		    strerror(-e));
	else {
		free(*msg);
		*msg = NULL;
	}
	ds_buf_free(&b);
	return e;
}

int
dpsi_arm_open(const struct dpsi_arming *a, int *fd, char **msg)
{
	const char *rn = ds_psi_res_name(a->tr->res);
	int e, why;

	*fd = -1;
	e = ds_psi_trigger_open(a->r, a->dirfd, a->tr->res);
	if (e == -ENOENT || e == -ENODEV || e == -EOPNOTSUPP)
		return nopressure(a, e, msg);
	if ((why = ds_psi_fallback(e, 0)) != 0)
		return why;
	if (e < 0) {
		if (a->dirfd >= 0)
			dpsi_say(msg, "%s.pressure: %s", rn, strerror(-e));
		else
			dpsi_say(msg, "proc/pressure/%s: %s", rn, strerror(-e));
		return e;
	}
	if (ds_psi_trigger_supported(e) != 1) {
		close(e);
		return DS_PSI_NOTKERNEL;
	}
	*fd = e;
	/* What this process may set; the rest is the kernel's to say. */
	if ((e = ds_psi_trigger_check(a->tr, ds_psi_privileged())) < 0) {
		close(*fd);
		*fd = -1;
		return refused(a, e, msg);
	}
	return 0;
}

int
dpsi_arm(const struct dpsi_arming *a, int *fd, char **msg)
{
	int e, why;

	if ((e = ds_psi_trigger_arm(*fd, a->tr)) == 0)
		return 0;
	close(*fd);
	*fd = -1;
	if (e == -EBUSY || e == -EOPNOTSUPP)
		return refused(a, e, msg);
	if ((why = ds_psi_fallback(e, 1)) == 0) {
		dpsi_say(msg, "%s: arming the trigger: %s", a->spec,
		    strerror(-e));
		return e;
	}
	return why;
}
