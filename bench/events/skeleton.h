/* skeleton.h: helpers shared by the NAS communication skeletons of bench/events (sp_skeleton.c,
 * lu_skeleton.c), the programs that measure the event history (`mpirr record --events`) against
 * Table 1 of Hood & Matthews' p2d2 paper.
 *
 * Both lay the P ranks out as a q x q grid (q = sqrt(P); rank = row * q + col, so rank 0 is the
 * north-west corner) and do a little deterministic floating-point work between their MPI calls
 * (sk_relax: a few microseconds over a local array, folding in the message just received), so
 * that the event stream is not pure back-to-back communication. Everything is deterministic:
 * every receive names its source and tag. */
#ifndef MPIRR_BENCH_EVENTS_SKELETON_H
#define MPIRR_BENCH_EVENTS_SKELETON_H

#include <math.h>
#include <string.h>

#include "common.h"

typedef struct {
  int rank, size;
  int q;        /* ranks per grid row and per grid column */
  int row, col; /* this rank's place in the grid */
} sk_grid_t;

/* The grid of `size` ranks; every rank calls MPI_Abort (rank 0 first says why) unless size is a
 * perfect square. */
static inline sk_grid_t sk_grid(const char *prog, int rank, int size) {
  sk_grid_t g = {rank, size, 0, 0, 0};
  int q = (int)lround(sqrt((double)size));
  while (q * q > size) q--;
  while ((q + 1) * (q + 1) <= size) q++;
  if (q * q != size) {
    if (rank == 0) {
      fprintf(stderr, "%s: needs a perfect square number of ranks (a q x q grid: 1, 4, 9, 16, ...), got %d\n",
              prog, size);
      fflush(stderr);
    }
    MPI_Abort(MPI_COMM_WORLD, 2);
    exit(2); /* not reached */
  }
  g.q = q;
  g.row = rank / q;
  g.col = rank % q;
  return g;
}

/* The rank at (row, col), both taken modulo q (a torus). */
static inline int sk_at(const sk_grid_t *g, int row, int col) {
  row = ((row % g->q) + g->q) % g->q;
  col = ((col % g->q) + g->q) % g->q;
  return row * g->q + col;
}

/* Iteration count: argv[1] if it is a positive whole number, else dflt (a bad argument aborts). */
static inline long sk_iters(int argc, char **argv, long dflt) {
  if (argc > 1) {
    char *end = NULL;
    long v = strtol(argv[1], &end, 10);
    if (end != argv[1] && *end == '\0' && v > 0) return v;
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) fprintf(stderr, "%s: the iteration count must be a positive whole number, got '%s'\n", argv[0], argv[1]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return dflt;
}

/* Fills a[0..n) with a deterministic pattern in [0.5, 1.5) that depends on the rank. */
static inline void sk_fill(double *a, int n, int rank) {
  for (int i = 0; i < n; i++) a[i] = 0.5 + (double)mix32((uint32_t)rank, (uint32_t)i) / 4294967296.0;
}

/* The fake computation: `passes` relaxation sweeps over u[0..n) (n a multiple of m) that fold in
 * the m values of `in`. u' = 0.5 u + 0.45 in + s with a source s in [0.05/8, 0.05]: values stay
 * within [0.125, 1.5] once there, and never decay towards zero (a source that could be 0 let
 * some elements sink into denormals after a few thousand time steps, which made every step ten
 * times slower). Roughly 0.5 ns per element and pass on a 2020s x86 core. */
static inline void sk_relax(double *u, int n, const double *in, int m, int passes) {
  for (int p = 0; p < passes; p++)
    for (int b = 0; b < n; b += m)
      for (int j = 0; j < m; j++)
        u[b + j] = 0.5 * u[b + j] + 0.45 * in[j] + 0.05 * (double)(1 + ((b + j + p) & 7)) / 8.0;
}

/* Copies m values of u, starting at element `off` (wrapping at n), into out. */
static inline void sk_pack(double *out, int m, const double *u, int n, int off) {
  for (int j = 0; j < m; j++) out[j] = u[(off + j) % n];
}

/* The sum of squares of u[0..n): this rank's share of the residual norm. */
static inline double sk_sumsq(const double *u, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s += u[i] * u[i];
  return s;
}

#endif /* MPIRR_BENCH_EVENTS_SKELETON_H */
