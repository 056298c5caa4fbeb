/* lockall_mixed.c: MPI_Win_lock_all epochs against exclusive epochs on one target (issue 32):
 * rank 0 increments a counter in its own window INCREMENTS times, each under
 * MPI_Win_lock(EXCLUSIVE, 0) with a local load and store, while every other rank reads it
 * READS times with MPI_Get, each read in an MPI_Win_lock_all epoch of its own. The exclusive
 * lock keeps the reads and increments apart (no conflicting access), so what each read sees is
 * how many increments were granted before its epoch: an order that differs from run to run.
 * Rank 0 prints what every rank saw. */
#include <mpi.h>

#include "tickets.h"

#define INCREMENTS 20
#define READS 8

/* Unequal pauses between epochs, so that their order varies. */
static void pause_for(int rank)
{
    for (volatile int spin = 0; spin < 15000 * (rank + 1); spin++) {
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win win = tickets_window();
    int *counter = NULL, flag = 0;
    MPI_Win_get_attr(win, MPI_WIN_BASE, &counter, &flag);
    int seen[READS] = {0};
    if (rank == 0) {
        for (int i = 0; i < INCREMENTS; i++) {
            MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
            *counter += 1;
            MPI_Win_unlock(0, win);
            pause_for(rank);
        }
    } else {
        for (int i = 0; i < READS; i++) {
            MPI_Win_lock_all(0, win);
            MPI_Get(&seen[i], 1, MPI_INT, 0, 0, 1, MPI_INT, win);
            MPI_Win_unlock_all(win);
            pause_for(rank);
        }
    }
    tickets_report(seen, READS);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
