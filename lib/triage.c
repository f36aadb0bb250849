/*
 * The judgement of one window: pure functions from its figures to
 * finding rows; nothing here or in the tr*.c files reads a file.  The
 * rules are in trpsi.c (pressure, waiting tasks), trdev.c (devices),
 * trstall.c (stalls that are not a disk's), trproc.c (processes) and
 * trfs.c (filesystems); this file makes the rows, sorts them and puts
 * the verdict first.  Each rule's reason is in dtriage(1), FINDINGS,
 * and in a line beside its threshold's #define.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "triage.h"

#define THRASH_CAUSE	0.50	/* of the disks' reads: memory is the cause */

static const char *const sev_names[] = { "ok", "info", "warn", "crit" };

const char *
ds_tr_sev_name(enum ds_tr_sev s)
{
	return (unsigned)s < 4 ? sev_names[s] : NULL;
}

struct ds_finding *
ds_tr_add(struct ds_findings *out, enum ds_tr_sev sev, const char *finding,
    const char *subject, double value, const char *unit)
{
	struct ds_finding *f;

	if (ds_grow(&out->f, &out->cap, out->n + 1, sizeof(*out->f)) < 0)
		return NULL;
	f = &out->f[out->n++];
	memset(f, 0, sizeof(*f));
	f->sev = sev;
	f->finding = finding;
	snprintf(f->subject, sizeof(f->subject), "%s", subject);
	f->value = value;
	f->unit = unit;
	if (sev > out->worst)
		out->worst = sev;
	return f;
}

void
ds_tr_say(char *dst, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(dst, size, fmt, ap);
	va_end(ap);
}

void
ds_tr_more(char *dst, size_t size, const char *fmt, ...)
{
	size_t l = strlen(dst);
	va_list ap;

	if (l + 1 >= size)
		return;
	va_start(ap, fmt);
	vsnprintf(dst + l, size - l, fmt, ap);
	va_end(ap);
}

/* Bytes for a person: "40.0 MiB". */
const char *
ds_tr_human(char *b, size_t size, double v)
{
	const char *u;

	v = ds_human_scale(v, &u);
	snprintf(b, size, u[0] == 'B' ? "%.0f %s" : "%.1f %s", v, u);
	return b;
}

/* The descriptors read of pid, or NULL. */
const struct ds_tr_fds *
ds_tr_fds_of(const struct ds_triage_in *in, int pid)
{
	size_t i;

	for (i = 0; i < in->nfds; i++)
		if (in->fds[i].pid == pid)
			return &in->fds[i];
	return NULL;
}

const struct ds_tr_proc *
ds_tr_proc_of(const struct ds_triage_in *in, int pid)
{
	size_t i;

	for (i = 0; i < in->nproc; i++)
		if (in->proc[i].pid == pid)
			return &in->proc[i];
	return NULL;
}

static const struct ds_finding *
first_of(const struct ds_findings *fs, const char *finding)
{
	size_t i;

	for (i = 0; i < fs->n; i++)
		if (strcmp(fs->f[i].finding, finding) == 0)
			return &fs->f[i];
	return NULL;
}

static const struct ds_finding *
worst_dev(const struct ds_findings *fs)
{
	const struct ds_finding *f;
	size_t i;

	for (i = 0; i < DS_TR_NDEV; i++)
		if ((f = first_of(fs, ds_tr_dev_order[i])) != NULL)
			return f;
	return NULL;
}

/* The load row of d's device (traced, "on DEV: ..."), else the first. */
static const struct ds_finding *
load_of(const struct ds_findings *fs, const struct ds_finding *d)
{
	size_t i, n = d != NULL ? strlen(d->subject) : 0;

	for (i = 0; d != NULL && i < fs->n; i++)
		if (strcmp(fs->f[i].finding, "load") == 0 &&
		    strncmp(fs->f[i].evidence, "on ", 3) == 0 &&
		    strncmp(fs->f[i].evidence + 3, d->subject, n) == 0 &&
		    fs->f[i].evidence[3 + n] == ':')
			return &fs->f[i];
	return first_of(fs, "load");
}

/* What a device finding says of its device, for the verdict. */
const char *
ds_tr_state_phrase(const char *finding)
{
	static const char *const ph[][2] = {
		{ "plateau", "at a throughput ceiling (a provisioned cap?)" },
		{ "slow", "slower than at quiet times" },
		{ "at-limit", "at its request limit" },
		{ "queue-long", "queued, with its parallelism unknown" },
		{ "busy", "busy" },
	};
	size_t i;

	for (i = 0; i < nitems(ph); i++)
		if (strcmp(ph[i][0], finding) == 0)
			return ph[i][1];
	return finding;
}

