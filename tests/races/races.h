/* races.h: helpers of the races-mode test programs in tests/races/ (on top of
 * tests/programs/common.h).
 *
 * Every program here computes, on each rank, how many of that rank's completed
 * MPI_ANY_SOURCE receives the race rule of races mode logs (the rule, from Netzer & Miller's
 * on-the-fly algorithm as adapted by PDT, is stated in tests/races/README.md), for the message
 * order the run actually observed. report_expected() sums those counts on rank 0, which prints
 * the single line `expect racing_receives <N>`; race_count.sh compares it with
 * totals.racing_receives of `mpirr stat --json`.
 *
 * The sum uses MPI_Reduce, a collective: it adds no point-to-point message, so it cannot race
 * with anything the program received before. */
#ifndef MPIRR_TEST_RACES_H
#define MPIRR_TEST_RACES_H

#include "../programs/common.h"

/* Prints `expect racing_receives <sum of mine over all ranks>` on rank 0. */
static inline void report_expected(long mine) {
  int rank;
  long total = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Reduce(&mine, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("expect racing_receives %ld\n", total);
    fflush(stdout);
  }
}

/* The logged receives of a block of n wildcard receives of one rank, when every message of the
 * block was sent concurrently with every receive of the block (no causal chain from any of these
 * receives to any of these sends), the tag and communicator of every message are acceptable to
 * every receive, and no message received later races with them (the program orders what comes
 * after the block, e.g. by a barrier). src[k] is the source the k-th completed receive got.
 *
 * Receive k is logged iff some later receive k' > k got a message from another source than
 * src[k]: that message's send did not happen after receive k completed, so it could have been
 * received by k. So every receive is logged except those of the final run of equal sources
 * (a later receive with the same source is no race: FIFO order per channel).
 * Examples: sources 1 2 3 -> 2; 0 0 0 2 2 2 -> 3; 0 2 0 2 -> 3; 1 1 1 -> 0. */
static inline int count_block(const int *src, int n) {
  if (n <= 0) return 0;
  int tail = 1;
  while (tail < n && src[n - 1 - tail] == src[n - 1]) tail++;
  return n - tail;
}

#endif /* MPIRR_TEST_RACES_H */
