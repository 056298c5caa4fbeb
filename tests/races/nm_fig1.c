/* nm_fig1: Netzer & Miller, Figure 1: one race, one message traced.
 * P1 and P3 (ranks 1 and 2) each send one message to P2 (rank 0), which posts two
 * MPI_Recv(MPI_ANY_SOURCE). Nothing orders the two sends, so either message can come first.
 * Race rule: the first receive got a message from one sender; the second receive then gets the
 * other sender's message, whose send did not happen after the first receive completed, so the
 * first receive is logged. The second receive is followed by no other message: not logged.
 * Expected: 1, whatever the arrival order. Needs 3 ranks (more ranks only idle). */
#include "races.h"

enum { TAG = 7 };

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 3);
  digest_t d;
  digest_init(&d);
  long racing = 0;

  if (rank == 0) {
    int src[2];
    for (int k = 0; k < 2; k++) {
      int msg;
      MPI_Status st;
      MPI_Recv(&msg, 1, MPI_INT, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &st);
      if (msg != 1000 + st.MPI_SOURCE) fail("receive %d: payload %d from %d", k, msg, st.MPI_SOURCE);
      src[k] = st.MPI_SOURCE;
      digest_status(&d, &st, MPI_INT);
    }
    if (src[0] == src[1]) fail("two messages from rank %d", src[0]);
    racing = count_block(src, 2); /* 1 */
  } else if (rank <= 2) {
    int msg = 1000 + rank;
    MPI_Send(&msg, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD);
  }
  report_expected(racing);
  return digest_finish(&d);
}
