/* event_codec.c: the byte encoding of one event-history record, shared by the writer and the
 * reader. Chosen for compressibility: no absolute values that grow through a run (event
 * numbers are implicit, times are log2 codes against the reconstructed clock, requests are
 * small reused slot numbers, call sites are indices), so the records of one time step repeat
 * byte for byte in the next and the compressor stores them as one match. The two time codes
 * of a call record go to a separate column (the writer's time area): they are the only bytes
 * that jitter from step to step, and apart they neither break the matches of the rest nor
 * cost more than their own entropy. Message sizes go to a column of their own too (header
 * flag 4), as move-to-front codes: they change at every re-partitioning of a program like
 * LAMMPS, and in the records each new one would cut a repeated step's match. */
#include <stdlib.h>
#include <string.h>

#include "call_ids.h"
#include "event_trace.h"
#include "rma_fields.h"
#include "sync_calls.h"
#include "varint.h"

/* Internal field bit: the event number is not the previous one plus one. */
#define EVF_JUMP (1u << 15)
/* Every field bit this codec knows (the public ones are 0..14): a record with another was
 * written by a newer mpirr, and its fields cannot be found. */
#define EVF_KNOWN ((MPIRR_EVF_RMA | (MPIRR_EVF_RMA - 1)) | EVF_JUMP)
#define MAX_ITEMS (1u << 24)
#define MAX_RANKS (1u << 24)
#define MAX_PATH 4096u

/* Most fields are small: one byte, without a call. */
static inline size_t put_u(uint8_t *p, uint64_t v)
{
    if (v < 0x80) {
        *p = (uint8_t)v;
        return 1;
    }
    return mpirr_varint_put(p, v);
}
static inline size_t put_s(uint8_t *p, int64_t v) { return put_u(p, mpirr_zigzag(v)); }

size_t mpirr_ev_encoded_max(const mpirr_event *e)
{
    size_t n = 5 + 33 * MPIRR_VARINT_MAX; /* + a long call id: its escape byte and varint */
    n += (size_t)e->nitems * (4 * MPIRR_VARINT_MAX);
    if (e->kind == MPIRR_EVK_COMM) n += (size_t)(e->nranks + e->nremote) * MPIRR_VARINT_MAX;
    /* a call's nremote is never set: only a post's or start's group counts */
    else if (mpirr_ev_is_call(e->kind) && (e->fields & MPIRR_EVF_RMA))
        n += (size_t)e->nranks * MPIRR_VARINT_MAX;
    if (e->kind == MPIRR_EVK_MODULE && e->path) n += strlen(e->path);
    return n;
}

/* The code of an exact time x against the reconstructed one before it: floor(log2(x - recon))
 * + 1, except that a delta of one tick is coded 0 (MPIRR_EV_TIME_SLACK): the reconstructed
 * clock may fall one tick behind rather than record every tick boundary that a run of short
 * calls crosses, the commonest time code and the least predictable one (docs/events.md
 * gives the bound with the slack). */
static inline unsigned time_code(uint64_t x, uint64_t recon)
{
    uint64_t d = x > recon ? x - recon : 0;
    return d <= MPIRR_EV_TIME_SLACK ? 0 : mpirr_ev_time_code(d);
}

/* Size codes: a received size equal to its prediction is stored as 0, any other as itself
 * + 1 (sizes are count x type size of C ints, far below 2^64 - 1). Without size codes (older
 * histories) the code is the size. */
static inline uint64_t size_code(const mpirr_ev_codec *c, uint64_t v, uint64_t predicted)
{
    if (!c->size_codes) return v;
    return v == predicted ? 0 : v + 1;
}
static inline uint64_t size_value(const mpirr_ev_codec *c, uint64_t code, uint64_t predicted)
{
    if (!c->size_codes) return code;
    return code ? code - 1 : predicted;
}
static inline uint64_t *posted(mpirr_ev_codec *c, uint32_t slot)
{
    return &c->posted[slot % MPIRR_EV_POSTED_SLOTS];
}
/* The move-to-front code of a message size (MPIRR_EV_RECENT_SIZES): where it is among the
 * stream's recent distinct sizes, or the size itself past them; the size moves to the front.
 * A size that is new at a reneighbouring is as long as before, and every later step codes it
 * the same way as long as the step uses the same sizes in the same order. */
