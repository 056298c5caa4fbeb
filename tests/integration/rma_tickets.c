/* rma_tickets.c: a load-balancing ticket counter in one-sided MPI (issue 32). Rank 0 holds a
 * counter in a window (MPI_Win_allocate); every rank takes TICKETS tickets from it, each with
 * MPI_Win_lock(EXCLUSIVE) + MPI_Fetch_and_op(+1) + MPI_Win_unlock; rank 0 gathers them and
 * prints one line per rank: "rank R tickets a b c ...". Which rank gets which ticket is the order of
 * the lock grants, which differs from run to run and which mpirr replays (docs/rma.md). Calls
 * nothing else nondeterministic. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define TICKETS 6 /* each rank's, unless argv[1] says fewer (a replay that takes other turns) */

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int *counter = NULL;
    MPI_Win win;
    MPI_Win_allocate(rank == 0 ? (MPI_Aint)sizeof *counter : 0, sizeof *counter, MPI_INFO_NULL,
                     MPI_COMM_WORLD, &counter, &win);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        *counter = 0;
        MPI_Win_unlock(0, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    int got[TICKETS];
    const int one = 1;
    int take = argc > 1 ? atoi(argv[1]) : TICKETS;
    for (int i = 0; i < TICKETS; i++) {
        if (i >= take) {
            got[i] = -1;
            continue;
        }
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        MPI_Fetch_and_op(&one, &got[i], MPI_INT, 0, 0, MPI_SUM, win);
        MPI_Win_unlock(0, win);
        for (volatile int spin = 0; spin < 20000 * (rank + 1); spin++) {
        }
    }
    int nranks;
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
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
