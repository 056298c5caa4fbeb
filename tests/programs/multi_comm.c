/* multi_comm: wildcard receives on several communicators with the same tag.
 * Nondeterminism: the MPI_ANY_SOURCE match order on MPI_COMM_WORLD, on an MPI_Comm_dup of it
 * and on an even/odd MPI_Comm_split, interleaved. Every message carries the id of the
 * communicator it was sent on, and the receiver checks it: matching must respect communicators
 * even though source ranks and tags coincide.
 * Each round has a root (rotating over world ranks); every other rank sends it MSGS messages on
 * world and on the dup, and, if it has the root's parity, MSGS on the split comm, in an order
 * that differs per rank. The root cycles through the communicators with MPI_Recv(ANY_SOURCE,
 * TAG) and digests a separate order per communicator. argv[1]: rounds (default 3 * ranks). */
#include "common.h"

enum { TAG = 7, MSGS = 4, NCOMM = 3 };

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 2);
  const int rounds = arg_rounds(argc, argv, 3 * size);
  MPI_Comm comms[NCOMM];
  comms[0] = MPI_COMM_WORLD;
  MPI_Comm_dup(MPI_COMM_WORLD, &comms[1]);
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &comms[2]);
  int split_size;
  MPI_Comm_size(comms[2], &split_size);
  digest_t per_comm[NCOMM];
  for (int c = 0; c < NCOMM; c++) digest_init(&per_comm[c]);

  for (int round = 0; round < rounds; round++) {
    const int root = round % size;
    const int same_parity = (rank % 2) == (root % 2);
    if (rank != root) {
      for (int k = 0; k < MSGS; k++) {
        for (int j = 0; j < NCOMM; j++) {
          const int c = (j + rank + k) % NCOMM;
          if (c == 2 && !same_parity) continue;
          const int dest = c == 2 ? root / 2 : root; /* split: key = world rank, so rank / 2 */
          int msg[4] = {c, rank, round, k};
          (void)busy_work(mix32((uint32_t)(round * 16 + k * 4 + j), (uint32_t)rank) % 60000);
          MPI_Send(msg, 4, MPI_INT, dest, TAG, comms[c]);
        }
      }
      continue;
    }
    int left[NCOMM];
    left[0] = left[1] = MSGS * (size - 1);
    left[2] = MSGS * (split_size - 1);
    for (int step = 0; left[0] + left[1] + left[2] > 0; step++) {
      const int c = step % NCOMM;
      if (left[c] == 0) continue;
      int msg[4];
      MPI_Status st;
      MPI_Recv(msg, 4, MPI_INT, MPI_ANY_SOURCE, TAG, comms[c], &st);
      const int world_src = c == 2 ? 2 * st.MPI_SOURCE + root % 2 : st.MPI_SOURCE;
      if (msg[0] != c || msg[1] != world_src || msg[2] != round)
        fail("comm %d round %d: message (%d,%d,%d,%d) from %d", c, round, msg[0], msg[1], msg[2], msg[3], st.MPI_SOURCE);
      digest_int(&per_comm[c], st.MPI_SOURCE);
      digest_int(&per_comm[c], msg[3]);
      left[c]--;
    }
  }

  MPI_Comm_free(&comms[1]);
  MPI_Comm_free(&comms[2]);
  digest_t d;
  digest_init(&d);
  for (int c = 0; c < NCOMM; c++) digest_u64(&d, per_comm[c].h);
  return digest_finish(&d);
}
