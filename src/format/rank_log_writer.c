/* rank_log_writer.c: appends records to a rank log. Records are staged, encoded, in the mapped
 * tail file (so they outlive the process), and compressed into .log frames when it fills. */
#include "rank_log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zstd.h>

#include "file_io.h"
#include "log_layout.h"
#include "record_codec.h"
#include "varint.h"

#define DEFAULT_STAGE_BYTES (64u << 10)
#define ZSTD_LEVEL 3

struct mpirr_log_writer {
    int log_fd;
    uint8_t *tail;          /* mapped: header page + stage */
    size_t stage_cap;
    uint32_t frames;
    mpirr_codec_state codec; /* state after the last staged record */
    mpirr_codec_state base;  /* state at the start of the stage */
    ZSTD_CCtx *zc;
    uint8_t *zbuf;
    size_t zcap;
    uint64_t log_bytes;
    char tail_path[4096];
    char err[256];
};

const char *mpirr_log_ending_name(int ending)
{
    switch (ending) {
    case MPIRR_END_FINALIZED: return "finalized";
    case MPIRR_END_SIGNAL: return "signal";
    case MPIRR_END_ABORT: return "MPI_Abort";
    case MPIRR_END_EXIT: return "exit without MPI_Finalize";
    default: return "cut off";
    }
}

const char *mpirr_counter_name(unsigned which)
{
    static const char *const names[MPIRR_CTR_LIMIT] = {
        "messages_sent", "messages_received", "wildcard_receives", "racing_receives",
        "fallback_logged", "piggyback_bytes", "piggyback_messages", "pending_peak",
        "clock_merges"};
    return which < MPIRR_CTR_LIMIT ? names[which] : "?";
}

void mpirr_log_path(char *buf, size_t n, const char *dir, int rank, const char *suffix)
{
    snprintf(buf, n, "%s/rank-%05d.%s", dir, rank, suffix);
}

static void copy_field(uint8_t *dst, const char *src, size_t n)
{
    size_t len = strnlen(src, n - 1);
    memcpy(dst, src, len);
}

void mpirr_header_encode(uint8_t out[FILE_HEADER_BYTES], const mpirr_log_header *h)
{
    memset(out, 0, FILE_HEADER_BYTES);
    memcpy(out, LOG_MAGIC, 8);
    mpirr_put_u32(out + FH_VERSION, MPIRR_LOG_VERSION);
    mpirr_put_u32(out + FH_FLAGS, h->flags);
    mpirr_put_u32(out + FH_RANK, (uint32_t)h->rank);
    mpirr_put_u32(out + FH_NRANKS, (uint32_t)h->nranks);
    mpirr_put_u32(out + FH_PID, (uint32_t)h->pid);
    mpirr_put_u64(out + FH_FINGERPRINT, h->exe_fingerprint);
    mpirr_put_u64(out + FH_START, h->start_time_ns);
    copy_field(out + FH_EXE, h->exe_path, sizeof h->exe_path);
    copy_field(out + FH_HOST, h->host, sizeof h->host);
    copy_field(out + FH_MPI, h->mpi_library, sizeof h->mpi_library);
    mpirr_put_u64(out + FH_CHECK, mpirr_fnv64(MPIRR_FNV64_OFFSET, out, FH_CHECK));
}


static void fail(mpirr_log_writer *w, const char *what)
{
    snprintf(w->err, sizeof w->err, "%s: %s", what, strerror(errno));
}

static void tail_reset(mpirr_log_writer *w)
{
    uint8_t *t = w->tail;
    mpirr_put_u64(t + TL_BASE_WRITTEN, w->codec.prev_written);
    mpirr_put_u64(t + TL_BASE_WTIME, w->codec.prev_wtime);
    mpirr_put_u32(t + TL_NREC, 0);
    __atomic_store_n((uint32_t *)(t + TL_USED), 0, __ATOMIC_RELEASE);
    /* Frames last: a reader seeing the new count must see an empty stage. */
    mpirr_put_u32(t + TL_FRAMES, w->frames);
    w->base = w->codec;
}

