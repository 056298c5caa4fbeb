/* tickets.h: what the ticket counters (rma_tickets.c, tickets_all.c) share: the counter, an int
 * on rank 0 of a window over MPI_COMM_WORLD, and the report: rank 0 gathers every rank's n
 * tickets and prints one line per rank, "rank R tickets a b c ...". */
#ifndef TICKETS_H
#define TICKETS_H

#include <mpi.h>
#include <stdio.h>

#define TICKETS_MAX_RANKS 64
#define TICKETS_MAX 16

/* The counter window, its counter set to 0 (by rank 0, in an epoch of its own) before any rank
 * returns. */
static inline MPI_Win tickets_window(void)
{
    int rank, *counter = NULL;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win win;
    MPI_Win_allocate(rank == 0 ? (MPI_Aint)sizeof *counter : 0, sizeof *counter, MPI_INFO_NULL,
                     MPI_COMM_WORLD, &counter, &win);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        *counter = 0;
        MPI_Win_unlock(0, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    return win;
}

static inline void tickets_report(const int *got, int n)
{
    int rank, nranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    int all[TICKETS_MAX_RANKS * TICKETS_MAX];
    if (nranks > TICKETS_MAX_RANKS || n > TICKETS_MAX) MPI_Abort(MPI_COMM_WORLD, 2);
    MPI_Gather(got, n, MPI_INT, all, n, MPI_INT, 0, MPI_COMM_WORLD);
    for (int r = 0; rank == 0 && r < nranks; r++) {
        printf("rank %d tickets", r);
        for (int i = 0; i < n; i++) printf(" %d", all[r * n + i]);
        printf("\n");
    }
}

/* n tickets taken in one shared epoch (MPI_Win_lock_all), each by take (an atomic +1 on rank
 * 0's counter, its old value into *got) and a flush, the ranks slowed unequally between tickets
 * so that their order varies. */
static inline void tickets_take_shared(MPI_Win win, int *got, int n,
                                       void (*take)(int *got, MPI_Win win))
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_lock_all(0, win);
    for (int i = 0; i < n; i++) {
        take(&got[i], win);
        MPI_Win_flush(0, win);
        for (volatile int spin = 0; spin < 20000 * (rank + 1); spin++) {
        }
    }
    MPI_Win_unlock_all(win);
}

#endif
