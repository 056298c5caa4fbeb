/* libc_seeds: nondeterminism from libc, as in HPCC (srand(time(NULL))) and timing reports.
 * Every rank seeds rand() with time(NULL) ^ getpid() after MPI_Init, then per round: times a
 * little work with clock_gettime(CLOCK_MONOTONIC) and gettimeofday, makes a number of extra
 * MPI calls that depends on rand() and on the measured nanoseconds (so a replay with other
 * values makes other MPI calls, and diverges), draws 8 bytes from getrandom, and sends all of
 * it to rank 0, which receives with MPI_ANY_SOURCE and prints each message as it arrives.
 * Before the rounds, a burst of BURST clock_gettime calls (more libc records than the log's
 * checkpoint interval) is folded into a checksum that is printed too.
 * Native runs differ in everything; a replay must print exactly what the recording printed.
 * argv[1]: rounds (default 6). */
#define _GNU_SOURCE
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

enum { FIELDS = 7, BURST = 5000 };

static volatile uint64_t sink;

static void work(int n)
{
    uint64_t x = (uint64_t)n;
    for (int i = 0; i < 20000 + 1000 * n; i++) x = x * 6364136223846793005ull + 1;
    sink = x;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int rounds = argc > 1 ? atoi(argv[1]) : 6;
    srand((unsigned)(time(NULL) ^ getpid()));
    struct timespec wall;
    clock_gettime(CLOCK_REALTIME, &wall);
    long long burst = 0;
    for (int i = 0; i < BURST; i++) {
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        burst = burst * 31 + t.tv_nsec;
    }
    for (int round = 0; round < rounds; round++) {
        struct timespec a, b;
        struct timeval u, v;
        clock_gettime(CLOCK_MONOTONIC, &a);
        gettimeofday(&u, NULL);
        int r = rand();
        work(r % 7);
        gettimeofday(&v, NULL);
        clock_gettime(CLOCK_MONOTONIC, &b);
        long long ns = (b.tv_sec - a.tv_sec) * 1000000000ll + (b.tv_nsec - a.tv_nsec);
        long long us = (v.tv_sec - u.tv_sec) * 1000000ll + (v.tv_usec - u.tv_usec);
        for (int k = (int)((r ^ ns) % 4); k > 0; k--) {
            int me;
            MPI_Comm_rank(MPI_COMM_WORLD, &me);
        }
        uint64_t bytes = 0;
        if (getrandom(&bytes, sizeof bytes, 0) != (ssize_t)sizeof bytes) return 3;
        long long msg[FIELDS] = {rank, r, ns, us, (long long)(bytes >> 1),
                                 (long long)(time(NULL) - wall.tv_sec), burst};
        if (rank) {
            MPI_Send(msg, FIELDS, MPI_LONG_LONG, 0, round, MPI_COMM_WORLD);
            continue;
        }
        for (int i = 0; i < size; i++) {
            if (i) MPI_Recv(msg, FIELDS, MPI_LONG_LONG, MPI_ANY_SOURCE, round, MPI_COMM_WORLD,
                            MPI_STATUS_IGNORE);
            printf("round %d rank %lld rand %lld clock_ns %lld tod_us %lld random %llx secs %lld "
                   "burst %llx\n", round, msg[0], msg[1], msg[2], msg[3], msg[4], msg[5], msg[6]);
        }
    }
    MPI_Finalize();
    return 0;
}
