/*
 * What every tool shares on its side of the library: the common
 * options, interval operands, the sampling loop, signals, and checked
 * output.  These print and exit, so they are not in libdiskstat.
 * Included once by each cmd/NAME.c.
 */
#ifndef TOOL_H
#define TOOL_H

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diskstat.h"

struct tool {
	enum ds_fmt fmt;
	int fmt_set;
	int header;		/* 0 with -H */
	const char *root;	/* -R DIR, NULL: $DISKSTAT_ROOT or / */
	const char *outfile;	/* -w FILE, NULL: stdout */
	int has_interval;
	uint64_t interval_ns;
	uint64_t count;		/* reports wanted; 0: until interrupted */
	struct ds_root r;
	struct ds_atomic atomic;
	FILE *out;
};

/* Set by SIGINT/SIGTERM: finish the sample in hand, then stop. */
static volatile sig_atomic_t tool_stop;

/* The long options every tool accepts; end a tool's array with these. */
#define TOOL_LONGOPTS \
	{ "root", required_argument, NULL, 'R' }, \
	{ "help", no_argument, NULL, 'h' }, \
	{ "version", no_argument, NULL, 'V' }, \
	{ NULL, 0, NULL, 0 }

/* The short options every tool accepts, for its getopt string. */
#define TOOL_OPTS "o:HR:w:hV"

/*
 * Every message goes through ds_esc_msg: names from a tree, a process
 * or a file system (a device directory "ESC[31m", a comm with U+202E,
 * a file name with a newline) reach stderr as visible text, one line.
 * e: an errno to append, or -1 for none.
 */
static inline void
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

static inline void
tool_warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tool_vmsg(-1, fmt, ap);
	va_end(ap);
}

static inline void
tool_warn(const char *fmt, ...)
{
	va_list ap;
	int e = errno;

	va_start(ap, fmt);
	tool_vmsg(e, fmt, ap);
	va_end(ap);
}

static inline _Noreturn void
tool_errx(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tool_vmsg(-1, fmt, ap);
	va_end(ap);
	exit(status);
}

static inline _Noreturn void
tool_err(int status, const char *fmt, ...)
{
	va_list ap;
	int e = errno;

	va_start(ap, fmt);
	tool_vmsg(e, fmt, ap);
	va_end(ap);
	exit(status);
}

/* err(3) and friends, escaped; function-like, so q->err[i] stays. */
#define warnx(...) tool_warnx(__VA_ARGS__)
#define warn(...) tool_warn(__VA_ARGS__)
#define errx(...) tool_errx(__VA_ARGS__)
#define err(...) tool_err(__VA_ARGS__)

static inline _Noreturn void
tool_errc(int status, int e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tool_vmsg(e < 0 ? -e : e, fmt, ap);
	va_end(ap);
	exit(status);
}

static inline void
tool_warnc(int e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tool_vmsg(e < 0 ? -e : e, fmt, ap);
	va_end(ap);
}

/*
 * Started with 0, 1 or 2 closed (">&-"), the first file we open would
 * take its number: rows meant for stdout, or messages, would land in a
 * -w file.  Each closed one is held by /dev/null, stdout read-only so
 * that writing to it still fails (EBADF) while a run that never uses
 * it (-w) ends well, in every tool alike.
 */
static inline void
tool_std_fds(void)
{
	static const int mode[3] = { O_RDONLY, O_RDONLY, O_WRONLY };
	int fd, i;

	for (i = 0; i < 3; i++) {
		if (fcntl(i, F_GETFD) >= 0 || errno != EBADF)
			continue;
		if ((fd = open("/dev/null", mode[i])) < 0)
			exit(1);
		if (fd != i) {
			dup2(fd, i);
			close(fd);
		}
	}
}

static void
tool_on_signal(int sig)
{
	(void)sig;
	tool_stop = 1;
}

static inline void
tool_init(struct tool *t, char **argv)
{
	struct sigaction sa;

	/* getopt's own messages name argv[0]: "dxstat", not "cmd/dxstat". */
	argv[0] = program_invocation_short_name;
	tool_std_fds();

	memset(t, 0, sizeof(*t));
	t->header = 1;
	t->out = stdout;
	t->r.fd = -1;
	/* No SA_RESTART: a signal ends the sleep between samples at once. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = tool_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* SIGPIPE stays default: "tool 1 | head -1" ends quietly. */
	signal(SIGPIPE, SIG_DFL);
}

static inline void
tool_version(void)
{
	printf("%s (diskstat) %s\n", program_invocation_short_name,
	    DS_VERSION);
	if (fflush(stdout) == EOF || ferror(stdout))
		err(1, "write error");
	exit(0);
}

/*
 * Handle one of the common options.  Returns 1 when ch was one of
 * them, 0 otherwise.  Calls usage (which exits 2) on a bad value.
 */
