/* gauss: solves a random dense system of 300 linear equations by Gaussian elimination with
 * partial pivoting (Table 1's "sys", which the paper describes as Gaussian elimination on 300
 * random equations: many short messages, a few races per column).
 *
 * The rows of [A | b] are dealt cyclically over all ranks. Per column k each rank picks its
 * active row with the largest |a[i][k]| and the candidates are combined up a binomial tree to
 * rank 0: a rank takes its children's candidates with MPI_Recv(MPI_ANY_SOURCE) as they come and
 * forwards the best (largest |value|, ties: lowest row, so the choice does not depend on the
 * order) with the row itself. Rank 0 then sends the pivot row down the same tree (every rank
 * receives it from its parent by name) and every rank eliminates column k from its active rows.
 * Rows are not moved. Rank 0 keeps the pivot rows and solves the triangular system at the end.
 * 2(p-1) messages per column; with 4 ranks, 3 of them are wildcard receives (rank 0 from ranks
 * 1 and 2, rank 2 from rank 3) of which one races (the second at rank 0).
 *
 * Verification: after the timed phase rank 0 checks every solution against the exact one
 * (A x = b was built from a known x) and the scaled residual |Ax - b| / (|A||x| + |b|)
 * (infinity norms), and fails on an error above 1e-8 or a residual above 1e-13.
 *
 * One iteration = one system. argv[1]: systems (default: Open MPI 80, MPICH 1), argv[2]: n
 * (default: Open MPI 300, MPICH 100). Needs 1+ ranks. */
#include "table1.h"

/* Defaults: 0.3-1.5 s natively at 4 ranks on a 2-core machine. MPICH (ch4:ucx) ranks do not yield
 * the core while they wait in a blocking call: with 4 ranks on 2 cores each message of a chain
 * of dependent messages then costs a scheduler time slice (~1 ms), hence far smaller defaults. One
 * system of 300 equations takes 3-6 s there, so MPICH solves 100 equations by default. */
#ifdef OPEN_MPI
#define DEFAULT_SYSTEMS 80L
#define DEFAULT_N 300L
#else
#define DEFAULT_SYSTEMS 1L
#define DEFAULT_N 100L
#endif

enum { TAG_CAND = 1, TAG_PIVOT = 2 };

static double elem(long rep, long n, long i, long j) {
  return t1_rand((uint32_t)(0x6a55u + 2 * rep), (uint32_t)(i * n + j));
}
static double xtrue(long rep, long i) { return 1.0 + t1_rand((uint32_t)(0x6a56u + 2 * rep), (uint32_t)i); }

/* Row i of [A | b] for system rep (b = A x_true). */
static void make_row(double *r, long rep, long n, long i) {
  double b = 0.0;
  for (long j = 0; j < n; j++) {
    r[j] = elem(rep, n, i, j);
    b += r[j] * xtrue(rep, j);
  }
  r[n] = b;
}

