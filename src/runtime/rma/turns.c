/* turns.c: taking a turn on one target of a turn window (rma.h). A turn is a 64-bit counter at
 * the target, read and incremented with MPI_Fetch_and_op inside an epoch on the turn window.
 * Record: the epoch is opened, the counter incremented; the value fetched (the flush proves the
 * epoch was granted when it was read) is the call's turn, kept in a ticket record. Replay: a
 * shared epoch is opened and the counter read; if it is not yet the recorded turn, the epoch
 * is closed and the rank yields and tries again; when it is, the epoch is reopened exclusive if
 * the call's is, and the counter incremented as in the recording. Polling shared matters: an
 * exclusive lock asked for before its turn would, in a library that grants lock requests in
 * the order they came (MPICH), hold back behind it the shared requests of earlier turns, while
 * it waits for a lock_all that holds an earlier turn on another target and waits for those
 * (docs/rma.md, "Replay does not deadlock"). A
 * replayed epoch therefore begins only after every epoch with an earlier turn on that target
 * has begun, and (an exclusive one) ended: docs/rma.md proves this order is one the program
 * can take. */
#include <sched.h>
#include <time.h>

#include "replay_cursor.h"
#include "rma.h"

/* A replay that waited this long for one turn says so, once: the rank whose turn comes first
 * is probably stopped (a stopline, a debugger) or has diverged. */
#define TURN_WAIT_WARN_S 30

static int64_t counter_op(MPI_Win turns, int target, MPI_Op op)
{
    const int64_t one = 1;
    int64_t old = 0;
    if (PMPI_Fetch_and_op(&one, &old, MPI_INT64_T, target, 0, op, turns) != MPI_SUCCESS ||
        PMPI_Win_flush(target, turns) != MPI_SUCCESS)
        mpirr_fatal("cannot take a turn on rank %d of a window's turn window", target);
    return old;
}

static void open_epoch(MPI_Win turns, int lock_type, int target, pthread_mutex_t *local)
{
    if (local) pthread_mutex_lock(local);
    if (PMPI_Win_lock(lock_type, target, 0, turns) != MPI_SUCCESS)
        mpirr_fatal("cannot lock rank %d of a window's turn window", target);
}

void mpirr_turn_end(MPI_Win turns, int target, pthread_mutex_t *local)
{
    if (PMPI_Win_unlock(target, turns) != MPI_SUCCESS)
        mpirr_fatal("cannot unlock rank %d of a window's turn window", target);
    if (local) pthread_mutex_unlock(local);
}

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* Between two polls that did not find the turn: the core first, then a pause that doubles up to
 * POLL_PAUSE_MAX_US. A library whose exclusive lock is one compare-and-swap that succeeds only
 * while no shared lock is held (Open MPI's osc/rdma) never grants the rank whose turn it is an
 * exclusive turn while the others keep polling shared in a tight loop: with six threads of three
 * ranks polling one target, a replay of rma_replay.lockall_threads.openmpi waited more than 30 s
 * for an exclusive atomic turn (1 to 14 s in most replays); pausing pollers leave it gaps. */
enum { POLL_YIELDS = 16, POLL_PAUSE_MAX_US = 1024 };

static void poll_pause(unsigned failed)
{
    if (failed < POLL_YIELDS) {
        sched_yield();
        return;
    }
    unsigned shift = failed - POLL_YIELDS;
    long us = shift >= 10 ? POLL_PAUSE_MAX_US : 1L << shift;
    struct timespec t = {0, us * 1000};
    nanosleep(&t, NULL);
}

static void wait_for_turn(const mpirr_call *c, MPI_Win turns, int lock_type, int target,
                          int64_t turn, pthread_mutex_t *local)
{
    double since = seconds_now();
    int warned = 0;
    for (unsigned failed = 0;; failed++) {
        open_epoch(turns, MPI_LOCK_SHARED, target, local);
        int64_t now = counter_op(turns, target, MPI_NO_OP);
        if (now == turn) break;
        mpirr_turn_end(turns, target, local);
        if (now > turn) /* a turn is taken once: another rank took this one */
            mpirr_diverged(c->event, "%s on rank %d: the recorded turn %lld there is already "
                           "taken (turn %lld is next)", mpirr_call_name(c->id), target,
                           (long long)turn, (long long)now);
        poll_pause(failed);
        if (!warned && seconds_now() - since > TURN_WAIT_WARN_S) {
            warned = 1;
            mpirr_say("mpirr: replay of rank %d waits since %d s at event %llu (%s on rank %d) "
                      "for turn %lld there, which stays at %lld: the rank before it in the "
                      "recording has not got there", mpirr_rt.rank, TURN_WAIT_WARN_S,
                      (unsigned long long)c->event, mpirr_call_name(c->id), target,
                      (long long)turn, (long long)now);
        }
    }
    if (lock_type == MPI_LOCK_EXCLUSIVE) { /* the counter stays at turn: it is this call's */
        mpirr_turn_end(turns, target, local);
        open_epoch(turns, MPI_LOCK_EXCLUSIVE, target, local);
    }
    counter_op(turns, target, MPI_SUM);
}

void mpirr_turn_begin(const mpirr_call *c, MPI_Win turns, int lock_type, int target,
                      uint32_t sub, pthread_mutex_t *local)
{
    if (mpirr_replaying()) {
        mpirr_record r;
        mpirr_replay_expect_sub(c, sub, MPIRR_REC_TICKET, "its turn on the target", &r);
        if (r.value > INT64_MAX)
            mpirr_diverged(c->event, "the recorded turn %llu is out of range",
                           (unsigned long long)r.value);
        if (r.sub != sub) /* a lock_all's turns are one per target, in target order */
            mpirr_diverged(c->event, "%s takes its turn on rank %u, the recorded turn here is "
                           "on rank %u", mpirr_call_name(c->id), (unsigned)sub,
                           (unsigned)r.sub);
        wait_for_turn(c, turns, lock_type, target, (int64_t)r.value, local);
        return;
    }
    open_epoch(turns, lock_type, target, local);
    int64_t turn = counter_op(turns, target, MPI_SUM);
    mpirr_record r = {.kind = MPIRR_REC_TICKET, .call = (uint16_t)c->id, .sub = sub,
                      .event = c->event, .written = c->event, .value = (uint64_t)turn};
    mpirr_record_append(&r);
}
