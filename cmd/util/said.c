/* Warnings the library gathered as sentences (ds_rows_said and the like). */
#include "util.h"

/*
 * e is what the call that gathered the sentences returned: a -errno
 * ends the program with its message (as tool_errc), anything else has
 * each sentence of said (each ended by a NUL, one after the other)
 * warned, in order, said emptied for the next ones, and e returned.
 */
int
tool_said(int e, struct ds_buf *said)
{
	size_t i;

	if (e < 0)
		tool_errc(1, e, NULL);
	for (i = 0; i < said->len; i += strlen(said->data + i) + 1)
		warnx("%s", said->data + i);
	said->len = 0;
	if (said->data != NULL)
		said->data[0] = '\0';
	return e;
}
