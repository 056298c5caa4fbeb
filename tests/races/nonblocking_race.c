/* nonblocking_race: MPI_Irecv(MPI_ANY_SOURCE) completed by MPI_Waitany, MPI_Testsome, MPI_Test
 * loops and MPI_Wait; racing and non-racing cases, the count derived from the order observed.
 *
 * Every part ends with an MPI_Barrier, which orders everything in it before everything after.
 * Within a part, the expected count follows the race rule with the completion order the
 * program observes (the order of Waitany returns; within one Testsome call, the index order):
 * receive i (posted with MPI_ANY_SOURCE, acceptable tag, same communicator) is logged iff some
 * other receive j of the part got a message from another source than i's and
 *   - j completed after i, and j's message was not sent after i completed (main rule), or
 *   - j completed while i was posted and not yet completed (the conservative rule for
 *     nonblocking receives).
 * count_part() evaluates exactly this over the part's records when all the part's sends are
 * concurrent with all its receives (the senders never wait for rank 0); the parts whose sends
 * are causally after earlier receives are counted by hand.
 *
 * Parts (rank 0 receives, 4 ranks):
 *  1 waitany (x rounds): ranks 1 and 2 each send 2 messages (staggered differently in even and
 *    odd rounds, so both cases below occur); rank 0 posts 2 Irecv(ANY), takes
 *    both with Waitany, then posts 2 more and takes them with Waitany. If the first two came
 *    from different ranks, all 4 are logged; if from one rank, only those two (the last two,
 *    both from the other rank, have no partner with another source): 4 or 2.
 *  2 testsome: 3 Irecv(ANY) posted at once, ranks 1-3 send one each, Testsome loop: each
 *    receive has a partner from another source, earlier (conservative rule) or later (main
 *    rule): 3.
 *  3 test loops, no race: Irecv(ANY) completed by a Test loop gets rank 1's message; then rank
 *    0 sends a token to rank 2, which only then sends the message of a second Irecv(ANY) + Test
 *    loop: 0.
 *  4 other tag while posted: Irecv(ANY, TAG_A) posted; meanwhile Recv(ANY, TAG_B) gets rank 2's
 *    message (not acceptable to the Irecv: other tag); then a go to rank 1, whose TAG_A message
 *    completes the Irecv (Wait). Neither is logged (tags differ; the Irecv's message was sent
 *    after the TAG_B receive anyway): 0.
 *  5 wildcard then specific: Irecv(ANY) + Wait gets rank 1's or rank 2's message; then a
 *    blocking Recv with the other rank as source (never logged itself) gets the other: the
 *    wildcard receive is logged: 1.
 *  6 conservative: Irecv(source 1) posted, then Irecv(ANY); rank 1 and rank 2 send one each.
 *    The specific receive, posted first, must get rank 1's message, so the wildcard one gets
 *    rank 2's; Wait(specific) completes while the wildcard receive is still posted, with a
 *    message acceptable to it from another source: logged by the conservative rule: 1.
 *  7 one source: rank 1 sends 2 messages, nobody else; rank 0 posts 2 Irecv(ANY) and takes them
 *    with Waitany. The first completion comes while the second receive is posted, but from the
 *    same source as the one it then gets (FIFO per sender: no other outcome was possible), and
 *    no message from another source follows: 0. (Part 1 has this case in its last two
 *    receives when the first two came from one rank.)
 * argv[1]: rounds of part 1 (default 4); argv[2]: bit mask of the parts to run (default 0x7f,
 * all). Needs 4 ranks. */
#include "races.h"

enum { TAG = 31, TAG_A = 32, TAG_B = 33, TAG_TOKEN = 34, MAXREC = 8 };

/* one completed wildcard receive of a part: its source, when it was posted and completed
 * (values of one counter advanced at every post and every completion) */
struct rec {
  int src, posted, completed;
};

static int count_part(const struct rec *r, int n) {
  int logged = 0;
  for (int i = 0; i < n; i++) {
    int hit = 0;
    for (int j = 0; j < n && !hit; j++) {
      if (j == i || r[j].src == r[i].src) continue;
      if (r[j].completed > r[i].completed) hit = 1;                                  /* main rule */
      if (r[j].completed > r[i].posted && r[j].completed < r[i].completed) hit = 1; /* conservative */
    }
    logged += hit;
  }
  return logged;
}

static void check_msg(const int *msg, const MPI_Status *st, int part) {
  if (msg[0] != st->MPI_SOURCE || msg[1] != part) fail("part %d: (%d,%d) from %d", part, msg[0], msg[1], st->MPI_SOURCE);
}

