/* pingpong: benchmark of the deterministic fast path (no nondeterminism at all).
 * Ranks 0 and 1 bounce an 8-byte message with MPI_Send/MPI_Recv naming the source, so every
 * event is deterministic: it measures what interception costs per message when there is nothing
 * to record. Other ranks (if any) only join the barriers. Prints the common bench line plus
 * `ns_per_msg <x>` (timed loop / 2 messages per iteration). argv[1]: round trips; argv[2]
 * (optional): the message's size in bytes instead, sent as MPI_BYTE (1 to 4096), to measure
 * what a larger message costs natively, such as the 32 bytes of races mode's header slot
 * (docs/piggyback.md, "the wire's floor"). */
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
  static unsigned char bytes[4096]; /* argv[2]: a message of this many bytes instead */
  const int nbytes = argc > 2 ? atoi(argv[2]) : 0;
  if (argc > 2 && (nbytes < 1 || nbytes > (int)sizeof bytes)) fail("message size %s: not 1 to 4096 bytes", argv[2]);
  void *buf = nbytes ? (void *)bytes : (void *)&msg;
  const int count = nbytes ? nbytes : 1;
  const MPI_Datatype type = nbytes ? MPI_BYTE : MPI_DOUBLE;

  /* warm-up, not timed or counted */
  for (int i = 0; i < 100 && rank < 2; i++) {
    if (rank == 0) {
      MPI_Send(buf, count, type, peer, TAG_PING, MPI_COMM_WORLD);
      MPI_Recv(buf, count, type, peer, TAG_PING, MPI_COMM_WORLD, &st);
    } else {
      MPI_Recv(buf, count, type, peer, TAG_PING, MPI_COMM_WORLD, &st);
      MPI_Send(buf, count, type, peer, TAG_PING, MPI_COMM_WORLD);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  if (rank == 0) {
    for (long i = 0; i < iters; i++) {
      msg += 1.0;
      if (nbytes) bytes[0]++;
      BENCH_CALL(&bc, MPI_Send(buf, count, type, peer, TAG_PING, MPI_COMM_WORLD));
      BENCH_CALL(&bc, MPI_Recv(buf, count, type, peer, TAG_PING, MPI_COMM_WORLD, &st));
    }
  } else if (rank == 1) {
    for (long i = 0; i < iters; i++) {
      BENCH_CALL(&bc, MPI_Recv(buf, count, type, peer, TAG_PING, MPI_COMM_WORLD, &st));
      BENCH_CALL(&bc, MPI_Send(buf, count, type, peer, TAG_PING, MPI_COMM_WORLD));
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const double seconds = MPI_Wtime() - t0;
  if (rank == 0 && !nbytes && msg != (double)iters) fail("ping-pong payload %g after %ld iterations", msg, iters);
  if (rank == 0 && nbytes && bytes[0] != (unsigned char)iters)
    fail("ping-pong payload byte %u after %ld iterations, not %u", bytes[0], iters, (unsigned char)iters);
  char extra[64];
  snprintf(extra, sizeof extra, "ns_per_msg %.1f", seconds * 1e9 / (2.0 * (double)iters));
  bench_report("pingpong", iters, seconds, &bc, extra);
  MPI_Finalize();
  return 0;
}
