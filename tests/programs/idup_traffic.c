/* idup_traffic: MPI_Comm_idup kept nonblocking among other traffic (the patterns of MPICH's
 * comm_idup_overlap, comm_idup_nb, comm_idup_isend, comm_idup_mul and comm_create_group_idup),
 * then the new communicators used, with wildcard receives on them.
 * Nondeterminism: the order in which the workers' messages reach the collector's
 * MPI_ANY_SOURCE receives on each new communicator (ranks arrive after uneven busy work).
 * Per round:
 *  A. rank 0 starts an idup of MPI_COMM_WORLD, then sends to every other rank, and only then
 *     waits; the others receive first and start their idup after (an idup that blocked would
 *     hang here);
 *  B. two idups of MPI_COMM_WORLD in flight with an Ibarrier, an Iallreduce and a ring
 *     exchange of Isend/Irecv, all completed by one MPI_Waitall;
 *  C. MPI_Comm_create_group of the even ranks, whose idup is completed by a Waitall with a
 *     ring exchange on MPI_COMM_WORLD;
 *  D. the other constructors: MPI_Comm_dup_with_info, MPI_Graph_create and
 *     MPI_Dist_graph_create_adjacent (rings, not reordered);
 * (with an MPI-4 library, B's second idup is an MPI_Comm_idup_with_info)
 *  then on every new communicator: an Allreduce, and a collector (rotating) receiving from
 *  MPI_ANY_SOURCE what every other member sends. MPI_COMM_WORLD carries an attribute whose
 *  copy callback counts its copies (in the digest): as many in a recording as in a replay (a
 *  recorder that dups the program's communicators itself must not copy the program's
 *  attributes). argv[1]: rounds (default 6). */
#include "common.h"

enum { TAG_A = 51, TAG_RING = 52, TAG_GATHER = 53, NEW = 8 };

static int copies; /* of the attribute on MPI_COMM_WORLD */

static int count_copy(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
  (void)comm, (void)keyval, (void)extra;
  copies++;
  *(void **)out = in;
  *flag = 1;
  return MPI_SUCCESS;
}

static uint32_t uneven(int round, int rank) { return mix32((uint32_t)round, (uint32_t)rank) % 120000; }

/* Every member but the collector sends (rank, round); the collector receives them from
 * MPI_ANY_SOURCE and folds the order of their sources. */
