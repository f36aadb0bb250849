/*
 * cmd/util/opt.c: common options and what -n means, interval operands,
 * usage and --help; beside them what ends the same way: message paths
 * (msg.c), an option's seconds (values.c), operands that matched
 * nothing (devsel.c).  What exits is run in a child, its status and
 * stderr checked.
 */
#include <sys/wait.h>

#include "util/util.h"
#include "internal.h"
#include "tap.h"

static const struct tool_info info_dry = {
	"tool [-n] thing", "  -x            an option\n", TOOL_N_DRYRUN
};
static const struct tool_info info_count = {
	"tool [-n count]", "", TOOL_N_COUNT
};
static const struct tool_info info_none = { "tool", "", TOOL_N_NONE };

static char *argv0[] = { "t/unit/util-opt", NULL };

/* Run f in a child; its exit status, its stderr (or stdout) in buf. */
static int
child(void (*f)(void), int fd, char *buf, size_t sz)
{
	int p[2], st = -1;
	ssize_t n, len = 0;
	pid_t pid;

	fflush(stdout);
	if (pipe(p) < 0 || (pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		dup2(p[1], fd);
		close(p[0]);
		f();
		exit(99);
	}
	close(p[1]);
	while ((n = read(p[0], buf + len, sz - 1 - (size_t)len)) > 0)
		len += n;
	buf[len] = '\0';
	close(p[0]);
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static struct tool t;

static void
bad_count(void)
{
	tool_init(&t, argv0, &info_count);
	tool_option(&t, 'n', "0");
}

static void
bad_format(void)
{
	tool_init(&t, argv0, &info_none);
	tool_option(&t, 'o', "xml");
}

static void
help(void)
{
	tool_init(&t, argv0, &info_dry);
	tool_option(&t, TOOL_HELP, NULL);
}

static void
plain_usage(void)
{
	tool_init(&t, argv0, &info_dry);
	usage();
}

/* An operand with ESC and a backslash: told as text, not obeyed. */
static void
hostile_format(void)
{
	tool_init(&t, argv0, &info_none);
	tool_option(&t, 'o', "\033[31mred\\");
}

static void
three_numbers(void)
{
	char *av[] = { "1", "2", "3" };
	int ac = 3;

	tool_init(&t, argv0, &info_none);
	tool_interval(&t, &ac, av);
}

static void
test_options(void)
{
	tool_init(&t, argv0, &info_dry);
	is_int(t.header, 1, "init: a header by default");
	ok(t.out == stdout, "init: rows to stdout");
	is_int(tool_option(&t, 'H', NULL), 1, "-H is common");
	is_int(t.header, 0, "-H: no header");
	is_int(tool_option(&t, 'o', "json"), 1, "-o is common");
	ok(t.fmt == DS_FMT_JSON && t.fmt_set, "-o json: set");
	tool_option(&t, 'h', NULL);
	tool_option(&t, TOOL_UTC, NULL);
	is_int(t.wopts, DS_W_HUMAN | DS_W_UTC, "-h and --utc: writer options");
	tool_option(&t, 'w', "f");
	tool_option(&t, 'R', "r");
	tool_option(&t, 'O', "a,b");
	ok(strcmp(t.outfile, "f") == 0 && strcmp(t.root, "r") == 0 &&
	    strcmp(t.cols, "a,b") == 0, "-w, -R, -O: kept");
	is_int(tool_option(&t, 'x', NULL), 0, "a tool's own option: 0");
	is_int(tool_option(&t, 'n', NULL), 1, "-n with TOOL_N_DRYRUN: taken");
	is_int(t.dry_run, 1, "-n: a dry run");

	tool_init(&t, argv0, &info_count);
	is_int(tool_option(&t, 'n', "25"), 1, "-n with TOOL_N_COUNT: taken");
	is_u64(t.top, 25, "-n 25: the count");
	is_int(t.dry_run, 0, "-n count: no dry run");

	tool_init(&t, argv0, &info_none);
	is_int(tool_option(&t, 'n', NULL), 0, "-n with TOOL_N_NONE: not ours");
}

static void
test_exits(void)
{
	char buf[4096];

	is_int(child(bad_count, 2, buf, sizeof(buf)), 2, "-n 0: exit 2");
	is_str(buf, "util-opt: -n '0': not a count (1 to 4294967295)\n"
	    "usage: tool [-n count]\n", "-n 0: why, then the synopsis");
	is_int(child(bad_format, 2, buf, sizeof(buf)), 2, "-o xml: exit 2");
	is_str(buf, "util-opt: -o 'xml': unknown format (tsv, json, table, "
	    "prom)\nusage: tool\n", "-o xml: the message");
	is_int(child(hostile_format, 2, buf, sizeof(buf)), 2,
	    "-o ESC[31m: exit 2");
	is_str(buf, "util-opt: -o '\\x1b[31mred\\\\': unknown format (tsv, "
	    "json, table, prom)\nusage: tool\n",
	    "tool_usage: a control byte and a backslash escaped");
	is_int(child(plain_usage, 2, buf, sizeof(buf)), 2, "usage(): exit 2");
	is_str(buf, "usage: tool [-n] thing\n", "usage(): the synopsis");
	is_int(child(three_numbers, 2, buf, sizeof(buf)), 2,
	    "three numbers: exit 2");
	is_str(buf, "util-opt: extra operand '3': only interval and count\n"
	    "usage: tool\n", "three numbers: the message");
	is_int(child(help, 1, buf, sizeof(buf)), 0, "--help: exit 0");
	ok(strncmp(buf, "usage: tool [-n] thing\n  -x            an option\n"
	    "  -H            no header line", 75) == 0,
	    "--help: synopsis, the tool's lines, then the common ones");
}

static void
test_operands(void)
{
	char *a1[] = { "sda", "2", "5" }, *a2[] = { "sda", "0.5" };
	char *a3[] = { "sda", "sdb" }, *a4[] = { "3", "4" };
	char *a5[] = { "2", "5", "sda", "sdb" }, *a6[] = { "0.5", "sda" };
	int ac;

	ok(tool_numeric("1") && tool_numeric(".5") && tool_numeric("1x"),
	    "numeric: a digit, or a point and a digit, first");
	ok(!tool_numeric("sda") && !tool_numeric(".") && !tool_numeric(""),
	    "numeric: not a name, a lone point or nothing");

	tool_init(&t, argv0, &info_none);
	ac = 3;
	tool_interval(&t, &ac, a1);
	ok(ac == 1 && t.has_interval && t.interval_ns == 2000000000ull &&
	    t.count == 5, "sda 2 5: interval 2 s, count 5, one device");
	tool_init(&t, argv0, &info_none);
	ac = 2;
	tool_interval(&t, &ac, a2);
	ok(ac == 1 && t.interval_ns == 500000000ull && t.count == 0,
	    "sda 0.5: interval only");
	tool_init(&t, argv0, &info_none);
	ac = 2;
	tool_interval(&t, &ac, a3);
	ok(ac == 2 && !t.has_interval, "sda sdb: no interval");
	tool_init(&t, argv0, &info_none);
	ac = 4;
	tool_interval(&t, &ac, a5);
	ok(ac == 2 && t.interval_ns == 2000000000ull && t.count == 5 &&
	    strcmp(a5[0], "sda") == 0 && strcmp(a5[1], "sdb") == 0,
	    "2 5 sda sdb: interval 2 s, count 5, the devices moved first");
	tool_init(&t, argv0, &info_none);
	ac = 2;
	tool_interval(&t, &ac, a6);
	ok(ac == 1 && t.interval_ns == 500000000ull && t.count == 0 &&
	    strcmp(a6[0], "sda") == 0, "0.5 sda: interval only, one device");
	tool_init(&t, argv0, &info_none);
	tool_interval_only(&t, 2, a4);
	ok(t.interval_ns == 3000000000ull && t.count == 4,
	    "interval_only: 3 4");
}

static void
test_path(void)
{
	struct tool u;
	const char *a, *b;

	memset(&u, 0, sizeof(u));
	u.r.live = 1;
	strcpy(u.r.path, "/");
	is_str(tool_path(&u, "proc/diskstats"), "/proc/diskstats",
	    "path: live, /rel");
	is_str(tool_path(&u, "/proc/uptime"), "/proc/uptime",
	    "path: a leading / is not doubled");
	u.r.live = 0;
	strcpy(u.r.path, "/tmp/tree");
	a = tool_path(&u, "proc/uptime");
	b = tool_path(&u, "sys/block");
	is_str(a, "/tmp/tree/proc/uptime", "path: under -R, root/rel");
	is_str(b, "/tmp/tree/sys/block", "path: two in one message");
}

static void
bad_seconds(void)
{
	tool_init(&t, argv0, &info_none);
	tool_seconds("-T", "2x");
}

static void
far_seconds(void)
{
	tool_init(&t, argv0, &info_none);
	tool_seconds("-T", "2678401");
}

/* cmd/util/values.c: an option's seconds, as an interval's. */
static void
test_seconds(void)
{
	char buf[4096];

	is_u64(tool_seconds("-T", "2.5"), 2500000000ull, "-T 2.5: in ns");
	is_u64(tool_seconds("-T", "0.01"), 10000000ull, "-T 0.01: the least");
	is_int(child(bad_seconds, 2, buf, sizeof(buf)), 2, "-T 2x: exit 2");
	is_str(buf, "util-opt: -T '2x': not a number\nusage: tool\n",
	    "-T 2x: why, then the synopsis");
	is_int(child(far_seconds, 2, buf, sizeof(buf)), 2,
	    "-T 2678401: exit 2");
	is_str(buf, "util-opt: -T '2678401': out of range (0.01 to 2678400 "
	    "seconds)\nusage: tool\n", "-T past 31 days: the range");
}

/* devsel.c: the operands that matched nothing. */
static void
unmatched(void)
{
	char *args[] = { "sda", "nvme*", "sdz", "/dev/mapper/vg" };
	struct ds_devsel sel;
	size_t n;

	tool_init(&t, argv0, &info_none);
	if (ds_devsel_init(&sel, args, 4) < 0)
		exit(98);
	(void)ds_devsel_match(&sel, "sda", NULL, 1);
	n = tool_unmatched(&sel, "no such block device");
	ds_devsel_free(&sel);
	exit((int)n);
}

static void
test_unmatched(void)
{
	char buf[1024];

	is_int(child(unmatched, 2, buf, sizeof(buf)), 3,
	    "unmatched: three operands told");
	is_str(buf, "util-opt: nvme*: no device matches\n"
	    "util-opt: sdz: no such block device\n"
	    "util-opt: /dev/mapper/vg: no such block device\n",
	    "unmatched: a glob, then names, in order");
}

int
main(void)
{
	test_options();
	test_exits();
	test_operands();
	test_path();
	test_seconds();
	test_unmatched();
	return tap_done();
}
