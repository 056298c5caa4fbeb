/* vector_clock.c: see vector_clock.h. The "last changed" order is a doubly linked list over
 * rank indices, most recent first; lu[i] is the change tick of entry i (0: never changed, not
 * in the list) and ls[d] the tick of the last header to d, so the delta for d is the list
 * prefix with lu > ls[d]; each is a field of entry i (struct entry). Every array starts zeroed (one calloc), so a clock touches memory
 * only for the entries it uses: races_sim keeps 65,536 of them. */
#include "vector_clock.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "varint.h"

/* One rank's entry with its bookkeeping, together: a header walks the list reading lu, v and
 * next of each entry, and a clock of many ranks touches one page per entry it uses. */
struct entry {
    uint64_t v, lu, ls;
    int prev, next;
};

struct mpirr_vclock {
    int n, me, bounded;
    struct entry *e;
    uint64_t *snap, *bits, tick, own;
    int head;
};

/* The runtime's clock (one per process). */
static mpirr_vclock rt;

mpirr_vclock *mpirr_vclock_new(int nranks, int self, int bounded)
{
    mpirr_vclock *c = calloc(1, sizeof *c);
    if (!c || mpirr_vclock_setup(c, nranks, self, bounded)) {
        free(c);
        return NULL;
    }
    return c;
}

void mpirr_vclock_delete(mpirr_vclock *c)
{
    if (!c) return;
    mpirr_vclock_release(c);
    free(c);
}

int mpirr_vclock_setup(mpirr_vclock *c, int nranks, int self, int bounded)
{
    /* one block: the entries, then snap and bits (words) */
    size_t words = (size_t)nranks + (size_t)nranks / 64 + 1;
    struct entry *block = calloc((size_t)nranks * sizeof *block + words * sizeof(uint64_t), 1);
    if (!block) return -1;
    *c = (mpirr_vclock){.n = nranks, .me = self, .bounded = bounded, .head = -1, .e = block};
    c->snap = (uint64_t *)(block + nranks);
    c->bits = c->snap + nranks;
    return 0;
}

void mpirr_vclock_release(mpirr_vclock *c)
{
    free(c->e);
    *c = (mpirr_vclock){.head = -1};
}

int mpirr_vc_init(int nranks, int self, int bounded) { return mpirr_vclock_setup(&rt, nranks, self, bounded); }
void mpirr_vc_free(void) { mpirr_vclock_release(&rt); }
mpirr_vclock *mpirr_vc_runtime(void) { return &rt; }

/* The longer of the two forms: three varints, then pairs of an index and a zigzag value, or a
 * marker, a bitmap and zigzag values. */
size_t mpirr_vclock_header_max(const mpirr_vclock *c)
{
    return 3 * MPIRR_VARINT_MAX + (size_t)c->n * 2 * MPIRR_VARINT_MAX;
}
size_t mpirr_vc_header_max(void) { return mpirr_vclock_header_max(&rt); }

/* Entry i changed: move it to the front of the list. */
static void touch(mpirr_vclock *c, int i)
{
    int listed = c->e[i].lu != 0;
    c->e[i].lu = ++c->tick;
    if (c->head == i) return;
    if (listed) { /* unlink */
        if (c->e[i].prev >= 0) c->e[c->e[i].prev].next = c->e[i].next;
        if (c->e[i].next >= 0) c->e[c->e[i].next].prev = c->e[i].prev;
    }
    c->e[i].prev = -1;
    c->e[i].next = c->head;
    if (c->head >= 0) c->e[c->head].prev = i;
    c->head = i;
}

static void raise_to(mpirr_vclock *c, int i, uint64_t value)
{
    if (i != c->me && value > c->e[i].v) {
        c->e[i].v = value;
        touch(c, i);
    }
}

static size_t put_diff(uint8_t *p, uint64_t from, uint64_t value)
{
    return mpirr_varint_put(p, mpirr_zigzag((int64_t)(from - value)));
}

