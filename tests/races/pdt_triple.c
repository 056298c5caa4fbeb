/* pdt_triple: PDT (Clemencon et al.) Figures 1-2: the "receive benchmark", a triple race per
 * receiving turn. For each round and each rank j in turn, rank j posts p-1
 * MPI_Recv(MPI_ANY_SOURCE) while every other rank MPI_Sends it one message.
 *
 * Race rule, within one turn of rank j: the p-1 messages come from p-1 different senders and
 * rank j sends nothing during its turn, so no send of the turn happened after any receive of it:
 * every receive but the last is followed by a message from another source (count_block gives
 * p-2, i.e. 2 with 4 ranks: "MSG(0,1) and MSG(3,1), the first two messages received").
 * Across turns: every message rank j receives in round i+1 was sent after its sender had
 * received, in its own turn of round i+1 (k < j) or of round i (k > j), a message rank j sent
 * after its turn of round i; so the last receive of a turn never races with later messages.
 * Expected: rounds * p * (p-2) = 24 with 4 ranks and the default 3 rounds, whatever the
 * arrival orders. argv[1]: rounds (default 3). Needs 3 ranks or more (4 intended). */
#include "races.h"

enum { TAG = 11 };

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 3);
  const int rounds = arg_rounds(argc, argv, 3);
  digest_t d;
  digest_init(&d);
  long racing = 0;
  int *src = malloc(sizeof(int) * (size_t)size);
  int *seen = malloc(sizeof(int) * (size_t)size);
  if (!src || !seen) fail("out of memory");

  for (int round = 0; round < rounds; round++) {
    for (int j = 0; j < size; j++) {
      if (rank == j) {
        for (int s = 0; s < size; s++) seen[s] = 0;
        for (int k = 0; k < size - 1; k++) {
          int msg[2];
          MPI_Status st;
          MPI_Recv(msg, 2, MPI_INT, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &st);
          const int s = st.MPI_SOURCE;
          if (s == rank || s < 0 || s >= size || seen[s]++ || msg[0] != s || msg[1] != round)
            fail("round %d turn %d: (%d,%d) from %d", round, j, msg[0], msg[1], s);
          src[k] = s;
          digest_int(&d, s);
        }
        racing += count_block(src, size - 1); /* size - 2 */
      } else {
        int msg[2] = {rank, round};
        MPI_Send(msg, 2, MPI_INT, j, TAG, MPI_COMM_WORLD);
      }
    }
  }
  free(src);
  free(seen);
  report_expected(racing);
  return digest_finish(&d);
}
