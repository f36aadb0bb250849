/*
 * The I/O limit files of a cgroup (lib/cglimit.c) on terminated copies:
 * io.max, io.latency, io.stat's iocost and io.latency keys, v1
 * blkio.throttle limits and Read/Write rows, and proc/PID/cgroup per
 * controller.  No device twice, none past the bound, no limit of 0, a
 * value never half kept; io.max and io.latency print back and parse to
 * the same.
 */
#include <errno.h>
#include <inttypes.h>

#include "fuzz.h"

static void
check_devs(const struct ds_iolimits *cg)
{
	size_t i, j;
	int k;

	FUZZ_CHECK(cg->n <= DS_CG_DEVS_MAX);
	for (i = 0; i < cg->n; i++) {
		const struct ds_iolimit *l = &cg->l[i];

		FUZZ_CHECK(l->cgroup == NULL);
		for (k = 0; k < DS_LIM_N; k++) {
			FUZZ_CHECK(l->lim[k] != 0);
			if (!(l->have_done & (1 << k)))
				FUZZ_CHECK(l->done[k] == 0);
		}
		FUZZ_CHECK((l->have_done & ~(int)DS_LIM_ALL) == 0);
		FUZZ_CHECK((l->have_cost & ~31) == 0 &&
		    (l->have_latstat & ~31) == 0);
		FUZZ_CHECK(l->have_lat ? l->lat_target_us != 0 :
		    l->lat_target_us == 0);
		if (!(l->have_cost & DS_COST_VRATE))
			FUZZ_CHECK(l->cost_vrate == 0);
		for (j = i + 1; j < cg->n; j++)
			FUZZ_CHECK(l->major != cg->l[j].major ||
			    l->minor != cg->l[j].minor);
	}
}

static void
cg_free(struct ds_iolimits *cg)
{
	free(cg->l);
	memset(cg, 0, sizeof(*cg));
}

/* io.max and io.latency of cg printed, parsed again: the same. */
static void
roundtrip(const struct ds_iolimits *cg)
{
	static const char *const key[DS_LIM_N] = { "rbps", "wbps", "riops",
	    "wiops" };
	struct ds_iolimits again = { 0 };
	size_t cap = cg->n * 160 + 1, n = 0, i;
	char *out = malloc(cap), *lat = malloc(cap);
	size_t nl = 0;
	int k;

	if (out == NULL || lat == NULL)
		abort();
	out[0] = lat[0] = '\0';
	for (i = 0; i < cg->n; i++) {
		const struct ds_iolimit *l = &cg->l[i];

		n += (size_t)snprintf(out + n, cap - n, "%u:%u", l->major,
		    l->minor);
		for (k = 0; k < DS_LIM_N; k++)
			if (l->lim[k] == UINT64_MAX)
				n += (size_t)snprintf(out + n, cap - n,
				    " %s=max", key[k]);
			else
				n += (size_t)snprintf(out + n, cap - n,
				    " %s=%" PRIu64, key[k], l->lim[k]);
		n += (size_t)snprintf(out + n, cap - n, "\n");
		if (l->have_lat)
			nl += (size_t)snprintf(lat + nl, cap - nl,
			    "%u:%u target=%" PRIu64 "\n", l->major, l->minor,
			    l->lat_target_us);
	}
	FUZZ_CHECK(n < cap && nl < cap);
	FUZZ_CHECK(ds_iomax_parse(out, &again) == 0);
	FUZZ_CHECK(ds_iolatency_parse(lat, &again) == 0);
	FUZZ_CHECK(again.bad == 0 && again.n == cg->n);
	for (i = 0; i < cg->n; i++) {
		FUZZ_CHECK(again.l[i].major == cg->l[i].major &&
		    again.l[i].minor == cg->l[i].minor);
		FUZZ_CHECK(memcmp(again.l[i].lim, cg->l[i].lim,
		    sizeof(cg->l[i].lim)) == 0);
		FUZZ_CHECK(again.l[i].have_lat == cg->l[i].have_lat &&
		    again.l[i].lat_target_us == cg->l[i].lat_target_us);
	}
	cg_free(&again);
	free(out);
	free(lat);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const ctl[] = { "io", "blkio", "memory" };
	char *text = fuzz_strdup(data, size);
	struct ds_iolimits cg = { 0 }, v1 = { 0 };
	const char *path;
	size_t len, i, n;
	int e, k, isv1;

	/* io.max and io.latency together, as one cgroup's files. */
	FUZZ_CHECK(ds_iomax_parse(text, &cg) == 0);
	FUZZ_CHECK(ds_iolatency_parse(text, &cg) == 0);
	check_devs(&cg);
	roundtrip(&cg);
	FUZZ_CHECK(ds_iostat_limits_parse(text, &cg) == 0);
	check_devs(&cg);
	cg_free(&cg);
	FUZZ_CHECK(ds_iostat_limits_parse(text, &cg) == 0);
	check_devs(&cg);
	cg_free(&cg);

	for (k = 0; k < DS_LIM_N; k++)
		FUZZ_CHECK(ds_blkio_limit_parse(text, k, &v1) == 0);
	FUZZ_CHECK(ds_blkio_limit_parse(text, DS_LIM_N, &v1) == -EINVAL);
	check_devs(&v1);
	n = v1.n;
	FUZZ_CHECK(ds_blkio_rwstat_parse(text, 1, &v1) == 0);
	FUZZ_CHECK(ds_blkio_rwstat_parse(text, 0, &v1) == 0);
	FUZZ_CHECK(v1.n == n);
	check_devs(&v1);
	cg_free(&v1);

	for (i = 0; i < sizeof(ctl) / sizeof(ctl[0]); i++) {
		e = ds_proc_cgroup_for(text, ctl[i], &path, &len, &isv1);
		FUZZ_CHECK(e == 0 || e == -ENOENT);
		if (e != 0)
			continue;
		FUZZ_CHECK(path > text && path + len <= text + size);
		FUZZ_CHECK(len > 0 && *path == '/');
		FUZZ_CHECK(memchr(path, '\n', len) == NULL);
		FUZZ_CHECK(isv1 == 0 || isv1 == 1);
	}
	FUZZ_CHECK(ds_proc_cgroup_for(text, "cpu", &path, &len, &isv1) ==
	    -EINVAL);
	free(text);
	return 0;
}
