/* det: determinant of a random 100x100 matrix by Gaussian elimination with partial pivoting,
 * rows dealt cyclically over all ranks (Table 1's "det": many short messages, few races).
 *
 * Per column k every worker (ranks 1..p-1) sends the master (rank 0) its pivot candidate: its
 * active row with the largest |a[i][k]| (value, global row index, the row from column k on). The
 * master receives them rank by rank (named sources), picks the largest (ties: lowest row), and
 * sends the pivot row to every worker; all ranks eliminate column k from their active rows.
 * Rows are not moved: the pivot order is a permutation whose sign the master tracks. When the
 * elimination ends each worker returns the product of the pivots of its own rows, which the
 * master takes first come first served with MPI_Recv(MPI_ANY_SOURCE) and multiplies in rank order
 * (so the result does not depend on the arrival order). 2(p-1) messages per column and p-1
 * results per determinant: ~600 per determinant at 4 ranks, of which only the p-1 results are
 * wildcard receives (p-2 of them race).
 *
 * Verification: after the timed phase rank 0 recomputes every determinant sequentially (same
 * pivoting) and fails if one differs by more than 1e-10 relative.
 *
 * One iteration = one determinant of a fresh matrix. argv[1]: determinants (default: Open MPI 600,
 * MPICH 1), argv[2]: n (100). Needs 2+ ranks. */
#include "table1.h"

/* Defaults: 0.3-1.5 s natively at 4 ranks on a 2-core machine. MPICH (ch4:ucx) ranks do not yield
 * the core while they wait in a blocking call: with 4 ranks on 2 cores each message of a chain
 * of dependent messages then costs a scheduler time slice (~1 ms), hence far smaller defaults. */
#ifdef OPEN_MPI
#define DEFAULT_DETS 600L
#else
#define DEFAULT_DETS 1L
#endif
#define DEFAULT_N 100L

enum { TAG_CAND = 1, TAG_PIVOT = 2, TAG_RESULT = 3 };

static double elem(long rep, long n, long i, long j) {
  return t1_rand((uint32_t)(0xde7u + rep), (uint32_t)(i * n + j));
}

/* Sign of the permutation perm[0..n-1]: (-1)^(n - number of cycles). */
static int perm_sign(const long *perm, long n) {
  char *seen = t1_alloc((size_t)n);
  long cycles = 0;
  for (long i = 0; i < n; i++) {
    if (seen[i]) continue;
    cycles++;
    for (long j = i; !seen[j]; j = perm[j]) seen[j] = 1;
  }
  free(seen);
  return ((n - cycles) % 2) ? -1 : 1;
}

