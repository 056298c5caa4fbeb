/* varint.h: LEB128 varints, zigzag signed integers and little-endian fixed-width fields, the
 * primitives of every mpirr on-disk encoding. */
#ifndef MPIRR_VARINT_H
#define MPIRR_VARINT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define MPIRR_VARINT_MAX 10 /* bytes of the longest 64-bit varint */

/* LEB128: 7 bits a byte, low bits first, high bit = more follows. Inline: races mode codes
 * several per message (vector_clock.c), where a call each was a tenth of its bookkeeping. */

/* Writes v at p (room for MPIRR_VARINT_MAX bytes); returns bytes written. */
static inline size_t mpirr_varint_put(uint8_t *p, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        p[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (uint8_t)v;
    return n;
}

/* The bytes mpirr_varint_put takes for v. */
static inline size_t mpirr_varint_len(uint64_t v)
{
    size_t n = 1;
    while (v >= 0x80) {
        v >>= 7;
        n++;
    }
    return n;
}

/* Reads a varint from [*p, end); advances *p. 0 on success, -1 if truncated or overlong. */
static inline int mpirr_varint_get(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    const uint8_t *q = *p;
    uint64_t r = 0;
    for (unsigned shift = 0; shift < 64 && q < end; shift += 7) {
        uint64_t b = *q++;
        r |= (b & 0x7f) << shift;
        if (b < 0x80) {
            if (shift == 63 && b > 1) return -1; /* would overflow 64 bits */
            *p = q;
            *v = r;
            return 0;
        }
    }
    return -1;
}

static inline uint64_t mpirr_zigzag(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }
static inline int64_t mpirr_unzigzag(uint64_t v) { return (int64_t)(v >> 1) ^ -(int64_t)(v & 1); }

/* Little-endian fields as one load or store (byte loops were not merged into one: 13 and 9
 * instructions a 32-bit field, where races mode's header slot reads and writes three a
 * message). */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define MPIRR_LE32(v) __builtin_bswap32(v)
#define MPIRR_LE64(v) __builtin_bswap64(v)
#else
#define MPIRR_LE32(v) (v)
#define MPIRR_LE64(v) (v)
#endif
static inline void mpirr_put_u32(uint8_t *p, uint32_t v)
{
    v = MPIRR_LE32(v);
    memcpy(p, &v, sizeof v);
}
static inline void mpirr_put_u64(uint8_t *p, uint64_t v)
{
    v = MPIRR_LE64(v);
    memcpy(p, &v, sizeof v);
}
static inline uint32_t mpirr_get_u32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return MPIRR_LE32(v);
}
static inline uint64_t mpirr_get_u64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return MPIRR_LE64(v);
}

/* FNV-1a, used for header checks and call-sequence hashes. */
#define MPIRR_FNV64_OFFSET 0xcbf29ce484222325ull
#define MPIRR_FNV64_PRIME 0x100000001b3ull
static inline uint64_t mpirr_fnv64(uint64_t h, const void *data, size_t n)
{
    const uint8_t *p = data;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * MPIRR_FNV64_PRIME;
    return h;
}
/* FNV-1a 32: each step is a bijection of the state, so any change to a single byte always
 * changes the result (the staged-record and pending-slot checks rely on that). */
#define MPIRR_FNV32_OFFSET 0x811c9dc5u
#define MPIRR_FNV32_PRIME 0x01000193u
static inline uint32_t mpirr_fnv32(uint32_t h, const void *data, size_t n)
{
    const uint8_t *p = data;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * MPIRR_FNV32_PRIME;
    return h;
}

#endif
