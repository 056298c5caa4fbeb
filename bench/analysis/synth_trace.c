/* synth_trace.c: a synthetic event history of any length, for benchmarking the post-mortem
 * analysis (`mpirr races`, `mpirr frontier`) beyond what recording a real run on a small
 * machine gives.
 *
 *   synth_trace OUTDIR [RANKS=16] [EVENTS=10000000] [mixed|farm|wild]
 *
 * Writes OUTDIR (created; it must not exist or be empty) as `mpirr record --no-wtime --events`
 * would have for an Open MPI run of RANKS ranks making about EVENTS MPI calls in total: a
 * manifest (mode sources, mpi openmpi) and one rank-NNNNN.events per rank, written with the
 * runtime's own writer (src/format/event_trace.h) and with the records the runtime makes
 * (src/runtime/event_shapes.h, event_ids.c): communicators 0 (MPI_COMM_WORLD, all ranks) and 1
 * (MPI_COMM_SELF) defined by COMM records first, MPI_Init as event 1, consecutive event
 * numbers, request slots (the lowest free one) for nonblocking calls and DONE items listing the
 * completed slots (receives with their match) on the Waitall, call sites with real return
 * addresses in this executable and its load map (so reports name lines of this file), exact
 * times in ns stored with the runtime's default tick (32768 ns), MPI_Finalize last and a clean
 * close (the history reads as complete).
 *
 * The execution is simulated in lock step in this one process, so it is consistent by
 * construction: every message sent is received, each channel's messages are received in send
 * order (MPI's non-overtaking rule), every receive ends after its message was sent (a causally
 * possible order), and each rank's clock only moves forward. Rank r's program (P ranks, left
 * and right neighbours on a ring) repeats time steps of:
 *
 *   MPI_Wtime                              step timer (a non-communication event)
 *   halo exchange                          MPI_Irecv from left and right, MPI_Isend to right
 *                                          and left (4 KiB), MPI_Waitall of the four
 *   pipeline                               blocking MPI_Recv from the previous rank of a chain
 *                                          and MPI_Send to the next (1 KiB); the chain runs
 *                                          0 -> P-1 on even steps, P-1 -> 0 on odd ones
 *   master/worker round (every 4th step)   workers: MPI_Wtime, MPI_Send of a result (256 B)
 *                                          to rank 0, MPI_Recv of new work (64 B) from rank 0;
 *                                          rank 0: P-1 times MPI_Recv(MPI_ANY_SOURCE, tag) and
 *                                          MPI_Send of work to the worker it got; results
 *                                          are received in order of arrival, which the
 *                                          workers' random compute times shuffle: the real
 *                                          message races of the trace
 *   MPI_Allreduce (every 100th step)       8 bytes on MPI_COMM_WORLD
 *
 * after MPI_Init, MPI_Comm_rank and MPI_Comm_size, and before MPI_Finalize. Steps are added
 * while the total (with MPI_Finalize) stays within EVENTS. Only rank 0's wildcard receives can
 * race: in a round, the k-th could have got any result not received yet.
 *
 * MIX farm, a stress case for the race analyses, leaves out the halo exchange and the
 * pipeline: every step is a master/worker round, nothing else orders the workers after rank
 * 0's receives, so a worker's next result is concurrent with the rest of the round, a sixth of
 * the calls are wildcard receives and each has about RANKS-2 other candidates.
 *
 * MIX wild, the all-wildcard case (every receive MPI_ANY_SOURCE, many senders), replaces the
 * exchanges of a step by an all-to-all: every rank MPI_Sends a message (512 B, one tag) to
 * every other rank, then takes RANKS-1 with MPI_Recv(MPI_ANY_SOURCE, tag) in order of arrival.
 * Nearly half the calls are wildcard receives, each with RANKS-1 other candidates (a sender's
 * next message is concurrent with the receiver's current step), and no task of Chu & Huang's
 * is a control point: every reach set is every message of the rank. The Allreduce stays.
 *
 * RANKS goes up to 65536 (the wild mix: 4096). Writers for GROUP_RANKS ranks are open at a
 * time; beyond that the whole simulation runs once per group of ranks (it is deterministic)
 * and each pass writes its group's histories, so memory stays about 1.5 GB and generation
 * time grows with RANKS / GROUP_RANKS passes of simulation (compression is done once).
 *
 * Prints one summary line (ranks, events, messages, wildcard receives, steps, seconds).
 * Deterministic: the same arguments write the same calls and times (`mpirr events` prints the
 * same); only the creation times and the absolute call-site addresses (ASLR) differ. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "call_ids.h"
#include "event_trace.h"
#include "manifest.h"

#define BASE_NS 1000000000000ull /* CLOCK_MONOTONIC of every rank's MPI_Init */
#define TICK_SHIFT 15            /* the runtime's default tick: 32768 ns */
#define ALLREDUCE_EVERY 100
#define MW_EVERY 4
#define MAX_RANKS 65536
/* Ranks whose writers (a zstd stream with its window, a mapped tail, a descriptor: about 1.5 MB
 * each) are open at once. More ranks are written in passes: the simulation is deterministic,
 * so each pass runs all of it again and writes only its group's ranks. */
