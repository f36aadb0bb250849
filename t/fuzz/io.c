/* /proc/PID/io: ds_io_parse on a terminated copy. */
#include <inttypes.h>

#include <errno.h>

#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const key[DS_IO_NFIELDS] = {
		"rchar", "wchar", "syscr", "syscw", "read_bytes",
		"write_bytes", "cancelled_write_bytes",
	};
	char *text = fuzz_strdup(data, size), out[512];
	struct ds_io io, again;
	size_t i;
	int e, n = 0;

	e = ds_io_parse(text, &io);
	FUZZ_CHECK(e == 0 || e == -EINVAL);
	FUZZ_CHECK((e == 0) == (io.have != 0));
	FUZZ_CHECK((io.have >> DS_IO_NFIELDS) == 0);
	/* What was kept prints back and parses to the same. */
	for (i = 0; i < DS_IO_NFIELDS; i++) {
		if (!(io.have >> i & 1u)) {
			FUZZ_CHECK(io.v[i] == 0);
			continue;
		}
		n += snprintf(out + n, sizeof(out) - (size_t)n,
		    "%s: %" PRIu64 "\n", key[i], io.v[i]);
	}
	if (e == 0) {
		FUZZ_CHECK(ds_io_parse(out, &again) == 0);
		FUZZ_CHECK(again.have == io.have);
		FUZZ_CHECK(memcmp(again.v, io.v, sizeof(io.v)) == 0);
	}
	free(text);
	return 0;
}
