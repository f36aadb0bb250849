/*
 * A dwho run between its options and its scans: which processes it
 * reads (-p, -u, -c), how its rows are made and which columns they have,
 * whether delay accounting is on before each scan, and what a scan's
 * damage adds to the notes said on standard error.
 */
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

int
ds_whosel_regex(struct ds_whosel *s, const char *pattern, char *msg,
    size_t size)
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

int
ds_whosel_pids(struct ds_whosel *s, const char *list, struct ds_buf *msg)
{
	char bad[4096];
	int e = ds_pids_parse(list, &s->pl, bad, sizeof(bad));

	if (e == -EINVAL)
		return ds_buf_printf(msg, "-p %s: not a process id", bad) < 0 ?
		    -ENOMEM : -EINVAL;
	if (e == -ENODATA)
		return ds_buf_printf(msg, "-p: no process id given") < 0 ?
		    -ENOMEM : -EINVAL;
	return e;
}

void
ds_whosel_user(struct ds_whosel *s, const char *user)
{
	uint64_t v;

	s->user = user;
	s->have_uid = 0;
	/* A number is a uid, as ps -u has it, even when no name has it. */
	if (ds_is_number(user) && ds_strtou64(user, &v) == 0 &&
	    v <= UINT32_MAX) {
		s->have_uid = 1;
		s->uid = (uint32_t)v;
	}
}

int
ds_whosel_uid(struct ds_whosel *s, struct ds_users *u,
    const struct ds_root *r)
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
ds_whosel_any(const struct ds_whosel *s)
{
	return s->pl.n > 0 || s->user != NULL || s->re != NULL;
}

int
ds_whosel_keep(const struct ds_whosel *s, const struct ds_proc *p)
{
	char buf[80];
	size_t len;

	/* An unresolved name (no ds_whosel_uid) matches nobody. */
	if (s->user != NULL && (!s->have_uid || p->uid != s->uid))
		return 0;
	/* regexec wants a C string; comm and cmdline hold no NUL. */
	return s->re == NULL || regexec(s->re, ds_who_command(p, s->cmdline,
	    buf, sizeof(buf), &len), 0, NULL, 0) == 0;
}

void
ds_whosel_free(struct ds_whosel *s)
{
	if (s->re != NULL) {
		regfree(s->re);
		free(s->re);
	}
	ds_pids_free(&s->pl);
	memset(s, 0, sizeof(*s));
}

int
ds_whostream_delay(const struct ds_root *r, struct ds_whostream *st)
{
	struct ds_buf b = { 0 };
	int e = ds_delayacct_read(r, &b);

	ds_buf_free(&b);
	/* Before 5.14 there is no switch: accounting is taken to be on. */
	st->cfg.delay = e == -ENOENT ? 1 : e > 0;
	st->flags = st->cfg.delay ? st->flags | DS_WHO_DELAY :
	    st->flags & ~DS_WHO_DELAY;
	return st->cfg.delay;
}

void
ds_who_note_scan(struct ds_whonotes *n, const struct ds_procs *ps,
    int report)
{
	if (ps->bad > 0 && n->bad == 0) {
		n->bad = ps->bad;
		n->first_bad = ps->first_bad;
	}
	if (report && ps->unreadable > n->unreadable)
		n->unreadable = ps->unreadable;
}

void
ds_who_note_cgios(struct ds_whonotes *n, const struct ds_cgios *cs)
{
	if (cs->bad > 0 && n->bad == 0) {
		n->bad = cs->bad;
		n->bad_iostat = 1;
	}
}

unsigned int
ds_whostream_setup(struct ds_whostream *st, const struct ds_whosel *sel,
    unsigned int flags, int idle, int key, int key_set, uint64_t top, int prom)
{
	long tck = sysconf(_SC_CLK_TCK);
	int thread = (flags & DS_WHO_THREADS) != 0;
	int group = (flags & DS_WHO_CGROUP) != 0;

	/* -n alone: the heaviest block-layer users first. */
	if (top > 0 && !key_set) {
		key = DS_WV_TOTAL;
		key_set = 1;
	}
	st->flags = flags | (sel->cmdline ? DS_WHO_CMDLINE : 0);
	st->pids = sel->pl.pid;
	st->npids = sel->pl.n;
	st->cfg = (struct ds_whocfg){ tck > 0 ? tck : 100, 0, idle, key,
	    key_set || thread, top, sel->cmdline };
	/* prom per process or thread: counters since each started. */
	return (thread ? DS_WHOCOL_THREAD : 0) | (group ? DS_WHOCOL_GROUP : 0) |
	    (prom && !group ? DS_WHOCOL_COUNTERS : 0);
}
