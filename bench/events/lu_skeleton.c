/* lu_skeleton: the communication skeleton of NAS LU (the SSOR solver of the NAS Parallel
 * Benchmarks, MPI version), one of the two programs of Table 1 of Hood & Matthews' p2d2 paper.
 *
 * P ranks form a q x q grid (q = sqrt(P), P must be a perfect square; rank = row * q + col,
 * rank 0 the north-west corner), no wrap-around: ranks on the edges have fewer neighbours and
 * skip the calls to the missing ones. One SSOR time step (NPB ssor.f):
 *  - lower-triangular sweep (jacld/blts): for each of the PLANES k-planes, in increasing k:
 *    blocking MPI_Recv of a 1 KiB pencil from north, then from west; computation; MPI_Send to
 *    south, then to east (NPB exchange_1). A wavefront from the north-west corner;
 *  - upper-triangular sweep (jacu/buts): the planes in decreasing k, MPI_Recv from south, then
 *    east; computation; MPI_Send to north, then west. The wavefront back from the south-east;
 *  - boundary-face exchange (rhs's exchange_3): MPI_Irecv of an 8 KiB face from each existing
 *    neighbour, MPI_Isend to each, one MPI_Waitall; computation;
 *  - every NORM_EVERY steps, an MPI_Allreduce of the residual norm (l2norm).
 * Rank 0 (2 neighbours) makes 4 * PLANES + 5 MPI calls per step (37), plus the allreduce every
 * NORM_EVERY steps; interior ranks make 8 * PLANES + 9.
 *
 * argv[1]: time steps (default DEFAULT_ITERS). Prints the common bench line on rank 0:
 *   bench lu_skeleton ranks <p> iters <n> seconds <t> calls <c> nd_events 0
 * where seconds is the time-step loop (MPI_Wtime) and calls counts rank 0's MPI calls in it. */
#include "skeleton.h"

/* Defaults: 2-4 s natively with 16 ranks on a 2-core machine. Open MPI: 2500 time steps, the LU
 * run of the paper's Table 1. MPICH (ch4:ucx) ranks spin without yielding the core while they
 * wait, so with 16 ranks on 2 cores every dependent message costs a scheduler time slice (about
 * 0.25 s per time step), hence a far smaller default. */
#ifdef OPEN_MPI
#define DEFAULT_ITERS 2500L
#else
#define DEFAULT_ITERS 15L
#endif

enum {
  PLANES = 8,      /* k-planes per triangular sweep */
  PENCIL = 128,    /* doubles per wavefront message (1 KiB) */
  FACE = 1024,     /* doubles per exchange_3 face (8 KiB) */
  WORK = 1024,     /* doubles of state worked on per plane */
  LOCAL = PLANES * WORK,
  NORM_EVERY = 10, /* time steps between residual allreduces */
  TAG_LOWER = 10,  /* wavefront messages of the lower sweep */
  TAG_UPPER = 11,  /* ... and of the upper sweep */
  TAG_FACE = 20,   /* + the direction a face travels (DIR_N...) */
};

enum { DIR_N, DIR_S, DIR_W, DIR_E }; /* d ^ 1 is the opposite direction */

static double u[LOCAL];
static double pencil_in[PENCIL], pencil_out[PENCIL];
static double face_in[4][FACE], face_out[4][FACE];

/* One triangular sweep over the planes: receive from the two upstream neighbours, compute,
 * send to the two downstream ones (a missing neighbour is MPI_PROC_NULL and skipped). */
