/* assert_wait.c FILE: a program whose rank 0 fails an assert right after its last MPI call
 * once FILE exists, for the replay session's tests (session_traps.sh). Every other rank sends
 * rank 0 one message with MPI_Ssend (a sender blocks until rank 0 receives it) and tag
 * 10 + rank; rank 0 receives them with MPI_Irecv(MPI_ANY_SOURCE) and MPI_Wait and prints the
 * order. The assert depends on FILE, not on the run, so the recording (made without FILE) ends
 * normally and complete, while its replay (with FILE) dies of SIGABRT at a known place: a
 * recording cut by an abort would end the other ranks wherever the abort caught them.
 * Nondeterminism: the order of the wildcard receives (the `order` line). */
#undef NDEBUG /* the assert is the point, in every build type */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank != 0) {
        MPI_Ssend(&rank, 1, MPI_INT, 0, 10 + rank, MPI_COMM_WORLD);
        MPI_Finalize();
        return 0;
    }
    printf("order");
    for (int k = 0; k < size - 1; k++) {
        int who = -1;
        MPI_Request req;
        MPI_Status st;
        MPI_Irecv(&who, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, &st);
        printf(" %d", who);
    }
    printf("\n");
    fflush(stdout);
    assert((argc < 2 || access(argv[1], F_OK) != 0) && "the bug: FILE exists");
    MPI_Finalize();
    return 0;
}
