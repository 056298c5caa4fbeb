/* tickets_all.c: a ticket counter taken in one shared epoch (issue 32): rank 0 holds a counter;
 * inside MPI_Win_lock_all every rank takes TICKETS tickets with MPI_Fetch_and_op(+1) and a flush.
 * Rank 0 prints each rank's tickets: the order in which the atomics combined, which differs
 * from run to run. */
#include <mpi.h>
#include <stdio.h>

#define TICKETS 6

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, nranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    int *counter = NULL;
    MPI_Win win;
    MPI_Win_allocate(rank == 0 ? (MPI_Aint)sizeof *counter : 0, sizeof *counter, MPI_INFO_NULL,
                     MPI_COMM_WORLD, &counter, &win);
    if (rank == 0) *counter = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    int got[TICKETS];
    const int one = 1;
    MPI_Win_lock_all(0, win);
    for (int i = 0; i < TICKETS; i++) {
        MPI_Fetch_and_op(&one, &got[i], MPI_INT, 0, 0, MPI_SUM, win);
        MPI_Win_flush(0, win);
        for (volatile int spin = 0; spin < 20000 * (rank + 1); spin++) {
        }
    }
    MPI_Win_unlock_all(win);
    int all[64 * TICKETS];
    if (nranks > 64) MPI_Abort(MPI_COMM_WORLD, 2);
    MPI_Gather(got, TICKETS, MPI_INT, all, TICKETS, MPI_INT, 0, MPI_COMM_WORLD);
    for (int r = 0; rank == 0 && r < nranks; r++) {
        printf("rank %d tickets", r);
        for (int i = 0; i < TICKETS; i++) printf(" %d", all[r * TICKETS + i]);
        printf("\n");
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
