/* sys: a trace-driven cache simulator run as a first-come task farm (Table 1's cache simulator,
 * "tycho" in the paper, whose own "sys" is the Gaussian elimination of gauss.c).
 *
 * Rank 0 (the master) holds a synthetic address trace, 10 MB like the paper's (2,621,440 32-bit
 * addresses; 640 KB by default with MPICH, see below): a mix of array sweeps, stack traffic,
 * strided matrix walks and random heap accesses, made with mix32. Ranks 1..p-1 (workers) each
 * simulate one cache configuration at a time (LRU, set-associative; 6 configurations: 8/32/128 KB
 * x 1/4 ways, 32-byte lines) over the whole trace. A worker's memory is small, so it fetches the
 * trace from the master one chunk at a time: every request (for a configuration, for the next
 * chunk) is a small message the master receives with MPI_Recv(MPI_ANY_SOURCE) and answers at once,
 * first come first served.
 *
 * Nondeterminism: which worker's request the master serves next, hence which worker simulates
 * which configuration. Workers take the answer to a job request (a configuration, or the stop)
 * with MPI_Recv(0, MPI_ANY_TAG): a wildcard receive too, but with a single sender it never races.
 * Races: nearly every request races with the other workers' requests (p >= 3). The results
 * (misses per configuration) are deterministic; after the timed phase rank 0 simulates every
 * configuration sequentially and fails on any difference.
 *
 * One iteration = one pass over all 6 configurations. argv[1]: passes (default: Open MPI 3, MPICH
 * 1), argv[2]: trace length in addresses (default: Open MPI 2621440, MPICH 163840), argv[3]:
 * addresses per chunk (1024). Needs 2+ ranks. */
#include "table1.h"

/* Defaults: 0.3-1.5 s natively at 4 ranks on a 2-core machine. MPICH (ch4:ucx) ranks do not yield
 * the core while they wait in a blocking call: with 4 ranks on 2 cores each message of a chain of
 * dependent messages then costs a scheduler time slice (~1 ms), hence far smaller defaults. MPICH
 * simulates a 640 KB trace by default. */
#ifdef OPEN_MPI
#define DEFAULT_PASSES 3L
#define DEFAULT_TRACE 2621440L /* 10 MB of 4-byte addresses */
#else
#define DEFAULT_PASSES 1L
#define DEFAULT_TRACE 163840L /* 640 KB */
#endif
/* 4 KB per reply: below the eager limit of both MPIs (MPICH's rendezvous costs milliseconds per
 * message with 4 ranks on 2 cores, its ranks do not yield the core while they wait) */
#define DEFAULT_CHUNK 1024L
#define LINE_BITS 5 /* 32-byte lines */

enum { TAG_REQ = 1, TAG_CONFIG = 2, TAG_CHUNK = 3, TAG_STOP = 4 };
enum { REQ_JOB = 0, REQ_CHUNK = 1 };

static const long CONFIG_BYTES[] = {8192, 32768, 131072};
static const int CONFIG_WAYS[] = {1, 4};
#define NWAYS 2
#define NCONFIGS 6

static uint32_t trace_addr(uint32_t i) {
  const uint32_t r = mix32(0x7c0de5u, i);
  const uint32_t k = r & 15u;
  if (k < 6) return 0x10000000u + ((i * 4u) & ((2u << 20) - 1));             /* sweep of a 2 MB array */
  if (k < 10) return 0x7ff00000u + ((r >> 4) & 1023u) * 4u;                  /* stack: 4 KB hot */
  if (k < 13) return 0x20000000u + (((i / 7u) * 520u) & ((256u << 10) - 1)); /* strided walk */
  return 0x30000000u + (((r >> 4) & ((4u << 20) - 1)) & ~3u);                /* random heap, 4 MB */
}

typedef struct {
  uint32_t sets, ways, set_mask, set_bits;
  uint32_t *tag; /* sets x ways, most recently used first; 0 = empty (tags are stored +1) */
  long long misses;
} cache_t;

static void cache_init(cache_t *c, int config) {
  const long bytes = CONFIG_BYTES[config / NWAYS];
  c->ways = (uint32_t)CONFIG_WAYS[config % NWAYS];
  c->sets = (uint32_t)(bytes >> LINE_BITS) / c->ways;
  c->set_mask = c->sets - 1;
  c->set_bits = 0;
  while ((1u << c->set_bits) < c->sets) c->set_bits++;
  free(c->tag);
  c->tag = t1_alloc(sizeof(uint32_t) * c->sets * c->ways);
  c->misses = 0;
}

