/* nm_fig5a: Netzer & Miller, Figure 5a: transitive races, three mutually racing messages.
 * Ranks 1, 2 and 3 each send one message to rank 0, which posts three
 * MPI_Recv(MPI_ANY_SOURCE). All three sends are concurrent with all three receives, so every
 * pair of messages races. Race rule: the first and the second receive are each followed by a
 * message from another source whose send did not happen after them: logged; the third is
 * followed by nothing: not logged. Expected: 2 (the optimal trace, two messages of three),
 * whatever the arrival order. Needs 4 ranks. */
#include "races.h"

enum { TAG = 7 };

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 4);
  digest_t d;
  digest_init(&d);
  long racing = 0;

  if (rank == 0) {
    int src[3];
    for (int k = 0; k < 3; k++) {
      int msg;
      MPI_Status st;
      MPI_Recv(&msg, 1, MPI_INT, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &st);
      if (msg != 1000 + st.MPI_SOURCE) fail("receive %d: payload %d from %d", k, msg, st.MPI_SOURCE);
      for (int j = 0; j < k; j++)
        if (src[j] == st.MPI_SOURCE) fail("two messages from rank %d", src[j]);
      src[k] = st.MPI_SOURCE;
      digest_status(&d, &st, MPI_INT);
    }
    racing = count_block(src, 3); /* 2 */
  } else if (rank <= 3) {
    int msg = 1000 + rank;
    MPI_Send(&msg, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD);
  }
  report_expected(racing);
  return digest_finish(&d);
}
