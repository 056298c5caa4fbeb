/* matched_probe: matched probes with a wildcard source.
 * Nondeterminism: which message MPI_Mprobe / MPI_Improbe(MPI_ANY_SOURCE) matches (source, tag,
 * size), and how many MPI_Improbe calls fail before one succeeds.
 * Each round has a root (rotating); every other rank sends it MSGS messages whose sizes vary
 * from a few ints to past the eager limits (up to 6000 ints). The root alternates between
 * MPI_Mprobe + MPI_Get_count + malloc + MPI_Mrecv, and polling MPI_Improbe (counting failures)
 * + MPI_Imrecv + MPI_Wait. It digests the probe status (source, tag, MPI_Get_count), the
 * failure counts and a checksum of each payload. argv[1]: number of rounds (default 3 * ranks). */
#include "common.h"

enum { MSGS = 6 };

static int msg_len(int sender, int round, int seq) {
  const uint32_t h = mix32((uint32_t)(round * MSGS + seq), (uint32_t)sender);
  return h % 5 == 0 ? 1000 + (int)(h % 5000) : 3 + (int)(h % 60);
}
static int msg_tag(int seq) { return 30 + seq % 3; }

static void check_and_digest(digest_t *d, const int *buf, int count, const MPI_Status *probe, int round) {
  const int s = probe->MPI_SOURCE, seq = buf[2];
  if (count < 3 || buf[0] != s || buf[1] != round || count != msg_len(s, round, seq) || probe->MPI_TAG != msg_tag(seq))
    fail("round %d: message (%d,%d,%d) count %d tag %d from %d", round, buf[0], buf[1], seq, count, probe->MPI_TAG, s);
  uint64_t sum = 0;
  for (int i = 3; i < count; i++) {
    if (buf[i] != s * 7 + seq * 13 + i) fail("payload corrupted at %d", i);
    sum += (uint64_t)buf[i];
  }
  digest_int(d, seq);
  digest_u64(d, sum);
}

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 2);
  const int rounds = arg_rounds(argc, argv, 3 * size);
  digest_t d;
  digest_init(&d);

  for (int round = 0; round < rounds; round++) {
    const int root = round % size;
    if (rank != root) {
      for (int seq = 0; seq < MSGS; seq++) {
        const int len = msg_len(rank, round, seq);
        int *buf = malloc(sizeof(int) * (size_t)len);
        if (!buf) fail("out of memory");
        buf[0] = rank;
        buf[1] = round;
        buf[2] = seq;
        for (int i = 3; i < len; i++) buf[i] = rank * 7 + seq * 13 + i;
        (void)busy_work(mix32((uint32_t)seq, (uint32_t)(round * size + rank)) % 40000);
        MPI_Send(buf, len, MPI_INT, root, msg_tag(seq), MPI_COMM_WORLD);
        free(buf);
      }
      continue;
    }
    for (int m = 0; m < MSGS * (size - 1); m++) {
      MPI_Message msg;
      MPI_Status pst, st;
      if (m % 2 == 0) {
        MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &msg, &pst);
        digest_mark(&d, 1);
      } else {
        int flag = 0, fails = 0;
        for (;;) {
          MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &pst);
          if (flag) break;
          fails++;
          poll_pause();
        }
        digest_mark(&d, 2);
        digest_int(&d, fails);
      }
      const int count = digest_status(&d, &pst, MPI_INT);
      int *buf = malloc(sizeof(int) * (size_t)count);
      if (!buf) fail("out of memory");
      if (m % 2 == 1) {
        MPI_Request req;
        MPI_Imrecv(buf, count, MPI_INT, &msg, &req);
        MPI_Wait(&req, &st);
      } else {
        MPI_Mrecv(buf, count, MPI_INT, &msg, &st);
      }
      if (msg != MPI_MESSAGE_NULL) fail("message handle not consumed");
      if (st.MPI_SOURCE != pst.MPI_SOURCE || st.MPI_TAG != pst.MPI_TAG || status_count(&st, MPI_INT) != count)
        fail("matched receive disagrees with its probe");
      check_and_digest(&d, buf, count, &pst, round);
      free(buf);
    }
  }
  return digest_finish(&d);
}
