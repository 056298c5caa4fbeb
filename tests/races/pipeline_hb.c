/* pipeline_hb: an earlier wildcard receive happened before the send of the next message.
 * Each round, rank 0 receives with MPI_Recv(MPI_ANY_SOURCE) from rank 1, then sends a token
 * to rank 2, and only then rank 2 sends to rank 0 (again received with MPI_ANY_SOURCE); then
 * rank 0 sends to rank 3, which forwards to rank 2, which sends to rank 0 (a longer chain);
 * finally rank 0 sends "go" to rank 1, which starts the next round's message only after it.
 * Every rank receives with MPI_ANY_SOURCE. At every receive, the only message in transit to
 * that rank is the one it gets, and every message received later was sent after this receive
 * completed (a chain of messages leads from it to that send).
 * Race rule: nothing is logged, although rank 0's receives alternate between sources.
 * Expected: 0. argv[1]: rounds (default 6). Needs 4 ranks. */
#include "races.h"

enum { TAG = 9 };

static int recv_from(int expect_src, int expect_val, digest_t *d) {
  int v;
  MPI_Status st;
  MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &st);
  if (st.MPI_SOURCE != expect_src || v != expect_val)
    fail("got %d from %d, expected %d from %d", v, st.MPI_SOURCE, expect_val, expect_src);
  digest_status(d, &st, MPI_INT);
  return v;
}

static void send_to(int dest, int v) { MPI_Send(&v, 1, MPI_INT, dest, TAG, MPI_COMM_WORLD); }

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 4);
  const int rounds = arg_rounds(argc, argv, 6);
  digest_t d;
  digest_init(&d);

  for (int r = 0; r < rounds; r++) {
    const int base = r * 10;
    switch (rank) {
    case 0:
      recv_from(1, base + 1, &d);
      send_to(2, base + 2);
      recv_from(2, base + 3, &d);
      send_to(3, base + 4);
      recv_from(2, base + 6, &d);
      send_to(1, base + 7); /* go */
      break;
    case 1:
      if (r > 0) recv_from(0, base - 10 + 7, &d);
      send_to(0, base + 1);
      break;
    case 2:
      recv_from(0, base + 2, &d);
      send_to(0, base + 3);
      recv_from(3, base + 5, &d);
      send_to(0, base + 6);
      break;
    case 3:
      recv_from(0, base + 4, &d);
      send_to(2, base + 5);
      break;
    }
  }
  if (rank == 1) recv_from(0, (rounds - 1) * 10 + 7, &d); /* the last go */
  report_expected(0);
  return digest_finish(&d);
}
