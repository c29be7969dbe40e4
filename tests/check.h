/* A minimal always-on test harness: CHECK records a failure with file:line and goes on;
 * CHECK_EQ_U64 prints both values; each test binary ends with check_done() as its exit code.
 * A test whose subject cannot be checked here (no kernel, no clang-built objects, no data)
 * ends with check_skip() instead: one line "SKIP: reason" and exit code CHECK_SKIP (77), which
 * ctest reports as skipped because every test is registered with SKIP_RETURN_CODE 77.  A part
 * that could not run while the main subject was checked is named by check_skip_part(), and the
 * test passes saying so.
 */
#ifndef BPFSCEV_TESTS_CHECK_H
#define BPFSCEV_TESTS_CHECK_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* The exit code ctest's SKIP_RETURN_CODE property turns into "Skipped". */
#define CHECK_SKIP 77

static int check_failures, check_count, check_parts_skipped;

#define CHECK(cond, ...)                                                                    \
	do {                                                                                \
		check_count++;                                                              \
		if (!(cond)) {                                                              \
			check_failures++;                                                   \
			fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__,   \
				#cond);                                                     \
			fprintf(stderr, __VA_ARGS__);                                       \
			fputc('\n', stderr);                                                \
		}                                                                           \
	} while (0)

#define CHECK_EQ_U64(a, b, ctx)                                                             \
	do {                                                                                \
		uint64_t check_a_ = (uint64_t)(a), check_b_ = (uint64_t)(b);                \
		CHECK(check_a_ == check_b_, "%s: %s = %" PRIu64 " (0x%" PRIx64 "), expected %" PRIu64 \
		      " (0x%" PRIx64 ")", ctx, #a, check_a_, check_a_, check_b_, check_b_);  \
	} while (0)

/* The tests' pseudo-random numbers (xorshift64): the next value of the sequence in *state, a
 * nonzero seed. */
static inline uint64_t check_rand(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

static inline int check_done(const char *name)
{
	if (check_failures)
		fprintf(stderr, "%s: %d of %d checks failed\n", name, check_failures, check_count);
	else if (check_parts_skipped)
		printf("%s: %d checks passed, %d part%s skipped (see above)\n", name, check_count,
		       check_parts_skipped, check_parts_skipped > 1 ? "s" : "");
	else
		printf("%s: %d checks passed\n", name, check_count);
	return check_failures ? 1 : 0;
}

/* The test's subject could not be checked: "SKIP: reason" and the skip exit code, as in
 * `return check_skip(name, "no kernel: %s", why);`.  Checks that already failed still fail the
 * test: a skip must not hide them. */
static inline __attribute__((format(printf, 2, 3))) int check_skip(const char *name,
								   const char *fmt, ...)
{
	va_list ap;

	if (check_failures)
		return check_done(name);
	va_start(ap, fmt);
	fputs("SKIP: ", stdout);
	vprintf(fmt, ap);
	putchar('\n');
	va_end(ap);
	return CHECK_SKIP;
}

/* One part of a test could not run, the rest did: said in one line, counted by check_done(). */
static inline __attribute__((format(printf, 1, 2))) void check_skip_part(const char *fmt, ...)
{
	va_list ap;

	check_parts_skipped++;
	va_start(ap, fmt);
	fputs("skipped part: ", stdout);
	vprintf(fmt, ap);
	putchar('\n');
	va_end(ap);
}

/* Where the source tree is (ctest sets BPFSCEV_SOURCE_DIR; default: the working directory). */
static inline const char *check_source_dir(void)
{
	const char *s = getenv("BPFSCEV_SOURCE_DIR");

	return s ? s : ".";
}

#endif
