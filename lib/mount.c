/*
 * The mount table, from /proc/PID/mountinfo (proc(5)):
 *   36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue
 * Fields 5 and 4 (mount point, root) and the source escape space, tab,
 * newline and backslash as \040 \011 \012 \134.  Optional fields end
 * at a lone "-".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Undo the kernel's octal escapes in place. */
static void
unescape(char *s)
{
	char *w = s;

	for (; *s != '\0'; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 |
			    (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

/* Parse one line in place. */
static int
ds_mountinfo_parse_line(char *line, struct ds_mount *m)
{
	char *f[64];
	size_t n, dash;
	uint64_t v;
	char *colon;

	n = ds_split(line, f, nitems(f));
	if (n < 9 || n > nitems(f))
		return -EINVAL;
	for (dash = 6; dash < n && strcmp(f[dash], "-") != 0; dash++)
		;
	if (dash + 3 > n)
		return -EINVAL;
	if (ds_strtou64(f[0], &v) < 0 || v > UINT32_MAX)
		return -EINVAL;
	m->id = (unsigned int)v;
	if (ds_strtou64(f[1], &v) < 0 || v > UINT32_MAX)
		return -EINVAL;
	m->parent = (unsigned int)v;
	colon = strchr(f[2], ':');
	if (colon == NULL)
		return -EINVAL;
	*colon = '\0';
	if (ds_strtou64(f[2], &v) < 0 || v > UINT32_MAX)
		return -EINVAL;
	m->major = (unsigned int)v;
	if (ds_strtou64(colon + 1, &v) < 0 || v > UINT32_MAX)
		return -EINVAL;
	m->minor = (unsigned int)v;
	m->root = f[3];
	m->mnt = f[4];
	m->opts = f[5];
	m->fstype = f[dash + 1];
	/*
	 * The kernel always prints the superblock options ("rw" at least),
	 * so two fields after the dash mean an empty source ("mount -t
	 * tmpfs '' /x" shows as "- tmpfs  rw"): the blanks were merged.
	 */
	if (dash + 3 == n) {
		m->source = "";
		m->super_opts = f[dash + 2];
	} else {
		m->source = f[dash + 2];
		m->super_opts = f[dash + 3];
		unescape(m->source);
	}
	unescape(m->root);
	unescape(m->mnt);
	return 0;
}

int
ds_mountinfo_parse(char *text, struct ds_mounts *out)
{
	char *cur = text, *line;
	struct ds_mount m;

	out->n = 0;
	out->bad = 0;
	while ((line = ds_next_line(&cur)) != NULL) {
		if (ds_mountinfo_parse_line(line, &m) < 0) {
			out->bad++;
			continue;
		}
		if (ds_grow(&out->m, &out->cap, out->n + 1,
		    sizeof(*out->m)) < 0)
			return -ENOMEM;
		out->m[out->n++] = m;
	}
	return 0;
}

int
ds_mountinfo_read(const struct ds_root *r, const char *rel,
    struct ds_mounts *out)
{
	int e;

	if ((e = ds_read_file(r, rel, &out->text)) < 0)
		return e;
	return ds_mountinfo_parse(out->text.data, out);
}

void
ds_mounts_free(struct ds_mounts *ms)
{
	free(ms->m);
	ds_buf_free(&ms->text);
	ms->m = NULL;
	ms->n = ms->cap = 0;
}

const struct ds_mount *
ds_mount_by_id(const struct ds_mounts *ms, unsigned int id)
{
	size_t i;

	for (i = 0; i < ms->n; i++)
		if (ms->m[i].id == id)
			return &ms->m[i];
	return NULL;
}

const struct ds_mount *
ds_mount_cgroup2(const struct ds_mounts *ms)
{
	size_t i;

	/*
	 * Unified hosts mount it at /sys/fs/cgroup, hybrid ones at
	 * /sys/fs/cgroup/unified; the first cgroup2 mount whose root is the
	 * hierarchy's root is the one to walk (later ones may be bind
	 * mounts of a subtree, as inside containers).
	 */
	for (i = 0; i < ms->n; i++)
		if (strcmp(ms->m[i].fstype, "cgroup2") == 0 &&
		    strcmp(ms->m[i].root, "/") == 0)
			return &ms->m[i];
	for (i = 0; i < ms->n; i++)
		if (strcmp(ms->m[i].fstype, "cgroup2") == 0)
			return &ms->m[i];
	return NULL;
}

const struct ds_mount *
ds_mount_by_dev(const struct ds_mounts *ms, unsigned int major,
    unsigned int minor)
{
	const struct ds_mount *m = NULL;
	size_t i;

	/*
	 * A filesystem mounted more than once (bind mounts, a btrfs
	 * subvolume): the mount of its root names it best.
	 */
	for (i = 0; i < ms->n; i++)
		if (ms->m[i].major == major && ms->m[i].minor == minor &&
		    (m == NULL || strcmp(ms->m[i].root, "/") == 0))
			m = &ms->m[i];
	return m;
}

/*
 * A mount read in another mount namespace, as the host sees it: the
 * host's mount of the same device and root, else of that device's root
 * "/", else its first.
 */
const struct ds_mount *
ds_mount_host_view(const struct ds_mounts *host, const struct ds_mount *m)
{
	const struct ds_mount *any = NULL, *top = NULL;
	size_t i;

	for (i = 0; i < host->n; i++) {
		const struct ds_mount *h = &host->m[i];

		if (h->major != m->major || h->minor != m->minor)
			continue;
		if (strcmp(h->root, m->root) == 0)
			return h;
		if (top == NULL && strcmp(h->root, "/") == 0)
			top = h;
		if (any == NULL)
			any = h;
	}
	return top != NULL ? top : any;
}
