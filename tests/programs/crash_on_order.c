/* crash_on_order: a crash that depends on message arrival order.
 * Nondeterminism: the order in which p-1 racing messages reach MPI_Recv(MPI_ANY_SOURCE), which
 * decides whether rank 0 crashes.
 * Right after an MPI_Barrier every other rank sends one message to rank 0, which receives them
 * with MPI_ANY_SOURCE and prints `order a b c ...` (flushed). If the first message came from
 * rank 1, rank 0 dereferences a NULL pointer (SIGSEGV); otherwise it prints its digest as usual.
 * So stdout is the order line and then, in the runs that do not crash, the digest line. */
#include "common.h"

enum { TAG_ORDER = 3 };

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 2);
  digest_t d;
  digest_init(&d);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank != 0) {
    MPI_Send(&rank, 1, MPI_INT, 0, TAG_ORDER, MPI_COMM_WORLD);
    return digest_finish(&d);
  }
  int first = -1;
  printf("order");
  for (int k = 0; k < size - 1; k++) {
    int who;
    MPI_Status st;
    MPI_Recv(&who, 1, MPI_INT, MPI_ANY_SOURCE, TAG_ORDER, MPI_COMM_WORLD, &st);
    if (who != st.MPI_SOURCE) fail("payload %d from %d", who, st.MPI_SOURCE);
    if (k == 0) first = who;
    printf(" %d", who);
    digest_int(&d, who);
  }
  printf("\n");
  fflush(stdout);
  if (first == 1) {
    volatile int *volatile null_ptr = NULL;
    *null_ptr = 42; /* the bug: crashes when rank 1 won the race */
  }
  return digest_finish(&d);
}
