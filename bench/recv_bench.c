/* recv_bench: the PDT "receive benchmark" (wildcard receives at full speed).
 * Nondeterminism: every receive is MPI_Recv(MPI_ANY_SOURCE) with p-1 senders racing.
 * One iteration = one round: each rank j in turn receives p-1 messages with
 * MPI_Recv(MPI_ANY_SOURCE) while the other ranks MPI_Send one 8-byte message to it.
 * nd_events = wildcard receives on all ranks. argv[1]: rounds. Meant for 4 ranks. */
#include "common.h"

/* defaults: ~1-2 s natively with 4 ranks on a 2-core box. MPICH (ch4:ucx) waits in blocking
 * calls without yielding the core: on 2 oversubscribed cores each round then costs scheduler
 * time slices (~10 ms), hence its far smaller default. */
#ifdef OPEN_MPI
#define DEFAULT_ITERS 200000L
#else
#define DEFAULT_ITERS 150L
#endif

enum { TAG_RB = 2 };

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 2);
  const long iters = bench_iters(argc, argv, DEFAULT_ITERS);
  bench_counts_t bc = {0, 0};
  long payload = 0;
  MPI_Status st;

  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (long it = 0; it < iters; it++) {
    for (int j = 0; j < size; j++) {
      if (rank == j) {
        for (int k = 0; k < size - 1; k++) {
          long in;
          BENCH_CALL(&bc, MPI_Recv(&in, 1, MPI_LONG, MPI_ANY_SOURCE, TAG_RB, MPI_COMM_WORLD, &st));
          bc.nd_events++;
        }
      } else {
        payload++;
        BENCH_CALL(&bc, MPI_Send(&payload, 1, MPI_LONG, j, TAG_RB, MPI_COMM_WORLD));
      }
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const double seconds = MPI_Wtime() - t0;
  bench_report("recv_bench", iters, seconds, &bc, NULL);
  MPI_Finalize();
  return 0;
}
