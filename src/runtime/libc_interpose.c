/* libc_interpose.c: the interposed libc functions (libmpirr.so is preloaded, so the program's
 * calls of time, gettimeofday, clock_gettime, getrandom, getentropy, getpid, gethostname come
 * here first). Each passes straight through unless mpirr_libc_wanted says the call is the
 * application's and its group is recorded or replayed (one load while nothing is: before
 * MPI_Init, after MPI_Finalize, in mpirun, without mpirr). Recording calls the real function
 * and logs its result; replay returns the logged one. Time calls still make the real call in
 * replay, so that a bad clock or address fails as it did (failures are not logged).
 *
 * rand, random, drand48 are not interposed: their sequences are functions of their seeds, and
 * seeds come from these calls, which are replayed (docs/runtime.md). */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/types.h> /* struct timeval: <sys/time.h> would declare gettimeofday nonnull */
#include <time.h>
#include <unistd.h>

#include "libc_runtime.h"
#include "real_call.h"

#define NS_PER_S 1000000000ll

int gettimeofday(struct timeval *restrict tv, void *restrict tz);
extern _Noreturn void __chk_fail(void);

static time_t (*real_time)(time_t *);
static int (*real_gettimeofday)(struct timeval *restrict, void *restrict);
static int (*real_clock_gettime)(clockid_t, struct timespec *);
static ssize_t (*real_getrandom)(void *, size_t, unsigned);
static int (*real_getentropy)(void *, size_t);
static pid_t (*real_getpid)(void);
static int (*real_gethostname)(char *, size_t);

/* The recorded form of a return value: itself, or -errno for a failure. */
static uint64_t outcome(long rc) { return (uint64_t)(int64_t)(rc < 0 ? -errno : rc); }
/* ... and back: the return value, errno set for a failure. */
static long replayed_outcome(uint64_t v)
{
    int64_t x = (int64_t)v;
    if (x >= 0) return (long)x;
    errno = (int)-x;
    return -1;
}

/* Logs a result of the real call; the program's errno is left as the call set it. */
static void record(unsigned source, uint64_t value, const void *bytes, size_t n)
{
    int saved = errno;
    mpirr_libc_record(source, value, bytes, (uint32_t)n);
    errno = saved;
}

time_t time(time_t *t)
{
    if (!mpirr_libc_wanted(MPIRR_LIBC_TIME, __builtin_return_address(0))) return REAL(time)(t);
    time_t v;
    if (mpirr_replaying()) {
        v = (time_t)((int64_t)mpirr_libc_replay(MPIRR_LIBC_TIME, NULL, 0, NULL) / NS_PER_S);
    } else {
        v = REAL(time)(NULL);
        record(MPIRR_LIBC_TIME, (uint64_t)((int64_t)v * NS_PER_S), NULL, 0);
    }
    if (t) *t = v;
    return v;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
    int rc = REAL(gettimeofday)(tv, tz);
    if (rc || !tv || !mpirr_libc_wanted(MPIRR_LIBC_GETTIMEOFDAY, __builtin_return_address(0)))
        return rc;
    if (mpirr_replaying()) {
        int64_t us = (int64_t)mpirr_libc_replay(MPIRR_LIBC_GETTIMEOFDAY, NULL, 0, NULL) / 1000;
        tv->tv_sec = (time_t)(us / 1000000);
        tv->tv_usec = (suseconds_t)(us % 1000000);
    } else {
        record(MPIRR_LIBC_GETTIMEOFDAY,
               (uint64_t)((int64_t)tv->tv_sec * NS_PER_S + (int64_t)tv->tv_usec * 1000), NULL, 0);
    }
    return rc;
}