mpirr_log_writer *mpirr_log_writer_open(const char *dir, const mpirr_log_header *h,
                                        size_t stage_bytes, char *err, size_t errlen)
{
    mpirr_log_writer *w = calloc(1, sizeof *w);
    char path[4096];
    if (!w) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    w->log_fd = -1;
    w->stage_cap = stage_bytes ? stage_bytes : DEFAULT_STAGE_BYTES;
    mpirr_log_path(path, sizeof path, dir, h->rank, "log");
    mpirr_log_path(w->tail_path, sizeof w->tail_path, dir, h->rank, "tail");
    w->log_fd = mpirr_create_file(path, O_WRONLY);
    if (w->log_fd < 0) {
        snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
        goto fail;
    }
    w->tail = mpirr_map_create(w->tail_path, TAIL_HEADER_BYTES + w->stage_cap, err, errlen);
    if (!w->tail)
        goto fail;
    w->zc = ZSTD_createCCtx();
    w->zcap = ZSTD_compressBound(w->stage_cap);
    w->zbuf = malloc(FRAME_HEADER_BYTES + w->zcap);
    if (!w->zc || !w->zbuf) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    ZSTD_CCtx_setParameter(w->zc, ZSTD_c_compressionLevel, ZSTD_LEVEL);
    ZSTD_CCtx_setParameter(w->zc, ZSTD_c_checksumFlag, 1);
    uint8_t hdr[FILE_HEADER_BYTES];
    mpirr_header_encode(hdr, h);
    if (mpirr_write_all(w->log_fd, hdr, sizeof hdr)) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        goto fail;
    }
    w->log_bytes = sizeof hdr;
    memcpy(w->tail, TAIL_MAGIC, 8);
    mpirr_put_u32(w->tail + TL_VERSION, MPIRR_LOG_VERSION);
    mpirr_put_u32(w->tail + TL_CAPACITY, (uint32_t)w->stage_cap);
    mpirr_put_u32(w->tail + TL_ENDING, MPIRR_END_CUT);
    tail_reset(w);
    return w;
fail:
    if (w->tail) munmap(w->tail, TAIL_HEADER_BYTES + w->stage_cap);
    if (w->log_fd >= 0) close(w->log_fd);
    ZSTD_freeCCtx(w->zc);
    free(w->zbuf);
    free(w);
    return NULL;
}

/* Compresses data (encoded with codec base b) into one frame appended to the .log. */
static int write_frame(mpirr_log_writer *w, const uint8_t *data, size_t len, uint32_t nrec,
                       const mpirr_codec_state *b)
{
    size_t need = ZSTD_compressBound(len);
    if (need > w->zcap) {
        uint8_t *grown = realloc(w->zbuf, FRAME_HEADER_BYTES + need);
        if (!grown) {
            snprintf(w->err, sizeof w->err, "out of memory");
            return -1;
        }
        w->zbuf = grown;
        w->zcap = need;
    }
    size_t z = ZSTD_compress2(w->zc, w->zbuf + FRAME_HEADER_BYTES, w->zcap, data, len);
    if (ZSTD_isError(z)) {
        snprintf(w->err, sizeof w->err, "zstd: %s", ZSTD_getErrorName(z));
        return -1;
    }
    uint8_t *fh = w->zbuf;
    mpirr_put_u32(fh + FR_MAGIC, FRAME_MAGIC);
    mpirr_put_u32(fh + FR_ZLEN, (uint32_t)z);
    mpirr_put_u32(fh + FR_RAWLEN, (uint32_t)len);
    mpirr_put_u32(fh + FR_NREC, nrec);
    mpirr_put_u64(fh + FR_BASE_WRITTEN, b->prev_written);
    mpirr_put_u64(fh + FR_BASE_WTIME, b->prev_wtime);
    mpirr_put_u64(fh + FR_ZCHECK, mpirr_fnv64(MPIRR_FNV64_OFFSET, fh + FRAME_HEADER_BYTES, z));
    mpirr_put_u64(fh + FR_CHECK, mpirr_fnv64(MPIRR_FNV64_OFFSET, fh, FR_CHECK));
    if (mpirr_write_all(w->log_fd, w->zbuf, FRAME_HEADER_BYTES + z)) {
        fail(w, "cannot write rank log");
        return -1;
    }
    w->log_bytes += FRAME_HEADER_BYTES + z;
    w->frames++;
    return 0;
}

