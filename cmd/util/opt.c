/* Start-up, the options every tool shares, usage and help, operands. */
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

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

/* The tool's synopsis and options, as tool_init() registered them. */
static const struct tool_info *info;

/*
 * Started with 0, 1 or 2 closed (">&-"), the first file we open would
 * take its number: rows meant for stdout, or messages, would land in a
 * -w file.  Each closed one is held by /dev/null, stdout read-only so
 * that writing to it still fails (EBADF) while a run that never uses
 * it (-w) ends well, in every tool alike.
 */
static void
std_fds(void)
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

void
tool_init(struct tool *t, char **argv, const struct tool_info *ti)
{
	/* getopt's own messages name argv[0]: "dxstat", not "cmd/dxstat". */
	argv[0] = program_invocation_short_name;
	std_fds();

	info = ti;
	memset(t, 0, sizeof(*t));
	t->header = 1;
	t->out = stdout;
	t->r.fd = -1;
	tool_signals();
}

/* The synopsis, as the man page's SYNOPSIS has it; exit 2. */
void
usage(void)
{
	fprintf(stderr, "usage: %s\n", info->synopsis);
	exit(2);
}

/*
 * A usage error: what was wrong, escaped as every message is (an operand
 * may hold any byte), then the synopsis, exit 2.
 */
void
tool_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tool_vmsg(-1, fmt, ap);
	va_end(ap);
	usage();
}

/* --help: the synopsis (as usage() prints it), then one line an option. */
void
tool_help(void)
{
	printf("usage: %s\n%s%s", info->synopsis, info->options,
	    TOOL_HELP_LINES);
	tool_exit_check();
	exit(0);
}

void
tool_version(void)
{
	printf("%s (diskstat) %s\n", program_invocation_short_name,
	    DS_VERSION);
	tool_exit_check();
	exit(0);
}

/* -n: a dry run, or how many rows (the tool registered which). */
static int
n_option(struct tool *t, const char *arg)
{
	switch (info->n) {
	case TOOL_N_DRYRUN:
		t->dry_run = 1;
		return 1;
	case TOOL_N_COUNT:
		if (tool_parse_count(arg, &t->top) < 0)
			tool_usage("-n '%s': not a count (1 to 4294967295)",
			    arg);
		return 1;
	case TOOL_N_NONE:
		break;
	}
	return 0;
}

/*
 * Handle one of the common options (--help and -n among them).
 * Returns 1 when ch was one of them, 0 otherwise.  A bad value is a
 * usage error (exit 2).
 */
int
tool_option(struct tool *t, int ch, const char *arg)
{
	switch (ch) {
	case 'o':
		if (tool_fmt_parse(arg, &t->fmt) < 0)
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
	case TOOL_HELP:
		tool_help();
	case 'n':
		return n_option(t, arg);
	}
	return 0;
}

/*
 * An operand that begins like a number (a digit, or a point and a
 * digit) is meant as an interval or a count, never a device name: "1e1"
 * and "1x" are refused as numbers instead of being looked up.
 */
int
tool_numeric(const char *s)
{
	return (s[0] >= '0' && s[0] <= '9') ||
	    (s[0] == '.' && s[1] >= '0' && s[1] <= '9');
}

void
tool_set_interval(struct tool *t, const char *s)
{
	t->interval_ns = tool_seconds("interval", s);
	t->has_interval = 1;
}

void
tool_set_count(struct tool *t, const char *s)
{
	int e;

	if ((e = tool_parse_count(s, &t->count)) < 0)
		tool_usage("count '%s': %s", s, e == -ERANGE ?
		    "out of range (1 to 4294967295)" : "not a whole number");
}

/*
 * Take "interval [count]" from the operands; *argc shrinks by what was
 * taken and the devices are left in argv[0..*argc).  As with iostat the
 * numbers may come after the devices or before them ("1 3 sda" and
 * "sda 1 3"): a device name never begins like a number.  The numbers
 * must stand together at one end; a third one, or one among the
 * devices, is refused.
 */