static int get_diff(const uint8_t **p, const uint8_t *end, uint64_t from, uint64_t *value)
{
    uint64_t z;
    if (mpirr_varint_get(p, end, &z)) return -1;
    *value = from - (uint64_t)mpirr_unzigzag(z);
    return 0;
}

/* Marks in bits the changed entries for dest (list prefix newer than ls[dest]); returns the
 * bytes their dense form takes (marker, bitmap, steps in rank order from sent_at). */
static size_t mark_dense(mpirr_vclock *c, int dest, uint64_t sent_at)
{
    size_t nbytes = ((size_t)c->n + 7) / 8, words = (size_t)c->n / 64 + 1, len = 1 + nbytes;
    memset(c->bits, 0, words * sizeof *c->bits);
    for (int i = c->head; i >= 0 && c->e[i].lu > c->e[dest].ls; i = c->e[i].next)
        if (i != dest) c->bits[i / 64] |= 1ull << (i % 64);
    uint64_t previous = sent_at;
    for (size_t w = 0; w < words; w++)
        for (uint64_t m = c->bits[w]; m; m &= m - 1) {
            uint64_t value = c->e[(int)(w * 64) + __builtin_ctzll(m)].v;
            len += mpirr_varint_len(mpirr_zigzag((int64_t)(previous - value)));
            previous = value;
        }
    return len;
}

/* The entries mark_dense marked, as a bitmap and zigzag steps; returns the bytes written. */
static size_t write_dense(mpirr_vclock *c, uint8_t *p, uint64_t sent_at)
{
    size_t nbytes = ((size_t)c->n + 7) / 8, words = (size_t)c->n / 64 + 1;
    uint8_t *out = p;
    *out++ = 0;
    for (size_t b = 0; b < nbytes; b++) out[b] = (uint8_t)(c->bits[b / 8] >> (8 * (b % 8)));
    out += nbytes;
    uint64_t previous = sent_at;
    for (size_t w = 0; w < words; w++)
        for (uint64_t m = c->bits[w]; m; m &= m - 1) {
            int i = (int)(w * 64) + __builtin_ctzll(m);
            out += put_diff(out, previous, c->e[i].v);
            previous = c->e[i].v;
        }
    return (size_t)(out - p);
}

/* Sparse pairs (index + 1, zigzag(sent_at - value)) of the changed entries for dest, most
 * recent first, while they fit in room; *all: whether every one did. Returns the bytes. */
static size_t put_pairs(mpirr_vclock *c, int dest, uint64_t sent_at, uint8_t *p, size_t room,
                        size_t *index_bytes, size_t *count, int *all)
{
    uint8_t *q = p;
    *all = 1;
    for (int i = c->head; i >= 0 && c->e[i].lu > c->e[dest].ls; i = c->e[i].next) {
        if (i == dest) continue;
        uint64_t z = mpirr_zigzag((int64_t)(sent_at - c->e[i].v));
        size_t k = mpirr_varint_len((uint64_t)i + 1);
        if (room - (size_t)(q - p) < k + mpirr_varint_len(z)) {
            *all = 0;
            break;
        }
        mpirr_varint_put(q, (uint64_t)i + 1);
        *index_bytes += k;
        q += k;
        q += mpirr_varint_put(q, z);
        (*count)++;
    }
    return (size_t)(q - p);
}

/* The changed entries for dest at p, within room bytes: sparse pairs, or the dense form when
 * it is smaller. Returns the bytes written and marks the entries as sent to dest; SIZE_MAX,
 * marking nothing, when they might not fit. A bounded clock keeps within
 * MPIRR_VC_BOUNDED_BYTES (header: the bytes before the entries): the exact delta when one of
 * the two forms fits, else the most recently changed entries that fit; the others are dropped
 * for dest, so its receiver knows less than the sender, which only makes it see more races
 * (vector_clock.h). */
