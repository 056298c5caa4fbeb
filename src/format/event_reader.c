/* event_reader.c: reads a rank's event history: the checked chunks of rank-N.events through
 * one zstd stream, block by block (records, their sizes, their time codes), then the block the
 * mapped tail still stages beyond them. Works on a trace
 * that is still growing or was cut off (it ends at the last complete record) and stops at
 * damage with one line naming the file, the rank and the last good event; every record
 * before the damage has been returned by then. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zstd.h>

#include "event_layout.h"
#include "file_io.h"
#include "event_trace.h"
#include "time_coder.h"
#include "varint.h"

struct mpirr_ev_reader {
    FILE *f;
    char path[4200], tail_path[4200];
    mpirr_ev_info info;
    ZSTD_DStream *zd;
    uint8_t *zin;
    size_t zin_cap;
    ZSTD_inBuffer in;
    uint64_t chunk_raw_end;  /* largest raw_end of the chunks read */
    uint64_t file_read;      /* bytes of the file read: what bounds the expansion */
    uint8_t *buf;            /* decompressed bytes not consumed yet: [lo, hi) */
    size_t cap, lo, hi;
    uint64_t raw_decoded;    /* stream bytes produced so far (chunks and tail) */
    uint64_t raw_plain;      /* the same with time columns uncoded: the raw size of the records */
    uint8_t *plain_times;    /* the current coded block's time column, uncoded */
    size_t nplain, plain_cap;
    uint64_t raw_blocks;     /* raw stream bytes of the whole blocks consumed */
    /* the block being read: its records [bp, bend), time column [tp, tend) and size column
     * [sp, send) (empty without EV_FLAG_SIZE_COLUMN) */
    const uint8_t *bp, *bend, *tp, *tend, *sp, *send;
    int coded;               /* the time column is range-coded (dec), else raw bytes at tp */
    int times_v3;            /* header flag 8: blocks may be coded with TC_V3 */
    const uint8_t *block_start, *times_start, *sizes_start;
    size_t pending;          /* raw: time bytes of the record being decoded */
    tc_model *model;
    tc_decoder dec;
    size_t block_next;       /* buf offset after the block (chunk blocks) */
    int in_block, in_tail;
    uint8_t *tailbuf;
    int chunks_done, tail_done, tail_seen, clean, failed;
    mpirr_ev_codec codec;
    mpirr_ev_scratch scratch;
    void (*sink)(const void *, size_t, void *);
    void *sink_arg;
    char err[640];
};

static int damaged(mpirr_ev_reader *r, const char *fmt, const char *what)
{
    char detail[256];
    snprintf(detail, sizeof detail, fmt, what);
    snprintf(r->err, sizeof r->err, "%s: rank %d: %s after event %llu (the events before it are readable)",
             r->path, r->info.rank, detail, (unsigned long long)r->codec.event);
    r->failed = 1;
    return -1;
}

static int have_room(mpirr_ev_reader *r, size_t n)
{
    if (r->lo) { /* compact */
        memmove(r->buf, r->buf + r->lo, r->hi - r->lo);
        r->hi -= r->lo;
        r->lo = 0;
    }
    if (r->cap - r->hi >= n) return 0;
    size_t c = r->cap ? r->cap : 1 << 16;
    while (c - r->hi < n) c *= 2;
    uint8_t *b = realloc(r->buf, c);
    if (!b) return -1;
    r->buf = b;
    r->cap = c;
    return 0;
}

static void produced(mpirr_ev_reader *r, size_t n)
{
    r->hi += n;
    r->raw_decoded += n;
}

/* Reads the next chunk into the zstd input. 1: got one; 0: no more (end of file, or a chunk
 * still being written / cut off); -1: damaged. */
