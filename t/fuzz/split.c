/* ds_split and ds_next_line against a straightforward reference. */
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_strdup(data, size), *ref = fuzz_strdup(data, size);
	char *f[8], *cur, *line;
	size_t n, i, want, max;
	const char *p;

	/* Fields: runs of bytes that are not blank, up to NUL or newline. */
	want = 0;
	for (p = ref; *p != '\0' && *p != '\n'; ) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0' || *p == '\n')
			break;
		want++;
		while (*p != '\0' && *p != '\n' && *p != ' ' && *p != '\t')
			p++;
	}
	max = size > 0 ? data[0] % 9 : 8;
	n = ds_split(s, f, max);
	FUZZ_CHECK(n == want);
	for (i = 0; i < n && i < max; i++) {
		FUZZ_CHECK(fuzz_within(f[i], s, size));
		FUZZ_CHECK(f[i][0] != '\0');
		FUZZ_CHECK(strpbrk(f[i], " \t\n") == NULL);
		/* The field is the same bytes at the same place. */
		FUZZ_CHECK(memcmp(f[i], ref + (f[i] - s), strlen(f[i])) == 0);
	}

	/* ds_next_line: lines joined with '\n' give the text back. */
	memcpy(s, ref, size + 1);
	cur = s;
	p = ref;
	while ((line = ds_next_line(&cur)) != NULL) {
		FUZZ_CHECK(line == s + (p - ref));
		FUZZ_CHECK(strchr(line, '\n') == NULL);
		FUZZ_CHECK(strncmp(line, p, strlen(line)) == 0);
		p += strlen(line);
		FUZZ_CHECK(*p == '\n' || *p == '\0');
		if (*p == '\n')
			p++;
	}
	FUZZ_CHECK(*p == '\0');
	free(s);
	free(ref);
	return 0;
}
