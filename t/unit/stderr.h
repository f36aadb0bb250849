/*
 * What a tool's code warns, caught for a unit test: stderr goes to a
 * temporary file from stderr_begin to stderr_end, which gives the text.
 * Messages begin with program_invocation_short_name, which a test may
 * set to the tool's name.
 */
#ifndef STDERR_H
#define STDERR_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static FILE *stderr_file;
static int stderr_saved = -1;

static inline void
stderr_begin(void)
{
	fflush(stderr);
	if ((stderr_file = tmpfile()) == NULL ||
	    (stderr_saved = dup(STDERR_FILENO)) < 0 ||
	    dup2(fileno(stderr_file), STDERR_FILENO) < 0) {
		perror("stderr_begin");
		exit(1);
	}
}

/* The text warned since stderr_begin into buf (cut to size - 1 bytes). */
static inline const char *
stderr_end(char *buf, size_t size)
{
	size_t n;

	fflush(stderr);
	if (dup2(stderr_saved, STDERR_FILENO) < 0)
		exit(1);
	close(stderr_saved);
	rewind(stderr_file);
	n = fread(buf, 1, size - 1, stderr_file);
	buf[n] = '\0';
	fclose(stderr_file);
	return buf;
}

#endif
