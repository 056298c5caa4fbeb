/* event_writer.c: appends event-history records. Records are encoded into a stage inside a
 * mapped tail file (so a killed process still leaves them): record bytes in one area, their
 * time codes in another, their message sizes in a third. When the stage fills, or
 * mpirr_flush() asks, it becomes one block (its header, the records, the sizes, the time
 * codes) that goes through one
 * zstd stream living as long as the rank (so a repeat of anything within the window, however
 * long ago, costs a few bytes), flushed into checked chunks appended to rank-N.events.
 * Memory is bounded: the stage, the zstd window and one chunk buffer. */
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
#include "time_coder.h"
#include "varint.h"

/* 128 KiB, zstd's largest block: every stage ends a zstd block and pays a chunk header, some
 * 60 bytes in all, which at 64 KiB were 4% of the skeletons' histories and 3% of LAMMPS's. */
#define DEFAULT_STAGE (128u << 10)

struct mpirr_ev_writer {
    int fd;
    uint8_t *tail;        /* mapped: header page + record, time and size areas */
    size_t stage_cap;     /* bytes of each area */
    ZSTD_CCtx *zc;
    uint8_t *zbuf;        /* chunk header + compressed bytes */
    size_t zcap;
    mpirr_ev_codec codec;
    tc_model *model;      /* the time column's coder, across blocks */
    uint32_t *sites;      /* call site of each staged call record, for the coder */
    size_t nsites, sites_cap;
    uint8_t *coded;       /* a block's coded time column */
    mpirr_ev_params p;
    uint64_t raw_total;   /* raw bytes appended so far */
    uint64_t chunks;
    uint64_t file_bytes;  /* bytes in rank-N.events */
    uint64_t whole_bytes; /* of which those up to the end of the last whole block */
    int failed;
    char path[4200], tail_path[4200];
    char err[4400];
};

void mpirr_ev_path(char *buf, size_t n, const char *dir, int rank, int tail)
{
    mpirr_log_path(buf, n, dir, rank, tail ? "events.tail" : "events");
}

static int fail_io(mpirr_ev_writer *w, const char *what)
{
    if (!w->failed) snprintf(w->err, sizeof w->err, "%s %s: %s", what, w->path, strerror(errno));
    w->failed = 1;
    return -1;
}

static uint64_t used(const mpirr_ev_writer *w, int which)
{
    return __atomic_load_n((uint64_t *)(w->tail + which), __ATOMIC_ACQUIRE);
}
enum { AREA_RECORDS, AREA_TIMES, AREA_SIZES };
static uint8_t *area(const mpirr_ev_writer *w, int which)
{
    return w->tail + EV_TAIL_HEADER_BYTES + (size_t)which * w->stage_cap;
}
static size_t tail_len(size_t stage_cap) { return EV_TAIL_HEADER_BYTES + 3 * stage_cap; }

/* The stage is empty and starts at raw offset raw_total. Start first: a reader seeing the
 * new start must see an empty stage, and one seeing the old start skips what the chunks
 * already hold. */
static void tail_reset(mpirr_ev_writer *w)
{
    __atomic_store_n((uint64_t *)(w->tail + ET_USED), 0, __ATOMIC_RELEASE);
    __atomic_store_n((uint64_t *)(w->tail + ET_TUSED), 0, __ATOMIC_RELEASE);
    __atomic_store_n((uint64_t *)(w->tail + ET_SUSED), 0, __ATOMIC_RELEASE);
    __atomic_store_n((uint64_t *)(w->tail + ET_RAW_START), w->raw_total, __ATOMIC_RELEASE);
}

/* A chunk write failed (a full disk): the file is cut back to its last whole block, so it
 * ends where a rank killed between two blocks would have left it, and the tail, which still
 * stages the block that did not make it, continues it (docs/format.md: a history with a tail
 * reads as cut off, not damaged). No write follows. */
static int write_failed(mpirr_ev_writer *w)
{
    int e = errno;
    int cut = ftruncate(w->fd, (off_t)w->whole_bytes);
    (void)cut; /* if even that fails, a partial last chunk reads as a death's too */
    errno = e;
    return fail_io(w, "cannot write");
}