#ifndef GROUP_RANKS
#define GROUP_RANKS 1024
#endif
#define WILD_MAX_RANKS 4096 /* the wild mix keeps a RANKS x RANKS table of arrival times */

enum { TAG_RIGHTWARD = 1, TAG_LEFTWARD = 2, TAG_PIPE = 3, TAG_RESULT = 4, TAG_WORK = 5, TAG_ALL = 6 };
enum { HALO_BYTES = 4096, PIPE_BYTES = 1024, RESULT_BYTES = 256, WORK_BYTES = 64, SUM_BYTES = 8,
       ALL_BYTES = 512 };

/* The call sites: each is the return address of a call to caller_pc() on the line that makes
 * the record, as the runtime's are the return addresses of the MPI calls. */
enum site {
    S_INIT, S_RANK, S_SIZE, S_STEP_WTIME, S_HALO_IRECV, S_HALO_ISEND, S_HALO_WAITALL,
    S_PIPE_RECV, S_PIPE_SEND, S_WORKER_WTIME, S_RESULT_SEND, S_MASTER_RECV, S_WORK_SEND,
    S_WORK_RECV, S_ALLREDUCE, S_ALL_SEND, S_ALL_RECV, S_FINALIZE, NSITES
};
static uint64_t site_pc[NSITES];

static __attribute__((noinline)) uint64_t caller_pc(void)
{
    __asm__ volatile("");
    return (uint64_t)(uintptr_t)__builtin_return_address(0);
}
static unsigned set_site(unsigned s, uint64_t pc)
{
    site_pc[s] = pc;
    return s;
}
#define AT(s) (site_pc[s] ? (unsigned)(s) : set_site(s, caller_pc()))

struct rank_state {
    mpirr_ev_writer *w;
    uint64_t event;          /* last event number */
    uint64_t t;              /* exact end (ns) of the last call */
    uint64_t slots;          /* request slots in use (bit i: slot i) */
    uint32_t local[NSITES];  /* this rank's index of each site, UINT32_MAX: not defined yet */
    uint32_t nsites;
    int module;              /* load map written */
};

static struct rank_state *rk;
static int P;
static uint64_t total_events, total_msgs, total_wild;
static uint64_t rng = 0x9e3779b97f4a7c15ull;

static struct {
    uint64_t bias, lo, hi;
    char path[PATH_MAX];
} module;

static __attribute__((noreturn, format(printf, 1, 2))) void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "synth_trace: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

static uint64_t rnd(uint64_t lo, uint64_t hi) /* uniform in [lo, hi] (xorshift64*) */
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return lo + (rng * 0x2545f4914f6cdd1dull >> 11) % (hi - lo + 1);
}

