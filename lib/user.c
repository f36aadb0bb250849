/*
 * User names without NSS: the tree's etc/passwd, read once.  Works the
 * same in a static binary and on a captured tree; a uid with no entry
 * (an LDAP user, say) is shown as its number.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static int
load(struct ds_users *u, const struct ds_root *r)
{
	struct ds_buf b = { 0 };
	char *cur, *line, *f[4], *colon;
	size_t i;
	uint64_t v;
	int e;

	u->loaded = 1;
	if ((e = ds_read_file(r, "etc/passwd", &b)) < 0) {
		ds_buf_free(&b);
		return e;
	}
	cur = b.data;
	while ((line = ds_next_line(&cur)) != NULL) {
		/* name:passwd:uid:... */
		for (i = 0; i < 3; i++) {
			f[i] = line;
			colon = strchr(line, ':');
			if (colon == NULL)
				break;
			*colon = '\0';
			line = colon + 1;
		}
		if (i < 3 || ds_strtou64(f[2], &v) < 0 || v > UINT32_MAX ||
		    f[0][0] == '\0')
			continue;
		if (ds_grow(&u->u, &u->cap, u->n + 1, sizeof(*u->u)) < 0)
			break;
		u->u[u->n].uid = (uint32_t)v;
		if ((u->u[u->n].name = strdup(f[0])) == NULL)
			break;
		u->n++;
	}
	ds_buf_free(&b);
	return 0;
}

const char *
ds_user_name(struct ds_users *u, const struct ds_root *r, uint32_t uid)
{
	size_t i;

	if (!u->loaded)
		(void)load(u, r);
	for (i = 0; i < u->n; i++)
		if (u->u[i].uid == uid)
			return u->u[i].name;
	snprintf(u->num, sizeof(u->num), "%u", uid);
	return u->num;
}

int
ds_user_uid(struct ds_users *u, const struct ds_root *r, const char *name,
    uint32_t *uid)
{
	size_t i;

	if (!u->loaded)
		(void)load(u, r);
	for (i = 0; i < u->n; i++)
		if (strcmp(u->u[i].name, name) == 0) {
			*uid = u->u[i].uid;
			return 0;
		}
	return -ENOENT;
}

void
ds_users_free(struct ds_users *u)
{
	size_t i;

	for (i = 0; i < u->n; i++)
		free(u->u[i].name);
	free(u->u);
	memset(u, 0, sizeof(*u));
}
