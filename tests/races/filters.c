/* filters: which messages can race with a wildcard receive: the same communicator, a tag the
 * receive accepts, another source; receives with a specific source are never logged.
 * Parts, each ended by an MPI_Barrier (ordering it before the next), rank 0 receiving,
 * ranks 1 and 2 sending concurrently (neither waits for anything from rank 0):
 *  1 tags:      Recv(ANY, tag 1) gets rank 1's tag-1 message, then Recv(ANY, tag 2) rank 2's
 *               tag-2 message: the first receive does not accept tag 2: 0.
 *  2 comms:     Recv(ANY, tag 1, world) then Recv(ANY, tag 1, a dup of world): 0.
 *  3 any tag:   Recv(ANY, ANY_TAG) twice, tags 5 and 6 from ranks 1 and 2: the first is
 *               logged whichever comes first: 1.
 *  4 specific:  Recv(1, ANY_TAG) and Recv(2, ANY_TAG), concurrent sends: 0.
 *  5 narrower:  Recv(ANY, tag 7) gets rank 1's tag-7 message, then Recv(ANY, ANY_TAG) rank 2's
 *               tag-8 message: the first does not accept tag 8: 0.
 *  6 one source: rank 1 sends 4 messages, Recv(ANY) x 4 (concurrent, but one channel, FIFO): 0.
 *  7 mixed:     rank 1 sends 2, rank 2 sends 1; rank 0 receives with Recv(ANY) x 2 and then
 *               Recv(source = whichever rank still owes a message): the logged receives are
 *               those of the two wildcard receives followed by a message from another source
 *               (count_block over all three sources; the last receive is specific, so it is
 *               never logged, and count_block never counts the last one): 1 or 2.
 * Expected: 1 + part 7's count. Needs 3 ranks. */
#include "races.h"

static void send1(int dest, int tag, int val, MPI_Comm comm) { MPI_Send(&val, 1, MPI_INT, dest, tag, comm); }

static int recv1(int src, int tag, MPI_Comm comm, int expect_src, int expect_tag, digest_t *d) {
  int v;
  MPI_Status st;
  MPI_Recv(&v, 1, MPI_INT, src, tag, comm, &st);
  if ((expect_src >= 0 && st.MPI_SOURCE != expect_src) || (expect_tag >= 0 && st.MPI_TAG != expect_tag) ||
      v != st.MPI_SOURCE * 1000 + st.MPI_TAG)
    fail("got %d from %d tag %d, expected source %d tag %d", v, st.MPI_SOURCE, st.MPI_TAG, expect_src, expect_tag);
  digest_status(d, &st, MPI_INT);
  return st.MPI_SOURCE;
}

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 3);
  digest_t d;
  digest_init(&d);
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  const MPI_Comm W = MPI_COMM_WORLD;
  const int me = rank * 1000;
  long racing = 0;

  /* 1 tags */
  if (rank == 1) send1(0, 1, me + 1, W);
  if (rank == 2) send1(0, 2, me + 2, W);
  if (rank == 0) {
    recv1(MPI_ANY_SOURCE, 1, W, 1, 1, &d);
    recv1(MPI_ANY_SOURCE, 2, W, 2, 2, &d);
  }
  MPI_Barrier(W);

  /* 2 comms */
  if (rank == 1) send1(0, 1, me + 1, W);
  if (rank == 2) send1(0, 1, me + 1, dup);
  if (rank == 0) {
    recv1(MPI_ANY_SOURCE, 1, W, 1, 1, &d);
    recv1(MPI_ANY_SOURCE, 1, dup, 2, 1, &d);
  }
  MPI_Barrier(W);

  /* 3 any tag */
  if (rank == 1) send1(0, 5, me + 5, W);
  if (rank == 2) send1(0, 6, me + 6, W);
  if (rank == 0) {
    const int a = recv1(MPI_ANY_SOURCE, MPI_ANY_TAG, W, -1, -1, &d);
    const int b = recv1(MPI_ANY_SOURCE, MPI_ANY_TAG, W, -1, -1, &d);
    if (a == b) fail("part 3: two messages from %d", a);
    racing += 1;
  }
  MPI_Barrier(W);

  /* 4 specific sources */
  if (rank == 1) send1(0, 3, me + 3, W);
  if (rank == 2) send1(0, 4, me + 4, W);
  if (rank == 0) {
    recv1(1, MPI_ANY_TAG, W, 1, 3, &d);
    recv1(2, MPI_ANY_TAG, W, 2, 4, &d);
  }
  MPI_Barrier(W);

  /* 5 narrower first */
  if (rank == 1) send1(0, 7, me + 7, W);
  if (rank == 2) send1(0, 8, me + 8, W);
  if (rank == 0) {
    recv1(MPI_ANY_SOURCE, 7, W, 1, 7, &d);
    recv1(MPI_ANY_SOURCE, MPI_ANY_TAG, W, 2, 8, &d);
  }
  MPI_Barrier(W);

  /* 6 one source */
  if (rank == 1)
    for (int k = 0; k < 4; k++) send1(0, 9, me + 9, W);
  if (rank == 0)
    for (int k = 0; k < 4; k++) recv1(MPI_ANY_SOURCE, 9, W, 1, 9, &d);
  MPI_Barrier(W);

  /* 7 mixed wildcard and specific */
  if (rank == 1) {
    send1(0, 10, me + 10, W);
    (void)busy_work(5000);
    send1(0, 10, me + 10, W);
  }
  if (rank == 2) {
    (void)busy_work(5000);
    send1(0, 10, me + 10, W);
  }
  if (rank == 0) {
    int src[3], owed[3] = {0, 2, 1};
    for (int k = 0; k < 2; k++) {
      src[k] = recv1(MPI_ANY_SOURCE, 10, W, -1, 10, &d);
      if (src[k] != 1 && src[k] != 2) fail("part 7: message from %d", src[k]);
      owed[src[k]]--;
    }
    src[2] = owed[1] == 1 ? 1 : 2;
    if (owed[src[2]] != 1) fail("part 7: owed %d %d", owed[1], owed[2]);
    recv1(src[2], 10, W, src[2], 10, &d);
    racing += count_block(src, 3);
  }
  MPI_Barrier(W);

  MPI_Comm_free(&dup);
  report_expected(racing);
  return digest_finish(&d);
}
