/*
 * Reports: a writer set up from the options, each report begun and
 * ended (with -w, into its own file), the wait between them, the
 * signals that end a run, and stdout checked at exit.
 */
#include "util.h"

volatile sig_atomic_t tool_stop;

static void
on_signal(int sig)
{
	(void)sig;
	tool_stop = 1;
}

void
tool_signals(void)
{
	struct sigaction sa;

	/* No SA_RESTART: a signal ends the sleep between samples at once. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* SIGPIPE stays default: "tool 1 | head -1" ends quietly. */
	signal(SIGPIPE, SIG_DFL);
}

/* Column selection (-O) and table options on a writer; -O help lists. */
void
tool_writer(struct tool *t, struct ds_writer *w)
{
	const char *bad;
	size_t badlen;

	ds_writer_opts(w, t->wopts);
	if (t->cols != NULL && strcmp(t->cols, "help") == 0) {
		(void)ds_writer_help(w, stdout);
		printf("(+): not in the default table; -O +COL adds it\n");
		tool_exit_check();
		exit(0);
	}
	if (ds_writer_select(w, t->cols, &bad, &badlen) < 0)
		tool_usage("-O: column '%.*s': unknown or listed twice "
		    "(-O help lists them)", (int)badlen, bad);
}

/* Before a report's first row: with -w, a fresh temporary file. */
void
tool_report_begin(struct tool *t, struct ds_writer *w)
{
	int e;

	if (t->outfile == NULL)
		return;
	if ((e = ds_writer_to_file(w, t->outfile)) < 0)
		tool_errc(1, e, "%s", t->outfile);
	t->w = w;
}

/*
 * A failure in the middle of a report (a file that could not be read to
 * its end): with -w the temporary file is removed, so that nothing half
 * written is ever renamed into place; then as tool_errc.
 */
void
tool_report_fail(struct tool *t, int e, const char *fmt, ...)
{
	va_list ap;

	if (t->w != NULL)
		ds_writer_abort(t->w);
	va_start(ap, fmt);
	tool_vmsg(e < 0 ? -e : e, fmt, ap);
	va_end(ap);
	exit(1);
}

/* End a report: flush, check, and with -w rename into place. */
void
tool_report_end(struct tool *t, struct ds_writer *w)
{
	int e;

	e = ds_writer_commit(w);
	if (t->outfile != NULL) {
		t->w = NULL;
		if (e < 0)
			tool_errc(1, e, "%s: write error", t->outfile);
		return;
	}
	if (e < 0)
		tool_errc(1, e, "write error");
}

/*
 * Sleep until *deadline (CLOCK_BOOTTIME ns) and move it on by one
 * interval.  Deadlines are absolute, so reports do not drift; after a
 * long stall (a suspended VM) the next deadline starts from now.
 * Under a capture there is nothing to wait for: the next sample is the
 * capture's next one, and the run is over after its last.  Returns 1
 * when a signal asked us to stop, or a capture has no more samples.
 */
int
tool_wait(struct tool *t, uint64_t *deadline)
{
	uint64_t now;
	int e;

	if (t->r.nsamples > 0) {
		if (tool_stop)
			return 1;
		if ((e = ds_root_next(&t->r)) == -ENOENT)
			return 1;
		if (e < 0)
			tool_errc(1, e, "%s: sample %u", t->r.path,
			    t->r.sample + 1);
		return 0;
	}
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

void
tool_exit_check(void)
{
	if (fflush(stdout) == EOF || ferror(stdout))
		err(1, "write error");
}

/* At exit: stdout must have reached its destination. */
void
tool_exit(int status)
{
	errno = 0;
	if (fflush(stdout) == EOF || ferror(stdout) || fclose(stdout) == EOF)
		err(1, "write error");
	exit(status);
}