static uint64_t umax(uint64_t a, uint64_t b) { return a > b ? a : b; }
static uint64_t latency(uint64_t bytes) { return 1500 + bytes / 4; } /* ns: 1.5 us + 4 GB/s */

/* dl_iterate_phdr callback: the object whose executable segment holds this code. */
static int find_module(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    (void)arg;
    uint64_t lo = UINT64_MAX, hi = 0, want = (uint64_t)(uintptr_t)caller_pc;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X)) continue;
        if (ph->p_vaddr < lo) lo = ph->p_vaddr;
        if (ph->p_vaddr + ph->p_memsz > hi) hi = ph->p_vaddr + ph->p_memsz;
    }
    if (lo >= hi || want < info->dlpi_addr + lo || want >= info->dlpi_addr + hi) return 0;
    module.bias = info->dlpi_addr;
    module.lo = lo;
    module.hi = hi;
    if (info->dlpi_name && *info->dlpi_name) {
        snprintf(module.path, sizeof module.path, "%s", info->dlpi_name);
    } else {
        ssize_t n = readlink("/proc/self/exe", module.path, sizeof module.path - 1);
        module.path[n > 0 ? n : 0] = 0;
    }
    return 1;
}

static void put(int r, mpirr_event *e)
{
    if (!rk[r].w) return; /* simulated only: written by another pass */
    if (mpirr_evw_append(rk[r].w, e)) die("rank %d: %s", r, mpirr_evw_error(rk[r].w));
}

/* Rank r's next call record e, made at site s: it starts gap ns after r's previous call ends
 * and ends cost ns later, or at ready if that is later (a message or collective result it
 * waits for). Returns the exact begin. */
static uint64_t call(int r, mpirr_event *e, unsigned s, uint64_t gap, uint64_t cost, uint64_t ready)
{
    struct rank_state *R = &rk[r];
    if (R->local[s] == UINT32_MAX) {
        if (!R->module) {
            mpirr_event m = {.kind = MPIRR_EVK_MODULE, .addr = module.bias, .got = module.lo,
                             .bytes = module.hi, .path = module.path};
            put(r, &m);
            R->module = 1;
        }
        mpirr_event d = {.kind = MPIRR_EVK_SITE, .site = R->nsites, .addr = site_pc[s]};
        put(r, &d);
        R->local[s] = R->nsites++;
    }
    uint64_t begin = R->t + gap, end = umax(begin + cost, ready);
    e->event = ++R->event;
    e->site = R->local[s];
    e->x_begin = begin;
    e->x_end = end;
    R->t = end;
    put(r, e); /* turns x_begin/x_end into ticks */
    total_events++;
    return begin;
}

/* The record of a send or receive call as event_shapes.h fills it (no match yet). */
static mpirr_event p2p(unsigned kind, int32_t peer, int32_t tag, uint64_t bytes)
{
    mpirr_event e = {.kind = kind, .fields = MPIRR_EVF_COMM | MPIRR_EVF_PEER | MPIRR_EVF_TAG | MPIRR_EVF_BYTES,
                     .comm = 0, .peer = peer, .tag = tag, .bytes = bytes};
    return e;
}

static void matched(mpirr_event *e, int32_t src, int32_t tag, uint64_t got)
{
    e->fields |= MPIRR_EVF_MATCH;
    e->src = src;
    e->mtag = tag;
    e->got = got;
}

static uint32_t slot_new(int r)
{
    uint32_t s = (uint32_t)__builtin_ctzll(~rk[r].slots); /* the lowest free slot */
    rk[r].slots |= 1ull << s;
    return s;
}

static void plain_call(int r, unsigned kind, unsigned s, uint64_t gap, uint64_t cost)
{
    mpirr_event e = {.kind = kind};
    call(r, &e, s, gap, cost, 0);
}

