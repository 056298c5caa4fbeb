/* time_coder.c: see time_coder.h. Every decision is one binary probability of a bit tree
 * (LZMA's range coder, 15-bit probabilities). TC_V1: a time byte as 8 decisions in one of
 * (site mod 32) x (previous byte folded to 16) contexts, the two codes after an escape in a
 * context of their own, fixed adaptation (shift 5). TC_V2: the begin code as 4 decisions in
 * context (site mod 64, previous end code), the end code as 4 in context (site mod 64, this
 * begin code, previous end code), a code of 15 or more as the nibble 15 then the code as 8
 * decisions in an escape context; each probability adapts at 1/(n+1.5) after n
 * observations, from the 32nd on at 1/32 as in TC_V1. TC_V3: first one decision in context
 * (site mod 64, previous end code), whether both codes are 0; only if not, TC_V2's. */
#include "time_coder.h"

#include <stdlib.h>

#define PROB_BITS 15
#define PROB_ONE (1u << PROB_BITS)
#define ADAPT 5
#define COUNT_MAX 31 /* 1/(31 + 1.5) is below 1/32: the fixed rate from there on */

/* TC_V1 */
#define SITE_CTX 32
#define PREV_CTX 16
#define ESCAPE_CTX (SITE_CTX * PREV_CTX)
#define CONTEXTS (ESCAPE_CTX + 1)

/* TC_V2 */
#define V2_SITES 64
#define NIB 16 /* a 4-bit tree: nodes 1..15 */
#define ESCAPED 15

/* TC_V3's first decision: whether both codes of a record are 0 (probability and count). Most
 * records of a history are (a call that began and ended in the tick of the one before), so
 * most cost one decision instead of TC_V2's eight: the writer's coder runs 323 -> 144
 * instructions a record on the skeleton and LAMMPS histories, and the trees, seeing only
 * the other records, code them in fewer bits (docs/events.md). */
typedef struct {
    uint16_t p;
    uint8_t n;
} zero_prob;

/* One adaptive decision of TC_V2: probability of a 0 and how many times it was updated. */
typedef struct {
    uint16_t p[NIB];
    uint8_t n[NIB];
} nib_probs;

struct tc_model {
    int version;
    unsigned prev; /* V1: the previous call record's time byte; V2: its end code (nibble) */
    uint16_t (*v1)[256];
    nib_probs *begin; /* V2: [site][prev end] */
    nib_probs *end;   /* V2: [site][begin][prev end] */
    uint16_t esc_p[256];
    uint8_t esc_n[256];
    zero_prob *zero; /* V3: [site][prev end] */
};

/* 2^16 / (n + 1.5): the rate of a probability updated n times before (TC_V2). */
static const uint16_t rate_of[COUNT_MAX] = {
    43691, 26214, 18725, 14564, 11916, 10082, 8738, 7710, 6899, 6242, 5699, 5243, 4855,
    4520, 4228, 3972, 3745, 3542, 3361, 3197, 3048, 2913, 2789, 2675, 2570, 2473, 2383,
    2300, 2222, 2149, 2081,
};

static void fill(uint16_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) p[i] = PROB_ONE / 2;
}

tc_model *tc_model_new(int version)
{
    if (version != TC_V1 && version != TC_V2 && version != TC_V3) return NULL;
    tc_model *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->version = version;
    if (version == TC_V1) {
        m->v1 = malloc(CONTEXTS * sizeof *m->v1);
        if (!m->v1) goto fail;
        fill(&m->v1[0][0], (size_t)CONTEXTS * 256);
        return m;
    }
    size_t nb = V2_SITES * NIB, ne = V2_SITES * NIB * NIB;
    m->begin = calloc(nb, sizeof *m->begin);
    m->end = calloc(ne, sizeof *m->end);
    if (!m->begin || !m->end) goto fail;
    for (size_t i = 0; i < nb; i++) fill(m->begin[i].p, NIB);
    for (size_t i = 0; i < ne; i++) fill(m->end[i].p, NIB);
    fill(m->esc_p, 256);
    if (version == TC_V3) {
        m->zero = calloc(nb, sizeof *m->zero);
        if (!m->zero) goto fail;
        for (size_t i = 0; i < nb; i++) m->zero[i].p = PROB_ONE / 2;
    }
    return m;
fail:
    tc_model_free(m);
    return NULL;
}

int tc_model_version(const tc_model *m) { return m->version; }