static int write_chunk(mpirr_ev_writer *w, size_t zlen, uint64_t raw_end)
{
    uint8_t *h = w->zbuf;
    mpirr_put_u32(h + EC_MAGIC, EV_CHUNK_MAGIC);
    mpirr_put_u32(h + EC_ZLEN, (uint32_t)zlen);
    mpirr_put_u64(h + EC_RAW_END, raw_end);
    mpirr_put_u64(h + EC_ZCHECK, mpirr_fnv64(MPIRR_FNV64_OFFSET, h + EV_CHUNK_BYTES, zlen));
    mpirr_put_u64(h + EC_CHECK, mpirr_fnv64(MPIRR_FNV64_OFFSET, h, EC_CHECK));
    if (mpirr_write_all(w->fd, h, EV_CHUNK_BYTES + zlen)) return write_failed(w);
    w->file_bytes += EV_CHUNK_BYTES + zlen;
    w->chunks++;
    return 0;
}

/* Feeds one block, given as n pieces, through the stream and writes what comes out as
 * chunks; the last chunk ends at a flush (or, with end, the frame's end), so the raw stream
 * up to the block's end decodes from the file alone. A piece with cut[i] set ends a zstd
 * block of its own: the range-coded time column, random bytes to zstd, then neither shares
 * the records' literal statistics nor costs more than a raw block's 3-byte header. The
 * output is gathered into one chunk per block (a chunk header is 32 bytes) unless the chunk
 * buffer fills. */
static int compress_out(mpirr_ev_writer *w, const uint8_t *const *piece, const size_t *len,
                        const int *cut, int n, int end)
{
    uint64_t start = w->raw_total;
    size_t zpos = 0;
    for (int i = 0; i < n; i++) w->raw_total += len[i];
    for (int i = 0; i <= n; i++) {
        int last = i == n;
        ZSTD_inBuffer in = {last ? NULL : piece[i], last ? 0 : len[i], 0};
        ZSTD_EndDirective how = !last ? (cut[i] ? ZSTD_e_flush : ZSTD_e_continue)
                                : end ? ZSTD_e_end : ZSTD_e_flush;
        for (;;) {
            ZSTD_outBuffer out = {w->zbuf + EV_CHUNK_BYTES, w->zcap, zpos};
            size_t left = ZSTD_compressStream2(w->zc, &out, &in, how);
            if (ZSTD_isError(left)) {
                snprintf(w->err, sizeof w->err, "zstd: %s", ZSTD_getErrorName(left));
                w->failed = 1;
                return -1;
            }
            zpos = out.pos;
            int done = how == ZSTD_e_continue ? in.pos == in.size : left == 0;
            /* a full buffer goes out as a chunk that does not complete the block yet */
            if (zpos == w->zcap || (last && done && zpos)) {
                if (write_chunk(w, zpos, last && done ? w->raw_total : start)) return -1;
                zpos = 0;
            }
            if (done) break;
        }
    }
    w->whole_bytes = w->file_bytes;
    return 0;
}

/* Compresses a block: the records (bytes rec[0..nrec)), their sizes and their time codes,
 * range-coded with the call sites of the block's call records (w->sites) as context. The
 * records and sizes share a zstd block (one of their own made the skeletons 1% larger and
 * LAMMPS 0.3% smaller), which the coded time column does not. */
static int write_block(mpirr_ev_writer *w, const uint8_t *rec, size_t nrec, const uint8_t *times,
                       size_t ntimes, const uint8_t *sizes, size_t nsizes)
{
    size_t clen = tc_encode_block(w->model, times, ntimes, w->sites, w->coded);
    w->nsites = 0;
    uint8_t head[4 * MPIRR_VARINT_MAX];
    size_t h = mpirr_varint_put(head, nrec);
    h += mpirr_varint_put(head + h, clen);
    h += mpirr_varint_put(head + h, EV_TIMES_CODED3);
    h += mpirr_varint_put(head + h, nsizes);
    const uint8_t *piece[4] = {head, rec, sizes, w->coded};
    size_t len[4] = {h, nrec, nsizes, clen};
    const int cut[4] = {0, 0, 1, 0};
    return compress_out(w, piece, len, cut, 4, 0);
}

