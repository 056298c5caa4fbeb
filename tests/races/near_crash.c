/* near_crash: racing receives at known happened-before distances from a crash, for
 * `mpirr races --near` (near.sh).
 * Every rank first sends one message to each of ranks 1, 2 and 3 (but itself). Then ranks 1, 2
 * and 3 each take their three messages with MPI_Recv(MPI_ANY_SOURCE): all were sent before any
 * receive, so the first two receives of each race (3 and 2 candidates; the last has one left),
 * 6 racing receives in all. Each then reports to rank 0, which receives the reports from ranks
 * 1, 2 and 3 in that order (specific sources: no race) and crashes right after the last one, in
 * its own code (SIGSEGV). So rank 3's racing receives are 0 events before the crash (its report
 * is rank 0's last event), rank 2's 1, rank 1's 2. The crash is deterministic; which messages
 * each receive got is not. Rank 0 crashes, not a higher rank: if the launcher's cleanup makes
 * another rank end as if by itself, rank 0 is still the first crashed rank in rank order.
 * Needs exactly 4 ranks. */
#include "races.h"

enum { TAG_REPORT = 9 };

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 4);
  if (size != 4) fail("needs exactly 4 ranks, got %d", size);
  for (int to = 1; to <= 3; to++) {
    if (to == rank) continue;
    int msg = 100 * rank + to;
    MPI_Send(&msg, 1, MPI_INT, to, to, MPI_COMM_WORLD);
  }
  if (rank != 0) {
    int order = 0;
    for (int k = 0; k < 3; k++) {
      int msg;
      MPI_Status st;
      MPI_Recv(&msg, 1, MPI_INT, MPI_ANY_SOURCE, rank, MPI_COMM_WORLD, &st);
      if (msg != 100 * st.MPI_SOURCE + rank) fail("payload %d from %d", msg, st.MPI_SOURCE);
      order = 10 * order + st.MPI_SOURCE;
    }
    MPI_Send(&order, 1, MPI_INT, 0, TAG_REPORT, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
  }
  printf("orders");
  for (int from = 1; from <= 3; from++) {
    int order;
    MPI_Recv(&order, 1, MPI_INT, from, TAG_REPORT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf(" %d", order);
  }
  printf("\n");
  fflush(stdout);
  volatile int *volatile null_ptr = NULL;
  *null_ptr = 42; /* the crash every race above happened before */
  return 0;
}
