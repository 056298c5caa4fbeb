/* any_tag: wildcard tags, with and without a wildcard source.
 * Nondeterminism: which (source, tag, length) a receive with MPI_ANY_SOURCE + MPI_ANY_TAG
 * matches, and, because those wildcard receives drain senders unevenly, which message a
 * receive with a fixed source + MPI_ANY_TAG gets next.
 * Each round has a root (rotating); every other rank sends it MSGS messages with several tags
 * and different lengths. The root mixes MPI_Recv(ANY_SOURCE, ANY_TAG) with
 * MPI_Recv(fixed source, ANY_TAG) and digests source, tag and MPI_Get_count of each.
 * argv[1]: number of rounds (default 3 * ranks). */
#include "common.h"

enum { MSGS = 8, MAXLEN = 24 };

static int msg_tag(int sender, int seq) { return 1 + (seq * 3 + sender + seq / 2) % 4; }
static int msg_len(int sender, int seq) { return 3 + (seq * 7 + sender * 5) % (MAXLEN - 3); }

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 2);
  const int rounds = arg_rounds(argc, argv, 3 * size);
  digest_t d;
  digest_init(&d);
  int *left = malloc(sizeof(int) * (size_t)size);    /* messages still to come per sender */
  int *next_seq = malloc(sizeof(int) * (size_t)size); /* non-overtaking check per sender */
  if (!left || !next_seq) fail("out of memory");

  for (int round = 0; round < rounds; round++) {
    const int root = round % size;
    if (rank != root) {
      for (int seq = 0; seq < MSGS; seq++) {
        int buf[MAXLEN];
        const int len = msg_len(rank, seq);
        buf[0] = rank;
        buf[1] = round;
        buf[2] = seq;
        for (int i = 3; i < len; i++) buf[i] = rank * 1000 + seq * 10 + i;
        (void)busy_work(mix32((uint32_t)(round * MSGS + seq), (uint32_t)rank) % 4000);
        MPI_Send(buf, len, MPI_INT, root, msg_tag(rank, seq), MPI_COMM_WORLD);
      }
      continue;
    }
    for (int s = 0; s < size; s++) {
      left[s] = s == root ? 0 : MSGS;
      next_seq[s] = 0;
    }
    const int total = MSGS * (size - 1);
    for (int step = 0; step < total; step++) {
      int src = MPI_ANY_SOURCE;
      if (step % 3 == 2) {
        /* a fixed source, chosen among those with messages left (choice depends on what the
         * wildcard receives took so far, itself an observed outcome) */
        src = 1 + (step / 3) % (size - 1);
        src = (root + src) % size;
        while (left[src] == 0) src = (src + 1) % size;
      }
      int buf[MAXLEN];
      MPI_Status st;
      MPI_Recv(buf, MAXLEN, MPI_INT, src, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
      digest_int(&d, src == MPI_ANY_SOURCE ? 0 : 1);
      const int count = digest_status(&d, &st, MPI_INT);
      const int s = st.MPI_SOURCE;
      if (s < 0 || s >= size || s == root || left[s] == 0) fail("unexpected source %d", s);
      if (src != MPI_ANY_SOURCE && s != src) fail("asked for source %d, got %d", src, s);
      const int seq = buf[2];
      if (buf[0] != s || buf[1] != round || seq != next_seq[s] || st.MPI_TAG != msg_tag(s, seq) ||
          count != msg_len(s, seq))
        fail("round %d: message (%d,%d,%d) tag %d count %d from %d does not fit", round, buf[0],
             buf[1], seq, st.MPI_TAG, count, s);
      for (int i = 3; i < count; i++)
        if (buf[i] != s * 1000 + seq * 10 + i) fail("payload corrupted");
      digest_int(&d, seq);
      next_seq[s]++;
      left[s]--;
    }
  }
  free(left);
  free(next_seq);
  return digest_finish(&d);
}
