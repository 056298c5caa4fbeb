/* lock_all.c: MPI_Win_lock_all epochs, and the calls whose meaning in one depends on which
 * targets it holds (the flushes, MPI_Win_sync). A lock_all epoch is a shared epoch on every
 * target (MPI-3.1 11.5.3); mpirr makes it lazy, as a library may: MPI_Win_lock_all itself
 * takes nothing, and the epoch's first access to a target T (mpirr_rma_touch, called by every
 * Put, Get, accumulate and atomic wrapper) takes a shared turn on T in the `epochs` turn window
 * and then the program's shared MPI_Win_lock on T, both kept until MPI_Win_unlock_all. So on
 * each target it touches the epoch is exactly a shared MPI_Win_lock epoch that began just
 * before its first access there (lock_epochs.c), and a target it never touches costs nothing.
 * The turn and the program's lock are taken on one target in that order, as MPI_Win_lock takes
 * them: a real MPI_Win_lock_all, granted before the turns, would let an exclusive epoch take
 * its turn on T first and then wait for the program's lock on T held by this epoch, which
 * would wait for that turn (docs/rma.md, "lock_all epochs"). Windows whose memory the program
 * may load and store (MPI_Win_allocate_shared) are accessed without calls: their epochs stay
 * EAGER, a shared turn on every target in target order, then the real MPI_Win_lock_all. So do
 * the epochs of a rank under MPI_THREAD_MULTIPLE: there the first access to a target may be any
 * of the rank's threads, and which one reached it first is not an order the replay can be sure
 * to repeat, while MPI_Win_lock_all is one call of one thread, keyed by its own event. (Lazy
 * turns taken by the accesses would also need the threads of the rank to agree on which of
 * them takes a target's turn; an epoch without turns, whose atomics take theirs, deadlocks in
 * replay when the library grants lock requests in order, MPICH: an atomic's turn waits for a
 * thread whose epoch waits behind an exclusive request granted in another order than
 * recorded.) */
#include "rma.h"
#include "special_calls.h"

int mpirr_rma_sync_error(MPI_Win win)
{
    PMPI_Win_call_errhandler(win, MPI_ERR_RMA_SYNC);
    return MPI_ERR_RMA_SYNC;
}

int mpirr_rma_touch(const mpirr_call *c, rma_window *w, MPI_Win win, int target)
{
    if (!w || w->lock_all != RMA_LOCK_ALL_LAZY || !mpirr_rma_target_ok(w, target) ||
        w->held[target])
        return MPI_SUCCESS; /* MPI_PROC_NULL and bad ranks: MPI reports those at the access */
    mpirr_turn_begin(c, w->epochs, MPI_LOCK_SHARED, target, (uint32_t)target, NULL);
    int rc = PMPI_Win_lock(MPI_LOCK_SHARED, target, w->lock_all_assert, win);
    if (rc != MPI_SUCCESS) {
        mpirr_turn_end(w->epochs, target, NULL);
        return rc;
    }
    w->held[target] = RMA_HELD_LOCK_ALL;
    w->touched++;
    return rc;
}

/* Whether a lock_all epoch on w takes turns: not when MPI reports the call wrong (an epoch
 * already open here). */
static int lock_all_takes_turns(const rma_window *w)
{
    if (!w || w->lock_all) return 0;
    for (int t = 0; t < w->nranks; t++)
        if (w->held[t]) return 0;
    return 1;
}

/* EAGER: target order, every lock_all taking its shared turns in the same order, as a rank
 * nesting MPI_Win_lock epochs would; replay polls each target with its own shared lock, never
 * a lock_all on the turn window, which would hold every target while waiting for one. */
static int lock_all_eager(const mpirr_call *c, rma_window *w, int assert, MPI_Win win)
{
    for (int t = 0; t < w->nranks; t++)
        mpirr_turn_begin(c, w->epochs, MPI_LOCK_SHARED, t, (uint32_t)t, NULL);
    int rc = PMPI_Win_lock_all(assert, win);
    if (rc != MPI_SUCCESS) {
        for (int t = 0; t < w->nranks; t++) mpirr_turn_end(w->epochs, t, NULL);
        return rc;
    }
    w->lock_all = RMA_LOCK_ALL_EAGER;
    return rc;
}

