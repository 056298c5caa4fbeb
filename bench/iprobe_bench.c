/* iprobe_bench: the PDT receive benchmark with receives emulated by polling.
 * Nondeterminism: MPI_Iprobe(MPI_ANY_SOURCE) outcomes (how many fail, which source succeeds).
 * One iteration = one round: each rank j in turn takes p-1 messages, each by polling
 * MPI_Iprobe(ANY_SOURCE) until it succeeds (yielding the core after a failure) and then
 * MPI_Recv from the probed source, while the other ranks MPI_Send one 8-byte message to it.
 * nd_events = all Iprobe calls (successful or not) on all ranks. argv[1]: rounds. 4 ranks. */
#include "common.h"

/* defaults: ~1 s natively with 4 ranks on a 2-core box. With MPICH (ch4:ucx) on 2
 * oversubscribed cores this loop mostly runs at ~15 us per round but sometimes stalls for
 * seconds with every rank polling (messages sent but not yet seen by MPI_Iprobe): runs of the
 * same size vary by 10x or more, hence a smaller default. */
#ifdef OPEN_MPI
#define DEFAULT_ITERS 60000L
#else
#define DEFAULT_ITERS 20000L
#endif

enum { TAG_IB = 3 };

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
          int flag = 0;
          for (;;) {
            BENCH_CALL(&bc, MPI_Iprobe(MPI_ANY_SOURCE, TAG_IB, MPI_COMM_WORLD, &flag, &st));
            bc.nd_events++;
            if (flag) break;
            sched_yield();
          }
          long in;
          BENCH_CALL(&bc, MPI_Recv(&in, 1, MPI_LONG, st.MPI_SOURCE, TAG_IB, MPI_COMM_WORLD, &st));
        }
      } else {
        payload++;
        BENCH_CALL(&bc, MPI_Send(&payload, 1, MPI_LONG, j, TAG_IB, MPI_COMM_WORLD));
      }
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const double seconds = MPI_Wtime() - t0;
  bench_report("iprobe_bench", iters, seconds, &bc, NULL);
  MPI_Finalize();
  return 0;
}
