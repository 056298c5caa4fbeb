/* nm_fig3b: Netzer & Miller, Figure 3b: a frontier race, PrevRecv did not happen before Send.
 * Rank 1 sends PrevSend's message A to rank 0, then a note to rank 2; rank 2 receives the note
 * and only then sends Send's message B to rank 0. Rank 0 posts two MPI_Recv(MPI_ANY_SOURCE).
 * The sends are causally ordered (PrevSend -> note -> Send), but nothing orders rank 0's first
 * receive (PrevRecv) before Send: no message leaves rank 0 in between. So A and B could both be
 * in transit at once and either could be received first: the first receive is logged, the
 * second is not (nothing is received after it). Expected: 1, whatever the arrival order
 * (A nearly always arrives first; B overtaking A is allowed by MPI and counts the same).
 * Needs 3 ranks. */
#include "races.h"

enum { TAG = 7, TAG_NOTE = 8 };

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
  } else if (rank == 1) {
    int msg = 1001, note = 1;
    MPI_Send(&msg, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD);
    MPI_Send(&note, 1, MPI_INT, 2, TAG_NOTE, MPI_COMM_WORLD);
  } else if (rank == 2) {
    int msg = 1002, note;
    MPI_Recv(&note, 1, MPI_INT, 1, TAG_NOTE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&msg, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD);
  }
  report_expected(racing);
  return digest_finish(&d);
}