void
tool_interval(struct tool *t, int *argc, char **argv)
{
	int n = *argc, lead = 0, tail = 0, i;

	while (lead < n && tool_numeric(argv[lead]))
		lead++;
	while (lead < n && tail < n - lead && tool_numeric(argv[n - 1 - tail]))
		tail++;
	if (lead > 0 && tail > 0)
		tool_usage("operand '%s': interval and count go together, "
		    "before or after the devices", argv[n - tail]);
	if (lead + tail > 2)
		tool_usage("extra operand '%s': only interval and count",
		    argv[lead > 0 ? 2 : n - tail + 2]);
	for (i = lead; i < n - tail; i++)
		if (tool_numeric(argv[i]))
			tool_usage("operand '%s': a number among the devices "
			    "(interval and count come first or last)", argv[i]);
	if (lead > 0 || tail > 0) {
		i = lead > 0 ? 0 : n - tail;
		tool_set_interval(t, argv[i]);
		if (lead + tail == 2)
			tool_set_count(t, argv[i + 1]);
	}
	if (lead > 0)
		memmove(argv, argv + lead, (size_t)(n - lead) * sizeof(*argv));
	*argc = n - lead - tail;
}

/* For a tool whose only operands are "[interval [count]]". */
void
tool_interval_only(struct tool *t, int argc, char **argv)
{
	if (argc > 2)
		tool_usage("extra operand '%s': only interval and count",
		    argv[2]);
	if (argc > 0)
		tool_set_interval(t, argv[0]);
	if (argc > 1)
		tool_set_count(t, argv[1]);
}

/* The root opened by tool_start (or tool_start_pair), closed at exit. */
static struct ds_root *opened;
/* The reaper of its extraction: its pid, and the pipe it waits on. */
static pid_t reaper = -1;
static int reaper_fd = -1;

/*
 * A capture's archive (or a pair of captures) is read into a private
 * directory that only ds_root_close removes, and a tool may end
 * anywhere (tool_errx): at exit, whatever the way.
 */
static void
root_close_at_exit(void)
{
	if (opened != NULL)
		ds_root_close(opened);
	if (reaper_fd >= 0) {
		close(reaper_fd);
		while (waitpid(reaper, NULL, 0) < 0 && errno == EINTR)
			;
	}
}

/*
 * A tool a signal kills (SIGPIPE from "| head", SIGQUIT, SIGKILL, the
 * OOM killer) never reaches its exit: a child of its own waits on a
 * pipe whose only writer is the tool, and removes the directory when
 * the pipe says the tool is gone, however it went.  The child ignores
 * the signals a terminal sends the whole group and holds none of the
 * tool's files (stdout kept open would keep a reader of the pipe
 * waiting).  Without the child (no fork here) the exit handler alone
 * removes it.
 */
static void
reaper_start(const char *dir)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT,
	    SIGPIPE, SIGTSTP };
	int p[2], fd;
	size_t i;
	char c;

	if (pipe2(p, O_CLOEXEC) < 0)
		return;
	fflush(NULL);
	if ((reaper = fork()) < 0) {
		close(p[0]);
		close(p[1]);
		return;
	}
	if (reaper > 0) {
		close(p[0]);
		reaper_fd = p[1];
		return;
	}
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_IGN);
	if ((fd = open("/dev/null", O_RDWR | O_CLOEXEC)) >= 0) {
		dup2(fd, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
	}
	for (fd = 3; fd < 1024; fd++)
		if (fd != p[0])
			close(fd);
	while (read(p[0], &c, 1) < 0 && errno == EINTR)
		;
	(void)ds_tree_remove(dir);
	_exit(0);
}

/* The root r to be closed at exit. */
void
tool_root_atexit(struct ds_root *r)
{
	if (opened == NULL)
		atexit(root_close_at_exit);
	opened = r;
	if (r->tmp[0] != '\0' && reaper_fd < 0)
		reaper_start(r->tmp);
}

/* After option parsing: default format, open the root. */
void
tool_start(struct tool *t)
{
	struct ds_buf why = { 0 };
	const char *root;
	int e;

	if (!t->fmt_set)
		t->fmt = t->outfile != NULL ? DS_FMT_TSV :
		    tool_fmt_default(STDOUT_FILENO);
	if ((e = ds_root_open(&t->r, t->root)) < 0) {
		root = t->root != NULL && *t->root != '\0' ? t->root :
		    getenv("DISKSTAT_ROOT") != NULL &&
		    *getenv("DISKSTAT_ROOT") != '\0' ?
		    getenv("DISKSTAT_ROOT") : "/";
		/* A capture says which member, and why. */
		(void)ds_capture_check(root, &why);
		if (why.len > 0 && e == -EINVAL)
			tool_errx(1, "%s: %s", root, why.data);
		if (why.len > 0)
			tool_errc(1, e, "%s: %s", root, why.data);
		tool_errc(1, e, "%s", root);
	}
	tool_root_atexit(&t->r);
}
