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
	const char *cols;	/* -O COLS, NULL: the default columns */
	unsigned int wopts;	/* -h, --utc: DS_W_HUMAN, DS_W_UTC */
	int has_interval;
	uint64_t interval_ns;
	uint64_t count;		/* reports wanted; 0: until interrupted */
	struct ds_root r;
	struct ds_atomic atomic;
	FILE *out;
};

/* Set by SIGINT/SIGTERM: finish the sample in hand, then stop. */
static volatile sig_atomic_t tool_stop;

/* Long options without a letter: getopt_long values above any char. */
#define TOOL_HELP	0x1000
#define TOOL_UTC	0x1001

/* The long options every tool accepts; end a tool's array with these. */
#define TOOL_LONGOPTS \
	{ "root", required_argument, NULL, 'R' }, \
	{ "help", no_argument, NULL, TOOL_HELP }, \
	{ "utc", no_argument, NULL, TOOL_UTC }, \
	{ "version", no_argument, NULL, 'V' }, \
	{ NULL, 0, NULL, 0 }

/*
 * The short options every tool accepts, for its getopt string.  -h is
 * human units, as df(1) and iostat(1) have it; help is --help only.
 */
#define TOOL_OPTS "o:HO:R:w:hV"

/* The common options' lines of --help, after a tool's own. */
#define TOOL_HELP_LINES \
	"  -H            no header line (tsv, table)\n" \
	"  -h            human units in table mode (4G, 251.9M)\n" \
	"  -O cols       columns to show: a,b; +a adds to the default; help\n" \
	"  -o fmt        output format: table, tsv, json, prom\n" \
	"  -R dir        read proc and sys below dir (also --root, " \
	"DISKSTAT_ROOT)\n" \
	"  -w file       write each report to file atomically\n" \
	"  --utc         table time in UTC, not local time\n" \
	"  --help        this help;  -V, --version  the version\n"

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
tool_exit_check(void)
{
	if (fflush(stdout) == EOF || ferror(stdout))
		err(1, "write error");
}

static inline void
tool_version(void)
{
	printf("%s (diskstat) %s\n", program_invocation_short_name,
	    DS_VERSION);
	tool_exit_check();
	exit(0);
}

/*
 * A usage error: what was wrong, then the synopsis, exit 2.  Each tool
 * sets tool_usage_fn to its usage(), which prints the synopsis and
 * exits 2.
 */
static void (*tool_usage_fn)(void);

static inline void
tool_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarnx(fmt, ap);
	va_end(ap);
	if (tool_usage_fn != NULL)
		tool_usage_fn();
	exit(2);
}

/* --help: the synopsis (as usage() prints it), then one line an option. */
static inline void
tool_help(const char *synopsis, const char *options)
{
	printf("usage: %s\n%s%s", synopsis, options, TOOL_HELP_LINES);
	tool_exit_check();
	exit(0);
}

/*
 * Handle one of the common options.  Returns 1 when ch was one of
 * them, 0 otherwise.  Calls usage (which exits 2) on a bad value.
 */
static inline int
tool_option(struct tool *t, int ch, const char *arg, void (*usage)(void))
{
	tool_usage_fn = usage;
	switch (ch) {
	case 'o':
		if (ds_fmt_parse(arg, &t->fmt) < 0)
			tool_usage("-o '%s': unknown format (tsv, json, table, "
			    "prom)", arg);
		t->fmt_set = 1;
		return 1;
	case 'H':
		t->header = 0;
		return 1;
	case 'h':
		t->wopts |= DS_W_HUMAN;
		return 1;
	case TOOL_UTC:
		t->wopts |= DS_W_UTC;
		return 1;
	case 'O':
		t->cols = arg;
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
 * An operand that begins like a number (a digit, or a point and a
 * digit) is meant as an interval or a count, never a device name: "1e1"
 * and "1x" are refused as numbers instead of being looked up.
 */
static inline int
tool_numeric(const char *s)
{
	return (s[0] >= '0' && s[0] <= '9') ||
	    (s[0] == '.' && s[1] >= '0' && s[1] <= '9');
}

static inline void
tool_set_interval(struct tool *t, const char *s)
{
	int e;

	if ((e = ds_parse_interval(s, &t->interval_ns)) < 0)
		tool_usage("interval '%s': %s", s, e == -ERANGE ?
		    "out of range (0.01 to 2678400 seconds)" :
		    "not a number");
	t->has_interval = 1;
}

static inline void
tool_set_count(struct tool *t, const char *s)
{
	int e;

	if ((e = ds_parse_count(s, &t->count)) < 0)
		tool_usage("count '%s': %s", s, e == -ERANGE ?
		    "out of range (1 to 4294967295)" : "not a whole number");
}

/*
 * Take "interval [count]" from the end of the operands; *argc shrinks
 * by what was taken.  The last two operands that begin like numbers are
 * the interval and the count, and must be valid; one before them that
 * begins like a number is one too many.
 */
static inline void
tool_interval(struct tool *t, int *argc, char **argv, void (*usage)(void))
{
	int n = *argc, i;

	tool_usage_fn = usage;
	if (n > 1 && tool_numeric(argv[n - 1]) && tool_numeric(argv[n - 2])) {
		if (n > 2 && tool_numeric(argv[n - 3]))
			tool_usage("extra operand '%s': interval and count "
			    "are the last two", argv[n - 1]);
		tool_set_interval(t, argv[n - 2]);
		tool_set_count(t, argv[n - 1]);
		n -= 2;
	} else if (n > 0 && tool_numeric(argv[n - 1])) {
		tool_set_interval(t, argv[n - 1]);
		n--;
	}
	for (i = 0; i < n; i++)
		if (tool_numeric(argv[i]))
			tool_usage("operand '%s': a number among the devices "
			    "(interval and count come last)", argv[i]);
	*argc = n;
}

/* For a tool whose only operands are "[interval [count]]". */
static inline void
tool_interval_only(struct tool *t, int argc, char **argv,
    void (*usage)(void))
{
	tool_usage_fn = usage;
	if (argc > 2)
		tool_usage("extra operand '%s': only interval and count",
		    argv[2]);
	if (argc > 0)
		tool_set_interval(t, argv[0]);
	if (argc > 1)
		tool_set_count(t, argv[1]);
}

/* Column selection (-O) and table options on a writer; -O help lists. */
static inline void
tool_writer(struct tool *t, struct ds_writer *w)
{
	const char *bad;
	size_t badlen, i;

	ds_writer_opts(w, t->wopts);
	if (t->cols != NULL && strcmp(t->cols, "help") == 0) {
		for (i = 0; i < w->ncols; i++)
			printf("%-22s %s%s\n", w->cols[i].name,
			    w->cols[i].flags & DS_C_WIDE ? "(+) " : "",
			    w->cols[i].help != NULL ? w->cols[i].help : "");
		printf("(+): not in the default table; -O +COL adds it\n");
		tool_exit_check();
		exit(0);
	}
	if (ds_writer_select(w, t->cols, &bad, &badlen) < 0)
		tool_usage("-O: column '%.*s': unknown or listed twice "
		    "(-O help lists them)", (int)badlen, bad);
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
