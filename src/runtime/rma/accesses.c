/* accesses.c: the plain one-sided accesses (Put, Get, Rput, Rget, and their MPI-4 large-count
 * forms). mpirr orders none of them itself (a conflicting Put or Get in a shared epoch is
 * undefined, docs/rma.md), but the first one of a lazy lock_all epoch on a target takes the
 * epoch's turn and the program's shared lock there (lock_all.c), before the access. */
#include "rma.h"
#include "special_calls.h"

/* Takes the epoch's turn on target if this is its first access there; MPI_SUCCESS, or the
 * error that ends the call. */
static int access_begin(const mpirr_call *c, MPI_Win win, int target)
{
    return mpirr_rma_touch(c, mpirr_rma_find(win), win, target);
}

/* One wrapper per access: the epoch's turn, then the call itself with the same arguments. */
#define ACCESS(name, params, args) \
    int mpirr_##name params \
    { \
        MPIRR_BEGIN(name); \
        int rc = access_begin(&call_, win, target_rank); \
        return rc == MPI_SUCCESS ? P##name args : rc; \
    }

#define ACCESS_ARGS origin_addr, origin_count, origin_datatype, target_rank, target_disp, \
                    target_count, target_datatype, win

ACCESS(MPI_Put, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                 int target_rank, MPI_Aint target_disp, int target_count,
                 MPI_Datatype target_datatype, MPI_Win win), (ACCESS_ARGS))
ACCESS(MPI_Get, (void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                 int target_rank, MPI_Aint target_disp, int target_count,
                 MPI_Datatype target_datatype, MPI_Win win), (ACCESS_ARGS))
ACCESS(MPI_Rput, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                  int target_rank, MPI_Aint target_disp, int target_count,
                  MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request),
       (ACCESS_ARGS, request))
ACCESS(MPI_Rget, (void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                  int target_rank, MPI_Aint target_disp, int target_count,
                  MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request),
       (ACCESS_ARGS, request))

#if MPI_VERSION >= 4
/* The large-count forms go straight to the library with any count: their accesses need the
 * epoch's turn and lock all the same. */
ACCESS(MPI_Put_c, (const void *origin_addr, MPI_Count origin_count,
                   MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
                   MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win),
       (ACCESS_ARGS))
ACCESS(MPI_Get_c, (void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                   int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                   MPI_Datatype target_datatype, MPI_Win win), (ACCESS_ARGS))
ACCESS(MPI_Rput_c, (const void *origin_addr, MPI_Count origin_count,
                    MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
                    MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
                    MPI_Request *request), (ACCESS_ARGS, request))
ACCESS(MPI_Rget_c, (void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                    int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                    MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request),
       (ACCESS_ARGS, request))
#endif
