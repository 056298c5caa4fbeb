/* record_codec.c: encode/decode one record. Layout, after a head byte
 *   head = kind (4 bits) | HAS_MATCH 0x10 | DEFERRED 0x20 | HAS_SUB 0x40 | HAS_COUNT 0x80
 * varint call, varint (written - previous written), [varint lag], [varint sub],
 * [zigzag source, zigzag tag], [zigzag count [indices as zigzag deltas]], kind payload.
 * Unsuccessful tests cost nothing: they are the events between records. A LIBC record's call
 * varint is its libc source (libc_sources.def) and its payload a difference to the previous
 * value of the same family (times of one clock family are close), plus bytes for getrandom. */
#include "record_codec.h"

#include <stdlib.h>
#include <string.h>

#include "call_ids.h"
#include "sync_calls.h"
#include "varint.h"

enum { HAS_MATCH = 0x10, DEFERRED = 0x20, HAS_SUB = 0x40, HAS_COUNT = 0x80, KIND_MASK = 0x0f };

static int carries_count(const mpirr_record *r)
{
    return r->kind == MPIRR_REC_TEST_OK || r->kind == MPIRR_REC_CHOICE || r->kind == MPIRR_REC_SYNC;
}

/* Only the some-calls return an index list, so only they store one. */
static int carries_indices(unsigned call)
{
    return call == MPIRR_ID_MPI_Testsome || call == MPIRR_ID_MPI_Waitsome;
}

/* A SYNC record's call is no MPI call id: only MPI records can carry an index list. */
static int carries_list(const mpirr_record *r)
{
    return r->kind != MPIRR_REC_SYNC && carries_indices(r->call);
}

const char *mpirr_record_kind_name(unsigned kind)
{
    static const char *const names[MPIRR_REC_KIND_LIMIT] = {
        NULL,    "match", "test_ok", "choice", "recv_done", "cancel_done", "wtime", "check",
        "end", "libc", "sync", "ticket"};
    return kind < MPIRR_REC_KIND_LIMIT && names[kind] ? names[kind] : "unknown";
}

const char *mpirr_record_call_name(const mpirr_record *r)
{
    const char *name = r->kind == MPIRR_REC_LIBC   ? mpirr_libc_source_name(r->call)
                       : r->kind == MPIRR_REC_SYNC ? mpirr_sync_call_name(r->call)
                                                   : mpirr_call_name(r->call);
    return name ? name : "?";
}

/* MPI_Wtime values (wtime_ns): both MPIs return whole nanoseconds of a clock as a double
 * (Open MPI since MPI_Init, MPICH since boot), so the value's information is the nanoseconds
 * since the previous value; the double's own bits differ in some 40 mantissa bits for a 1 ms
 * step (5.7 B a value on LAMMPS, against 2.4 B as nanoseconds). A value is coded as
 * zigzag(ns - previous ns) << 2 | how: how 0, 1, 2 = the double is ns / 1e9 exactly, one
 * bit pattern above, one below (how a library's sec + nsec / 1e9 can round); 3 = not a
 * nanosecond count (huge, negative zero, NaN...): zigzag of the bits' difference follows. */
#define WTIME_NS_LIMIT 1e9 /* s (31 years): |ns| < 1e18, so every shifted delta fits 64 bits */
static int64_t wtime_ns_of(uint64_t bits, int *ok)
{
    double v;
    memcpy(&v, &bits, sizeof v);
    *ok = v > -WTIME_NS_LIMIT && v < WTIME_NS_LIMIT; /* false for NaN */
    double x = v * 1e9; /* rounded to the nearest (half away from zero), without libm */
    return *ok ? (int64_t)(x < 0 ? x - 0.5 : x + 0.5) : 0;
}
static uint64_t wtime_bits_of(int64_t ns)
{
    double v = (double)ns / 1e9;
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    return bits;
}

double mpirr_wtime_round(double t, uint32_t unit_ns)
{
    if (unit_ns <= 1) return t;
    uint64_t bits;
    memcpy(&bits, &t, sizeof bits);
    int ok;
    int64_t ns = wtime_ns_of(bits, &ok), rest = ns % (int64_t)unit_ns;
    if (!ok) return t;
    bits = wtime_bits_of(ns - (rest < 0 ? rest + (int64_t)unit_ns : rest));
    memcpy(&t, &bits, sizeof t);
    return t;
}

