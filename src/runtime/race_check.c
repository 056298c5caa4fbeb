/* race_check.c: the race verdicts of races mode (race_check.h). Done entries sit in a ring in
 * completion order, which is also the order of their completion events, so a message whose
 * header says its sender knew this rank's event E can only race with the tail of the ring
 * (entries completed after E): the check walks back from the newest entry and stops there.
 * The ring index is also the entry's slot in the pending file. Both start small and grow
 * together, doubling up to MPIRR_RACE_PENDING, so a program with few undecided receives at
 * once needs only a small file, and a disk too full to grow it costs verdicts (logged
 * instead), never a fault. */
#include "race_check.h"

#include <stdlib.h>
#include <string.h>

#include "pending_slots.h"
#include "runtime.h"
#include "settings.h"
#include "vector_clock.h"

struct posted {
    int live, tag, next_free;
    int seen_src, seen_several; /* senders of acceptable messages that went elsewhere meanwhile */
    const mpirr_comm_info *ci;
    uint64_t key;
    uint32_t sub;
    unsigned call;
};

struct done {
    uint64_t key, done;
    uint32_t sub;
    unsigned call;
    int decided, tag_pattern, src, source, tag;
    const mpirr_comm_info *ci;
};

struct early { uint64_t seq, knows; }; /* a message that arrived before an earlier one */
/* From a count exchange at a collective: once the first count messages from a rank are in,
 * everything else it sends knows this rank's half-event knows. */
struct checkpoint { uint64_t count, knows; };

/* one page: the header and 126 slots */
enum { RING_START = (4096 - PENDING_HEADER_BYTES) / PENDING_SLOT_BYTES };

static int P, me, log_all;
static uint64_t *sent, *received, *prefix, *safe;
static struct early **early;
static size_t *nearly, *capearly;
static struct checkpoint **cps;
static size_t *ncps;
static struct posted *posts;
static int nposts, free_post = -1;
static struct done *ring;
static uint32_t ring_cap, ring_max, ring_head, ring_len;
static int ring_fixed; /* the pending file could not grow: ring_cap is final */
static mpirr_pending_slots *slots;

static uint64_t *ctr(unsigned which) { return &mpirr_rt.counters[which]; }

int mpirr_race_init(void)
{
    P = mpirr_rt.nranks;
    me = mpirr_rt.rank;
    sent = calloc((size_t)P, sizeof *sent);
    received = calloc((size_t)P, sizeof *received);
    prefix = calloc((size_t)P, sizeof *prefix);
    safe = calloc((size_t)P, sizeof *safe);
    early = calloc((size_t)P, sizeof *early);
    nearly = calloc((size_t)P, sizeof *nearly);
    capearly = calloc((size_t)P, sizeof *capearly);
    cps = calloc((size_t)P, sizeof *cps);
    ncps = calloc((size_t)P, sizeof *ncps);
    /* Verdicts that may wait at once: MPIRR_RACE_PENDING (at least 1) at most, RING_START to
     * begin with (a one-page file, allocated on disk up front). */
    ring_max = (uint32_t)mpirr_setting_value(MPIRR_SET_RACE_PENDING);
    ring_cap = ring_max < RING_START ? ring_max : RING_START;
    ring_fixed = 0;
    ring = calloc(ring_cap, sizeof *ring);
    if (!sent || !received || !prefix || !safe || !early || !nearly || !capearly || !cps ||
        !ncps || !ring)
        mpirr_fatal("out of memory for race detection");
    char err[512];
    if (!mpirr_rt.writer) { /* not recording (the log could not be made): just the protocol */
        log_all = 1;
        return 0;
    }
    slots = mpirr_pending_open(mpirr_rt.dir, me, &mpirr_rt.run_id, ring_cap, err, sizeof err);
    if (!slots) {
        mpirr_warn("rank %d: %s; logging every wildcard receive instead", me, err);
        log_all = 1;
    }
    mpirr_log_note_pending(mpirr_rt.writer, slots != NULL);
    return 0;
}

static void free_all(void)
{
    for (int i = 0; i < P && early; i++) free(early[i]);
    for (int i = 0; i < P && cps; i++) free(cps[i]);
    free(cps), free(ncps);
    cps = NULL;
    ncps = NULL;
    free(sent), free(received), free(prefix), free(safe), free(early), free(nearly);
    free(capearly), free(posts), free(ring);
    sent = received = prefix = safe = NULL;
    early = NULL;
    nearly = capearly = NULL;
    posts = NULL;
    ring = NULL;
    nposts = 0;
    free_post = -1;
    ring_len = ring_head = 0;
}

