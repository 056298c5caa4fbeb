/* fence_halo.c: a 1-D halo exchange with MPI_Put between MPI_Win_fence calls (issue 32): every
 * rank owns CELLS cells, puts its edge cells into its neighbours' ghost cells, and smooths, for
 * STEPS steps; an MPI_Accumulate(MPI_SUM) of each rank's step total into rank 0's word in the same
 * fence epoch. Rank 0 prints every step's total and the final cells: the fences order
 * everything, so the output is the same in every run (and in every replay). */
#include <mpi.h>
#include <stdio.h>

#include "halo.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, nranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    /* [0] left ghost, [1..CELLS] cells, [CELLS+1] right ghost, [CELLS+2] sum. MPI_Win_create:
     * MPICH 4.0's MPI_Win_allocate windows (shared memory on one node) let a fence return
     * before its epoch's puts and accumulates landed (runs of this program differed so). */
    static long u[CELLS + 3];
    MPI_Win win;
    MPI_Win_create(u, sizeof u, sizeof *u, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    for (int i = 0; i < CELLS + 3; i++) u[i] = i >= 1 && i <= CELLS ? (rank * CELLS + i) * 10 : 0;
    int left = (rank + nranks - 1) % nranks, right = (rank + 1) % nranks;
    long before = 0;
    MPI_Win_fence(0, win);
    for (int s = 0; s < STEPS; s++) {
        long total = 0;
        for (int i = 1; i <= CELLS; i++) total += u[i];
        MPI_Put(&u[1], 1, MPI_LONG, left, CELLS + 1, 1, MPI_LONG, win);
        MPI_Put(&u[CELLS], 1, MPI_LONG, right, 0, 1, MPI_LONG, win);
        MPI_Accumulate(&total, 1, MPI_LONG, 0, CELLS + 2, 1, MPI_LONG, MPI_SUM, win);
        MPI_Win_fence(0, win);
        halo_smooth(u);
        if (rank == 0) { /* a running total: no local store into the window (MPICH's fence
                            after an epoch without RMA calls need not order one) */
            printf("step %d sum %ld\n", s, u[CELLS + 2] - before);
            before = u[CELLS + 2];
        }
        MPI_Win_fence(0, win);
    }
    long cells[64 * CELLS];
    if (nranks > 64) MPI_Abort(MPI_COMM_WORLD, 2);
    MPI_Gather(&u[1], CELLS, MPI_LONG, cells, CELLS, MPI_LONG, 0, MPI_COMM_WORLD);
    for (int i = 0; rank == 0 && i < nranks * CELLS; i++) printf("%ld%c", cells[i], i % CELLS == CELLS - 1 ? '\n' : ' ');
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
