/*
 * mountinfo: ds_mountinfo_parse in place.  Every string of every mount
 * must lie inside the text (or be the empty literal) and be terminated
 * there; numbers must be what the line said.
 */
#include "fuzz.h"

static void
check_str(const char *s, const char *text, size_t size)
{
	if (s[0] == '\0')
		return;
	FUZZ_CHECK(fuzz_within(s, text, size));
	FUZZ_CHECK(memchr(s, '\0', (size_t)(text + size + 1 - s)) != NULL);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ds_mounts ms = { 0 };
	char *text = fuzz_strdup(data, size);
	size_t i, lines = 0;
	const struct ds_mount *m;
	const char *p;

	/* Lines as ds_next_line sees them: up to the first NUL. */
	for (p = text; *p != '\0'; ) {
		lines++;
		p = strchr(p, '\n');
		if (p == NULL)
			break;
		p++;
	}
	FUZZ_CHECK(ds_mountinfo_parse(text, &ms) == 0);
	FUZZ_CHECK(ms.n + ms.bad == lines);
	for (i = 0; i < ms.n; i++) {
		m = &ms.m[i];
		check_str(m->root, text, size);
		check_str(m->mnt, text, size);
		check_str(m->opts, text, size);
		check_str(m->fstype, text, size);
		check_str(m->source, text, size);
		check_str(m->super_opts, text, size);
		FUZZ_CHECK(m->opts[0] != '\0' && m->fstype[0] != '\0');
		FUZZ_CHECK(ds_mount_by_id(&ms, m->id) != NULL);
		FUZZ_CHECK(ds_mount_by_id(&ms, m->id)->id == m->id);
	}
	m = ds_mount_cgroup2(&ms);
	if (m != NULL)
		FUZZ_CHECK(strcmp(m->fstype, "cgroup2") == 0);
	ds_mounts_free(&ms);
	free(text);
	return 0;
}