/* Is candidate c ([|value|, global row, ...]) better than cur? A total order on rows. */
static int better(const double *c, const double *cur) {
  return c[0] > cur[0] || (c[0] == cur[0] && c[1] >= 0 && (cur[1] < 0 || c[1] < cur[1]));
}

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 1);
  const long systems = t1_arg(argc, argv, 1, DEFAULT_SYSTEMS);
  const long n = t1_arg(argc, argv, 2, DEFAULT_N);
  const long w = n + 1; /* row length of [A | b] */
  const long nloc = (n - rank + size - 1) / size;
  double *a = t1_alloc(sizeof(double) * (size_t)(nloc * w));
  char *used = t1_alloc((size_t)nloc);
  double *cand = t1_alloc(sizeof(double) * (size_t)(w + 2)), *in = t1_alloc(sizeof(double) * (size_t)(w + 2));
  double *u = rank == 0 ? t1_alloc(sizeof(double) * (size_t)(n * w)) : NULL; /* pivot rows */
  double *x = rank == 0 ? t1_alloc(sizeof(double) * (size_t)(n * systems)) : NULL;
  int parent = -1, nchildren = 0, lowbit = 1;
  t1_t t = {{0, 0}, 0};

  /* binomial tree rooted at 0: the parent of r is r minus its lowest set bit, its children are
   * r + m for the powers of two m below that bit */
  while (lowbit < size && !(rank & lowbit)) {
    if (rank + lowbit < size) nchildren++;
    lowbit <<= 1;
  }
  if (rank != 0) parent = rank - lowbit;

  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (long rep = 0; rep < systems; rep++) {
    for (long l = 0; l < nloc; l++) {
      used[l] = 0;
      make_row(a + l * w, rep, n, l * size + rank);
    }
    for (long k = 0; k < n; k++) {
      const int len = (int)(w - k + 2); /* [|value|, global row, row from column k] */
      long best = -1;
      double bv = -1.0;
      for (long l = 0; l < nloc; l++)
        if (!used[l] && fabs(a[l * w + k]) > bv) bv = fabs(a[l * w + k]), best = l;
      cand[0] = bv;
      cand[1] = best < 0 ? -1.0 : (double)(best * size + rank);
      if (best >= 0) memcpy(cand + 2, a + best * w + k, sizeof(double) * (size_t)(w - k));
      for (int c = 0; c < nchildren; c++) { /* children's candidates, first come first served */
        MPI_Status st;
        t1_recv(&t, in, len, MPI_DOUBLE, MPI_ANY_SOURCE, TAG_CAND, &st);
        if (better(in, cand)) memcpy(cand, in, sizeof(double) * (size_t)len);
      }
      /* the pivot message is cand + 1: [global row, row from column k] */
      if (rank != 0) {
        MPI_Status st;
        t1_send(&t, cand, len, MPI_DOUBLE, parent, TAG_CAND);
        t1_recv(&t, cand + 1, len - 1, MPI_DOUBLE, parent, TAG_PIVOT, &st);
      } else if (cand[1] < 0 || cand[0] == 0.0) {
        fail("gauss: system %ld is singular at column %ld", rep, k);
      }
      for (int m = lowbit >> 1; m >= 1; m >>= 1)
        if (rank + m < size) t1_send(&t, cand + 1, len - 1, MPI_DOUBLE, rank + m, TAG_PIVOT);
      const long prow = (long)cand[1];
      const double *piv = cand + 2; /* piv[j - k] = pivot row, column j >= k */
      if (prow % size == rank) used[prow / size] = 1;
      if (rank == 0) memcpy(u + k * w + k, piv, sizeof(double) * (size_t)(w - k));
      for (long l = 0; l < nloc; l++) {
        if (used[l]) continue;
        double *r = a + l * w;
        const double m = r[k] / piv[0];
        for (long j = k + 1; j < w; j++) r[j] -= m * piv[j - k];
      }
    }
    if (rank == 0) { /* back substitution */
      double *xs = x + rep * n;
      for (long k = n - 1; k >= 0; k--) {
        const double *r = u + k * w;
        double s = r[n];
        for (long j = k + 1; j < n; j++) s -= r[j] * xs[j];
        xs[k] = s / r[k];
      }
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const double seconds = MPI_Wtime() - t0;

  if (rank == 0) {
    double *r = t1_alloc(sizeof(double) * (size_t)w);
    for (long rep = 0; rep < systems; rep++) {
      const double *xs = x + rep * n;
      double err = 0.0, res = 0.0, anorm = 0.0, xnorm = 0.0, bnorm = 0.0;
      for (long i = 0; i < n; i++) {
        double ax = 0.0, rowsum = 0.0;
        make_row(r, rep, n, i);
        for (long j = 0; j < n; j++) ax += r[j] * xs[j], rowsum += fabs(r[j]);
        res = fmax(res, fabs(ax - r[n]));
        anorm = fmax(anorm, rowsum);
        bnorm = fmax(bnorm, fabs(r[n]));
        xnorm = fmax(xnorm, fabs(xs[i]));
        err = fmax(err, fabs(xs[i] - xtrue(rep, i)));
      }
      const double scaled = res / (anorm * xnorm + bnorm);
      if (!(err <= 1e-8) || !(scaled <= 1e-13))
        fail("gauss: system %ld: error %.3g, scaled residual %.3g", rep, err, scaled);
    }
    free(r);
  }
  t1_report("gauss", systems, seconds, &t);
  free(a);
  free(used);
  free(cand);
  free(in);
  free(u);
  free(x);
  MPI_Finalize();
  return 0;
}
