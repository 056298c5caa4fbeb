/* lock_epochs.c: passive-target epochs. MPI_Win_lock takes a turn on the target in the
 * window's `epochs` turn window, with a lock of the same type there, and keeps that epoch open
 * until the program's MPI_Win_unlock has returned: exclusive epochs on one target are granted
 * in turn order, and a shared epoch begins only after the exclusive ones before it ended
 * (docs/rma.md). MPI_Win_lock_all is a shared epoch on every target: it takes a shared turn
 * on each, in target order, kept until its MPI_Win_unlock_all has returned, so it is ordered
 * against the exclusive epochs on each target as a shared MPI_Win_lock is; the atomic
 * operations inside it still take their own turns (atomics.c). */
#include "rma.h"
#include "special_calls.h"

int mpirr_MPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
    MPIRR_BEGIN(MPI_Win_lock);
    rma_window *w = mpirr_rma_find(win);
    if (!w || !mpirr_rma_target_ok(w, rank) || w->held[rank] || w->lock_all)
        return PMPI_Win_lock(lock_type, rank, assert, win); /* MPI reports what is wrong */
    int exclusive = lock_type == MPI_LOCK_EXCLUSIVE;
    mpirr_turn_begin(&call_, w->epochs, exclusive ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED, rank,
                     0);
    int rc = PMPI_Win_lock(lock_type, rank, assert, win);
    if (rc != MPI_SUCCESS) {
        mpirr_turn_end(w->epochs, rank);
        return rc;
    }
    w->held[rank] = exclusive ? RMA_HELD_EXCLUSIVE : RMA_HELD_SHARED;
    return rc;
}

int mpirr_MPI_Win_unlock(int rank, MPI_Win win)
{
    MPIRR_BEGIN(MPI_Win_unlock);
    int rc = PMPI_Win_unlock(rank, win);
    rma_window *w = mpirr_rma_find(win);
    if (rc != MPI_SUCCESS || !w || !mpirr_rma_target_ok(w, rank) || !w->held[rank]) return rc;
    w->held[rank] = RMA_HELD_NONE;
    mpirr_turn_end(w->epochs, rank);
    return rc;
}

/* Whether a lock_all epoch on w takes turns: not when MPI reports the call wrong (an epoch
 * already open here), nor under MPI_THREAD_MULTIPLE, whose replay finds a call's records by
 * event alone and so cannot tell one lock_all's several turns apart (docs/rma.md). */
static int lock_all_takes_turns(const rma_window *w)
{
    if (!w || w->lock_all || mpirr_rt.threaded) return 0;
    for (int t = 0; t < w->nranks; t++)
        if (w->held[t]) return 0;
    return 1;
}

/* Target order: every lock_all takes its shared turns in the same order, as a rank nesting
 * MPI_Win_lock epochs would; replay polls each target with its own shared lock, never a
 * lock_all on the turn window, which would hold every target while waiting for one. */
int mpirr_MPI_Win_lock_all(int assert, MPI_Win win)
{
    MPIRR_BEGIN(MPI_Win_lock_all);
    rma_window *w = mpirr_rma_find(win);
    if (!lock_all_takes_turns(w)) {
        int rc = PMPI_Win_lock_all(assert, win);
        if (rc == MPI_SUCCESS && w && !w->lock_all) w->lock_all = RMA_LOCK_ALL_UNTURNED;
        return rc;
    }
    for (int t = 0; t < w->nranks; t++)
        mpirr_turn_begin(&call_, w->epochs, MPI_LOCK_SHARED, t, (uint32_t)t);
    int rc = PMPI_Win_lock_all(assert, win);
    if (rc != MPI_SUCCESS) {
        for (int t = 0; t < w->nranks; t++) mpirr_turn_end(w->epochs, t);
        return rc;
    }
    w->lock_all = RMA_LOCK_ALL_TURNED;
    return rc;
}

int mpirr_MPI_Win_unlock_all(MPI_Win win)
{
    MPIRR_BEGIN(MPI_Win_unlock_all);
    int rc = PMPI_Win_unlock_all(win);
    rma_window *w = mpirr_rma_find(win);
    if (rc != MPI_SUCCESS || !w || !w->lock_all) return rc;
    if (w->lock_all == RMA_LOCK_ALL_TURNED)
        for (int t = 0; t < w->nranks; t++) mpirr_turn_end(w->epochs, t);
    w->lock_all = RMA_LOCK_ALL_NONE;
    return rc;
}
