/* vector_clock.c: see vector_clock.h. The "last changed" order is a doubly linked list over
 * rank indices, most recent first; lu[i] is the change tick of entry i and ls[d] the tick of the
 * last header to d, so the delta for d is the list prefix with lu > ls[d]. */
#include "vector_clock.h"

#include <stdlib.h>

#include "runtime.h"
#include "varint.h"

static int n, me;
static uint64_t *v, *lu, *ls, *snap, tick;
static int *prev, *next, head = -1;

void mpirr_vc_init(int nranks, int self)
{
    n = nranks;
    me = self;
    v = calloc((size_t)n, sizeof *v);
    lu = calloc((size_t)n, sizeof *lu);
    ls = calloc((size_t)n, sizeof *ls);
    snap = calloc((size_t)n, sizeof *snap);
    prev = malloc((size_t)n * sizeof *prev);
    next = malloc((size_t)n * sizeof *next);
    if (!v || !lu || !ls || !snap || !prev || !next) mpirr_fatal("out of memory for vector clocks");
    for (int i = 0; i < n; i++) prev[i] = next[i] = -2; /* -2: not in the list */
    head = -1;
    tick = 0;
}

void mpirr_vc_free(void)
{
    free(v), free(lu), free(ls), free(snap), free(prev), free(next);
    v = lu = ls = snap = NULL;
    prev = next = NULL;
    n = 0;
}

size_t mpirr_vc_header_max(void) { return 3 * 10 + (size_t)n * 20; }

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

size_t mpirr_vc_header(int dest, uint64_t seq, uint64_t now, uint8_t *out)
{
    uint8_t *p = out;
    p += mpirr_varint_put(p, seq);
    p += mpirr_varint_put(p, MPIRR_VC_SEND(now));
    p += mpirr_varint_put(p, dest == me ? MPIRR_VC_SEND(now) : v[dest]);
    for (int i = head; i >= 0 && lu[i] > ls[dest]; i = next[i]) {
        if (i == dest) continue;
        p += mpirr_varint_put(p, (uint64_t)i);
        p += mpirr_varint_put(p, v[i]);
    }
    ls[dest] = tick;
    return (size_t)(p - out);
}

int mpirr_vc_apply(int src, const uint8_t *in, size_t len, uint64_t *seq, uint64_t *knows_me)
{
    const uint8_t *p = in, *end = in + len;
    uint64_t sent_at, i, value;
    if (mpirr_varint_get(&p, end, seq) || mpirr_varint_get(&p, end, &sent_at) ||
        mpirr_varint_get(&p, end, knows_me))
        return -1;
    raise_to(src, sent_at);
    while (p < end) {
        if (mpirr_varint_get(&p, end, &i) || mpirr_varint_get(&p, end, &value) || i >= (uint64_t)n)
            return -1;
        raise_to((int)i, value);
    }
    return 0;
}

uint64_t *mpirr_vc_snapshot(uint64_t now)
{
    for (int i = 0; i < n; i++) snap[i] = v[i];
    snap[me] = MPIRR_VC_SEND(now);
    return snap;
}

void mpirr_vc_merge(const uint64_t *w)
{
    for (int i = 0; i < n; i++) raise_to(i, w[i]);
}