static void send_msg(int part, int rank, int tag) {
  int msg[2] = {rank, part};
  MPI_Send(msg, 2, MPI_INT, 0, tag, MPI_COMM_WORLD);
}

/* part 1: returns the logged count */
static int part_waitany(int rank, int round, digest_t *d) {
  const int part = 100 + round;
  if (rank == 1 || rank == 2) {
    /* even rounds: rank 1 sends both at once, rank 2 later (the first two tend to come from
     * one rank); odd rounds: rank 1 pauses between its two (they tend to differ) */
    static const uint64_t pause[2][3][2] = {{{0, 0}, {0, 0}, {200000, 0}}, {{0, 0}, {0, 200000}, {50000, 0}}};
    for (int k = 0; k < 2; k++) {
      (void)busy_work(pause[round % 2][rank][k]);
      send_msg(part, rank, TAG);
    }
    return 0;
  }
  if (rank != 0) return 0;
  struct rec r[4];
  int t = 0, n = 0;
  for (int batch = 0; batch < 2; batch++) {
    int buf[2][2], slot_rec[2];
    MPI_Request req[2];
    for (int k = 0; k < 2; k++) {
      MPI_Irecv(buf[k], 2, MPI_INT, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &req[k]);
      slot_rec[k] = n + k;
      r[n + k].posted = t++;
    }
    for (int k = 0; k < 2; k++) {
      int index;
      MPI_Status st;
      MPI_Waitany(2, req, &index, &st);
      if (index != 0 && index != 1) fail("part 1: Waitany index %d", index);
      check_msg(buf[index], &st, part);
      r[slot_rec[index]].src = st.MPI_SOURCE;
      r[slot_rec[index]].completed = t++;
      digest_int(d, index);
      digest_int(d, st.MPI_SOURCE);
    }
    n += 2;
  }
  const int logged = count_part(r, 4);
  /* cross-check with the case analysis in the header comment */
  const int first_two_differ = r[0].src != r[1].src;
  if (logged != (first_two_differ ? 4 : 2)) fail("part 1: count_part gave %d", logged);
  return logged;
}

static int part_testsome(int rank, digest_t *d) {
  const int part = 2;
  if (rank >= 1 && rank <= 3) {
    (void)busy_work(mix32(2u, (uint32_t)rank) % 20000);
    send_msg(part, rank, TAG);
    return 0;
  }
  if (rank != 0) return 0;
  int buf[3][2], t = 0, done = 0;
  MPI_Request req[3];
  struct rec r[3];
  for (int k = 0; k < 3; k++) {
    MPI_Irecv(buf[k], 2, MPI_INT, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &req[k]);
    r[k].posted = t++;
  }
  while (done < 3) {
    int outcount, idx[3];
    MPI_Status st[3];
    MPI_Testsome(3, req, &outcount, idx, st);
    if (outcount == MPI_UNDEFINED) fail("part 2: Testsome undefined");
    if (outcount == 0) {
      poll_pause();
      continue;
    }
    digest_int(d, outcount);
    for (int k = 0; k < outcount; k++) {
      check_msg(buf[idx[k]], &st[k], part);
      r[idx[k]].src = st[k].MPI_SOURCE;
      r[idx[k]].completed = t++;
      digest_int(d, idx[k]);
      digest_int(d, st[k].MPI_SOURCE);
    }
    done += outcount;
  }
  return count_part(r, 3); /* 3: three different sources */
}

static void test_loop(MPI_Request *req, MPI_Status *st) {
  int flag = 0;
  for (;;) {
    MPI_Test(req, &flag, st);
    if (flag) return;
    poll_pause();
  }
}

