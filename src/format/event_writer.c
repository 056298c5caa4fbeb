/* event_writer.c: appends event-history records. Records are encoded into a stage inside a
 * mapped tail file (so a killed process still leaves them), and when the stage fills, or
 * mpirr_flush() asks, the stage goes through one zstd stream that lives as long as the rank
 * (so a repeat of anything within the window, however long ago, costs a few bytes) and is
 * flushed into a checked chunk appended to rank-N.events. Memory is bounded: the stage, the
 * zstd window and one chunk buffer. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zstd.h>

#include "event_layout.h"
#include "event_trace.h"
#include "file_io.h"
#include "rank_log.h"
#include "varint.h"

#define DEFAULT_STAGE (64u << 10)

struct mpirr_ev_writer {
    int fd;
    uint8_t *tail;        /* mapped: header page + stage */
    size_t stage_cap;
    ZSTD_CCtx *zc;
    uint8_t *zbuf;        /* chunk header + compressed bytes */
    size_t zcap;
    mpirr_ev_codec codec;
    mpirr_ev_params p;
    uint64_t raw_total;   /* raw bytes appended so far */
    uint64_t chunks;
    int failed;
    char tail_path[4200];
    char err[320];
};

void mpirr_ev_path(char *buf, size_t n, const char *dir, int rank, int tail)
{
    mpirr_log_path(buf, n, dir, rank, tail ? "events.tail" : "events");
}

static int fail_io(mpirr_ev_writer *w, const char *what)
{
    if (!w->failed) snprintf(w->err, sizeof w->err, "%s: %s", what, strerror(errno));
    w->failed = 1;
    return -1;
}

static uint64_t used(const mpirr_ev_writer *w)
{
    return __atomic_load_n((uint64_t *)(w->tail + ET_USED), __ATOMIC_ACQUIRE);
}

/* The stage is empty and starts at raw offset raw_total. Start first: a reader seeing the
 * new start must see an empty stage, and one seeing the old start skips what the chunks
 * already hold. */
static void tail_reset(mpirr_ev_writer *w)
{
    __atomic_store_n((uint64_t *)(w->tail + ET_USED), 0, __ATOMIC_RELEASE);
    __atomic_store_n((uint64_t *)(w->tail + ET_RAW_START), w->raw_total, __ATOMIC_RELEASE);
}

static int write_chunk(mpirr_ev_writer *w, size_t zlen, uint64_t raw_end)
{
    uint8_t *h = w->zbuf;
    mpirr_put_u32(h + EC_MAGIC, EV_CHUNK_MAGIC);
    mpirr_put_u32(h + EC_ZLEN, (uint32_t)zlen);
    mpirr_put_u64(h + EC_RAW_END, raw_end);
    mpirr_put_u64(h + EC_ZCHECK, mpirr_fnv64(MPIRR_FNV64_OFFSET, h + EV_CHUNK_BYTES, zlen));
    mpirr_put_u64(h + EC_CHECK, mpirr_fnv64(MPIRR_FNV64_OFFSET, h, EC_CHECK));
    if (mpirr_write_all(w->fd, h, EV_CHUNK_BYTES + zlen)) return fail_io(w, "write");
    w->chunks++;
    return 0;
}

/* Feeds data (raw stream bytes [raw_end - len, raw_end)) through the stream and writes what
 * comes out as chunks; the last chunk ends at a flush (or, with end, the frame's end), so
 * everything up to raw_end is decodable from the file alone. */
static int compress_out(mpirr_ev_writer *w, const void *data, size_t len, uint64_t raw_end, int end)
{
    ZSTD_inBuffer in = {data, len, 0};
    for (;;) {
        ZSTD_outBuffer out = {w->zbuf + EV_CHUNK_BYTES, w->zcap, 0};
        size_t left = ZSTD_compressStream2(w->zc, &out, &in, end ? ZSTD_e_end : ZSTD_e_flush);
        if (ZSTD_isError(left)) {
            snprintf(w->err, sizeof w->err, "zstd: %s", ZSTD_getErrorName(left));
            w->failed = 1;
            return -1;
        }
        /* a chunk cut before the flush point does not make the whole input decodable yet */
        if (out.pos && write_chunk(w, out.pos, left ? raw_end - len : raw_end)) return -1;
        if (!left) return 0;
    }
}

int mpirr_evw_flush(mpirr_ev_writer *w)
{
    if (w->failed) return -1;
    uint64_t n = used(w);
    if (!n) return 0;
    if (compress_out(w, w->tail + EV_TAIL_HEADER_BYTES, n, w->raw_total, 0)) return -1;
    tail_reset(w);
    return 0;
}

