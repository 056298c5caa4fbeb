/* procname.c: prints "<rank> <size> <processor name>" per rank, after an allreduce that makes
 * every rank talk to the others: the cluster tests check that ranks ran on different nodes. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, size, len, sum;
    char name[MPI_MAX_PROCESSOR_NAME];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_processor_name(name, &len);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    /* the sum of 0..size-1: every rank took part */
    printf("%d %d %s %s\n", rank, size, name, sum == size * (size - 1) / 2 ? "ok" : "bad-sum");
    MPI_Finalize();
    return 0;
}