/* Remembers a staged call record's site for the coder. */
static int note_site(mpirr_ev_writer *w, const mpirr_event *e)
{
    if (!mpirr_ev_is_call(e->kind)) return 0;
    if (w->nsites == w->sites_cap) {
        size_t cap = w->sites_cap ? w->sites_cap * 2 : 4096;
        uint32_t *s = realloc(w->sites, cap * sizeof *s);
        if (!s) return fail_io(w, "out of memory");
        w->sites = s;
        w->sites_cap = cap;
    }
    w->sites[w->nsites++] = e->site;
    return 0;
}

int mpirr_evw_flush(mpirr_ev_writer *w)
{
    if (w->failed) return -1;
    uint64_t n = used(w, ET_USED);
    if (!n) return 0;
    if (write_block(w, area(w, AREA_RECORDS), n, area(w, AREA_TIMES), used(w, ET_TUSED),
                    area(w, AREA_SIZES), used(w, ET_SUSED)))
        return -1;
    tail_reset(w);
    return 0;
}

int mpirr_evw_append(mpirr_ev_writer *w, mpirr_event *e)
{
    if (w->failed) return -1;
    if (mpirr_ev_is_call(e->kind)) {
        uint64_t base = w->p.base_ns, sh = w->p.tick_shift;
        e->x_begin = e->x_begin > base ? (e->x_begin - base) >> sh : 0;
        e->x_end = e->x_end > base ? (e->x_end - base) >> sh : 0;
    }
    size_t max = mpirr_ev_encoded_max(e);
    uint64_t n = used(w, ET_USED), nt = used(w, ET_TUSED), ns = used(w, ET_SUSED);
    if (n + max > w->stage_cap || nt + MPIRR_EV_TIMES_MAX > w->stage_cap ||
        ns + MPIRR_EV_SIZES_MAX > w->stage_cap) {
        if (mpirr_evw_flush(w)) return -1;
        n = nt = ns = 0;
    }
    if (max > w->stage_cap) { /* a record larger than the stage is a block of its own */
        uint8_t *tmp = malloc(max), times[MPIRR_EV_TIMES_MAX], sizes[MPIRR_EV_SIZES_MAX];
        size_t nt1, ns1;
        if (!tmp) return fail_io(w, "out of memory");
        size_t len = mpirr_ev_encode(&w->codec, e, w->p.exact, tmp, times, &nt1, sizes, &ns1);
        int rc = note_site(w, e);
        if (!rc) rc = write_block(w, tmp, len, times, nt1, sizes, ns1);
        free(tmp);
        tail_reset(w);
        return rc;
    }
    size_t nt1, ns1;
    if (note_site(w, e)) return -1;
    size_t len = mpirr_ev_encode(&w->codec, e, w->p.exact, area(w, AREA_RECORDS) + n,
                                 area(w, AREA_TIMES) + nt, &nt1, area(w, AREA_SIZES) + ns, &ns1);
    /* the time codes and size first: a record the reader sees has them */
    if (nt1) __atomic_store_n((uint64_t *)(w->tail + ET_TUSED), nt + nt1, __ATOMIC_RELEASE);
    if (ns1) __atomic_store_n((uint64_t *)(w->tail + ET_SUSED), ns + ns1, __ATOMIC_RELEASE);
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
    mpirr_put_u32(h + EH_FLAGS, (p->exact ? EV_FLAG_EXACT : 0) | EV_FLAG_SIZE_CODES |
                                    EV_FLAG_SIZE_COLUMN | EV_FLAG_TIMES_V3 | EV_FLAG_RMA);
    mpirr_put_u32(h + EH_CODEC, EV_CODEC_ZSTD);
    mpirr_put_u64(h + EH_BASE_NS, p->base_ns);
    mpirr_put_u64(h + EH_REALTIME_NS, p->start_realtime_ns);
    memcpy(h + EH_RUN_ID, p->run_id.b, MPIRR_RUN_ID_BYTES);
    mpirr_put_u64(h + EH_CHECK, mpirr_fnv64(MPIRR_FNV64_OFFSET, h, EH_CHECK));
}

/* remove: the open failed, and the files it made go (a history without its tail, or with an
 * empty one, would read as damaged or as a rank that did nothing). */