static int next_chunk(mpirr_ev_reader *r)
{
    uint8_t h[EV_CHUNK_BYTES];
    long at = ftell(r->f);
    size_t got = fread(h, 1, sizeof h, r->f);
    if (got < sizeof h) return 0;
    if (mpirr_get_u32(h + EC_MAGIC) != EV_CHUNK_MAGIC ||
        mpirr_get_u64(h + EC_CHECK) != mpirr_fnv64(MPIRR_FNV64_OFFSET, h, EC_CHECK)) {
        char where[64];
        snprintf(where, sizeof where, "%ld", at);
        return damaged(r, "corrupt chunk header at byte %s", where);
    }
    uint32_t zlen = mpirr_get_u32(h + EC_ZLEN);
    if (zlen > EV_MAX_CHUNK) return damaged(r, "%s", "chunk of impossible size");
    /* no memory for bytes the file does not hold (yet: a chunk being written is a cut-off) */
    uint64_t size;
    if (mpirr_stream_size(r->f, &size) || size < (uint64_t)at + sizeof h + zlen) return 0;
    if (zlen > r->zin_cap) {
        uint8_t *z = realloc(r->zin, zlen);
        if (!z) return damaged(r, "%s", "out of memory");
        r->zin = z;
        r->zin_cap = zlen;
    }
    if (fread(r->zin, 1, zlen, r->f) < zlen) return 0; /* still being written, or cut off */
    if (mpirr_get_u64(h + EC_ZCHECK) != mpirr_fnv64(MPIRR_FNV64_OFFSET, r->zin, zlen)) {
        char where[64];
        snprintf(where, sizeof where, "%ld", at);
        return damaged(r, "corrupt chunk at byte %s (checksum mismatch)", where);
    }
    uint64_t raw_end = mpirr_get_u64(h + EC_RAW_END);
    if (raw_end > r->chunk_raw_end) r->chunk_raw_end = raw_end;
    r->info.chunks++;
    r->info.compressed_bytes += zlen;
    r->file_read += sizeof h + zlen;
    r->in = (ZSTD_inBuffer){r->zin, zlen, 0};
    return 1;
}

/* A whole block as the writer staged it (time column uncoded): counted in raw_plain, and
 * passed to the sink (mpirr events --raw). */
static void emit_plain(mpirr_ev_reader *r, const uint8_t *rec, size_t nrec, const uint8_t *times,
                       size_t ntimes)
{
    uint8_t head[4 * MPIRR_VARINT_MAX];
    size_t nsizes = (size_t)(r->send - r->sizes_start);
    size_t n = mpirr_varint_put(head, nrec);
    n += mpirr_varint_put(head + n, ntimes);
    n += mpirr_varint_put(head + n, EV_TIMES_RAW);
    if (r->codec.size_column) n += mpirr_varint_put(head + n, nsizes);
    r->raw_plain += n + nrec + nsizes + ntimes;
    if (!r->sink) return;
    r->sink(head, n, r->sink_arg);
    r->sink(rec, nrec, r->sink_arg);
    r->sink(r->sizes_start, nsizes, r->sink_arg);
    r->sink(times, ntimes, r->sink_arg);
}

/* The time codes of the record being decoded (mpirr_ev_times_fn), from a raw column: taken
 * for good only once the record is whole (r->pending). */
static int raw_times(void *arg, uint32_t site, unsigned *cb, unsigned *ce)
{
    mpirr_ev_reader *r = arg;
    (void)site;
    const uint8_t *t = r->tp;
    if (t >= r->tend || (t[0] == 0xff && r->tend - t < 3)) return 0;
    *cb = t[0] == 0xff ? t[1] : (t[0] & 15u);
    *ce = t[0] == 0xff ? t[2] : (unsigned)(t[0] >> 4);
    r->pending = t[0] == 0xff ? 3 : 1;
    return 1;
}

/* ... and from a range-coded one (blocks are whole, so nothing is ever taken back). */
static int coded_times(void *arg, uint32_t site, unsigned *cb, unsigned *ce)
{
    mpirr_ev_reader *r = arg;
    tc_decode_times(&r->dec, site, cb, ce);
    if (r->dec.overrun) return -1;
    if (r->nplain + 3 > r->plain_cap) { /* kept to count and show the block uncoded */
        size_t cap = r->plain_cap ? r->plain_cap * 2 : 4096;
        uint8_t *p = realloc(r->plain_times, cap);
        if (!p) return -1;
        r->plain_times = p;
        r->plain_cap = cap;
    }
    if (*cb < 15 && *ce < 15) {
        r->plain_times[r->nplain++] = (uint8_t)(*cb | *ce << 4);
    } else {
        r->plain_times[r->nplain++] = 0xff;
        r->plain_times[r->nplain++] = (uint8_t)*cb;
        r->plain_times[r->nplain++] = (uint8_t)*ce;
    }
    return 1;
}

