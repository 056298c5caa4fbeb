/* explore_rounds: the benchmark family of mpirr explore's search (bench/explore/
 * explore_family.sh) and its tests: P ranks (-np), R rounds, and a bug that needs K
 * coordinated wildcard choices in one round, in any round.
 *   explore_rounds R K SEED [STAGGER_MS] [safe]
 * A round is S = ceil(K / (P-2)) steps. In a step, after a barrier, sender s (ranks 1..P-1)
 * waits for a token from sender s-1 (none for sender 1), waits STAGGER_MS (default 5),
 * sends one message to rank 0 and passes the token on; rank 0 takes the P-1 messages with
 * MPI_ANY_SOURCE. Each message is sent after the one before it and a pause, so natively the
 * order is 1 2 3 ..., every time, even with a sender held up by a loaded machine; yet none
 * of the sends happens after rank 0's receives (the token is a specific receive between
 * senders), so the race analysis lists every sender left as a candidate of every receive.
 * SEED picks the bug's senders for the first K receives of a round that have a choice (the
 * first P-2 of each step), each one not the lowest sender left in its step: each of the K
 * receives must be forced away from the message it would take, and only then does rank 0
 * write through a NULL pointer (SIGSEGV). Rank 0 prints the target and every step's order. "safe": no crash. */
#include "../programs/common.h" /* first: it sets _POSIX_C_SOURCE (nanosleep) */

#include <string.h>
#include <time.h>

enum { TAG_ROUND = 9, TAG_TOKEN = 10, MAX_K = 16, MAX_SENDERS = 64 };

static void stagger(long ms)
{
  /* a sleep, not a clock read: nothing the replay would have to reproduce */
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&ts, &ts) != 0)
    ;
}

/* The bug's senders for the K receives with a choice, step by step. */
static void pick_target(unsigned seed, int senders, int k, int *target)
{
  int left[MAX_SENDERS + 1];
  for (int i = 0; i < k; i++) {
    if (i % (senders - 1) == 0) /* a new step: every sender sends again */
      for (int s = 1; s <= senders; s++) left[s] = 1;
    int lowest = 1;
    while (!left[lowest]) lowest++;
    int options[MAX_SENDERS], n = 0;
    for (int s = lowest + 1; s <= senders; s++)
      if (left[s]) options[n++] = s;
    seed = seed * 1103515245u + 12345u;
    target[i] = options[(seed >> 16) % (unsigned)n];
    left[target[i]] = 0;
  }
}

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 3);
  if (argc < 4) fail("usage: explore_rounds R K SEED [STAGGER_MS] [safe]");
  const int rounds = atoi(argv[1]), k = atoi(argv[2]);
  const unsigned seed = (unsigned)strtoul(argv[3], NULL, 10);
  const long stagger_ms = argc > 4 ? atol(argv[4]) : 5;
  const int safe = argc > 5 && strcmp(argv[5], "safe") == 0;
  const int senders = size - 1;
  if (rounds < 1 || k < 1 || k > MAX_K || senders > MAX_SENDERS)
    fail("bad R %d or K %d for %d ranks", rounds, k, size);
  const int steps = (k + senders - 2) / (senders - 1);
  int target[MAX_K];
  pick_target(seed, senders, k, target);
  digest_t d;
  digest_init(&d);
  if (rank == 0) {
    printf("target");
    for (int i = 0; i < k; i++) printf(" %d", target[i]);
    printf("\n");
  }
  for (int round = 0; round < rounds; round++) {
    int hit = 1, chosen = 0; /* receives with a choice so far in this round */
    for (int step = 0; step < steps; step++) {
      MPI_Barrier(MPI_COMM_WORLD);
      if (rank > 0) {
        int token = 0;
        if (rank > 1)
          MPI_Recv(&token, 1, MPI_INT, rank - 1, TAG_TOKEN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        stagger(stagger_ms);
        MPI_Send(&rank, 1, MPI_INT, 0, TAG_ROUND, MPI_COMM_WORLD);
        if (rank < senders)
          MPI_Send(&token, 1, MPI_INT, rank + 1, TAG_TOKEN, MPI_COMM_WORLD);
        continue;
      }
      printf("round %d step %d order", round, step);
      for (int i = 0; i < senders; i++) {
        int from;
        MPI_Status st;
        MPI_Recv(&from, 1, MPI_INT, MPI_ANY_SOURCE, TAG_ROUND, MPI_COMM_WORLD, &st);
        if (from != st.MPI_SOURCE) fail("payload %d from %d", from, st.MPI_SOURCE);
        if (i < senders - 1 && chosen < k && from != target[chosen++]) hit = 0;
        printf(" %d", from);
        digest_int(&d, from);
      }
      printf("\n");
      fflush(stdout);
    }
    if (rank == 0 && hit && !safe) {
      volatile int *volatile null_ptr = NULL;
      *null_ptr = 42; /* the bug: only the target order reaches it */
    }
  }
  return digest_finish(&d);
}
