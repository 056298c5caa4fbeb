/* badname.c: a wildcard race whose source file name, set by #line, holds bytes that are not
 * UTF-8 and control characters (ESC, BEL, a newline): the recording's call sites carry them
 * to mpirr's text and JSON outputs (tests/integration/outputs.sh). */
#include <mpi.h>
#include <stdio.h>
#line 1 "bad\377\033]0;title\a\033[31mname\n.c"
int main(int argc, char **argv)
{
    int rank, size, v;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        for (int i = 1; i < size; i++)
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
