/* A duration in seconds given to an option, checked as an interval is. */
#include "util.h"

uint64_t
tool_seconds(const char *what, const char *s)
{
	uint64_t ns;
	int e;

	if ((e = ds_parse_interval(s, &ns)) < 0)
		tool_usage("%s '%s': %s", what, s, e == -ERANGE ?
		    "out of range (0.01 to 2678400 seconds)" :
		    "not a number");
	return ns;
}
