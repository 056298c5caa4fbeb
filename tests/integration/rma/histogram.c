/* histogram.c: an accumulate-based histogram (issue 32): rank 0 holds BINS counters; every rank
 * adds its samples with MPI_Get_accumulate(+1) in a shared epoch (each sample's place within
 * its bin is the count fetched), plus a weight per sample with MPI_Accumulate(MPI_REPLACE) into
 * a "last writer" word. Rank 0 prints the bins, the last writer and every rank's places: the
 * sums are the same in every run, the places and the last writer are the order of the atomics. */
#include <mpi.h>
#include <stdio.h>

#define BINS 4
#define SAMPLES 8

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, nranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    int *bins = NULL;
    MPI_Win win;
    MPI_Win_allocate(rank == 0 ? (MPI_Aint)((BINS + 1) * sizeof *bins) : 0, sizeof *bins,
                     MPI_INFO_NULL, MPI_COMM_WORLD, &bins, &win);
    for (int i = 0; rank == 0 && i <= BINS; i++) bins[i] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    const int one = 1;
    int place[SAMPLES];
    MPI_Win_lock_all(0, win);
    for (int s = 0; s < SAMPLES; s++) {
        int bin = (s * 7 + rank) % BINS;
        MPI_Get_accumulate(&one, 1, MPI_INT, &place[s], 1, MPI_INT, 0, bin, 1, MPI_INT, MPI_SUM,
                           win);
        MPI_Accumulate(&rank, 1, MPI_INT, 0, BINS, 1, MPI_INT, MPI_REPLACE, win);
        MPI_Win_flush(0, win);
        for (volatile int spin = 0; spin < 15000 * (rank + 1); spin++) {
        }
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    int all[64 * SAMPLES];
    if (nranks > 64) MPI_Abort(MPI_COMM_WORLD, 2);
    MPI_Gather(place, SAMPLES, MPI_INT, all, SAMPLES, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) { /* the window's memory as the atomics left it (separate model too) */
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        MPI_Win_unlock(0, win);
        printf("bins");
        for (int i = 0; i < BINS; i++) printf(" %d", bins[i]);
        printf("\nlast writer %d\n", bins[BINS]);
        for (int r = 0; r < nranks; r++) {
            printf("rank %d places", r);
            for (int s = 0; s < SAMPLES; s++) printf(" %d", all[r * SAMPLES + s]);
            printf("\n");
        }
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
