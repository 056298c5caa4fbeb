/* fifo_block.c: a job that says it is running, then blocks forever: for tests that act on a
 * running job without sleeping (concurrent.sh kills `mpirr record` under it). Every rank
 * takes part in a few rounds of wildcard receives at rank 0 (something to record); then rank
 * 0 writes "started" to the FIFO argv[1] (the open blocks until the test reads it) and every
 * rank waits in a receive nobody matches, until it is killed. */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int round = 0; round < 5; round++) {
        if (rank == 0) {
            for (int i = 1; i < size; i++) {
                int v;
                MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
        } else {
            MPI_Send(&rank, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
        }
    }
    if (rank == 0) {
        FILE *f = argc > 1 ? fopen(argv[1], "w") : NULL;
        if (!f) MPI_Abort(MPI_COMM_WORLD, 2);
        fputs("started\n", f);
        fclose(f);
    }
    int never;
    MPI_Recv(&never, 1, MPI_INT, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
