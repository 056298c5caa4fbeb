/* deterministic: a control program with NO nondeterminism at all.
 * Every receive names its source and tag, every completion waits for all requests, and nothing
 * observed depends on timing, so its digest is the same on every run (for a given rank count):
 * a control for the test harness. It passes a token around a ring (MPI_Send/MPI_Recv with
 * specific sources), runs collectives (Bcast, Allreduce, Gather, Alltoall, Scan) and a halo
 * exchange with MPI_Isend/MPI_Irecv + MPI_Waitall. argv[1]: number of rounds (default 6). */
#include "common.h"

enum { TAG_RING = 71, TAG_HALO = 72, HALO = 8 };

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 2);
  const int rounds = arg_rounds(argc, argv, 6);
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  digest_t d;
  digest_init(&d);
  int *all = malloc(sizeof(int) * (size_t)size);
  int *a2a_out = malloc(sizeof(int) * (size_t)size);
  int *a2a_in = malloc(sizeof(int) * (size_t)size);
  if (!all || !a2a_out || !a2a_in) fail("out of memory");
  int cells[HALO + 2];
  for (int i = 0; i < HALO + 2; i++) cells[i] = rank * 100 + i;

  for (int round = 0; round < rounds; round++) {
    /* ring: rank 0 starts a token, every rank adds to it and passes it on */
    int token = round;
    MPI_Status st;
    if (rank == 0) {
      MPI_Send(&token, 1, MPI_INT, right, TAG_RING, MPI_COMM_WORLD);
      MPI_Recv(&token, 1, MPI_INT, left, TAG_RING, MPI_COMM_WORLD, &st);
    } else {
      MPI_Recv(&token, 1, MPI_INT, left, TAG_RING, MPI_COMM_WORLD, &st);
      token = token * 3 + rank;
      MPI_Send(&token, 1, MPI_INT, right, TAG_RING, MPI_COMM_WORLD);
    }
    digest_status(&d, &st, MPI_INT);
    digest_int(&d, token);

    /* collectives */
    int seed = rank == round % size ? token : 0;
    MPI_Bcast(&seed, 1, MPI_INT, round % size, MPI_COMM_WORLD);
    int mine = (rank + 1) * (round + 1) + seed % 97, sum = 0, prefix = 0;
    MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Scan(&mine, &prefix, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Gather(&mine, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
    for (int i = 0; i < size; i++) a2a_out[i] = rank * 1000 + i * 10 + round;
    MPI_Alltoall(a2a_out, 1, MPI_INT, a2a_in, 1, MPI_INT, MPI_COMM_WORLD);
    digest_int(&d, seed);
    digest_int(&d, sum);
    digest_int(&d, prefix);
    if (rank == 0) digest_ints(&d, all, size);
    digest_ints(&d, a2a_in, size);

    /* halo exchange: Isend/Irecv with specific sources, completed with Waitall */
    MPI_Request reqs[4];
    MPI_Status sts[4];
    MPI_Irecv(&cells[0], 1, MPI_INT, left, TAG_HALO, MPI_COMM_WORLD, &reqs[0]);
    MPI_Irecv(&cells[HALO + 1], 1, MPI_INT, right, TAG_HALO + 1, MPI_COMM_WORLD, &reqs[1]);
    MPI_Isend(&cells[HALO], 1, MPI_INT, right, TAG_HALO, MPI_COMM_WORLD, &reqs[2]);
    MPI_Isend(&cells[1], 1, MPI_INT, left, TAG_HALO + 1, MPI_COMM_WORLD, &reqs[3]);
    MPI_Waitall(4, reqs, sts);
    digest_status(&d, &sts[0], MPI_INT);
    digest_status(&d, &sts[1], MPI_INT);
    int next[HALO + 2];
    for (int i = 1; i <= HALO; i++) next[i] = (cells[i - 1] + 2 * cells[i] + cells[i + 1]) % 100003;
    for (int i = 1; i <= HALO; i++) cells[i] = next[i];
    digest_ints(&d, cells, HALO + 2);
  }
  free(all);
  free(a2a_out);
  free(a2a_in);
  return digest_finish(&d);
}
