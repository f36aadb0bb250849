/*
 * Pressure stall information: /proc/pressure/{cpu,io,memory,irq} and a
 * cgroup's {cpu,io,memory,irq}.pressure, one line per kind:
 *   some avg10=0.18 avg60=0.34 avg300=0.10 total=159886802
 *   full avg10=0.18 avg60=0.34 avg300=0.10 total=159229614
 * The averages are percentages with two decimals; total is the
 * cumulative stall in microseconds (Documentation/accounting/psi.rst).
 * cpu has no "full" line before 5.13; irq (6.1+, with
 * CONFIG_IRQ_TIME_ACCOUNTING) has only "full".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>

#include "internal.h"

#define PROC_MAGIC	0x9fa0
#define CGROUP2_MAGIC	0x63677270

static const char *const res_names[DS_PSI_NRES] = {
	"cpu", "io", "memory", "irq"
};
static const char *const kind_names[DS_PSI_NKINDS] = { "some", "full" };
static const char *const psi_keys[] = { "avg10=", "avg60=", "avg300=",
    "total=" };

const char *
ds_psi_res_name(enum ds_psi_res res)
{
	return (unsigned)res < DS_PSI_NRES ? res_names[res] : NULL;
}

const char *
ds_psi_kind_name(enum ds_psi_kind kind)
{
	return (unsigned)kind < DS_PSI_NKINDS ? kind_names[kind] : NULL;
}

static int
name_index(const char *const *names, int n, const char *s, size_t len)
{
	int i;

	for (i = 0; i < n; i++)
		if (strlen(names[i]) == len && memcmp(names[i], s, len) == 0)
			return i;
	return -EINVAL;
}

int
ds_psi_res_parse(const char *s, size_t len)
{
	return name_index(res_names, DS_PSI_NRES, s, len);
}

int
ds_psi_res_list(const char *arg, enum ds_psi_res *order, size_t *n,
    const char **bad, size_t *badlen)
{
	const char *c;
	unsigned int seen = 0;
	size_t len;
	int v;

	*n = 0;
	for (;;) {
		c = strchr(arg, ',');
		len = c != NULL ? (size_t)(c - arg) : strlen(arg);
		if ((v = ds_psi_res_parse(arg, len)) < 0) {
			*bad = arg;
			*badlen = len;
			return -EINVAL;
		}
		/* A resource named twice has one place, its first. */
		if (!(seen & (1u << v))) {
			seen |= 1u << v;
			order[(*n)++] = (enum ds_psi_res)v;
		}
		if (c == NULL)
			return 0;
		arg = c + 1;
	}
}

static int
ds_psi_kind_parse(const char *s, size_t len)
{
	return name_index(kind_names, DS_PSI_NKINDS, s, len);
}

/* A line refused: why, and the key it is about (ds_psi_bad_msg). */
static int
refuse(struct ds_psi_bad *why, enum ds_psi_why_kind w, int key)
{
	if (why != NULL) {
		why->why = (unsigned char)w;
		why->key = (unsigned char)key;
	}
	return -EINVAL;
}

int
ds_psi_parse_line(char *line, enum ds_psi_kind *kind, struct ds_psi_line *l,
    struct ds_psi_bad *why)
{
	char *f[16];
	const char *end;
	unsigned int seen = 0;
	size_t n, i, j;
	uint64_t v;
	int k;

	n = ds_split(line, f, nitems(f));
	if (n > nitems(f))
		return refuse(why, DS_PSI_WHY_FIELDS, 0);
	/* A line cut short is refused at the first key it lacks. */
	if (n == 0 || (k = ds_psi_kind_parse(f[0], strlen(f[0]))) < 0)
		return refuse(why, DS_PSI_WHY_KIND, 0);
	memset(l, 0, sizeof(*l));
	/*
	 * Keys in any order; a key a later kernel adds is skipped, but each
	 * of the four must be there once: no value is ever assumed.
	 */
	for (i = 1; i < n; i++) {
		for (j = 0; j < 4; j++)
			if (strncmp(f[i], psi_keys[j], strlen(psi_keys[j])) == 0)
				break;
		if (j == 4)
			continue;
		if (seen & (1u << j))
			return refuse(why, DS_PSI_WHY_TWICE, (int)j);
		if (j < 3) {
			/*
			 * "%lu.%02lu" percent: kept as hundredths, exactly.  A
			 * third decimal (avg10=1.109) is not the kernel's
			 * format and could not be kept: the line is refused
			 * rather than shown cut to 1.10.
			 */
			const char *dot = strchr(f[i] + strlen(psi_keys[j]), '.');

			if (dot != NULL && strlen(dot + 1) > 2)
				return refuse(why, DS_PSI_WHY_DECIMALS, (int)j);
			if (ds_parse_fixed(f[i] + strlen(psi_keys[j]), &end, 2,
			    &v) < 0 || *end != '\0' || v > 10000)
				return refuse(why, DS_PSI_WHY_PERCENT, (int)j);
			l->avg[j] = v;
		} else {
			if (ds_parse_u64(f[i] + strlen(psi_keys[j]), &end,
			    &v) < 0 || *end != '\0')
				return refuse(why, DS_PSI_WHY_COUNT, (int)j);
			l->total = v;
		}
		seen |= 1u << j;
	}
	for (j = 0; j < 4; j++)
		if (!(seen & (1u << j)))
			return refuse(why, DS_PSI_WHY_MISSING, (int)j);
	*kind = (enum ds_psi_kind)k;
	return 0;
}

