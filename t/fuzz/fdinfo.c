/*
 * ddeleted's parsers: /proc/PID/fdinfo/N (ds_fdinfo_parse), one line
 * of /proc/PID/maps (ds_map_parse, unterminated, exact length), and the
 * " (deleted)" suffix (ds_deleted_strip).
 */
#include <errno.h>
#include <inttypes.h>

#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strdup(data, size), *line = fuzz_memdup(data, size);
	struct ds_fdinfo fi;
	struct ds_map m;
	size_t len;
	int e;

	e = ds_fdinfo_parse(text, &fi);
	FUZZ_CHECK(e == 0 || e == -EINVAL);
	FUZZ_CHECK((e == 0) == (fi.have != 0));
	FUZZ_CHECK((fi.have & ~(DS_FDI_POS | DS_FDI_FLAGS | DS_FDI_MNT)) == 0);

	e = ds_map_parse(line, size, &m);
	FUZZ_CHECK(e == 0 || e == -EINVAL);
	if (e == 0) {
		FUZZ_CHECK(m.perms[4] == '\0');
		FUZZ_CHECK(m.path != NULL);
		if (m.path_len > 0)
			FUZZ_CHECK(m.path >= line &&
			    m.path + m.path_len <= line + size);
	}

	len = size;
	e = ds_deleted_strip(text, &len);
	FUZZ_CHECK(e == 0 || e == 1);
	if (e == 1)
		FUZZ_CHECK(len + 10 == size &&
		    memcmp(text + len, " (deleted)", 10) == 0);
	else
		FUZZ_CHECK(len == size);
	free(text);
	free(line);
	return 0;
}
