/* explore_deadlock: a deadlock behind a message order native runs never take, for the
 * deadlock verdict of mpirr explore. Ranks 1 and 2 send one message each to rank 0 (rank 2
 * 15 ms later), which takes both with MPI_ANY_SOURCE: natively rank 1's comes first. If rank
 * 2's comes first, rank 0 waits for a reply from rank 2 that rank 2 never sends (line
 * DEADLOCK_RECV), while ranks 1 and 2 wait in the final barrier (line DEADLOCK_BARRIER). */
#include "../programs/common.h" /* first: it sets _POSIX_C_SOURCE (nanosleep) */

#include <time.h>

enum { TAG_HELLO = 3, TAG_NEVER = 4 };

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 3);
  if (rank == 1 || rank == 2) {
    struct timespec ts = {0, (rank - 1) * 15000000L};
    while (nanosleep(&ts, &ts) != 0)
      ;
    MPI_Send(&rank, 1, MPI_INT, 0, TAG_HELLO, MPI_COMM_WORLD);
  } else if (rank == 0) {
    int first, second, never;
    MPI_Recv(&first, 1, MPI_INT, MPI_ANY_SOURCE, TAG_HELLO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&second, 1, MPI_INT, MPI_ANY_SOURCE, TAG_HELLO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("order %d %d\n", first, second);
    fflush(stdout);
    if (first == 2) /* DEADLOCK_RECV */
      MPI_Recv(&never, 1, MPI_INT, 2, TAG_NEVER, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Barrier(MPI_COMM_WORLD); /* DEADLOCK_BARRIER */
  MPI_Finalize();
  return 0;
}