static void cache_run(cache_t *c, const uint32_t *addr, long n) {
  for (long i = 0; i < n; i++) {
    const uint32_t line = addr[i] >> LINE_BITS;
    uint32_t *set = c->tag + (size_t)(line & c->set_mask) * c->ways;
    const uint32_t tag = (line >> c->set_bits) + 1u;
    uint32_t w = 0;
    while (w < c->ways && set[w] != tag) w++;
    if (w == c->ways) {
      c->misses++;
      w = c->ways - 1; /* evict the least recently used */
    }
    for (; w > 0; w--) set[w] = set[w - 1];
    set[0] = tag;
  }
}

int main(int argc, char **argv) {
  int rank, size;
  prog_init(&argc, &argv, &rank, &size, 2);
  const long passes = t1_arg(argc, argv, 1, DEFAULT_PASSES);
  const long ntrace = t1_arg(argc, argv, 2, DEFAULT_TRACE);
  const long chunk = t1_arg(argc, argv, 3, DEFAULT_CHUNK);
  const long nchunks = (ntrace + chunk - 1) / chunk;
  const long njobs = passes * NCONFIGS;
  t1_t t = {{0, 0}, 0};
  long long *result = NULL; /* master: misses of each job */
  uint32_t *trace = NULL;

  if (rank == 0) {
    trace = t1_alloc(sizeof(uint32_t) * (size_t)ntrace);
    for (long i = 0; i < ntrace; i++) trace[i] = trace_addr((uint32_t)i);
    result = t1_alloc(sizeof(long long) * (size_t)njobs);
    for (long j = 0; j < njobs; j++) result[j] = -1;
  }

  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  if (rank == 0) {
    long next_job = 0;
    int active = size - 1;
    while (active > 0) {
      long long req[4];
      MPI_Status st;
      t1_recv(&t, req, 4, MPI_LONG_LONG, MPI_ANY_SOURCE, TAG_REQ, &st);
      const int w = st.MPI_SOURCE;
      if (req[0] == REQ_JOB) {
        if (req[1] >= njobs) fail("result for job %lld from rank %d", req[1], w);
        if (req[1] >= 0) result[req[1]] = req[2]; /* the job this worker finished */
        if (next_job < njobs) {
          long long job = next_job++;
          t1_send(&t, &job, 1, MPI_LONG_LONG, w, TAG_CONFIG);
        } else {
          t1_send(&t, NULL, 0, MPI_LONG_LONG, w, TAG_STOP);
          active--;
        }
      } else if (req[0] == REQ_CHUNK && req[1] >= 0 && req[1] < nchunks) {
        const long first = (long)req[1] * chunk;
        const long n = first + chunk <= ntrace ? chunk : ntrace - first;
        t1_send(&t, trace + first, (int)n, MPI_UINT32_T, w, TAG_CHUNK);
      } else {
        fail("bad request %lld %lld from rank %d", req[0], req[1], w);
      }
    }
  } else {
    uint32_t *buf = t1_alloc(sizeof(uint32_t) * (size_t)chunk);
    cache_t c = {0, 0, 0, 0, NULL, 0};
    long long req[4] = {REQ_JOB, -1, 0, 0};
    for (;;) {
      MPI_Status st;
      long long job;
      t1_send(&t, req, 4, MPI_LONG_LONG, 0, TAG_REQ);
      t1_recv(&t, &job, 1, MPI_LONG_LONG, 0, MPI_ANY_TAG, &st);
      if (st.MPI_TAG == TAG_STOP) break;
      if (st.MPI_TAG != TAG_CONFIG || job < 0 || job >= njobs) fail("bad job message (tag %d)", st.MPI_TAG);
      cache_init(&c, (int)(job % NCONFIGS));
      for (long k = 0; k < nchunks; k++) {
        long long creq[4] = {REQ_CHUNK, k, 0, 0};
        t1_send(&t, creq, 4, MPI_LONG_LONG, 0, TAG_REQ);
        t1_recv(&t, buf, (int)chunk, MPI_UINT32_T, 0, TAG_CHUNK, &st);
        const int n = status_count(&st, MPI_UINT32_T);
        if (n != (k + 1 < nchunks ? chunk : ntrace - k * chunk)) fail("chunk %ld has %d addresses", k, n);
        cache_run(&c, buf, n);
      }
      req[1] = job;
      req[2] = c.misses;
    }
    free(c.tag);
    free(buf);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const double seconds = MPI_Wtime() - t0;

  if (rank == 0) { /* every job against a sequential simulation */
    cache_t c = {0, 0, 0, 0, NULL, 0};
    for (int cfg = 0; cfg < NCONFIGS; cfg++) {
      cache_init(&c, cfg);
      cache_run(&c, trace, ntrace);
      for (long j = cfg; j < njobs; j += NCONFIGS)
        if (result[j] != c.misses)
          fail("sys: job %ld (configuration %d) counted %lld misses, sequential %lld", j, cfg, result[j], c.misses);
    }
    free(c.tag);
    free(trace);
    free(result);
  }
  t1_report("sys", passes, seconds, &t);
  MPI_Finalize();
  return 0;
}
