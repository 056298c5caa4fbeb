/* table1.h: helpers shared by the Table 1 programs (the .c files of bench/table1).
 *
 * The programs reproduce the kinds of program measured in Table 1 of Netzer & Miller, "Optimal
 * Tracing and Replay for Debugging Message-Passing Parallel Programs". Each one counts the
 * point-to-point messages it sends (t1_send), counts its wildcard receives as nd_events
 * (t1_recv with MPI_ANY_SOURCE) and ends with the one bench line of common.h plus
 * `messages <point-to-point messages sent, summed over all ranks>` (t1_report). */
#ifndef MPIRR_BENCH_TABLE1_H
#define MPIRR_BENCH_TABLE1_H

#include <math.h>
#include <string.h>

#include "common.h"

typedef struct {
  bench_counts_t bc; /* calls made by this rank in the timed phase, wildcard receives */
  long sent;         /* point-to-point messages this rank sent */
} t1_t;

static inline void t1_send(t1_t *t, const void *buf, int count, MPI_Datatype type, int dest, int tag) {
  t->sent++;
  BENCH_CALL(&t->bc, MPI_Send(buf, count, type, dest, tag, MPI_COMM_WORLD));
}

/* MPI_Recv on MPI_COMM_WORLD; a wildcard source counts as one nondeterministic event. */
static inline void t1_recv(t1_t *t, void *buf, int count, MPI_Datatype type, int src, int tag, MPI_Status *st) {
  if (src == MPI_ANY_SOURCE) t->bc.nd_events++;
  BENCH_CALL(&t->bc, MPI_Recv(buf, count, type, src, tag, MPI_COMM_WORLD, st));
}

/* argv[i] as a positive number, else dflt. */
static inline long t1_arg(int argc, char **argv, int i, long dflt) {
  if (argc > i) {
    char *end = NULL;
    long v = strtol(argv[i], &end, 10);
    if (end != argv[i] && *end == '\0' && v > 0) return v;
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) fprintf(stderr, "%s: argument %d must be a positive whole number, got '%s'\n", argv[0], i, argv[i]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return dflt;
}

/* A deterministic pseudo-random double in [-1, 1) for element i of data set `seed`. */
static inline double t1_rand(uint32_t seed, uint32_t i) {
  return (double)mix32(mix32(seed, i), i ^ 0x5bd1e995u) / 2147483648.0 - 1.0;
}

static inline void *t1_alloc(size_t bytes) {
  void *p = calloc(1, bytes ? bytes : 1);
  if (!p) fail("out of memory (%zu bytes)", bytes);
  return p;
}

/* Sums the messages over all ranks and prints the bench line (rank 0). Collective. */
static inline void t1_report(const char *name, long iters, double seconds, const t1_t *t) {
  long total = 0;
  char extra[64];
  MPI_Reduce(&t->sent, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  snprintf(extra, sizeof extra, "messages %ld", total);
  bench_report(name, iters, seconds, &t->bc, extra);
}

#endif /* MPIRR_BENCH_TABLE1_H */
