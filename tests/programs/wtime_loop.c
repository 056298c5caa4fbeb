/* wtime_loop: control flow driven by MPI_Wtime.
 * Nondeterminism: how many iterations of a work + MPI_Iprobe loop fit before MPI_Wtime() passes
 * a deadline, the Wtime deltas themselves, and at which iteration a neighbour's message is seen.
 * Per round, every rank loops until MPI_Wtime() passes t0 + a few milliseconds: each iteration
 * does a little work and MPI_Iprobe(ANY_SOURCE, tag = round); at iteration 2 it sends its message
 * to the right neighbour; a found message is received at once. A message not seen by the
 * deadline is received after the loop. The iteration counts are then combined with
 * MPI_Allreduce (sum and max). Digested: iteration counts, the iteration where the message was
 * seen, the Allreduce results and the elapsed Wtime in whole microseconds.
 * argv[1]: number of rounds (default 4). */
#include "common.h"

#include <math.h>

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 2);
  const int rounds = arg_rounds(argc, argv, 4);
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  digest_t d;
  digest_init(&d);

  for (int round = 0; round < rounds; round++) {
    const double budget = 0.002 + 0.0005 * ((rank + round) % 3); /* 2 to 3 ms */
    const double t0 = MPI_Wtime();
    double now = t0;
    long iters = 0, seen_at = -1;
    int sent = 0, msg[2] = {-1, -1};
    while (now - t0 < budget) {
      (void)busy_work(25000 + (uint64_t)(iters % 7) * 3000);
      if (iters == 2) {
        int out[2] = {rank, round};
        MPI_Send(out, 2, MPI_INT, right, round, MPI_COMM_WORLD);
        sent = 1;
      }
      if (seen_at < 0) {
        int flag = 0;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, round, MPI_COMM_WORLD, &flag, &st);
        if (flag) {
          MPI_Recv(msg, 2, MPI_INT, st.MPI_SOURCE, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          seen_at = iters;
        }
      }
      iters++;
      now = MPI_Wtime();
    }
    if (!sent) {
      int out[2] = {rank, round};
      MPI_Send(out, 2, MPI_INT, right, round, MPI_COMM_WORLD);
    }
    if (seen_at < 0) MPI_Recv(msg, 2, MPI_INT, MPI_ANY_SOURCE, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (msg[0] != left || msg[1] != round) fail("round %d: message (%d,%d)", round, msg[0], msg[1]);
    long in = iters, total = 0, most = 0;
    MPI_Allreduce(&in, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&in, &most, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
    if (total < in || most < in) fail("Allreduce of iteration counts");
    digest_u64(&d, (uint64_t)iters);
    digest_u64(&d, (uint64_t)(seen_at + 1));
    digest_u64(&d, (uint64_t)total);
    digest_u64(&d, (uint64_t)most);
    digest_u64(&d, (uint64_t)llround((now - t0) * 1e6));
  }
  return digest_finish(&d);
}