/* A memory-thrash row whose refaults are most of the disks' reads. */
static const struct ds_finding *
thrash_cause(const struct ds_triage_in *in, const struct ds_findings *fs)
{
	double reads = ds_tr_disk_reads(in);
	size_t i;

	for (i = 0; i < fs->n; i++)
		if (strcmp(fs->f[i].finding, "memory-thrash") == 0 &&
		    reads > 0 && fs->f[i].value >= THRASH_CAUSE * reads)
			return &fs->f[i];
	return NULL;
}

/*
 * The verdict's cause, from the rows already made, into e, and the row
 * it rests on (its subject and next are the verdict's), or NULL.  A
 * cause that is not a disk's comes before the disk's state d: a
 * failing disk, memory that makes the reads, a cgroup's own limit, the
 * dirty limit, a network mount, io_uring's idle waits.
 */
static const struct ds_finding *
verdict_cause(const struct ds_triage_in *in, const struct ds_findings *fs,
    const struct ds_finding *d, char *e, size_t size)
{
	const struct ds_finding *c;

	if ((c = first_of(fs, "io-errors")) != NULL)
		ds_tr_say(e, size, "the disk is the problem: %s is failing "
		    "(%.0f I/O %s in the window)", c->subject, c->value,
		    c->value == 1 ? "error" : "errors");
	else if ((c = thrash_cause(in, fs)) != NULL)
		ds_tr_say(e, size, "memory is the cause: cgroup %s thrashes at "
		    "its memory limit and its refaults are the disks' reads; "
		    "%s is the symptom", c->subject, d != NULL ? d->subject :
		    "the disk");
	else if (d != NULL && strcmp(d->finding, "saturated") == 0) {
		c = d;
		ds_tr_say(e, size,
		    "the disk is the problem: %s is saturated %s", d->subject,
		    strncmp(d->evidence, "by latency", 10) == 0 ?
		    "(latency and queue well above its quiet time)" :
		    "at its request limit (requests wait for a slot)");
	} else if ((c = first_of(fs, "cgroup-limit")) != NULL &&
	    c->sev >= DS_TR_WARN)
		ds_tr_say(e, size, "not the disk: tasks of cgroup %s are held "
		    "by their own I/O limit (%.*s)", c->subject,
		    (int)strcspn(strstr(c->evidence, " on ") + 1, ";"),
		    strstr(c->evidence, " on ") + 1);
	else if ((c = first_of(fs, "dirty-throttled")) != NULL)
		ds_tr_say(e, size, "writers are held by the dirty-page limit: "
		    "%s dirties faster than %s writes back", c->subject,
		    d != NULL ? d->subject : "the disk");
	else if ((c = first_of(fs, "memory-thrash")) != NULL &&
	    c->sev >= DS_TR_WARN)
		ds_tr_say(e, size, "memory: cgroup %s thrashes at its memory "
		    "limit; its refaults are part of the disks' reads",
		    c->subject);
	else if (d != NULL && strcmp(d->finding, "sync-writes") == 0) {
		c = d;
		ds_tr_say(e, size, "the disk is healthy: writes to %s follow "
		    "an application commit pattern (small synchronous writes); "
		    "batch them", d->subject);
	} else if ((c = first_of(fs, "netfs-wait")) != NULL)
		ds_tr_say(e, size, "not a local disk: tasks stall on I/O of "
		    "the mount %s", c->subject);
	else if (ds_tr_uring_only_in(in) && (c = first_of(fs,
	    "io-uring-wait")) != NULL)
		ds_tr_say(e, size, "no disk holds anything up: the I/O "
		    "pressure (some %.1f%%) is io_uring waiting with no block "
		    "I/O in flight (%s)", in->io.have ? in->io.some : 0,
		    c->subject);
	else if (d != NULL && held_up(in)) {
		c = d;
		ds_tr_say(e, size, "I/O holds tasks up%s; %s is %s, not shown "
		    "to be saturated", in->io.have ? "" : " (PSI unknown)",
		    d->subject, ds_tr_state_phrase(d->finding));
	} else if (in->io.have && held_up(in))
		ds_tr_say(e, size, "tasks stall on I/O (some %.1f%%) with no "
		    "device busy: look at the sufferers and at memory",
		    in->io.some);
	else if (d != NULL) {
		c = d;
		ds_tr_say(e, size, "the disk is not the problem: %s is %s but "
		    "nothing waits on it (io some %.1f%%)", d->subject,
		    ds_tr_state_phrase(d->finding), in->io.some);
	} else
		ds_tr_say(e, size, "the disk holds nothing up%s", in->io.have ?
		    "" : " that the figures show (PSI unknown)");
	return c;
}

