/* icoll_test: polling nonblocking collectives.
 * Nondeterminism: how many MPI_Test / MPI_Testall calls fail before an MPI_Ibarrier or
 * MPI_Iallreduce completes (ranks arrive after uneven busy work), and the order in which
 * MPI_Testany reports a mix of an MPI_Ibcast request and point-to-point requests (one of them a
 * wildcard MPI_Irecv).
 * Part A, per round: busy work of a length depending on (round, rank); MPI_Ibarrier polled with
 * MPI_Test; then two MPI_Iallreduce (sum and max) polled together with MPI_Testall.
 * Part B, per round: MPI_Ibcast from a rotating root, MPI_Irecv from the left neighbour,
 * MPI_Irecv(ANY_SOURCE), MPI_Isend to the right neighbour and to a round-dependent peer; all
 * five completed with MPI_Testany. argv[1]: number of rounds of each part (default 12). */
#include "common.h"

enum { TAG_LEFT = 41, TAG_ANY = 42, NB = 5 };

static uint32_t uneven(int round, int rank) { return mix32((uint32_t)round, (uint32_t)rank) % 150000; }

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 2);
  const int rounds = arg_rounds(argc, argv, 12);
  digest_t d;
  digest_init(&d);

  /* ---- part A: Ibarrier + Test, Iallreduce x2 + Testall ---- */
  for (int round = 0; round < rounds; round++) {
    (void)busy_work(uneven(round, rank));
    MPI_Request req;
    int flag = 0, fails = 0;
    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    for (;;) {
      MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
      if (flag) break;
      fails++;
      poll_pause();
    }
    digest_mark(&d, 1);
    digest_int(&d, fails);

    (void)busy_work(uneven(round + 1000, rank));
    int in[2] = {rank + round, (rank * 7 + round) % size}, sum[2], mx[2];
    MPI_Request reqs[2];
    MPI_Status sts[2]; /* not MPI_STATUSES_IGNORE: gcc 12 flags it with MPICH's headers */
    MPI_Iallreduce(in, sum, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[0]);
    MPI_Iallreduce(in, mx, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &reqs[1]);
    fails = 0;
    for (;;) {
      MPI_Testall(2, reqs, &flag, sts);
      if (flag) break;
      fails++;
      poll_pause();
    }
    if (sum[0] != size * (size - 1) / 2 + size * round || mx[0] != size - 1 + round)
      fail("Iallreduce gave sum %d max %d", sum[0], mx[0]);
    digest_mark(&d, 2);
    digest_int(&d, fails);
    digest_ints(&d, sum, 2);
    digest_ints(&d, mx, 2);
  }

  /* ---- part B: Testany over Ibcast + point-to-point ---- */
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  for (int round = 0; round < rounds; round++) {
    const int root = round % size;
    const int shift = 1 + round % (size - 1);
    const int peer = (rank + shift) % size;
    int bc[4] = {0, 0, 0, 0};
    if (rank == root)
      for (int i = 0; i < 4; i++) bc[i] = round * 10 + i;
    int from_left[2], from_any[2];
    int to_right[2] = {rank, round}, to_peer[2] = {rank, round};
    MPI_Request reqs[NB];
    (void)busy_work(uneven(round + 2000, rank) / 2);
    MPI_Ibcast(bc, 4, MPI_INT, root, MPI_COMM_WORLD, &reqs[0]);
    MPI_Irecv(from_left, 2, MPI_INT, left, TAG_LEFT, MPI_COMM_WORLD, &reqs[1]);
    MPI_Irecv(from_any, 2, MPI_INT, MPI_ANY_SOURCE, TAG_ANY, MPI_COMM_WORLD, &reqs[2]);
    (void)busy_work(uneven(round + 3000, rank) / 2);
    MPI_Isend(to_right, 2, MPI_INT, right, TAG_LEFT, MPI_COMM_WORLD, &reqs[3]);
    MPI_Isend(to_peer, 2, MPI_INT, peer, TAG_ANY, MPI_COMM_WORLD, &reqs[4]);
    int done = 0, fails = 0;
    digest_mark(&d, 3);
    while (done < NB) {
      int index, flag;
      MPI_Status st;
      MPI_Testany(NB, reqs, &index, &flag, &st);
      if (!flag) {
        fails++;
        poll_pause();
        continue;
      }
      if (index == MPI_UNDEFINED) fail("Testany: no active request with %d open", NB - done);
      digest_int(&d, fails);
      digest_int(&d, index);
      if (index == 2) digest_int(&d, st.MPI_SOURCE);
      fails = 0;
      done++;
    }
    for (int i = 0; i < 4; i++)
      if (bc[i] != round * 10 + i) fail("Ibcast payload");
    /* the wildcard receive may get a message of a neighbouring round from a rank running ahead */
    if (from_left[0] != left || from_left[1] != round) fail("left message (%d,%d)", from_left[0], from_left[1]);
    if (from_any[1] < 0 || from_any[1] >= rounds ||
        (from_any[0] + 1 + from_any[1] % (size - 1)) % size != rank)
      fail("wildcard message (%d,%d)", from_any[0], from_any[1]);
    digest_ints(&d, from_any, 2);
  }
  return digest_finish(&d);
}
