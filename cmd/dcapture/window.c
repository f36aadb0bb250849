/*
 * The window between the two samples: dtriage's ticks and looks and
 * dlat's histograms (lib's window API, ds_window_*).  These wrappers
 * are where dcapture calls it; until that API is in, they record
 * nothing and the capture says it was not traced.
 */
#include "dcapture.h"

int
cap_window_begin(struct cap *c, uint64_t window_ns)
{
	(void)c;
	(void)window_ns;
	return 0;
}

void
cap_window_tick(struct cap *c)
{
	(void)c;
}

void
cap_window_end(struct cap *c)
{
	(void)c;
}

/* capture/window, dlat.0, dlat.1 and kmsg; *traced, *why for meta. */
int
cap_window_emit(struct cap *c, int *traced, const char **why)
{
	(void)c;
	*traced = 0;
	*why = "block-latency tracing not built in";
	return 0;
}
