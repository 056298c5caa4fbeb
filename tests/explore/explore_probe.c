/* explore_probe: a crash behind a wildcard probe's choice native runs never make, for mpirr
 * explore and replay --flip (issue 34). After a barrier, rank 1 sends one message to rank 0,
 * then passes a token to rank 2, which sends one then (so natively rank 1's message is there
 * first, however loaded the machine; rank 2's send still does not depend on anything rank 0
 * does), and rank 0 finds the first with a wildcard-source
 * probe of the kind argv[1] names (probe, iprobe: polled, mprobe, improbe: polled), then
 * receives each message naming its source (the probed one first): no receive is a wildcard,
 * only the probe races. Natively the probe sees rank 1's message, every time; if it sees rank
 * 2's, rank 0 writes through a NULL pointer (SIGSEGV). argv[2] == "safe": no crash. */
#include "../programs/common.h" /* first: it sets _POSIX_C_SOURCE (nanosleep) */

#include <string.h>
#include <time.h>

enum { TAG = 9, TAG_TOKEN = 10 };

static void pause_ms(long ms)
{
  /* a sleep, not a clock read: nothing the replay would have to reproduce */
  struct timespec ts = {0, ms * 1000000L};
  while (nanosleep(&ts, &ts) != 0)
    ;
}

/* The source of the first message the probe of this kind finds; a matched probe (mprobe,
 * improbe) receives it into *got. */
static int probe_first(const char *kind, int *got)
{
  MPI_Status st;
  MPI_Message msg;
  int flag = 0;
  if (strcmp(kind, "probe") == 0) {
    MPI_Probe(MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &st);
  } else if (strcmp(kind, "iprobe") == 0) {
    while (MPI_Iprobe(MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &flag, &st), !flag) pause_ms(1);
  } else if (strcmp(kind, "mprobe") == 0) {
    MPI_Mprobe(MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &msg, &st);
    MPI_Mrecv(got, 1, MPI_INT, &msg, MPI_STATUS_IGNORE);
  } else if (strcmp(kind, "improbe") == 0) {
    while (MPI_Improbe(MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &flag, &msg, &st), !flag) pause_ms(1);
    MPI_Mrecv(got, 1, MPI_INT, &msg, MPI_STATUS_IGNORE);
  } else {
    fail("unknown probe kind '%s' (probe, iprobe, mprobe, improbe)", kind);
  }
  return st.MPI_SOURCE;
}

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 3);
  const char *kind = argc > 1 ? argv[1] : "probe";
  const int safe = argc > 2 && strcmp(argv[2], "safe") == 0;
  const int matched = strcmp(kind, "mprobe") == 0 || strcmp(kind, "improbe") == 0;
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1 || rank == 2) {
    int token = 0;
    if (rank == 2) MPI_Recv(&token, 1, MPI_INT, 1, TAG_TOKEN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&rank, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD);
    if (rank == 1) MPI_Send(&token, 1, MPI_INT, 2, TAG_TOKEN, MPI_COMM_WORLD);
  } else if (rank == 0) {
    int got[2] = {-1, -1};
    int first = probe_first(kind, &got[0]);
    if (first != 1 && first != 2) fail("probe saw source %d", first);
    if (!matched) MPI_Recv(&got[0], 1, MPI_INT, first, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&got[1], 1, MPI_INT, 3 - first, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (got[0] != first || got[1] != 3 - first) fail("got %d %d after probing %d", got[0], got[1], first);
    printf("%s first %d\n", kind, first);
    fflush(stdout);
    if (!safe && first == 2) {
      volatile int *volatile null_ptr = NULL;
      *null_ptr = 42; /* the bug: only the probe seeing rank 2's message first reaches it */
    }
  }
  MPI_Finalize();
  return 0;
}
