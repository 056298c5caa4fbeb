/* mono_clock.h: seconds on the monotonic clock, what the CLI's timings, stall detection and
 * time limits count in (one reading for all of them, never the wall clock, which can jump). */
#ifndef MPIRR_CLI_MONO_CLOCK_H
#define MPIRR_CLI_MONO_CLOCK_H

#include <time.h>

static inline double mono_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif
