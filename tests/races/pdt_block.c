/* pdt_block: PDT (Clemencon et al.) Figure 4b: block races. Rank 1 receives with
 * MPI_Recv(MPI_ANY_SOURCE) every message ranks 0 and 2 send it; in each round rank 0 sends
 * a[round] messages and rank 2 sends b[round], all concurrently (the senders stagger their sends
 * by deterministic busy work, so the interleaving varies from run to run). A barrier ends each
 * round, so nothing sent in a later round races with this round's receives.
 *
 * Race rule for a round: no send of the round happened after any receive of the round (rank 1
 * sends nothing), so receive k is logged iff a later receive of the round got a message from the
 * other sender; one message racing with several earlier receives from the other sender (a block
 * race) logs each of them. count_block(): every receive except the final run of equal sources.
 * E.g. 0 0 0 2 2 2 -> 3; 0 2 0 2 2 2 -> 3 (receives 1-3 each have a later message from the
 * other sender, the final run of 2s has none); 2 0 0 0 2 2 -> 4; 2 2 0 -> 2.
 * Expected: the sum over the rounds of (messages - final run), computed from the order
 * observed. FIFO per sender is checked on the payloads. Needs 3 ranks. */
#include "races.h"

enum { TAG = 5, ROUNDS = 6, MAXMSG = 8 };

static const int count_of[ROUNDS][2] = {{3, 3}, {1, 4}, {4, 1}, {2, 2}, {5, 3}, {2, 6}};

/* a few microseconds between sends, different per round, sender and message */
static uint64_t gap(int round, int sender, int k) { return 1000 + mix32((uint32_t)(round * 16 + k), (uint32_t)sender) % 20000; }

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 3);
  digest_t d;
  digest_init(&d);
  long racing = 0;

  for (int round = 0; round < ROUNDS; round++) {
    const int n0 = count_of[round][0], n2 = count_of[round][1];
    if (rank == 1) {
      int src[2 * MAXMSG], next[3] = {0, 0, 0};
      for (int k = 0; k < n0 + n2; k++) {
        int msg[2];
        MPI_Status st;
        MPI_Recv(msg, 2, MPI_INT, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &st);
        const int s = st.MPI_SOURCE;
        if ((s != 0 && s != 2) || msg[0] != round * 100 + s || msg[1] != next[s]++)
          fail("round %d: (%d,%d) from %d", round, msg[0], msg[1], s);
        src[k] = s;
        digest_int(&d, s);
      }
      if (next[0] != n0 || next[2] != n2) fail("round %d: %d and %d messages", round, next[0], next[2]);
      racing += count_block(src, n0 + n2);
    } else if (rank == 0 || rank == 2) {
      const int n = rank == 0 ? n0 : n2;
      for (int k = 0; k < n; k++) {
        (void)busy_work(gap(round, rank, k));
        int msg[2] = {round * 100 + rank, k};
        MPI_Send(msg, 2, MPI_INT, 1, TAG, MPI_COMM_WORLD);
      }
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  report_expected(racing);
  return digest_finish(&d);
}