static uint64_t recent_code(mpirr_ev_codec *c, uint64_t v)
{
    unsigned i = 0;
    while (i < MPIRR_EV_RECENT_SIZES && c->recent[i] != v) i++;
    uint64_t code = i < MPIRR_EV_RECENT_SIZES ? i : v + MPIRR_EV_RECENT_SIZES;
    if (i == MPIRR_EV_RECENT_SIZES) i--;
    for (; i > 0; i--) c->recent[i] = c->recent[i - 1]; /* a few entries: no call to memmove */
    c->recent[0] = v;
    return code;
}
/* ... and back: the size a code stands for (the same move to the front). */
static uint64_t recent_size(mpirr_ev_codec *c, uint64_t code)
{
    uint64_t v = code < MPIRR_EV_RECENT_SIZES ? c->recent[code] : code - MPIRR_EV_RECENT_SIZES;
    recent_code(c, v);
    return v;
}

/* After a record's sizes are coded: the slot it created was posted with its bytes. */
static inline void note_posted(mpirr_ev_codec *c, const mpirr_event *e, uint32_t f)
{
    if ((f & (MPIRR_EVF_REQ | MPIRR_EVF_BYTES)) == (MPIRR_EVF_REQ | MPIRR_EVF_BYTES))
        *posted(c, e->req) = e->bytes;
}

static size_t put_items(uint8_t *p, mpirr_ev_codec *c, const mpirr_event *e)
{
    uint8_t *q = p;
    q += mpirr_varint_put(q, e->nitems);
    for (uint32_t i = 0; i < e->nitems; i++) {
        const mpirr_ev_item *it = &e->items[i];
        q += mpirr_varint_put(q, it->slot);
        q += mpirr_varint_put(q, it->flags);
        if (it->flags & MPIRR_EVI_RECV) {
            q += put_s(q, it->src);
            q += put_s(q, it->tag);
            q += mpirr_varint_put(q, size_code(c, it->got, *posted(c, it->slot)));
        }
    }
    return (size_t)(q - p);
}

static size_t put_ranks(uint8_t *p, const int32_t *ranks, uint32_t n)
{
    uint8_t *q = p;
    int32_t prev = 0;
    q += mpirr_varint_put(q, n);
    for (uint32_t i = 0; i < n; i++) {
        q += put_s(q, (int64_t)ranks[i] - prev);
        prev = ranks[i];
    }
    return (size_t)(q - p);
}

/* A one-sided call's fields (MPIRR_EVF_RMA): written whole for every such call, which are
 * few next to the rest (a fence's unused ones cost a byte each). */
static size_t put_rma(uint8_t *p, const mpirr_event *e)
{
    uint8_t *q = p;
    q += put_u(q, e->win);
    q += put_u(q, e->rma);
    q += put_s(q, e->target);
    q += mpirr_varint_put(q, e->disp);
    q += put_u(q, e->span);
    q += put_u(q, e->rma_op);
    q += put_u(q, e->rma_type);
    q += put_u(q, e->lock);
    q += put_ranks(q, e->ranks, e->rma == MPIRR_RMA_POST || e->rma == MPIRR_RMA_START ? e->nranks : 0);
    return (size_t)(q - p);
}

static size_t encode_meta(const mpirr_event *e, uint8_t *q0)
{
    uint8_t *q = q0;
    *q++ = (uint8_t)e->kind;
    switch (e->kind) {
    case MPIRR_EVK_COMM:
        q += mpirr_varint_put(q, e->comm);
        q += mpirr_varint_put(q, e->newcomm == UINT32_MAX ? 0 : (uint64_t)e->newcomm + 1);
        q += mpirr_varint_put(q, e->req);
        q += mpirr_varint_put(q, e->root ? 1 : 0);
        q += put_ranks(q, e->ranks, e->nranks);
        if (e->root) q += put_ranks(q, e->ranks + e->nranks, e->nremote);
        break;
    case MPIRR_EVK_SITE:
        q += mpirr_varint_put(q, e->site);
        q += mpirr_varint_put(q, e->addr);
        break;
    case MPIRR_EVK_MODULE: {
        size_t len = e->path ? strlen(e->path) : 0;
        q += mpirr_varint_put(q, e->addr);
        q += mpirr_varint_put(q, e->got);
        q += mpirr_varint_put(q, e->bytes);
        q += mpirr_varint_put(q, len);
        memcpy(q, e->path, len);
        q += len;
        break;
    }
    case MPIRR_EVK_SYNC:
        q += mpirr_varint_put(q, e->thread);
        q += mpirr_varint_put(q, e->sync_call);
        q += mpirr_varint_put(q, e->object);
        q += mpirr_varint_put(q, e->version);
        q += put_s(q, e->rc);
        break;
    default: /* MPIRR_EVK_END */
        q += mpirr_varint_put(q, e->event);
        break;
    }
    return (size_t)(q - q0);
}

