/* explore_waitany: a crash behind the request a Waitany-family call returns, which native runs
 * never return first, for mpirr explore and replay --flip R:E=req:P (issue 34). Rank 0 posts
 * receives from rank 1 and rank 2, each naming its source (no wildcard: no message race); rank
 * 1 sends first, then passes a token to rank 2, which sends only then (so natively rank 1's
 * message is there first, however loaded the machine; rank 2's send still does not depend on
 * anything rank 0 does after posting), and rank 0 completes them with two calls of
 * the kind argv[1] names (waitany, testany: polled, waitsome, testsome: polled); natively the
 * first returns rank 1's. If it returns rank 2's alone, rank 0 writes through a NULL pointer
 * (SIGSEGV). A third receive, from rank 1, gets a message rank 1 sends only after rank 0's
 * "go", sent after both calls: its request cannot complete at the first call (a flip that
 * asks for it is refused). argv[2] == "safe": no crash.
 * argv[1] == "sendany": the requests are sends instead (sendany_main): rank 0 sends a message
 * too large to go eagerly to rank 1 and to rank 2 with MPI_Isend and completes them with
 * MPI_Waitany; rank 2 posts its receive only after rank 1 passes it a token, once rank 1 has
 * its message, so natively the send to rank 1 completes first. If the Waitany returns the
 * send to rank 2, rank 0 writes through a NULL pointer. */
#include "../programs/common.h" /* first: it sets _POSIX_C_SOURCE (nanosleep) */

#include <string.h>
#include <time.h>

enum { TAG_ONE = 1, TAG_TWO = 2, TAG_GO = 3, TAG_LATE = 4, TAG_TOKEN = 5 };

static void pause_ms(long ms)
{
  /* a sleep, not a clock read: nothing the replay would have to reproduce */
  struct timespec ts = {0, ms * 1000000L};
  while (nanosleep(&ts, &ts) != 0)
    ;
}

/* One call of this kind on reqs[0..1]: the indices it completed into done[] (how many). */
static int complete_some(const char *kind, MPI_Request reqs[2], int done[2])
{
  int flag = 0, n = 0, idx = MPI_UNDEFINED;
  MPI_Status sts[2];
  if (strcmp(kind, "waitany") == 0) {
    MPI_Waitany(2, reqs, &idx, MPI_STATUS_IGNORE);
  } else if (strcmp(kind, "testany") == 0) {
    while (MPI_Testany(2, reqs, &idx, &flag, MPI_STATUS_IGNORE), !flag) pause_ms(1);
  } else if (strcmp(kind, "waitsome") == 0) {
    MPI_Waitsome(2, reqs, &n, done, sts);
    return n;
  } else if (strcmp(kind, "testsome") == 0) {
    while (MPI_Testsome(2, reqs, &n, done, sts), n == 0) pause_ms(1);
    return n;
  } else {
    fail("unknown kind '%s' (waitany, testany, waitsome, testsome)", kind);
  }
  done[0] = idx;
  return 1;
}

static void crash(void)
{
  volatile int *volatile null_ptr = NULL;
  *null_ptr = 42; /* the bug: only the choice no native run makes reaches it */
}

enum { BIG = 1 << 16 }; /* ints: 256 KiB, above both MPIs' eager limits */

static void sendany_main(int rank, int safe)
{
  static int buf[2][BIG];
  int token = 0;
  if (rank == 0) {
    MPI_Request reqs[2];
    int idx = MPI_UNDEFINED;
    MPI_Isend(buf[0], BIG, MPI_INT, 1, TAG_ONE, MPI_COMM_WORLD, &reqs[0]);
    MPI_Isend(buf[1], BIG, MPI_INT, 2, TAG_TWO, MPI_COMM_WORLD, &reqs[1]);
    MPI_Waitany(2, reqs, &idx, MPI_STATUS_IGNORE);
    int second; /* a second Waitany: explore offers the requests a later call of its kind completed */
    MPI_Waitany(2, reqs, &second, MPI_STATUS_IGNORE);
    printf("sendany first %d\n", idx + 1);
    fflush(stdout);
    if (!safe && idx == 1) crash();
  } else if (rank == 1) {
    MPI_Recv(buf[0], BIG, MPI_INT, 0, TAG_ONE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&token, 1, MPI_INT, 2, TAG_TOKEN, MPI_COMM_WORLD);
  } else if (rank == 2) {
    MPI_Recv(&token, 1, MPI_INT, 1, TAG_TOKEN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(buf[1], BIG, MPI_INT, 0, TAG_TWO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 3);
  const char *kind = argc > 1 ? argv[1] : "waitany";
  const int safe = argc > 2 && strcmp(argv[2], "safe") == 0;
  if (strcmp(kind, "sendany") == 0) {
    sendany_main(rank, safe);
    MPI_Finalize();
    return 0;
  }
  int one = 0, two = 0, late = 0, go = 1;
  MPI_Request reqs[2], late_req;
  if (rank == 0) {
    MPI_Irecv(&one, 1, MPI_INT, 1, TAG_ONE, MPI_COMM_WORLD, &reqs[0]);
    MPI_Irecv(&two, 1, MPI_INT, 2, TAG_TWO, MPI_COMM_WORLD, &reqs[1]);
    MPI_Irecv(&late, 1, MPI_INT, 1, TAG_LATE, MPI_COMM_WORLD, &late_req);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1 || rank == 2) {
    int token = 0;
    if (rank == 2) MPI_Recv(&token, 1, MPI_INT, 1, TAG_TOKEN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&rank, 1, MPI_INT, 0, rank == 1 ? TAG_ONE : TAG_TWO, MPI_COMM_WORLD);
    if (rank == 1) {
      MPI_Send(&token, 1, MPI_INT, 2, TAG_TOKEN, MPI_COMM_WORLD);
      MPI_Recv(&go, 1, MPI_INT, 0, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(&rank, 1, MPI_INT, 0, TAG_LATE, MPI_COMM_WORLD);
    }
  } else if (rank == 0) {
    int done[2], first[2], n = complete_some(kind, reqs, first), total = n;
    while (total < 2) total += complete_some(kind, reqs, done);
    MPI_Send(&go, 1, MPI_INT, 1, TAG_GO, MPI_COMM_WORLD);
    MPI_Wait(&late_req, MPI_STATUS_IGNORE);
    if (one != 1 || two != 2 || late != 1) fail("got %d %d %d", one, two, late);
    /* rank 1's message is the first, alone or with rank 2's: what native runs see */
    const int second_first = n == 1 && first[0] == 1;
    printf("%s first %d\n", kind, second_first ? 2 : 1);
    fflush(stdout);
    if (!safe && second_first) crash(); /* only rank 2's request returned alone first */
  }
  MPI_Finalize();
  return 0;
}
