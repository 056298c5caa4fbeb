/* common.h: helpers shared by the mpirr test programs in tests/programs/ and the benchmarks
 * in bench/.
 *
 * Not a test itself and no source of nondeterminism. It provides:
 *  - the 64-bit FNV-1a digest every program folds each observed outcome into (matched sources,
 *    tags, indices, counts of unsuccessful tests/probes, flags, payloads, MPI_Get_count...);
 *  - digest_finish(): MPI_Gather of the per-rank hashes to rank 0, which prints the single stdout
 *    line `digest <16 lowercase hex digits>` (FNV-1a over the gathered hashes in rank order);
 *  - busy_work(): deterministic CPU work (an iteration count, never a clock), so that all timing
 *    variation comes from the machine and all control flow stays a function of MPI outcomes;
 *  - poll_pause(): what a polling loop does after an unsuccessful test/probe (yield the core, so
 *    oversubscribed runs make progress and failure counts stay in the hundreds, not millions);
 *  - fail(): report a broken invariant (e.g. a payload that disagrees with its status) and abort;
 *  - bench_report() and friends: the one-line result format of the benchmarks.
 * Programs include this header first (it sets _POSIX_C_SOURCE for sched_yield). */
#ifndef MPIRR_TEST_PROGRAMS_COMMON_H
#define MPIRR_TEST_PROGRAMS_COMMON_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <mpi.h>
#include <inttypes.h>
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define DIGEST_FNV_OFFSET UINT64_C(0xcbf29ce484222325)
#define DIGEST_FNV_PRIME UINT64_C(0x100000001b3)

typedef struct {
  uint64_t h;
} digest_t;

static inline void digest_init(digest_t *d) { d->h = DIGEST_FNV_OFFSET; }

static inline void digest_bytes(digest_t *d, const void *data, size_t len) {
  const unsigned char *p = (const unsigned char *)data;
  for (size_t i = 0; i < len; i++) {
    d->h ^= p[i];
    d->h *= DIGEST_FNV_PRIME;
  }
}

/* Folds v as 8 little-endian bytes, so digests do not depend on the host's byte order. */
static inline void digest_u64(digest_t *d, uint64_t v) {
  unsigned char b[8];
  for (int i = 0; i < 8; i++) b[i] = (unsigned char)(v >> (8 * i));
  digest_bytes(d, b, sizeof b);
}

static inline void digest_int(digest_t *d, int v) { digest_u64(d, (uint64_t)(int64_t)v); }

static inline void digest_ints(digest_t *d, const int *v, int n) {
  for (int i = 0; i < n; i++) digest_int(d, v[i]);
}

/* A section marker, so that equal values seen in different phases fold differently. */
static inline void digest_mark(digest_t *d, int phase) { digest_u64(d, UINT64_C(0x6d61726b00000000) | (uint32_t)phase); }

__attribute__((format(printf, 1, 2))) static inline void fail(const char *fmt, ...) {
  int rank = -1;
  va_list ap;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  fprintf(stderr, "[rank %d] invariant broken: ", rank);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 3);
  exit(3); /* not reached */
}

/* MPI_Get_count on a status, checked (a receive of a whole number of elements). */
static inline int status_count(const MPI_Status *st, MPI_Datatype type) {
  int count = -1;
  MPI_Get_count(st, type, &count);
  if (count == MPI_UNDEFINED || count < 0) fail("MPI_Get_count gave %d", count);
  return count;
}

/* Folds the source, tag and element count of a completed receive or probe. */
static inline int digest_status(digest_t *d, const MPI_Status *st, MPI_Datatype type) {
  int count = status_count(st, type);
  digest_int(d, st->MPI_SOURCE);
  digest_int(d, st->MPI_TAG);
  digest_int(d, count);
  return count;
}

/* Deterministic CPU work: `units` steps of ~1-2 ns each (calibrated on a 2020s x86 core:
 * busy_work(1000) is roughly a microsecond). Returns a value so the loop is kept. */
static inline uint64_t busy_work(uint64_t units) {
  volatile uint64_t x = units | 1u;
  for (uint64_t i = 0; i < units; i++) x = x * UINT64_C(6364136223846793005) + i;
  return x;
}

/* A small deterministic mixing function for "random-ish" but reproducible choices. */
static inline uint32_t mix32(uint32_t a, uint32_t b) {
  uint32_t h = a * 0x9e3779b1u ^ (b + 0x7f4a7c15u + (a << 6) + (a >> 2));
  h ^= h >> 15;
  h *= 0x2c1b3c6du;
  h ^= h >> 12;
  h *= 0x297a2d39u;
  h ^= h >> 15;
  return h;
}

/* Called after every unsuccessful test or probe in a polling loop. */
static inline void poll_pause(void) {
  sched_yield();
  (void)busy_work(2000);
}

/* MPI_Init plus rank/size; exits with a message when fewer than min_ranks processes run. */
static inline void prog_init(int *argc, char ***argv, int *rank, int *size, int min_ranks) {
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  MPI_Comm_size(MPI_COMM_WORLD, size);
  if (*size < min_ranks) {
    if (*rank == 0) fprintf(stderr, "%s needs at least %d ranks (got %d)\n", (*argv)[0], min_ranks, *size);
    MPI_Finalize();
    exit(2);
  }
}

/* MPI_Init_thread with MPI_THREAD_MULTIPLE; rank and size. Returns 0 if the library does not
 * provide it, after printing "no MPI_THREAD_MULTIPLE" (rank 0) and MPI_Finalize: the caller
 * then ends with exit status 0, and the test skips. */
static inline int prog_init_multiple(int *argc, char ***argv, int *rank, int *size) {
  int provided;
  MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  MPI_Comm_size(MPI_COMM_WORLD, size);
  if (provided >= MPI_THREAD_MULTIPLE) return 1;
  if (*rank == 0) printf("no MPI_THREAD_MULTIPLE\n");
  MPI_Finalize();
  return 0;
}

/* Optional argv[1]: a positive repetition count overriding the default. */
static inline int arg_rounds(int argc, char **argv, int dflt) {
  if (argc > 1) {
    long v = strtol(argv[1], NULL, 10);
    if (v > 0 && v < 1000000) return (int)v;
  }
  return dflt;
}

/* Gathers every rank's hash to rank 0 (rank order), which prints `digest <hex16>`; then
 * MPI_Finalize. Returns the process exit status (0). */
static inline int digest_finish(const digest_t *d) {
  int rank, size;
  uint64_t mine = d->h;
  uint64_t *all = NULL;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0) {
    all = (uint64_t *)malloc(sizeof(uint64_t) * (size_t)size);
    if (!all) fail("out of memory");
  }
  MPI_Gather(&mine, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    digest_t total;
    digest_init(&total);
    for (int i = 0; i < size; i++) digest_u64(&total, all[i]);
    printf("digest %016" PRIx64 "\n", total.h);
    fflush(stdout);
    free(all);
  }
  MPI_Finalize();
  return 0;
}

/* ---- benchmark support (bench/ includes this header too) ----
 * A benchmark counts the MPI calls rank 0 makes in its timed loop (wrap each call in
 * BENCH_CALL) and, on every rank, its nondeterministic outcomes: wildcard receives, successful
 * and unsuccessful tests and probes, Waitany/Waitsome choices. */
typedef struct {
  long calls;     /* MPI calls made in the timed loop */
  long nd_events; /* nondeterministic outcomes observed in the timed loop */
} bench_counts_t;

#define BENCH_CALL(bc, call) ((bc)->calls++, (call))

/* Iteration count: argv[1] if given, else dflt. */
static inline long bench_iters(int argc, char **argv, long dflt) {
  if (argc > 1) {
    long v = strtol(argv[1], NULL, 10);
    if (v > 0) return v;
  }
  return dflt;
}

/* Sums nd_events over all ranks (MPI_Reduce to rank 0), which prints
 * `bench <name> ranks <p> iters <n> seconds <t> calls <c> nd_events <e>[ <extra>]`. */
static inline void bench_report(const char *name, long iters, double seconds, const bench_counts_t *bc,
                                const char *extra) {
  int rank, size;
  long total_nd = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Reduce(&bc->nd_events, &total_nd, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("bench %s ranks %d iters %ld seconds %.6f calls %ld nd_events %ld%s%s\n", name, size, iters, seconds,
           bc->calls, total_nd, extra ? " " : "", extra ? extra : "");
    fflush(stdout);
  }
}

#endif /* MPIRR_TEST_PROGRAMS_COMMON_H */
