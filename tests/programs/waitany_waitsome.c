/* waitany_waitsome: completion order of receives from every other rank.
 * Nondeterminism: the index MPI_Waitany returns, and the outcount and index set MPI_Waitsome
 * returns, when the senders race.
 * Every round starts with a barrier; rank 0 posts one MPI_Irecv per other rank (specific
 * source, tag = round) while the others do staggered busy work and send. The first half of the
 * rounds complete with MPI_Waitany (digest the index order), the second half with MPI_Waitsome
 * (digest every outcount and index set). argv[1]: number of rounds (default 30). */
#include "common.h"

/* ~0.8 to ~2 ms: rank 0 is usually already waiting when the first message comes (even when
 * every MPI call is slowed down by a few hundred us), and neighbouring senders' staggers are
 * sometimes far apart, sometimes close */
static uint32_t stagger(int round, int rank) { return 600000 + mix32((uint32_t)round, (uint32_t)rank) % 900000; }

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 2);
  const int rounds = arg_rounds(argc, argv, 30);
  const int n = size - 1;
  digest_t d;
  digest_init(&d);
  MPI_Request *reqs = malloc(sizeof(MPI_Request) * (size_t)n);
  MPI_Status *sts = malloc(sizeof(MPI_Status) * (size_t)n);
  int *idx = malloc(sizeof(int) * (size_t)n);
  int (*buf)[2] = malloc(sizeof(int[2]) * (size_t)n);
  if (!reqs || !sts || !idx || !buf) fail("out of memory");

  for (int round = 0; round < rounds; round++) {
    const int use_waitsome = round >= rounds / 2;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank != 0) {
      (void)busy_work(stagger(round, rank));
      int msg[2] = {rank, round * 100 + rank};
      MPI_Send(msg, 2, MPI_INT, 0, round, MPI_COMM_WORLD);
      continue;
    }
    for (int i = 0; i < n; i++) MPI_Irecv(buf[i], 2, MPI_INT, i + 1, round, MPI_COMM_WORLD, &reqs[i]);
    int completed = 0;
    while (completed < n) {
      if (!use_waitsome) {
        int index;
        MPI_Status st;
        MPI_Waitany(n, reqs, &index, &st);
        if (index == MPI_UNDEFINED || st.MPI_SOURCE != index + 1) fail("Waitany gave index %d", index);
        digest_int(&d, index);
        completed++;
      } else {
        int outcount;
        MPI_Waitsome(n, reqs, &outcount, idx, sts);
        if (outcount == MPI_UNDEFINED || outcount < 1) fail("Waitsome gave outcount %d", outcount);
        digest_int(&d, outcount);
        for (int k = 0; k < outcount; k++) {
          if (sts[k].MPI_SOURCE != idx[k] + 1) fail("Waitsome index %d from %d", idx[k], sts[k].MPI_SOURCE);
          digest_int(&d, idx[k]);
        }
        completed += outcount;
      }
    }
    for (int i = 0; i < n; i++)
      if (buf[i][0] != i + 1 || buf[i][1] != round * 100 + i + 1) fail("round %d: bad payload from %d", round, i + 1);
  }
  free(reqs);
  free(sts);
  free(idx);
  free(buf);
  return digest_finish(&d);
}