size_t mpirr_ev_encode(mpirr_ev_codec *c, mpirr_event *e, int exact, uint8_t *out, uint8_t *times,
                       size_t *ntimes, uint8_t *sizes, size_t *nsizes)
{
    *ntimes = *nsizes = 0;
    if (!mpirr_ev_is_call(e->kind)) return encode_meta(e, out);
    uint8_t *q = out;
    uint32_t f = e->fields & ~(uint32_t)MPIRR_EVF_EXACT;
    if (exact) f |= MPIRR_EVF_EXACT;
    uint64_t event = e->event;
    if (event != c->event + 1) f |= EVF_JUMP;
    if (e->kind < MPIRR_EVK_LONG_CALL) {
        *q++ = (uint8_t)e->kind;
    } else {
        *q++ = MPIRR_EVK_LONG_CALL;
        q += mpirr_varint_put(q, e->kind);
    }
    *q++ = (uint8_t)((f & 0x7f) | (f >> 7 ? 0x80 : 0));
    if (f >> 7) q += put_u(q, f >> 7);
    /* time: log2 of the ticks since the reconstructed time, so errors do not accumulate */
    /* in locals, stored once: the stores read back as one 16-byte load (with c->event's) could
     * not be forwarded and stalled every record (perf, SP skeleton: a quarter of this function) */
    unsigned cb = time_code(e->x_begin, c->recon);
    uint64_t t_begin = c->recon + mpirr_ev_time_decode(cb);
    unsigned ce = time_code(e->x_end, t_begin);
    uint64_t t_end = t_begin + mpirr_ev_time_decode(ce);
    e->t_begin = t_begin;
    e->t_end = t_end;
    /* both codes in one byte when they fit a nibble each (deltas under 2^14 ticks) */
    if (cb < 15 && ce < 15) {
        times[0] = (uint8_t)(cb | ce << 4);
        *ntimes = 1;
    } else {
        times[0] = 0xff;
        times[1] = (uint8_t)cb;
        times[2] = (uint8_t)ce;
        *ntimes = 3;
    }
    q += put_u(q, e->site);
    if (f & EVF_JUMP) q += put_s(q, (int64_t)(e->event - c->event - 1));
    if (f & MPIRR_EVF_COMM) q += put_u(q, e->comm);
    if (f & MPIRR_EVF_PEER) q += put_s(q, e->peer);
    if (f & MPIRR_EVF_TAG) q += put_s(q, e->tag);
    if ((f & MPIRR_EVF_BYTES) && c->size_column) *nsizes = put_u(sizes, recent_code(c, e->bytes));
    else if (f & MPIRR_EVF_BYTES) q += put_u(q, e->bytes);
    if (f & MPIRR_EVF_REQ) q += put_u(q, e->req);
    if (f & MPIRR_EVF_MATCH) {
        q += put_s(q, e->src);
        q += put_s(q, e->mtag);
        q += put_u(q, size_code(c, e->got, f & MPIRR_EVF_BYTES ? e->bytes : 0));
    }
    if (f & MPIRR_EVF_ROOT) q += put_s(q, e->root);
    if (f & MPIRR_EVF_RPEER) {
        q += put_s(q, e->rpeer);
        q += put_s(q, e->rtag);
    }
    if (f & (MPIRR_EVF_DONE | MPIRR_EVF_START)) q += put_items(q, c, e);
    if (f & MPIRR_EVF_NEWCOMM) q += put_u(q, e->newcomm);
    if (f & MPIRR_EVF_RC) q += put_s(q, e->rc);
    if (f & MPIRR_EVF_THREAD) q += put_u(q, e->thread);
    if (f & MPIRR_EVF_RMA) q += put_rma(q, e);
    if (f & MPIRR_EVF_EXACT) {
        q += put_s(q, (int64_t)(e->x_begin - c->exact));
        q += put_u(q, e->x_end - e->x_begin);
        c->exact = e->x_end;
    }
    note_posted(c, e, f);
    c->event = event;
    c->recon = t_end;
    return (size_t)(q - out);
}

