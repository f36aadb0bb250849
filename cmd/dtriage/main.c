/*
 * dtriage: is the disk the problem, and if so, whose?  One window of
 * every figure the other tools read, then the library's judgement
 * (ds_triage) as finding rows.
 */
#include "util/util.h"
#include "dtriage/dtriage.h"

static const char synopsis[] =
    "dtriage [-Hh] [-b dir] [-f capture -f capture] [-O cols] [-o fmt]\n"
    "               [-R dir] [-w file] [--utc] [seconds]";

static const char options[] =
    "  -b dir        quiet-time history: dxstat -s snapshots and captures\n"
    "  -f capture    twice: the window between two captures' ends\n"
    "  seconds       the window sampled (default 10, 0.1 to 3600)\n";

static const struct tool_info info = { synopsis, options, TOOL_N_NONE };

/*
 * The judgement's input from the window and the readers; the lists it
 * points to are freed by release().
 */
static void
gather(struct tr *x, struct ds_triage_in *in, struct ds_mounts *ms,
    struct ds_deleted *del)
{
	uint64_t ns = x->s[1].up - x->s[0].up;
	long tck = sysconf(_SC_CLK_TCK);
	double secs, live_s;
	int e;

	memset(in, 0, sizeof(*in));
	in->window_s = (double)ns / 1e9;
	in->since_boot = !x->windowed;
	baseline(x, in);
	/* A tree is not traced, and says nothing of it. */
	in->have_dlat = x->win.traced;
	in->dlat_why = x->win.traced || !x->windowed ? NULL : x->win.why;
	devices(x, in);
	if (x->s[1].io_ok)
		(void)ds_psi_shares(x->windowed ? &x->s[0].io : NULL,
		    &x->s[1].io, ns, &in->io);
	if (x->s[1].mem_ok)
		(void)ds_psi_shares(x->windowed ? &x->s[0].mem : NULL,
		    &x->s[1].mem, ns, &in->mem);
	in->blocked = x->win.blocked;
	in->nblocked = x->win.nblocked;
	in->ncpus = x->s[1].ps.ncpus;
	in->have_iowait = x->s[0].ps_ok && x->s[1].ps_ok &&
	    ds_procstat_iowait(&x->s[0].ps, &x->s[1].ps, &in->iowait_pct) == 0;
	in->delayacct = x->delay;
	secs = (double)(x->s[1].pr.uptime_ns - x->s[0].pr.uptime_ns) / 1e9;
	if ((e = proc_rows(&x->s[0].pr, &x->s[1].pr, x->windowed ? secs : 0,
	    tck, x->delay != 0, x->t.r.nsamples > 0, &in->proc,
	    &in->nproc)) < 0)
		tool_errc(1, e, "processes");
	in->procs_unreadable = x->s[1].pr.unreadable;
	in->nfs = filesystems(x, ms, del, &in->fs);
	in->fds_unreadable = del->denied;
	in->task = x->win.task;
	in->ntask = x->win.ntask;
	in->nlooks = x->win.nlooks;
	in->look_inflight = x->win.look_fl;
	if (ds_kernel_release(&x->t.r, &x->scratch, x->kernel,
	    sizeof(x->kernel)) == 0)
		in->kernel = x->kernel;
	errors(x, in);
	fds(x, in, ms);
	/* A captured tree has no window to rate limits over. */
	live_s = x->windowed ? in->window_s : 0;
	iolimits(x, in, live_s);
	memcgs(x, in, live_s);
	dirty(x, in, live_s);
}

/* What the window and the judgement's input hold. */
static void
release(struct tr *x, struct ds_triage_in *in)
{
	size_t i;

	for (i = 0; i < in->niolim; i++)
		free((void *)in->iolim[i].pids);
	for (i = 0; i < in->nmemcg; i++)
		free((void *)in->memcg[i].pids);
	free((void *)in->iolim);
	free((void *)in->memcg);
	free((void *)in->fds);
	free((void *)in->err);
	for (i = 0; i < 2; i++) {
		ds_iolimits_free(&x->lim[i]);
		ds_memcgs_free(&x->mem[i]);
	}
	free(x->scsi0);
	for (i = 0; i < in->nfs; i++)
		free((void *)in->fs[i].holder);
	free(in->fs);
	free(in->proc);
	free(in->dev);
	free(x->lat);
	ds_window_free(&x->win);
}

/* The window judged and written: 3 when a finding is warn or above. */
static int
judge(struct tr *x)
{
	struct ds_triage_in in;
	struct ds_findings f = { 0 };
	struct ds_mounts ms = { 0 };
	struct ds_deleted del = { 0 };
	int e;

	gather(x, &in, &ms, &del);
	if ((e = ds_triage(&in, &f)) < 0)
		tool_errc(1, e, "triage");
	write_rows(x, &f);
	e = ds_triage_exit(&f);
	release(x, &in);
	ds_findings_free(&f);
	ds_deleted_free(&del);
	ds_mounts_free(&ms);
	return e;
}

int
main(int argc, char **argv)
{
	static const struct option lo[] = { TOOL_LONGOPTS };
	struct tr x;
	const char *files[2];
	int ch, st, nfiles = 0;

	memset(&x, 0, sizeof(x));
	tool_init(&x.t, argv, &info);
	x.window_ns = 10000000000ull;
	while ((ch = getopt_long(argc, argv, TOOL_OPTS "b:f:", lo, NULL)) !=
	    -1) {
		if (tool_option(&x.t, ch, optarg))
			continue;
		if (ch == 'b')
			x.base_dir = optarg;
		else if (ch == 'f' && nfiles == 2)
			tool_usage("-f: two captures, OLD and NEW");
		else if (ch == 'f')
			files[nfiles++] = optarg;
		else
			usage();
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		tool_usage("extra operand '%s': only the window's seconds",
		    argv[1]);
	if (argc == 1 && (tool_parse_interval(argv[0], &x.window_ns) < 0 ||
	    x.window_ns > WINDOW_MAX * 1000000000ull || x.window_ns < TICK_NS))
		tool_usage("seconds '%s': not a number from 0.1 to %u", argv[0],
		    WINDOW_MAX);
	if (nfiles == 1)
		tool_usage("-f %s: two captures (-f OLD -f NEW), or -R for one",
		    files[0]);
	if (nfiles == 2 && argc == 1)
		tool_usage("-f: two captures give their window: no seconds");
	if (nfiles == 2) {
		tool_start_pair(&x.t, files[0], files[1]);
		x.pair = 1;
	}
	else
		tool_start(&x.t);
	writer_open(&x);
	sample_window(&x);
	st = judge(&x);
	tool_exit(st);
}