static void triangular_sweep(int up1, int up2, int down1, int down2, int lower, bench_counts_t *bc) {
  const int tag = lower ? TAG_LOWER : TAG_UPPER;
  for (int i = 0; i < PLANES; i++) {
    const int k = lower ? i : PLANES - 1 - i;
    double *plane = u + k * WORK;
    const int up[2] = {up1, up2}, down[2] = {down1, down2};
    for (int n = 0; n < 2; n++) {
      if (up[n] == MPI_PROC_NULL) continue;
      BENCH_CALL(bc, MPI_Recv(pencil_in, PENCIL, MPI_DOUBLE, up[n], tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      sk_relax(plane, WORK, pencil_in, PENCIL, 1);
    }
    sk_relax(plane, WORK, plane + WORK - PENCIL, PENCIL, 1);
    for (int n = 0; n < 2; n++) {
      if (down[n] == MPI_PROC_NULL) continue;
      sk_pack(pencil_out, PENCIL, plane, WORK, n * PENCIL);
      BENCH_CALL(bc, MPI_Send(pencil_out, PENCIL, MPI_DOUBLE, down[n], tag, MPI_COMM_WORLD));
    }
  }
}

/* exchange_3: MPI_Irecv from and MPI_Isend to every existing neighbour, one MPI_Waitall. */
static void exchange_faces(const int nb[4], bench_counts_t *bc) {
  MPI_Request req[8];
  MPI_Status sts[8]; /* not MPI_STATUSES_IGNORE: gcc 12 flags it with MPICH's headers */
  int n = 0;
  for (int d = 0; d < 4; d++)
    if (nb[d] != MPI_PROC_NULL)
      BENCH_CALL(bc, MPI_Irecv(face_in[d], FACE, MPI_DOUBLE, nb[d], TAG_FACE + (d ^ 1), MPI_COMM_WORLD, &req[n++]));
  for (int d = 0; d < 4; d++)
    if (nb[d] != MPI_PROC_NULL) {
      sk_pack(face_out[d], FACE, u, LOCAL, d * FACE);
      BENCH_CALL(bc, MPI_Isend(face_out[d], FACE, MPI_DOUBLE, nb[d], TAG_FACE + d, MPI_COMM_WORLD, &req[n++]));
    }
  if (n > 0) BENCH_CALL(bc, MPI_Waitall(n, req, sts));
  for (int d = 0; d < 4; d++)
    if (nb[d] != MPI_PROC_NULL) sk_relax(u + d * (LOCAL / 4), LOCAL / 4, face_in[d], FACE, 1);
}

static void time_step(const int nb[4], long step, bench_counts_t *bc) {
  triangular_sweep(nb[DIR_N], nb[DIR_W], nb[DIR_S], nb[DIR_E], 1, bc); /* blts */
  triangular_sweep(nb[DIR_S], nb[DIR_E], nb[DIR_N], nb[DIR_W], 0, bc); /* buts */
  exchange_faces(nb, bc);                                             /* rhs: exchange_3 */
  if ((step + 1) % NORM_EVERY == 0) {
    double local = sk_sumsq(u, LOCAL), total = 0.0;
    BENCH_CALL(bc, MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
    if (!isfinite(total) || total <= 0.0) fail("residual norm %g at step %ld", total, step);
  }
}

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 1);
  const sk_grid_t g = sk_grid("lu_skeleton", rank, size);
  const long iters = sk_iters(argc, argv, DEFAULT_ITERS);
  const int nb[4] = {
      g.row > 0 ? rank - g.q : MPI_PROC_NULL,       /* north */
      g.row < g.q - 1 ? rank + g.q : MPI_PROC_NULL, /* south */
      g.col > 0 ? rank - 1 : MPI_PROC_NULL,         /* west */
      g.col < g.q - 1 ? rank + 1 : MPI_PROC_NULL,   /* east */
  };
  bench_counts_t warm = {0, 0}, bc = {0, 0};
  sk_fill(u, LOCAL, rank);

  time_step(nb, 0, &warm); /* warm-up (connections), not timed or counted */
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (long step = 0; step < iters; step++) time_step(nb, step, &bc);
  MPI_Barrier(MPI_COMM_WORLD);
  const double seconds = MPI_Wtime() - t0;
  bench_report("lu_skeleton", iters, seconds, &bc, NULL);
  MPI_Finalize();
  return 0;
}
