/* The kernel's lockdown mode, which can refuse bpf(2) even to root. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/*
 * The kernel's lockdown mode (sys/kernel/security/lockdown, the
 * bracketed word): "none", "integrity" or "confidentiality" into mode.
 * -ENOENT without the file (no lockdown LSM).
 */
int
ds_lockdown_mode(const struct ds_root *r, char *mode, size_t size)
{
	struct ds_buf b = { 0 };
	const char *p, *q;
	int e;

	if ((e = ds_read_file(r, "sys/kernel/security/lockdown", &b)) == 0) {
		if ((p = strchr(b.data, '[')) == NULL ||
		    (q = strchr(p, ']')) == NULL || (size_t)(q - p - 1) >= size)
			e = -EINVAL;
		else
			snprintf(mode, size, "%.*s", (int)(q - p - 1), p + 1);
	}
	ds_buf_free(&b);
	return e;
}
