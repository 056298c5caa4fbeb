/* libc_time: what a libc time call costs the application under mpirr (docs/runtime.md,
 * "Nondeterminism outside MPI"): ns per clock_gettime(CLOCK_MONOTONIC), per time() and per
 * clock_gettime from a call site mpirr must pass through. Run natively, under record and under
 * replay (bench/libc_time.sh). The loops are timed by the clock_gettime system call itself,
 * which no interposer sees (a replayed clock would time nothing).
 * Prints: bench libc_time ns_clock_gettime <x> ns_time <y> ns_getpid <z>
 * argv[1]: calls per loop (default 2000000). */
#define _GNU_SOURCE
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void)
{
    struct timespec ts;
    syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static volatile long sink;

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    long n = argc > 1 ? atol(argv[1]) : 2000000;
    struct timespec ts;
    double t0 = now_ns();
    for (long i = 0; i < n; i++) {
        clock_gettime(CLOCK_MONOTONIC, &ts);
        sink += ts.tv_nsec;
    }
    double t1 = now_ns();
    for (long i = 0; i < n; i++) sink += time(NULL);
    double t2 = now_ns();
    for (long i = 0; i < n; i++) sink += getpid();
    double t3 = now_ns();
    MPI_Barrier(MPI_COMM_WORLD);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        printf("bench libc_time ns_clock_gettime %.1f ns_time %.1f ns_getpid %.1f\n",
               (t1 - t0) / n, (t2 - t1) / n, (t3 - t2) / n);
    MPI_Finalize();
    return 0;
}