/*
 * The sentence of the verdict row: its cause (the worst device's state
 * when nothing else is), then who loads and who waits, and the
 * filesystems that are full or held.
 */
static const struct ds_finding *
verdict_text(const struct ds_triage_in *in, const struct ds_findings *fs,
    char *e, size_t size)
{
	const struct ds_finding *d = worst_dev(fs), *c, *l, *s, *f;

	c = verdict_cause(in, fs, d, e, size);
	if ((l = load_of(fs, d)) != NULL)
		ds_tr_more(e, size, "; load: %s", l->subject);
	if ((s = first_of(fs, "sufferer")) != NULL)
		ds_tr_more(e, size, "; waiting: %s", s->subject);
	if ((f = first_of(fs, "fs-full")) != NULL)
		ds_tr_more(e, size, "; %s %.0f%% full", f->subject,
		    f->value * 100);
	if ((f = first_of(fs, "deleted-held")) != NULL)
		ds_tr_more(e, size, "; %s held by deleted files on %s",
		    HUMAN(f->value), f->subject);
	return c;
}

static int
cmp_rows(const void *a, const void *b)
{
	const struct ds_finding *x = a, *y = b;

	if (x->sev != y->sev)
		return x->sev > y->sev ? -1 : 1;
	/* The rule order, kept in the evidence of a stable sort below. */
	return 0;
}

/* Stable: insertion sort by severity (a few dozen rows). */
static void
sort_rows(struct ds_findings *fs, size_t from)
{
	struct ds_finding t;
	size_t i, k;

	for (i = from + 1; i < fs->n; i++) {
		t = fs->f[i];
		for (k = i; k > from && cmp_rows(&fs->f[k - 1], &t) > 0; k--)
			fs->f[k] = fs->f[k - 1];
		fs->f[k] = t;
	}
}

static int
verdict(const struct ds_triage_in *in, struct ds_findings *out)
{
	struct ds_finding v, *f;
	const struct ds_finding *d, *c;
	size_t i;

	sort_rows(out, 0);
	memset(&v, 0, sizeof(v));
	v.sev = out->worst;
	v.finding = "verdict";
	v.value = in->io.have ? in->io.some / 100 : NAN;
	v.unit = "ratio";
	c = verdict_text(in, out, v.evidence, sizeof(v.evidence));
	d = c != NULL ? c : worst_dev(out);
	snprintf(v.subject, sizeof(v.subject), "%s", d != NULL &&
	    d->sev >= DS_TR_WARN ? d->subject : "-");
	/* The cause's command: it says most. */
	snprintf(v.next, sizeof(v.next), "%s", d != NULL && (d->sev == v.sev ||
	    (c != NULL && c->sev >= DS_TR_WARN)) ? d->next :
	    v.sev >= DS_TR_WARN && out->n > 0 ? out->f[0].next :
	    "dpsi -r io 10 1");
	if (ds_tr_add(out, v.sev, "verdict", "-", 0, "ratio") == NULL)
		return -ENOMEM;
	for (i = out->n - 1; i > 0; i--)
		out->f[i] = out->f[i - 1];
	f = &out->f[0];
	*f = v;
	return 0;
}

int
ds_triage(const struct ds_triage_in *in, struct ds_findings *out)
{
	struct stalls st;
	int e;

	out->n = 0;
	out->worst = DS_TR_OK;
	ds_tr_stalls_sum(in, &st);
	if ((e = ds_tr_psi_rows(in, out)) < 0 ||
	    (e = ds_tr_dev_rows(in, out)) < 0 ||
	    (e = ds_tr_err_rows(in, out)) < 0 ||
	    (e = ds_tr_cglimit_rows(in, out)) < 0 ||
	    (e = ds_tr_thrash_rows(in, out)) < 0 ||
	    (e = ds_tr_dirty_row(in, &st, out)) < 0 ||
	    (e = ds_tr_netfs_row(in, &st, out)) < 0 ||
	    (e = ds_tr_uring_row(in, &st, out)) < 0 ||
	    (e = ds_tr_load_rows(in, out)) < 0 ||
	    (e = ds_tr_suffer_rows(in, out)) < 0 ||
	    (e = ds_tr_cache_rows(in, out)) < 0 ||
	    (e = ds_tr_task_rows(in, out)) < 0 ||
	    (e = ds_tr_fs_rows(in, out)) < 0 || (e = verdict(in, out)) < 0)
		return e;
	return 0;
}

int
ds_triage_exit(const struct ds_findings *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (f->f[i].sev >= DS_TR_WARN)
			return 3;
	return 0;
}

void
ds_findings_free(struct ds_findings *f)
{
	free(f->f);
	memset(f, 0, sizeof(*f));
}
