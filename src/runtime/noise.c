/* noise.c: timing-noise injection (MPIRR_NOISE_US=N): a random sleep of 0..N microseconds
 * before every intercepted call, in any mode, so tests can show that replay is deterministic
 * however the timing is perturbed. The generator is per thread and seeded from the clock and
 * the pid, so every rank and every run is perturbed differently. */
#include <time.h>
#include <unistd.h>

#include "runtime.h"

static _Thread_local uint64_t state;

static uint64_t next(void)
{
    if (!state) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        state = ((uint64_t)ts.tv_nsec << 20) ^ (uint64_t)ts.tv_sec ^ ((uint64_t)getpid() << 40) ^
                (uint64_t)(uintptr_t)&state;
        if (!state) state = 1;
    }
    state ^= state << 13; /* xorshift64 */
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

void mpirr_noise(void)
{
    uint64_t us = next() % (mpirr_rt.noise_us + 1);
    if (!us) return;
    struct timespec ts = {.tv_sec = (time_t)(us / 1000000), .tv_nsec = (long)(us % 1000000) * 1000};
    nanosleep(&ts, NULL);
}