/* The block the tail stages, if the chunks do not hold it: 1 (now the current block), 0 (no
 * tail, or nothing beyond the chunks), -1 damaged. */
static int load_tail(mpirr_ev_reader *r)
{
    r->tail_done = 1;
    char why[600];
    FILE *t = mpirr_fopen_regular(r->tail_path, why, sizeof why);
    if (!t && errno == ENOENT) return 0; /* finished cleanly, or never got one */
    if (!t) return damaged(r, "%s", why);
    r->tail_seen = 1;
    uint8_t h[ET_HEADER_READ];
    int rc = 0;
    mpirr_run_id id;
    if (fread(h, 1, sizeof h, t) < sizeof h || memcmp(h, EV_TAIL_MAGIC, 8)) {
        rc = damaged(r, "%s", "the tail file is not an mpirr event tail");
        goto out;
    }
    if ((int)mpirr_get_u32(h + ET_VERSION) != r->info.version ||
        (r->info.version > 1 && mpirr_run_id_get_checked(h + ET_RUN_ID, &id))) {
        rc = damaged(r, "%s", "the tail's header is damaged or of another version");
        goto out;
    }
    uint64_t start = mpirr_get_u64(h + ET_RAW_START), used = mpirr_get_u64(h + ET_USED);
    uint64_t tused = mpirr_get_u64(h + ET_TUSED);
    /* the size area follows the time area (EV_FLAG_SIZE_COLUMN) */
    uint64_t sused = r->codec.size_column ? mpirr_get_u64(h + ET_SUSED) : 0;
    uint32_t capacity = mpirr_get_u32(h + ET_CAPACITY);
    uint64_t size;
    if (used > capacity || tused > capacity || sused > capacity || mpirr_stream_size(t, &size) ||
        size < EV_TAIL_HEADER_BYTES + (uint64_t)capacity + tused ||
        (sused && size < EV_TAIL_HEADER_BYTES + 2 * (uint64_t)capacity + sused)) {
        rc = damaged(r, "%s", "the tail claims more bytes than it holds");
        goto out;
    }
    if (!used || start < r->raw_blocks) goto out; /* empty, or the chunks hold its block */
    if (start > r->raw_blocks) {
        rc = damaged(r, "%s", "the tail does not continue the compressed trace (a chunk is missing)");
        goto out;
    }
    r->tailbuf = malloc(used + tused + sused + 1);
    if (!r->tailbuf || fseek(t, EV_TAIL_HEADER_BYTES, SEEK_SET) ||
        fread(r->tailbuf, 1, used, t) < used ||
        fseek(t, (long)(EV_TAIL_HEADER_BYTES + capacity), SEEK_SET) ||
        fread(r->tailbuf + used, 1, tused, t) < tused ||
        fseek(t, (long)(EV_TAIL_HEADER_BYTES + 2 * (uint64_t)capacity), SEEK_SET) ||
        fread(r->tailbuf + used + tused, 1, sused, t) < sused) {
        rc = damaged(r, "%s", "the tail file is shorter than it claims");
        goto out;
    }
    r->bp = r->tailbuf;
    r->bend = r->tailbuf + used;
    r->tp = r->bend;
    r->tend = r->tp + tused;
    r->sp = r->sizes_start = r->tend;
    r->send = r->sp + sused;
    emit_plain(r, r->tailbuf, used, r->tailbuf + used, tused);
    r->info.tail_bytes = used + tused + sused;
    r->raw_decoded += used + tused + sused;
    r->coded = 0;
    r->in_block = r->in_tail = 1;
    rc = 1;
out:
    fclose(t);
    return rc;
}