/* Sequential determinant, same pivot choice and arithmetic as the parallel one. */
static double det_seq(long rep, long n) {
  double *a = t1_alloc(sizeof(double) * (size_t)(n * n));
  char *used = t1_alloc((size_t)n);
  long *perm = t1_alloc(sizeof(long) * (size_t)n);
  double prod = 1.0;
  for (long i = 0; i < n * n; i++) a[i] = elem(rep, n, i / n, i % n);
  for (long k = 0; k < n; k++) {
    long best = -1;
    double bv = -1.0;
    for (long i = 0; i < n; i++)
      if (!used[i] && fabs(a[i * n + k]) > bv) bv = fabs(a[i * n + k]), best = i;
    used[best] = 1;
    perm[k] = best;
    const double *piv = a + best * n;
    prod *= piv[k];
    for (long i = 0; i < n; i++) {
      if (used[i]) continue;
      double *r = a + i * n;
      const double m = r[k] / piv[k];
      for (long j = k + 1; j < n; j++) r[j] -= m * piv[j];
    }
  }
  const double d = perm_sign(perm, n) * prod;
  free(a);
  free(used);
  free(perm);
  return d;
}

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 2);
  const long dets = t1_arg(argc, argv, 1, DEFAULT_DETS);
  const long n = t1_arg(argc, argv, 2, DEFAULT_N);
  const long nloc = (n - rank + size - 1) / size; /* rows rank, rank+p, ... */
  double *a = t1_alloc(sizeof(double) * (size_t)(nloc * n));
  char *used = t1_alloc((size_t)nloc);
  double *msg = t1_alloc(sizeof(double) * (size_t)(n + 2)); /* candidate/pivot message */
  double *cand = t1_alloc(sizeof(double) * (size_t)(n + 2));
  long *perm = t1_alloc(sizeof(long) * (size_t)n);
  double *dets_out = rank == 0 ? t1_alloc(sizeof(double) * (size_t)dets) : NULL;
  double *partial = t1_alloc(sizeof(double) * (size_t)size);
  t1_t t = {{0, 0}, 0};

  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (long rep = 0; rep < dets; rep++) {
    for (long l = 0; l < nloc; l++) {
      used[l] = 0;
      for (long j = 0; j < n; j++) a[l * n + j] = elem(rep, n, l * size + rank, j);
    }
    double myprod = 1.0;
    for (long k = 0; k < n; k++) {
      const int len = (int)(n - k + 2);
      /* local candidate: [|value|, global row, row from column k] (-1, -1 if no active row) */
      long best = -1;
      double bv = -1.0;
      for (long l = 0; l < nloc; l++)
        if (!used[l] && fabs(a[l * n + k]) > bv) bv = fabs(a[l * n + k]), best = l;
      msg[0] = bv;
      msg[1] = best < 0 ? -1.0 : (double)(best * size + rank);
      if (best >= 0) memcpy(msg + 2, a + best * n + k, sizeof(double) * (size_t)(n - k));
      if (rank != 0) {
        MPI_Status st;
        t1_send(&t, msg, len, MPI_DOUBLE, 0, TAG_CAND);
        t1_recv(&t, msg, len - 1, MPI_DOUBLE, 0, TAG_PIVOT, &st);
      } else {
        for (int w = 1; w < size; w++) {
          MPI_Status st;
          t1_recv(&t, cand, len, MPI_DOUBLE, w, TAG_CAND, &st);
          if (cand[0] > msg[0] || (cand[0] == msg[0] && cand[1] >= 0 && cand[1] < msg[1]))
            memcpy(msg, cand, sizeof(double) * (size_t)len);
        }
        if (msg[1] < 0 || msg[0] == 0.0) fail("det: matrix %ld is singular at column %ld", rep, k);
        perm[k] = (long)msg[1];
        /* pivot message: [global row, row from column k] */
        memmove(msg, msg + 1, sizeof(double) * (size_t)(len - 1));
        for (int w = 1; w < size; w++) t1_send(&t, msg, len - 1, MPI_DOUBLE, w, TAG_PIVOT);
      }
      const long prow = (long)msg[0];
      const double *piv = msg + 1; /* piv[j - k] = pivot row, column j >= k */
      if (prow % size == rank) {
        used[prow / size] = 1;
        myprod *= piv[0];
      }
      for (long l = 0; l < nloc; l++) {
        if (used[l]) continue;
        double *r = a + l * n;
        const double m = r[k] / piv[0];
        for (long j = k + 1; j < n; j++) r[j] -= m * piv[j - k];
      }
    }
    if (rank != 0) {
      t1_send(&t, &myprod, 1, MPI_DOUBLE, 0, TAG_RESULT);
    } else {
      partial[0] = myprod;
      for (int w = 1; w < size; w++) {
        MPI_Status st;
        double v;
        t1_recv(&t, &v, 1, MPI_DOUBLE, MPI_ANY_SOURCE, TAG_RESULT, &st);
        partial[st.MPI_SOURCE] = v;
      }
      double d = perm_sign(perm, n);
      for (int r = 0; r < size; r++) d *= partial[r];
      dets_out[rep] = d;
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const double seconds = MPI_Wtime() - t0;

  if (rank == 0)
    for (long rep = 0; rep < dets; rep++) {
      const double want = det_seq(rep, n), got = dets_out[rep];
      if (!(fabs(got - want) <= 1e-10 * fabs(want)) || want == 0.0)
        fail("det: matrix %ld: parallel %.17g, sequential %.17g", rep, got, want);
    }
  t1_report("det", dets, seconds, &t);
  free(a);
  free(used);
  free(msg);
  free(cand);
  free(perm);
  free(dets_out);
  free(partial);
  MPI_Finalize();
  return 0;
}
