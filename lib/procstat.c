/*
 * /proc/stat: the all-CPU time line (USER_HZ ticks per field, proc(5)),
 * the count of per-CPU lines, and the task counts procs_running and
 * procs_blocked (vmstat's r and b).  Other lines (intr, ctxt, btime,
 * softirq) are skipped unread: intr is long on big machines.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

/* Is line p (length l) "key" followed by a blank? */
static int
is_key(const char *p, size_t l, const char *key, size_t k)
{
	return l > k && memcmp(p, key, k) == 0 && (p[k] == ' ' || p[k] == '\t');
}

/* The numbers of a cpu line after "cpu" (NUL-terminated); -EINVAL. */
static int
cpu_line(const char *p, struct ds_procstat *s)
{
	uint64_t v;
	unsigned int n = 0;
	const char *q;

	for (;;) {
		p += strspn(p, " \t");
		if (*p == '\0')
			break;
		if (ds_parse_u64(p, &q, &v) < 0 ||
		    (*q != ' ' && *q != '\t' && *q != '\0'))
			return -EINVAL;
		if (n < DS_CPU_N)
			s->cpu[n] = v;
		n++;
		p = q;
	}
	/* 2.4 kernels print four fields; fewer is no cpu line. */
	if (n < 4)
		return -EINVAL;
	s->ncpu_fields = n < DS_CPU_N ? n : DS_CPU_N;
	return 0;
}

/* "procs_blocked 3": the one number after the key. */
static int
count_line(const char *p, uint64_t *v)
{
	const char *q;

	if (ds_parse_u64(p, &q, v) < 0)
		return -EINVAL;
	q += strspn(q, " \t");
	return *q == '\0' ? 0 : -EINVAL;
}

/*
 * One line, NUL-terminated in line.  The lines read are short; a
 * longer one with a key read is damage (-EINVAL).
 */
static int
one_line(const char *line, struct ds_procstat *s)
{
	if (is_key(line, strlen(line), "cpu", 3)) {
		/* A second all-CPU line is damage, not a new total. */
		if ((s->have & DS_PS_CPU) || cpu_line(line + 3, s) < 0)
			return -EINVAL;
		s->have |= DS_PS_CPU;
	} else if (strncmp(line, "cpu", 3) == 0 && line[3] >= '0' &&
	    line[3] <= '9') {
		s->ncpus++;
	} else if (is_key(line, strlen(line), "procs_running", 13)) {
		if (count_line(line + 13, &s->procs_running) == 0)
			s->have |= DS_PS_RUNNING;
	} else if (is_key(line, strlen(line), "procs_blocked", 13)) {
		if (count_line(line + 13, &s->procs_blocked) == 0)
			s->have |= DS_PS_BLOCKED;
	}
	return 0;
}

int
ds_procstat_parse(const char *text, size_t len, struct ds_procstat *s)
{
	const char *p = text, *end = text + len, *nl, *start;
	char line[512];
	size_t l;

	memset(s, 0, sizeof(*s));
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		l = (size_t)((nl != NULL ? nl : end) - p);
		start = p;
		p = nl != NULL ? nl + 1 : end;
		/* intr and softirq lines run long; only cpu lines matter. */
		if (l >= sizeof(line)) {
			if (memcmp(start, "cpu", 3) == 0)
				return -EINVAL;
			continue;
		}
		memcpy(line, start, l);
		line[l] = '\0';
		if (strlen(line) != l || one_line(line, s) < 0)
			return -EINVAL;
	}
	return (s->have & DS_PS_CPU) ? 0 : -EINVAL;
}

int
ds_procstat_read(const struct ds_root *r, struct ds_buf *scratch,
    struct ds_procstat *s)
{
	int e;

	memset(s, 0, sizeof(*s));
	if ((e = ds_read_file(r, "proc/stat", scratch)) < 0)
		return e;
	return ds_procstat_parse(scratch->data, scratch->len, s);
}

int
ds_procstat_iowait(const struct ds_procstat *a, const struct ds_procstat *b,
    double *pct)
{
	uint64_t total = 0, io = 0;
	int i;

	if (!(a->have & b->have & DS_PS_CPU) ||
	    a->ncpu_fields <= DS_CPU_IOWAIT || b->ncpu_fields <= DS_CPU_IOWAIT)
		return -EINVAL;
	for (i = 0; i <= DS_CPU_STEAL; i++) {
		uint64_t d = b->cpu[i] >= a->cpu[i] ? b->cpu[i] - a->cpu[i] : 0;

		total += d;
		if (i == DS_CPU_IOWAIT)
			io = d;
	}
	if (total == 0)
		return -EINVAL;
	*pct = (double)io * 100.0 / (double)total;
	return 0;
}

int
ds_kernel_release(const struct ds_root *r, struct ds_buf *scratch, char *out,
    size_t size)
{
	size_t n;
	int e;

	if (size == 0)
		return -EINVAL;
	out[0] = '\0';
	if ((e = ds_read_file(r, "proc/sys/kernel/osrelease", scratch)) < 0)
		return e;
	n = strcspn(scratch->data, "\n");
	if (n == 0 || n >= size)
		return -EINVAL;
	memcpy(out, scratch->data, n);
	out[n] = '\0';
	/* A release is printable ASCII: anything else is not trusted. */
	for (n = 0; out[n] != '\0'; n++)
		if (out[n] <= ' ' || out[n] > '~') {
			out[0] = '\0';
			return -EINVAL;
		}
	return 0;
}
