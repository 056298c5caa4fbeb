/* event_clock.c: the event history's clock, CLOCK_MONOTONIC nanoseconds read twice per MPI
 * call. Where the x86 time-stamp counter is invariant (constant_tsc and nonstop_tsc), it is
 * read instead (about 9 ns here, against 21 ns for clock_gettime, a third of the history's
 * cost per call) and converted with a rate measured against CLOCK_MONOTONIC, re-measured
 * every 2^28 TSC ticks (a reading that far past the anchor re-anchors) so that drift stays
 * far below a tick (32 us). Readings never go back: the
 * time codes are deltas from the previous reading. Until the history starts (and without
 * --events) it is plain clock_gettime: nothing is probed at MPI_Init. */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "event_history.h"

#if defined(__x86_64__)
#include <x86intrin.h>
#define HAVE_TSC 1
#else
#define HAVE_TSC 0
#endif

enum { FIRST_RATE_NS = 200000 };
/* re-anchored when a reading is this far past the anchor (0.09 s at 3 GHz): a rate measured
 * over that long is exact to 1e-8 with clock_gettime's nanoseconds */
#define RECALIBRATE_TICKS (1ull << 28)
/* the rate's fixed point: 2^-32 ns a tick is far below a tick of any clock there is */
#define TICK_BITS 32
#define TICK_ONE ((double)(1ull << TICK_BITS))

static uint64_t monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The anchor (a TSC reading and its time) and the rate, published together under a sequence
 * number so that readers in other threads never mix two anchors. */
enum { CLOCK_SYSTEM, CLOCK_MEASURING, CLOCK_TSC };
static struct {
    _Atomic int state;     /* CLOCK_SYSTEM until mpirr_ev_clock_start finds a usable TSC */
    _Atomic unsigned seq;
    uint64_t tsc, ns;      /* anchor */
    uint64_t ns_per_tick;  /* 32.32 fixed point: a multiply, no conversions to and from double */
    atomic_flag busy;      /* someone is changing the anchor (the others read on) */
} clk = {.busy = ATOMIC_FLAG_INIT};

/* Per thread (no atomic operation on the fast path): a record's begin and end are read by one
 * thread, and the writer clamps a time code that would go back across threads to 0. */
static __thread uint64_t last_read __attribute__((tls_model("initial-exec")));

static uint64_t monotone(uint64_t t)
{
    if (t < last_read) return last_read;
    last_read = t;
    return t;
}

#if HAVE_TSC
/* Not the runtime lock: readings are taken with and without it held. A thread that finds
 * the clock busy does without (it keeps the old anchor one reading longer). */
static int try_own(void) { return !atomic_flag_test_and_set_explicit(&clk.busy, memory_order_acquire); }
static void release(void) { atomic_flag_clear_explicit(&clk.busy, memory_order_release); }

static int tsc_invariant(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return 0;
    char line[4096];
    int ok = 0;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "flags", 5)) {
            ok = strstr(line, " constant_tsc") && strstr(line, " nonstop_tsc");
            break;
        }
    fclose(f);
    return ok;
}

/* Re-anchors at the current TSC and time; the rate is measured over the last interval. */
static void anchor(uint64_t tsc, uint64_t ns)
{
    atomic_fetch_add_explicit(&clk.seq, 1, memory_order_acq_rel); /* odd: being changed */
    if (tsc > clk.tsc && ns > clk.ns)
        clk.ns_per_tick = (uint64_t)((double)(ns - clk.ns) / (double)(tsc - clk.tsc) * TICK_ONE);
    clk.tsc = tsc;
    clk.ns = ns;
    atomic_fetch_add_explicit(&clk.seq, 1, memory_order_acq_rel);
}

static uint64_t tsc_now(void)
{
    uint64_t tsc = __rdtsc();
    for (;;) {
        unsigned s0 = atomic_load_explicit(&clk.seq, memory_order_acquire);
        uint64_t atsc = clk.tsc, ans = clk.ns, rate = clk.ns_per_tick;
        if ((s0 & 1) || atomic_load_explicit(&clk.seq, memory_order_acquire) != s0) continue;
        if (tsc > atsc + RECALIBRATE_TICKS && try_own()) {
            uint64_t ns = monotonic_ns(); /* the reading itself: no rate over the long gap */
            anchor(tsc, ns);
            release();
            return monotone(ns);
        }
        return monotone(ans + (tsc > atsc ? (uint64_t)((unsigned __int128)(tsc - atsc) * rate
                                                       >> TICK_BITS) : 0));
    }
}
#endif

void mpirr_ev_clock_start(void)
{
#if HAVE_TSC
    if (atomic_load_explicit(&clk.state, memory_order_relaxed) != CLOCK_SYSTEM || !tsc_invariant())
        return;
    clk.tsc = __rdtsc();
    clk.ns = monotonic_ns();
    atomic_store_explicit(&clk.state, CLOCK_MEASURING, memory_order_release);
#endif
}

uint64_t mpirr_ev_now(void)
{
#if HAVE_TSC
    int state = atomic_load_explicit(&clk.state, memory_order_acquire);
    if (state == CLOCK_TSC) return tsc_now();
    uint64_t ns = monotonic_ns();
    if (state == CLOCK_MEASURING && ns - clk.ns >= FIRST_RATE_NS && try_own()) {
        /* the first rate, over the first 0.2 ms of readings; clock_gettime until then */
        if (atomic_load_explicit(&clk.state, memory_order_relaxed) == CLOCK_MEASURING) {
            anchor(__rdtsc(), monotonic_ns());
            atomic_store_explicit(&clk.state, CLOCK_TSC, memory_order_release);
        }
        release();
    }
    return monotone(ns);
#else
    return monotone(monotonic_ns());
#endif
}
