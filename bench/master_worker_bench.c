/* master_worker_bench: a task farm with many small tasks, master polling with MPI_Testsome.
 * Nondeterminism: MPI_Testsome outcomes (empty polls, which workers finished together).
 * Rank 0 keeps one MPI_Irecv per worker and polls them with MPI_Testsome (yielding the core
 * after an empty poll), giving each finished worker its next task; workers MPI_Recv a task, do
 * a little work and MPI_Send the result. One iteration = one task. nd_events = Testsome calls
 * (each an observed outcome). argv[1]: tasks. Meant for 4 ranks. */
#include "common.h"

/* defaults: ~1 s natively with 4 ranks on a 2-core box. MPICH (ch4:ucx) is slower here on 2
 * oversubscribed cores (workers block in MPI_Recv without yielding), hence a smaller default. */
#ifdef OPEN_MPI
#define DEFAULT_ITERS 200000L
#else
#define DEFAULT_ITERS 120000L
#endif

enum { TAG_TASK = 1, TAG_STOP = 2, TAG_RESULT = 3, TASK_WORK = 2000 };

/* Gives worker w (rank w+1) the next task and posts the receive of its result, or stops it. */
static void dispatch(bench_counts_t *bc, int w, long *next, long ntasks, long task[2],
                     long result[2], MPI_Request *req) {
  if (*next < ntasks) {
    task[0] = (*next)++;
    BENCH_CALL(bc, MPI_Send(task, 2, MPI_LONG, w + 1, TAG_TASK, MPI_COMM_WORLD));
    BENCH_CALL(bc, MPI_Irecv(result, 2, MPI_LONG, w + 1, TAG_RESULT, MPI_COMM_WORLD, req));
  } else {
    BENCH_CALL(bc, MPI_Send(task, 2, MPI_LONG, w + 1, TAG_STOP, MPI_COMM_WORLD));
  }
}

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 2);
  const long ntasks = bench_iters(argc, argv, DEFAULT_ITERS);
  const int workers = size - 1;
  bench_counts_t bc = {0, 0};

  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  if (rank != 0) {
    for (;;) {
      long task[2];
      MPI_Status st;
      BENCH_CALL(&bc, MPI_Recv(task, 2, MPI_LONG, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
      if (st.MPI_TAG == TAG_STOP) break;
      task[1] = (long)(busy_work(TASK_WORK) & 0xffff);
      BENCH_CALL(&bc, MPI_Send(task, 2, MPI_LONG, 0, TAG_RESULT, MPI_COMM_WORLD));
    }
  } else {
    MPI_Request *reqs = malloc(sizeof(MPI_Request) * (size_t)workers);
    MPI_Status *sts = malloc(sizeof(MPI_Status) * (size_t)workers);
    int *idx = malloc(sizeof(int) * (size_t)workers);
    long (*res)[2] = malloc(sizeof(long[2]) * (size_t)workers);
    if (!reqs || !sts || !idx || !res) fail("out of memory");
    long next = 0, done = 0, task[2] = {0, 0};
    for (int w = 0; w < workers; w++) {
      reqs[w] = MPI_REQUEST_NULL;
      dispatch(&bc, w, &next, ntasks, task, res[w], &reqs[w]);
    }
    while (done < ntasks) {
      int outcount = 0;
      BENCH_CALL(&bc, MPI_Testsome(workers, reqs, &outcount, idx, sts));
      bc.nd_events++;
      if (outcount == MPI_UNDEFINED) fail("Testsome: nothing active");
      if (outcount == 0) {
        sched_yield();
        continue;
      }
      for (int i = 0; i < outcount; i++) {
        const int w = idx[i];
        done++;
        dispatch(&bc, w, &next, ntasks, task, res[w], &reqs[w]);
      }
    }
    free(reqs);
    free(sts);
    free(idx);
    free(res);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const double seconds = MPI_Wtime() - t0;
  bench_report("master_worker_bench", ntasks, seconds, &bc, NULL);
  MPI_Finalize();
  return 0;
}
