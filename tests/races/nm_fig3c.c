/* nm_fig3c: Netzer & Miller, Figure 3c: no race, PrevRecv happened before Send through a chain.
 * Rank 1 sends A to rank 0, whose first MPI_Recv(MPI_ANY_SOURCE) (PrevRecv) must get it (no
 * other message to rank 0 exists yet). Rank 0 then sends a token to rank 1, rank 1 forwards it
 * to rank 2, and only then rank 2 sends B (Send), received by rank 0's second
 * MPI_Recv(MPI_ANY_SOURCE). PrevRecv -> token -> forward -> Send: A and B can never be in
 * transit together, so neither receive is logged. The token receives on ranks 1 and 2 are
 * wildcard receives too, each with a single possible message: not logged either.
 * Expected: 0. Needs 3 ranks. */
#include "races.h"

enum { TAG = 7, TAG_TOKEN = 8 };

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 3);
  digest_t d;
  digest_init(&d);
  MPI_Status st;
  int msg, token = 42;

  if (rank == 0) {
    MPI_Recv(&msg, 1, MPI_INT, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &st);
    if (st.MPI_SOURCE != 1 || msg != 1001) fail("first receive: %d from %d, expected A from 1", msg, st.MPI_SOURCE);
    digest_status(&d, &st, MPI_INT);
    MPI_Send(&token, 1, MPI_INT, 1, TAG_TOKEN, MPI_COMM_WORLD);
    MPI_Recv(&msg, 1, MPI_INT, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &st);
    if (st.MPI_SOURCE != 2 || msg != 1002) fail("second receive: %d from %d, expected B from 2", msg, st.MPI_SOURCE);
    digest_status(&d, &st, MPI_INT);
  } else if (rank == 1) {
    msg = 1001;
    MPI_Send(&msg, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD);
    MPI_Recv(&token, 1, MPI_INT, MPI_ANY_SOURCE, TAG_TOKEN, MPI_COMM_WORLD, &st);
    if (st.MPI_SOURCE != 0 || token != 42) fail("token %d from %d", token, st.MPI_SOURCE);
    MPI_Send(&token, 1, MPI_INT, 2, TAG_TOKEN, MPI_COMM_WORLD);
  } else if (rank == 2) {
    MPI_Recv(&token, 1, MPI_INT, MPI_ANY_SOURCE, TAG_TOKEN, MPI_COMM_WORLD, &st);
    if (st.MPI_SOURCE != 1 || token != 42) fail("token %d from %d", token, st.MPI_SOURCE);
    msg = 1002;
    MPI_Send(&msg, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD);
  }
  report_expected(0);
  return digest_finish(&d);
}
