/* Messages: warn(3) and err(3) as the tools print them. */
#include "util.h"

/*
 * Every message goes through ds_esc_msg: names from a tree, a process
 * or a file system (a device directory "ESC[31m", a comm with U+202E,
 * a file name with a newline) reach stderr as visible text, one line.
 * e: an errno to append, or -1 for none.
 */
void
tool_vmsg(int e, const char *fmt, va_list ap)
{
	struct ds_buf b = { 0 };
	char small[512], *text = small;
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = fmt == NULL ? 0 : vsnprintf(small, sizeof(small), fmt, ap);
	if (n < 0)
		n = 0;
	small[fmt == NULL ? 0 : sizeof(small) - 1] = '\0';
	if ((size_t)n >= sizeof(small) && (text = malloc((size_t)n + 1)) !=
	    NULL)
		vsnprintf(text, (size_t)n + 1, fmt, aq);
	else if (text == NULL)
		text = small;
	va_end(aq);
	if (ds_esc_msg(&b, text, strlen(text)) < 0)
		fprintf(stderr, "%s: (message lost: out of memory)\n",
		    program_invocation_short_name);
	else if (fmt != NULL && e >= 0)
		fprintf(stderr, "%s: %s: %s\n", program_invocation_short_name,
		    b.data, strerror(e));
	else if (fmt != NULL)
		fprintf(stderr, "%s: %s\n", program_invocation_short_name,
		    b.data);
	else
		fprintf(stderr, "%s: %s\n", program_invocation_short_name,
		    strerror(e >= 0 ? e : 0));
	ds_buf_free(&b);
	if (text != small)
		free(text);
}

void
tool_warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tool_vmsg(-1, fmt, ap);
	va_end(ap);
}

void
tool_warn(const char *fmt, ...)
{
	va_list ap;
	int e = errno;

	va_start(ap, fmt);
	tool_vmsg(e, fmt, ap);
	va_end(ap);
}

void
tool_errx(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tool_vmsg(-1, fmt, ap);
	va_end(ap);
	exit(status);
}

void
tool_err(int status, const char *fmt, ...)
{
	va_list ap;
	int e = errno;

	va_start(ap, fmt);
	tool_vmsg(e, fmt, ap);
	va_end(ap);
	exit(status);
}

/* e: an errno or a -errno, as the library returns it. */
void
tool_errc(int status, int e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tool_vmsg(e < 0 ? -e : e, fmt, ap);
	va_end(ap);
	exit(status);
}

void
tool_warnc(int e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tool_vmsg(e < 0 ? -e : e, fmt, ap);
	va_end(ap);
}

/*
 * A file under the root as a message names it: "/proc/diskstats" on the
 * live system, "tree/proc/diskstats" under -R tree.  rel is relative to
 * the root ("proc/uptime"; a leading '/' is dropped).  The text lasts
 * until the second call after this one, so a message may name two.
 */
const char *
tool_path(const struct tool *t, const char *rel)
{
	static char buf[2][sizeof(t->r.path) + 256];
	static int next;
	char *p = buf[next];

	next = !next;
	while (*rel == '/')
		rel++;
	if (t->r.live)
		snprintf(p, sizeof(buf[0]), "/%s", rel);
	else
		snprintf(p, sizeof(buf[0]), "%s/%s", t->r.path, rel);
	return p;
}