static void gather_any(digest_t *d, MPI_Comm comm, int round)
{
  int rank, size, sum, one = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, comm);
  if (sum != size) fail("Allreduce on a new communicator gave %d, not %d", sum, size);
  const int collector = round % size;
  (void)busy_work(uneven(round + 500, rank));
  if (rank != collector) {
    int msg[2] = {rank, round};
    MPI_Send(msg, 2, MPI_INT, collector, TAG_GATHER, comm);
    return;
  }
  for (int k = 1; k < size; k++) {
    int msg[2];
    MPI_Status st;
    MPI_Recv(msg, 2, MPI_INT, MPI_ANY_SOURCE, TAG_GATHER, comm, &st);
    if (msg[0] != st.MPI_SOURCE || msg[1] != round) fail("message (%d,%d) from %d", msg[0], msg[1], st.MPI_SOURCE);
    digest_int(d, st.MPI_SOURCE);
  }
}

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 3);
  const int rounds = arg_rounds(argc, argv, 6);
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  MPI_Group world_group, even_group;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  int evens[64], nevens = 0;
  for (int r = 0; r < size && nevens < 64; r += 2) evens[nevens++] = r;
  MPI_Group_incl(world_group, nevens, evens, &even_group);
  int keyval;
  MPI_Comm_create_keyval(count_copy, MPI_COMM_NULL_DELETE_FN, &keyval, NULL);
  MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, &copies);
  digest_t d;
  digest_init(&d);

  for (int round = 0; round < rounds; round++) {
    MPI_Comm made[NEW];
    int nmade = 0;
    MPI_Request reqs[8];
    MPI_Status sts[8]; /* not MPI_STATUSES_IGNORE: gcc 12 flags it with MPICH's headers */

    /* A: completion order matters: rank 0 sends between its idup and its wait */
    int token = round;
    if (rank == 0) {
      MPI_Comm_idup(MPI_COMM_WORLD, &made[nmade], &reqs[0]);
      for (int r = 1; r < size; r++) MPI_Send(&token, 1, MPI_INT, r, TAG_A, MPI_COMM_WORLD);
    } else {
      MPI_Recv(&token, 1, MPI_INT, 0, TAG_A, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (token != round) fail("token %d in round %d", token, round);
      MPI_Comm_idup(MPI_COMM_WORLD, &made[nmade], &reqs[0]);
    }
    MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
    nmade++;

    /* B: two idups in flight among nonblocking collectives and point-to-point */
    int in = rank + 1, sum = 0, from_left = -1, to_right = rank * 100 + round;
    (void)busy_work(uneven(round, rank));
    MPI_Ibarrier(MPI_COMM_WORLD, &reqs[0]);
    MPI_Comm_idup(MPI_COMM_WORLD, &made[nmade], &reqs[1]);
    MPI_Irecv(&from_left, 1, MPI_INT, left, TAG_RING, MPI_COMM_WORLD, &reqs[2]);
    MPI_Iallreduce(&in, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[3]);
#if MPI_VERSION >= 4
    MPI_Comm_idup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &made[nmade + 1], &reqs[4]);
#else
    MPI_Comm_idup(MPI_COMM_WORLD, &made[nmade + 1], &reqs[4]);
#endif
    MPI_Isend(&to_right, 1, MPI_INT, right, TAG_RING, MPI_COMM_WORLD, &reqs[5]);
    MPI_Waitall(6, reqs, sts);
    nmade += 2;
    if (sum != size * (size + 1) / 2) fail("Iallreduce gave %d", sum);
    if (from_left != left * 100 + round) fail("ring message %d from %d", from_left, left);

    /* C: comm_create_group of the even ranks, then its idup, completed with a ring exchange */
    if (rank % 2 == 0) {
      MPI_Comm evens_comm;
      MPI_Comm_create_group(MPI_COMM_WORLD, even_group, TAG_A + round, &evens_comm);
      MPI_Comm_idup(evens_comm, &made[nmade], &reqs[0]);
      MPI_Irecv(&from_left, 1, MPI_INT, left, TAG_RING, MPI_COMM_WORLD, &reqs[1]);
      MPI_Isend(&to_right, 1, MPI_INT, right, TAG_RING, MPI_COMM_WORLD, &reqs[2]);
      MPI_Waitall(3, reqs, sts);
      MPI_Comm_free(&evens_comm);
      nmade++;
    } else {
      MPI_Irecv(&from_left, 1, MPI_INT, left, TAG_RING, MPI_COMM_WORLD, &reqs[0]);
      MPI_Isend(&to_right, 1, MPI_INT, right, TAG_RING, MPI_COMM_WORLD, &reqs[1]);
      MPI_Waitall(2, reqs, sts);
    }
    if (from_left != left * 100 + round) fail("second ring message %d from %d", from_left, left);

    /* D: the blocking constructors of MPI-3 */
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &made[nmade++]);
    int weight = 1; /* not MPI_UNWEIGHTED: gcc 12 flags that sentinel with MPICH's headers */
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &left, &weight, 1, &right, &weight,
                                   MPI_INFO_NULL, 0, &made[nmade++]);
    if (size <= 64) {
      int index[64], edges[128];
      for (int r = 0; r < size; r++) {
        index[r] = 2 * (r + 1);
        edges[2 * r] = (r + size - 1) % size;
        edges[2 * r + 1] = (r + 1) % size;
      }
      MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &made[nmade++]);
    }

    /* the new communicators, used in the order they were made */
    for (int i = 0; i < nmade; i++) {
      digest_mark(&d, 10 + i);
      gather_any(&d, made[i], round);
      MPI_Comm_free(&made[i]);
    }
  }
  /* per round at least A's idup, B's two, D's dup_with_info of MPI_COMM_WORLD (Open MPI 4.1
   * copies attributes into MPI_Comm_create_group's, MPI_Graph_create's and
   * MPI_Dist_graph_create_adjacent's communicators too); the count is in the digest, so a recording that ran the callback more often than its
   * replays prints another digest */
  if (copies < 4 * rounds) fail("the attribute's copy callback ran %d times, not %d", copies, 4 * rounds);
  digest_int(&d, copies);
  MPI_Comm_delete_attr(MPI_COMM_WORLD, keyval);
  MPI_Comm_free_keyval(&keyval);
  MPI_Group_free(&even_group);
  MPI_Group_free(&world_group);
  return digest_finish(&d);
}