int mpirr_log_flush(mpirr_log_writer *w)
{
    uint32_t used = mpirr_get_u32(w->tail + TL_USED);
    if (!used) return 0;
    if (write_frame(w, w->tail + TAIL_HEADER_BYTES, used, mpirr_get_u32(w->tail + TL_NREC),
                    &w->base))
        return -1;
    tail_reset(w);
    return 0;
}

int mpirr_log_append(mpirr_log_writer *w, const mpirr_record *r)
{
    uint8_t small[256];
    size_t max = mpirr_record_encoded_max(r);
    uint8_t *buf = max <= sizeof small ? small : malloc(max);
    if (!buf) {
        snprintf(w->err, sizeof w->err, "out of memory");
        return -1;
    }
    mpirr_codec_state before = w->codec;
    size_t len = mpirr_record_encode(buf, r, &w->codec);
    uint32_t used = mpirr_get_u32(w->tail + TL_USED);
    int rc = 0;
    if (used + len > w->stage_cap) {
        /* Re-encode against the state the next frame starts from. */
        w->codec = before;
        if (mpirr_log_flush(w)) {
            rc = -1;
            goto out;
        }
        len = mpirr_record_encode(buf, r, &w->codec);
        used = 0;
        if (len > w->stage_cap) { /* a huge index list: a frame of its own */
            rc = write_frame(w, buf, len, 1, &w->base);
            if (!rc) tail_reset(w);
            goto out;
        }
    }
    memcpy(w->tail + TAIL_HEADER_BYTES + used, buf, len);
    mpirr_put_u32(w->tail + TL_NREC, mpirr_get_u32(w->tail + TL_NREC) + 1);
    /* Publishing the new length last makes a record visible only once complete. */
    __atomic_store_n((uint32_t *)(w->tail + TL_USED), (uint32_t)(used + len), __ATOMIC_RELEASE);
out:
    if (buf != small) free(buf);
    return rc;
}

void mpirr_log_set_ending(mpirr_log_writer *w, int ending, int detail)
{
    if (!w || !w->tail) return;
    mpirr_put_u32(w->tail + TL_DETAIL, (uint32_t)detail);
    mpirr_put_u32(w->tail + TL_ENDING, (uint32_t)ending);
}

void mpirr_log_set_events(mpirr_log_writer *w, uint64_t events)
{
    if (!w || !w->tail) return;
    mpirr_put_u64(w->tail + TL_EVENTS, events);
}

uint64_t *mpirr_log_counters(mpirr_log_writer *w)
{
    _Static_assert(TL_COUNTERS + 8 * MPIRR_CTR_LIMIT <= TAIL_HEADER_BYTES, "counters fit");
    return (uint64_t *)(void *)(w->tail + TL_COUNTERS);
}

int mpirr_log_close(mpirr_log_writer *w)
{
    int rc = mpirr_log_flush(w);
    if (close(w->log_fd) && !rc) {
        fail(w, "cannot close rank log");
        rc = -1;
    }
    munmap(w->tail, TAIL_HEADER_BYTES + w->stage_cap);
    /* The stage is empty now; keep only the header page, which holds the ending. */
    if (truncate(w->tail_path, TAIL_HEADER_BYTES) && !rc) rc = -1;
    ZSTD_freeCCtx(w->zc);
    free(w->zbuf);
    free(w);
    return rc;
}

const char *mpirr_log_writer_error(const mpirr_log_writer *w) { return w->err; }

uint64_t mpirr_log_writer_bytes(const mpirr_log_writer *w)
{
    return w->log_bytes + mpirr_get_u32(w->tail + TL_USED);
}
