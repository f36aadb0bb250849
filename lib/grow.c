/* Growing an array by doubling, with its overflow checks in one place. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

int
ds_grow(void *pp, size_t *cap, size_t need, size_t size)
{
	void *p;
	size_t c;

	if (need <= *cap)
		return 0;
	if (size == 0 || need > SIZE_MAX / size)
		return -ENOMEM;
	c = *cap ? *cap : 16;
	while (c < need)
		c = c > SIZE_MAX / 2 ? need : c * 2;
	if (c > SIZE_MAX / size)
		c = need;
	memcpy(&p, pp, sizeof(p));
	if ((p = realloc(p, c * size)) == NULL)
		return -ENOMEM;
	memcpy(pp, &p, sizeof(p));
	*cap = c;
	return 0;
}
