/* master_worker: a task farm whose master polls with MPI_Testsome.
 * Nondeterminism: which workers' results MPI_Testsome reports together (outcount, indices),
 * how many Testsome calls find nothing, and therefore which worker gets which task.
 * Rank 0 keeps one MPI_Irecv per worker (specific source) and polls them with MPI_Testsome
 * (doing a little work of its own between polls),
 * hands the next task to every worker that finished and reposts its receive; at the end it
 * sends each worker a termination message. Workers MPI_Recv a task (ANY_TAG: task or stop),
 * do busy work that depends on the task id and their rank, and MPI_Send the result.
 * argv[1]: number of tasks (default 16 per worker, at least 60). */
#include "common.h"

enum { TAG_TASK = 1, TAG_STOP = 2, TAG_RESULT = 3 };

/* mostly 10-500 us, but one task in 6 takes 3-6 ms: longer than a scheduler time slice, so the
 * master also sees workers finish one by one on oversubscribed cores */
static uint32_t task_cost(int task, int worker) {
  const uint32_t h = mix32((uint32_t)task, (uint32_t)worker);
  return h % 6 == 0 ? 2000000 + h % 2500000 : 8000 + h % 400000;
}
static int task_result(int task, int worker) { return (int)(mix32((uint32_t)task * 31u, (uint32_t)worker) % 100000); }

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 2);
  const int workers = size - 1;
  int dflt = 16 * workers;
  if (dflt < 60) dflt = 60;
  const int ntasks = arg_rounds(argc, argv, dflt);
  digest_t d;
  digest_init(&d);

  if (rank != 0) {
    for (;;) {
      int task;
      MPI_Status st;
      MPI_Recv(&task, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
      if (st.MPI_TAG == TAG_STOP) break;
      digest_int(&d, task); /* which tasks this worker got is an outcome of the master's races */
      (void)busy_work(task_cost(task, rank));
      int res[2] = {task, task_result(task, rank)};
      MPI_Send(res, 2, MPI_INT, 0, TAG_RESULT, MPI_COMM_WORLD);
    }
    return digest_finish(&d);
  }

  MPI_Request *reqs = malloc(sizeof(MPI_Request) * (size_t)workers);
  MPI_Status *sts = malloc(sizeof(MPI_Status) * (size_t)workers);
  int *idx = malloc(sizeof(int) * (size_t)workers);
  int (*res)[2] = malloc(sizeof(int[2]) * (size_t)workers);
  int *busy_with = malloc(sizeof(int) * (size_t)workers);
  if (!reqs || !sts || !idx || !res || !busy_with) fail("out of memory");

  int next = 0, done = 0;
  for (int w = 0; w < workers; w++) {
    reqs[w] = MPI_REQUEST_NULL;
    busy_with[w] = -1;
    if (next < ntasks) {
      MPI_Send(&next, 1, MPI_INT, w + 1, TAG_TASK, MPI_COMM_WORLD);
      busy_with[w] = next++;
      MPI_Irecv(res[w], 2, MPI_INT, w + 1, TAG_RESULT, MPI_COMM_WORLD, &reqs[w]);
    } else {
      MPI_Send(&next, 0, MPI_INT, w + 1, TAG_STOP, MPI_COMM_WORLD);
    }
  }
  int empty_polls = 0;
  while (done < ntasks) {
    int outcount = 0;
    MPI_Testsome(workers, reqs, &outcount, idx, sts);
    if (outcount == MPI_UNDEFINED) fail("Testsome found no active request with %d tasks open", ntasks - done);
    if (outcount == 0) {
      empty_polls++;
      (void)busy_work(15000); /* the master does some work of its own between polls */
      continue;
    }
    digest_int(&d, empty_polls);
    digest_int(&d, outcount);
    empty_polls = 0;
    for (int i = 0; i < outcount; i++) {
      const int w = idx[i];
      if (w < 0 || w >= workers || sts[i].MPI_SOURCE != w + 1) fail("bad Testsome index %d", w);
      if (res[w][0] != busy_with[w] || res[w][1] != task_result(res[w][0], w + 1))
        fail("worker %d returned (%d,%d) for task %d", w + 1, res[w][0], res[w][1], busy_with[w]);
      digest_int(&d, w);
      digest_ints(&d, res[w], 2);
      (void)busy_work(mix32((uint32_t)res[w][1], 17u) % 50000); /* "processing" the result */
      done++;
      if (next < ntasks) {
        MPI_Send(&next, 1, MPI_INT, w + 1, TAG_TASK, MPI_COMM_WORLD);
        busy_with[w] = next++;
        MPI_Irecv(res[w], 2, MPI_INT, w + 1, TAG_RESULT, MPI_COMM_WORLD, &reqs[w]);
      } else {
        busy_with[w] = -1;
        MPI_Send(&next, 0, MPI_INT, w + 1, TAG_STOP, MPI_COMM_WORLD);
      }
    }
  }
  free(reqs);
  free(sts);
  free(idx);
  free(res);
  free(busy_with);
  return digest_finish(&d);
}