/* ---- the phases of a time step ---- */

static uint64_t *tmp_a, *tmp_b; /* per-rank scratch: send times */
static int *order;

static void halo_exchange(void)
{
    uint32_t (*slot)[4] = malloc((size_t)P * sizeof *slot);
    if (!slot) die("out of memory");
    for (int r = 0; r < P; r++) {
        int left = (r + P - 1) % P, right = (r + 1) % P;
        const int32_t from[2] = {left, right}, rtag[2] = {TAG_RIGHTWARD, TAG_LEFTWARD};
        for (int k = 0; k < 2; k++) {
            mpirr_event e = p2p(MPIRR_ID_MPI_Irecv, from[k], rtag[k], HALO_BYTES);
            e.fields |= MPIRR_EVF_REQ;
            e.req = slot[r][k] = slot_new(r);
            call(r, &e, AT(S_HALO_IRECV), k ? 150 : rnd(2000, 8000), 300, 0);
        }
        const int32_t to[2] = {right, left}, stag[2] = {TAG_RIGHTWARD, TAG_LEFTWARD};
        for (int k = 0; k < 2; k++) {
            mpirr_event e = p2p(MPIRR_ID_MPI_Isend, to[k], stag[k], HALO_BYTES);
            e.fields |= MPIRR_EVF_REQ;
            e.req = slot[r][2 + k] = slot_new(r);
            uint64_t b = call(r, &e, AT(S_HALO_ISEND), rnd(500, 1500), 400, 0);
            (k ? tmp_b : tmp_a)[r] = b; /* a: rightward, b: leftward */
        }
        total_msgs += 2;
    }
    for (int r = 0; r < P; r++) {
        int left = (r + P - 1) % P, right = (r + 1) % P;
        mpirr_ev_item it[4];
        memset(it, 0, sizeof it);
        for (int k = 0; k < 4; k++) it[k].slot = slot[r][k];
        it[0].flags = it[1].flags = MPIRR_EVI_RECV;
        it[0].src = left;
        it[0].tag = TAG_RIGHTWARD;
        it[1].src = right;
        it[1].tag = TAG_LEFTWARD;
        it[0].got = it[1].got = HALO_BYTES;
        mpirr_event e = {.kind = MPIRR_ID_MPI_Waitall, .fields = MPIRR_EVF_DONE, .nitems = 4, .items = it};
        uint64_t ready = umax(tmp_a[left], tmp_b[right]) + latency(HALO_BYTES);
        call(r, &e, AT(S_HALO_WAITALL), 200, 800, ready);
        rk[r].slots = 0; /* all four freed */
    }
    free(slot);
}

static void pipeline(int forward)
{
    for (int i = 0; i < P; i++) {
        int r = forward ? i : P - 1 - i, prev = forward ? r - 1 : r + 1, next = forward ? r + 1 : r - 1;
        if (i > 0) {
            mpirr_event e = p2p(MPIRR_ID_MPI_Recv, prev, TAG_PIPE, PIPE_BYTES);
            matched(&e, prev, TAG_PIPE, PIPE_BYTES);
            call(r, &e, AT(S_PIPE_RECV), rnd(1000, 3000), 500, tmp_a[prev] + latency(PIPE_BYTES));
        }
        if (i < P - 1) {
            mpirr_event e = p2p(MPIRR_ID_MPI_Send, next, TAG_PIPE, PIPE_BYTES);
            tmp_a[r] = call(r, &e, AT(S_PIPE_SEND), rnd(3000, 9000), 700, 0);
            total_msgs++;
        }
    }
}

/* Workers by arrival of their results (tmp_a), ties by rank. */
static int by_arrival(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    if (tmp_a[x] != tmp_a[y]) return tmp_a[x] < tmp_a[y] ? -1 : 1;
    return x < y ? -1 : x > y;
}