/* ---- decoding ---- */

struct cur {
    const uint8_t *p, *end;
    int short_; /* ran off the end: the record is incomplete, not malformed */
};

static uint64_t get(struct cur *k)
{
    uint64_t v = 0;
    if (k->short_) return 0;
    const uint8_t *p = k->p;
    if (mpirr_varint_get(&p, k->end, &v)) {
        k->short_ = (size_t)(k->end - k->p) < MPIRR_VARINT_MAX ? 1 : 2;
        return 0;
    }
    k->p = p;
    return v;
}
static int64_t get_s(struct cur *k) { return mpirr_unzigzag(get(k)); }
static int get_byte(struct cur *k)
{
    if (k->short_) return 0;
    if (k->p >= k->end) {
        k->short_ = 1;
        return 0;
    }
    return *k->p++;
}

static void *grow(void *p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return p;
    size_t n = *cap ? *cap : 16;
    while (n < need) n *= 2;
    void *q = realloc(p, n * elem);
    if (!q) return NULL;
    *cap = n;
    return q;
}

static int get_ranks(struct cur *k, mpirr_ev_scratch *s, uint32_t at, uint32_t *n, const char **why)
{
    uint64_t cnt = get(k);
    if (k->short_) return 0;
    if (cnt > MAX_RANKS) {
        *why = "communicator with an impossible member count";
        return -1;
    }
    if (cnt > (uint64_t)(k->end - k->p)) { /* a member takes a byte at least: no room for them */
        k->short_ = 1;
        return 0;
    }
    int32_t *r = grow(s->ranks, &s->ranks_cap, at + cnt + 1, sizeof *r);
    if (!r) {
        *why = "out of memory";
        return -1;
    }
    s->ranks = r;
    int64_t prev = 0;
    for (uint64_t i = 0; i < cnt && !k->short_; i++) {
        prev += get_s(k);
        r[at + i] = (int32_t)prev;
    }
    *n = (uint32_t)cnt;
    return 0;
}

static long decode_meta(struct cur *k, const uint8_t *start, mpirr_event *e, mpirr_ev_scratch *s,
                        const char **why)
{
    switch (e->kind) {
    case MPIRR_EVK_COMM: {
        e->comm = (uint32_t)get(k);
        uint64_t parent = get(k);
        e->newcomm = parent ? (uint32_t)(parent - 1) : UINT32_MAX;
        e->req = (uint32_t)get(k);
        e->root = (int32_t)get(k);
        if (get_ranks(k, s, 0, &e->nranks, why)) return -1;
        if (e->root && !k->short_ && get_ranks(k, s, e->nranks, &e->nremote, why)) return -1;
        e->ranks = s->ranks;
        break;
    }
    case MPIRR_EVK_SITE:
        e->site = (uint32_t)get(k);
        e->addr = get(k);
        break;
    case MPIRR_EVK_MODULE: {
        e->addr = get(k);
        e->got = get(k);
        e->bytes = get(k);
        uint64_t len = get(k);
        if (k->short_) break;
        if (len > MAX_PATH) {
            *why = "load-map entry with an impossible path length";
            return -1;
        }
        if ((size_t)(k->end - k->p) < len) {
            k->short_ = 1;
            break;
        }
        char *path = grow(s->path, &s->path_cap, len + 1, 1);
        if (!path) {
            *why = "out of memory";
            return -1;
        }
        s->path = path;
        memcpy(path, k->p, len);
        path[len] = 0;
        k->p += len;
        e->path = path;
        break;
    }
    case MPIRR_EVK_SYNC:
        e->thread = (uint32_t)get(k);
        e->sync_call = (uint32_t)get(k);
        e->object = (uint32_t)get(k);
        e->version = (uint32_t)get(k);
        e->rc = (int32_t)get_s(k);
        if (!k->short_ && !mpirr_sync_call_name(e->sync_call)) {
            *why = "unknown synchronization call";
            return -1;
        }
        break;
    case MPIRR_EVK_END:
        e->event = get(k);
        break;
    default:
        *why = "unknown record kind";
        return -1;
    }
    if (k->short_ == 2) {
        *why = "malformed number";
        return -1;
    }
    return k->short_ ? 0 : (long)(k->p - start);
}