/* wtime_split: the step d = ns - previous ns as the code how << 7 | (d < 0) << 6 | len(|d|)
 * (len: bit length, 0 for no step; one byte for a forward step of an exact value), then the
 * len - 1 bits below |d|'s leading one: in the frame's column, or inline as whole bytes, most
 * significant first; how 3 is the code 3 << 7 alone, followed as above. The length is what the
 * calls between two values predict; the bits below it are timing jitter, which a byte-wise
 * compressor cannot shrink: apart, they cost what they are and no more (docs/format.md). */
enum { WT_NEG = 1 << 6, WT_HOW = 7, WT_RAW = 3 << WT_HOW };
void mpirr_bit_column_put(mpirr_bit_column *c, uint64_t v, unsigned k)
{
    if (k > 56) { /* the bits already in the last byte and these must fit 64 */
        mpirr_bit_column_put(c, v >> 32, k - 32);
        v &= 0xffffffffu;
        k = 32;
    }
    size_t byte = (size_t)(c->pos >> 3);
    unsigned used = (unsigned)(c->pos & 7), n = used + k, bytes = (n + 7) / 8;
    uint64_t before = used ? (uint64_t)(c->out[byte] >> (8 - used)) << k : 0;
    uint64_t x = before | (k ? v & (~0ull >> (64 - k)) : 0);
    x <<= bytes * 8 - n; /* the last byte's unused bits zero */
    for (unsigned i = bytes; i-- > 0; x >>= 8) c->out[byte + i] = (uint8_t)x;
    c->pos += k;
}
static int col_get(mpirr_bit_column *c, unsigned k, uint64_t *v)
{
    if (k > (uint64_t)c->len * 8 - c->pos) return -1;
    uint64_t x = 0;
    while (k) {
        size_t byte = (size_t)(c->pos >> 3);
        unsigned used = (unsigned)(c->pos & 7), take = k < 8 - used ? k : 8 - used;
        x = x << take | ((uint64_t)(c->in[byte] >> (8 - used - take)) & ((1u << take) - 1));
        c->pos += take;
        k -= take;
    }
    *v = x;
    return 0;
}
int mpirr_bit_column_done(const mpirr_bit_column *c)
{
    if ((c->pos + 7) / 8 != c->len) return 0;
    unsigned rest = (unsigned)((uint64_t)c->len * 8 - c->pos);
    return rest == 0 || (c->in[c->len - 1] & ((1u << rest) - 1)) == 0;
}
static uint8_t *low_bits_put(uint8_t *p, uint64_t v, unsigned k, mpirr_codec_state *st)
{
    if (st->col) {
        mpirr_bit_column_put(st->col, v, k);
        return p;
    }
    for (unsigned n = (k + 7) / 8; n--;) *p++ = (uint8_t)(v >> (8 * n));
    st->low_bits = k;
    return p;
}
/* k low bits inline: (k + 7) / 8 bytes at p, most significant first. */
static uint64_t inline_bits(const uint8_t *p, unsigned k)
{
    uint64_t x = 0;
    for (unsigned n = (k + 7) / 8; n--;) x = x << 8 | *p++;
    return x;
}
size_t mpirr_bit_column_take(mpirr_bit_column *c, const uint8_t *record_end, unsigned k)
{
    unsigned n = (k + 7) / 8;
    mpirr_bit_column_put(c, inline_bits(record_end - n, k), k);
    return n;
}
static int low_bits_get(const uint8_t **p, const uint8_t *end, unsigned k, uint64_t *v,
                        mpirr_codec_state *st)
{
    if (st->col) return col_get(st->col, k, v);
    unsigned n = (k + 7) / 8;
    if ((size_t)(end - *p) < n) return -1;
    *v = inline_bits(*p, k);
    *p += n;
    return *v >> k ? -1 : 0; /* k < 61: only the encoder's bits */
}
static uint8_t *wtime_step_put(uint8_t *p, int64_t d, unsigned how, mpirr_codec_state *st)
{
    uint64_t a = d < 0 ? (uint64_t)0 - (uint64_t)d : (uint64_t)d;
    unsigned len = a ? 64 - (unsigned)__builtin_clzll(a) : 0;
    p += mpirr_varint_put(p, (uint64_t)how << WT_HOW | (d < 0 ? WT_NEG : 0) | len);
    return len > 1 ? low_bits_put(p, a & ((1ull << (len - 1)) - 1), len - 1, st) : p;
}

