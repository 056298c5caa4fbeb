/* line: intersections of 1000 random line segments (Table 1's "line": compute-bound, very low
 * message traffic, no wildcards, no races).
 *
 * Every rank generates the same segments (mix32; endpoints in the unit square, lengths up to
 * ~0.14) and tests a static share of the pairs: segment i against every j > i for i = rank,
 * rank+p, ... It counts the proper intersections and sums their coordinates. Each rank repeats
 * this for `sets` different segment sets; at the end every worker sends its per-set results to
 * rank 0 in one message, which rank 0 receives from each worker by name (MPI_Recv(w)), so a run
 * sends exactly p-1 messages.
 *
 * Verification: after the timed phase rank 0 recomputes sets 0, sets/2 and sets-1 sequentially:
 * the counts must be equal, the coordinate sums within 1e-9 relative.
 *
 * One iteration = one segment set. argv[1]: sets (400), argv[2]: segments per set (1000). Needs 1+
 * ranks. */
#include "table1.h"

#define DEFAULT_SETS 400L
#define DEFAULT_NSEG 1000L

enum { TAG_RESULT = 1 };

typedef struct {
  double x1, y1, x2, y2;
} seg_t;

static void make_segments(seg_t *s, long n, long set) {
  const uint32_t seed = 0x11e5u + (uint32_t)set;
  for (long i = 0; i < n; i++) {
    const uint32_t b = (uint32_t)(4 * i);
    s[i].x1 = 0.5 + 0.5 * t1_rand(seed, b);
    s[i].y1 = 0.5 + 0.5 * t1_rand(seed, b + 1);
    s[i].x2 = s[i].x1 + 0.1 * t1_rand(seed, b + 2);
    s[i].y2 = s[i].y1 + 0.1 * t1_rand(seed, b + 3);
  }
}

static double orient(double ax, double ay, double bx, double by, double cx, double cy) {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

/* Counts the proper intersections of segment i with the segments j > i; adds x + y of each
 * intersection point to *sum. */
static long intersect_row(const seg_t *s, long n, long i, double *sum) {
  const seg_t p = s[i];
  long count = 0;
  for (long j = i + 1; j < n; j++) {
    const seg_t q = s[j];
    const double o1 = orient(p.x1, p.y1, p.x2, p.y2, q.x1, q.y1);
    const double o2 = orient(p.x1, p.y1, p.x2, p.y2, q.x2, q.y2);
    if ((o1 > 0) == (o2 > 0) || o1 == 0 || o2 == 0) continue;
    const double o3 = orient(q.x1, q.y1, q.x2, q.y2, p.x1, p.y1);
    const double o4 = orient(q.x1, q.y1, q.x2, q.y2, p.x2, p.y2);
    if ((o3 > 0) == (o4 > 0) || o3 == 0 || o4 == 0) continue;
    const double t = o3 / (o3 - o4);
    *sum += p.x1 + t * (p.x2 - p.x1) + p.y1 + t * (p.y2 - p.y1);
    count++;
  }
  return count;
}

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 1);
  const long sets = t1_arg(argc, argv, 1, DEFAULT_SETS);
  const long n = t1_arg(argc, argv, 2, DEFAULT_NSEG);
  seg_t *s = t1_alloc(sizeof(seg_t) * (size_t)n);
  double *mine = t1_alloc(sizeof(double) * (size_t)(2 * sets)); /* per set: count, sum */
  double *all = rank == 0 ? t1_alloc(sizeof(double) * (size_t)(2 * sets)) : NULL;
  double *in = rank == 0 ? t1_alloc(sizeof(double) * (size_t)(2 * sets)) : NULL;
  t1_t t = {{0, 0}, 0};

  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (long set = 0; set < sets; set++) {
    make_segments(s, n, set);
    long count = 0;
    double sum = 0.0;
    for (long i = rank; i < n; i += size) count += intersect_row(s, n, i, &sum);
    mine[2 * set] = (double)count;
    mine[2 * set + 1] = sum;
  }
  if (rank != 0) {
    t1_send(&t, mine, (int)(2 * sets), MPI_DOUBLE, 0, TAG_RESULT);
  } else {
    memcpy(all, mine, sizeof(double) * (size_t)(2 * sets));
    for (int w = 1; w < size; w++) {
      MPI_Status st;
      t1_recv(&t, in, (int)(2 * sets), MPI_DOUBLE, w, TAG_RESULT, &st);
      for (long k = 0; k < 2 * sets; k++) all[k] += in[k];
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const double seconds = MPI_Wtime() - t0;

  if (rank == 0) {
    const long check[3] = {0, sets / 2, sets - 1};
    for (int c = 0; c < 3; c++) {
      const long set = check[c];
      long count = 0;
      double sum = 0.0;
      make_segments(s, n, set);
      for (long i = 0; i < n; i++) count += intersect_row(s, n, i, &sum);
      if ((double)count != all[2 * set] || !(fabs(sum - all[2 * set + 1]) <= 1e-9 * fabs(sum)))
        fail("line: set %ld: parallel %.0f intersections (sum %.17g), sequential %ld (sum %.17g)", set, all[2 * set],
             all[2 * set + 1], count, sum);
    }
  }
  t1_report("line", sets, seconds, &t);
  free(s);
  free(mine);
  free(all);
  free(in);
  MPI_Finalize();
  return 0;
}
