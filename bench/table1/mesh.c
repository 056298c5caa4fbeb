/* mesh: finite differences on a 300x300 grid (Jacobi sweeps for the Poisson equation
 * -laplace(u) = f on the unit square, u = x^2 - y^2 on the boundary), run as a first-come task
 * farm (Table 1's "mesh": internally nondeterministic by design, many racing messages).
 *
 * Rank 0 (the master) holds the grid. Every sweep is cut into 25x25 blocks (144 tasks). A worker
 * (ranks 1..p-1) sends the master the result of its last task (the new block and its largest
 * change; an empty "ready" the first time) and gets the next task back: a block of the current
 * grid with its one-point halo (27x27 values, under 6 KB, below both MPIs' eager limits). The
 * master takes the results with MPI_Recv(MPI_ANY_SOURCE), first come first served; workers who
 * ask when the sweep's tasks are all out wait until the sweep completes and are then served in
 * the order they asked. 2 x 144 messages per sweep at any number of ranks, plus p-1 "ready" and
 * p-1 "stop" messages.
 *
 * Nondeterminism: which worker computes which block, in which order the master takes the
 * results. Workers take the master's next message (a task, or the stop) with
 * MPI_Recv(0, MPI_ANY_TAG): a wildcard receive too, but with a single sender it never races.
 * Races: most results race with another worker's result. The grid itself is deterministic: after
 * the timed phase rank 0 runs the same sweeps sequentially and fails unless the final grid and
 * the last sweep's largest change are bitwise equal.
 *
 * One iteration = one sweep. argv[1]: sweeps (default: Open MPI 400, MPICH 60), argv[2]: grid
 * points per side (300), argv[3]: block side (25). Needs 2+ ranks. */
#include "table1.h"

/* Defaults: 0.3-1.5 s natively at 4 ranks on a 2-core machine. MPICH (ch4:ucx) ranks do not yield
 * the core while they wait in a blocking call: with 4 ranks on 2 cores each message of a chain
 * of dependent messages then costs a scheduler time slice (~1 ms), hence far smaller defaults. */
#ifdef OPEN_MPI
#define DEFAULT_SWEEPS 400L
#else
#define DEFAULT_SWEEPS 60L
#endif
#define DEFAULT_N 300L
#define DEFAULT_BLOCK 25L

enum { TAG_RESULT = 1, TAG_TASK = 2, TAG_STOP = 3 };

typedef struct {
  long n, side, b, nb, ntasks; /* interior points per side, side = n + 2, block, blocks per side */
} geom_t;

/* Rows [*i0, *i1) and columns [*j0, *j1) of task t (interior indices 1..n). */
static void task_box(const geom_t *g, long t, long *i0, long *i1, long *j0, long *j1) {
  *i0 = 1 + (t / g->nb) * g->b;
  *j0 = 1 + (t % g->nb) * g->b;
  *i1 = *i0 + g->b < g->n + 1 ? *i0 + g->b : g->n + 1;
  *j1 = *j0 + g->b < g->n + 1 ? *j0 + g->b : g->n + 1;
}

static double rhs(const geom_t *g, long i, long j) {
  const double h = 1.0 / (double)(g->n + 1);
  return h * h * (1.0 + 0.5 * t1_rand(0x3e5bu, (uint32_t)(i * g->side + j)));
}

static void init_grid(const geom_t *g, double *u) {
  for (long i = 0; i < g->side; i++)
    for (long j = 0; j < g->side; j++) {
      const double x = (double)i / (double)(g->n + 1), y = (double)j / (double)(g->n + 1);
      const int edge = i == 0 || j == 0 || i == g->side - 1 || j == g->side - 1;
      u[i * g->side + j] = edge ? x * x - y * y : 0.0;
    }
}

/* The Jacobi update of one point, the same expression for workers and the sequential check. */
static inline double jacobi(double n, double s, double w, double e, double hf) { return 0.25 * (n + s + w + e + hf); }