/* Decompresses more of the chunks. 1: some bytes; 0: the chunks are exhausted; -1: damaged. */
static int refill(mpirr_ev_reader *r)
{
    while (!r->chunks_done) {
        if (r->in.size) {
            if (have_room(r, 1 << 16)) return damaged(r, "%s", "out of memory");
            ZSTD_outBuffer out = {r->buf + r->hi, r->cap - r->hi, 0};
            size_t z = ZSTD_decompressStream(r->zd, &out, &r->in);
            if (ZSTD_isError(z)) return damaged(r, "corrupt compressed data (%s)", ZSTD_getErrorName(z));
            produced(r, out.pos);
            if (r->raw_decoded > (uint64_t)EV_MAX_EXPANSION * r->file_read + EV_EXPANSION_SLACK) {
                char what[128];
                snprintf(what, sizeof what, "%llu bytes of file expand past %llu bytes",
                         (unsigned long long)r->file_read, (unsigned long long)r->raw_decoded);
                return damaged(r, "impossible compression (%s: crafted or corrupt)", what);
            }
            if (out.pos) return 1;
            if (r->in.pos < r->in.size) continue;
        }
        r->in.size = r->in.pos = 0;
        int c = next_chunk(r);
        if (c < 0) return -1;
        if (c == 0) r->chunks_done = 1;
    }
    return 0;
}

/* Starts the next block of the decompressed stream: 1 started, 0 not all there yet, -1
 * damaged. */
static int start_block(mpirr_ev_reader *r)
{
    if (r->lo == r->hi) return 0; /* nothing decompressed yet (buf may still be NULL) */
    const uint8_t *p = r->buf + r->lo, *end = r->buf + r->hi;
    uint64_t nrec, ntimes, how, nsizes = 0;
    size_t header_max = (r->codec.size_column ? 4u : 3u) * MPIRR_VARINT_MAX;
    if (mpirr_varint_get(&p, end, &nrec) || mpirr_varint_get(&p, end, &ntimes) ||
        mpirr_varint_get(&p, end, &how) ||
        (r->codec.size_column && mpirr_varint_get(&p, end, &nsizes)))
        return (size_t)(end - (r->buf + r->lo)) < header_max
                   ? 0 : damaged(r, "%s", "malformed block header");
    if (nrec > EV_MAX_BLOCK || ntimes > EV_MAX_BLOCK || nsizes > EV_MAX_BLOCK ||
        how > (r->times_v3 ? EV_TIMES_CODED3 : EV_TIMES_CODED2))
        return damaged(r, "%s", "block of impossible size or kind");
    if (how != EV_TIMES_RAW) {
        /* the model lives as long as the stream: every coded block of it uses the same one */
        int version = how == EV_TIMES_CODED ? TC_V1 : how == EV_TIMES_CODED2 ? TC_V2 : TC_V3;
        if (!r->model && !(r->model = tc_model_new(version))) return damaged(r, "%s", "out of memory");
        if (tc_model_version(r->model) != version)
            return damaged(r, "%s", "time columns coded with two models");
    }
    if ((uint64_t)(end - p) < nrec + nsizes + ntimes) return 0;
    r->bp = p;
    r->bend = p + nrec;
    r->sp = r->sizes_start = r->bend;
    r->send = r->sp + nsizes;
    r->tp = r->send;
    r->tend = r->tp + ntimes;
    r->times_start = r->tp;
    r->block_next = (size_t)(r->tend - r->buf);
    r->coded = how != EV_TIMES_RAW;
    r->block_start = r->bp;
    r->nplain = 0;
    if (r->coded) tc_decoder_start(&r->dec, r->model, r->tp, r->tend);
    r->in_block = 1;
    return 1;
}

/* The current block is read to its end. */
static int end_block(mpirr_ev_reader *r)
{
    r->in_block = 0;
    if (r->in_tail) return 0;
    if (!r->coded && r->tp != r->tend)
        return damaged(r, "%s", "a block's time codes do not match its records");
    if (r->sp != r->send) return damaged(r, "%s", "a block's sizes do not match its records");
    if (r->coded) emit_plain(r, r->block_start, (size_t)(r->bend - r->block_start), r->plain_times, r->nplain);
    else emit_plain(r, r->block_start, (size_t)(r->bend - r->block_start), r->times_start,
                    (size_t)(r->tend - r->times_start));
    r->raw_blocks += r->block_next - r->lo;
    r->lo = r->block_next;
    return 0;
}

