/* all_abort.c: every rank of a run calls MPI_Abort, the way MPICH's own tests (coll2, gatherv,
 * gather_big) fail: each rank checks what it got and aborts by itself. argv[1] says when:
 *   init    every rank aborts (code 3) as soon as MPI_Init returns: the fastest rank's abort
 *           ends the job while the slowest may still be inside MPI_Init
 *   rounds  rounds of wildcard receives at rank 0 (the arrival order is the run's
 *           nondeterminism) and of a gather; from round 3 each rank aborts (code 10 + rank) in
 *           a round that the order of round 2 chose for it (broadcast), so ranks abort at
 *           different moments while others are inside the receives or the gather. Small
 *           messages go eagerly: the other ranks run ahead of rank 0, and which ranks reach
 *           their own MPI_Abort before the launcher kills them is the launcher's timing
 * The program never finishes: it always aborts. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 2 || !strcmp(argv[1], "init")) MPI_Abort(MPI_COMM_WORLD, 3);
    int *all = calloc((size_t)size, sizeof *all);
    unsigned order = 0;
    int abort_round = -1;
    for (int round = 0; round < 1000; round++) {
        if (rank == 0) {
            order = 0;
            for (int k = 1; k < size; k++) {
                MPI_Status st;
                int from;
                MPI_Recv(&from, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
                order = order * 31 + (unsigned)st.MPI_SOURCE;
            }
        } else {
            MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        }
        if (round == 2) {
            MPI_Bcast(&order, 1, MPI_UNSIGNED, 0, MPI_COMM_WORLD);
            abort_round = 3 + (int)((order + 5u * (unsigned)rank) % 6);
        }
        if (round == abort_round) MPI_Abort(MPI_COMM_WORLD, 10 + rank);
        int mine = (int)order;
        MPI_Gather(&mine, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
