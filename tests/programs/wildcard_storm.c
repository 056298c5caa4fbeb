/* wildcard_storm: the PDT "receive benchmark" as a test program.
 * Nondeterminism: the arrival order of racing messages at MPI_Recv(MPI_ANY_SOURCE).
 * For each round and each rank j in turn, rank j receives p-1 messages with
 * MPI_Recv(MPI_ANY_SOURCE) while every other rank MPI_Sends one message to j; the payload
 * carries (sender, round, per-sender counter). The receiver digests the matched order.
 * argv[1]: number of rounds (default 160 / ranks, at least 10). */
#include "common.h"

enum { TAG_STORM = 11 };

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 2);
  const int rounds = arg_rounds(argc, argv, size <= 16 ? 160 / size : 10);
  digest_t d;
  digest_init(&d);
  int counter = 0;

  for (int round = 0; round < rounds; round++) {
    for (int j = 0; j < size; j++) {
      if (rank == j) {
        for (int k = 0; k < size - 1; k++) {
          int msg[3];
          MPI_Status st;
          MPI_Recv(msg, 3, MPI_INT, MPI_ANY_SOURCE, TAG_STORM, MPI_COMM_WORLD, &st);
          /* sender s sends to each other rank once per round, in rank order */
          const int s = st.MPI_SOURCE;
          const int expect = round * (size - 1) + (rank < s ? rank : rank - 1);
          if (msg[0] != s || msg[1] != round || msg[2] != expect)
            fail("round %d: got (%d,%d,%d) from %d, expected counter %d", round, msg[0], msg[1],
                 msg[2], s, expect);
          digest_int(&d, st.MPI_SOURCE);
          digest_int(&d, msg[2]);
        }
      } else {
        /* a little uneven work so that the senders keep overtaking each other */
        (void)busy_work(mix32((uint32_t)round, (uint32_t)(rank * size + j)) % 3000);
        int msg[3] = {rank, round, counter++};
        MPI_Send(msg, 3, MPI_INT, j, TAG_STORM, MPI_COMM_WORLD);
      }
    }
  }
  return digest_finish(&d);
}