/* The value how (0-2) says, of nanoseconds ns; the previous value from here on. */
static int wtime_of_ns(int64_t ns, unsigned how, uint64_t *bits, mpirr_codec_state *st)
{
    if (ns <= -(int64_t)1e18 || ns >= (int64_t)1e18) return -1; /* not from the encoder */
    *bits = wtime_bits_of(ns) + (how == 1 ? 1 : how == 2 ? (uint64_t)-1 : 0);
    st->prev_wtime = *bits;
    return 0;
}
static int wtime_step_get(const uint8_t **p, const uint8_t *end, uint64_t code, uint64_t *bits,
                          mpirr_codec_state *st)
{
    uint64_t len = code & (WT_NEG - 1), neg = code & WT_NEG, low = 0;
    if (len > 61 || (len == 0 && neg)) return -1;
    if (len > 1 && low_bits_get(p, end, (unsigned)len - 1, &low, st)) return -1;
    uint64_t a = (len ? 1ull << (len - 1) : 0) | low;
    if (st->wtime_unit > 1) { /* steps in units (MPIRR_LOG_FLAG_WTIME_UNIT) */
        if (a > (uint64_t)1e18 / st->wtime_unit) return -1;
        a *= st->wtime_unit;
    }
    int prev_ok;
    uint64_t prev = (uint64_t)wtime_ns_of(st->prev_wtime, &prev_ok);
    return wtime_of_ns((int64_t)(neg ? prev - a : prev + a), (unsigned)(code >> WT_HOW), bits, st);
}

static uint8_t *wtime_encode(uint8_t *p, uint64_t bits, mpirr_codec_state *st)
{
    int ok, prev_ok;
    int64_t ns = wtime_ns_of(bits, &ok), prev = wtime_ns_of(st->prev_wtime, &prev_ok);
    int64_t off = ok ? (int64_t)(bits - wtime_bits_of(ns)) : 2;
    /* in units: only a whole number of them (every value the runtime rounded), else raw */
    int64_t unit = st->wtime_split && st->wtime_unit > 1 ? (int64_t)st->wtime_unit : 1;
    if (ok && off >= -1 && off <= 1 && (ns - prev) % unit == 0) {
        unsigned how = off == 0 ? 0 : off == 1 ? 1 : 2;
        if (st->wtime_split) p = wtime_step_put(p, (ns - prev) / unit, how, st);
        else p += mpirr_varint_put(p, mpirr_zigzag(ns - prev) << 2 | how);
    } else {
        p += mpirr_varint_put(p, st->wtime_split ? WT_RAW : 3);
        p += mpirr_varint_put(p, mpirr_zigzag((int64_t)(bits - st->prev_wtime)));
    }
    st->prev_wtime = bits;
    return p;
}
static int wtime_decode(const uint8_t **p, const uint8_t *end, uint64_t code, uint64_t *bits,
                        mpirr_codec_state *st)
{
    if (st->wtime_split ? code == WT_RAW : (code & 3) == 3) {
        uint64_t raw;
        if (mpirr_varint_get(p, end, &raw)) return -1;
        *bits = st->prev_wtime + (uint64_t)mpirr_unzigzag(raw);
        st->prev_wtime = *bits;
        return 0;
    }
    if (st->wtime_split) return code > WT_RAW ? -1 : wtime_step_get(p, end, code, bits, st);
    unsigned how = (unsigned)(code & 3);
    int prev_ok;
    int64_t prev = wtime_ns_of(st->prev_wtime, &prev_ok);
    return wtime_of_ns((int64_t)((uint64_t)prev + (uint64_t)mpirr_unzigzag(code >> 2)), how, bits, st);
}

/* BYTES values stand alone (a return value); the others are differences within a family. */
static uint64_t *libc_prev(mpirr_codec_state *st, unsigned source)
{
    enum mpirr_libc_family f = mpirr_libc_source_family(source);
    return f == MPIRR_LIBC_FAMILY_BYTES ? NULL : &st->prev_libc[f];
}

