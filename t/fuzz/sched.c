/*
 * The scheduler line of sys/block/DEV/queue/scheduler (dqueue):
 * ds_sched_parse on a terminated copy.  What it accepts prints back
 * ("a [b] c") and parses to the same; names are bounded words.
 */
#include <errno.h>

#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strdup(data, size), line[DS_SCHED_MAX *
	    (DS_SCHED_NAME_MAX + 3) + 1];
	struct ds_sched s, again;
	size_t i, n = 0, active = 0;
	int e;

	/* A line with no names prints back as the empty line. */
	line[0] = '\0';
	e = ds_sched_parse(text, &s);
	FUZZ_CHECK(e == 0 || e == -EINVAL);
	if (e == 0) {
		FUZZ_CHECK(s.n <= DS_SCHED_MAX);
		FUZZ_CHECK(memchr(s.active, '\0', sizeof(s.active)) != NULL);
		for (i = 0; i < s.n; i++) {
			FUZZ_CHECK(memchr(s.name[i], '\0',
			    sizeof(s.name[i])) != NULL);
			FUZZ_CHECK(s.name[i][0] != '\0');
			FUZZ_CHECK(strpbrk(s.name[i], " \t\n\r[]") == NULL);
			if (strcmp(s.name[i], s.active) == 0)
				active++;
			n += (size_t)snprintf(line + n, sizeof(line) - n,
			    "%s%s%s%s", i > 0 ? " " : "",
			    strcmp(s.name[i], s.active) == 0 &&
			    active == 1 ? "[" : "", s.name[i],
			    strcmp(s.name[i], s.active) == 0 &&
			    active == 1 ? "]" : "");
		}
		FUZZ_CHECK((s.active[0] == '\0') == (active == 0));
		FUZZ_CHECK(ds_sched_parse(line, &again) == 0 || active > 1);
		if (active == 1) {
			FUZZ_CHECK(again.n == s.n);
			FUZZ_CHECK(strcmp(again.active, s.active) == 0);
			for (i = 0; i < s.n; i++)
				FUZZ_CHECK(strcmp(again.name[i],
				    s.name[i]) == 0);
		}
	}
	free(text);
	return 0;
}
