/*
 * dcapture: the evidence recorded when it happens.  Two samples of what
 * the suite's tools read, seconds apart (one with 0), with the window
 * between them, as one ustar archive that every tool reads with -R.
 * Written atomically to -w FILE (0600 whatever the umask, nothing under
 * FILE unless complete) or to stdout when it is not a terminal.
 */
#include <libgen.h>
#include <sys/stat.h>

#include "dcapture.h"

#define SECONDS_MAX 3600

static const char synopsis[] = "dcapture [-w file] [seconds]";

/* seconds: the window (default 10); 0: one sample (0 to 3600). */
static const char options[] =
    "  -w file       write the capture to file atomically (mode 0600)\n"
    "  --help        this help;  -V, --version  the version\n";

static const struct tool_info info = { synopsis, options, TOOL_N_NONE };

static const struct option longopts[] = {
	{ "help", no_argument, NULL, TOOL_HELP },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

struct out {
	const char *path;	/* -w FILE, NULL: stdout */
	char tmp[4200];		/* the temporary file beside it */
	int fd;
};

static _Noreturn void
help(void)
{
	printf("usage: %s\n%s", synopsis, options);
	tool_exit(0);
}

/* The temporary file beside path, 0600 whatever the umask. */
static void
out_open(struct out *o)
{
	if (o->path == NULL) {
		if (isatty(STDOUT_FILENO))
			tool_usage("will not write an archive to a terminal "
			    "(use -w file or a pipe)");
		o->fd = STDOUT_FILENO;
		return;
	}
	if ((size_t)snprintf(o->tmp, sizeof(o->tmp), "%s.XXXXXX", o->path) >=
	    sizeof(o->tmp))
		tool_errc(1, ENAMETOOLONG, "%s", o->path);
	if ((o->fd = mkstemp(o->tmp)) < 0)
		tool_err(1, "%s", o->tmp);
	if (fchmod(o->fd, 0600) < 0) {
		int e = errno;

		unlink(o->tmp);
		tool_errc(1, e, "%s", o->tmp);
	}
}

/* On any failure: the temporary file gone, nothing under the name. */
static _Noreturn void
out_fail(struct out *o, int e)
{
	if (o->path != NULL) {
		unlink(o->tmp);
		tool_errc(1, e, "%s: write error", o->path);
	}
	tool_errc(1, e, "write error");
}

static void
out_commit(struct out *o)
{
	char dir[4200];
	int fd;

	if (o->path == NULL)
		return;
	if (fsync(o->fd) < 0 || close(o->fd) < 0)
		out_fail(o, errno);
	if (rename(o->tmp, o->path) < 0)
		out_fail(o, errno);
	/* The rename itself made durable: the directory synced. */
	snprintf(dir, sizeof(dir), "%s", o->path);
	if ((fd = open(dirname(dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >=
	    0) {
		(void)fsync(fd);
		close(fd);
	}
}

static void
sample(struct cap *c, unsigned int n)
{
	c->sample = n;
	cap_system(c);
	/*
	 * The cgroups before the processes: their pressure totals are
	 * then read a few ms after the sample's diskstats, not after a
	 * scan of every process whose length varies (measured 60-170 ms
	 * under load), which moved a cgroup's stall share by 2 points.
	 */
	cap_cgroups(c);
	cap_procs(c);
	cap_block(c);
	cap_deleted(c);
	cap_statfs(c);
}

/*
 * The window's ticks (every CAP_TICK_NS) until seconds after sample 0's
 * diskstats read, or a signal: the second sample is then taken at once.
 */
static void
window(struct cap *c, uint64_t seconds)
{
	uint64_t end = c->up[0] + seconds * 1000000000ull, until;
	int more;

	while (!tool_stop) {
		more = cap_window_tick(c, end, &until);
		while (!tool_stop && ds_sleep_until(until) == -EINTR)
			;
		if (!more)
			break;
	}
}

static uint64_t
seconds_arg(const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	if (*s < '0' || *s > '9' || (v = strtoul(s, &end, 10), errno != 0) ||
	    *end != '\0' || v > SECONDS_MAX)
		tool_usage("'%s': not a number of seconds (0 to %d)", s,
		    SECONDS_MAX);
	return v;
}

int
main(int argc, char **argv)
{
	struct tool t;
	struct out o = { NULL, "", -1 };
	struct ds_tarw *tw;
	struct cap c;
	uint64_t seconds = 10;
	const char *why = NULL;
	int ch, e, traced = 0;

	tool_init(&t, argv, &info);
	while ((ch = getopt_long(argc, argv, "w:V", longopts, NULL)) != -1)
		switch (ch) {
		case 'w':
			o.path = optarg;
			break;
		case 'V':
			tool_version();
		case TOOL_HELP:
			help();
		default:
			usage();
		}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		usage();
	if (argc == 1)
		seconds = seconds_arg(argv[0]);

	memset(&c, 0, sizeof(c));
	if ((e = ds_root_open(&c.r, "/")) < 0)
		tool_errc(1, e, "/");
	if ((tw = malloc(sizeof(*tw))) == NULL)
		tool_errc(1, ENOMEM, "archive");
	c.tw = tw;
	out_open(&o);
	ds_tarw_init(tw, o.fd, ds_realtime_ns() / 1000000000u);

	if (seconds > 0)
		(void)cap_window_begin(&c, seconds * 1000000000ull);
	sample(&c, 0);
	if (seconds > 0) {
		window(&c, seconds);
		/*
		 * The last latency snapshot before sample 1, as dtriage
		 * takes it live: sample 1's diskstats come right after, and
		 * its scans (every process, cgroup, deleted file) fall
		 * outside the traced span, which is then the window's.
		 */
		cap_window_end(&c);
		sample(&c, 1);
		(void)cap_window_emit(&c, &traced, &why);
	} else
		why = "one sample: no window";
	if (tw->err == 0)
		(void)cap_meta(&c, seconds > 0 ? 2 : 1, traced, why);
	if ((e = ds_tarw_end(tw)) < 0)
		out_fail(&o, -e);
	out_commit(&o);
	if (c.nerrs > 0 && getuid() != 0)
		warnx("%zu things not read without root (capture/errors)",
		    c.nerrs);
	cap_window_free(&c);
	ds_root_close(&c.r);
	ds_buf_free(&c.buf);
	ds_buf_free(&c.line);
	ds_buf_free(&c.errs);
	ds_buf_free(&c.esc);
	free(tw);
	return 0;
}