/* Sequential sweeps; returns the largest change of the last one. */
static double sweep_seq(const geom_t *g, const double *f, double *u, double *v, long sweeps, double **out) {
  double maxd = 0.0;
  const long s = g->side;
  for (long k = 0; k < sweeps; k++) {
    maxd = 0.0;
    for (long i = 1; i <= g->n; i++)
      for (long j = 1; j <= g->n; j++) {
        const double nv =
            jacobi(u[(i - 1) * s + j], u[(i + 1) * s + j], u[i * s + j - 1], u[i * s + j + 1], f[i * s + j]);
        const double d = fabs(nv - u[i * s + j]);
        if (d > maxd) maxd = d;
        v[i * s + j] = nv;
      }
    double *tmp = u;
    u = v;
    v = tmp;
  }
  *out = u;
  return maxd;
}

/* Sends worker w task *next of the current sweep (its block of u with the halo) and advances
 * *next. */
static void send_task(const geom_t *g, t1_t *t, const double *u, double *out, long *next, int w) {
  long i0, i1, j0, j1, m = 0;
  task_box(g, *next, &i0, &i1, &j0, &j1);
  out[m++] = (double)(*next)++;
  for (long i = i0 - 1; i <= i1; i++)
    for (long j = j0 - 1; j <= j1; j++) out[m++] = u[i * g->side + j];
  t1_send(t, out, (int)m, MPI_DOUBLE, w, TAG_TASK);
}

static void master(const geom_t *g, long sweeps, t1_t *t, int size, double **grid, double *last_maxd) {
  const long s = g->side;
  double *u = t1_alloc(sizeof(double) * (size_t)(s * s)), *v = t1_alloc(sizeof(double) * (size_t)(s * s));
  double *in = t1_alloc(sizeof(double) * (size_t)(2 + g->b * g->b));
  double *out = t1_alloc(sizeof(double) * (size_t)(1 + (g->b + 2) * (g->b + 2)));
  int *idle = t1_alloc(sizeof(int) * (size_t)size);
  int nidle = 0;
  long sweep = 0, next = 0, done = 0;
  double maxd = 0.0;
  init_grid(g, u);
  init_grid(g, v);

  while (sweep < sweeps) {
    MPI_Status st;
    t1_recv(t, in, (int)(2 + g->b * g->b), MPI_DOUBLE, MPI_ANY_SOURCE, TAG_RESULT, &st);
    const int w = st.MPI_SOURCE;
    const int cnt = status_count(&st, MPI_DOUBLE);
    if (cnt > 0) { /* a result: [task, largest change, block] */
      long i0, i1, j0, j1, m = 2;
      const long task = (long)in[0];
      if (task < 0 || task >= g->ntasks) fail("mesh: result for task %ld", task);
      task_box(g, task, &i0, &i1, &j0, &j1);
      if (cnt != 2 + (i1 - i0) * (j1 - j0)) fail("mesh: result of task %ld has %d values", task, cnt);
      for (long i = i0; i < i1; i++)
        for (long j = j0; j < j1; j++) v[i * s + j] = in[m++];
      if (in[1] > maxd) maxd = in[1];
      done++;
    }
    if (next < g->ntasks)
      send_task(g, t, u, out, &next, w);
    else
      idle[nidle++] = w;
    if (done == g->ntasks) { /* the sweep is complete */
      double *tmp = u;
      u = v;
      v = tmp;
      *last_maxd = maxd;
      maxd = 0.0;
      sweep++;
      next = done = 0;
      if (sweep < sweeps) {
        int k = 0;
        for (; k < nidle && next < g->ntasks; k++) send_task(g, t, u, out, &next, idle[k]);
        memmove(idle, idle + k, sizeof(int) * (size_t)(nidle - k));
        nidle -= k;
      }
    }
  }
  if (nidle != size - 1) fail("mesh: %d of %d workers idle at the end", nidle, size - 1);
  for (int k = 0; k < nidle; k++) t1_send(t, NULL, 0, MPI_DOUBLE, idle[k], TAG_STOP);
  free(v);
  free(in);
  free(out);
  free(idle);
  *grid = u;
}

