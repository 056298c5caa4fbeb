/* iprobe_poll: receiving by polling MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG).
 * Nondeterminism: how many probes fail before a message is there (an observed outcome that
 * also steers control flow), and which (source, tag) the successful probe reports.
 * Each round has a root (rotating); every other rank sends it MSGS messages with tags
 * 1..3 or TAG_SIDE, with uneven work in between. The root polls MPI_Iprobe(ANY, ANY), counting
 * failures; after every 10th failure it also probes MPI_Iprobe(ANY_SOURCE, TAG_SIDE) and, on
 * success, receives that side message at once. A found message is received with
 * MPI_Recv(status.MPI_SOURCE, status.MPI_TAG). Failure counts, probe results and payloads are
 * all digested. argv[1]: number of rounds (default 3 * ranks). */
#include "common.h"

enum { MSGS = 6, TAG_SIDE = 9, SIDE_EVERY = 10 };

static int msg_tag(int sender, int round, int seq) {
  return (seq + sender + round) % 4 == 0 ? TAG_SIDE : 1 + (seq + round) % 3;
}

/* Receives the message a probe reported and checks it against its envelope. */
static void take(digest_t *d, const MPI_Status *probed, int round) {
  int msg[3];
  MPI_Status st;
  MPI_Recv(msg, 3, MPI_INT, probed->MPI_SOURCE, probed->MPI_TAG, MPI_COMM_WORLD, &st);
  if (st.MPI_SOURCE != probed->MPI_SOURCE || st.MPI_TAG != probed->MPI_TAG)
    fail("probe said (%d,%d), receive got (%d,%d)", probed->MPI_SOURCE, probed->MPI_TAG,
         st.MPI_SOURCE, st.MPI_TAG);
  if (msg[0] != st.MPI_SOURCE || msg[1] != round || st.MPI_TAG != msg_tag(msg[0], round, msg[2]))
    fail("round %d: payload (%d,%d,%d) with tag %d", round, msg[0], msg[1], msg[2], st.MPI_TAG);
  digest_status(d, &st, MPI_INT);
  digest_int(d, msg[2]);
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
        (void)busy_work(mix32((uint32_t)(round * MSGS + seq), (uint32_t)rank) % 60000);
        int msg[3] = {rank, round, seq};
        MPI_Send(msg, 3, MPI_INT, root, msg_tag(rank, round, seq), MPI_COMM_WORLD);
      }
      continue;
    }
    const int total = MSGS * (size - 1);
    int got = 0;
    while (got < total) {
      int fails = 0, flag = 0;
      MPI_Status st;
      for (;;) {
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        if (flag) break;
        fails++;
        poll_pause();
        if (fails % SIDE_EVERY == 0) {
          int side = 0;
          MPI_Status sst;
          MPI_Iprobe(MPI_ANY_SOURCE, TAG_SIDE, MPI_COMM_WORLD, &side, &sst);
          digest_int(&d, side);
          if (side) {
            digest_mark(&d, 1);
            take(&d, &sst, round);
            if (++got == total) break;
          }
        }
      }
      digest_int(&d, fails);
      if (!flag) break; /* the side path took the last message */
      digest_mark(&d, 2);
      take(&d, &st, round);
      got++;
    }
  }
  return digest_finish(&d);
}