static void master_worker(void)
{
    int nw = 0;
    for (int w = 1; w < P; w++) {
        plain_call(w, MPIRR_ID_MPI_Wtime, AT(S_WORKER_WTIME), rnd(5000, 80000), 40);
        mpirr_event e = p2p(MPIRR_ID_MPI_Send, 0, TAG_RESULT, RESULT_BYTES);
        tmp_a[w] = call(w, &e, AT(S_RESULT_SEND), 100, 600, 0) + latency(RESULT_BYTES); /* arrival */
        order[nw++] = w;
        total_msgs++;
    }
    qsort(order, (size_t)nw, sizeof *order, by_arrival); /* the master takes them as they come */
    for (int i = 0; i < nw; i++) {
        int w = order[i];
        mpirr_event e = p2p(MPIRR_ID_MPI_Recv, MPIRR_EV_ANY, TAG_RESULT, RESULT_BYTES);
        matched(&e, w, TAG_RESULT, RESULT_BYTES);
        call(0, &e, AT(S_MASTER_RECV), 300, 400, tmp_a[w]);
        total_wild++;
        e = p2p(MPIRR_ID_MPI_Send, w, TAG_WORK, WORK_BYTES);
        tmp_b[w] = call(0, &e, AT(S_WORK_SEND), rnd(500, 2000), 500, 0);
        total_msgs++;
    }
    for (int w = 1; w < P; w++) {
        mpirr_event e = p2p(MPIRR_ID_MPI_Recv, 0, TAG_WORK, WORK_BYTES);
        matched(&e, 0, TAG_WORK, WORK_BYTES);
        call(w, &e, AT(S_WORK_RECV), 100, 400, tmp_b[w] + latency(WORK_BYTES));
    }
}

/* MIX wild: every rank sends to every other, then receives as many from MPI_ANY_SOURCE, in
 * order of arrival (each channel has one message per step, so that is also its send order). */
static void all_to_all_wild(void)
{
    static uint64_t *arrive; /* arrive[p * P + q]: when q's message reaches p */
    if (!arrive && !(arrive = malloc((size_t)P * (size_t)P * sizeof *arrive))) die("out of memory");
    for (int q = 0; q < P; q++)
        for (int k = 1; k < P; k++) {
            int p = (q + k) % P;
            mpirr_event e = p2p(MPIRR_ID_MPI_Send, p, TAG_ALL, ALL_BYTES);
            arrive[(size_t)p * (size_t)P + (size_t)q] =
                call(q, &e, AT(S_ALL_SEND), rnd(200, 3000), 300, 0) + latency(ALL_BYTES);
            total_msgs++;
        }
    for (int p = 0; p < P; p++) {
        const uint64_t *at = &arrive[(size_t)p * (size_t)P];
        int n = 0;
        for (int q = 0; q < P; q++)
            if (q != p) order[n++] = q;
        for (int i = 1; i < n; i++)
            for (int j = i; j > 0 && at[order[j - 1]] > at[order[j]]; j--) {
                int t = order[j];
                order[j] = order[j - 1];
                order[j - 1] = t;
            }
        for (int i = 0; i < n; i++) {
            mpirr_event e = p2p(MPIRR_ID_MPI_Recv, MPIRR_EV_ANY, TAG_ALL, ALL_BYTES);
            matched(&e, order[i], TAG_ALL, ALL_BYTES);
            call(p, &e, AT(S_ALL_RECV), 200, 300, at[order[i]]);
            total_wild++;
        }
    }
}

static void allreduce(void)
{
    uint64_t last = 0;
    for (int r = 0; r < P; r++) last = umax(last, rk[r].t + 2000);
    int hops = 0;
    while ((1 << hops) < P) hops++;
    for (int r = 0; r < P; r++) {
        mpirr_event e = {.kind = MPIRR_ID_MPI_Allreduce, .fields = MPIRR_EVF_COMM | MPIRR_EVF_BYTES,
                         .comm = 0, .bytes = SUM_BYTES};
        call(r, &e, AT(S_ALLREDUCE), rnd(1000, 3000), 1000, last + 2 * (uint64_t)hops * latency(SUM_BYTES));
    }
}

