/* varint.c: LEB128 encoding (7 bits a byte, low bits first, high bit = more follows). */
#include "varint.h"

size_t mpirr_varint_put(uint8_t *p, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        p[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (uint8_t)v;
    return n;
}

int mpirr_varint_get(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    uint64_t r = 0;
    const uint8_t *q = *p;
    for (unsigned shift = 0; shift < 64; shift += 7) {
        if (q >= end) return -1;
        uint8_t b = *q++;
        if (shift == 63 && b > 1) return -1; /* would overflow 64 bits */
        r |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *p = q;
            *v = r;
            return 0;
        }
    }
    return -1;
}
