/* tickets_all.c: a ticket counter taken in one shared epoch (issue 32): rank 0 holds a counter;
 * inside MPI_Win_lock_all every rank takes TICKETS tickets with MPI_Fetch_and_op(+1) and a flush.
 * Rank 0 prints each rank's tickets: the order in which the atomics combined, which differs
 * from run to run. */
#include <mpi.h>

#include "tickets.h"

#define TICKETS 6

static void fetch_and_add(int *got, MPI_Win win)
{
    const int one = 1;
    MPI_Fetch_and_op(&one, got, MPI_INT, 0, 0, MPI_SUM, win);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int got[TICKETS];
    MPI_Win win = tickets_window();
    tickets_take_shared(win, got, TICKETS, fetch_and_add);
    tickets_report(got, TICKETS);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