int mpirr_evr_next(mpirr_ev_reader *r, mpirr_event *e)
{
    if (r->failed) return -1;
    for (;;) {
        if (r->in_block) {
            if (r->bp == r->bend) {
                if (end_block(r)) return -1;
                continue;
            }
            const char *why = NULL;
            r->pending = 0;
            long n = mpirr_ev_decode(&r->codec, r->bp, r->bend, r->coded ? coded_times : raw_times,
                                     r, &r->sp, r->send, e, &r->scratch, &why);
            if (n < 0) return damaged(r, "malformed record (%s)", why);
            if (n == 0) {
                /* the tail's last record may be cut short by a death; a block's may not */
                if (!r->in_tail) return damaged(r, "%s", "a record runs past the end of its block");
                r->bp = r->bend;
                r->tp = r->tend;
                r->sp = r->send;
                continue;
            }
            r->bp += n;
            r->tp += r->pending;
            if (e->kind == MPIRR_EVK_END) {
                r->clean = 1;
                continue;
            }
            if (r->clean) return damaged(r, "%s", "records after the end record");
            return 1;
        }
        if (!r->chunks_done) {
            int b = start_block(r);
            if (b < 0) return -1;
            if (b) continue;
            int more = refill(r);
            if (more < 0) return -1;
            if (more || !r->chunks_done) continue;
        }
        if (!r->tail_done) {
            int t = load_tail(r);
            if (t < 0) return -1;
            if (t) continue;
        }
        /* A writer that is running or died keeps its tail; one that finished removed it after
         * the end record. No end and no tail: the file was cut short after the run. */
        if (!r->clean && !r->tail_seen)
            return damaged(r, "%s", "truncated (no end record, and no tail of a running or dead rank)");
        return 0; /* cut off: the rank died or is still running */
    }
}

int mpirr_evr_clean(const mpirr_ev_reader *r) { return r->clean; }
const char *mpirr_evr_error(const mpirr_ev_reader *r) { return r->err; }

const mpirr_ev_info *mpirr_evr_info(const mpirr_ev_reader *r)
{
    ((mpirr_ev_reader *)r)->info.raw_bytes = r->raw_plain;
    return &r->info;
}

void mpirr_evr_raw_sink(mpirr_ev_reader *r, void (*sink)(const void *, size_t, void *), void *arg)
{
    r->sink = sink;
    r->sink_arg = arg;
}

/* The tail's run id against the history's (or the expected one): -1 when it belongs to another
 * recording (err). A tail that is not whole or damaged is left to load_tail to report. */
static int tail_run_id(mpirr_ev_reader *r, char *err, size_t errlen)
{
    char why[600];
    uint8_t h[ET_HEADER_READ];
    FILE *t = mpirr_fopen_regular(r->tail_path, why, sizeof why);
    if (!t) return 0;
    mpirr_run_id id = {{0}};
    int whole = fread(h, 1, sizeof h, t) == sizeof h && !memcmp(h, EV_TAIL_MAGIC, 8);
    fclose(t);
    if (!whole || (int)mpirr_get_u32(h + ET_VERSION) != r->info.version) return 0;
    if (r->info.version > 1 && mpirr_run_id_get_checked(h + ET_RUN_ID, &id)) return 0;
    return mpirr_run_id_check(r->tail_path, &id, &r->info.run_id, err, errlen);
}

static int open_fail(mpirr_ev_reader *r, char *err, size_t errlen, const char *why)
{
    snprintf(err, errlen, "%s: %s", r->path, why);
    mpirr_evr_close(r);
    return 0;
}

