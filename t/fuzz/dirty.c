/*
 * proc/vmstat's dirty-page keys (ds_dirty_parse_vmstat) on a terminated
 * copy: a key is either had or bad, never both; a value is kept only
 * under its bit; what was had prints back and parses to the same.
 */
#include <inttypes.h>

#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const key[6] = { "nr_dirty", "nr_writeback",
	    "nr_dirty_threshold", "nr_dirty_background_threshold",
	    "nr_dirtied", "nr_written" };
	char *text = fuzz_strdup(data, size), out[512];
	struct ds_dirty d, again;
	const uint64_t *v[6];
	const uint64_t *w[6];
	size_t n = 0;
	int i;

	out[0] = '\0';
	memset(&d, 0, sizeof(d));
	ds_dirty_parse_vmstat(text, &d);
	FUZZ_CHECK((d.have & d.bad) == 0);
	FUZZ_CHECK((d.have & ~DS_DIRTY_VMSTAT) == 0 &&
	    (d.bad & ~DS_DIRTY_VMSTAT) == 0);
	v[0] = &d.nr_dirty, v[1] = &d.nr_writeback, v[2] = &d.thresh;
	v[3] = &d.bg_thresh, v[4] = &d.nr_dirtied, v[5] = &d.nr_written;
	w[0] = &again.nr_dirty, w[1] = &again.nr_writeback;
	w[2] = &again.thresh, w[3] = &again.bg_thresh;
	w[4] = &again.nr_dirtied, w[5] = &again.nr_written;
	for (i = 0; i < 6; i++) {
		if (!(d.have & (1u << i))) {
			FUZZ_CHECK(*v[i] == 0);
			continue;
		}
		n += (size_t)snprintf(out + n, sizeof(out) - n,
		    "%s %" PRIu64 "\n", key[i], *v[i]);
	}
	memset(&again, 0, sizeof(again));
	ds_dirty_parse_vmstat(out, &again);
	FUZZ_CHECK(again.have == d.have && again.bad == 0);
	for (i = 0; i < 6; i++)
		FUZZ_CHECK(*w[i] == *v[i]);
	free(text);
	return 0;
}
