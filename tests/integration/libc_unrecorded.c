/* libc_unrecorded: a program whose output comes from libc values, but whose MPI calls do not,
 * so a replay of a recording that lacks those values runs to the end with other output: the
 * case the replay verdict must call "not exact" (libc_verdict.sh). Rank r seeds rand() from
 * r+1 calls of one source group, then every rank sends its first rand() to rank 0, which
 * receives with MPI_ANY_SOURCE and prints each value as it arrives.
 * argv[1]: pid   getpid() r+1 times (not recorded by default: --libc-pid)
 *          time  time() and clock_gettime(CLOCK_MONOTONIC) r+1 times each (--no-libc-time
 *                leaves them out)
 *          none  no libc call: the seed is the rank */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *what = argc > 1 ? argv[1] : "none";
    unsigned seed = (unsigned)rank;
    for (int i = 0; i <= rank; i++) {
        if (!strcmp(what, "pid")) {
            seed = seed * 31 + (unsigned)getpid();
        } else if (!strcmp(what, "time")) {
            struct timespec t;
            clock_gettime(CLOCK_MONOTONIC, &t);
            seed = seed * 31 + (unsigned)time(NULL) + (unsigned)t.tv_nsec;
        } else if (strcmp(what, "none")) {
            fprintf(stderr, "libc_unrecorded: unknown source group '%s'\n", what);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    srand(seed);
    int value = rand();
    if (rank) {
        MPI_Send(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    } else {
        printf("rank 0 value %d\n", value);
        for (int i = 1; i < size; i++) {
            MPI_Status st;
            MPI_Recv(&value, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
            printf("rank %d value %d\n", st.MPI_SOURCE, value);
        }
    }
    MPI_Finalize();
    return 0;
}
