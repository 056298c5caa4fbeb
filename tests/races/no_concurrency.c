/* no_concurrency: wildcard receives, but never two messages in transit at once.
 * One token walks the ranks: two laps of the ring forward, two laps backward, then a
 * pseudorandom route (every hop to another rank, mix32 of the hop number), so each rank
 * receives the token from several different sources. Every receive is an
 * MPI_Recv(MPI_ANY_SOURCE); the payload is the hop number.
 * Race rule: the send of every later hop happened after every earlier receive (the token
 * carries the causality along its whole route), so no receive is logged even though its
 * sources differ. Expected: 0. argv[1]: random hops (default 40). Needs 2 ranks or more
 * (4 intended). */
#include "races.h"

enum { TAG = 3 };

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 2);
  const int random_hops = arg_rounds(argc, argv, 40);
  const int hops = 4 * size + random_hops + 1; /* holder[0..hops-1] */
  int *holder = malloc(sizeof(int) * (size_t)hops);
  if (!holder) fail("out of memory");
  digest_t d;
  digest_init(&d);

  /* the route, computed identically on every rank */
  int h = 0;
  holder[h++] = 0;
  for (int lap = 0; lap < 2; lap++)
    for (int i = 1; i <= size; i++) holder[h++] = i % size;
  for (int lap = 0; lap < 2; lap++)
    for (int i = 1; i <= size; i++) holder[h++] = (size - i) % size;
  while (h < hops) {
    holder[h] = (holder[h - 1] + 1 + (int)(mix32((uint32_t)h, 77u) % (uint32_t)(size - 1))) % size;
    h++;
  }

  if (rank == 0) {
    int token = 1;
    MPI_Send(&token, 1, MPI_INT, holder[1], TAG, MPI_COMM_WORLD);
  }
  for (h = 1; h < hops; h++) {
    if (holder[h] != rank) continue;
    int token;
    MPI_Status st;
    MPI_Recv(&token, 1, MPI_INT, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &st);
    if (token != h || st.MPI_SOURCE != holder[h - 1])
      fail("hop %d: token %d from %d, expected from %d", h, token, st.MPI_SOURCE, holder[h - 1]);
    digest_status(&d, &st, MPI_INT);
    if (h + 1 < hops) {
      token = h + 1;
      MPI_Send(&token, 1, MPI_INT, holder[h + 1], TAG, MPI_COMM_WORLD);
    }
  }
  free(holder);
  report_expected(0);
  return digest_finish(&d);
}