static inline int
tool_option(struct tool *t, int ch, const char *arg, void (*usage)(void))
{
	switch (ch) {
	case 'o':
		if (ds_fmt_parse(arg, &t->fmt) < 0) {
			warnx("unknown format: %s (tsv, json, table, prom)",
			    arg);
			usage();
		}
		t->fmt_set = 1;
		return 1;
	case 'H':
		t->header = 0;
		return 1;
	case 'R':
		t->root = arg;
		return 1;
	case 'w':
		t->outfile = arg;
		return 1;
	case 'V':
		tool_version();
		return 1;
	}
	return 0;
}

/*
 * Take "interval [count]" from the end of the operands; *argc shrinks
 * by what was taken.  A trailing number is always an interval or count.
 */
static inline void
tool_interval(struct tool *t, int *argc, char **argv, void (*usage)(void))
{
	int n = *argc, e;

	if (n > 1 && ds_is_number(argv[n - 1]) && ds_is_number(argv[n - 2])) {
		if ((e = ds_parse_count(argv[n - 1], &t->count)) < 0) {
			warnx("count %s: %s (1 to 4294967295)", argv[n - 1],
			    e == -ERANGE ? "out of range" : "not a number");
			usage();
		}
		n--;
	}
	if (n > 0 && ds_is_number(argv[n - 1])) {
		if ((e = ds_parse_interval(argv[n - 1], &t->interval_ns)) < 0) {
			warnx("interval %s: %s (0.01 to 2678400 seconds)",
			    argv[n - 1],
			    e == -ERANGE ? "out of range" : "not a number");
			usage();
		}
		t->has_interval = 1;
		n--;
	}
	*argc = n;
}

/* After option parsing: default format, open the root. */
static inline void
tool_start(struct tool *t)
{
	int e;

	if (!t->fmt_set)
		t->fmt = t->outfile != NULL ? DS_FMT_TSV :
		    ds_fmt_default(STDOUT_FILENO);
	if ((e = ds_root_open(&t->r, t->root)) < 0)
		tool_errc(1, e, "%s", t->root != NULL ? t->root :
		    getenv("DISKSTAT_ROOT") != NULL ? getenv("DISKSTAT_ROOT") :
		    "/");
}

/* Before a report's first row: with -w, a fresh temporary file. */
static inline void
tool_report_begin(struct tool *t, struct ds_writer *w)
{
	int e;

	if (t->outfile == NULL)
		return;
	if ((e = ds_atomic_open(&t->atomic, t->outfile)) < 0)
		tool_errc(1, e, "%s", t->outfile);
	w->out = t->atomic.fp;
	w->header_done = 0;	/* every file carries its header */
	w->reports = 0;
}

/*
 * A failure in the middle of a report (a file that could not be read to
 * its end): with -w the temporary file is removed, so that nothing half
 * written is ever renamed into place; then as tool_errc.
 */
static inline void
tool_report_fail(struct tool *t, int e, const char *fmt, ...)
{
	va_list ap;

	ds_atomic_abort(&t->atomic);
	va_start(ap, fmt);
	tool_vmsg(e < 0 ? -e : e, fmt, ap);
	va_end(ap);
	exit(1);
}

/* End a report: flush, check, and with -w rename into place. */
static inline void
tool_report_end(struct tool *t, struct ds_writer *w)
{
	int e;

	e = ds_w_report_end(w);
	if (t->outfile != NULL) {
		if (e < 0) {
			ds_atomic_abort(&t->atomic);
			tool_errc(1, e, "%s: write error", t->outfile);
		}
		if ((e = ds_atomic_commit(&t->atomic)) < 0)
			tool_errc(1, e, "%s: write error", t->outfile);
		w->out = stdout;
		w->error = 0;
		return;
	}
	if (e < 0)
		tool_errc(1, e, "write error");
}

/*
 * Sleep until *deadline (CLOCK_BOOTTIME ns) and move it on by one
 * interval.  Deadlines are absolute, so reports do not drift; after a
 * long stall (a suspended VM) the next deadline starts from now.
 * Returns 1 when a signal asked us to stop.
 */
static inline int
tool_wait(const struct tool *t, uint64_t *deadline)
{
	uint64_t now;

	while (!tool_stop && ds_sleep_until(*deadline) == -EINTR)
		;
	if (tool_stop)
		return 1;
	now = ds_boottime_ns();
	*deadline += t->interval_ns;
	if (*deadline <= now)
		*deadline = now + t->interval_ns;
	return 0;
}

/* At exit: stdout must have reached its destination. */
static inline void
tool_exit(int status)
{
	errno = 0;
	if (fflush(stdout) == EOF || ferror(stdout) || fclose(stdout) == EOF)
		err(1, "write error");
	exit(status);
}

#endif
