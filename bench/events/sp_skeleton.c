/* sp_skeleton: the communication skeleton of NAS SP (the scalar penta-diagonal ADI solver of the
 * NAS Parallel Benchmarks, MPI version), one of the two programs of Table 1 of Hood & Matthews'
 * p2d2 paper, whose section 2.2 describes exactly this pattern: per time step
 *   neighbor-exchange; X-sweep; Y-sweep; Z-sweep.
 *
 * P ranks form a q x q grid (q = sqrt(P), P must be a perfect square), decomposed the SP way
 * ("multipartition"): every rank owns one cell in each of the q slabs along every direction, so
 * all ranks are busy at every stage of a sweep and pass their boundary data to one fixed
 * successor per direction, around a ring (NPB make_set.f):
 *   X: successor (row, col+1), predecessor (row, col-1)        [rings along the grid rows]
 *   Y: successor (row+1, col), predecessor (row-1, col)        [rings along the grid columns]
 *   Z: successor (row+1, col-1), predecessor (row-1, col+1)    [rings along the anti-diagonals,
 *      as NPB SP's successor(3)/predecessor(3); all indices modulo q]
 *
 * One time step:
 *  - neighbour exchange (SP's copy_faces, in the 2-D grid): MPI_Irecv from the 4 torus
 *    neighbours N S W E, MPI_Isend of a 4 KiB face to each, one MPI_Waitall of the 8 requests;
 *    then some computation;
 *  - X-, Y- and Z-sweep, each a forward pass (elimination) over the q cells towards the
 *    successor, then a backward pass (back substitution) towards the predecessor. Per cell c:
 *      c > 0:     MPI_Irecv (2 KiB) from the upstream rank, MPI_Wait for it;
 *      computation;
 *      c > 0:     MPI_Wait for the send of cell c-1;
 *      c < q-1:   MPI_Isend (2 KiB) to the downstream rank.
 *    The send is waited for one cell later (as NPB x_solve.f does with its Waitall of the
 *    receive and the previous send), after this rank's own receive has completed: every rank of
 *    a ring sends at the same stage, so waiting for the send at once would deadlock as soon as
 *    a message is above the MPI's eager limit;
 *  - every NORM_EVERY steps, an MPI_Allreduce of the residual (sum of squares of the state).
 * Rank 0 makes 4 * 2 + 1 + 3 * 2 * 4 * (q - 1) MPI calls per step (81 for 16 ranks), plus the
 * allreduce every NORM_EVERY steps.
 *
 * argv[1]: time steps (default DEFAULT_ITERS). Prints the common bench line on rank 0:
 *   bench sp_skeleton ranks <p> iters <n> seconds <t> calls <c> nd_events 0
 * where seconds is the time-step loop (MPI_Wtime) and calls counts rank 0's MPI calls in it. */
#include "skeleton.h"

/* Defaults: 2-4 s natively with 16 ranks on a 2-core machine. Open MPI: 4000 time steps, the SP
 * run of the paper's Table 1. MPICH (ch4:ucx) ranks spin without yielding the core while they
 * wait, so with 16 ranks on 2 cores every dependent message costs a scheduler time slice (about
 * 0.3 s per time step), hence a far smaller default. */
#ifdef OPEN_MPI
#define DEFAULT_ITERS 4000L
#else
#define DEFAULT_ITERS 10L
#endif

enum {
  FACE = 512,      /* doubles per neighbour-exchange face (4 KiB) */
  CELL = 256,      /* doubles per sweep message (2 KiB) */
  WORK = 2048,     /* doubles of state worked on per cell */
  LOCAL = 4 * WORK, /* doubles of state */
  NORM_EVERY = 10, /* time steps between residual allreduces */
  TAG_FACE = 100,  /* + the direction a face travels (DIR_N...) */
  TAG_SWEEP = 200, /* + 2 * dimension + pass (0 forward, 1 backward) */
};

enum { DIR_N, DIR_S, DIR_W, DIR_E }; /* d ^ 1 is the opposite direction */

static double u[LOCAL];
static double face_in[4][FACE], face_out[4][FACE];
static double cell_in[CELL], cell_out[CELL];

/* MPI_Irecv from, MPI_Isend to the 4 torus neighbours; MPI_Waitall. A face travelling in
 * direction d arrives from the neighbour in direction d ^ 1, so tags also tell N from S (and W
 * from E) when q = 2 makes them the same rank. */
