/* rma_tickets.c: a load-balancing ticket counter in one-sided MPI (issue 32). Rank 0 holds a
 * counter in a window (MPI_Win_allocate); every rank takes TICKETS tickets from it, each with
 * MPI_Win_lock(EXCLUSIVE) + MPI_Fetch_and_op(+1) + MPI_Win_unlock; rank 0 gathers them and
 * prints one line per rank: "rank R tickets a b c ...". Which rank gets which ticket is the order of
 * the lock grants, which differs from run to run and which mpirr replays (docs/rma.md). Calls
 * nothing else nondeterministic. */
#include <mpi.h>
#include <stdlib.h>

#include "rma/tickets.h"

#define TICKETS 6 /* each rank's, unless argv[1] says fewer (a replay that takes other turns) */

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win win = tickets_window();
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
    tickets_report(got, TICKETS);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
