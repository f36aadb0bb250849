/*
 * Pressure files: ds_psi_parse in place on a terminated copy,
 * ds_psi_trigger_parse on the same bytes, ds_psi_share on numbers
 * taken from them.  Parsed lines print back and parse to the same;
 * triggers are within what the kernel accepts; shares are 0 to 100.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>

#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strdup(data, size), *spec = fuzz_strdup(data, size);
	char out[512];
	struct ds_psi p, again;
	struct ds_psi_trigger t;
	uint64_t a = 0, b = 0, ns = 0;
	double pct;
	int e, k, n = 0;

	e = ds_psi_parse(text, &p);
	FUZZ_CHECK(e == 0 || e == -EINVAL);
	FUZZ_CHECK((e == 0) == (p.have != 0));
	FUZZ_CHECK((p.have >> DS_PSI_NKINDS) == 0);
	FUZZ_CHECK((p.bad.n == 0) == (p.bad.first == 0));
	FUZZ_CHECK((p.bad.n == 0) == (p.bad.why == DS_PSI_WHY_NONE));
	if (p.bad.n > 0) {
		struct ds_buf w = { 0 };
		int said = ds_psi_bad_msg(&p.bad, &w);

		/* A short sentence, within what a message line holds. */
		FUZZ_CHECK(said == 1 || said == -ENOMEM);
		FUZZ_CHECK(said < 0 || (w.len > 0 && w.len < 80 &&
		    strlen(w.data) == w.len));
		ds_buf_free(&w);
	}
	for (k = 0; k < DS_PSI_NKINDS; k++) {
		const struct ds_psi_line *l = &p.line[k];

		if (!(p.have >> k & 1u))
			continue;
		n += snprintf(out + n, sizeof(out) - (size_t)n,
		    "%s avg10=%" PRIu64 ".%02" PRIu64 " avg60=%" PRIu64
		    ".%02" PRIu64 " avg300=%" PRIu64 ".%02" PRIu64
		    " total=%" PRIu64 "\n", ds_psi_kind_name((enum ds_psi_kind)k),
		    l->avg[0] / 100, l->avg[0] % 100, l->avg[1] / 100,
		    l->avg[1] % 100, l->avg[2] / 100, l->avg[2] % 100,
		    l->total);
	}
	if (e == 0) {
		FUZZ_CHECK(ds_psi_parse(out, &again) == 0);
		FUZZ_CHECK(again.have == p.have && again.bad.n == 0);
		FUZZ_CHECK(memcmp(again.line, p.line, sizeof(p.line)) == 0 ||
		    (p.have != 3 && !"differs"));
		for (k = 0; k < DS_PSI_NKINDS; k++)
			if (p.have >> k & 1u)
				FUZZ_CHECK(memcmp(&again.line[k], &p.line[k],
				    sizeof(p.line[k])) == 0);
	}

	e = ds_psi_trigger_parse(spec, &t);
	if (e == 0) {
		FUZZ_CHECK((unsigned)t.res < DS_PSI_NRES);
		FUZZ_CHECK((unsigned)t.kind < DS_PSI_NKINDS);
	}

	if (size >= 24) {
		memcpy(&a, data, 8);
		memcpy(&b, data + 8, 8);
		memcpy(&ns, data + 16, 8);
		e = ds_psi_share(a, b, ns, &pct);
		FUZZ_CHECK(e == 0 || e == -EINVAL);
		if (ns == 0)
			FUZZ_CHECK(e == -EINVAL);
		if (e == 0)
			FUZZ_CHECK(isfinite(pct) && pct >= 0 && pct <= 100);
	}
	free(text);
	free(spec);
	return 0;
}
