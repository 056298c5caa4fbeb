/* pscw_halo.c: a 1-D halo exchange with post-start-complete-wait (issue 32): every rank exposes
 * its ghost cells to its two neighbours (MPI_Win_post), puts its edge cells into theirs
 * (MPI_Win_start, MPI_Put, MPI_Win_complete) and polls MPI_Win_test until its exposure epoch
 * ended, counting the unsuccessful polls, for STEPS steps. Rank 0 prints every rank's final
 * cells and poll counts: the cells are the same in every run, the counts differ. */
#include <mpi.h>
#include <stdio.h>

#include "halo.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, nranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    long *u = NULL; /* [0] left ghost, [1..CELLS] cells, [CELLS+1] right ghost */
    MPI_Win win;
    MPI_Win_allocate((CELLS + 2) * sizeof *u, sizeof *u, MPI_INFO_NULL, MPI_COMM_WORLD, &u, &win);
    for (int i = 0; i < CELLS + 2; i++) u[i] = (rank * CELLS + i) * 8;
    int nb[2] = {(rank + nranks - 1) % nranks, (rank + 1) % nranks};
    MPI_Group world, peers;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, nb[0] == nb[1] ? 1 : 2, nb, &peers);
    long polls = 0;
    for (int s = 0; s < STEPS; s++) {
        MPI_Win_post(peers, 0, win);
        MPI_Win_start(peers, 0, win);
        MPI_Put(&u[1], 1, MPI_LONG, nb[0], CELLS + 1, 1, MPI_LONG, win);
        MPI_Put(&u[CELLS], 1, MPI_LONG, nb[1], 0, 1, MPI_LONG, win);
        MPI_Win_complete(win);
        int done = 0;
        while (MPI_Win_test(win, &done), !done) { /* compute while the neighbours put */
            polls++;
            for (volatile int spin = 0; spin < 20000; spin++) {
            }
        }
        halo_smooth(u);
        MPI_Barrier(MPI_COMM_WORLD); /* nobody puts the next step's edges before all smoothed */
    }
    long cells[64 * CELLS], all_polls[64];
    if (nranks > 64) MPI_Abort(MPI_COMM_WORLD, 2);
    MPI_Gather(&u[1], CELLS, MPI_LONG, cells, CELLS, MPI_LONG, 0, MPI_COMM_WORLD);
    MPI_Gather(&polls, 1, MPI_LONG, all_polls, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    for (int r = 0; rank == 0 && r < nranks; r++) {
        printf("rank %d polls %ld cells", r, all_polls[r]);
        for (int i = 0; i < CELLS; i++) printf(" %ld", cells[r * CELLS + i]);
        printf("\n");
    }
    MPI_Group_free(&peers);
    MPI_Group_free(&world);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
