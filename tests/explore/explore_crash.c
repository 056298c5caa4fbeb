/* explore_crash: a crash behind a message order native runs never take, for mpirr explore.
 * Each round (argv[1], default 2), after a barrier, sender k (ranks 1..3) waits k*STAGGER_MS
 * and sends one message to rank 0, which receives them with MPI_ANY_SOURCE: natively the
 * order is 1 2 3, every time. Rank 0 prints each round's order; if a round's order is fully
 * reversed (3 2 1: two receives forced away from their native message) it writes through a
 * NULL pointer (SIGSEGV). Otherwise it prints its digest. argv[2] == "safe": no crash (the
 * same races, for an exploration that finds nothing). */
#include "../programs/common.h" /* first: it sets _POSIX_C_SOURCE (nanosleep) */

#include <string.h>
#include <time.h>

enum { TAG_ORDER = 5, STAGGER_MS = 15, SENDERS = 3 };

static void stagger(int k)
{
  /* a sleep, not a clock read: nothing the replay would have to reproduce */
  struct timespec ts = {0, (long)k * STAGGER_MS * 1000000L};
  while (nanosleep(&ts, &ts) != 0)
    ;
}

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, SENDERS + 1);
  const int rounds = arg_rounds(argc, argv, 2);
  const int safe = argc > 2 && strcmp(argv[2], "safe") == 0;
  digest_t d;
  digest_init(&d);
  for (int round = 0; round < rounds; round++) {
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank >= 1 && rank <= SENDERS) {
      stagger(rank);
      MPI_Send(&rank, 1, MPI_INT, 0, TAG_ORDER, MPI_COMM_WORLD);
      continue;
    }
    if (rank != 0) continue;
    int order[SENDERS];
    printf("round %d order", round);
    for (int k = 0; k < SENDERS; k++) {
      MPI_Status st;
      MPI_Recv(&order[k], 1, MPI_INT, MPI_ANY_SOURCE, TAG_ORDER, MPI_COMM_WORLD, &st);
      if (order[k] != st.MPI_SOURCE) fail("payload %d from %d", order[k], st.MPI_SOURCE);
      printf(" %d", order[k]);
      digest_int(&d, order[k]);
    }
    printf("\n");
    fflush(stdout);
    if (!safe && order[0] == 3 && order[1] == 2 && order[2] == 1) {
      volatile int *volatile null_ptr = NULL;
      *null_ptr = 42; /* the bug: only the reversed order reaches it */
    }
  }
  return digest_finish(&d);
}