/* The source of a clock: its own for the standard clocks, one for all others. */
static unsigned clock_source(clockid_t id)
{
    static const unsigned char sources[] = {
        [CLOCK_REALTIME] = MPIRR_LIBC_CLOCK_REALTIME,
        [CLOCK_MONOTONIC] = MPIRR_LIBC_CLOCK_MONOTONIC,
        [CLOCK_PROCESS_CPUTIME_ID] = MPIRR_LIBC_CLOCK_PROCESS_CPUTIME_ID,
        [CLOCK_THREAD_CPUTIME_ID] = MPIRR_LIBC_CLOCK_THREAD_CPUTIME_ID,
        [CLOCK_MONOTONIC_RAW] = MPIRR_LIBC_CLOCK_MONOTONIC_RAW,
        [CLOCK_REALTIME_COARSE] = MPIRR_LIBC_CLOCK_REALTIME_COARSE,
        [CLOCK_MONOTONIC_COARSE] = MPIRR_LIBC_CLOCK_MONOTONIC_COARSE,
        [CLOCK_BOOTTIME] = MPIRR_LIBC_CLOCK_BOOTTIME,
        [CLOCK_TAI] = MPIRR_LIBC_CLOCK_TAI,
    };
    unsigned s = id >= 0 && (size_t)id < sizeof sources ? sources[id] : 0;
    return s ? s : MPIRR_LIBC_CLOCK_OTHER;
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
    int rc = REAL(clock_gettime)(id, ts);
    if (rc) return rc;
    unsigned source = clock_source(id);
    if (!mpirr_libc_wanted(source, __builtin_return_address(0))) return rc;
    if (mpirr_replaying()) {
        int64_t ns = (int64_t)mpirr_libc_replay(source, NULL, 0, NULL);
        ts->tv_sec = (time_t)(ns / NS_PER_S);
        ts->tv_nsec = (long)(ns % NS_PER_S);
    } else {
        record(source, (uint64_t)((int64_t)ts->tv_sec * NS_PER_S + ts->tv_nsec), NULL, 0);
    }
    return rc;
}

/* getrandom and getentropy: the return value and the bytes. */
static long random_bytes(unsigned source, void *buf, size_t len, long rc)
{
    if (mpirr_replaying()) {
        return replayed_outcome(mpirr_libc_replay(source, buf, len, NULL));
    }
    size_t got = source == MPIRR_LIBC_GETENTROPY ? (rc == 0 ? len : 0) : (rc > 0 ? (size_t)rc : 0);
    record(source, outcome(rc), buf, got);
    return rc;
}

ssize_t getrandom(void *buf, size_t len, unsigned flags)
{
    if (!mpirr_libc_wanted(MPIRR_LIBC_GETRANDOM, __builtin_return_address(0)))
        return REAL(getrandom)(buf, len, flags);
    long rc = mpirr_replaying() ? 0 : REAL(getrandom)(buf, len, flags);
    return random_bytes(MPIRR_LIBC_GETRANDOM, buf, len, rc);
}

int getentropy(void *buf, size_t len)
{
    if (!mpirr_libc_wanted(MPIRR_LIBC_GETENTROPY, __builtin_return_address(0)))
        return REAL(getentropy)(buf, len);
    long rc = mpirr_replaying() ? 0 : REAL(getentropy)(buf, len);
    return (int)random_bytes(MPIRR_LIBC_GETENTROPY, buf, len, rc);
}

pid_t getpid(void)
{
    if (!mpirr_libc_wanted(MPIRR_LIBC_GETPID, __builtin_return_address(0))) return REAL(getpid)();
    if (mpirr_replaying()) return (pid_t)mpirr_libc_replay(MPIRR_LIBC_GETPID, NULL, 0, NULL);
    pid_t pid = REAL(getpid)();
    record(MPIRR_LIBC_GETPID, (uint64_t)pid, NULL, 0);
    return pid;
}

/* gethostname and its fortified twin, for the caller at ra: the name with its NUL if it fits. */
static int host_name(char *name, size_t len, const void *ra)
{
    if (!mpirr_libc_wanted(MPIRR_LIBC_GETHOSTNAME, ra)) return REAL(gethostname)(name, len);
    if (mpirr_replaying()) {
        return (int)replayed_outcome(mpirr_libc_replay(MPIRR_LIBC_GETHOSTNAME, name, len, NULL));
    }
    int rc = REAL(gethostname)(name, len);
    size_t n = rc == 0 ? strnlen(name, len) : 0;
    record(MPIRR_LIBC_GETHOSTNAME, outcome(rc), name, n < len ? n + 1 : n);
    return rc;
}

int gethostname(char *name, size_t len) { return host_name(name, len, __builtin_return_address(0)); }

int __gethostname_chk(char *name, size_t len, size_t buflen)
{
    if (len > buflen) __chk_fail();
    return host_name(name, len, __builtin_return_address(0));
}
