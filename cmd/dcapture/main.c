/*
 * dcapture: the evidence recorded when it happens.  Two samples of what
 * the suite's tools read, seconds apart (one with 0), with the window
 * between them, as one ustar archive that every tool reads with -R.
 * Written atomically to -w FILE (0600 whatever the umask, nothing under
 * FILE unless complete), into -d DIR under a name of its time (keep.c,
 * the older captures pruned), or to stdout when it is not a terminal.
 */
#include <libgen.h>
#include <sys/stat.h>

#include "dcapture.h"

#define SECONDS_MAX 3600
#define DAYS_MAX 36500

static const char synopsis[] =
    "dcapture [-w file | -d dir [-m size] [-a days]] [seconds]";

/* seconds: the window (default 10); 0: one sample (0 to 3600). */
static const char options[] =
    "  -w file       write the capture to file atomically (mode 0600)\n"
    "  -d dir        write it into dir as YYYYmmddTHHMMSSZ.cap (UTC)\n"
    "  -m size       then remove its oldest captures beyond size (K M G T)\n"
    "  -a days       and those older than days\n"
    "  --help        this help;  -V, --version  the version\n";

static const struct tool_info info = { synopsis, options, TOOL_N_NONE };

static const struct option longopts[] = {
	{ "help", no_argument, NULL, TOOL_HELP },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

struct out {
	const char *path;	/* -w FILE, NULL: stdout or -d */
	char tmp[4200];		/* the temporary file beside it */
	int fd;
	struct keep k;		/* -d DIR (k.dir NULL without) */
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
	if (o->k.dir != NULL) {
		keep_open(&o->k);
		if ((o->fd = keep_tmp(&o->k)) < 0)
			tool_errc(1, -o->fd, "%s", o->k.dir);
		return;
	}
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
	if (o->k.dir != NULL) {
		keep_abort(&o->k);
		tool_errc(1, e, "%s: write error", o->k.dir);
	}
	if (o->path != NULL) {
		unlink(o->tmp);
		tool_errc(1, e, "%s: write error", o->path);
	}
	tool_errc(1, e, "write error");
}

/* time_ns: the capture's first sample, which names it under -d. */
static void
out_commit(struct out *o, uint64_t time_ns)
{
	char dir[4200];
	int fd, e;

	if (o->k.dir != NULL) {
		if (fsync(o->fd) < 0 || close(o->fd) < 0)
			out_fail(o, errno);
		if ((e = keep_commit(&o->k, time_ns)) < 0)
			out_fail(o, -e);
		return;
	}
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

/*
 * What the quiet-time history reads of a sample (diskstats, uptime, the
 * disks' identities) first: it stops reading at the processes.
 */
static void
sample(struct cap *c, unsigned int n)
{
	c->sample = n;
	cap_system(c);
	/*
	 * The block devices first: a history reader (lib/caphist.c) stops
	 * once they are past.  Then the cgroups before the processes:
	 * their pressure totals are read a few ms after the sample's
	 * diskstats, not after a scan of every process whose length
	 * varies (measured 60-170 ms under load), which moved a cgroup's
	 * stall share by 2 points.
	 */
	cap_block(c);
	cap_cgroups(c);
	cap_procs(c);
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

static uint64_t
days_arg(const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	if (*s < '0' || *s > '9' || (v = strtoul(s, &end, 10), errno != 0) ||
	    *end != '\0' || v < 1 || v > DAYS_MAX)
		tool_usage("-a '%s': not a number of days (1 to %d)", s,
		    DAYS_MAX);
	return v * 86400ull * 1000000000ull;
}

/* The options and the operand: the output in o, the window returned. */
static uint64_t
parse_args(int argc, char **argv, struct out *o)
{
	uint64_t seconds = 10;
	int ch, e = 0;

	while ((ch = getopt_long(argc, argv, "a:d:m:w:V", longopts, NULL)) !=
	    -1)
		switch (ch) {
		case 'w':
			o->path = optarg;
			break;
		case 'd':
			o->k.dir = optarg;
			break;
		case 'm':
			if ((e = tool_parse_size(optarg, &o->k.max_bytes)) < 0 ||
			    o->k.max_bytes == 0)
				tool_usage("-m '%s': %s", optarg,
				    e == -ERANGE ? "out of range" :
				    "not a size (bytes, or K M G T)");
			break;
		case 'a':
			o->k.max_age_ns = days_arg(optarg);
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
	if (o->path != NULL && o->k.dir != NULL)
		tool_usage("-w and -d: one or the other");
	if (o->k.dir == NULL && (o->k.max_bytes != 0 || o->k.max_age_ns != 0))
		tool_usage("-m and -a prune the captures of -d dir");
	return seconds;
}

int
main(int argc, char **argv)
{
	struct tool t;
	struct out o = { NULL, "", -1, { NULL, -1, 0, 0, "", "" } };
	struct ds_tarw *tw;
	struct cap c;
	uint64_t seconds;
	const char *why = NULL;
	int e, traced = 0, status = 0;

	tool_init(&t, argv, &info);
	seconds = parse_args(argc, argv, &o);

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
	out_commit(&o, c.rt[0] != 0 ? c.rt[0] : ds_realtime_ns());
	if (o.k.dir != NULL && (o.k.max_bytes != 0 || o.k.max_age_ns != 0) &&
	    (e = keep_prune(&o.k, ds_realtime_ns())) != 0) {
		if (e < 0)
			tool_warnc(-e, "%s: pruning", o.k.dir);
		status = 1;
	}
	if (o.k.dir != NULL && (e = keep_sweep(&o.k, ds_realtime_ns())) != 0) {
		if (e < 0)
			tool_warnc(-e, "%s: removing stale temporary files",
			    o.k.dir);
		status = 1;
	}
	if (c.nerrs > 0 && getuid() != 0)
		warnx("%zu things not read without root (capture/errors)",
		    c.nerrs);
	cap_window_free(&c);
	ds_root_close(&c.r);
	ds_buf_free(&c.buf);
	ds_buf_free(&c.line);
	ds_buf_free(&c.errs);
	ds_buf_free(&c.esc);
	ds_buf_free(&c.owners);
	ds_buf_free(&c.fdstat);
	ds_buf_free(&c.refused);
	cap_cgmap_free(&c);
	free(c.rc[0]);
	free(c.rc[1]);
	free(tw);
	if (o.k.dir != NULL)
		close(o.k.fd);
	return status;
}
