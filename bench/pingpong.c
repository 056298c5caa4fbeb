/* pingpong: benchmark of the deterministic fast path (no nondeterminism at all).
 * Ranks 0 and 1 bounce an 8-byte message with MPI_Send/MPI_Recv naming the source, so every
 * event is deterministic: it measures what interception costs per message when there is nothing
 * to record. Other ranks (if any) only join the barriers. Prints the common bench line plus
 * `ns_per_msg <x>` (timed loop / 2 messages per iteration). argv[1]: round trips. */
#include "common.h"

/* default: ~1 s natively on a 2-core box */
#define DEFAULT_ITERS 1500000L

enum { TAG_PING = 1 };

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 2);
  const long iters = bench_iters(argc, argv, DEFAULT_ITERS);
  bench_counts_t bc = {0, 0};
  double msg = 0.0; /* 8 bytes */
  const int peer = rank == 0 ? 1 : 0;
  MPI_Status st;

  /* warm-up, not timed or counted */
  for (int i = 0; i < 100 && rank < 2; i++) {
    if (rank == 0) {
      MPI_Send(&msg, 1, MPI_DOUBLE, peer, TAG_PING, MPI_COMM_WORLD);
      MPI_Recv(&msg, 1, MPI_DOUBLE, peer, TAG_PING, MPI_COMM_WORLD, &st);
    } else {
      MPI_Recv(&msg, 1, MPI_DOUBLE, peer, TAG_PING, MPI_COMM_WORLD, &st);
      MPI_Send(&msg, 1, MPI_DOUBLE, peer, TAG_PING, MPI_COMM_WORLD);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  if (rank == 0) {
    for (long i = 0; i < iters; i++) {
      msg += 1.0;
      BENCH_CALL(&bc, MPI_Send(&msg, 1, MPI_DOUBLE, peer, TAG_PING, MPI_COMM_WORLD));
      BENCH_CALL(&bc, MPI_Recv(&msg, 1, MPI_DOUBLE, peer, TAG_PING, MPI_COMM_WORLD, &st));
    }
  } else if (rank == 1) {
    for (long i = 0; i < iters; i++) {
      BENCH_CALL(&bc, MPI_Recv(&msg, 1, MPI_DOUBLE, peer, TAG_PING, MPI_COMM_WORLD, &st));
      BENCH_CALL(&bc, MPI_Send(&msg, 1, MPI_DOUBLE, peer, TAG_PING, MPI_COMM_WORLD));
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const double seconds = MPI_Wtime() - t0;
  if (rank == 0 && msg != (double)iters) fail("ping-pong payload %g after %ld iterations", msg, iters);
  char extra[64];
  snprintf(extra, sizeof extra, "ns_per_msg %.1f", seconds * 1e9 / (2.0 * (double)iters));
  bench_report("pingpong", iters, seconds, &bc, extra);
  MPI_Finalize();
  return 0;
}
