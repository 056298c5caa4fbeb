/* view_buf.c: varint buffers, and base64 for the view page (view_buf.h). */
#include "view_buf.h"

#include <stdlib.h>

void vbuf_uint(struct vbuf *b, uint64_t v)
{
    if (b->cap - b->n < 10) {
        size_t cap = b->cap ? b->cap * 2 : 4096;
        uint8_t *p = realloc(b->p, cap);
        if (!p) {
            b->oom = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    while (v >= 0x80) {
        b->p[b->n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    b->p[b->n++] = (uint8_t)v;
}

void vbuf_free(struct vbuf *b)
{
    free(b->p);
    *b = (struct vbuf){0};
}

void vbuf_base64(const struct vbuf *b, FILE *f)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char out[4096];
    size_t o = 0;
    fputc('"', f);
    for (size_t i = 0; i < b->n; i += 3) {
        uint32_t v = (uint32_t)b->p[i] << 16;
        if (i + 1 < b->n) v |= (uint32_t)b->p[i + 1] << 8;
        if (i + 2 < b->n) v |= b->p[i + 2];
        out[o++] = tab[v >> 18];
        out[o++] = tab[(v >> 12) & 63];
        out[o++] = i + 1 < b->n ? tab[(v >> 6) & 63] : '=';
        out[o++] = i + 2 < b->n ? tab[v & 63] : '=';
        if (o > sizeof out - 4) {
            fwrite(out, 1, o, f);
            o = 0;
        }
    }
    fwrite(out, 1, o, f);
    fputc('"', f);
}
