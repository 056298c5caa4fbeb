/* coll_hb: happened-before through collectives.
 * A sequence of parts, each separated from the next by an MPI_Barrier (which orders everything
 * of one part before everything of the next). In each part, rank R posts a first
 * MPI_Recv(MPI_ANY_SOURCE) (r1) for the message of rank S1; then all ranks call one collective
 * (or none); then rank S2 sends to R, which receives with a second MPI_Recv(MPI_ANY_SOURCE)
 * (r2). Race rule: r1 is logged iff S2's send did not happen after r1, i.e. iff the collective
 * does not order R's past before S2's future:
 *   Barrier, Allreduce, Allgather, Alltoall       order everyone before everyone: no race;
 *   Bcast, Scatter from root X                    order X's past before all futures: no race
 *                                                 iff X == R;
 *   Reduce, Gather to root X                      order all pasts before X's future: no race
 *                                                 iff X == S2;
 *   Scan                                          orders ranks 0..i before rank i: no race iff
 *                                                 R <= S2;
 *   Reduce to X then Bcast from X                 R -> X -> S2: no race.
 * r2 is never logged (the barrier orders every later message after it). When the collective
 * orders r1 before S2's send, r1 can only get S1's message (checked); otherwise either message
 * may come first, and r1 is logged either way. Expected: the number of unordered parts (7).
 * Needs 4 ranks. */
#include "races.h"

enum { TAG = 21 };

enum coll { NONE, BARRIER, ALLREDUCE, ALLGATHER, ALLTOALL, BCAST, SCATTER, REDUCE, GATHER, SCAN, REDUCE_BCAST };

struct part {
  const char *what;
  enum coll coll;
  int root;
  int r, s1, s2;
  int ordered; /* the collective orders R's past before S2's future */
};

static const struct part parts[] = {
    {"no collective", NONE, 0, 0, 1, 2, 0},
    {"barrier", BARRIER, 0, 0, 1, 2, 1},
    {"barrier, other ranks", BARRIER, 0, 3, 2, 1, 1},
    {"allreduce", ALLREDUCE, 0, 0, 1, 2, 1},
    {"allgather", ALLGATHER, 0, 1, 3, 0, 1},
    {"alltoall", ALLTOALL, 0, 2, 0, 3, 1},
    {"bcast from R", BCAST, 0, 0, 1, 2, 1},
    {"bcast from S2", BCAST, 2, 0, 1, 2, 0},
    {"bcast from a bystander", BCAST, 3, 0, 1, 2, 0},
    {"scatter from R", SCATTER, 1, 1, 2, 3, 1},
    {"scatter from S2", SCATTER, 3, 1, 2, 3, 0},
    {"reduce to R", REDUCE, 0, 0, 1, 2, 0},
    {"gather to R", GATHER, 0, 0, 1, 2, 0},
    {"reduce to S2", REDUCE, 2, 0, 1, 2, 1},
    {"gather to S2", GATHER, 2, 0, 1, 2, 1},
    {"reduce to X, bcast from X", REDUCE_BCAST, 3, 0, 1, 2, 1},
    {"scan, R < S2", SCAN, 0, 0, 1, 2, 1},
    {"scan, R > S2", SCAN, 0, 2, 3, 0, 0},
};
enum { NPARTS = sizeof parts / sizeof parts[0] };

static void collective(const struct part *p, int rank, int size, digest_t *d) {
  int in = rank + 1, out = 0;
  int all[16], mine[16];
  if (size > 16) fail("at most 16 ranks");
  for (int i = 0; i < size; i++) mine[i] = rank * 100 + i;
  switch (p->coll) {
  case NONE:
    return;
  case BARRIER:
    MPI_Barrier(MPI_COMM_WORLD);
    return;
  case ALLREDUCE:
    MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    break;
  case ALLGATHER:
    MPI_Allgather(&in, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
    out = all[size - 1];
    break;
  case ALLTOALL:
    MPI_Alltoall(mine, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
    out = all[0];
    break;
  case BCAST:
    out = in;
    MPI_Bcast(&out, 1, MPI_INT, p->root, MPI_COMM_WORLD);
    break;
  case SCATTER:
    MPI_Scatter(mine, 1, MPI_INT, &out, 1, MPI_INT, p->root, MPI_COMM_WORLD);
    break;
  case REDUCE:
    MPI_Reduce(&in, &out, 1, MPI_INT, MPI_SUM, p->root, MPI_COMM_WORLD);
    break;
  case GATHER:
    MPI_Gather(&in, 1, MPI_INT, all, 1, MPI_INT, p->root, MPI_COMM_WORLD);
    if (rank == p->root) out = all[size - 1];
    break;
  case SCAN:
    MPI_Scan(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    break;
  case REDUCE_BCAST:
    MPI_Reduce(&in, &out, 1, MPI_INT, MPI_SUM, p->root, MPI_COMM_WORLD);
    MPI_Bcast(&out, 1, MPI_INT, p->root, MPI_COMM_WORLD);
    break;
  }
  digest_int(d, out);
}

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 4);
  digest_t d;
  digest_init(&d);
  long racing = 0;

  for (int i = 0; i < NPARTS; i++) {
    const struct part *p = &parts[i];
    int msg;
    MPI_Status st;
    digest_mark(&d, i);
    if (rank == p->s1) {
      msg = 1000 * i + rank;
      MPI_Send(&msg, 1, MPI_INT, p->r, TAG, MPI_COMM_WORLD);
    }
    int first = -1;
    if (rank == p->r) {
      MPI_Recv(&msg, 1, MPI_INT, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &st);
      first = st.MPI_SOURCE;
      if ((first != p->s1 && first != p->s2) || msg != 1000 * i + first) fail("part %s: %d from %d", p->what, msg, first);
      if (p->ordered && first != p->s1) fail("part %s: S2's message came before the collective ordered it", p->what);
      digest_int(&d, first);
    }
    collective(p, rank, size, &d);
    if (rank == p->s2) {
      msg = 1000 * i + rank;
      MPI_Send(&msg, 1, MPI_INT, p->r, TAG, MPI_COMM_WORLD);
    }
    if (rank == p->r) {
      MPI_Recv(&msg, 1, MPI_INT, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &st);
      const int second = st.MPI_SOURCE;
      if (second == first || (second != p->s1 && second != p->s2) || msg != 1000 * i + second)
        fail("part %s: %d from %d", p->what, msg, second);
      digest_int(&d, second);
      if (!p->ordered) racing++; /* r1; never r2 */
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  report_expected(racing);
  return digest_finish(&d);
}
