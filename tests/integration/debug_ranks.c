/* debug_ranks.c: the program of session_mi.sh (the session's persistent gdbs, rank sets and
 * merged stacks). Rank 0 sends rank 1 a value; every rank then settles its value and meets
 * the others in a barrier and an allreduce. The lines marked @name are found by the test. */
#include <mpi.h>
#include <stdio.h>

int settled_total; /* a global for watch */

static int receive_one(void)
{
    int got = -1;
    MPI_Recv(&got, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* @recv */
    return got;
}

static int settle(int rank, int value)
{
    int doubled = value * 2; /* @settle */
    settled_total += doubled;
    return doubled + rank;
}

static void exchange(int rank, int value)
{
    int sum = 0;
    MPI_Barrier(MPI_COMM_WORLD); /* @barrier */
    MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("sum %d\n", sum);
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int value = 100 + rank;
    if (rank == 0) MPI_Send(&value, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
    if (rank == 1) value += receive_one(); /* @call_recv */
    value = settle(rank, value); /* @call_settle */
    int token = value + 1; /* @token */
    exchange(rank, token); /* @call_exchange */
    MPI_Finalize();
    return 0;
}