static int get_rma(struct cur *k, mpirr_event *e, mpirr_ev_scratch *s, const char **why)
{
    e->win = (uint32_t)get(k);
    e->rma = (uint32_t)get(k);
    e->target = (int32_t)get_s(k);
    e->disp = get(k);
    e->span = get(k);
    e->rma_op = (uint32_t)get(k);
    e->rma_type = (uint32_t)get(k);
    e->lock = (uint32_t)get(k);
    if (get_ranks(k, s, 0, &e->nranks, why)) return -1;
    e->ranks = s->ranks;
    if (k->short_) return 0;
    if (!mpirr_rma_kind_name(e->rma) || (e->rma_op && !mpirr_rma_op_name(e->rma_op)) ||
        (e->rma_type && !mpirr_rma_type_name(e->rma_type)) || (e->lock && !mpirr_rma_lock_name(e->lock))) {
        *why = "unknown one-sided call fields";
        return -1;
    }
    return 0;
}

static int get_items(struct cur *k, mpirr_event *e, mpirr_ev_scratch *s, const char **why)
{
    uint64_t n = get(k);
    if (k->short_) return 0;
    if (n > MAX_ITEMS) {
        *why = "impossible number of requests";
        return -1;
    }
    if (n > (uint64_t)(k->end - k->p) / 2) { /* an item takes two bytes at least */
        k->short_ = 1;
        return 0;
    }
    mpirr_ev_item *it = grow(s->items, &s->items_cap, n + 1, sizeof *it);
    if (!it) {
        *why = "out of memory";
        return -1;
    }
    s->items = it;
    for (uint64_t i = 0; i < n && !k->short_; i++) {
        memset(&it[i], 0, sizeof it[i]);
        it[i].slot = (uint32_t)get(k);
        it[i].flags = (uint32_t)get(k);
        if (it[i].flags & MPIRR_EVI_RECV) {
            it[i].src = (int32_t)get_s(k);
            it[i].tag = (int32_t)get_s(k);
            it[i].got = get(k);
        }
    }
    e->nitems = (uint32_t)n;
    e->items = it;
    return 0;
}

