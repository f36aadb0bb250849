/*
 * A run's writer set up from the common options, and the sampling
 * loop's question: is another report wanted?
 */
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
tool_next(const struct tool *t, uint64_t *deadline, uint64_t n)
{
	if (!t->has_interval || (t->count != 0 && n >= t->count))
		return 0;
	return !tool_wait(t, deadline);
}
