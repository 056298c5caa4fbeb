/* test_polling: completion by polling.
 * Nondeterminism: the number of unsuccessful MPI_Test / MPI_Testany / MPI_Testall /
 * MPI_Request_get_status calls before wildcard receives complete, and which sender (and, for
 * Testany, which index) each wildcard MPI_Irecv gets, with senders racing.
 * Each round has a root (rotating). The others send it one message on each of four tags, with
 * uneven work in between. The root (a) polls one MPI_Irecv(ANY_SOURCE, TAG_TEST) at a time with
 * MPI_Test, p-1 times; (b) posts p-1 MPI_Irecv(ANY_SOURCE, TAG_TESTANY) and polls MPI_Testany;
 * (c) posts p-1 MPI_Irecv(ANY_SOURCE, TAG_TESTALL) and polls MPI_Testall; (d) polls one
 * MPI_Irecv(ANY_SOURCE, TAG_STATUS) at a time with MPI_Request_get_status, then MPI_Wait frees
 * it. Failure counts, indices, sources are digested. argv[1]: rounds (default 3 * ranks). */
#include "common.h"

enum { TAG_TEST = 61, TAG_TESTANY = 62, TAG_TESTALL = 63, TAG_STATUS = 64 };

static void check(const int *msg, const MPI_Status *st, int round, int tag) {
  if (msg[0] != st->MPI_SOURCE || msg[1] != round || msg[2] != tag || st->MPI_TAG != tag)
    fail("tag %d round %d: message (%d,%d,%d) from %d", tag, round, msg[0], msg[1], msg[2], st->MPI_SOURCE);
}

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 2);
  const int rounds = arg_rounds(argc, argv, 3 * size);
  const int n = size - 1;
  digest_t d;
  digest_init(&d);
  int (*bufs)[3] = malloc(sizeof(int[3]) * (size_t)n);
  MPI_Request *reqs = malloc(sizeof(MPI_Request) * (size_t)n);
  MPI_Status *sts = malloc(sizeof(MPI_Status) * (size_t)n);
  if (!bufs || !reqs || !sts) fail("out of memory");
  const int tags[4] = {TAG_TEST, TAG_TESTANY, TAG_TESTALL, TAG_STATUS};

  for (int round = 0; round < rounds; round++) {
    const int root = round % size;
    if (rank != root) {
      for (int t = 0; t < 4; t++) {
        (void)busy_work(mix32((uint32_t)(round * 4 + t), (uint32_t)rank) % 80000);
        int msg[3] = {rank, round, tags[t]};
        MPI_Send(msg, 3, MPI_INT, root, tags[t], MPI_COMM_WORLD);
      }
      continue;
    }
    int flag, fails;
    MPI_Status st;

    /* (a) MPI_Test on one wildcard receive at a time */
    digest_mark(&d, 1);
    for (int k = 0; k < n; k++) {
      MPI_Irecv(bufs[0], 3, MPI_INT, MPI_ANY_SOURCE, TAG_TEST, MPI_COMM_WORLD, &reqs[0]);
      for (fails = 0;; fails++) {
        MPI_Test(&reqs[0], &flag, &st);
        if (flag) break;
        poll_pause();
      }
      check(bufs[0], &st, round, TAG_TEST);
      digest_int(&d, fails);
      digest_int(&d, st.MPI_SOURCE);
    }

    /* (b) MPI_Testany over p-1 wildcard receives */
    digest_mark(&d, 2);
    for (int i = 0; i < n; i++) MPI_Irecv(bufs[i], 3, MPI_INT, MPI_ANY_SOURCE, TAG_TESTANY, MPI_COMM_WORLD, &reqs[i]);
    for (int k = 0; k < n; k++) {
      int index;
      for (fails = 0;; fails++) {
        MPI_Testany(n, reqs, &index, &flag, &st);
        if (flag) break;
        poll_pause();
      }
      if (index == MPI_UNDEFINED) fail("Testany: nothing active");
      check(bufs[index], &st, round, TAG_TESTANY);
      digest_int(&d, fails);
      digest_int(&d, index);
      digest_int(&d, st.MPI_SOURCE);
    }

    /* (c) MPI_Testall over p-1 wildcard receives */
    digest_mark(&d, 3);
    for (int i = 0; i < n; i++) MPI_Irecv(bufs[i], 3, MPI_INT, MPI_ANY_SOURCE, TAG_TESTALL, MPI_COMM_WORLD, &reqs[i]);
    for (fails = 0;; fails++) {
      MPI_Testall(n, reqs, &flag, sts);
      if (flag) break;
      poll_pause();
    }
    digest_int(&d, fails);
    for (int i = 0; i < n; i++) {
      check(bufs[i], &sts[i], round, TAG_TESTALL);
      digest_int(&d, sts[i].MPI_SOURCE);
    }

    /* (d) MPI_Request_get_status on one wildcard receive at a time; MPI_Wait frees it */
    digest_mark(&d, 4);
    for (int k = 0; k < n; k++) {
      MPI_Irecv(bufs[0], 3, MPI_INT, MPI_ANY_SOURCE, TAG_STATUS, MPI_COMM_WORLD, &reqs[0]);
      MPI_Status peek;
      for (fails = 0;; fails++) {
        MPI_Request_get_status(reqs[0], &flag, &peek);
        if (flag) break;
        poll_pause();
      }
      MPI_Wait(&reqs[0], &st);
      if (peek.MPI_SOURCE != st.MPI_SOURCE) fail("get_status said %d, wait said %d", peek.MPI_SOURCE, st.MPI_SOURCE);
      check(bufs[0], &st, round, TAG_STATUS);
      digest_int(&d, fails);
      digest_int(&d, st.MPI_SOURCE);
    }
  }
  free(bufs);
  free(reqs);
  free(sts);
  return digest_finish(&d);
}