void tc_model_free(tc_model *m)
{
    if (!m) return;
    free(m->v1);
    free(m->begin);
    free(m->end);
    free(m->zero);
    free(m);
}

static unsigned context(const tc_model *m, uint32_t site)
{
    unsigned prev = (m->prev ^ (m->prev >> 4) ^ (m->prev >> 2)) % PREV_CTX;
    return (site % SITE_CTX) * PREV_CTX + prev;
}

/* A decision's probability after seeing bit: TC_V2 moves it by the rate of its count while
 * the count is young (n not NULL and below COUNT_MAX), then, like TC_V1 always, by 1/32 of
 * the way with LZMA's shifts (which keep it within [31, PROB_ONE - 31]: both bits keep room
 * in the range). The counting rates cannot get it that far: 31 updates the same way leave
 * p0 * 0.5 / 32.5, about 250. */
static inline void adapt(uint16_t *p, uint8_t *n, unsigned bit)
{
    if (n && *n < COUNT_MAX) {
        int32_t target = bit ? 0 : (int32_t)PROB_ONE, q = *p;
        *p = (uint16_t)(q + (int32_t)(((int64_t)(target - q) * rate_of[*n]) >> 16));
        (*n)++;
        return;
    }
    if (bit) *p -= (uint16_t)(*p >> ADAPT);
    else *p += (uint16_t)((PROB_ONE - *p) >> ADAPT);
}

/* ---- encoder ---- */

struct enc {
    uint64_t low;
    uint32_t range;
    uint8_t cache;
    uint64_t cache_size;
    uint8_t *out;
    size_t pos;
};

static void shift_low(struct enc *e)
{
    if ((uint32_t)e->low < 0xff000000u || (e->low >> 32) != 0) {
        uint8_t carry = (uint8_t)(e->low >> 32), temp = e->cache;
        do {
            e->out[e->pos++] = (uint8_t)(temp + carry);
            temp = 0xff;
        } while (--e->cache_size != 0);
        e->cache = (uint8_t)(e->low >> 24);
    }
    e->cache_size++;
    e->low = (e->low & 0x00ffffffu) << 8;
}

static inline void encode_bit(struct enc *e, uint16_t *p, uint8_t *n, unsigned bit)
{
    uint32_t bound = (e->range >> PROB_BITS) * *p;
    if (!bit) {
        e->range = bound;
    } else {
        e->low += bound;
        e->range -= bound;
    }
    adapt(p, n, bit);
    while (e->range < (1u << 24)) {
        e->range <<= 8;
        shift_low(e);
    }
}

/* The bits of sym, highest first, down a tree of 2^bits - 1 decisions (n: NULL for TC_V1). */
static inline void encode_tree(struct enc *e, uint16_t *probs, uint8_t *n, unsigned sym, int bits)
{
    unsigned m = 1;
    for (int i = bits - 1; i >= 0; i--) {
        unsigned bit = (sym >> i) & 1;
        encode_bit(e, &probs[m], n ? &n[m] : NULL, bit);
        m = (m << 1) | bit;
    }
}

/* TC_V2: a code as its nibble (15: escaped), then if escaped the code itself. */
static inline void encode_code(struct enc *e, tc_model *m, nib_probs *ctx, unsigned code)
{
    unsigned nib = code < ESCAPED ? code : ESCAPED;
    encode_tree(e, ctx->p, ctx->n, nib, 4);
    if (nib == ESCAPED) encode_tree(e, m->esc_p, m->esc_n, code, 8);
}

static nib_probs *begin_ctx(tc_model *m, uint32_t site)
{
    return &m->begin[(site % V2_SITES) * NIB + m->prev];
}
static nib_probs *end_ctx(tc_model *m, uint32_t site, unsigned cb)
{
    unsigned nib = cb < ESCAPED ? cb : ESCAPED;
    return &m->end[((site % V2_SITES) * NIB + nib) * NIB + m->prev];
}
static zero_prob *zero_ctx(tc_model *m, uint32_t site)
{
    return &m->zero[(site % V2_SITES) * NIB + m->prev];
}
static void v2_next(tc_model *m, unsigned ce) { m->prev = ce < ESCAPED ? ce : ESCAPED; }

/* Worst case: a call record's time byte is 8 decisions (TC_V1, or TC_V2's two nibbles), each
 * at most log2(PROB_ONE / 31), just over 10 bits, so 10 bytes and a bit; its escape adds two bytes and
 * 16 decisions. Real columns code to a fraction of their raw bytes. */
