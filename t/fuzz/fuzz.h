/*
 * Shared by the fuzz harnesses in t/fuzz.  Each harness is one file,
 * t/fuzz/NAME.c, defining LLVMFuzzerTestOneInput; its seeds live in
 * t/fuzz/corpus/NAME/ and the inputs that once broke it in
 * t/fuzz/regress/NAME/.  "make fuzz" builds it with libFuzzer, ASan and
 * UBSan; t/8001-fuzz-replay.t builds it with the normal compiler and
 * t/fuzz/replay.c and runs it over both directories in "make check".
 *
 * A harness checks properties, not just "did not crash": a broken
 * invariant calls FUZZ_CHECK, which prints the line and aborts, so
 * libFuzzer saves the input and replay fails.
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/mman.h>
#include <unistd.h>

#include "../unit/oracle.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond) do { \
	if (!(cond)) { \
		fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, \
		    __LINE__, #cond); \
		abort(); \
	} \
} while (0)

/*
 * A NUL-terminated copy in a buffer of exactly size + 1 bytes, so the
 * sanitizer sees any read past the terminator.
 */
static inline char *
fuzz_strdup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s == NULL)
		abort();
	if (size > 0)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* An exact-size copy with no terminator, for the length-taking parsers. */
static inline char *
fuzz_memdup(const uint8_t *data, size_t size)
{
	char *s = malloc(size > 0 ? size : 1);

	if (s == NULL)
		abort();
	if (size > 0)
		memcpy(s, data, size);
	return s;
}

/* A pointer lies in [lo, lo + n]. */
static inline int
fuzz_within(const char *p, const char *lo, size_t n)
{
	return p >= lo && p <= lo + n;
}

/* A descriptor reading the bytes from the start (a memfd). */
static inline int
fuzz_fd(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz", MFD_CLOEXEC);

	if (fd < 0 || (size > 0 && write(fd, data, size) != (ssize_t)size) ||
	    lseek(fd, 0, SEEK_SET) != 0)
		abort();
	return fd;
}

#endif