uint64_t mpirr_race_next_seq(int dest) { return ++sent[dest]; }

/* Writes the outcome as a RECV_DONE record keyed by the receive's post. */
static void log_outcome(uint64_t key, uint32_t sub, unsigned call, int has_match, int source,
                        int tag, int cancelled)
{
    mpirr_record r = {.kind = MPIRR_REC_RECV_DONE, .call = (uint16_t)call, .event = key,
                      .sub = sub, .has_match = (uint8_t)has_match, .source = source, .tag = tag,
                      .cancelled = cancelled};
    mpirr_record_append_locked(&r);
}

static struct done *ring_at(uint32_t k) { return &ring[(ring_head + k) % ring_cap]; }
static uint32_t slot_of(const struct done *d) { return (uint32_t)(d - ring); }

/* Puts d's outcome in its pending slot (d sits at its place in the ring). */
static void stage_slot(const struct done *d)
{
    mpirr_record r = {.kind = MPIRR_REC_RECV_DONE, .call = (uint16_t)d->call, .event = d->key,
                      .sub = d->sub, .has_match = 1, .source = d->source, .tag = d->tag};
    mpirr_pending_set(slots, slot_of(d), &r);
}

/* The ring is full: doubles it (up to ring_max) and the pending file with it. Entries keep
 * their order from ring_head; those that wrapped around move to their new places, each
 * staged there before its old slot is cleared (a death in between leaves the outcome twice,
 * which is safe). 0, or -1 when the file cannot grow (one warning, and the ring stays). */
static int ring_grow(void)
{
    if (ring_fixed || ring_cap >= ring_max) return -1;
    uint32_t cap = ring_cap > ring_max / 2 ? ring_max : 2 * ring_cap, old = ring_cap;
    struct done *grown = realloc(ring, (size_t)cap * sizeof *ring);
    char err[600];
    if (grown) ring = grown;
    if (!grown || (slots && mpirr_pending_grow(slots, cap, err, sizeof err))) {
        mpirr_warn("rank %d: the pending file could not grow (%s); beyond %u undecided "
                   "receives the oldest is logged", me, grown ? err : "out of memory", old);
        ring_fixed = 1;
        return -1;
    }
    ring_cap = cap;
    for (uint32_t k = 0; k < ring_len; k++) {
        uint32_t from = (ring_head + k) % old, to = (ring_head + k) % cap;
        if (from == to) continue;
        ring[to] = ring[from];
        if (!ring[to].decided && slots) {
            stage_slot(&ring[to]);
            mpirr_pending_clear(slots, from);
        }
    }
    return 0;
}

static void decide(struct done *d, int log, unsigned counter)
{
    if (log) {
        log_outcome(d->key, d->sub, d->call, 1, d->source, d->tag, 0);
        (*ctr(counter))++;
    }
    d->decided = 1;
    if (slots) mpirr_pending_clear(slots, slot_of(d));
}

static void pop_decided(void)
{
    while (ring_len && ring_at(0)->decided) {
        ring_head = (ring_head + 1) % ring_cap;
        ring_len--;
    }
}

/* Whether no message can race with d any more (see race_check.h, "closed"). */
static int closed(const struct done *d)
{
    const mpirr_comm_info *ci = d->ci;
    for (int i = 0; i < ci->npeers; i++) {
        int s = mpirr_comm_world_rank(ci, i);
        if (s == d->src) continue; /* same source: MPI's order per sender decides */
        if (s == me ? received[me] != sent[me] : safe[s] < d->done) return 0;
    }
    return 1;
}

static void sweep(void)
{
    while (ring_len) {
        struct done *d = ring_at(0);
        if (!d->decided) {
            if (!closed(d)) break;
            decide(d, 0, 0);
        }
        pop_decided();
    }
}

int mpirr_race_posted(const mpirr_comm_info *ci, int tag, uint64_t key, uint32_t sub, unsigned call)
{
    if (!ci || !mpirr_rt.piggyback) return -1;
    mpirr_lock();
    int id;
    if (free_post >= 0) {
        id = free_post;
        free_post = posts[id].next_free;
    } else {
        struct posted *np = realloc(posts, (size_t)(nposts + 1) * sizeof *posts);
        if (!np) mpirr_fatal("out of memory for race detection");
        posts = np;
        id = nposts++;
    }
    posts[id] = (struct posted){.live = 1, .tag = tag, .ci = ci, .key = key, .sub = sub,
                                .call = call, .next_free = -1, .seen_src = -1};
    mpirr_unlock();
    return id;
}

