/* c_main: a C main whose wildcard receives are made by a Fortran subroutine (f_collect in
 * f_collect.f90): MPI_Init, the sends and the digest are C, the nondeterministic receives
 * (MPI_Recv from MPI_ANY_SOURCE, a polled MPI_Test) Fortran. Rank 0 receives.
 * argv[1]: rounds (default 3 * ranks). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* f_collect.f90: receives a round's messages on rank 0, folding what it saw into *digest */
void f_collect(const int *round, const int *nranks, int64_t *digest);

static volatile double sink;

static void spin(int a, int b)
{
    for (int i = 0, n = (a * 7919 + b * 104729) % 40000; i < n; i++)
        sink = sink * 0.999999 + 1e-9;
}

int main(int argc, char **argv)
{
    int rank, nranks;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    int rounds = argc > 1 ? atoi(argv[1]) : 3 * nranks;
    int64_t digest = 0;
    for (int round = 1; round <= rounds; round++) {
        MPI_Barrier(MPI_COMM_WORLD); /* no sender runs a round ahead */
        if (rank == 0) {
            f_collect(&round, &nranks, &digest);
            continue;
        }
        for (int tag = 91; tag <= 92; tag++) {
            spin(round * 2 + tag, rank);
            int msg[2] = {rank, round};
            MPI_Send(msg, 2, MPI_INT, 0, tag, MPI_COMM_WORLD);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("digest %016llx\n", (unsigned long long)digest);
    MPI_Finalize();
    return 0;
}