mpirr_ev_reader *mpirr_evr_open(const char *dir, int rank, char *err, size_t errlen)
{
    mpirr_ev_reader *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    mpirr_ev_path(r->path, sizeof r->path, dir, rank, 0);
    mpirr_ev_path(r->tail_path, sizeof r->tail_path, dir, rank, 1);
    r->info.rank = rank;
    r->f = mpirr_fopen_regular(r->path, err, errlen);
    if (!r->f) {
        if (errno == ENOENT)
            snprintf(err, errlen, "%s: %s (was the run recorded with --events?)", r->path,
                     strerror(ENOENT));
        mpirr_evr_close(r);
        return NULL;
    }
    uint8_t h[EV_HEADER_BYTES];
    size_t hlen = EV_HEADER_BYTES_V1, check = EH_CHECK_V1;
    const char *truncated = "truncated header: not a complete event history";
    if (fread(h, 1, hlen, r->f) < hlen) return open_fail(r, err, errlen, truncated), NULL;
    if (memcmp(h, EV_MAGIC, 8)) return open_fail(r, err, errlen, "not an mpirr event history"), NULL;
    r->info.version = (int)mpirr_get_u32(h + EH_VERSION);
    if (r->info.version == MPIRR_EVENTS_VERSION) { /* the run id, then the check */
        hlen = EV_HEADER_BYTES;
        check = EH_CHECK;
        if (fread(h + EV_HEADER_BYTES_V1, 1, hlen - EV_HEADER_BYTES_V1, r->f) < hlen - EV_HEADER_BYTES_V1)
            return open_fail(r, err, errlen, truncated), NULL;
    }
    r->file_read = hlen;
    if (mpirr_get_u64(h + check) != mpirr_fnv64(MPIRR_FNV64_OFFSET, h, check))
        return open_fail(r, err, errlen, "corrupt header (checksum mismatch)"), NULL;
    if (r->info.version != MPIRR_EVENTS_VERSION && r->info.version != 1) {
        char why[128];
        snprintf(why, sizeof why, "event history version %d, this mpirr reads versions 1 and %d",
                 r->info.version, MPIRR_EVENTS_VERSION);
        return open_fail(r, err, errlen, why), NULL;
    }
    if (r->info.version > 1) memcpy(r->info.run_id.b, h + EH_RUN_ID, MPIRR_RUN_ID_BYTES);
    if (mpirr_run_id_check(r->path, &r->info.run_id, NULL, err, errlen) || tail_run_id(r, err, errlen)) {
        mpirr_evr_close(r);
        return NULL;
    }
    if (mpirr_get_u32(h + EH_CODEC) != EV_CODEC_ZSTD)
        return open_fail(r, err, errlen, "unknown compression codec"), NULL;
    if ((int)mpirr_get_u32(h + EH_RANK) != rank) {
        char why[128];
        snprintf(why, sizeof why, "holds rank %u, expected rank %d", mpirr_get_u32(h + EH_RANK), rank);
        return open_fail(r, err, errlen, why), NULL;
    }
    r->info.nranks = (int)mpirr_get_u32(h + EH_NRANKS);
    r->info.tick_shift = mpirr_get_u32(h + EH_TICK_SHIFT);
    uint32_t flags = mpirr_get_u32(h + EH_FLAGS);
    /* a flag this reader does not know changes the layout in a way it cannot follow */
    if (flags & ~EV_FLAGS_KNOWN)
        return open_fail(r, err, errlen, "written by a newer mpirr (unknown header flags)"), NULL;
    r->info.exact = (flags & EV_FLAG_EXACT) != 0;
    r->codec.size_codes = (flags & EV_FLAG_SIZE_CODES) != 0;
    r->codec.size_column = (flags & EV_FLAG_SIZE_COLUMN) != 0;
    r->codec.rma_fields = (flags & EV_FLAG_RMA) != 0;
    r->times_v3 = (flags & EV_FLAG_TIMES_V3) != 0;
    r->info.start_realtime_ns = mpirr_get_u64(h + EH_REALTIME_NS);
    if (r->info.tick_shift > 40) return open_fail(r, err, errlen, "impossible tick size"), NULL;
    r->zd = ZSTD_createDStream();
    if (!r->zd) return open_fail(r, err, errlen, "out of memory"), NULL;
    ZSTD_initDStream(r->zd);
    return r;
}

void mpirr_evr_close(mpirr_ev_reader *r)
{
    if (!r) return;
    if (r->f) fclose(r->f);
    ZSTD_freeDStream(r->zd);
    free(r->zin);
    free(r->buf);
    free(r->tailbuf);
    free(r->plain_times);
    tc_model_free(r->model);
    mpirr_ev_scratch_free(&r->scratch);
    free(r);
}
