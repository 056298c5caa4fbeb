/* guard_word.h: a 48-bit value and its 16-bit check in one 64-bit word, for the live fields of
 * mapped files (a rank's progress, its ending) that a dying process may be writing at any
 * instant: one aligned store publishes value and check together, so a reader never sees a torn
 * pair, and a damaged word is told apart from a real value.
 *
 * Word: bits 0-47 the value, bits 48-63 its three 16-bit halves XORed together. Every byte of
 * the value lands in exactly one byte of the check, so any single damaged byte, of the value or
 * of the check, is always detected. It costs a few shifts and XORs: the runtime stores one at
 * the start and one at the end of every MPI call. The all-zero word is value 0 (a fresh file). */
#ifndef MPIRR_GUARD_WORD_H
#define MPIRR_GUARD_WORD_H

#include <stdint.h>

#define MPIRR_GUARD_MAX ((1ull << 48) - 1)

static inline uint64_t mpirr_guard_check(uint64_t v)
{
    return ((v ^ (v >> 16) ^ (v >> 32)) & 0xffff) << 48;
}

/* v is cut to 48 bits. */
static inline uint64_t mpirr_guard_encode(uint64_t v)
{
    v &= MPIRR_GUARD_MAX;
    return v | mpirr_guard_check(v);
}

/* 0 and the value in *v, or -1 if the word is damaged. */
static inline int mpirr_guard_decode(uint64_t w, uint64_t *v)
{
    uint64_t val = w & MPIRR_GUARD_MAX;
    *v = val;
    return w == (val | mpirr_guard_check(val)) ? 0 : -1;
}

#endif
