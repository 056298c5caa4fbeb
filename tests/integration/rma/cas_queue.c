/* cas_queue.c: a distributed work queue claimed with MPI_Compare_and_swap (issue 32): rank 0
 * holds SLOTS owner words (-1: free) and serves them (in MPI_Barrier, where MPICH makes progress
 * on them); every other rank walks the slots in a shared epoch and claims each free one with a
 * compare-and-swap of -1 for its rank, "working" a while on each it gets. Rank 0 prints who
 * owns each slot and every rank's count: the race of the swaps decides. */
#include <mpi.h>
#include <stdio.h>

#define SLOTS 24

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, nranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    int *owner = NULL;
    MPI_Win win;
    MPI_Win_allocate(rank == 0 ? (MPI_Aint)(SLOTS * sizeof *owner) : 0, sizeof *owner,
                     MPI_INFO_NULL, MPI_COMM_WORLD, &owner, &win);
    for (int i = 0; rank == 0 && i < SLOTS; i++) owner[i] = -1;
    MPI_Barrier(MPI_COMM_WORLD);
    const int free_slot = -1;
    int mine = 0;
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
    for (int i = 0; rank != 0 && i < SLOTS; i++) {
        int was;
        MPI_Compare_and_swap(&rank, &free_slot, &was, MPI_INT, 0, i, win);
        MPI_Win_flush(0, win);
        if (was != -1) continue;
        mine++;
        for (volatile int spin = 0; spin < 30000 * (rank + 1); spin++) {
        }
    }
    MPI_Win_unlock(0, win);
    MPI_Barrier(MPI_COMM_WORLD);
    int counts[64];
    if (nranks > 64) MPI_Abort(MPI_COMM_WORLD, 2);
    MPI_Gather(&mine, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) { /* the window's memory as the atomics left it (separate model too) */
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        MPI_Win_unlock(0, win);
        printf("owners");
        for (int i = 0; i < SLOTS; i++) printf(" %d", owner[i]);
        printf("\n");
        for (int r = 0; r < nranks; r++) printf("rank %d claimed %d\n", r, counts[r]);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
