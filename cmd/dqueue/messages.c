/*
 * What dqueue says: the attributes a listing could not read, why a
 * setting was refused or does not hold, and the last word of a set
 * that stopped.
 */
#include "util/util.h"
#include "dqueue.h"

/* Why attribute a of a listing has no value: e from ds_queue_attr_err. */
static const char *
unread(enum ds_qattr a, int e)
{
	if (e != -EINVAL)
		return strerror(-e);
	if (ds_qattr_numeric(a))
		return "not a number";
	return a == DS_QA_SCHEDULER ? "malformed scheduler line" :
	    "unexpected contents";
}

int
dq_say_problems(const struct ds_queue *q, const char *dev)
{
	int a, e, n = 0;

	/* queue/ first; missing (-ENOENT): a tree left it out. */
	if (q->qerr != 0 && q->qerr != -ENOENT) {
		warnx("%s: queue: %s", dev, strerror(-q->qerr));
		n++;
	}
	for (a = 0; a < DS_QA_N; a++)
		if ((e = ds_queue_attr_err(q, a)) != 0) {
			warnx("%s: %s: %s", dev, ds_qattr_name(a),
			    unread(a, e));
			n++;
		}
	return n;
}

int
dq_qfile_err(const struct ds_qfile *f)
{
	/*
	 * EINVAL (EOPNOTSUPP, ENODEV) on read: the kernel has no value to
	 * show; ENODATA: an empty file in a captured tree, likewise.
	 */
	if (f->err == -EINVAL || f->err == -EOPNOTSUPP || f->err == -ENODEV ||
	    f->err == -ENODATA)
		return 0;
	return f->err;
}

/* How a DS_QS_CHANGED setting came to differ. */
enum change {
	UNREAD,			/* it could not be read back: err */
	UNWRITTEN,		/* not written; the kernel changed it since */
	KEPT,			/* written; the kernel kept the old value */
	OTHER,			/* written; the kernel stored another value */
};

static enum change
change_of(const struct ds_qs_item *it)
{
	if (it->now[0] == '\0')
		return UNREAD;
	if (!it->written)
		return UNWRITTEN;
	if (ds_queue_value_eq(it->attr, it->old, it->now))
		return KEPT;
	return OTHER;
}

/*
 * The schedulers disk offers, joined by spaces into b ("" when unknown:
 * the line unreadable, or old, the scheduler before, damaged).
 */
static const char *
offered(const struct ds_root *r, const char *disk, const char *old,
    struct ds_buf *b)
{
	struct ds_sched s;

	if ((old != NULL && ds_sched_parse(old, &s) < 0) ||
	    ds_queue_sched_read(r, disk, b, &s) < 0)
		s.n = 0;
	if (ds_sched_join(&s, b) < 0)
		return "";
	return b->data;
}

static const char *
errstr(int e)
{
	return strerror(e < 0 ? -e : e);
}

/* Why a setting was refused before anything was written. */
static void
say_refusal(const struct ds_root *r, const char *disk, const char *dev,
    const struct ds_qs_item *it, struct ds_buf *b)
{
	switch (it->why) {
	case DS_QSV_NOATTR:
		warnx("%s: %s: no such attribute", dev, it->attr);
		break;
	case DS_QSV_READONLY:
		warnx("%s: %s: read-only attribute", dev, it->attr);
		break;
	case DS_QSV_SYNTAX:
		warnx("%s: %s: %s: not a value this attribute takes", dev,
		    it->attr, it->value);
		break;
	case DS_QSV_SCHED:
		warnx("%s: %s: %s: %s (available: %s)", dev, it->attr,
		    it->value, strerror(EINVAL), offered(r, disk, NULL, b));
		break;
	default:
		warnx("%s: %s: %s", dev, it->attr, errstr(it->err));
	}
}

/* Why a setting does not hold after the last write. */
static void
say_changed(const char *dev, const struct ds_qs_item *it)
{
	const char *a = it->attr;

	switch (change_of(it)) {
	case UNREAD:
		warnx("%s: %s: reading back: %s", dev, a, errstr(it->err));
		break;
	case UNWRITTEN:
		warnx("%s: %s: %s before, %s after the last write: the kernel "
		    "changed the value", dev, a, it->old, it->now);
		break;
	case KEPT:
		warnx("%s: %s: wrote %s, read back %s (was %s): the kernel "
		    "kept the old value", dev, a, it->value, it->now, it->old);
		break;
	default:
		warnx("%s: %s: wrote %s, read back %s (was %s): the kernel "
		    "changed the value", dev, a, it->value, it->now, it->old);
	}
}

int
dq_say_setting(const struct ds_root *r, const char *disk, const char *dev,
    const struct ds_qs_item *it, struct ds_buf *scratch)
{
	if (it == NULL)
		return 0;
	if (it->why != DS_QSV_OK)
		say_refusal(r, disk, dev, it, scratch);
	else if (it->state == DS_QS_FAILED && strcmp(it->attr,
	    "scheduler") == 0)
		warnx("%s: %s: %s: %s (available: %s)", dev, it->attr,
		    it->value, errstr(it->err), offered(r, disk, it->old,
		    scratch));
	else if (it->state == DS_QS_FAILED)
		warnx("%s: %s: %s: %s", dev, it->attr, it->value,
		    errstr(it->err));
	else if (it->state == DS_QS_CHANGED)
		say_changed(dev, it);
	else
		return 0;
	return 1;
}

/*
 * What the kernel now holds of the requests of the first ndisks disks:
 * "dev attr=value" for each setting set or rounded, with " (asked
 * value)" for one it stored otherwise, joined by ", "; NULL: ENOMEM.
 */
static char *
applied(const struct dq_targets *tg, size_t ndisks,
    const struct ds_qs_item *it, size_t n)
{
	const char *sep = "";
	char *s = NULL;
	size_t len = 0, i, k;
	FILE *f;

	if ((f = open_memstream(&s, &len)) == NULL)
		return NULL;
	for (i = 0; i < ndisks; i++)
		for (k = 0; k < n; k++) {
			const struct ds_qs_item *x = &it[i * n + k];
			int other = x->state == DS_QS_CHANGED &&
			    change_of(x) == OTHER;

			if (x->state != DS_QS_SET &&
			    x->state != DS_QS_ROUNDED && !other)
				continue;
			fprintf(f, "%s%s %s=%s", sep, tg->t[i].name, x->attr,
			    x->now);
			if (other)
				fprintf(f, " (asked %s)", x->value);
			sep = ", ";
		}
	if (fclose(f) != 0) {
		free(s);
		return NULL;
	}
	return s;
}

int
dq_say_summary(int outcome, const struct dq_targets *tg, size_t ndisks,
    const struct ds_qs_item *it, size_t n)
{
	int halted = (outcome & DQ_HALTED) != 0;
	char *list;

	if (!(outcome & DQ_STOPPED))
		return 0;
	if ((list = applied(tg, ndisks, it, n)) == NULL)
		return -ENOMEM;
	if (*list == '\0')
		warnx("%s; nothing was applied", halted ? "stopped" :
		    "not every setting holds");
	else
		warnx("%s: %s", halted ? "stopped after applying" :
		    "not every setting holds; applied", list);
	free(list);
	return 1;
}
