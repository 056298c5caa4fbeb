/* cancel_recv: cancelling receives.
 * Nondeterminism: whether a wildcard MPI_Irecv is matched before MPI_Cancel reaches it (so
 * MPI_Test_cancelled says false and the receive holds a message) or is cancelled; and which of
 * two racing senders it got.
 * Per round, each rank posts MPI_Irecv(ANY_SOURCE, TAG_RACE); its two neighbours each send it one
 * TAG_RACE message after uneven work, while it does uneven work of its own, then MPI_Cancel +
 * MPI_Wait + MPI_Test_cancelled. Whatever the cancelled (or completed) receive did not take is
 * then received with plain MPI_Recv(ANY_SOURCE, TAG_RACE), so nothing stays pending. Each round
 * also cancels a specific-source MPI_Irecv for a tag nobody sends (that cancel must succeed).
 * argv[1]: number of rounds (default 30). */
#include "common.h"

enum { TAG_RACE = 51, TAG_NEVER = 52 };

static void check_msg(const int *msg, const MPI_Status *st, int rank, int size, int rounds) {
  const int s = st->MPI_SOURCE;
  if (msg[0] != s || (s != (rank + 1) % size && s != (rank + size - 1) % size) || msg[1] < 0 || msg[1] >= rounds)
    fail("message (%d,%d) from %d", msg[0], msg[1], s);
}

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 2);
  const int rounds = arg_rounds(argc, argv, 30);
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  digest_t d;
  digest_init(&d);
  int cancelled_total = 0;

  for (int round = 0; round < rounds; round++) {
    int msg[2] = {-1, -1};
    MPI_Request req;
    MPI_Status st;
    MPI_Irecv(msg, 2, MPI_INT, MPI_ANY_SOURCE, TAG_RACE, MPI_COMM_WORLD, &req);

    /* send to both neighbours, with uneven work before each send */
    const int out[2] = {rank, round};
    (void)busy_work(mix32((uint32_t)round, (uint32_t)rank) % 60000);
    MPI_Send(out, 2, MPI_INT, left, TAG_RACE, MPI_COMM_WORLD);
    (void)busy_work(mix32((uint32_t)round + 7777u, (uint32_t)rank) % 60000);
    MPI_Send(out, 2, MPI_INT, right, TAG_RACE, MPI_COMM_WORLD);
    (void)busy_work(mix32((uint32_t)round + 9999u, (uint32_t)rank) % 40000);

    MPI_Cancel(&req);
    MPI_Wait(&req, &st);
    int cancelled = -1;
    MPI_Test_cancelled(&st, &cancelled);
    digest_mark(&d, 1);
    digest_int(&d, cancelled);
    int still_to_come = 2; /* one message from each neighbour per round */
    if (!cancelled) {
      check_msg(msg, &st, rank, size, rounds);
      digest_int(&d, st.MPI_SOURCE);
      digest_int(&d, msg[1]);
      still_to_come--;
    } else {
      cancelled_total++;
    }
    for (int k = 0; k < still_to_come; k++) {
      MPI_Recv(msg, 2, MPI_INT, MPI_ANY_SOURCE, TAG_RACE, MPI_COMM_WORLD, &st);
      check_msg(msg, &st, rank, size, rounds);
      digest_int(&d, st.MPI_SOURCE);
      digest_int(&d, msg[1]);
    }

    /* a receive nobody will ever match: its cancel always succeeds */
    int never;
    MPI_Irecv(&never, 1, MPI_INT, right, TAG_NEVER, MPI_COMM_WORLD, &req);
    MPI_Cancel(&req);
    MPI_Wait(&req, &st);
    MPI_Test_cancelled(&st, &cancelled);
    if (!cancelled) fail("cancel of an unmatched specific-source receive failed");
    digest_mark(&d, 2);
  }
  digest_int(&d, cancelled_total);
  return digest_finish(&d);
}
