/* scattered_comm: nm_fig1's race on a communicator whose members, in rank order, are world
 * ranks 3, 0, 2: not an arithmetic progression of world ranks, so races mode keeps its table
 * of world ranks (comm_registry.h), where MPI_COMM_WORLD, dups and block or odd/even splits
 * keep none. Comm rank 0 (world 3) posts two MPI_Recv(MPI_ANY_SOURCE); comm ranks 1 and 2
 * (world 0 and 2) each send it one message; world rank 1 is in no such communicator. Then the
 * same on MPI_COMM_WORLD's odd/even split's even half (world 0 and 2, a progression), with
 * world 2 receiving twice from world 0, which races with nothing (FIFO on one channel).
 * Expected: 1, whatever the arrival order. Needs 4 ranks. */
#include "races.h"

enum { TAG = 7 };

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 4);
  digest_t d;
  digest_init(&d);
  long racing = 0;
  static const int key[4] = {1, -1, 2, 0}; /* world rank -> comm rank */
  MPI_Comm scattered, half;
  MPI_Comm_split(MPI_COMM_WORLD, rank == 1 || rank > 3 ? MPI_UNDEFINED : 0, rank < 4 ? key[rank] : 0,
                 &scattered);
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  if (scattered != MPI_COMM_NULL) {
    int me;
    MPI_Comm_rank(scattered, &me);
    if (me != key[rank]) fail("world rank %d is comm rank %d, not %d", rank, me, key[rank]);
    if (me == 0) {
      int src[2];
      for (int k = 0; k < 2; k++) {
        int msg;
        MPI_Status st;
        MPI_Recv(&msg, 1, MPI_INT, MPI_ANY_SOURCE, TAG, scattered, &st);
        if (msg != 1000 + st.MPI_SOURCE) fail("receive %d: payload %d from %d", k, msg, st.MPI_SOURCE);
        src[k] = st.MPI_SOURCE;
        digest_status(&d, &st, MPI_INT);
      }
      if (src[0] == src[1]) fail("two messages from comm rank %d", src[0]);
      racing = count_block(src, 2); /* 1 */
    } else {
      int msg = 1000 + me;
      MPI_Send(&msg, 1, MPI_INT, 0, TAG, scattered);
    }
    MPI_Comm_free(&scattered);
  }
  if (rank % 2 == 0 && rank < 4) { /* the even half: world 0 -> world 2, twice */
    for (int k = 0; k < 2; k++) {
      int msg = k;
      MPI_Status st;
      if (rank == 0) {
        MPI_Send(&msg, 1, MPI_INT, 1, TAG, half);
      } else {
        MPI_Recv(&msg, 1, MPI_INT, MPI_ANY_SOURCE, TAG, half, &st);
        if (msg != k || st.MPI_SOURCE != 0) fail("half: message %d from %d", msg, st.MPI_SOURCE);
        digest_status(&d, &st, MPI_INT);
      }
    }
  }
  MPI_Comm_free(&half);
  report_expected(racing);
  return digest_finish(&d);
}