int mpirr_evw_append(mpirr_ev_writer *w, mpirr_event *e)
{
    if (w->failed) return -1;
    if (e->kind < MPIRR_EVK_FIRST_META) {
        uint64_t base = w->p.base_ns, sh = w->p.tick_shift;
        e->x_begin = e->x_begin > base ? (e->x_begin - base) >> sh : 0;
        e->x_end = e->x_end > base ? (e->x_end - base) >> sh : 0;
    }
    size_t max = mpirr_ev_encoded_max(e);
    uint64_t n = used(w);
    if (n + max > w->stage_cap) {
        if (mpirr_evw_flush(w)) return -1;
        n = 0;
    }
    if (max > w->stage_cap) { /* a record larger than the stage goes straight through */
        uint8_t *tmp = malloc(max);
        if (!tmp) return fail_io(w, "out of memory");
        size_t len = mpirr_ev_encode(&w->codec, e, w->p.exact, tmp);
        w->raw_total += len;
        int rc = compress_out(w, tmp, len, w->raw_total, 0);
        free(tmp);
        tail_reset(w);
        return rc;
    }
    size_t len = mpirr_ev_encode(&w->codec, e, w->p.exact, w->tail + EV_TAIL_HEADER_BYTES + n);
    w->raw_total += len;
    __atomic_store_n((uint64_t *)(w->tail + ET_USED), n + len, __ATOMIC_RELEASE);
    return 0;
}

static void encode_header(uint8_t *h, const mpirr_ev_params *p)
{
    memset(h, 0, EV_HEADER_BYTES);
    memcpy(h, EV_MAGIC, 8);
    mpirr_put_u32(h + EH_VERSION, MPIRR_EVENTS_VERSION);
    mpirr_put_u32(h + EH_RANK, (uint32_t)p->rank);
    mpirr_put_u32(h + EH_NRANKS, (uint32_t)p->nranks);
    mpirr_put_u32(h + EH_TICK_SHIFT, p->tick_shift);
    mpirr_put_u32(h + EH_FLAGS, p->exact ? EV_FLAG_EXACT : 0);
    mpirr_put_u32(h + EH_CODEC, EV_CODEC_ZSTD);
    mpirr_put_u64(h + EH_BASE_NS, p->base_ns);
    mpirr_put_u64(h + EH_REALTIME_NS, p->start_realtime_ns);
    mpirr_put_u64(h + EH_CHECK, mpirr_fnv64(MPIRR_FNV64_OFFSET, h, EH_CHECK));
}

static void writer_free(mpirr_ev_writer *w)
{
    if (w->tail) munmap(w->tail, EV_TAIL_HEADER_BYTES + w->stage_cap);
    if (w->fd >= 0) close(w->fd);
    ZSTD_freeCCtx(w->zc);
    free(w->zbuf);
    free(w);
}

mpirr_ev_writer *mpirr_evw_open(const char *dir, const mpirr_ev_params *p, char *err, size_t errlen)
{
    mpirr_ev_writer *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    char path[4200];
    w->fd = -1;
    w->p = *p;
    w->stage_cap = p->stage_bytes ? p->stage_bytes : DEFAULT_STAGE;
    mpirr_ev_path(path, sizeof path, dir, p->rank, 0);
    mpirr_ev_path(w->tail_path, sizeof w->tail_path, dir, p->rank, 1);
    w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (w->fd < 0) {
        snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
        writer_free(w);
        return NULL;
    }
    w->tail = mpirr_map_create(w->tail_path, EV_TAIL_HEADER_BYTES + w->stage_cap, err, errlen);
    w->zc = ZSTD_createCCtx();
    w->zcap = ZSTD_compressBound(w->stage_cap) + 4096;
    w->zbuf = malloc(EV_CHUNK_BYTES + w->zcap);
    if (!w->tail || !w->zc || !w->zbuf) {
        if (w->tail && (!w->zc || !w->zbuf)) snprintf(err, errlen, "out of memory");
        writer_free(w);
        return NULL;
    }
    ZSTD_CCtx_setParameter(w->zc, ZSTD_c_compressionLevel, p->level ? p->level : 3);
    ZSTD_CCtx_setParameter(w->zc, ZSTD_c_checksumFlag, 1);
    uint8_t h[EV_HEADER_BYTES];
    encode_header(h, p);
    if (mpirr_write_all(w->fd, h, sizeof h)) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        writer_free(w);
        return NULL;
    }
    memcpy(w->tail, EV_TAIL_MAGIC, 8);
    mpirr_put_u32(w->tail + ET_VERSION, MPIRR_EVENTS_VERSION);
    mpirr_put_u32(w->tail + ET_CAPACITY, (uint32_t)w->stage_cap);
    tail_reset(w);
    return w;
}

int mpirr_evw_close(mpirr_ev_writer *w, int clean)
{
    if (!w) return 0;
    int rc = 0;
    if (clean) {
        mpirr_event end = {.kind = MPIRR_EVK_END, .event = w->codec.event};
        rc = mpirr_evw_append(w, &end);
        if (!rc) rc = mpirr_evw_flush(w);
        if (!rc) rc = compress_out(w, NULL, 0, w->raw_total, 1);
        if (!rc) unlink(w->tail_path); /* everything is in the chunks */
    } else {
        rc = mpirr_evw_flush(w);
    }
    writer_free(w);
    return rc;
}

const char *mpirr_evw_error(const mpirr_ev_writer *w) { return w->err; }
