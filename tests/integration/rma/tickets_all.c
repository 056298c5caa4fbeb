/* tickets_all.c: a ticket counter taken in one shared epoch (issue 32): rank 0 holds a counter;
 * inside MPI_Win_lock_all every rank takes TICKETS tickets with MPI_Fetch_and_op(+1) and a flush.
 * Rank 0 prints each rank's tickets: the order in which the atomics combined, which differs
 * from run to run. */
#include <mpi.h>

#include "tickets.h"

#define TICKETS 6

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int got[TICKETS];
    MPI_Win win = tickets_window();
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const int one = 1;
    MPI_Win_lock_all(0, win);
    for (int i = 0; i < TICKETS; i++) {
        MPI_Fetch_and_op(&one, &got[i], MPI_INT, 0, 0, MPI_SUM, win);
        MPI_Win_flush(0, win);
        for (volatile int spin = 0; spin < 20000 * (rank + 1); spin++) {
        }
    }
    MPI_Win_unlock_all(win);
    tickets_report(got, TICKETS);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
