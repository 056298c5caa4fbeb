/* tickets_c.c: the shared-epoch ticket counter (tickets_all.c) with MPI-4's large-count calls:
 * the window made by MPI_Win_allocate_c, the tickets taken by MPI_Get_accumulate_c(+1). The
 * window's displacement unit fits in an int, so it takes MPI_Win_allocate's path
 * (src/runtime/large_count.c) and gets its turn windows; each ticket takes its turn on the
 * large-count accumulates' own path, the same with any count (src/runtime/rma/atomics.c), and
 * the replay is exact. MPI-4 only
 * (registered for MPICH). */
#include <mpi.h>

#if MPI_VERSION < 4
int main(void) { return 77; } /* built for every MPI; registered for MPI-4 ones */
#else
#include "tickets.h"

#define TICKETS 6

static void get_accumulate_c(int *got, MPI_Win win)
{
    const int one = 1;
    MPI_Get_accumulate_c(&one, 1, MPI_INT, got, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, *counter = NULL, got[TICKETS];
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win win;
    MPI_Win_allocate_c(rank == 0 ? (MPI_Aint)sizeof *counter : 0, (MPI_Aint)sizeof *counter,
                       MPI_INFO_NULL, MPI_COMM_WORLD, &counter, &win);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        *counter = 0;
        MPI_Win_unlock(0, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    tickets_take_shared(win, got, TICKETS, get_accumulate_c);
    tickets_report(got, TICKETS);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
#endif