static int farm; /* MIX farm: master/worker rounds only */
static int wild; /* MIX wild: all-to-all with wildcard receives only */

static void step(uint64_t n)
{
    for (int r = 0; r < P; r++) plain_call(r, MPIRR_ID_MPI_Wtime, AT(S_STEP_WTIME), rnd(20000, 60000), 40);
    if (wild) {
        all_to_all_wild();
    } else {
        if (!farm) {
            halo_exchange();
            pipeline(n % 2 == 0);
        }
        if (farm || n % MW_EVERY == MW_EVERY - 1) master_worker();
    }
    if (n % ALLREDUCE_EVERY == ALLREDUCE_EVERY - 1) allreduce();
}

/* The calls step n makes (all ranks), to stop before EVENTS. */
static uint64_t step_events(uint64_t n)
{
    uint64_t p = (uint64_t)P, e = farm ? p : p + 5 * p + 2 * (p - 1); /* Wtime, halo, pipeline */
    if (wild) e = p + 2 * p * (p - 1);                                  /* Wtime, all-to-all */
    else if (farm || n % MW_EVERY == MW_EVERY - 1) e += 5 * (p - 1);
    if (n % ALLREDUCE_EVERY == ALLREDUCE_EVERY - 1) e += p;
    return e;
}

/* ---- set-up and output ---- */

/* Starts rank r's history; written: opens its writer (else r is only simulated). */
static void start_rank(const char *dir, int r, int written)
{
    mpirr_ev_params p = {.rank = r, .nranks = P, .tick_shift = TICK_SHIFT, .base_ns = BASE_NS,
                         .start_realtime_ns = (uint64_t)time(NULL) * 1000000000ull};
    char err[700];
    struct rank_state *R = &rk[r];
    memset(R, 0, sizeof *R);
    if (written && !(R->w = mpirr_evw_open(dir, &p, err, sizeof err))) die("%s", err);
    for (int s = 0; s < NSITES; s++) R->local[s] = UINT32_MAX;
    R->t = BASE_NS;
    /* world and self get ids 0 and 1, defined before anything else (event_history.c) */
    int32_t *world = malloc((size_t)P * sizeof *world), self = r;
    if (!world) die("out of memory");
    for (int i = 0; i < P; i++) world[i] = i;
    mpirr_event c = {.kind = MPIRR_EVK_COMM, .comm = 0, .newcomm = UINT32_MAX, .req = 0,
                     .nranks = (uint32_t)P, .ranks = world};
    put(r, &c);
    c = (mpirr_event){.kind = MPIRR_EVK_COMM, .comm = 1, .newcomm = UINT32_MAX, .req = 0,
                      .nranks = 1, .ranks = &self};
    put(r, &c);
    free(world);
    /* MPI_Init begins when the history's clock does (tick 0) */
    plain_call(r, MPIRR_ID_MPI_Init, AT(S_INIT), 0, 50000000 + rnd(0, 5000000));
    mpirr_event e = {.kind = MPIRR_ID_MPI_Comm_rank, .fields = MPIRR_EVF_COMM, .comm = 0};
    call(r, &e, AT(S_RANK), 2000, 300, 0);
    e = (mpirr_event){.kind = MPIRR_ID_MPI_Comm_size, .fields = MPIRR_EVF_COMM, .comm = 0};
    call(r, &e, AT(S_SIZE), 200, 300, 0);
}

static void finish_rank(int r)
{
    plain_call(r, MPIRR_ID_MPI_Finalize, AT(S_FINALIZE), 5000, 2000000);
    if (rk[r].w && mpirr_evw_close(rk[r].w, 1)) die("rank %d: cannot finish the event history", r);
}

