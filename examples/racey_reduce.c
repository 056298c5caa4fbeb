/* racey_reduce: a small nondeterministic MPI program for the mpirr README demo.
 * Nondeterminism: rank 0 receives the workers' partial sums with MPI_ANY_SOURCE and adds them
 * in arrival order. Floating-point addition is not associative, so the printed total changes in
 * its last digits from run to run, along with the arrival order; under `mpirr replay` both come
 * out exactly as recorded.
 * The program computes pi with the Leibniz series 4 - 4/3 + 4/5 - ... . Its terms are dealt
 * round-robin to (ranks - 1) * PARTS slices; every worker (rank > 0) sums PARTS slices and sends
 * each slice sum to rank 0. Output (rank 0 only):
 *   arrival order: <source rank of each partial sum, in order>
 *   sum = <total, %.17g> */
#include <mpi.h>
#include <stdio.h>

enum { PARTS = 4, TAG_PARTIAL = 1 };
#define TERMS 2000000L

/* Sum of the series terms k = slice, slice + nslices, slice + 2 * nslices, ... */
static double slice_sum(int slice, int nslices) {
  double s = 0.0;
  for (long k = slice; k < TERMS; k += nslices) s += (k % 2 == 0 ? 4.0 : -4.0) / (double)(2 * k + 1);
  return s;
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) {
    fprintf(stderr, "racey_reduce needs at least 2 ranks\n");
    MPI_Finalize();
    return 2;
  }
  const int nslices = (size - 1) * PARTS;

  if (rank > 0) {
    for (int part = 0; part < PARTS; part++) {
      double s = slice_sum((rank - 1) * PARTS + part, nslices);
      MPI_Send(&s, 1, MPI_DOUBLE, 0, TAG_PARTIAL, MPI_COMM_WORLD);
    }
  } else {
    double total = 0.0;
    printf("arrival order:");
    for (int i = 0; i < nslices; i++) {
      double s;
      MPI_Status status;
      MPI_Recv(&s, 1, MPI_DOUBLE, MPI_ANY_SOURCE, TAG_PARTIAL, MPI_COMM_WORLD, &status);
      printf(" %d", status.MPI_SOURCE);
      total += s; /* the additions happen in arrival order */
    }
    printf("\nsum = %.17g\n", total);
  }
  MPI_Finalize();
  return 0;
}
