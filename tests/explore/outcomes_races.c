/* outcomes_races: the test program of `mpirr races --outcomes` (tests/explore/outcomes.sh):
 * 3 ranks, two racing wildcard receives on rank 0, one harmful and one benign.
 *   outcomes_races [LINGER_S]   (on 3 ranks)
 * Harmful: rank 1 sends to rank 0 and then a token to rank 2, which waits 5 ms and sends too;
 * rank 0 prints the order it got them in. The token and the pause make the native order
 * "order 1 2" nearly always, yet rank 2's send does not happen after rank 0's receive (the
 * token is a receive between the senders), so the race analysis lists it: forced, the program
 * prints the other order. Benign: after a barrier, ranks 1 and 2 each send a result (10, 20);
 * rank 0 takes both with MPI_ANY_SOURCE and prints their sum: whichever comes first, "sum 30".
 * The harmful race comes first on purpose: a flipped run replays what happened before the
 * forced receive and runs free after it, so forcing the sum's receive replays the order as
 * recorded, and the benign verdict never depends on timing. Both rounds' second receive has a
 * single candidate left.
 * LINGER_S: every rank sleeps that long before MPI_Finalize, after rank 0 printed (and
 * flushed) its lines: a run to interrupt once its output is there. */
#include "../programs/common.h" /* first: it sets _POSIX_C_SOURCE (nanosleep) */

#include <time.h>

enum { TAG_RESULT = 1, TAG_ORDER = 2, TAG_TOKEN = 3, STAGGER_MS = 5 };

/* a sleep, not a clock read: nothing the replay would have to reproduce */
static void pause_ms(long ms)
{
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&ts, &ts) != 0)
    ;
}

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 3);
  if (size != 3) fail("outcomes_races runs on 3 ranks, not %d", size);
  if (rank == 0) {
    int first, second;
    MPI_Recv(&first, 1, MPI_INT, MPI_ANY_SOURCE, TAG_ORDER, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&second, 1, MPI_INT, MPI_ANY_SOURCE, TAG_ORDER, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("order %d %d\n", first, second);
  } else if (rank == 1) {
    MPI_Send(&rank, 1, MPI_INT, 0, TAG_ORDER, MPI_COMM_WORLD);
    MPI_Send(&rank, 1, MPI_INT, 2, TAG_TOKEN, MPI_COMM_WORLD);
  } else {
    int token;
    MPI_Recv(&token, 1, MPI_INT, 1, TAG_TOKEN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    pause_ms(STAGGER_MS);
    MPI_Send(&rank, 1, MPI_INT, 0, TAG_ORDER, MPI_COMM_WORLD);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  int v;
  if (rank == 0) {
    int sum = 0;
    for (int i = 0; i < 2; i++) {
      MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      sum += v;
    }
    printf("sum %d\n", sum);
    fflush(stdout);
  } else {
    v = 10 * rank;
    MPI_Send(&v, 1, MPI_INT, 0, TAG_RESULT, MPI_COMM_WORLD);
  }
  if (argc > 1) pause_ms(1000L * atol(argv[1]));
  MPI_Finalize();
  return 0;
}