static size_t put_entries(mpirr_vclock *c, int dest, uint64_t sent_at, uint8_t *p, size_t room,
                          size_t header)
{
    /* Nothing new but dest's own entry (a ping-pong, an exchange with one peer): no entries. */
    int first = c->head == dest ? c->e[c->head].next : c->head;
    if (first < 0 || c->e[first].lu <= c->e[dest].ls) {
        c->e[dest].ls = c->tick;
        return 0;
    }
    int bounded = c->bounded, all;
    if (bounded) {
        size_t left = header < MPIRR_VC_BOUNDED_BYTES ? MPIRR_VC_BOUNDED_BYTES - header : 0;
        if (left < room) room = left;
    }
    /* Sparse first: most headers name a few entries; a bitmap pays off once the indices
     * alone take more room than it. Each entry is checked against the room by its exact
     * size (a margin of two longest varints an entry sent most 4-rank headers, which fit,
     * the long way round, code_long in piggyback.c); the bitmap's steps, chained in rank
     * order, are not the ones measured, so the exact clock checks them by their longest (a
     * bounded clock measures them: mark_dense). */
    size_t index_bytes = 0, bitmap_bytes = 1 + ((size_t)c->n + 7) / 8, count = 0;
    size_t len = put_pairs(c, dest, sent_at, p, room, &index_bytes, &count, &all);
    if (!bounded) {
        if (!all) return SIZE_MAX; /* does not fit */
        if (index_bytes > bitmap_bytes) {
            if (room < bitmap_bytes + count * MPIRR_VARINT_MAX) return SIZE_MAX;
            mark_dense(c, dest, sent_at);
            len = write_dense(c, p, sent_at);
        }
    } else if (!all || index_bytes > bitmap_bytes) {
        /* the exact delta in its smaller form if it fits, else the pairs written stand */
        size_t dense = bitmap_bytes < room ? mark_dense(c, dest, sent_at) : SIZE_MAX;
        if (dense <= room && (dense < len || !all)) len = write_dense(c, p, sent_at);
    }
    c->e[dest].ls = c->tick;
    return len;
}

uint64_t mpirr_vclock_advance(mpirr_vclock *c) { return ++c->own; }
uint64_t mpirr_vclock_own(const mpirr_vclock *c) { return c->own; }
uint64_t mpirr_vc_advance(void) { return mpirr_vclock_advance(&rt); }
uint64_t mpirr_vc_own(void) { return rt.own; }

/* v[i] rises only above 0 and every rise puts i in the list: an empty list is an all-zero v */
int mpirr_vc_zero(void) { return rt.own == 0 && rt.head < 0; }

size_t mpirr_vclock_header(mpirr_vclock *c, int dest, uint64_t seq, uint8_t *out, size_t room)
{
    if (room < 3 * MPIRR_VARINT_MAX) return 0;
    uint8_t *p = out;
    uint64_t sent_at = c->own;
    p += mpirr_varint_put(p, seq);
    p += mpirr_varint_put(p, sent_at);
    p += put_diff(p, sent_at, dest == c->me ? sent_at : c->e[dest].v);
    size_t prefix = (size_t)(p - out);
    size_t k = put_entries(c, dest, sent_at, p, room - prefix, prefix);
    return k == SIZE_MAX ? 0 : prefix + k;
}
size_t mpirr_vc_header(int dest, uint64_t seq, uint8_t *out, size_t room)
{
    return mpirr_vclock_header(&rt, dest, seq, out, room);
}

size_t mpirr_vclock_header_fixed(mpirr_vclock *c, int dest, uint64_t seq, uint8_t *out, size_t room)
{
    uint64_t sent_at = c->own, knows = dest == c->me ? sent_at : c->e[dest].v;
    /* a bounded clock's 16 bytes go further in varints: the three values take 3 to 6 */
    if (c->bounded || room < MPIRR_VC_FIXED || (seq | sent_at | knows) > UINT32_MAX) return 0;
    size_t k = put_entries(c, dest, sent_at, out + MPIRR_VC_FIXED, room - MPIRR_VC_FIXED,
                           MPIRR_VC_FIXED);
    if (k == SIZE_MAX) return 0;
    mpirr_put_u32(out, (uint32_t)seq);
    mpirr_put_u32(out + 4, (uint32_t)sent_at);
    mpirr_put_u32(out + 8, (uint32_t)knows);
    return MPIRR_VC_FIXED + k;
}
size_t mpirr_vc_header_fixed(int dest, uint64_t seq, uint8_t *out, size_t room)
{
    return mpirr_vclock_header_fixed(&rt, dest, seq, out, room);
}