int
ds_psi_bad_msg(const struct ds_psi_bad *bad, struct ds_buf *msg)
{
	/* The key without its '='. */
	const char *key = bad->key < 4 ? psi_keys[bad->key] : "?=";
	int kl = (int)strlen(key) - 1;

	if (bad->n == 0)
		return ds_buf_fail(msg, 0);
	switch (bad->why) {
	case DS_PSI_WHY_FIELDS:
		return ds_buf_printf(msg, "more than sixteen fields");
	case DS_PSI_WHY_KIND:
		return ds_buf_printf(msg, "not a some or full line");
	case DS_PSI_WHY_REPEAT:
		return ds_buf_printf(msg, "a second line of its kind");
	case DS_PSI_WHY_TWICE:
		return ds_buf_printf(msg, "%.*s twice", kl, key);
	case DS_PSI_WHY_DECIMALS:
		return ds_buf_printf(msg, "%.*s has more decimals than the "
		    "kernel prints", kl, key);
	case DS_PSI_WHY_PERCENT:
		return ds_buf_printf(msg, "%.*s is not a percentage from 0.00 "
		    "to 100.00", kl, key);
	case DS_PSI_WHY_COUNT:
		return ds_buf_printf(msg, "%.*s is not a count of "
		    "microseconds", kl, key);
	case DS_PSI_WHY_MISSING:
		return ds_buf_printf(msg, "no %.*s", kl, key);
	}
	return ds_buf_printf(msg, "malformed");
}

int
ds_psi_parse(char *text, struct ds_psi *p)
{
	struct ds_psi_line l;
	struct ds_psi_bad why;
	enum ds_psi_kind k;
	char *cur = text, *line;
	size_t lineno = 0;
	int e;

	memset(p, 0, sizeof(*p));
	while ((line = ds_next_line(&cur)) != NULL) {
		lineno++;
		e = ds_psi_parse_line(line, &k, &l, &why);
		if (e == 0 && (p->have & (1u << k)))
			e = refuse(&why, DS_PSI_WHY_REPEAT, 0);
		if (e < 0) {
			if (p->bad.n++ == 0) {
				p->bad.first = lineno;
				p->bad.why = why.why;
				p->bad.key = why.key;
			}
			continue;
		}
		p->line[k] = l;
		p->have |= 1u << k;
	}
	/* An empty file or only damaged lines: nothing to report. */
	return p->have != 0 ? 0 : -EINVAL;
}

static int
ds_psi_read_fd(int fd, struct ds_buf *scratch, struct ds_psi *p)
{
	int e;

	memset(p, 0, sizeof(*p));
	if ((e = ds_read_fd(fd, scratch)) < 0)
		return e;
	return ds_psi_parse(scratch->data, p);
}

int
ds_psi_read(const struct ds_root *r, const char *rel, struct ds_buf *scratch,
    struct ds_psi *p)
{
	int fd, e;

	memset(p, 0, sizeof(*p));
	if ((fd = ds_openat(r, rel, O_RDONLY | O_NONBLOCK)) < 0)
		return fd;
	e = ds_psi_read_fd(fd, scratch, p);
	close(fd);
	return e;
}

static int
ds_psi_read_at(int dirfd, const char *name, struct ds_buf *scratch,
    struct ds_psi *p)
{
	int fd, e;

	memset(p, 0, sizeof(*p));
	fd = openat(dirfd, name, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	e = ds_psi_read_fd(fd, scratch, p);
	close(fd);
	return e;
}

int
ds_psi_read_res(const struct ds_root *r, int dirfd, enum ds_psi_res res,
    struct ds_buf *scratch, struct ds_psi *p)
{
	char rel[64];

