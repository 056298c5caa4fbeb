/* guard_word.h: a 48-bit value and its 16-bit check in one 64-bit word, for the live fields of
 * mapped files (a rank's progress, its ending) that a dying process may be writing at any
 * instant: one aligned store publishes value and check together, so a reader never sees a torn
 * pair, and a damaged word is told apart from a real value.
 *
 * Word: bits 0-47 value, bits 48-55 the XOR of the value's six bytes (any single damaged byte,
 * in the value or the check, is always detected), bits 56-63 a hash byte of the value (most
 * wider damage). A word of 0 is value 0 (a fresh, zero-filled file). */
#ifndef MPIRR_GUARD_WORD_H
#define MPIRR_GUARD_WORD_H

#include <stdint.h>

#define MPIRR_GUARD_MAX ((1ull << 48) - 1)

static inline uint64_t mpirr_guard_check(uint64_t v)
{
    uint64_t x = v ^ (v >> 32);
    x ^= x >> 16;
    x ^= x >> 8;
    uint64_t h = ((v * 0x9e3779b97f4a7c15ull) >> 56) ^ 0x5a;
    return (x & 0xff) << 48 | h << 56;
}

/* v is cut to 48 bits. Value 0 encodes as 0x5a<<56, not 0: only an untouched file holds 0. */
static inline uint64_t mpirr_guard_encode(uint64_t v)
{
    v &= MPIRR_GUARD_MAX;
    return v | mpirr_guard_check(v);
}

/* 0 and the value in *v, or -1 if the word is damaged. The all-zero word reads as value 0. */
static inline int mpirr_guard_decode(uint64_t w, uint64_t *v)
{
    uint64_t val = w & MPIRR_GUARD_MAX;
    *v = val;
    if (w == 0) return 0;
    return w == (val | mpirr_guard_check(val)) ? 0 : -1;
}

#endif
