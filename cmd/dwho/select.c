/*
 * The processes a run reads: -p's pids, -u's user, -c's regular
 * expression, tested after a process's stat (and cmdline) is read,
 * before the rest of its files.
 */
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dwho/dwho.h"

int
whosel_regex(struct whosel *s, const char *pattern, char *msg, size_t size)
{
	regex_t *re;
	int e;

	if (s->re != NULL) {
		regfree(s->re);
		free(s->re);
		s->re = NULL;
	}
	if ((re = malloc(sizeof(*re))) == NULL) {
		if (size > 0)
			snprintf(msg, size, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	if ((e = regcomp(re, pattern, REG_EXTENDED | REG_NOSUB)) != 0) {
		regerror(e, re, msg, size);
		free(re);
		return e == REG_ESPACE ? -ENOMEM : -EINVAL;
	}
	s->re = re;
	return 0;
}

void
whosel_user(struct whosel *s, const char *user)
{
	unsigned long long v;

	s->user = user;
	s->have_uid = 0;
	/*
	 * A number is a uid, as ps -u has it, even when no name has it.
	 * Digits alone: strtoull's one failure, overflow, is past any uid.
	 */
	if (user[0] != '\0' && user[strspn(user, "0123456789")] == '\0' &&
	    (v = strtoull(user, NULL, 10)) <= UINT32_MAX) {
		s->have_uid = 1;
		s->uid = (uint32_t)v;
	}
}

int
whosel_uid(struct whosel *s, struct ds_users *u, const struct ds_root *r)
{
	int e;

	if (s->user == NULL || s->have_uid)
		return 0;
	if ((e = ds_user_uid(u, r, s->user, &s->uid)) < 0)
		return e;
	s->have_uid = 1;
	return 0;
}

int
whosel_any(const struct whosel *s)
{
	return s->pl.n > 0 || s->user != NULL || s->re != NULL;
}

int
whosel_keep(const struct whosel *s, const struct ds_proc *p)
{
	char buf[80];
	size_t len;

	/* An unresolved name (no whosel_uid) matches nobody. */
	if (s->user != NULL && (!s->have_uid || p->uid != s->uid))
		return 0;
	/* regexec wants a C string; comm and cmdline hold no NUL. */
	return s->re == NULL || regexec(s->re, who_command(p, s->cmdline,
	    buf, sizeof(buf), &len), 0, NULL, 0) == 0;
}

void
whosel_free(struct whosel *s)
{
	if (s->re != NULL) {
		regfree(s->re);
		free(s->re);
	}
	ds_pids_free(&s->pl);
	memset(s, 0, sizeof(*s));
}
