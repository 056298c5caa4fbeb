/* vector_clock.c: see vector_clock.h. The "last changed" order is a doubly linked list over
 * rank indices, most recent first; lu[i] is the change tick of entry i and ls[d] the tick of the
 * last header to d, so the delta for d is the list prefix with lu > ls[d]. */
#include "vector_clock.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "varint.h"

static int n, me;
static uint64_t *v, *lu, *ls, *snap, *bits, tick, own;
static int *prev, *next, head = -1;

int mpirr_vc_init(int nranks, int self)
{
    n = nranks;
    me = self;
    v = calloc((size_t)n, sizeof *v);
    lu = calloc((size_t)n, sizeof *lu);
    ls = calloc((size_t)n, sizeof *ls);
    snap = calloc((size_t)n, sizeof *snap);
    bits = calloc((size_t)n / 64 + 1, sizeof *bits);
    prev = malloc((size_t)n * sizeof *prev);
    next = malloc((size_t)n * sizeof *next);
    if (!v || !lu || !ls || !snap || !bits || !prev || !next) {
        mpirr_vc_free();
        return -1;
    }
    for (int i = 0; i < n; i++) prev[i] = next[i] = -2; /* -2: not in the list */
    head = -1;
    tick = own = 0;
    return 0;
}

void mpirr_vc_free(void)
{
    free(v), free(lu), free(ls), free(snap), free(bits), free(prev), free(next);
    v = lu = ls = snap = bits = NULL;
    prev = next = NULL;
    n = 0;
}

/* The longer of the two forms: three varints, then pairs of an index and a zigzag value, or a
 * marker, a bitmap and zigzag values. */
size_t mpirr_vc_header_max(void) { return 3 * MPIRR_VARINT_MAX + (size_t)n * 2 * MPIRR_VARINT_MAX; }

/* Entry i changed: move it to the front of the list. */
static void touch(int i)
{
    lu[i] = ++tick;
    if (head == i) return;
    if (prev[i] != -2) { /* unlink */
        if (prev[i] >= 0) next[prev[i]] = next[i];
        if (next[i] >= 0) prev[next[i]] = prev[i];
    }
    prev[i] = -1;
    next[i] = head;
    if (head >= 0) prev[head] = i;
    head = i;
}

