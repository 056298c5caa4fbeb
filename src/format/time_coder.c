/* time_coder.c: see time_coder.h. Each symbol is coded as 8 binary decisions down a bit tree
 * whose probabilities belong to a context: (call site, previous time byte), hashed to
 * CONTEXTS; the two codes after an escape have a context of their own. */
#include "time_coder.h"

#include <stdlib.h>

#define PROB_BITS 15
#define PROB_ONE (1u << PROB_BITS)
#define ADAPT 5
#define SITE_CTX 32
#define PREV_CTX 16
#define ESCAPE_CTX (SITE_CTX * PREV_CTX)
#define CONTEXTS (ESCAPE_CTX + 1)

struct tc_model {
    uint16_t p[CONTEXTS][256];
    unsigned prev; /* the previous call record's time byte */
};

tc_model *tc_model_new(void)
{
    tc_model *m = malloc(sizeof *m);
    if (!m) return NULL;
    for (int c = 0; c < CONTEXTS; c++)
        for (int i = 0; i < 256; i++) m->p[c][i] = PROB_ONE / 2;
    m->prev = 0;
    return m;
}

void tc_model_free(tc_model *m) { free(m); }

static unsigned context(const tc_model *m, uint32_t site)
{
    unsigned prev = (m->prev ^ (m->prev >> 4) ^ (m->prev >> 2)) % PREV_CTX;
    return (site % SITE_CTX) * PREV_CTX + prev;
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

static void encode_bit(struct enc *e, uint16_t *p, unsigned bit)
{
    uint32_t bound = (e->range >> PROB_BITS) * *p;
    if (!bit) {
        e->range = bound;
        *p += (uint16_t)((PROB_ONE - *p) >> ADAPT);
    } else {
        e->low += bound;
        e->range -= bound;
        *p -= (uint16_t)(*p >> ADAPT);
    }
    while (e->range < (1u << 24)) {
        e->range <<= 8;
        shift_low(e);
    }
}

static void encode_sym(struct enc *e, uint16_t *probs, unsigned sym)
{
    unsigned m = 1;
    for (int i = 7; i >= 0; i--) {
        unsigned bit = (sym >> i) & 1;
        encode_bit(e, &probs[m], bit);
        m = (m << 1) | bit;
    }
}

size_t tc_bound(size_t n) { return n + n / 8 + 16; }

size_t tc_encode_block(tc_model *m, const uint8_t *syms, size_t n, const uint32_t *sites,
                       uint8_t *out)
{
    struct enc e = {0, 0xffffffffu, 0, 1, out, 0};
    size_t k = 0;
    for (size_t i = 0; i < n; k++) {
        unsigned sym = syms[i++];
        encode_sym(&e, m->p[context(m, sites[k])], sym);
        m->prev = sym;
        if (sym == 0xff)
            for (int j = 0; j < 2 && i < n; j++) encode_sym(&e, m->p[ESCAPE_CTX], syms[i++]);
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

static unsigned decode_bit(tc_decoder *d, uint16_t *p)
{
    uint32_t bound = (d->range >> PROB_BITS) * *p;
    unsigned bit;
    if (d->code < bound) {
        d->range = bound;
        *p += (uint16_t)((PROB_ONE - *p) >> ADAPT);
        bit = 0;
    } else {
        d->code -= bound;
        d->range -= bound;
        *p -= (uint16_t)(*p >> ADAPT);
        bit = 1;
    }
    while (d->range < (1u << 24)) {
        d->range <<= 8;
        d->code = (d->code << 8) | next_byte(d);
    }
    return bit;
}

static unsigned decode_sym(tc_decoder *d, uint16_t *probs)
{
    unsigned m = 1;
    for (int i = 0; i < 8; i++) m = (m << 1) | decode_bit(d, &probs[m]);
    return m & 0xff;
}

void tc_decode_times(tc_decoder *d, uint32_t site, unsigned *cb, unsigned *ce)
{
    unsigned sym = decode_sym(d, d->m->p[context(d->m, site)]);
    d->m->prev = sym;
    if (sym == 0xff) {
        *cb = decode_sym(d, d->m->p[ESCAPE_CTX]);
        *ce = decode_sym(d, d->m->p[ESCAPE_CTX]);
    } else {
        *cb = sym & 15;
        *ce = sym >> 4;
    }
}
