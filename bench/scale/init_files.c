/* init_files.c: the trivial program of bench/scale/file_count.sh (issue 35): every rank times
 * its MPI_Init and MPI_Finalize (CLOCK_MONOTONIC), where mpirr creates and closes a rank's
 * recording files, and does one barrier. Rank 0 prints one line:
 *   init_files ranks P init_ms MED MAX
 * (MED: the median over the ranks, MAX the largest), and each rank's MPI_Finalize time goes
 * to stdout as "finalize_ms R T" after MPI_Finalize returned. */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    double t0 = now_ms();
    MPI_Init(&argc, &argv);
    double init = now_ms() - t0;
    int rank, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    double *all = rank == 0 ? malloc(sizeof *all * (size_t)n) : NULL;
    MPI_Gather(&init, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        qsort(all, (size_t)n, sizeof *all, cmp);
        printf("init_files ranks %d init_ms %.1f %.1f\n", n, all[n / 2], all[n - 1]);
        fflush(stdout);
        free(all);
    }
    t0 = now_ms();
    MPI_Finalize();
    printf("finalize_ms %d %.1f\n", rank, now_ms() - t0);
    return 0;
}