size_t tc_bound(size_t n) { return 11 * n + 16; }

size_t tc_encode_block(tc_model *m, const uint8_t *syms, size_t n, const uint32_t *sites,
                       uint8_t *out)
{
    struct enc e = {0, 0xffffffffu, 0, 1, out, 0};
    size_t k = 0;
    for (size_t i = 0; i < n; k++) {
        unsigned sym = syms[i++];
        if (m->version == TC_V1) {
            encode_tree(&e, m->v1[context(m, sites[k])], NULL, sym, 8);
            m->prev = sym;
            if (sym == 0xff)
                for (int j = 0; j < 2 && i < n; j++) encode_tree(&e, m->v1[ESCAPE_CTX], NULL, syms[i++], 8);
            continue;
        }
        unsigned cb = sym & 15, ce = sym >> 4;
        if (sym == 0xff) { /* the writer stages the escape whole */
            cb = i < n ? syms[i++] : 0;
            ce = i < n ? syms[i++] : 0;
        }
        if (m->version == TC_V3) {
            zero_prob *z = zero_ctx(m, sites[k]);
            unsigned zero = cb == 0 && ce == 0;
            encode_bit(&e, &z->p, &z->n, !zero);
            if (zero) {
                v2_next(m, 0);
                continue;
            }
        }
        encode_code(&e, m, begin_ctx(m, sites[k]), cb);
        encode_code(&e, m, end_ctx(m, sites[k], cb), ce);
        v2_next(m, ce);
    }
    for (int i = 0; i < 5; i++) shift_low(&e);
    return e.pos;
}

/* ---- decoder ---- */

static uint8_t next_byte(tc_decoder *d)
{
    if (d->p < d->end) return *d->p++;
    d->overrun = 1;
    return 0;
}

void tc_decoder_start(tc_decoder *d, tc_model *m, const uint8_t *p, const uint8_t *end)
{
    d->m = m;
    d->p = p;
    d->end = end;
    d->overrun = 0;
    d->range = 0xffffffffu;
    d->code = 0;
    for (int i = 0; i < 5; i++) d->code = (d->code << 8) | next_byte(d);
}

static unsigned decode_bit(tc_decoder *d, uint16_t *p, uint8_t *n)
{
    uint32_t bound = (d->range >> PROB_BITS) * *p;
    unsigned bit;
    if (d->code < bound) {
        d->range = bound;
        bit = 0;
    } else {
        d->code -= bound;
        d->range -= bound;
        bit = 1;
    }
    adapt(p, n, bit);
    while (d->range < (1u << 24)) {
        d->range <<= 8;
        d->code = (d->code << 8) | next_byte(d);
    }
    return bit;
}

static unsigned decode_tree(tc_decoder *d, uint16_t *probs, uint8_t *n, int bits)
{
    unsigned m = 1;
    for (int i = 0; i < bits; i++) m = (m << 1) | decode_bit(d, &probs[m], n ? &n[m] : NULL);
    return m & ((1u << bits) - 1);
}

static unsigned decode_code(tc_decoder *d, nib_probs *ctx)
{
    unsigned nib = decode_tree(d, ctx->p, ctx->n, 4);
    return nib == ESCAPED ? decode_tree(d, d->m->esc_p, d->m->esc_n, 8) : nib;
}

void tc_decode_times(tc_decoder *d, uint32_t site, unsigned *cb, unsigned *ce)
{
    tc_model *m = d->m;
    if (m->version == TC_V3) {
        zero_prob *z = zero_ctx(m, site);
        if (!decode_bit(d, &z->p, &z->n)) {
            *cb = *ce = 0;
            v2_next(m, 0);
            return;
        }
    }
    if (m->version != TC_V1) {
        *cb = decode_code(d, begin_ctx(m, site));
        *ce = decode_code(d, end_ctx(m, site, *cb));
        v2_next(m, *ce);
        return;
    }
    unsigned sym = decode_tree(d, m->v1[context(m, site)], NULL, 8);
    m->prev = sym;
    if (sym == 0xff) {
        *cb = decode_tree(d, m->v1[ESCAPE_CTX], NULL, 8);
        *ce = decode_tree(d, m->v1[ESCAPE_CTX], NULL, 8);
    } else {
        *cb = sym & 15;
        *ce = sym >> 4;
    }
}