static void write_manifest(const char *dir, int argc, char **argv)
{
    mpirr_manifest m;
    mpirr_manifest_init(&m);
    snprintf(m.mode, sizeof m.mode, "sources");
    snprintf(m.mpi, sizeof m.mpi, "openmpi");
    m.wtime = 0; /* as recorded with --no-wtime */
    if (!getcwd(m.cwd, sizeof m.cwd)) snprintf(m.cwd, sizeof m.cwd, "/");
    m.argc = argc;
    m.argv = argv;
    m.created = (int64_t)time(NULL);
    m.nranks = P;
    snprintf(m.exe, sizeof m.exe, "%s", module.path);
    m.exit_status = 0;
    char err[4400];
    if (mpirr_manifest_write(dir, &m, err, sizeof err)) die("%s", err); /* argv not owned */
}

static void make_dir(const char *dir)
{
    if (!mkdir(dir, 0755)) return;
    DIR *d = errno == EEXIST ? opendir(dir) : NULL;
    if (!d) die("cannot create directory %s: %s", dir, strerror(errno));
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) die("%s is not empty", dir);
    closedir(d);
}

static long parse(const char *s, const char *what, long lo, long hi)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) {
        fprintf(stderr, "synth_trace: %s must be a number from %ld to %ld, not '%s'\n", what, lo, hi, s);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 5 || argv[1][0] == '-' ||
        (argc == 5 && strcmp(argv[4], "mixed") && strcmp(argv[4], "farm") && strcmp(argv[4], "wild"))) {
        fprintf(stderr, "usage: synth_trace OUTDIR [RANKS=16] [EVENTS=10000000] [mixed|farm|wild]\n"
                        "  writes a synthetic event history (as `mpirr record --events` would) of about\n"
                        "  EVENTS MPI calls over RANKS ranks into OUTDIR, for `mpirr races OUTDIR`;\n"
                        "  farm: master/worker rounds only (every receive of rank 0 a wildcard);\n"
                        "  wild: all-to-all rounds, every receive of every rank a wildcard\n");
        return 2;
    }
    farm = argc == 5 && !strcmp(argv[4], "farm");
    wild = argc == 5 && !strcmp(argv[4], "wild");
    const char *dir = argv[1];
    P = argc > 2 ? (int)parse(argv[2], "RANKS", 2, wild ? WILD_MAX_RANKS : MAX_RANKS) : 16;
    long target = argc > 3 ? parse(argv[3], "EVENTS", 10 * (long)P, 4000000000L) : 10000000L;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    rk = calloc((size_t)P, sizeof *rk);
    tmp_a = calloc((size_t)P, sizeof *tmp_a);
    tmp_b = calloc((size_t)P, sizeof *tmp_b);
    order = calloc((size_t)P, sizeof *order);
    if (!rk || !tmp_a || !tmp_b || !order) die("out of memory");
    make_dir(dir);
    if (!dl_iterate_phdr(find_module, NULL)) die("cannot find this executable's load map");
    uint64_t steps = 0;
    const uint64_t seed = rng;
    for (int g = 0; g < P; g += GROUP_RANKS) { /* one pass per group of written ranks */
        rng = seed;
        total_events = total_msgs = total_wild = 0;
        for (int r = 0; r < P; r++) start_rank(dir, r, r >= g && r < g + GROUP_RANKS);
        steps = 0;
        while (total_events + step_events(steps) + (uint64_t)P <= (uint64_t)target) step(steps++);
        for (int r = 0; r < P; r++) finish_rank(r);
    }
    write_manifest(dir, argc, argv);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("synth_trace %s ranks %d events %llu messages %llu wildcard_receives %llu steps %llu "
           "seconds %.3f\n",
           dir, P, (unsigned long long)total_events, (unsigned long long)total_msgs,
           (unsigned long long)total_wild, (unsigned long long)steps,
           (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    free(rk);
    free(tmp_a);
    free(tmp_b);
    free(order);
    return 0;
}
