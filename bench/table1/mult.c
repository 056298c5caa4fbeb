/* mult: product of two random 100x100 matrices (Table 1's "mult": few, long messages; static
 * distribution, no wildcards, no races).
 *
 * Rank 0 generates A and B (mix32), sends every worker all of B and its block of rows of A,
 * computes its own block, and receives each worker's block of C = A B by name (MPI_Recv(w)).
 * Row blocks are contiguous and balanced. 3(p-1) messages per product (9 at 4 ranks: 80 KB for
 * B, ~20 KB for each block of A or C).
 *
 * Verification: after the timed phase rank 0 recomputes the first and the last product
 * sequentially (same loop order, so the results must be bitwise equal) and fails on any
 * difference.
 *
 * One iteration = one product of fresh matrices. argv[1]: products (default: Open MPI 1000, MPICH
 * 20), argv[2]: n (100). Needs 1+ ranks. */
#include "table1.h"

/* Defaults: 0.3-1.5 s natively at 4 ranks on a 2-core machine. MPICH (ch4:ucx) ranks do not yield
 * the core while they wait in a blocking call: with 4 ranks on 2 cores each message of a chain of
 * dependent messages then costs a scheduler time slice (~1 ms), hence far smaller defaults. Every
 * message here (> 8 KB) also goes by rendezvous, several round trips each. */
#ifdef OPEN_MPI
#define DEFAULT_PRODUCTS 1000L
#else
#define DEFAULT_PRODUCTS 20L
#endif
#define DEFAULT_N 100L

enum { TAG_B = 1, TAG_A = 2, TAG_C = 3 };

static void make_matrices(double *a, double *b, long n, long rep) {
  for (long i = 0; i < n * n; i++) {
    a[i] = t1_rand((uint32_t)(0xa000u + 2 * rep), (uint32_t)i);
    b[i] = t1_rand((uint32_t)(0xa001u + 2 * rep), (uint32_t)i);
  }
}

/* c[0..rows-1][*] = a[0..rows-1][*] b */
static void multiply(const double *a, const double *b, double *c, long rows, long n) {
  for (long i = 0; i < rows; i++) {
    double *ci = c + i * n;
    for (long j = 0; j < n; j++) ci[j] = 0.0;
    for (long k = 0; k < n; k++) {
      const double aik = a[i * n + k];
      const double *bk = b + k * n;
      for (long j = 0; j < n; j++) ci[j] += aik * bk[j];
    }
  }
}

static long block_first(long n, int size, int r) { return n * r / size; }

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 1);
  const long products = t1_arg(argc, argv, 1, DEFAULT_PRODUCTS);
  const long n = t1_arg(argc, argv, 2, DEFAULT_N);
  const size_t nn = (size_t)(n * n);
  double *a = t1_alloc(sizeof(double) * nn), *b = t1_alloc(sizeof(double) * nn);
  double *c = t1_alloc(sizeof(double) * nn);
  double *first = rank == 0 ? t1_alloc(sizeof(double) * nn) : NULL; /* C of product 0 */
  const long lo = block_first(n, size, rank), rows = block_first(n, size, rank + 1) - lo;
  t1_t t = {{0, 0}, 0};

  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (long rep = 0; rep < products; rep++) {
    MPI_Status st;
    if (rank == 0) {
      make_matrices(a, b, n, rep);
      for (int w = 1; w < size; w++) {
        const long wlo = block_first(n, size, w), wrows = block_first(n, size, w + 1) - wlo;
        t1_send(&t, b, (int)nn, MPI_DOUBLE, w, TAG_B);
        t1_send(&t, a + wlo * n, (int)(wrows * n), MPI_DOUBLE, w, TAG_A);
      }
      multiply(a, b, c, rows, n);
      for (int w = 1; w < size; w++) {
        const long wlo = block_first(n, size, w), wrows = block_first(n, size, w + 1) - wlo;
        t1_recv(&t, c + wlo * n, (int)(wrows * n), MPI_DOUBLE, w, TAG_C, &st);
      }
      if (rep == 0) memcpy(first, c, sizeof(double) * nn);
    } else {
      t1_recv(&t, b, (int)nn, MPI_DOUBLE, 0, TAG_B, &st);
      t1_recv(&t, a, (int)(rows * n), MPI_DOUBLE, 0, TAG_A, &st);
      multiply(a, b, c, rows, n);
      t1_send(&t, c, (int)(rows * n), MPI_DOUBLE, 0, TAG_C);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const double seconds = MPI_Wtime() - t0;

  if (rank == 0) {
    double *want = t1_alloc(sizeof(double) * nn);
    const long check[2] = {0, products - 1};
    const double *got[2] = {first, c};
    for (int k = 0; k < 2; k++) {
      make_matrices(a, b, n, check[k]);
      multiply(a, b, want, n, n);
      for (size_t i = 0; i < nn; i++)
        if (want[i] != got[k][i])
          fail("mult: product %ld, C[%zu][%zu] = %.17g, sequential %.17g", check[k], i / (size_t)n, i % (size_t)n,
               got[k][i], want[i]);
    }
    free(want);
  }
  t1_report("mult", products, seconds, &t);
  free(a);
  free(b);
  free(c);
  free(first);
  MPI_Finalize();
  return 0;
}