long mpirr_ev_decode(mpirr_ev_codec *c, const uint8_t *p, const uint8_t *end,
                     mpirr_ev_times_fn times, void *times_arg, const uint8_t **sizes,
                     const uint8_t *sizes_end, mpirr_event *e, mpirr_ev_scratch *s,
                     const char **why)
{
    struct cur k = {p, end, 0};
    memset(e, 0, sizeof *e);
    e->kind = (unsigned)get_byte(&k);
    if (k.short_) return 0;
    if (e->kind >= MPIRR_EVK_FIRST_META) return decode_meta(&k, p, e, s, why);
    if (e->kind == MPIRR_EVK_LONG_CALL) {
        uint64_t id = get(&k);
        if (k.short_) return k.short_ == 2 ? (*why = "malformed number", -1) : 0;
        if (id <= 255) { /* short ids have their own byte; 249..255 are not ids */
            *why = "long call id below 256";
            return -1;
        }
        e->kind = id < MPIRR_CALL_ID_LIMIT ? (unsigned)id : 0;
    }
    if (!mpirr_call_name(e->kind)) {
        *why = "unknown call id";
        return -1;
    }
    uint64_t lo = (uint64_t)get_byte(&k), hi = lo & 0x80 ? get(&k) : 0;
    e->site = (uint32_t)get(&k);
    if (k.short_) return k.short_ == 2 ? (*why = "malformed number", -1) : 0;
    uint64_t known = EVF_KNOWN & ~(uint64_t)(c->rma_fields ? 0 : MPIRR_EVF_RMA);
    if (hi > known >> 7 || (((lo & 0x7f) | hi << 7) & ~known)) {
        *why = "unknown record fields (written by a newer mpirr?)";
        return -1;
    }
    uint32_t f = (uint32_t)((lo & 0x7f) | hi << 7);
    unsigned cb = 0, ce = 0;
    int got = times(times_arg, e->site, &cb, &ce);
    if (got <= 0) {
        if (got < 0) *why = "damaged time codes";
        return got;
    }
    if (cb > 64 || ce > 64) {
        *why = "impossible time code";
        return -1;
    }
    e->event = c->event + 1;
    if (f & EVF_JUMP) e->event += (uint64_t)get_s(&k);
    if (f & MPIRR_EVF_COMM) e->comm = (uint32_t)get(&k);
    if (f & MPIRR_EVF_PEER) e->peer = (int32_t)get_s(&k);
    if (f & MPIRR_EVF_TAG) e->tag = (int32_t)get_s(&k);
    /* with a size column, the bytes field's code is read there, and taken (with the column
     * moving past it) only once the record is whole */
    struct cur col = {c->size_column ? *sizes : NULL, c->size_column ? sizes_end : NULL, 0};
    uint64_t size_code_ = 0;
    if (f & MPIRR_EVF_BYTES) {
        if (c->size_column) size_code_ = get(&col);
        else e->bytes = get(&k);
    }
    if (col.short_ == 2) {
        *why = "malformed size";
        return -1;
    }
    if (col.short_) return 0;
    if (f & MPIRR_EVF_REQ) e->req = (uint32_t)get(&k);
    if (f & MPIRR_EVF_MATCH) {
        e->src = (int32_t)get_s(&k);
        e->mtag = (int32_t)get_s(&k);
        e->got = get(&k);
    }
    if (f & MPIRR_EVF_ROOT) e->root = (int32_t)get_s(&k);
    if (f & MPIRR_EVF_RPEER) {
        e->rpeer = (int32_t)get_s(&k);
        e->rtag = (int32_t)get_s(&k);
    }
    if ((f & (MPIRR_EVF_DONE | MPIRR_EVF_START)) && get_items(&k, e, s, why)) return -1;
    if (f & MPIRR_EVF_NEWCOMM) e->newcomm = (uint32_t)get(&k);
    if (f & MPIRR_EVF_RC) e->rc = (int32_t)get_s(&k);
    if (f & MPIRR_EVF_THREAD) e->thread = (uint32_t)get(&k);
    if ((f & MPIRR_EVF_RMA) && get_rma(&k, e, s, why)) return -1;
    uint64_t xb = 0, xd = 0;
    if (f & MPIRR_EVF_EXACT) {
        xb = c->exact + (uint64_t)get_s(&k);
        xd = get(&k);
    }
    if (k.short_ == 2) {
        *why = "malformed number";
        return -1;
    }
    if (k.short_) return 0;
    /* only now, with the whole record in hand, advance the codec state */
    e->fields = f & ~EVF_JUMP;
    if ((f & MPIRR_EVF_BYTES) && c->size_column) {
        e->bytes = recent_size(c, size_code_);
        *sizes = col.p;
    }
    /* received sizes were read as their codes (the writer's order: match, items, then the
     * slot this record created) */
    if (f & MPIRR_EVF_MATCH) e->got = size_value(c, e->got, f & MPIRR_EVF_BYTES ? e->bytes : 0);
    for (uint32_t i = 0; i < e->nitems; i++)
        if (e->items[i].flags & MPIRR_EVI_RECV)
            e->items[i].got = size_value(c, e->items[i].got, *posted(c, e->items[i].slot));
    note_posted(c, e, f);
    e->t_begin = c->recon + mpirr_ev_time_decode(cb);
    e->t_end = e->t_begin + mpirr_ev_time_decode(ce);
    if (f & MPIRR_EVF_EXACT) {
        e->x_begin = xb;
        e->x_end = xb + xd;
        c->exact = e->x_end;
    }
    c->event = e->event;
    c->recon = e->t_end;
    return (long)(k.p - p);
}

void mpirr_ev_scratch_free(mpirr_ev_scratch *s)
{
    free(s->items);
    free(s->ranks);
    free(s->path);
    memset(s, 0, sizeof *s);
}