static void writer_free(mpirr_ev_writer *w, int remove)
{
    if (w->tail) munmap(w->tail, tail_len(w->stage_cap));
    if (w->fd >= 0) close(w->fd);
    if (remove) {
        if (w->tail) unlink(w->tail_path);
        if (w->fd >= 0) unlink(w->path);
    }
    ZSTD_freeCCtx(w->zc);
    free(w->zbuf);
    tc_model_free(w->model);
    free(w->sites);
    free(w->coded);
    free(w);
}

mpirr_ev_writer *mpirr_evw_open(const char *dir, const mpirr_ev_params *p, char *err, size_t errlen)
{
    mpirr_ev_writer *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    char *path = w->path;
    w->fd = -1;
    w->p = *p;
    w->stage_cap = p->stage_bytes ? p->stage_bytes : DEFAULT_STAGE;
    w->codec.size_codes = w->codec.size_column = w->codec.rma_fields = 1;
    /* a block's coded time column must stay within what readers accept, whatever the times */
    if (tc_bound(w->stage_cap) > EV_MAX_BLOCK) w->stage_cap = (EV_MAX_BLOCK - 16) / 11;
    mpirr_ev_path(path, sizeof w->path, dir, p->rank, 0);
    mpirr_ev_path(w->tail_path, sizeof w->tail_path, dir, p->rank, 1);
    w->fd = mpirr_create_file(path, O_WRONLY);
    if (w->fd < 0) {
        snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
        writer_free(w, 0);
        return NULL;
    }
    w->tail = mpirr_map_create(w->tail_path, tail_len(w->stage_cap), err, errlen);
    w->zc = ZSTD_createCCtx();
    /* a whole block in one chunk: its records, sizes and coded time column */
    w->zcap = ZSTD_compressBound(2 * w->stage_cap + tc_bound(w->stage_cap)) + 4096;
    w->zbuf = malloc(EV_CHUNK_BYTES + w->zcap);
    w->model = tc_model_new(TC_V3);
    w->coded = malloc(tc_bound(w->stage_cap));
    if (!w->tail || !w->zc || !w->zbuf || !w->model || !w->coded) {
        if (w->tail) snprintf(err, errlen, "out of memory");
        writer_free(w, 1);
        return NULL;
    }
    int level = p->level ? p->level : 3;
    ZSTD_CCtx_setParameter(w->zc, ZSTD_c_compressionLevel, level);
    /* Levels 3-7 parse greedily (or lazily, one step ahead): a record that differs from its
     * step's last time by a size or a peer then ends a match early and starts the next one
     * late. The lazy2 parse with short matches allowed finds the rest of the record again,
     * for about 10 ns per event more here (LAMMPS: 0.288 -> 0.256 B/event on melt, 0.413 ->
     * 0.365 on rcb; the skeletons 1% smaller; docs/benchmarks.md). The level still picks the
     * tables and window, so memory stays the level's. */
    if (level >= 3 && level <= 7) {
        ZSTD_CCtx_setParameter(w->zc, ZSTD_c_strategy, ZSTD_lazy2);
        ZSTD_CCtx_setParameter(w->zc, ZSTD_c_searchLog, 4);
        ZSTD_CCtx_setParameter(w->zc, ZSTD_c_minMatch, 4);
    }
    ZSTD_CCtx_setParameter(w->zc, ZSTD_c_checksumFlag, 1);
    uint8_t h[EV_HEADER_BYTES];
    encode_header(h, p);
    if (mpirr_write_all(w->fd, h, sizeof h)) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        writer_free(w, 1);
        return NULL;
    }
    w->file_bytes = w->whole_bytes = sizeof h;
    memcpy(w->tail, EV_TAIL_MAGIC, 8);
    mpirr_put_u32(w->tail + ET_VERSION, MPIRR_EVENTS_VERSION);
    mpirr_put_u32(w->tail + ET_CAPACITY, (uint32_t)w->stage_cap);
    mpirr_run_id_put_checked(w->tail + ET_RUN_ID, &p->run_id);
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
        if (!rc) rc = compress_out(w, NULL, NULL, NULL, 0, 1);
        if (!rc) unlink(w->tail_path); /* everything is in the chunks */
    } else {
        rc = mpirr_evw_flush(w);
    }
    writer_free(w, 0);
    return rc;
}

const char *mpirr_evw_error(const mpirr_ev_writer *w) { return w->err; }
