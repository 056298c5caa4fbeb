/* view_buf.h: the compact columns mpirr view ships to its page: growable byte buffers of
 * LEB128 varints (zigzag for signed values), written out as base64 so the numbers travel
 * inside the HTML at ~1.3 bytes per stored byte and decode in the page without parsing JSON
 * arrays of a million numbers. */
#ifndef MPIRR_CLI_VIEW_BUF_H
#define MPIRR_CLI_VIEW_BUF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct vbuf {
    uint8_t *p;
    size_t n, cap;
    int oom; /* an append failed: the buffer is incomplete */
};

void vbuf_uint(struct vbuf *b, uint64_t v);
static inline void vbuf_int(struct vbuf *b, int64_t v)
{
    vbuf_uint(b, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63)); /* zigzag: small magnitudes stay small */
}
void vbuf_free(struct vbuf *b);
/* Writes the buffer as base64 (RFC 4648, padded) between double quotes. */
void vbuf_base64(const struct vbuf *b, FILE *f);

#endif