size_t mpirr_record_encoded_max(const mpirr_record *r)
{
    size_t n = 1 + 6 * MPIRR_VARINT_MAX + 16;
    if (carries_count(r) && r->count > 0) n += (size_t)r->count * MPIRR_VARINT_MAX;
    if (r->kind == MPIRR_REC_LIBC) n += r->nbytes;
    return n;
}

size_t mpirr_record_encode(uint8_t *out, const mpirr_record *r, mpirr_codec_state *st)
{
    uint8_t head = r->kind & KIND_MASK;
    int deferred = r->written != r->event;
    if (r->has_match) head |= HAS_MATCH;
    if (deferred) head |= DEFERRED;
    if (r->sub) head |= HAS_SUB;
    if (carries_count(r) && r->count != 0) head |= HAS_COUNT;
    uint8_t *p = out;
    *p++ = head;
    p += mpirr_varint_put(p, r->call);
    p += mpirr_varint_put(p, r->written - st->prev_written);
    st->prev_written = r->written;
    if (deferred) p += mpirr_varint_put(p, r->written - r->event);
    if (r->sub) p += mpirr_varint_put(p, r->sub);
    if (r->has_match) {
        p += mpirr_varint_put(p, mpirr_zigzag(r->source));
        p += mpirr_varint_put(p, mpirr_zigzag(r->tag));
    }
    if (head & HAS_COUNT) {
        p += mpirr_varint_put(p, mpirr_zigzag(r->count));
        if (carries_list(r) && r->count > 0) {
            int64_t prev = 0;
            for (int32_t i = 0; i < r->count; i++) {
                p += mpirr_varint_put(p, mpirr_zigzag((int64_t)r->indices[i] - prev));
                prev = r->indices[i];
            }
        }
    }
    switch (r->kind) {
    case MPIRR_REC_RECV_DONE:
    case MPIRR_REC_CANCEL_DONE:
        p += mpirr_varint_put(p, r->cancelled ? 1 : 0);
        break;
    case MPIRR_REC_SYNC:
    case MPIRR_REC_TICKET:
        p += mpirr_varint_put(p, r->value);
        break;
    case MPIRR_REC_WTIME:
        if (st->wtime_ns) {
            p = wtime_encode(p, r->value, st);
            break;
        }
        p += mpirr_varint_put(p, mpirr_zigzag((int64_t)(r->value - st->prev_wtime)));
        st->prev_wtime = r->value;
        break;
    case MPIRR_REC_LIBC: {
        uint64_t *prev = libc_prev(st, r->call);
        p += mpirr_varint_put(p, mpirr_zigzag((int64_t)(r->value - (prev ? *prev : 0))));
        if (prev) *prev = r->value;
        else {
            p += mpirr_varint_put(p, r->nbytes);
            if (r->nbytes) memcpy(p, r->bytes, r->nbytes);
            p += r->nbytes;
        }
        break;
    }
    case MPIRR_REC_END:
        p += mpirr_varint_put(p, r->total);
        /* END carries the final hash like CHECK */
        __attribute__((fallthrough));
    case MPIRR_REC_CHECK:
        mpirr_put_u64(p, r->value);
        p += 8;
        break;
    default:
        break;
    }
    return (size_t)(p - out);
}

#define GET(var)                                                                               \
    do {                                                                                       \
        if (mpirr_varint_get(p, end, &(var))) {                                                \
            *msg = "truncated or malformed varint";                                            \
            return -1;                                                                         \
        }                                                                                      \
    } while (0)

/* The bytes go to the caller's index buffer, which is owned the same way. */
static int decode_libc(const uint8_t **p, const uint8_t *end, mpirr_record *r,
                       mpirr_codec_state *st, int32_t **idx, size_t *idx_cap, const char **msg)
{
    uint64_t v;
    GET(v);
    uint64_t *prev = libc_prev(st, r->call);
    r->value = (prev ? *prev : 0) + (uint64_t)mpirr_unzigzag(v);
    if (prev) {
        *prev = r->value;
        return 0;
    }
    GET(v);
    if (v > (uint64_t)(end - *p)) {
        *msg = "libc value longer than its record";
        return -1;
    }
    size_t words = ((size_t)v + sizeof **idx - 1) / sizeof **idx;
    if (words > *idx_cap) {
        int32_t *grown = realloc(*idx, words * sizeof **idx);
        if (!grown) {
            *msg = "out of memory";
            return -1;
        }
        *idx = grown;
        *idx_cap = words;
    }
    r->nbytes = (uint32_t)v;
    if (v) memcpy(*idx, *p, (size_t)v);
    r->bytes = (const uint8_t *)*idx;
    *p += v;
    return 0;
}

