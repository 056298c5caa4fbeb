/* races_sim.c: races mode's two clocks (src/runtime/vector_clock.c: the exact vector clock
 * and the bounded one) run over synthetic histories of 1,024 to 65,536 ranks in one process,
 * without MPI: the runtime's own encoder, decoder and race verdict (mpirr_vc_ordered) are
 * linked, not reimplemented. For each pattern and rank count it prints a markdown row:
 * messages, mean and largest header bytes of each clock, receives each clock logs, and the
 * truly racing receives, and it fails (exit 1) if the bounded clock misses a receive the exact
 * one logs, or if the exact one differs from the true happened-before (computed here with
 * plain full vectors, up to TRUTH_MAX ranks; above that the exact clock is the truth: with
 * every delta delivered in order per pair, as here, it is exact).
 *
 * A history: each rank runs a program of sends, wildcard receives (MPI_ANY_SOURCE: they
 * advance the rank's clock and wait for a verdict, as race_check.c's) and receives from one
 * source; a scheduler picks a random rank that can move, so the ranks drift as real ones do.
 * A wildcard receive takes the first message that arrived. When a message is consumed, every
 * earlier wildcard receive of that rank that got its message from another source and did not
 * happen before the send (mpirr_vc_ordered false for the header's knows) is logged, as
 * mpirr_race_arrived does. Headers are coded as piggyback.c's fill does: the fixed form when
 * it fits the slot's 31 bytes, else the varint form (no short form: every message counts).
 *
 * Patterns: halo (2-D torus, 4 neighbours a round), master_worker (rank 0 hands out tasks,
 * 3 a worker), storm (all to rank 0, then rank 0 to all), butterfly (allreduce's log2 P
 * stages) and random (each rank sends to 2 random peers a round, permutations).
 *
 * Usage: races_sim [pattern|all] [ranks...] (default: all, 1024 4096 16384 65536). Memory is
 * what limits the rank count: every rank holds two clocks of P entries, and a clock touches a
 * page for each few entries it knows (vector_clock.c). Where knowledge reaches most ranks
 * (butterfly: P x P entries; random peers, whose knowledge doubles a round) that passes 8 GB
 * at 16,384 ranks (butterfly) and 65,536 (random); halo's spreads a row of the torus a round.
 * So without ranks named explicitly, each pattern stops at its most_ranks. */
#include <inttypes.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "u64_map.h"
#include "vector_clock.h"

enum { TRUTH_MAX = 2048, SLOT_ROOM = 31, TAG_TASK = 1, TAG_STOP = 2 };
enum { OP_SEND, OP_RECV_ANY, OP_RECV_FROM, OP_REPLY, OP_LOOP, OP_END };
enum { EXACT, BOUNDED, CLOCKS };

struct op { int kind, peer; };
struct msg {
    int src, tag, next;
    uint8_t *hdr[CLOCKS];
    size_t len[CLOCKS];
    int fixed[CLOCKS];
    uint32_t *truth; /* the sender's true vector at the send, or NULL */
};
struct rank {
    mpirr_vclock *clock[CLOCKS];
    size_t pc, nops;
    struct op *ops;
    int qhead, qtail, done_flag, last_src, ready_at;
    uint64_t nrecv;        /* wildcard receives so far (= both clocks' own entry) */
    int *recv_src;         /* by receive number - 1: its message's source */
    uint8_t *logged;       /* by receive number - 1: bit c, clock c logged it; bit 2: truth */
    size_t cap_recv;
    uint64_t *unlogged[CLOCKS + 1];
    size_t nunlogged[CLOCKS + 1], cap_unlogged[CLOCKS + 1];
};

static int P, tasks_left, stops_sent;
static struct rank *ranks;
static struct msg *msgs;
static int nmsgs, capmsgs, free_msg = -1;
static int *ready, nready;
static uint64_t rng = 88172645463325252ull;
static u64_map seqs;
static uint32_t *truth; /* P x P when checked */
static uint8_t coded[CLOCKS][1 << 17];
static struct {
    uint64_t msgs, bytes[CLOCKS], max[CLOCKS], logged[CLOCKS + 1], wild, missed, truth_diff;
} st;