static void raise_to(int i, uint64_t value)
{
    if (i != me && value > v[i]) {
        v[i] = value;
        touch(i);
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

/* The changed entries for dest (list prefix newer than ls[dest]) in rank order, as a bitmap
 * and zigzag steps; returns the bytes written. */
static size_t put_dense(uint8_t *p, int dest, uint64_t sent_at)
{
    size_t nbytes = ((size_t)n + 7) / 8, words = (size_t)n / 64 + 1;
    memset(bits, 0, words * sizeof *bits);
    for (int i = head; i >= 0 && lu[i] > ls[dest]; i = next[i])
        if (i != dest) bits[i / 64] |= 1ull << (i % 64);
    uint8_t *out = p;
    *out++ = 0;
    for (size_t b = 0; b < nbytes; b++) out[b] = (uint8_t)(bits[b / 8] >> (8 * (b % 8)));
    out += nbytes;
    uint64_t previous = sent_at;
    for (size_t w = 0; w < words; w++)
        for (uint64_t m = bits[w]; m; m &= m - 1) {
            int i = (int)(w * 64) + __builtin_ctzll(m);
            out += put_diff(out, previous, v[i]);
            previous = v[i];
        }
    return (size_t)(out - p);
}

/* The changed entries for dest at p, within room bytes: sparse pairs, or the dense form when
 * it is smaller. Returns the bytes written and marks the entries as sent to dest; SIZE_MAX,
 * marking nothing, when they might not fit. */
static size_t put_entries(int dest, uint64_t sent_at, uint8_t *p, size_t room)
{
    /* Nothing new but dest's own entry (a ping-pong, an exchange with one peer): no entries. */
    int first = head == dest ? next[head] : head;
    if (first < 0 || lu[first] <= ls[dest]) {
        ls[dest] = tick;
        return 0;
    }
    /* Sparse first: most headers name a few entries; a bitmap pays off once the indices
     * alone take more room than it. Each entry is checked against the room by its exact
     * size (a margin of two longest varints an entry sent most 4-rank headers, which fit,
     * the long way round, code_long in piggyback.c); the bitmap's steps, chained in rank
     * order, are not the ones measured, so it is checked by their longest. */
    uint8_t *q = p;
    size_t index_bytes = 0, bitmap_bytes = 1 + ((size_t)n + 7) / 8, count = 0;
    for (int i = head; i >= 0 && lu[i] > ls[dest]; i = next[i]) {
        if (i == dest) continue;
        uint64_t z = mpirr_zigzag((int64_t)(sent_at - v[i]));
        size_t k = mpirr_varint_len((uint64_t)i + 1);
        if (room - (size_t)(q - p) < k + mpirr_varint_len(z)) return SIZE_MAX; /* does not fit */
        mpirr_varint_put(q, (uint64_t)i + 1);
        index_bytes += k;
        q += k;
        q += mpirr_varint_put(q, z);
        count++;
    }
    if (index_bytes > bitmap_bytes) {
        if (room < bitmap_bytes + count * MPIRR_VARINT_MAX) return SIZE_MAX;
        q = p + put_dense(p, dest, sent_at);
    }
    ls[dest] = tick;
    return (size_t)(q - p);
}

uint64_t mpirr_vc_advance(void) { return ++own; }

uint64_t mpirr_vc_own(void) { return own; }

/* v[i] rises only above 0 and every rise puts i in the list: an empty list is an all-zero v */
int mpirr_vc_zero(void) { return own == 0 && head < 0; }

size_t mpirr_vc_header(int dest, uint64_t seq, uint8_t *out, size_t room)
{
    if (room < 3 * MPIRR_VARINT_MAX) return 0;
    uint8_t *p = out;
    uint64_t sent_at = own;
    p += mpirr_varint_put(p, seq);
    p += mpirr_varint_put(p, sent_at);
    p += put_diff(p, sent_at, dest == me ? sent_at : v[dest]);
    size_t k = put_entries(dest, sent_at, p, room - (size_t)(p - out));
    return k == SIZE_MAX ? 0 : (size_t)(p - out) + k;
}

size_t mpirr_vc_header_fixed(int dest, uint64_t seq, uint8_t *out, size_t room)
{
    uint64_t sent_at = own, knows = dest == me ? sent_at : v[dest];
    if (room < MPIRR_VC_FIXED || (seq | sent_at | knows) > UINT32_MAX) return 0;
    size_t k = put_entries(dest, sent_at, out + MPIRR_VC_FIXED, room - MPIRR_VC_FIXED);
    if (k == SIZE_MAX) return 0;
    mpirr_put_u32(out, (uint32_t)seq);
    mpirr_put_u32(out + 4, (uint32_t)sent_at);
    mpirr_put_u32(out + 8, (uint32_t)knows);
    return MPIRR_VC_FIXED + k;
}

static int apply_dense(const uint8_t *p, const uint8_t *end, uint64_t sent_at)
{
    size_t nbytes = ((size_t)n + 7) / 8;
    if ((size_t)(end - p) < nbytes) return -1;
    const uint8_t *map = p;
    p += nbytes;
    if (n % 8 && map[nbytes - 1] >> (n % 8)) return -1; /* a bit past the last rank */
    uint64_t previous = sent_at, value;
    for (int i = 0; i < n; i++) {
        if (!(map[i / 8] >> (i % 8) & 1)) continue;
        if (get_diff(&p, end, previous, &value)) return -1;
        raise_to(i, value);
        previous = value;
    }
    return p == end ? 0 : -1;
}

/* The entries after a header's prefix, [p, end). */
static int apply_entries(const uint8_t *p, const uint8_t *end, uint64_t sent_at)
{
    uint64_t i, value;
    if (p < end && *p == 0) return apply_dense(p + 1, end, sent_at);
    while (p < end) {
        if (mpirr_varint_get(&p, end, &i) || i == 0 || i > (uint64_t)n ||
            get_diff(&p, end, sent_at, &value))
            return -1;
        raise_to((int)i - 1, value);
    }
    return 0;
}

int mpirr_vc_apply(int src, const uint8_t *in, size_t len, uint64_t *seq, uint64_t *knows_me)
{
    const uint8_t *p = in, *end = in + len;
    uint64_t sent_at;
    if (mpirr_varint_get(&p, end, seq) || mpirr_varint_get(&p, end, &sent_at) ||
        get_diff(&p, end, sent_at, knows_me))
        return -1;
    raise_to(src, sent_at);
    return apply_entries(p, end, sent_at);
}

int mpirr_vc_apply_fixed(int src, const uint8_t *in, size_t len, uint64_t *seq, uint64_t *knows_me)
{
    if (len < MPIRR_VC_FIXED) return -1;
    uint64_t sent_at = mpirr_get_u32(in + 4);
    *seq = mpirr_get_u32(in);
    *knows_me = mpirr_get_u32(in + 8);
    raise_to(src, sent_at);
    return len == MPIRR_VC_FIXED ? 0 : apply_entries(in + MPIRR_VC_FIXED, in + len, sent_at);
}

uint64_t *mpirr_vc_snapshot(void)
{
    for (int i = 0; i < n; i++) snap[i] = v[i];
    snap[me] = own;
    return snap;
}

void mpirr_vc_merge(const uint64_t *w)
{
    for (int i = 0; i < n; i++) raise_to(i, w[i]);
}
