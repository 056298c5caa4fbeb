/* sendrecv_wild: MPI_Sendrecv and MPI_Sendrecv_replace receiving from MPI_ANY_SOURCE/ANY_TAG.
 * Nondeterminism: which racing message the receive half of a Sendrecv matches (source, tag,
 * and even which round's message, since a rank that receives nothing in a round runs ahead).
 * In round r every rank sends one message to a pseudo-random peer dest(rank, r) (not a
 * permutation: some ranks get several messages, some none). All ranks compute everyone's
 * in-degree, and each rank makes max(1, indeg) calls: the first sends its message (with
 * source MPI_PROC_NULL if indeg is 0), the others send to MPI_PROC_NULL and only receive. Even
 * rounds use MPI_Sendrecv, odd rounds MPI_Sendrecv_replace. Every message is received (a rank
 * receives in total exactly what is sent to it) and no rank can block forever.
 * argv[1]: number of rounds (default 60). */
#include "common.h"

static int dest_of(int rank, int round, int size) {
  const int off = 1 + (int)(mix32((uint32_t)round, (uint32_t)rank) % (uint32_t)(size - 1));
  return (rank + off) % size;
}

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 2);
  const int rounds = arg_rounds(argc, argv, 60);
  digest_t d;
  digest_init(&d);
  int *expected_from = calloc((size_t)size, sizeof(int)); /* messages sent to me so far, per sender */
  int *got_from = calloc((size_t)size, sizeof(int));
  if (!expected_from || !got_from) fail("out of memory");

  for (int round = 0; round < rounds; round++) {
    int indeg = 0;
    for (int s = 0; s < size; s++)
      if (s != rank && dest_of(s, round, size) == rank) indeg++;
    const int dest = dest_of(rank, round, size);
    const int calls = indeg > 0 ? indeg : 1;
    (void)busy_work(mix32((uint32_t)rank, (uint32_t)round) % 8000);
    for (int c = 0; c < calls; c++) {
      const int to = c == 0 ? dest : MPI_PROC_NULL;
      const int from = indeg > 0 ? MPI_ANY_SOURCE : MPI_PROC_NULL;
      const int tag = round % 5;
      int out[3] = {rank, round, c}, in[3] = {-1, -1, -1};
      MPI_Status st;
      if (round % 2 == 0) {
        MPI_Sendrecv(out, 3, MPI_INT, to, tag, in, 3, MPI_INT, from, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
      } else {
        MPI_Sendrecv_replace(out, 3, MPI_INT, to, tag, from, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        for (int i = 0; i < 3; i++) in[i] = out[i];
      }
      if (from == MPI_PROC_NULL) {
        if (st.MPI_SOURCE != MPI_PROC_NULL) fail("PROC_NULL receive reported source %d", st.MPI_SOURCE);
        continue;
      }
      const int s = st.MPI_SOURCE;
      if (s < 0 || s >= size || s == rank || in[0] != s || in[2] != 0 || st.MPI_TAG != in[1] % 5 ||
          in[1] < 0 || in[1] >= rounds || dest_of(s, in[1], size) != rank)
        fail("round %d: got (%d,%d,%d) tag %d from %d", round, in[0], in[1], in[2], st.MPI_TAG, s);
      got_from[s]++;
      digest_int(&d, c);
      digest_status(&d, &st, MPI_INT);
      digest_int(&d, in[1]); /* which round's message it was: fast senders run ahead */
    }
  }
  /* every message sent to this rank was received exactly once */
  for (int round = 0; round < rounds; round++)
    for (int s = 0; s < size; s++)
      if (s != rank && dest_of(s, round, size) == rank) expected_from[s]++;
  for (int s = 0; s < size; s++)
    if (expected_from[s] != got_from[s]) fail("from %d: expected %d messages, got %d", s, expected_from[s], got_from[s]);
  free(expected_from);
  free(got_from);
  return digest_finish(&d);
}
