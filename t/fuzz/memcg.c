/*
 * The memory cgroup files (lib/memcg.c) on terminated copies: a limit's
 * value (memory.max, memory.limit_in_bytes), memory.stat's refaults (v2
 * and v1's total_ keys) and memory.events.  A value is kept only when
 * it parsed, and only under its bit; a limit is below 2^62 or none.
 */
#include <errno.h>
#include <inttypes.h>

#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strdup(data, size);
	struct ds_memcg m;
	uint64_t v = 42;
	int e, v1;

	e = ds_memlimit_parse(text, &v);
	FUZZ_CHECK(e == 0 || e == -EINVAL);
	if (e < 0)
		FUZZ_CHECK(v == 42);
	else
		FUZZ_CHECK(v < (1ull << 62) || v == UINT64_MAX);

	for (v1 = 0; v1 <= 1; v1++) {
		memset(&m, 0, sizeof(m));
		e = ds_memstat_parse(text, v1, &m);
		FUZZ_CHECK(e == 0 || e == -EINVAL);
		FUZZ_CHECK((m.have_refault & ~3) == 0);
		if (!(m.have_refault & DS_REFAULT_FILE))
			FUZZ_CHECK(m.refault_file == 0);
		if (!(m.have_refault & DS_REFAULT_ANON))
			FUZZ_CHECK(m.refault_anon == 0);
	}

	memset(&m, 0, sizeof(m));
	e = ds_memevents_parse(text, &m);
	FUZZ_CHECK(e == 0 || e == -EINVAL);
	FUZZ_CHECK((m.have_events & ~15) == 0);
	FUZZ_CHECK((m.have_events & DS_MEMEV_MAX) || m.ev_max == 0);
	FUZZ_CHECK((m.have_events & DS_MEMEV_OOM) || m.ev_oom == 0);
	FUZZ_CHECK((m.have_events & DS_MEMEV_HIGH) || m.ev_high == 0);
	FUZZ_CHECK((m.have_events & DS_MEMEV_OOM_KILL) || m.ev_oom_kill == 0);
	free(text);
	return 0;
}
