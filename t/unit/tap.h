/* A tiny TAP producer for the C unit tests. */
#ifndef TAP_H
#define TAP_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static void
tap_ok(int cond, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#include <stdarg.h>
static void
tap_ok(int cond, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", cond ? "ok" : "not ok", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond) {
		printf("#   failed at %s line %d\n", file, line);
		tap_failed++;
	}
}

#define ok(cond, ...) tap_ok((cond) != 0, __FILE__, __LINE__, __VA_ARGS__)
#define is_int(got, want, name) do { \
	long long g_ = (long long)(got), w_ = (long long)(want); \
	tap_ok(g_ == w_, __FILE__, __LINE__, "%s", name); \
	if (g_ != w_) printf("#   got %lld, want %lld\n", g_, w_); \
} while (0)
#define is_u64(got, want, name) do { \
	uint64_t g_ = (got), w_ = (want); \
	tap_ok(g_ == w_, __FILE__, __LINE__, "%s", name); \
	if (g_ != w_) printf("#   got %" PRIu64 ", want %" PRIu64 "\n", g_, w_); \
} while (0)
#define is_str(got, want, name) do { \
	const char *g_ = (got), *w_ = (want); \
	int c_ = g_ != NULL && w_ != NULL && strcmp(g_, w_) == 0; \
	tap_ok(c_, __FILE__, __LINE__, "%s", name); \
	if (!c_) printf("#   got  '%s'\n#   want '%s'\n", g_ ? g_ : "(null)", \
	    w_ ? w_ : "(null)"); \
} while (0)

/* A check that cannot be made here: "ok N - what # SKIP why". */
static inline void
skip(const char *what, const char *why)
{
	printf("ok %d - %s # SKIP %s\n", ++tap_n, what, why);
}

/* Nothing in this test can run here: a plan of none.  Returns 0. */
static inline int
skip_all(const char *why)
{
	printf("1..0 # SKIP %s\n", why);
	return 0;
}

static int
tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
