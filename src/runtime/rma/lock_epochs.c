/* lock_epochs.c: passive-target epochs on one target. MPI_Win_lock takes a turn on the target
 * in the window's `epochs` turn window, with a lock of the same type there, and keeps that
 * epoch open until the program's MPI_Win_unlock has returned: exclusive epochs on one target
 * are granted in turn order, and a shared epoch begins only after the exclusive ones before it
 * ended (docs/rma.md). MPI_Win_lock_all epochs: lock_all.c. */
#include "rma.h"
#include "special_calls.h"

int mpirr_MPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
    MPIRR_BEGIN(MPI_Win_lock);
    rma_window *w = mpirr_rma_find(win);
    if (w && w->lock_all == RMA_LOCK_ALL_LAZY) return mpirr_rma_sync_error(win);
    if (!w || !mpirr_rma_target_ok(w, rank) || w->held[rank] || w->lock_all)
        return PMPI_Win_lock(lock_type, rank, assert, win); /* MPI reports what is wrong */
    int exclusive = lock_type == MPI_LOCK_EXCLUSIVE;
    mpirr_turn_begin(&call_, w->epochs, exclusive ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED, rank,
                     0, NULL);
    int rc = PMPI_Win_lock(lock_type, rank, assert, win);
    if (rc != MPI_SUCCESS) {
        mpirr_turn_end(w->epochs, rank, NULL);
        return rc;
    }
    w->held[rank] = exclusive ? RMA_HELD_EXCLUSIVE : RMA_HELD_SHARED;
    return rc;
}

int mpirr_MPI_Win_unlock(int rank, MPI_Win win)
{
    MPIRR_BEGIN(MPI_Win_unlock);
    rma_window *w = mpirr_rma_find(win);
    if (w && w->lock_all == RMA_LOCK_ALL_LAZY) return mpirr_rma_sync_error(win);
    int rc = PMPI_Win_unlock(rank, win);
    if (rc != MPI_SUCCESS || !w || !mpirr_rma_target_ok(w, rank) || !w->held[rank]) return rc;
    w->held[rank] = RMA_HELD_NONE;
    mpirr_turn_end(w->epochs, rank, NULL);
    return rc;
}
