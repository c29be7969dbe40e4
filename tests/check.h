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
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

static inline void check_part_time(const char *next);

static inline int check_done(const char *name)
{
	check_part_time(NULL);
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

/* Parts: a long test is registered as N ctest entries that run at once under ctest -j
 * (tests/CMakeLists.txt: `test_x --part K/N`, K from 1), each doing a share of the work and
 * together all of it.  Its main calls check_parts() first; then CHECK_STEP(call) around each of its
 * steps gates the steps round-robin (the K-th of every N), and a step that loops over many
 * independent items runs in every part and takes its share with check_share(i) (the items i
 * with i % N == K - 1).  A check over what all the items did together belongs in a step run by
 * one part, over all of them.  Without --part (1/1) everything runs.  CHECK_PART_TIMES=1 in the
 * environment prints each step's CPU seconds to stderr, to balance the parts by. */
static unsigned check_part_k = 1, check_part_n = 1, check_part_next;
static double check_part_t0;
static const char *check_part_name;

static inline double check_part_cpu(void)
{
	return (double)clock() / CLOCKS_PER_SEC;
}

/* Reads "--part K/N" (1 <= K <= N) from argv and removes it (so the other arguments stay where
 * the test reads them); a malformed one ends the test with its usage. */
static inline void check_parts(int *argc, char **argv)
{
	for (int i = 1; i < *argc; i++) {
		char *end;

		if (strcmp(argv[i], "--part"))
			continue;
		if (i + 1 >= *argc ||
		    (check_part_k = (unsigned)strtoul(argv[i + 1], &end, 10), *end != '/') ||
		    (check_part_n = (unsigned)strtoul(end + 1, &end, 10), *end) ||
		    !check_part_k || check_part_k > check_part_n) {
			fprintf(stderr, "%s: --part K/N with 1 <= K <= N, not '%s'\n", argv[0],
				i + 1 < *argc ? argv[i + 1] : "");
			exit(2);
		}
		for (int j = i; j + 2 <= *argc; j++)
			argv[j] = argv[j + 2];
		*argc -= 2;
		if (check_part_n > 1)
			printf("part %u of %u\n", check_part_k, check_part_n);
		return;
	}
}

/* Whether item i of a step that runs in every part is this part's. */
static inline bool check_share(uint64_t i)
{
	return i % check_part_n == check_part_k - 1;
}

static inline void check_part_time(const char *next)
{
	static int on = -1;
	double t = check_part_cpu();

	if (on < 0)
		on = getenv("CHECK_PART_TIMES") != NULL;
	if (on && check_part_name)
		fprintf(stderr, "step %s: %.2f s\n", check_part_name, t - check_part_t0);
	check_part_name = next;
	check_part_t0 = t;
}

/* Whether the next step (name: what CHECK_PART_TIMES prints) is this part's. */
static inline bool check_step(const char *name)
{
	bool mine = check_part_next++ % check_part_n == check_part_k - 1;

	check_part_time(mine ? name : NULL);
	return mine;
}

/* One step of a test run in parts: CHECK_STEP(test_x(args)) runs the call in its part only. */
#define CHECK_STEP(call)                                                                    \
	do {                                                                                \
		if (check_step(#call))                                                      \
			call;                                                               \
	} while (0)

/* Where the source tree is (ctest sets BPFSCEV_SOURCE_DIR; default: the working directory). */
static inline const char *check_source_dir(void)
{
	const char *s = getenv("BPFSCEV_SOURCE_DIR");

	return s ? s : ".";
}

#endif
