/*
 * A run's writer set up from the common options, and the sampling
 * loop's question: is another report wanted?
 */
#include <sys/stat.h>

#include "util.h"

/* w over cols, as -o, -H, -O and the table options ask; exits on failure. */
void
tool_writer_open(struct tool *t, struct ds_writer *w,
    const struct ds_col *cols, size_t ncols, const char *prefix)
{
	int e;

	if ((e = ds_writer_init(w, t->out, t->fmt, cols, ncols, t->header,
	    prefix)) < 0)
		tool_errc(1, e, "writer");
	tool_writer(t, w);
}

/*
 * After n reports past the first: 1 when another is wanted (an interval,
 * count not reached) and its deadline has come, 0 when the run is over
 * (no interval, count reached, or a signal said stop).
 */
int
tool_next(struct tool *t, uint64_t *deadline, uint64_t n)
{
	if (!t->has_interval || (t->count != 0 && n >= t->count))
		return 0;
	return !tool_wait(t, deadline);
}

/*
 * Under a capture of two samples (-R CAPTURE, or -f OLD -f NEW): one
 * report of the window, as if run live with "interval = the window,
 * count 1".  An interval operand is refused rather than ignored: the
 * capture's interval is fixed when it is taken, and rates over some
 * other one cannot be had from it.  Returns 1 for such a capture (the
 * interval and count set), 0 for anything else (a one-sample capture
 * is read as a copied tree: since boot).
 */
int
tool_window(struct tool *t)
{
	struct ds_buf scratch = { 0 };
	uint64_t ns = 0, u0, u1;

	if (t->r.nsamples < 2)
		return 0;
	if (t->has_interval)
		tool_usage("%s: a capture reports its own window: no interval "
		    "or count", t->r.path);
	if (ds_capture_u64(&t->r, "window_ns", &scratch, &ns) < 0 || ns == 0) {
		if (ds_capture_u64(&t->r, "uptime0", &scratch, &u0) == 0 &&
		    ds_capture_u64(&t->r, "uptime1", &scratch, &u1) == 0 &&
		    u1 > u0)
			ns = u1 - u0;
	}
	ds_buf_free(&scratch);
	/* Only the deadline's step: rates use the samples' own uptimes. */
	t->interval_ns = ns != 0 ? ns : 1000000000u;
	t->has_interval = 1;
	t->count = 1;
	return 1;
}

/*
 * -f OLD -f NEW: the root made of OLD's last sample then NEW's, for
 * tool_window; exits with a message when either is no capture.
 */
void
tool_start_pair(struct tool *t, const char *old, const char *new)
{
	struct ds_buf why = { 0 };
	int e;

	if (!t->fmt_set)
		t->fmt = t->outfile != NULL ? DS_FMT_TSV :
		    tool_fmt_default(STDOUT_FILENO);
	if ((e = ds_root_open_pair(&t->r, old, new)) < 0) {
		/*
		 * The library says which capture and why ("OLD and NEW:
		 * captures of different boots ...", "NEW: member 3 ..."),
		 * naming them itself; only the errno is left otherwise.
		 */
		(void)ds_capture_pair_check(old, new, &why);
		if (why.len > 0 && e == -EINVAL)
			tool_errx(1, "-f OLD -f NEW: %s", why.data);
		if (why.len > 0)
			tool_errc(1, e, "-f OLD -f NEW: %s", why.data);
		tool_errc(1, e, "-f %s -f %s", old, new);
	}
	tool_root_atexit(&t->r);
}

/* dqueue, ddeleted: a capture is read at its last sample. */
void
tool_root_last(struct tool *t)
{
	int e;

	while ((e = ds_root_next(&t->r)) == 0)
		;
	if (e != -ENOENT)
		tool_errc(1, e, "%s: sample %u", t->r.path, t->r.sample + 1);
}

/*
 * path names a capture rather than a snapshot file: a directory, or a
 * ustar archive ("ustar" at byte 257 of its first header).
 */
int
tool_is_capture(const char *path)
{
	struct stat st;
	char h[263];
	int fd, ok = 0;

	if (strcmp(path, "-") == 0 || stat(path, &st) < 0)
		return 0;
	if (S_ISDIR(st.st_mode))
		return 1;
	if (!S_ISREG(st.st_mode) ||
	    (fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
		return 0;
	ok = read(fd, h, sizeof(h)) == (ssize_t)sizeof(h) &&
	    memcmp(h + 257, "ustar", 5) == 0;
	close(fd);
	return ok;
}
