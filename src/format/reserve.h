/* reserve.h: the project's growable arrays (format, analysis, CLI): one way to make room for n elements. */
#ifndef MPIRR_RESERVE_H
#define MPIRR_RESERVE_H

#include <stdlib.h>

/* Makes *p (of *cap elements of size bytes) hold at least need elements, doubling; 0 or -1
 * (out of memory, *p unchanged). */
static inline int mpirr_reserve(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap) return 0;
    size_t c = *cap ? *cap * 2 : 256;
    while (c < need) c *= 2;
    void *n = realloc(*p, c * size);
    if (!n) return -1;
    *p = n;
    *cap = c;
    return 0;
}

#endif
