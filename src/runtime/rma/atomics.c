/* atomics.c: the atomic operations (Accumulate, Get_accumulate, Fetch_and_op,
 * Compare_and_swap and the request forms Raccumulate, Rget_accumulate). In an exclusive epoch on
 * their target they are ordered by that epoch's turn (lock_epochs.c); in a shared epoch there
 * (MPI_Win_lock shared, MPI_Win_lock_all) concurrent ones on one location combine in an order
 * that differs between runs, and with it the values they fetch. Each such operation takes a turn
 * on its target in the window's `atomics` turn window, with an exclusive lock there, and is
 * completed at the target (MPI_Win_flush) before the turn ends: conflicting atomics happen in
 * turn order (docs/rma.md). In an active-target epoch (fence, PSCW) there is no flush to
 * complete one early: those are not ordered (docs/rma.md, What is not forced). */
#include "rma.h"
#include "special_calls.h"

/* Before the operation on target: a lazy lock_all epoch's first access there takes the
 * epoch's turn (lock_all.c); then the operation's own turn. *turned: the window whose atomic
 * turn it took, NULL if none. Returns MPI_SUCCESS, or the error that ends the call. */
static int atomic_begin(const mpirr_call *c, MPI_Win win, int target, rma_window **turned)
{
    *turned = NULL;
    rma_window *w = mpirr_rma_find(win);
    int rc = mpirr_rma_touch(c, w, win, target);
    if (rc != MPI_SUCCESS || !w || !mpirr_rma_target_ok(w, target)) return rc;
    if (w->held[target] == RMA_HELD_EXCLUSIVE || (!w->held[target] && !w->lock_all)) return rc;
    mpirr_turn_begin(c, w->atomics, MPI_LOCK_EXCLUSIVE, target, 0);
    *turned = w;
    return rc;
}

/* The operation returned rc: completes it at the target, then ends its turn. */
static int atomic_end(rma_window *w, MPI_Win win, int target, int rc)
{
    if (!w) return rc;
    if (rc == MPI_SUCCESS)
        rc = PMPI_Win_flush(target, win);
    mpirr_turn_end(w->atomics, target);
    return rc;
}

int mpirr_MPI_Accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                         int target_rank, MPI_Aint target_disp, int target_count,
                         MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    MPIRR_BEGIN(MPI_Accumulate);
    rma_window *w;
    int rc = atomic_begin(&call_, win, target_rank, &w);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Accumulate(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                             target_count, target_datatype, op, win);
    return atomic_end(w, win, target_rank, rc);
}

int mpirr_MPI_Get_accumulate(const void *origin_addr, int origin_count,
                             MPI_Datatype origin_datatype, void *result_addr, int result_count,
                             MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                             int target_count, MPI_Datatype target_datatype, MPI_Op op,
                             MPI_Win win)
{
    MPIRR_BEGIN(MPI_Get_accumulate);
    rma_window *w;
    int rc = atomic_begin(&call_, win, target_rank, &w);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Get_accumulate(origin_addr, origin_count, origin_datatype, result_addr,
                                 result_count, result_datatype, target_rank, target_disp,
                                 target_count, target_datatype, op, win);
    return atomic_end(w, win, target_rank, rc);
}

int mpirr_MPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype,
                           int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
    MPIRR_BEGIN(MPI_Fetch_and_op);
    rma_window *w;
    int rc = atomic_begin(&call_, win, target_rank, &w);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Fetch_and_op(origin_addr, result_addr, datatype, target_rank, target_disp, op,
                               win);
    return atomic_end(w, win, target_rank, rc);
}

int mpirr_MPI_Compare_and_swap(const void *origin_addr, const void *compare_addr,
                               void *result_addr, MPI_Datatype datatype, int target_rank,
                               MPI_Aint target_disp, MPI_Win win)
{
    MPIRR_BEGIN(MPI_Compare_and_swap);
    rma_window *w;
    int rc = atomic_begin(&call_, win, target_rank, &w);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Compare_and_swap(origin_addr, compare_addr, result_addr, datatype, target_rank,
                                   target_disp, win);
    return atomic_end(w, win, target_rank, rc);
}

int mpirr_MPI_Raccumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                          int target_rank, MPI_Aint target_disp, int target_count,
                          MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                          MPI_Request *request)
{
    MPIRR_BEGIN(MPI_Raccumulate);
    rma_window *w;
    int rc = atomic_begin(&call_, win, target_rank, &w);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Raccumulate(origin_addr, origin_count, origin_datatype, target_rank,
                              target_disp, target_count, target_datatype, op, win, request);
    return atomic_end(w, win, target_rank, rc);
}

int mpirr_MPI_Rget_accumulate(const void *origin_addr, int origin_count,
                              MPI_Datatype origin_datatype, void *result_addr, int result_count,
                              MPI_Datatype result_datatype, int target_rank,
                              MPI_Aint target_disp, int target_count,
                              MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                              MPI_Request *request)
{
    MPIRR_BEGIN(MPI_Rget_accumulate);
    rma_window *w;
    int rc = atomic_begin(&call_, win, target_rank, &w);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Rget_accumulate(origin_addr, origin_count, origin_datatype, result_addr,
                                  result_count, result_datatype, target_rank, target_disp,
                                  target_count, target_datatype, op, win, request);
    return atomic_end(w, win, target_rank, rc);
}