static uint64_t rnd(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

static void *must(void *p)
{
    if (!p) {
        fprintf(stderr, "races_sim: out of memory\n");
        exit(2);
    }
    return p;
}

/* ---- programs ---- */

static void add_op(struct rank *r, size_t *cap, int kind, int peer)
{
    if (r->nops == *cap) r->ops = must(realloc(r->ops, (*cap = *cap ? 2 * *cap : 16) * sizeof *r->ops));
    r->ops[r->nops++] = (struct op){kind, peer};
}

static void build(const char *pattern, int rounds)
{
    size_t *cap = must(calloc((size_t)P, sizeof *cap));
    int px = 1;
    while (px * px < P) px *= 2;
    int py = P / px;
    int **perm = NULL;
    if (!strcmp(pattern, "random")) { /* 2 permutations a round, no rank sending to itself */
        perm = must(calloc((size_t)rounds * 2, sizeof *perm));
        for (int k = 0; k < rounds * 2; k++) {
            perm[k] = must(malloc((size_t)P * sizeof **perm));
            for (int i = 0; i < P; i++) perm[k][i] = i;
            for (int i = P - 1; i > 0; i--) {
                int j = (int)(rnd() % (uint64_t)(i + 1)), t = perm[k][i];
                perm[k][i] = perm[k][j], perm[k][j] = t;
            }
            for (int i = 0; i < P; i++)
                if (perm[k][i] == i) { /* swap with the next one: no fixed point */
                    int j = (i + 1) % P, t = perm[k][i];
                    perm[k][i] = perm[k][j], perm[k][j] = t;
                }
        }
    }
    for (int i = 0; i < P; i++) {
        struct rank *r = &ranks[i];
        size_t *c = &cap[i];
        if (!strcmp(pattern, "halo")) {
            int x = i % px, y = i / px;
            int nb[4] = {(x + 1) % px + y * px, (x + px - 1) % px + y * px, x + (y + 1) % py * px,
                         x + (y + py - 1) % py * px};
            for (int t = 0; t < rounds; t++) {
                for (int k = 0; k < 4; k++) add_op(r, c, OP_SEND, nb[k]);
                for (int k = 0; k < 4; k++) add_op(r, c, OP_RECV_ANY, -1);
            }
        } else if (!strcmp(pattern, "storm")) {
            for (int t = 0; t < rounds; t++) {
                if (i) {
                    add_op(r, c, OP_SEND, 0);
                    add_op(r, c, OP_RECV_FROM, 0);
                    continue;
                }
                for (int k = 1; k < P; k++) add_op(r, c, OP_RECV_ANY, -1);
                for (int k = 1; k < P; k++) add_op(r, c, OP_SEND, k);
            }
        } else if (!strcmp(pattern, "butterfly")) {
            for (int t = 0; t < rounds; t++)
                for (int b = 1; b < P; b <<= 1) {
                    add_op(r, c, OP_SEND, i ^ b);
                    add_op(r, c, OP_RECV_ANY, -1);
                }
        } else if (!strcmp(pattern, "random")) {
            for (int t = 0; t < rounds; t++) {
                add_op(r, c, OP_SEND, perm[2 * t][i]);
                add_op(r, c, OP_SEND, perm[2 * t + 1][i]);
                add_op(r, c, OP_RECV_ANY, -1);
                add_op(r, c, OP_RECV_ANY, -1);
            }
        } else { /* master_worker: rounds tasks a worker; each result gets a task or a stop */
            if (i) {
                add_op(r, c, OP_RECV_FROM, 0);
                add_op(r, c, OP_SEND, 0);
                add_op(r, c, OP_LOOP, 0);
                continue;
            }
            for (int k = 1; k < P; k++) add_op(r, c, OP_SEND, k);
            for (int k = 0; k < rounds * (P - 1); k++) {
                add_op(r, c, OP_RECV_ANY, -1);
                add_op(r, c, OP_REPLY, -1);
            }
            tasks_left = (rounds - 1) * (P - 1);
        }
        add_op(r, c, OP_END, 0);
    }
    for (int k = 0; perm && k < rounds * 2; k++) free(perm[k]);
    free(perm);
    free(cap);
}

/* ---- the scheduler ---- */

static int can_move(int i)
{
    struct rank *r = &ranks[i];
    if (r->done_flag) return 0;
    const struct op *o = &r->ops[r->pc];
    if (o->kind == OP_RECV_ANY) return r->qhead >= 0;
    if (o->kind == OP_RECV_FROM) {
        for (int m = r->qhead; m >= 0; m = msgs[m].next)
            if (msgs[m].src == o->peer) return 1;
        return 0;
    }
    return o->kind != OP_END;
}

static void update_ready(int i)
{
    struct rank *r = &ranks[i];
    int want = can_move(i);
    if (want && r->ready_at < 0) {
        r->ready_at = nready;
        ready[nready++] = i;
    } else if (!want && r->ready_at >= 0) {
        int last = ready[--nready];
        ready[r->ready_at] = last;
        ranks[last].ready_at = r->ready_at;
        r->ready_at = -1;
    }
}

/* ---- the protocols ---- */

static void send(int i, int dest, int tag)
{
    if (free_msg < 0) {
        if (nmsgs == capmsgs) msgs = must(realloc(msgs, (size_t)(capmsgs = capmsgs ? 2 * capmsgs : 1024) * sizeof *msgs));
        free_msg = nmsgs++;
        msgs[free_msg].next = -1;
        memset(msgs[free_msg].hdr, 0, sizeof msgs[free_msg].hdr);
        msgs[free_msg].truth = NULL;
    }
    int m = free_msg;
    free_msg = msgs[m].next;
    struct msg *g = &msgs[m];
    g->src = i, g->tag = tag, g->next = -1;
    uint64_t *seq = must(u64_map_slot(&seqs, (uint64_t)i << 32 | (uint64_t)dest, 0, NULL));
    ++*seq;
    for (int c = 0; c < CLOCKS; c++) {
        mpirr_vclock *k = ranks[i].clock[c];
        /* as piggyback.c's fill: the fixed form in the slot, else the varint form */
        size_t len = mpirr_vclock_header_fixed(k, dest, *seq, coded[c], SLOT_ROOM);
        g->fixed[c] = len != 0;
        if (!len) len = mpirr_vclock_header(k, dest, *seq, coded[c], sizeof coded[c]);
        if (!len) {
            fprintf(stderr, "races_sim: a header did not fit %zu bytes\n", sizeof coded[c]);
            exit(2);
        }
        g->hdr[c] = must(realloc(g->hdr[c], len));
        memcpy(g->hdr[c], coded[c], len);
        g->len[c] = len;
        st.bytes[c] += len;
        if (len > st.max[c]) st.max[c] = len;
    }
    if (truth) {
        g->truth = must(realloc(g->truth, (size_t)P * sizeof *g->truth));
        memcpy(g->truth, truth + (size_t)i * P, (size_t)P * sizeof *g->truth);
    }
    st.msgs++;
    struct rank *d = &ranks[dest];
    if (d->qtail >= 0) msgs[d->qtail].next = m;
    else d->qhead = m;
    d->qtail = m;
    update_ready(dest);
}

static void push_unlogged(struct rank *r, int c, uint64_t d)
{
    if (r->nunlogged[c] == r->cap_unlogged[c])
        r->unlogged[c] = must(realloc(r->unlogged[c], (r->cap_unlogged[c] = r->cap_unlogged[c] ? 2 * r->cap_unlogged[c] : 8) * sizeof **r->unlogged));
    r->unlogged[c][r->nunlogged[c]++] = d;
}

/* A message from src that knew knows of rank r arrived: the verdicts of check c (a clock, or
 * CLOCKS: the truth) on r's earlier wildcard receives, as mpirr_race_arrived. Only receives
 * not yet logged are kept, in completion order: those after the last ordered one are raced by
 * this message unless they got their own message from src. */
static void check(struct rank *r, int c, int src, uint64_t knows)
{
    size_t n = r->nunlogged[c], k = n;
    while (k > 0 && !mpirr_vc_ordered(r->unlogged[c][k - 1], knows)) k--;
    size_t keep = k;
    for (size_t j = k; j < n; j++) {
        uint64_t d = r->unlogged[c][j];
        if (r->recv_src[d - 1] == src) r->unlogged[c][keep++] = d;
        else r->logged[d - 1] |= (uint8_t)(1u << c), st.logged[c]++;
    }
    r->nunlogged[c] = keep;
}

static void receive(int i, int m, int wildcard)
{
    struct rank *r = &ranks[i];
    struct msg *g = &msgs[m];
    for (int c = 0; c < CLOCKS; c++) {
        uint64_t seq, knows;
        int bad = g->fixed[c] ? mpirr_vclock_apply_fixed(r->clock[c], g->src, g->hdr[c], g->len[c], &seq, &knows)
                              : mpirr_vclock_apply(r->clock[c], g->src, g->hdr[c], g->len[c], &seq, &knows);
        if (bad) {
            fprintf(stderr, "races_sim: rank %d could not read a header from %d\n", i, g->src);
            exit(2);
        }
        check(r, c, g->src, knows);
        if (c == EXACT && truth && knows != g->truth[i]) st.truth_diff++;
    }
    if (truth) {
        uint32_t *mine = truth + (size_t)i * P;
        check(r, CLOCKS, g->src, g->truth[i]);
        for (int k = 0; k < P; k++)
            if (k != i && g->truth[k] > mine[k]) mine[k] = g->truth[k];
    }
    r->last_src = g->src;
    int tag = g->tag;
    if (tag == TAG_STOP) r->done_flag = 1;
    if (!wildcard) return;
    /* a wildcard receive completed: both clocks advance (race_check.c: mpirr_race_completed) */
    if (r->nrecv == r->cap_recv) {
        r->cap_recv = r->cap_recv ? 2 * r->cap_recv : 8;
        r->recv_src = must(realloc(r->recv_src, r->cap_recv * sizeof *r->recv_src));
        r->logged = must(realloc(r->logged, r->cap_recv));
    }
    uint64_t d = ++r->nrecv;
    for (int c = 0; c < CLOCKS; c++)
        if (mpirr_vclock_advance(r->clock[c]) != d) exit(3);
    r->recv_src[d - 1] = g->src;
    r->logged[d - 1] = 0;
    for (int c = 0; c < CLOCKS + (truth != NULL); c++) push_unlogged(r, c, d);
    if (truth) truth[(size_t)i * P + i] = (uint32_t)d;
    st.wild++;
}

/* Takes message m (queue position after prev, -1: the head) out of rank i's queue. */
static void unqueue(struct rank *r, int prev, int m)
{
    if (prev < 0) r->qhead = msgs[m].next;
    else msgs[prev].next = msgs[m].next;
    if (r->qtail == m) r->qtail = prev;
    msgs[m].next = free_msg;
    free_msg = m;
}

static void step(int i)
{
    struct rank *r = &ranks[i];
    struct op o = r->ops[r->pc++];
    switch (o.kind) {
    case OP_SEND: send(i, o.peer, TAG_TASK); break;
    case OP_REPLY:
        if (tasks_left > 0) tasks_left--, send(i, r->last_src, TAG_TASK);
        else stops_sent++, send(i, r->last_src, TAG_STOP);
        break;
    case OP_LOOP: r->pc = 0; break;
    case OP_RECV_ANY: {
        int m = r->qhead;
        unqueue(r, -1, m);
        receive(i, m, 1);
        break;
    }
    case OP_RECV_FROM: {
        int prev = -1, m = r->qhead;
        while (msgs[m].src != o.peer) prev = m, m = msgs[m].next;
        unqueue(r, prev, m);
        receive(i, m, 0);
        break;
    }
    }
    update_ready(i);
}

/* ---- one run ---- */

static int run(const char *pattern, int nranks, int rounds)
{
    P = nranks;
    memset(&st, 0, sizeof st);
    tasks_left = stops_sent = 0;
    ranks = must(calloc((size_t)P, sizeof *ranks));
    ready = must(malloc((size_t)P * sizeof *ready));
    nready = 0;
    truth = P <= TRUTH_MAX ? must(calloc((size_t)P * P, sizeof *truth)) : NULL;
    for (int i = 0; i < P; i++) {
        struct rank *r = &ranks[i];
        for (int c = 0; c < CLOCKS; c++) r->clock[c] = must(mpirr_vclock_new(P, i, c == BOUNDED));
        r->qhead = r->qtail = -1;
        r->ready_at = -1;
    }
    build(pattern, rounds);
    for (int i = 0; i < P; i++) update_ready(i);
    while (nready) step(ready[rnd() % (uint64_t)nready]);
    int stuck = 0;
    for (int i = 0; i < P; i++) {
        struct rank *r = &ranks[i];
        if (!r->done_flag && r->ops[r->pc].kind != OP_END) stuck++;
        for (uint64_t d = 0; d < r->nrecv; d++)
            if ((r->logged[d] & 1u << EXACT) && !(r->logged[d] & 1u << BOUNDED)) st.missed++;
    }
    uint64_t minimum = truth ? st.logged[CLOCKS] : st.logged[EXACT];
    printf("| %s | %d | %" PRIu64 " | %" PRIu64 " | %.1f | %" PRIu64 " | %.1f | %" PRIu64
           " | %" PRIu64 " | %" PRIu64 " | %" PRIu64 "%s | %.3f | %.3f | %" PRIu64 " |\n",
           pattern, P, st.msgs, st.wild, (double)st.bytes[EXACT] / (double)st.msgs, st.max[EXACT],
           (double)st.bytes[BOUNDED] / (double)st.msgs, st.max[BOUNDED], st.logged[EXACT],
           st.logged[BOUNDED], minimum, truth ? "" : "*",
           st.logged[EXACT] ? (double)st.logged[BOUNDED] / (double)st.logged[EXACT] : 1.0,
           minimum ? (double)st.logged[BOUNDED] / (double)minimum : 1.0, st.missed);
    fflush(stdout);
    int bad = 0;
    if (stuck) fprintf(stderr, "races_sim: %s at %d ranks: %d ranks stuck\n", pattern, P, stuck), bad = 1;
    if (st.missed) fprintf(stderr, "races_sim: %s at %d ranks: the bounded clock missed %" PRIu64 " racing receives\n", pattern, P, st.missed), bad = 1;
    if (truth && (st.truth_diff || st.logged[CLOCKS] != st.logged[EXACT]))
        fprintf(stderr, "races_sim: %s at %d ranks: the exact clock differs from the truth (%" PRIu64 " headers)\n", pattern, P, st.truth_diff), bad = 1;
    for (int i = 0; i < P; i++) {
        struct rank *r = &ranks[i];
        for (int c = 0; c < CLOCKS; c++) mpirr_vclock_delete(r->clock[c]);
        for (int c = 0; c <= CLOCKS; c++) free(r->unlogged[c]);
        free(r->ops), free(r->recv_src), free(r->logged);
    }
    for (int m = 0; m < nmsgs; m++) {
        for (int c = 0; c < CLOCKS; c++) free(msgs[m].hdr[c]);
        free(msgs[m].truth);
    }
    free(msgs), free(ranks), free(ready), free(truth);
    msgs = NULL, nmsgs = capmsgs = 0, free_msg = -1;
    u64_map_free(&seqs);
    return bad;
}

int main(int argc, char **argv)
{
    /* every clock's zeroed arrays from the heap top, untouched until used: one mapping each
     * would pass the kernel's count of mappings at 65,536 ranks */
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    /* and no padding at the top: calloc clears what was left of the old top (128 KiB by
     * default), which at 131,072 clocks was 16 GiB of pages */
    mallopt(M_TOP_PAD, 0);
    static const char *const all[] = {"halo", "master_worker", "storm", "butterfly", "random"};
    static const int rounds[] = {4, 3, 3, 2, 4}, most_ranks[] = {65536, 65536, 65536, 4096, 16384};
    const char *only = argc > 1 ? argv[1] : "all";
    int sizes[16], nsizes = 0, explicit_sizes = argc > 2;
    for (int k = 2; k < argc && nsizes < 16; k++) sizes[nsizes++] = atoi(argv[k]);
    if (!nsizes) sizes[0] = 1024, sizes[1] = 4096, sizes[2] = 16384, sizes[3] = 65536, nsizes = 4;
    printf("| pattern | ranks | messages | wildcard receives | vector B/msg | vector max | "
           "bounded B/msg | bounded max | vector logged | bounded logged | minimum | "
           "bounded/vector | bounded/minimum | missed |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    int bad = 0;
    for (int p = 0; p < 5; p++) {
        if (strcmp(only, "all") && strcmp(only, all[p])) continue;
        for (int k = 0; k < nsizes; k++) {
            if (sizes[k] < 4 || (sizes[k] > most_ranks[p] && !explicit_sizes)) continue;
            /* each run in a child of its own: a fresh heap, whose zeroed pages stay untouched
             * (memory freed by an earlier run would be cleared by calloc) */
            fflush(stdout);
            pid_t child = fork();
            if (child == 0) _exit(run(all[p], sizes[k], rounds[p]));
            int status = 1;
            if (child < 0 || waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
                WEXITSTATUS(status))
                bad = 1;
        }
    }
    return bad;
}
