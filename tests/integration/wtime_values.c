/* wtime_values.c: what MPI_Wtime and MPI_Wtick return, printed by rank 0 for every rank:
 * "tick T" (MPI_Wtick, %g), then one line per rank with 20 MPI_Wtime values in whole
 * nanoseconds, each taken after a little work, so that natively every run prints other values
 * and only a clock of 1 us resolution prints multiples of 1000 alone. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { VALUES = 20 };

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double mine[VALUES], *all = malloc(sizeof *all * VALUES * (size_t)size);
    volatile double sink = 0;
    for (int i = 0; i < VALUES; i++) {
        for (int k = 0; k < 1000 + 37 * i + rank; k++) sink += sqrt((double)k);
        mine[i] = MPI_Wtime();
    }
    MPI_Gather(mine, VALUES, MPI_DOUBLE, all, VALUES, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("tick %g\n", MPI_Wtick());
        for (int r = 0; r < size; r++) {
            printf("rank %d:", r);
            for (int i = 0; i < VALUES; i++) printf(" %lld", llround(all[r * VALUES + i] * 1e9));
            printf("\n");
        }
    }
    free(all);
    MPI_Finalize();
    return 0;
}