static void neighbour_exchange(const sk_grid_t *g, bench_counts_t *bc) {
  const int nb[4] = {sk_at(g, g->row - 1, g->col), sk_at(g, g->row + 1, g->col), sk_at(g, g->row, g->col - 1),
                     sk_at(g, g->row, g->col + 1)};
  MPI_Request req[8];
  MPI_Status sts[8]; /* not MPI_STATUSES_IGNORE: gcc 12 flags it with MPICH's headers */
  for (int d = 0; d < 4; d++)
    BENCH_CALL(bc, MPI_Irecv(face_in[d], FACE, MPI_DOUBLE, nb[d], TAG_FACE + (d ^ 1), MPI_COMM_WORLD, &req[d]));
  for (int d = 0; d < 4; d++) {
    sk_pack(face_out[d], FACE, u, LOCAL, d * FACE);
    BENCH_CALL(bc, MPI_Isend(face_out[d], FACE, MPI_DOUBLE, nb[d], TAG_FACE + d, MPI_COMM_WORLD, &req[4 + d]));
  }
  BENCH_CALL(bc, MPI_Waitall(8, req, sts));
  for (int d = 0; d < 4; d++) sk_relax(u + d * (LOCAL / 4), LOCAL / 4, face_in[d], FACE, 1);
}

/* One pipelined pass over the q cells: data flows from `up` to `down`. */
static void pass(const sk_grid_t *g, int up, int down, int tag, bench_counts_t *bc) {
  MPI_Request rreq = MPI_REQUEST_NULL, sreq = MPI_REQUEST_NULL;
  for (int c = 0; c < g->q; c++) {
    double *cell = u + (c % 4) * WORK;
    if (c > 0) {
      BENCH_CALL(bc, MPI_Irecv(cell_in, CELL, MPI_DOUBLE, up, tag, MPI_COMM_WORLD, &rreq));
      BENCH_CALL(bc, MPI_Wait(&rreq, MPI_STATUS_IGNORE));
      sk_relax(cell, WORK, cell_in, CELL, 1);
    } else {
      sk_relax(cell, WORK, cell + WORK - CELL, CELL, 1);
    }
    if (c > 0) BENCH_CALL(bc, MPI_Wait(&sreq, MPI_STATUS_IGNORE)); /* cell_out is free again */
    if (c < g->q - 1) {
      sk_pack(cell_out, CELL, cell, WORK, WORK - CELL);
      BENCH_CALL(bc, MPI_Isend(cell_out, CELL, MPI_DOUBLE, down, tag, MPI_COMM_WORLD, &sreq));
    }
  }
}

/* A sweep along one dimension: forward (elimination) then backward (back substitution). */
static void sweep(const sk_grid_t *g, int dim, int pred, int succ, bench_counts_t *bc) {
  pass(g, pred, succ, TAG_SWEEP + 2 * dim, bc);
  pass(g, succ, pred, TAG_SWEEP + 2 * dim + 1, bc);
}

static void time_step(const sk_grid_t *g, long step, bench_counts_t *bc) {
  neighbour_exchange(g, bc);
  sweep(g, 0, sk_at(g, g->row, g->col - 1), sk_at(g, g->row, g->col + 1), bc);         /* X: grid rows */
  sweep(g, 1, sk_at(g, g->row - 1, g->col), sk_at(g, g->row + 1, g->col), bc);         /* Y: grid columns */
  sweep(g, 2, sk_at(g, g->row - 1, g->col + 1), sk_at(g, g->row + 1, g->col - 1), bc); /* Z: anti-diagonals */
  if ((step + 1) % NORM_EVERY == 0) {
    double local = sk_sumsq(u, LOCAL), total = 0.0;
    BENCH_CALL(bc, MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
    if (!isfinite(total) || total <= 0.0) fail("residual %g at step %ld", total, step);
  }
}

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 1);
  const sk_grid_t g = sk_grid("sp_skeleton", rank, size);
  const long iters = sk_iters(argc, argv, DEFAULT_ITERS);
  bench_counts_t warm = {0, 0}, bc = {0, 0};
  sk_fill(u, LOCAL, rank);

  time_step(&g, 0, &warm); /* warm-up (connections), not timed or counted */
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (long step = 0; step < iters; step++) time_step(&g, step, &bc);
  MPI_Barrier(MPI_COMM_WORLD);
  const double seconds = MPI_Wtime() - t0;
  bench_report("sp_skeleton", iters, seconds, &bc, NULL);
  MPI_Finalize();
  return 0;
}
