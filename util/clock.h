/* Reading clocks in seconds: wall time (CLOCK_MONOTONIC) for rates and deadlines, this process's
 * or this thread's CPU time for costs that should not count waiting.
 */
#ifndef BPFSCEV_UTIL_CLOCK_H
#define BPFSCEV_UTIL_CLOCK_H

#include <time.h>

static inline double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline double wall_s(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

static inline double cpu_s(void)
{
	return clock_s(CLOCK_PROCESS_CPUTIME_ID);
}

#endif
