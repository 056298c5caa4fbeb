/* node_kill.c: a run whose ranks on one node are killed outright (SIGKILL, which no handler
 * sees) after a number of rounds. Each round every rank other than 0 sends rank 0 one message,
 * which rank 0 receives with MPI_ANY_SOURCE and prints, in the order they came, as
 * "round R: S S S" (flushed: the line is out before anything can kill the job). argv[1]: the
 * host name whose ranks raise SIGKILL at the start of round argv[2]; argv[3], if given: only
 * that rank of them. */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    const int doomed = argc > 2 && !strcmp(host, argv[1]) && (argc < 4 || rank == atoi(argv[3])),
              kill_round = argc > 2 ? atoi(argv[2]) : -1;
    for (int round = 0; round < 1000; round++) {
        if (doomed && round == kill_round) raise(SIGKILL);
        if (rank == 0) {
            printf("round %d:", round);
            for (int k = 1; k < size; k++) {
                int from;
                MPI_Recv(&from, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                printf(" %d", from);
            }
            printf("\n");
            fflush(stdout);
        } else {
            MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