int mpirr_MPI_Win_lock_all(int assert, MPI_Win win)
{
    MPIRR_BEGIN(MPI_Win_lock_all);
    rma_window *w = mpirr_rma_find(win);
    if (w && w->lock_all == RMA_LOCK_ALL_LAZY) return mpirr_rma_sync_error(win);
    if (!lock_all_takes_turns(w)) {
        int rc = PMPI_Win_lock_all(assert, win);
        if (rc == MPI_SUCCESS && w && !w->lock_all) w->lock_all = RMA_LOCK_ALL_UNTURNED;
        return rc;
    }
    if (w->load_store || mpirr_rt.threaded) return lock_all_eager(&call_, w, assert, win);
    w->lock_all = RMA_LOCK_ALL_LAZY;
    w->lock_all_assert = assert;
    w->touched = 0;
    return MPI_SUCCESS;
}

/* A lazy epoch: unlocks every target it touched, ending each turn after the program's unlock
 * there returned; the first error is the call's. */
static int unlock_all_lazy(rma_window *w, MPI_Win win)
{
    int rc = MPI_SUCCESS;
    for (int t = 0; t < w->nranks && w->touched; t++) {
        if (w->held[t] != RMA_HELD_LOCK_ALL) continue;
        int trc = PMPI_Win_unlock(t, win);
        if (rc == MPI_SUCCESS) rc = trc;
        w->held[t] = RMA_HELD_NONE;
        w->touched--;
        mpirr_turn_end(w->epochs, t, NULL);
    }
    return rc;
}

int mpirr_MPI_Win_unlock_all(MPI_Win win)
{
    MPIRR_BEGIN(MPI_Win_unlock_all);
    rma_window *w = mpirr_rma_find(win);
    if (w && w->lock_all == RMA_LOCK_ALL_LAZY) {
        w->lock_all = RMA_LOCK_ALL_NONE;
        return unlock_all_lazy(w, win);
    }
    int rc = PMPI_Win_unlock_all(win);
    if (rc != MPI_SUCCESS || !w || !w->lock_all) return rc;
    if (w->lock_all == RMA_LOCK_ALL_EAGER)
        for (int t = 0; t < w->nranks; t++) mpirr_turn_end(w->epochs, t, NULL);
    w->lock_all = RMA_LOCK_ALL_NONE;
    return rc;
}

/* In a lazy epoch, a target it has not touched has nothing to complete, and MPI, which sees
 * no epoch there, would call the flush wrong: it succeeds without MPI. */
static int untouched(MPI_Win win, int target)
{
    rma_window *w = mpirr_rma_find(win);
    return w && w->lock_all == RMA_LOCK_ALL_LAZY && mpirr_rma_target_ok(w, target) &&
           !w->held[target];
}

/* Likewise a flush of every target, or MPI_Win_sync, in a lazy epoch that touched none. */
static int none_touched(MPI_Win win)
{
    rma_window *w = mpirr_rma_find(win);
    return w && w->lock_all == RMA_LOCK_ALL_LAZY && !w->touched;
}

int mpirr_MPI_Win_flush(int rank, MPI_Win win)
{
    MPIRR_BEGIN(MPI_Win_flush);
    return untouched(win, rank) ? MPI_SUCCESS : PMPI_Win_flush(rank, win);
}

int mpirr_MPI_Win_flush_local(int rank, MPI_Win win)
{
    MPIRR_BEGIN(MPI_Win_flush_local);
    return untouched(win, rank) ? MPI_SUCCESS : PMPI_Win_flush_local(rank, win);
}

int mpirr_MPI_Win_flush_all(MPI_Win win)
{
    MPIRR_BEGIN(MPI_Win_flush_all);
    return none_touched(win) ? MPI_SUCCESS : PMPI_Win_flush_all(win);
}

int mpirr_MPI_Win_flush_local_all(MPI_Win win)
{
    MPIRR_BEGIN(MPI_Win_flush_local_all);
    return none_touched(win) ? MPI_SUCCESS : PMPI_Win_flush_local_all(win);
}

int mpirr_MPI_Win_sync(MPI_Win win)
{
    MPIRR_BEGIN(MPI_Win_sync);
    return none_touched(win) ? MPI_SUCCESS : PMPI_Win_sync(win);
}
