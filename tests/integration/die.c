/* die.c: a program that dies while being recorded, the way real runs die. Ranks exchange
 * wildcard messages for a while; then rank 0 prints the order it saw and dies as argv[1] says:
 *   segv   dereferences NULL          abort  calls abort()
 *   mpiabort  calls MPI_Abort(.., 3)  exit   calls exit(4) without MPI_Finalize
 *   hang   blocks forever in a receive nobody matches (the harness then sends SIGTERM/SIGINT
 *          to the launcher, as a user or a batch system would)
 *   poll   polls a receive nobody matches with MPI_Test, forever, announcing it after 2000
 *          polls: the recording then ends in a run of unsuccessful tests, which have no
 *          records, so replay must follow the rank's progress word, not its last record
 * Which round it dies in depends on the arrival order, so replay must reproduce the order to
 * die at the same place. Rank 0 writes what it saw to stdout and, synced, to the file argv[2]
 * (launchers may drop the last lines of stdout of a job that dies). */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static FILE *log_file;

/* printf to stdout and to the log file. */
static void say(const char *fmt, int v)
{
    printf(fmt, v);
    if (log_file) fprintf(log_file, fmt, v);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *how = argc > 1 ? argv[1] : "segv";
    if (rank == 0 && argc > 2) log_file = fopen(argv[2], "w");
    unsigned sum = 0;
    for (int round = 0; round < 40; round++) {
        if (rank == 0) {
            say("round %d:", round);
            for (int k = 1; k < size; k++) {
                int from;
                MPI_Status st;
                MPI_Recv(&from, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
                say(" %d", st.MPI_SOURCE);
                sum = sum * 31 + (unsigned)st.MPI_SOURCE;
            }
            say("\n", 0);
        } else {
            MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        }
        int die = rank == 0 && round >= 5 && sum % 7 == 0;
        MPI_Bcast(&die, 1, MPI_INT, 0, MPI_COMM_WORLD);
        if (die) break;
    }
    if (rank == 0) {
        if (log_file) { /* first: the harness kills the job once stdout says "dying" */
            fprintf(log_file, "dying: %s\n", how);
            fflush(log_file);
            fsync(fileno(log_file));
        }
        int polls = 0, done = 0;
        MPI_Request poll;
        if (!strcmp(how, "poll")) { /* announced only once the polls are many */
            MPI_Irecv(&polls, 1, MPI_INT, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &poll);
            for (; polls < 2000; polls++) MPI_Test(&poll, &done, MPI_STATUS_IGNORE);
        }
        printf("dying: %s\n", how);
        fflush(stdout);
        if (!strcmp(how, "poll")) {
            while (!done) MPI_Test(&poll, &done, MPI_STATUS_IGNORE);
        } else if (!strcmp(how, "segv")) {
            volatile int *p = NULL;
            *p = 1;
        } else if (!strcmp(how, "abort")) {
            abort();
        } else if (!strcmp(how, "mpiabort")) {
            MPI_Abort(MPI_COMM_WORLD, 3);
        } else if (!strcmp(how, "exit")) {
            exit(4);
        } else if (!strcmp(how, "hang")) {
            int x;
            MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    } else {
        int x; /* the others wait for a message that never comes: the launcher ends them */
        MPI_Recv(&x, 1, MPI_INT, 0, 98, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