	if (dirfd >= 0) {
		snprintf(rel, sizeof(rel), "%s.pressure", ds_psi_res_name(res));
		return ds_psi_read_at(dirfd, rel, scratch, p);
	}
	snprintf(rel, sizeof(rel), "proc/pressure/%s", ds_psi_res_name(res));
	return ds_psi_read(r, rel, scratch, p);
}

int
ds_psi_share(uint64_t before, uint64_t after, uint64_t interval_ns,
    double *pct)
{
	uint64_t d;

	if (interval_ns == 0)
		return -EINVAL;
	/*
	 * A total that went backwards belongs to a cgroup removed and made
	 * again within the interval: its new total all fell inside it.
	 */
	d = after >= before ? after - before : after;
	/* total is in us, the interval in ns: us * 1000 * 100 / ns percent */
	*pct = (double)d * 100000.0 / (double)interval_ns;
	if (*pct > 100)
		*pct = 100;
	if (!(*pct >= 0))
		*pct = 0;
	return 0;
}

int
ds_psi_err_msg(int e, int cgroup, struct ds_buf *msg)
{
	const char *m = NULL;

	switch (e < 0 ? -e : e) {
	case ENOENT:
		m = cgroup ?
		    "no pressure files: the cgroup is gone, or its pressure "
		    "accounting is off (cgroup.pressure is 0), or PSI is "
		    "disabled in this kernel (boot with psi=1)" :
		    "PSI is disabled in this kernel: boot with psi=1 "
		    "(or build with CONFIG_PSI=y)";
		break;
	case EOPNOTSUPP:
		m = "PSI is disabled in this kernel: boot with psi=1";
		break;
	case ENODEV:
		m = cgroup ?
		    "pressure accounting is off for this cgroup: "
		    "echo 1 > cgroup.pressure" :
		    "PSI is disabled in this kernel: boot with psi=1";
		break;
	}
	return m != NULL ? ds_buf_printf(msg, "%s", m) : ds_buf_fail(msg, 0);
}

/* ---- Triggers ---- */

/* "150ms", "2s", "500000us", "1.5s": microseconds. */
int
ds_parse_duration(const char *s, size_t len, uint64_t *us)
{
	char buf[32];
	const char *end;
	uint64_t v;
	unsigned int scale;
	size_t ulen;

	if (len == 0 || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (len > 2 && strcmp(buf + len - 2, "us") == 0) {
		scale = 0;
		ulen = 2;
	} else if (len > 2 && strcmp(buf + len - 2, "ms") == 0) {
		scale = 3;
		ulen = 2;
	} else if (len > 1 && buf[len - 1] == 's') {
		scale = 6;
		ulen = 1;
	} else {
		return -EINVAL;
	}
	buf[len - ulen] = '\0';
	if (buf[0] < '0' || buf[0] > '9')
		return -EINVAL;
	if (ds_parse_fixed(buf, &end, scale, &v) < 0 || *end != '\0')
		return -EINVAL;
	*us = v;
	return 0;
}

int
ds_psi_trigger_parse_part(const char *spec, struct ds_psi_trigger *t,
    struct ds_psi_trigger_bad *bad)
{
	const char *c1, *c2, *sl;
	int v;

	memset(t, 0, sizeof(*t));
	bad->part = DS_TRIG_SHAPE;
	bad->at = spec;
	bad->len = strlen(spec);
	if ((c1 = strchr(spec, ':')) == NULL ||
	    (c2 = strchr(c1 + 1, ':')) == NULL ||
	    (sl = strchr(c2 + 1, '/')) == NULL || strchr(sl + 1, '/') != NULL)
		return -EINVAL;
	bad->part = DS_TRIG_RESOURCE;
	bad->len = (size_t)(c1 - spec);
	if ((v = ds_psi_res_parse(spec, (size_t)(c1 - spec))) < 0)
		return -EINVAL;
	t->res = (enum ds_psi_res)v;
	bad->part = DS_TRIG_KIND;
	bad->at = c1 + 1;
	bad->len = (size_t)(c2 - c1 - 1);
	if ((v = ds_psi_kind_parse(c1 + 1, (size_t)(c2 - c1 - 1))) < 0)
		return -EINVAL;
	t->kind = (enum ds_psi_kind)v;
	bad->part = DS_TRIG_STALL;
	bad->at = c2 + 1;
	bad->len = (size_t)(sl - c2 - 1);
	if (ds_parse_duration(c2 + 1, (size_t)(sl - c2 - 1), &t->stall_us) < 0)
		return -EINVAL;
	bad->part = DS_TRIG_WINDOW;
	bad->at = sl + 1;
	bad->len = strlen(sl + 1);
	if (ds_parse_duration(sl + 1, strlen(sl + 1), &t->window_us) < 0)
		return -EINVAL;
	bad->part = DS_TRIG_OK;
	return 0;
}

int
ds_psi_trigger_check(const struct ds_psi_trigger *t, int privileged)
{
	/* The kernel's limits (psi_trigger_create). */
	if (t->window_us < DS_PSI_WINDOW_MIN || t->window_us > DS_PSI_WINDOW_MAX)
		return -ERANGE;
	if (t->stall_us == 0 || t->stall_us > t->window_us)
		return -EDOM;
	/* 6.5+: unprivileged triggers share the 2 s averaging tick. */
	if (!privileged && t->window_us % 2000000 != 0)
		return -EPERM;
	return 0;
}

int
ds_psi_trigger_format(const struct ds_psi_trigger *t, char *buf, size_t size)
{
	int n;

	n = snprintf(buf, size, "%s %llu %llu", ds_psi_kind_name(t->kind),
	    (unsigned long long)t->stall_us, (unsigned long long)t->window_us);
	if (n < 0 || (size_t)n + 1 > size)
		return -ENAMETOOLONG;
	/*
	 * Write the terminating NUL too: the kernel overwrites the last byte
	 * written with NUL, which must not be the last digit of the window.
	 */
	return n + 1;
}

int
ds_psi_trigger_supported(int fd)
{
	struct statfs sf;

	if (fstatfs(fd, &sf) < 0)
		return -errno;
	return sf.f_type == PROC_MAGIC || sf.f_type == CGROUP2_MAGIC;
}

int
ds_psi_trigger_arm(int fd, const struct ds_psi_trigger *t)
{
	char buf[64];
	ssize_t n;
	int len;

	if ((len = ds_psi_trigger_format(t, buf, sizeof(buf))) < 0)
		return len;
	do
		n = write(fd, buf, (size_t)len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return n == len ? 0 : -EIO;
}

int
ds_psi_privileged(void)
{
	struct __user_cap_header_struct h;
	struct __user_cap_data_struct d[2];

	memset(&h, 0, sizeof(h));
	memset(d, 0, sizeof(d));
	h.version = _LINUX_CAPABILITY_VERSION_3;
	if (syscall(SYS_capget, &h, d) < 0)
		return 0;
	return (d[CAP_SYS_RESOURCE / 32].effective >>
	    (CAP_SYS_RESOURCE % 32)) & 1;
}

/* A part's name ("stall") and why it is wrong, for a message; or NULL. */
static const char *
part_name(enum ds_trig_part part)
{
	static const char *const name[] = {
		[DS_TRIG_RESOURCE] = "resource", [DS_TRIG_KIND] = "kind",
		[DS_TRIG_STALL] = "stall", [DS_TRIG_WINDOW] = "window",
	};

	return (size_t)part < nitems(name) ? name[part] :
	    NULL;
}

static const char *
part_why(enum ds_trig_part part)
{
	static const char *const why[] = {
		[DS_TRIG_SHAPE] = "not RESOURCE:KIND:STALL/WINDOW "
		    "(e.g. io:some:150ms/2s)",
		[DS_TRIG_RESOURCE] = "not io, memory, cpu or irq",
		[DS_TRIG_KIND] = "not some or full",
		[DS_TRIG_STALL] = "not a duration (a number and us, ms or s)",
		[DS_TRIG_WINDOW] = "not a duration (a number and us, ms or s)",
	};

	return (size_t)part < nitems(why) ? why[part] : NULL;
}

int
ds_psi_trigger_parse_msg(const char *spec, struct ds_psi_trigger *t,
    struct ds_buf *msg)
{
	struct ds_psi_trigger_bad b;

	if (ds_psi_trigger_parse_part(spec, t, &b) == 0)
		return ds_buf_fail(msg, 0);
	if (part_name(b.part) == NULL)
		return ds_buf_printf(msg, "%s", part_why(b.part));
	return ds_buf_printf(msg, "%s '%.*s': %s", part_name(b.part),
	    (int)b.len, b.at, part_why(b.part));
}

int
ds_psi_trigger_err_msg(int e, struct ds_buf *msg)
{
	const char *m = NULL;

	switch (e < 0 ? -e : e) {
	case ERANGE:
		m = "the window must be 500ms to 10s";
		break;
	case EDOM:
		m = "the stall must be more than 0 and at most the window";
		break;
	case EPERM:
		m = "without CAP_SYS_RESOURCE the kernel takes only windows "
		    "that are a multiple of 2s";
		break;
	case EINVAL:
		m = "the kernel refused the trigger (window 500ms to 10s, "
		    "stall at most the window; without CAP_SYS_RESOURCE a "
		    "window that is a multiple of 2s)";
		break;
	case EBUSY:
		m = "a trigger is already armed on this file (one per open "
		    "file)";
		break;
	case EOPNOTSUPP:
		m = "PSI is disabled in this kernel: boot with psi=1";
		break;
	}
	return m != NULL ? ds_buf_printf(msg, "%s", m) : ds_buf_fail(msg, 0);
}

int
ds_psi_confirm(uint64_t before, uint64_t after, uint64_t stall_us)
{
	uint64_t d = after >= before ? after - before : after;

	return d >= stall_us;
}