static int apply_dense(mpirr_vclock *c, const uint8_t *p, const uint8_t *end, uint64_t sent_at)
{
    int n = c->n;
    size_t nbytes = ((size_t)n + 7) / 8;
    if ((size_t)(end - p) < nbytes) return -1;
    const uint8_t *map = p;
    p += nbytes;
    if (n % 8 && map[nbytes - 1] >> (n % 8)) return -1; /* a bit past the last rank */
    uint64_t previous = sent_at, value;
    for (int i = 0; i < n; i++) {
        if (!(map[i / 8] >> (i % 8) & 1)) continue;
        if (get_diff(&p, end, previous, &value)) return -1;
        raise_to(c, i, value);
        previous = value;
    }
    return p == end ? 0 : -1;
}

/* The entries after a header's prefix, [p, end). */
static int apply_entries(mpirr_vclock *c, const uint8_t *p, const uint8_t *end, uint64_t sent_at)
{
    uint64_t i, value;
    if (p < end && *p == 0) return apply_dense(c, p + 1, end, sent_at);
    while (p < end) {
        if (mpirr_varint_get(&p, end, &i) || i == 0 || i > (uint64_t)c->n ||
            get_diff(&p, end, sent_at, &value))
            return -1;
        raise_to(c, (int)i - 1, value);
    }
    return 0;
}

int mpirr_vclock_apply(mpirr_vclock *c, int src, const uint8_t *in, size_t len, uint64_t *seq,
                       uint64_t *knows_me)
{
    const uint8_t *p = in, *end = in + len;
    uint64_t sent_at;
    if (mpirr_varint_get(&p, end, seq) || mpirr_varint_get(&p, end, &sent_at) ||
        get_diff(&p, end, sent_at, knows_me))
        return -1;
    raise_to(c, src, sent_at);
    return apply_entries(c, p, end, sent_at);
}
int mpirr_vc_apply(int src, const uint8_t *in, size_t len, uint64_t *seq, uint64_t *knows_me)
{
    return mpirr_vclock_apply(&rt, src, in, len, seq, knows_me);
}

int mpirr_vclock_apply_fixed(mpirr_vclock *c, int src, const uint8_t *in, size_t len,
                             uint64_t *seq, uint64_t *knows_me)
{
    if (len < MPIRR_VC_FIXED) return -1;
    uint64_t sent_at = mpirr_get_u32(in + 4);
    *seq = mpirr_get_u32(in);
    *knows_me = mpirr_get_u32(in + 8);
    raise_to(c, src, sent_at);
    return len == MPIRR_VC_FIXED ? 0 : apply_entries(c, in + MPIRR_VC_FIXED, in + len, sent_at);
}
int mpirr_vc_apply_fixed(int src, const uint8_t *in, size_t len, uint64_t *seq, uint64_t *knows_me)
{
    return mpirr_vclock_apply_fixed(&rt, src, in, len, seq, knows_me);
}

uint64_t *mpirr_vclock_snapshot(mpirr_vclock *c)
{
    for (int i = 0; i < c->n; i++) c->snap[i] = c->e[i].v;
    c->snap[c->me] = c->own;
    return c->snap;
}
uint64_t *mpirr_vc_snapshot(void) { return mpirr_vclock_snapshot(&rt); }

void mpirr_vclock_merge(mpirr_vclock *c, const uint64_t *w)
{
    for (int i = 0; i < c->n; i++) raise_to(c, i, w[i]);
}
void mpirr_vc_merge(const uint64_t *w) { mpirr_vclock_merge(&rt, w); }
