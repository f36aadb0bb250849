/*
 * What the code under test said on stderr: fd 2 goes to a temporary
 * file, read back and emptied by heard(), each line's "PROGRAM: " cut.
 */
#ifndef HEARD_H
#define HEARD_H

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char heard_text[8192];

/* From now on stderr goes to a file of its own; 0, or -1. */
static int
heard_init(void)
{
	FILE *f = tmpfile();

	return f != NULL && dup2(fileno(f), 2) == 2 ? 0 : -1;
}

/* The lines said since the last call, "" for none. */
static const char *
heard(void)
{
	const char *name = program_invocation_short_name;
	char raw[sizeof(heard_text)], *p = raw, *o = heard_text;
	size_t nl = strlen(name);
	ssize_t n;

	fflush(stderr);
	n = pread(2, raw, sizeof(raw) - 1, 0);
	raw[n < 0 ? 0 : n] = '\0';
	if (ftruncate(2, 0) != 0 || lseek(2, 0, SEEK_SET) != 0)
		printf("# could not empty stderr's file\n");
	while (*p != '\0') {
		if (strncmp(p, name, nl) == 0 && strncmp(p + nl, ": ", 2) == 0)
			p += nl + 2;
		while (*p != '\0' && (*o++ = *p++) != '\n')
			;
	}
	*o = '\0';
	return heard_text;
}

#endif