static void worker(const geom_t *g, t1_t *t) {
  const long s = g->side;
  double *f = t1_alloc(sizeof(double) * (size_t)(s * s));
  double *in = t1_alloc(sizeof(double) * (size_t)(1 + (g->b + 2) * (g->b + 2)));
  double *out = t1_alloc(sizeof(double) * (size_t)(2 + g->b * g->b));
  for (long i = 0; i < s; i++)
    for (long j = 0; j < s; j++) f[i * s + j] = rhs(g, i, j);
  int m = 0; /* values in out: none for the first "ready" */
  for (;;) {
    MPI_Status st;
    t1_send(t, out, m, MPI_DOUBLE, 0, TAG_RESULT);
    t1_recv(t, in, (int)(1 + (g->b + 2) * (g->b + 2)), MPI_DOUBLE, 0, MPI_ANY_TAG, &st);
    if (st.MPI_TAG == TAG_STOP) break;
    long i0, i1, j0, j1;
    const long task = (long)in[0];
    if (st.MPI_TAG != TAG_TASK || task < 0 || task >= g->ntasks) fail("mesh: bad task message");
    task_box(g, task, &i0, &i1, &j0, &j1);
    const long w = j1 - j0 + 2; /* row length of the block with halo */
    const double *u = in + 1;   /* u[(i - i0 + 1) * w + (j - j0 + 1)] */
    double maxd = 0.0;
    m = 2;
    for (long i = i0; i < i1; i++)
      for (long j = j0; j < j1; j++) {
        const long c = (i - i0 + 1) * w + (j - j0 + 1);
        const double nv = jacobi(u[c - w], u[c + w], u[c - 1], u[c + 1], f[i * s + j]);
        const double d = fabs(nv - u[c]);
        if (d > maxd) maxd = d;
        out[m++] = nv;
      }
    out[0] = (double)task;
    out[1] = maxd;
  }
  free(f);
  free(in);
  free(out);
}

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 2);
  const long sweeps = t1_arg(argc, argv, 1, DEFAULT_SWEEPS);
  geom_t g;
  g.n = t1_arg(argc, argv, 2, DEFAULT_N);
  g.b = t1_arg(argc, argv, 3, DEFAULT_BLOCK);
  if (g.b > g.n) g.b = g.n;
  g.side = g.n + 2;
  g.nb = (g.n + g.b - 1) / g.b;
  g.ntasks = g.nb * g.nb;
  t1_t t = {{0, 0}, 0};
  double *grid = NULL, maxd = -1.0;

  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  if (rank == 0)
    master(&g, sweeps, &t, size, &grid, &maxd);
  else
    worker(&g, &t);
  MPI_Barrier(MPI_COMM_WORLD);
  const double seconds = MPI_Wtime() - t0;

  if (rank == 0) {
    const long s = g.side;
    double *f = t1_alloc(sizeof(double) * (size_t)(s * s));
    double *u = t1_alloc(sizeof(double) * (size_t)(s * s)), *v = t1_alloc(sizeof(double) * (size_t)(s * s));
    double *res;
    for (long i = 0; i < s; i++)
      for (long j = 0; j < s; j++) f[i * s + j] = rhs(&g, i, j);
    init_grid(&g, u);
    init_grid(&g, v);
    const double want = sweep_seq(&g, f, u, v, sweeps, &res);
    if (want != maxd) fail("mesh: last sweep's largest change %.17g, sequential %.17g", maxd, want);
    for (long k = 0; k < s * s; k++)
      if (res[k] != grid[k])
        fail("mesh: u[%ld][%ld] = %.17g after %ld sweeps, sequential %.17g", k / s, k % s, grid[k], sweeps, res[k]);
    free(f);
    free(u);
    free(v);
    free(grid);
  }
  t1_report("mesh", sweeps, seconds, &t);
  MPI_Finalize();
  return 0;
}
