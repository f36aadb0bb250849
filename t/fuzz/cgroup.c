/*
 * dwho's cgroup files: /proc/PID/cgroup (ds_proc_cgroup_parse) and a
 * cgroup's io.stat (ds_iostat_parse), on terminated copies.  The path
 * found lies inside the text on one line; io.stat rows print back and
 * parse to the same.
 */
#include <errno.h>
#include <inttypes.h>

#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const key[DS_IOS_N] = { "rbytes", "wbytes", "rios",
	    "wios", "dbytes", "dios" };
	char *text = fuzz_strdup(data, size), *out;
	struct ds_iostat st = { 0 }, again = { 0 };
	const char *path = NULL;
	size_t len = 0, i, n = 0, cap;
	int e, k;

	e = ds_proc_cgroup_parse(text, &path, &len);
	FUZZ_CHECK(e == 0 || e == -EINVAL);
	if (e == 0) {
		FUZZ_CHECK(path != NULL);
		FUZZ_CHECK(path >= text && path + len <= text + size);
		FUZZ_CHECK(memchr(path, '\n', len) == NULL);
	}

	e = ds_iostat_parse(text, &st);
	FUZZ_CHECK(e == 0 || e == -EINVAL || e == -ENOMEM);
	if (e == 0 && st.n > 0) {
		cap = st.n * (24 + DS_IOS_N * 30) + 1;
		out = malloc(cap);
		for (i = 0; i < st.n; i++) {
			const struct ds_iostat_dev *d = &st.d[i];

			FUZZ_CHECK((d->have >> DS_IOS_N) == 0);
			n += (size_t)snprintf(out + n, cap - n, "%u:%u",
			    d->major, d->minor);
			for (k = 0; k < DS_IOS_N; k++) {
				if (d->have >> k & 1u)
					n += (size_t)snprintf(out + n, cap - n,
					    " %s=%" PRIu64, key[k], d->v[k]);
				else
					FUZZ_CHECK(d->v[k] == 0);
			}
			n += (size_t)snprintf(out + n, cap - n, "\n");
		}
		FUZZ_CHECK(n < cap);
		FUZZ_CHECK(ds_iostat_parse(out, &again) == 0);
		FUZZ_CHECK(again.n == st.n && again.bad == 0);
		for (i = 0; i < st.n; i++) {
			FUZZ_CHECK(again.d[i].major == st.d[i].major &&
			    again.d[i].minor == st.d[i].minor);
			FUZZ_CHECK(again.d[i].have == st.d[i].have);
			FUZZ_CHECK(memcmp(again.d[i].v, st.d[i].v,
			    sizeof(st.d[i].v)) == 0);
		}
		free(out);
	}
	ds_iostat_free(&st);
	ds_iostat_free(&again);
	free(text);
	return 0;
}
