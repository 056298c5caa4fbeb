/* rma_tickets.c: a load-balancing ticket counter in one-sided MPI (issue 32). Rank 0 holds a
 * counter in a window (MPI_Win_allocate); every rank takes TICKETS tickets from it, each with
 * MPI_Win_lock(EXCLUSIVE) + MPI_Fetch_and_op(+1) + MPI_Win_unlock, and prints the tickets it
 * got on one line: "rank R tickets a b c ...". Which rank gets which ticket is the order of
 * the lock grants, which differs from run to run and which mpirr does not replay: its replay
 * verdict must say so. Calls nothing else nondeterministic. */
#include <mpi.h>
#include <stdio.h>

#define TICKETS 6

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
    for (int i = 0; i < TICKETS; i++) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        MPI_Fetch_and_op(&one, &got[i], MPI_INT, 0, 0, MPI_SUM, win);
        MPI_Win_unlock(0, win);
        for (volatile int spin = 0; spin < 20000 * (rank + 1); spin++) {
        }
    }
    char line[256];
    int len = snprintf(line, sizeof line, "rank %d tickets", rank);
    for (int i = 0; i < TICKETS; i++) len += snprintf(line + len, sizeof line - (size_t)len, " %d", got[i]);
    printf("%s\n", line);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
