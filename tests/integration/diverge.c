/* diverge.c: the same executable behaving differently depending on its input (argv[1]), the way
 * a program changes between its recording and a replay: with "b" rank 0 calls MPI_Barrier on
 * MPI_COMM_SELF at step 3 before its wildcard receives. Replaying an "a" recording with "b" must
 * stop with a one-line divergence error naming rank 0, the event, MPI_Recv and MPI_Barrier. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, x = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int variant_b = argc > 1 && !strcmp(argv[1], "b");
    for (int step = 0; step < 6; step++) {
        if (rank == 0) {
            if (step == 3 && variant_b) MPI_Barrier(MPI_COMM_SELF);
            for (int k = 1; k < size; k++)
                MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        }
    }
    if (rank == 0) printf("done\n");
    MPI_Finalize();
    return 0;
}
