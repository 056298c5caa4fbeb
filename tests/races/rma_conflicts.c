/* rma_conflicts.c MODE: one-sided programs for `mpirr races`' RMA conflicts (rma.sh).
 *   put_race    ranks 1 and 2 Put to the same int of rank 0 in one fence epoch: a race
 *               (RACE_PUT_A / RACE_PUT_B are the two lines rma.sh expects reported)
 *   shared_race ranks 1 and 2 Put to the same int of rank 0, each under a shared lock: a race
 *   halo        each rank Puts to its right neighbour's halo cell, fence-separated steps: none
 *   ticket      every rank takes a ticket from rank 0 (Get, then Put) under an exclusive
 *               lock: none
 *   histogram   every rank adds into rank 0's bins with MPI_Accumulate(MPI_SUM): none
 * Needs 3 ranks or more. Prints "value N" (rank 0's cell 0 at the end). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *mode = argc > 1 ? argv[1] : "put_race";
    int cells[8] = {0};
    MPI_Win win;
    MPI_Win_create(cells, sizeof cells, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    int one = rank;
    if (!strcmp(mode, "put_race")) {
        MPI_Win_fence(0, win);
        if (rank == 1) MPI_Put(&one, 1, MPI_INT, 0, 2, 1, MPI_INT, win); /* RACE_PUT_A */
        if (rank == 2) MPI_Put(&one, 1, MPI_INT, 0, 2, 1, MPI_INT, win); /* RACE_PUT_B */
        MPI_Win_fence(0, win);
    } else if (!strcmp(mode, "shared_race")) {
        if (rank == 1 || rank == 2) {
            MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
            MPI_Put(&one, 1, MPI_INT, 0, 3, 1, MPI_INT, win); /* RACE_SHARED */
            MPI_Win_unlock(0, win);
        }
    } else if (!strcmp(mode, "halo")) {
        for (int step = 0; step < 3; step++) {
            MPI_Win_fence(0, win);
            int v = rank * 10 + step;
            MPI_Put(&v, 1, MPI_INT, (rank + 1) % size, 0, 1, MPI_INT, win);
            MPI_Win_fence(0, win);
            MPI_Get(&v, 1, MPI_INT, (rank + 1) % size, 0, 1, MPI_INT, win);
            MPI_Win_fence(0, win);
        }
    } else if (!strcmp(mode, "ticket")) {
        int t = 0;
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        MPI_Get(&t, 1, MPI_INT, 0, 1, 1, MPI_INT, win);
        MPI_Win_flush(0, win);
        t++;
        MPI_Put(&t, 1, MPI_INT, 0, 1, 1, MPI_INT, win);
        MPI_Win_unlock(0, win);
    } else if (!strcmp(mode, "histogram")) {
        MPI_Win_fence(0, win);
        int add[4] = {1, rank, 2, 3};
        MPI_Accumulate(add, 4, MPI_INT, 0, 0, 4, MPI_INT, MPI_SUM, win);
        MPI_Accumulate(add, 2, MPI_INT, 0, 1, 2, MPI_INT, MPI_SUM, win);
        MPI_Win_fence(0, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    if (rank == 0) printf("value %d\n", cells[0]);
    MPI_Finalize();
    return 0;
}
