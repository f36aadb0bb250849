/*
 * dlat: block I/O latency distributions per disk, operation and phase
 * (d2c, q2c, q2d), from hand-assembled eBPF on the block tracepoints.
 */
#include "dlat.h"

static const char synopsis[] =
    "dlat [-bgHhP] [-n count] [-O cols] [-o fmt] [-p phases] [-t threshold]\n"
    "            [-w file] [--utc] [device|glob ...] [interval [count]]\n"
    "       dlat -R capture [-bHhP] [-O cols] [-o fmt] [-p phases] [-w file]\n"
    "            [--utc] [device|glob ...]";

static const char optlines[] =
    "  -b            the histogram itself: a row per bucket (bars in table)\n"
    "  -g            per cgroup (v2) of the queueing task\n"
    "  -n count      with -g: the cgroups with the most requests only\n"
    "  -P            per submitting process: pid, command, bytes, q2c\n"
    "  -p phases     only these (d2c,q2c,q2d; default all)\n"
    "  -t threshold  a row per request that took this long (100ms, 2s, 500us)\n"
    "  interval      seconds between reports; none: trace until SIGINT\n";

static const struct tool_info info = { synopsis, optlines, TOOL_N_COUNT };

/*
 * A report each interval; without one, a report when SIGINT or SIGTERM
 * comes (the sleep is cut short by the signal, and is of a second so
 * that one arriving just before it is not waited on for ever).
 */
static void
run(struct dl *d)
{
	struct ds_blklat_snap s[2];
	uint64_t deadline, reports = 0;
	int cur = 0;

	memset(s, 0, sizeof(s));
	dlat_take(d, NULL, &s[0]);
	deadline = ds_boottime_ns() + d->t.interval_ns;
	while (d->t.count == 0 || reports < d->t.count) {
		while (!d->t.has_interval && !tool_stop)
			dlat_nap(d, ds_boottime_ns() + 1000000000u);
		if (d->t.has_interval && !tool_stop)
			dlat_nap(d, deadline);
		if (d->t.has_interval && tool_wait(&d->t, &deadline))
			break;
		dlat_take(d, &s[cur], &s[!cur]);
		dlat_report(d, &s[cur], &s[!cur]);
		cur = !cur;
		reports++;
		if (!d->t.has_interval)
			break;
	}
	dlat_say_missed(d, &s[cur]);
	ds_blklat_snap_free(&s[0]);
	ds_blklat_snap_free(&s[1]);
}

static void
options(struct dl *d, int argc, char **argv)
{
	static const struct option longopts[] = { TOOL_LONGOPTS };
	int ch;

	uint64_t us;

	while ((ch = getopt_long(argc, argv, TOOL_OPTS "bf:gn:Pp:t:",
	    longopts, NULL)) != -1) {
		if (tool_option(&d->t, ch, optarg))
			continue;
		switch (ch) {
		case 'b':
			d->buckets = 1;
			break;
		case 'f':
			/*
			 * Each capture's histograms count from its own
			 * tracing's start: two are not one counter.
			 */
			tool_usage("-f %s: two captures' tracing sessions are "
			    "not one counter: dlat reads one capture's window "
			    "(-R CAPTURE)", optarg);
		case 'g':
			d->cg = 1;
			break;
		case 't':
			if (ds_parse_duration(optarg, strlen(optarg), &us) < 0 ||
			    us > UINT64_MAX / 1000)
				tool_usage("-t %s: not a duration (a number and "
				    "us, ms or s)", optarg);
			d->slow = 1;
			d->slow_ns = us * 1000;
			break;
		case 'P':
			d->who = 1;
			break;
		case 'p':
			if (ds_blk_phases_parse(optarg, &d->phases) < 0)
				tool_usage("-p %s: phases are d2c, q2c, q2d, "
				    "comma-separated", optarg);
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	tool_interval(&d->t, &argc, argv);
	if (d->buckets + d->who + d->cg + d->slow > 1)
		tool_usage("-b, -g, -P and -t: one of them");
	if (d->slow && d->t.fmt == DS_FMT_PROM)
		tool_usage("-t writes rows of requests, not Prometheus series: "
		    "-o tsv, json or table");
	if (d->t.top != 0 && !d->cg)
		tool_usage("-n bounds -g's cgroups: it needs -g");
	if (d->who && d->phases != 0 &&
	    !(d->phases & DS_BLKLAT_PHASE(DS_BLK_Q2C)))
		tool_usage("-P times q2c: -p must include it");
	if (ds_devsel_init(&d->sel, argv, (size_t)argc) < 0)
		err(1, NULL);
}

int
main(int argc, char **argv)
{
	struct dl d;

	memset(&d, 0, sizeof(d));
	tool_init(&d.t, argv, &info);
	options(&d, argc, argv);
	tool_start(&d.t);
	if (!d.t.r.live)
		dlat_capture_run(&d);
	else {
		dlat_writer_open(&d);
		dlat_start(&d);
		if (d.slow)
			dlat_slow_run(&d);
		else
			run(&d);
	}
	ds_blklat_close(&d.b);
	ds_writer_free(&d.w);
	ds_buf_free(&d.out);
	ds_devsel_free(&d.sel);
	ds_cgids_free(&d.ids);
	free(d.disk);
	tool_exit(0);
}
