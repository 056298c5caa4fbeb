/* fence_atomics.c: atomic operations inside one fence epoch (issue 32), whose order the library
 * picks and mpirr cannot force (no flush completes one before the next: docs/rma.md, What is
 * not forced). Every rank, on rank 0's window, in one fence epoch: MPI_Accumulate(MPI_REPLACE)
 * of its rank (the last applied wins), MPI_Fetch_and_op(MPI_SUM) on an int (the value fetched
 * depends on who came first), MPI_Accumulate(MPI_SUM) of a double (rounding depends on the
 * order), and two accumulates whose order cannot change anything: MPI_SUM over a derived type
 * of ints and MPI_MAX of an int. Rank 0 prints the window and every rank's fetched value. The
 * replay's verdict must name the first three calls (2 MPI_Accumulate, 1 MPI_Fetch_and_op per
 * rank) and not the last two. */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>

struct words {
    int replaced, fetched, pair[2], max, pad;
    double sum;
};

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, nranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    struct words *w = NULL;
    MPI_Win win;
    MPI_Win_allocate(rank == 0 ? (MPI_Aint)sizeof *w : 0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w,
                     &win);
    if (rank == 0) *w = (struct words){0};
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    const int one = 1, ones[2] = {1, 2};
    const double third = 1.0 / (3 + rank);
    int got = -1;
    MPI_Win_fence(0, win);
    MPI_Accumulate(&rank, 1, MPI_INT, 0, offsetof(struct words, replaced), 1, MPI_INT,
                   MPI_REPLACE, win);
    MPI_Fetch_and_op(&one, &got, MPI_INT, 0, offsetof(struct words, fetched), MPI_SUM, win);
    MPI_Accumulate(&third, 1, MPI_DOUBLE, 0, offsetof(struct words, sum), 1, MPI_DOUBLE, MPI_SUM,
                   win);
    MPI_Accumulate(ones, 1, pair, 0, offsetof(struct words, pair), 1, pair, MPI_SUM, win);
    MPI_Accumulate(&rank, 1, MPI_INT, 0, offsetof(struct words, max), 1, MPI_INT, MPI_MAX, win);
    MPI_Win_fence(0, win);
    int all[64];
    if (nranks > 64) MPI_Abort(MPI_COMM_WORLD, 2);
    MPI_Gather(&got, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("replaced %d fetched %d pair %d %d max %d sum %.17g\n", w->replaced, w->fetched,
               w->pair[0], w->pair[1], w->max, w->sum);
        for (int r = 0; r < nranks; r++) printf("rank %d fetched %d\n", r, all[r]);
    }
    MPI_Type_free(&pair);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
