/*
 * The tools' side of the library: the common options, usage and help,
 * messages, the sampling loop, signals and checked output.  These print
 * and exit, so they are not in libdiskstat; they are built into
 * cmd/util/libutil.a, which every cmd/NAME.c links.  Never installed.
 */
#ifndef UTIL_H
#define UTIL_H

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

#include "suite.h"
#include "grow.h"
#include "devsel.h"

/* What -n means for a tool (struct tool_info's n). */
enum tool_n {
	TOOL_N_NONE,		/* no -n */
	TOOL_N_DRYRUN,		/* -n, --dry-run: t->dry_run */
	TOOL_N_COUNT,		/* -n count: t->top, 1 to 4294967295 */
};

/* What a tool registers once, with tool_init(). */
struct tool_info {
	const char *synopsis;	/* usage() and --help, after "usage: " */
	const char *options;	/* --help: the tool's own options' lines */
	enum tool_n n;
};

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
	int dry_run;		/* -n, --dry-run (TOOL_N_DRYRUN) */
	uint64_t top;		/* -n count (TOOL_N_COUNT); 0: not given */
	struct ds_root r;
	FILE *out;
	struct ds_writer *w;	/* the writer whose report -w has open */
};

/* Set by SIGINT/SIGTERM: finish the sample in hand, then stop. */
extern volatile sig_atomic_t tool_stop;

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

/* msg.c: messages, every one through ds_esc_msg. */
void tool_vmsg(int e, const char *fmt, va_list ap);
void tool_warnx(const char *fmt, ...);
void tool_warn(const char *fmt, ...);
_Noreturn void tool_errx(int status, const char *fmt, ...);
_Noreturn void tool_err(int status, const char *fmt, ...);
_Noreturn void tool_errc(int status, int e, const char *fmt, ...);
void tool_warnc(int e, const char *fmt, ...);
const char *tool_path(const struct tool *t, const char *rel);

/* err(3) and friends, escaped; function-like, so q->err[i] stays. */
#define warnx(...) tool_warnx(__VA_ARGS__)
#define warn(...) tool_warn(__VA_ARGS__)
#define errx(...) tool_errx(__VA_ARGS__)
#define err(...) tool_err(__VA_ARGS__)

/* opt.c: start-up, the common options, usage, operands. */
void tool_init(struct tool *t, char **argv, const struct tool_info *info);
_Noreturn void usage(void);
_Noreturn void tool_usage(const char *fmt, ...);
_Noreturn void tool_help(void);
_Noreturn void tool_version(void);
int tool_option(struct tool *t, int ch, const char *arg);
int tool_numeric(const char *s);
void tool_set_interval(struct tool *t, const char *s);
void tool_set_count(struct tool *t, const char *s);
void tool_interval(struct tool *t, int *argc, char **argv);
void tool_interval_only(struct tool *t, int argc, char **argv);
void tool_start(struct tool *t);
void tool_root_atexit(struct ds_root *r);

/*
 * values.c: what an option or operand may say.  -EINVAL when not one,
 * -ERANGE when outside its range.
 */
/* "tsv", "json", "table", "prom". */
int tool_fmt_parse(const char *s, enum ds_fmt *f);
/* table when fd is a terminal, tsv otherwise. */
enum ds_fmt tool_fmt_default(int fd);
/* Seconds ("2", "0.5", ".5"): 10 ms to 31 days, in ns; also -ENOMEM. */
int tool_parse_interval(const char *s, uint64_t *ns);
/* A report count: 1 to UINT32_MAX. */
int tool_parse_count(const char *s, uint64_t *n);
/* Bytes: "1048576", "512K", "10M", "2G", "1T" (powers of 1024). */
int tool_parse_size(const char *s, uint64_t *out);
/* An option's seconds ("-T 2.5") in ns, as an interval; else usage. */
uint64_t tool_seconds(const char *what, const char *s);

/* report.c: writers, reports and -w, the wait, signals, exit checks. */
void tool_signals(void);
void tool_writer(struct tool *t, struct ds_writer *w);
void tool_report_begin(struct tool *t, struct ds_writer *w);
_Noreturn void tool_report_fail(struct tool *t, int e, const char *fmt, ...);
void tool_report_end(struct tool *t, struct ds_writer *w);
int tool_wait(struct tool *t, uint64_t *deadline);
void tool_exit_check(void);
_Noreturn void tool_exit(int status);

/* run.c: a run's writer, whether another report follows, captures. */
void tool_writer_open(struct tool *t, struct ds_writer *w,
    const struct ds_col *cols, size_t ncols, const char *prefix);
int tool_next(struct tool *t, uint64_t *deadline, uint64_t n);
int tool_window(struct tool *t);
int tool_is_capture(const char *path);
void tool_start_pair(struct tool *t, const char *old, const char *new);
void tool_root_last(struct tool *t);

/* devsel.c: tool_unmatched (the rest is in devsel.h). */
size_t tool_unmatched(const struct ds_devsel *sel, const char *nosuch);

#endif
