/* persistent_wildcard: persistent receives with MPI_ANY_SOURCE.
 * Nondeterminism: which sender each MPI_Start'ed wildcard persistent receive matches, and which
 * of an MPI_Startall'ed array of them MPI_Waitany completes first.
 * Part A (rotating root): one MPI_Recv_init(ANY_SOURCE) request, MPI_Start + MPI_Wait in a loop
 * over all messages the others send. Part B (rotating root): an array of p-1 wildcard persistent
 * receives, restarted with MPI_Startall each round and completed with MPI_Waitany.
 * All requests are released with MPI_Request_free at the end.
 * argv[1]: rounds of part B (default 10 * ranks); part A has 2 * ranks rounds. */
#include "common.h"

enum { TAG_A = 21, TAG_B = 22, A_MSGS = 6 };

static void check_payload(const int *msg, const MPI_Status *st, int round, int tag) {
  if (msg[0] != st->MPI_SOURCE || msg[1] != round || st->MPI_TAG != tag)
    fail("tag %d round %d: payload (%d,%d,%d) from %d", tag, round, msg[0], msg[1], msg[2], st->MPI_SOURCE);
}

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 2);
  const int rounds_a = 2 * size;
  const int rounds_b = arg_rounds(argc, argv, 10 * size);
  const int n = size - 1;
  digest_t d;
  digest_init(&d);

  /* ---- part A: one persistent wildcard receive, restarted per message ---- */
  int one[3];
  MPI_Request single;
  MPI_Recv_init(one, 3, MPI_INT, MPI_ANY_SOURCE, TAG_A, MPI_COMM_WORLD, &single);
  digest_mark(&d, 1);
  for (int round = 0; round < rounds_a; round++) {
    const int root = round % size;
    if (rank != root) {
      for (int k = 0; k < A_MSGS; k++) {
        (void)busy_work(mix32((uint32_t)(round * A_MSGS + k), (uint32_t)rank) % 20000);
        int msg[3] = {rank, round, k};
        MPI_Send(msg, 3, MPI_INT, root, TAG_A, MPI_COMM_WORLD);
      }
      continue;
    }
    int *next_k = calloc((size_t)size, sizeof(int));
    if (!next_k) fail("out of memory");
    for (int m = 0; m < A_MSGS * n; m++) {
      MPI_Status st;
      MPI_Start(&single);
      MPI_Wait(&single, &st);
      check_payload(one, &st, round, TAG_A);
      if (one[2] != next_k[one[0]]++) fail("message %d from %d out of order", one[2], one[0]);
      digest_int(&d, st.MPI_SOURCE);
      digest_int(&d, one[2]);
    }
    free(next_k);
  }

  /* ---- part B: an array of persistent wildcard receives, Startall + Waitany ---- */
  int (*bufs)[3] = malloc(sizeof(int[3]) * (size_t)n);
  MPI_Request *reqs = malloc(sizeof(MPI_Request) * (size_t)n);
  char *seen = malloc((size_t)size);
  if (!bufs || !reqs || !seen) fail("out of memory");
  for (int i = 0; i < n; i++) MPI_Recv_init(bufs[i], 3, MPI_INT, MPI_ANY_SOURCE, TAG_B, MPI_COMM_WORLD, &reqs[i]);
  digest_mark(&d, 2);
  for (int round = 0; round < rounds_b; round++) {
    const int root = round % size;
    if (rank != root) {
      (void)busy_work(mix32((uint32_t)round, (uint32_t)rank) % 30000);
      int msg[3] = {rank, round, 0};
      MPI_Send(msg, 3, MPI_INT, root, TAG_B, MPI_COMM_WORLD);
      continue;
    }
    for (int s = 0; s < size; s++) seen[s] = 0;
    MPI_Startall(n, reqs);
    for (int m = 0; m < n; m++) {
      int index;
      MPI_Status st;
      MPI_Waitany(n, reqs, &index, &st);
      if (index < 0 || index >= n) fail("Waitany index %d", index);
      check_payload(bufs[index], &st, round, TAG_B);
      if (seen[st.MPI_SOURCE]++) fail("two messages from %d in round %d", st.MPI_SOURCE, round);
      digest_int(&d, index);
      digest_int(&d, st.MPI_SOURCE);
    }
  }

  MPI_Request_free(&single);
  for (int i = 0; i < n; i++) MPI_Request_free(&reqs[i]);
  free(bufs);
  free(reqs);
  free(seen);
  return digest_finish(&d);
}
