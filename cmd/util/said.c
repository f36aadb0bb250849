/* Warnings the library gathered as sentences (ds_rows_said and the like). */
#include "util.h"

/*
 * Warn each sentence of said (each ended by a NUL, one after the
 * other), in order, then empty it for the next ones.
 */
void
tool_said(struct ds_buf *said)
{
	size_t i;

	for (i = 0; i < said->len; i += strlen(said->data + i) + 1)
		warnx("%s", said->data + i);
	said->len = 0;
	if (said->data != NULL)
		said->data[0] = '\0';
}
