/* atomics.c: the atomic operations (Accumulate, Get_accumulate, Fetch_and_op,
 * Compare_and_swap, the request forms Raccumulate, Rget_accumulate, and the MPI-4 large-count
 * forms of the accumulates, with any count). In an exclusive epoch on their target they are
 * ordered by that epoch's turn (lock_epochs.c); in a shared epoch there (MPI_Win_lock shared,
 * MPI_Win_lock_all) concurrent ones on one location combine in an order that differs between
 * runs, and with it the values they fetch. Each such operation takes a turn on its target in the
 * window's `atomics` turn window, with an exclusive lock there, and is completed at the target
 * (MPI_Win_flush) before the turn ends: conflicting atomics happen in turn order (docs/rma.md).
 * Under MPI_THREAD_MULTIPLE the rank's threads take those turns one at a time (rma.h). In an
 * active-target epoch (fence, PSCW) there is no flush to complete one early: those are not
 * ordered, and the ones whose outcome the order can change are counted for the replay's
 * verdict (unordered_atomics.c; docs/rma.md, What is not forced). */
#include "call_count_slots.h"
#include "rma.h"
#include "special_calls.h"

/* Before the operation on target: a lazy lock_all epoch's first access there takes the
 * epoch's turn (lock_all.c); then the operation's own turn, or, outside every passive-target
 * epoch there, its count if the order can change its outcome (fetches, op, type). *turned: the
 * window whose atomic turn it took, NULL if none. Returns MPI_SUCCESS, or the error that ends
 * the call. */
static int atomic_begin(const mpirr_call *c, MPI_Win win, int target, int fetches, MPI_Op op,
                        MPI_Datatype type, rma_window **turned)
{
    *turned = NULL;
    rma_window *w = mpirr_rma_find(win);
    int rc = mpirr_rma_touch(c, w, win, target);
    if (rc != MPI_SUCCESS || !w || !mpirr_rma_target_ok(w, target)) return rc;
    if (w->held[target] == RMA_HELD_EXCLUSIVE) return rc;
    if (!w->held[target] && !w->lock_all) { /* fence or PSCW: nothing to order it by */
        if (mpirr_rma_unordered_atomic(fetches, op, type))
            mpirr_call_count_add(mpirr_rt.call_counts, c->id);
        return rc;
    }
    mpirr_turn_begin(c, w->atomics, MPI_LOCK_EXCLUSIVE, target, 0,
                     mpirr_rt.threaded ? &w->atomics_mutex : NULL);
    *turned = w;
    return rc;
}

/* The operation returned rc: completes it at the target, then ends its turn. */
static int atomic_end(rma_window *w, MPI_Win win, int target, int rc)
{
    if (!w) return rc;
    if (rc == MPI_SUCCESS)
        rc = PMPI_Win_flush(target, win);
    mpirr_turn_end(w->atomics, target, mpirr_rt.threaded ? &w->atomics_mutex : NULL);
    return rc;
}

/* One wrapper per operation: its turn (or count), the call with the same arguments, the end. */
#define ATOMIC(name, fetches, op, type, params, args) \
    int mpirr_##name params \
    { \
        MPIRR_BEGIN(name); \
        rma_window *w; \
        int rc = atomic_begin(&call_, win, target_rank, fetches, op, type, &w); \
        if (rc == MPI_SUCCESS) rc = P##name args; \
        return atomic_end(w, win, target_rank, rc); \
    }

#define ACC_ARGS origin_addr, origin_count, origin_datatype, target_rank, target_disp, \
                 target_count, target_datatype, op, win
#define GET_ACC_ARGS origin_addr, origin_count, origin_datatype, result_addr, result_count, \
                     result_datatype, target_rank, target_disp, target_count, \
                     target_datatype, op, win

ATOMIC(MPI_Accumulate, 0, op, target_datatype,
       (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
        int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
        MPI_Op op, MPI_Win win), (ACC_ARGS))
ATOMIC(MPI_Raccumulate, 0, op, target_datatype,
       (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
        int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
        MPI_Op op, MPI_Win win, MPI_Request *request), (ACC_ARGS, request))
ATOMIC(MPI_Get_accumulate, 1, op, target_datatype,
       (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
        void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank,
        MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op,
        MPI_Win win), (GET_ACC_ARGS))
ATOMIC(MPI_Rget_accumulate, 1, op, target_datatype,
       (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
        void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank,
        MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op,
        MPI_Win win, MPI_Request *request), (GET_ACC_ARGS, request))
ATOMIC(MPI_Fetch_and_op, 1, op, datatype,
       (const void *origin_addr, void *result_addr, MPI_Datatype datatype, int target_rank,
        MPI_Aint target_disp, MPI_Op op, MPI_Win win),
       (origin_addr, result_addr, datatype, target_rank, target_disp, op, win))
ATOMIC(MPI_Compare_and_swap, 1, MPI_OP_NULL, datatype,
       (const void *origin_addr, const void *compare_addr, void *result_addr,
        MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win),
       (origin_addr, compare_addr, result_addr, datatype, target_rank, target_disp, win))

#if MPI_VERSION >= 4
/* The large-count forms go straight to the library with any count, beyond INT_MAX elements
 * too: their operations need the same turns. */
ATOMIC(MPI_Accumulate_c, 0, op, target_datatype,
       (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
        int target_rank, MPI_Aint target_disp, MPI_Count target_count,
        MPI_Datatype target_datatype, MPI_Op op, MPI_Win win), (ACC_ARGS))
ATOMIC(MPI_Raccumulate_c, 0, op, target_datatype,
       (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
        int target_rank, MPI_Aint target_disp, MPI_Count target_count,
        MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request),
       (ACC_ARGS, request))
ATOMIC(MPI_Get_accumulate_c, 1, op, target_datatype,
       (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
        void *result_addr, MPI_Count result_count, MPI_Datatype result_datatype,
        int target_rank, MPI_Aint target_disp, MPI_Count target_count,
        MPI_Datatype target_datatype, MPI_Op op, MPI_Win win), (GET_ACC_ARGS))
ATOMIC(MPI_Rget_accumulate_c, 1, op, target_datatype,
       (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
        void *result_addr, MPI_Count result_count, MPI_Datatype result_datatype,
        int target_rank, MPI_Aint target_disp, MPI_Count target_count,
        MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request),
       (GET_ACC_ARGS, request))
#endif