static void release_post(int id)
{
    posts[id].live = 0;
    posts[id].next_free = free_post;
    free_post = id;
}

static int accepts(int pattern, int tag) { return pattern == MPI_ANY_TAG || pattern == tag; }

static void apply_checkpoints(int src)
{
    size_t k = 0;
    while (k < ncps[src] && cps[src][k].count <= prefix[src]) {
        if (cps[src][k].knows > safe[src]) safe[src] = cps[src][k].knows;
        k++;
    }
    if (k) {
        memmove(cps[src], cps[src] + k, (ncps[src] - k) * sizeof **cps);
        ncps[src] -= k;
    }
}

/* Messages that were waiting in early for the prefix to reach them. */
static void advance_prefix(int src)
{
    for (size_t i = 0; i < nearly[src];) {
        struct early e = early[src][i];
        if (e.seq != prefix[src] + 1) {
            i++;
            continue;
        }
        prefix[src] = e.seq;
        if (e.knows > safe[src]) safe[src] = e.knows;
        early[src][i] = early[src][--nearly[src]];
        i = 0;
    }
}

/* Message seq of src arrived, knowing knows of this rank. seq 0: a message without a number,
 * sent while src's clock was all zero (knows 0). Those come before all of src's numbered
 * messages, so when one arrives, the first place of src's order not yet filled is one of
 * theirs (had they all filled their places, this one would not be arriving now): it takes
 * that place, and which of them it was does not matter, since they all knew nothing. */
static void note_order(int src, uint64_t seq, uint64_t knows)
{
    received[src]++;
    if (seq && seq != prefix[src] + 1) {
        if (seq <= prefix[src]) return; /* impossible unless a header was lost: ignore */
        if (nearly[src] == capearly[src]) {
            capearly[src] = capearly[src] ? 2 * capearly[src] : 8;
            struct early *ne = realloc(early[src], capearly[src] * sizeof *ne);
            if (!ne) mpirr_fatal("out of memory for race detection");
            early[src] = ne;
        }
        early[src][nearly[src]++] = (struct early){seq, knows};
        return;
    }
    prefix[src]++;
    if (knows > safe[src]) safe[src] = knows;
    if (nearly[src]) advance_prefix(src);
    if (ncps[src]) apply_checkpoints(src);
}

void mpirr_race_arrived(const mpirr_comm_info *ci, int src, int tag, uint64_t seq,
                        uint64_t knows_me, int receiver)
{
    mpirr_lock();
    (*ctr(MPIRR_CTR_MSGS_RECEIVED))++;
    for (int i = 0; i < nposts; i++) {
        struct posted *p = &posts[i];
        if (!p->live || i == receiver || p->ci->id != ci->id || !accepts(p->tag, tag)) continue;
        if (p->seen_src < 0) p->seen_src = src;
        else if (p->seen_src != src) p->seen_several = 1;
    }
    for (uint32_t k = ring_len; k-- > 0;) {
        struct done *d = ring_at(k);
        if (mpirr_vc_ordered(d->done, knows_me)) break; /* completed before the send was made */
        if (!d->decided && d->ci->id == ci->id && accepts(d->tag_pattern, tag) && d->src != src)
            decide(d, 1, MPIRR_CTR_RACING_RECEIVES);
    }
    note_order(src, seq, knows_me);
    sweep();
    mpirr_unlock();
}