int mpirr_record_decode(const uint8_t **p, const uint8_t *end, mpirr_record *r,
                        mpirr_codec_state *st, int32_t **idx, size_t *idx_cap,
                        const char **msg)
{
    uint64_t v;
    memset(r, 0, sizeof *r);
    if (*p >= end) {
        *msg = "record missing";
        return -1;
    }
    uint8_t head = *(*p)++;
    r->kind = head & KIND_MASK;
    if (r->kind == 0 || r->kind >= MPIRR_REC_KIND_LIMIT) {
        *msg = "unknown record kind (corrupt data, or written by a newer mpirr)";
        return -1;
    }
    GET(v);
    int known = r->kind == MPIRR_REC_LIBC   ? v < MPIRR_LIBC_SOURCE_LIMIT && mpirr_libc_source_name((unsigned)v)
                : r->kind == MPIRR_REC_SYNC ? mpirr_sync_call_name((unsigned)v) != NULL
                                            : v < MPIRR_CALL_ID_LIMIT && mpirr_call_name((unsigned)v);
    if (!known) {
        *msg = r->kind == MPIRR_REC_LIBC   ? "unknown libc source"
               : r->kind == MPIRR_REC_SYNC ? "unknown synchronization call id"
                                           : "unknown MPI call id";
        return -1;
    }
    r->call = (uint16_t)v;
    GET(v);
    r->written = st->prev_written + v;
    st->prev_written = r->written;
    r->event = r->written;
    if (head & DEFERRED) {
        GET(v);
        if (v > r->written) {
            *msg = "deferred record refers to an event before the first";
            return -1;
        }
        r->event = r->written - v;
    }
    if (head & HAS_SUB) {
        GET(v);
        r->sub = (uint32_t)v;
    }
    if (head & HAS_MATCH) {
        r->has_match = 1;
        GET(v);
        r->source = (int32_t)mpirr_unzigzag(v);
        GET(v);
        r->tag = (int32_t)mpirr_unzigzag(v);
    }
    if (head & HAS_COUNT) {
        GET(v);
        int64_t count = mpirr_unzigzag(v);
        if (count < -1 || count > (1 << 24)) {
            *msg = "implausible index count";
            return -1;
        }
        r->count = (int32_t)count;
        if (carries_list(r) && count > 0) {
            if ((size_t)count > *idx_cap) {
                int32_t *grown = realloc(*idx, (size_t)count * sizeof **idx);
                if (!grown) {
                    *msg = "out of memory";
                    return -1;
                }
                *idx = grown;
                *idx_cap = (size_t)count;
            }
            int64_t prev = 0;
            for (int64_t i = 0; i < count; i++) {
                GET(v);
                prev += mpirr_unzigzag(v);
                (*idx)[i] = (int32_t)prev;
            }
            r->indices = *idx;
        }
    }
    switch (r->kind) {
    case MPIRR_REC_RECV_DONE:
    case MPIRR_REC_CANCEL_DONE:
        GET(v);
        r->cancelled = v != 0;
        break;
    case MPIRR_REC_SYNC:
    case MPIRR_REC_TICKET:
        GET(r->value);
        break;
    case MPIRR_REC_WTIME:
        GET(v);
        if (st->wtime_ns) {
            if (wtime_decode(p, end, v, &r->value, st)) {
                *msg = "impossible MPI_Wtime value";
                return -1;
            }
            break;
        }
        r->value = st->prev_wtime + (uint64_t)mpirr_unzigzag(v);
        st->prev_wtime = r->value;
        break;
    case MPIRR_REC_LIBC:
        if (decode_libc(p, end, r, st, idx, idx_cap, msg)) return -1;
        break;
    case MPIRR_REC_END:
        GET(r->total);
        __attribute__((fallthrough));
    case MPIRR_REC_CHECK:
        if (end - *p < 8) {
            *msg = "truncated hash";
            return -1;
        }
        r->value = mpirr_get_u64(*p);
        *p += 8;
        break;
    default:
        break;
    }
    return 0;
}
