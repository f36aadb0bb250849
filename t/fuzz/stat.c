/*
 * /proc/PID/stat: ds_stat_parse on raw bytes.  comm runs to the last
 * ')', so any byte may be in it; the result must be bounded and
 * terminated, and the fields after it must be the ones proc(5) numbers.
 */
#include <errno.h>

#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_memdup(data, size);
	const char *open, *close;
	struct ds_stat st;
	size_t i;
	int e;

	e = ds_stat_parse(text, size, &st);
	FUZZ_CHECK(e == 0 || e == -EINVAL);
	FUZZ_CHECK(st.comm_len < sizeof(st.comm));
	FUZZ_CHECK(st.comm[st.comm_len] == '\0');
	if (e == 0) {
		open = memchr(text, '(', size);
		FUZZ_CHECK(open != NULL);
		for (close = text + size - 1; *close != ')'; close--)
			FUZZ_CHECK(close > open);
		/* comm is the bytes between the first '(' and the last ')'. */
		i = (size_t)(close - open - 1);
		FUZZ_CHECK(st.comm_len == (i < sizeof(st.comm) - 1 ? i :
		    sizeof(st.comm) - 1));
		FUZZ_CHECK(memcmp(st.comm, open + 1, st.comm_len) == 0);
		FUZZ_CHECK(st.pid >= 0);
		FUZZ_CHECK(st.nfields >= 22);
		FUZZ_CHECK(!st.have_blkio || st.nfields >= 42);
		FUZZ_CHECK(st.state != '\0' && st.state != ' ' &&
		    st.state != '\t');
	} else {
		FUZZ_CHECK(!st.have_blkio);
	}
	free(text);
	return 0;
}
