/* A minimal always-on test harness: CHECK records a failure with file:line and goes on;
 * CHECK_EQ_U64 prints both values; each test binary ends with check_done() as its exit code.
 */
#ifndef BPFSCEV_TESTS_CHECK_H
#define BPFSCEV_TESTS_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static int check_failures, check_count;

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

static inline int check_done(const char *name)
{
	if (check_failures)
		fprintf(stderr, "%s: %d of %d checks failed\n", name, check_failures, check_count);
	else
		printf("%s: %d checks passed\n", name, check_count);
	return check_failures ? 1 : 0;
}

/* Where the source tree is (ctest sets BPFSCEV_SOURCE_DIR; default: the working directory). */
static inline const char *check_source_dir(void)
{
	const char *s = getenv("BPFSCEV_SOURCE_DIR");

	return s ? s : ".";
}

#endif