void mpirr_race_completed(int id, int has_match, int source, int tag, int src, int cancelled)
{
    if (id < 0) return;
    mpirr_lock();
    struct posted p = posts[id];
    release_post(id);
    if (cancelled || !has_match) { /* replay must reproduce the cancel or the failure */
        log_outcome(p.key, p.sub, p.call, has_match && !cancelled, source, tag, cancelled);
        mpirr_unlock();
        return;
    }
    (*ctr(MPIRR_CTR_WILD_RECEIVES))++;
    /* A message from another sender, acceptable to it, arrived elsewhere while it was posted:
     * it could have been this receive's (conservative: it may have matched before). One from
     * its own sender could not: MPI's order per sender and the posting order decide. */
    int raced = p.seen_several || (p.seen_src >= 0 && p.seen_src != src);
    if (raced || log_all) {
        log_outcome(p.key, p.sub, p.call, 1, source, tag, 0);
        (*ctr(raced ? MPIRR_CTR_RACING_RECEIVES : MPIRR_CTR_FALLBACK_LOGGED))++;
        mpirr_unlock();
        return;
    }
    struct done entry = {.key = p.key, .done = mpirr_vc_own() + 1, .sub = p.sub, .call = p.call,
                         .tag_pattern = p.tag, .src = src, .source = source, .tag = tag,
                         .ci = p.ci};
    if (closed(&entry)) { /* no other sender (a pair of ranks): the clock need not move */
        mpirr_unlock();
        return;
    }
    if (ring_len == ring_cap && ring_grow()) { /* bound reached: log the oldest instead */
        decide(ring_at(0), 1, MPIRR_CTR_FALLBACK_LOGGED);
        pop_decided();
    }
    /* the receive's number: the ring stays sorted by it, and sends from now on know it */
    entry.done = mpirr_vc_advance();
    struct done *d = ring_at(ring_len++);
    *d = entry;
    if (slots) stage_slot(d);
    if (ring_len > *ctr(MPIRR_CTR_PENDING_PEAK)) *ctr(MPIRR_CTR_PENDING_PEAK) = ring_len;
    sweep();
    mpirr_unlock();
}

int mpirr_race_wants_counts(void)
{
    mpirr_lock();
    int want = ring_len >= 64;
    mpirr_unlock();
    return want;
}

void mpirr_race_exchange_counts(const mpirr_comm_info *ci, uint64_t knows)
{
    if (!sent) return;
    int n = ci->npeers;
    uint64_t *out = malloc(2 * (size_t)n * sizeof *out), *in = out + n;
    if (!out) mpirr_fatal("out of memory for race detection");
    mpirr_lock();
    for (int i = 0; i < n; i++) out[i] = sent[mpirr_comm_world_rank(ci, i)];
    mpirr_unlock();
    if (PMPI_Alltoall(out, 1, MPI_UINT64_T, in, 1, MPI_UINT64_T, mpirr_comm_shadow(ci)) == MPI_SUCCESS) {
        mpirr_lock();
        for (int i = 0; i < n; i++) {
            int s = mpirr_comm_world_rank(ci, i);
            if (s == me) continue;
            struct checkpoint *nc = realloc(cps[s], (ncps[s] + 1) * sizeof *nc);
            if (!nc) mpirr_fatal("out of memory for race detection");
            cps[s] = nc;
            cps[s][ncps[s]++] = (struct checkpoint){in[i], knows};
            apply_checkpoints(s);
        }
        sweep();
        mpirr_unlock();
    }
    free(out);
}

void mpirr_race_dropped(int id)
{
    if (id < 0) return;
    mpirr_lock();
    release_post(id);
    mpirr_unlock();
}

void mpirr_race_finish(void)
{
    if (!sent) return;
    uint64_t *expected = calloc((size_t)P, sizeof *expected);
    mpirr_comm_info *world = mpirr_comm_find(MPI_COMM_WORLD);
    int known = expected && world &&
                PMPI_Alltoall(sent, 1, MPI_UINT64_T, expected, 1, MPI_UINT64_T,
                              mpirr_comm_shadow(world)) == MPI_SUCCESS;
    mpirr_lock();
    for (uint32_t k = 0; k < ring_len; k++) {
        struct done *d = ring_at(k);
        if (d->decided) continue;
        int unreceived = !known;
        for (int i = 0; i < d->ci->npeers && !unreceived; i++) {
            int s = mpirr_comm_world_rank(d->ci, i);
            unreceived = s != d->src && expected[s] > received[s];
        }
        decide(d, unreceived, MPIRR_CTR_FALLBACK_LOGGED);
    }
    ring_len = 0;
    mpirr_unlock();
    free(expected);
    mpirr_pending_close(slots, 1);
    slots = NULL;
    free_all();
}

void mpirr_race_keep_pending(void)
{
    if (!sent) return; /* the caller holds the runtime lock */
    mpirr_pending_close(slots, 0);
    slots = NULL;
    log_all = 1; /* nothing is recorded any more: no slot to keep an outcome in */
}

void mpirr_race_abandon(void)
{
    if (!sent) return;
    mpirr_pending_close(slots, 0);
    slots = NULL;
    free_all();
}