static int part_test_no_race(int rank, digest_t *d) {
  const int part = 3;
  int buf[2], token = 7;
  MPI_Request req;
  MPI_Status st;
  if (rank == 1) send_msg(part, rank, TAG);
  if (rank == 2) {
    MPI_Recv(&token, 1, MPI_INT, 0, TAG_TOKEN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    send_msg(part, rank, TAG);
  }
  if (rank != 0) return 0;
  MPI_Irecv(buf, 2, MPI_INT, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &req);
  test_loop(&req, &st);
  if (st.MPI_SOURCE != 1) fail("part 3: first message from %d", st.MPI_SOURCE);
  check_msg(buf, &st, part);
  MPI_Send(&token, 1, MPI_INT, 2, TAG_TOKEN, MPI_COMM_WORLD);
  MPI_Irecv(buf, 2, MPI_INT, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &req);
  test_loop(&req, &st);
  if (st.MPI_SOURCE != 2) fail("part 3: second message from %d", st.MPI_SOURCE);
  check_msg(buf, &st, part);
  digest_int(d, part);
  return 0;
}

static int part_other_tag(int rank, digest_t *d) {
  const int part = 4;
  int buf[2], bufb[2], go = 1;
  MPI_Request req;
  MPI_Status st;
  if (rank == 2) send_msg(part, rank, TAG_B);
  if (rank == 1) {
    MPI_Recv(&go, 1, MPI_INT, 0, TAG_TOKEN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    send_msg(part, rank, TAG_A);
  }
  if (rank != 0) return 0;
  MPI_Irecv(buf, 2, MPI_INT, MPI_ANY_SOURCE, TAG_A, MPI_COMM_WORLD, &req);
  MPI_Recv(bufb, 2, MPI_INT, MPI_ANY_SOURCE, TAG_B, MPI_COMM_WORLD, &st);
  if (st.MPI_SOURCE != 2) fail("part 4: TAG_B message from %d", st.MPI_SOURCE);
  check_msg(bufb, &st, part);
  MPI_Send(&go, 1, MPI_INT, 1, TAG_TOKEN, MPI_COMM_WORLD);
  MPI_Wait(&req, &st);
  if (st.MPI_SOURCE != 1) fail("part 4: TAG_A message from %d", st.MPI_SOURCE);
  check_msg(buf, &st, part);
  digest_int(d, part);
  return 0;
}

static int part_then_specific(int rank, digest_t *d) {
  const int part = 5;
  int buf[2];
  MPI_Request req;
  MPI_Status st;
  if (rank == 1 || rank == 2) {
    (void)busy_work(mix32(5u, (uint32_t)rank) % 20000);
    send_msg(part, rank, TAG);
  }
  if (rank != 0) return 0;
  MPI_Irecv(buf, 2, MPI_INT, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, &st);
  const int first = st.MPI_SOURCE;
  if (first != 1 && first != 2) fail("part 5: message from %d", first);
  check_msg(buf, &st, part);
  MPI_Recv(buf, 2, MPI_INT, 3 - first, TAG, MPI_COMM_WORLD, &st);
  check_msg(buf, &st, part);
  digest_int(d, first);
  return 1;
}

static int part_one_source(int rank, digest_t *d) {
  const int part = 7;
  if (rank == 1) {
    send_msg(part, rank, TAG);
    send_msg(part, rank, TAG);
  }
  if (rank != 0) return 0;
  int buf[2][2];
  MPI_Request req[2];
  MPI_Status st;
  for (int k = 0; k < 2; k++) MPI_Irecv(buf[k], 2, MPI_INT, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &req[k]);
  for (int k = 0; k < 2; k++) {
    int index;
    MPI_Waitany(2, req, &index, &st);
    if (index != 0 && index != 1) fail("part 7: Waitany index %d", index);
    check_msg(buf[index], &st, part);
    digest_int(d, index);
  }
  return 0;
}

static int part_conservative(int rank, digest_t *d) {
  const int part = 6;
  int buf1[2], bufw[2];
  MPI_Request req[2];
  MPI_Status st;
  if (rank == 1 || rank == 2) send_msg(part, rank, TAG);
  if (rank != 0) return 0;
  MPI_Irecv(buf1, 2, MPI_INT, 1, TAG, MPI_COMM_WORLD, &req[0]);
  MPI_Irecv(bufw, 2, MPI_INT, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &req[1]);
  MPI_Wait(&req[0], &st);
  check_msg(buf1, &st, part);
  MPI_Wait(&req[1], &st);
  if (st.MPI_SOURCE != 2) fail("part 6: wildcard receive got rank %d's message", st.MPI_SOURCE);
  check_msg(bufw, &st, part);
  digest_int(d, part);
  return 1;
}

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 4);
  const int rounds = arg_rounds(argc, argv, 4);
  digest_t d;
  digest_init(&d);
  long racing = 0;

  /* argv[2]: which parts run, a bit mask (bit 0 = part 1; default all), to look at one alone */
  const unsigned parts = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 0) : 0x7fu;
  if (parts & 1u)
    for (int round = 0; round < rounds; round++) {
      racing += part_waitany(rank, round, &d);
      MPI_Barrier(MPI_COMM_WORLD);
    }
  int (*const later[])(int, digest_t *) = {part_testsome, part_test_no_race, part_other_tag, part_then_specific,
                                            part_conservative, part_one_source};
  for (unsigned i = 0; i < sizeof later / sizeof later[0]; i++) {
    if (!(parts & (2u << i))) continue;
    racing += later[i](rank, &d);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  report_expected(racing);
  return digest_finish(&d);
}
