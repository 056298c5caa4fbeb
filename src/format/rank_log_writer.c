/* rank_log_writer.c: appends records to a rank log. Records are staged, encoded, in the mapped
 * tail file (so they outlive the process), and compressed into .log frames when it fills. */
#include "rank_log.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <zstd.h>

#include "call_count_slots.h"
#include "file_io.h"
#include "guard_word.h"
#include "libc_sources.h"
#include "call_ids.h"
#include "log_layout.h"
#include "record_codec.h"
#include "varint.h"

#define DEFAULT_STAGE_BYTES (64u << 10)
/* The stage of a rank whose default one does not fit on the disk any more: one page (tail
 * header page included, two). Records then go to the .log in smaller frames, and the rank is
 * recorded as far as the space goes instead of not at all. */
#define SMALL_STAGE_BYTES (4096u - STAGE_HEADER_BYTES)
/* Below this much free space the small stage is taken at once: a big allocation that fails
 * holds pages while it tries, which can make a neighbour rank's small one fail too. */
#define SMALL_STAGE_BELOW (16ull * (TAIL_HEADER_BYTES + STAGE_HEADER_BYTES + DEFAULT_STAGE_BYTES))
#define ZSTD_LEVEL 3

struct mpirr_log_writer {
    int log_fd;
    uint8_t *tail;          /* mapped: header page + stage */
    size_t stage_cap;       /* stage bytes, its header included */
    uint32_t used;          /* staged bytes, as last published */
    uint32_t check;         /* FNV-1a 32 of those bytes, as last published */
    uint32_t nrec;          /* records staged */
    uint32_t frames;
    mpirr_codec_state codec; /* state after the last staged record */
    mpirr_codec_state base;  /* state at the start of the stage */
    ZSTD_CCtx *zc;
    uint8_t *zbuf;
    size_t zcap;
    uint8_t *split;          /* a frame's records and bit column, before compression */
    size_t split_cap;
    uint32_t *lows;          /* the staged records' inline MPI_Wtime bits: end << 6 | count */
    uint32_t nlows, lows_cap;
    uint64_t log_bytes;
    int failed;              /* a .log write failed: the stage keeps its records for good */
    char tail_path[4096], log_path[4096];
    char new_path[4104];     /* the log's name until its header is whole */
    char err[4400];
};

const char *mpirr_log_ending_name(int ending)
{
    switch (ending) {
    case MPIRR_END_FINALIZED: return "finalized";
    case MPIRR_END_SIGNAL: return "signal";
    case MPIRR_END_ABORT: return "MPI_Abort";
    case MPIRR_END_EXIT: return "exit without MPI_Finalize";
    case MPIRR_END_INCOMPLETE: return "recording stopped early";
    default: return "cut off";
    }
}

int mpirr_ending_is_external(int ending, int detail)
{
    if (ending == MPIRR_END_CUT || ending == MPIRR_END_INCOMPLETE) return 1;
    if (ending != MPIRR_END_SIGNAL) return 0;
    /* Faults and abort() come from the program and happen again in a replay; these are sent. */
    switch (detail) {
    case SIGTERM: case SIGINT: case SIGQUIT: case SIGHUP: case SIGPIPE: case SIGKILL:
    case SIGUSR1: case SIGUSR2: case SIGALRM: case SIGXCPU: return 1;
    default: return 0;
    }
}

const char *mpirr_counter_name(unsigned which)
{
    static const char *const names[MPIRR_CTR_LIMIT] = {
        "messages_sent", "messages_received", "wildcard_receives", "racing_receives",
        "fallback_logged", "piggyback_bytes", "piggyback_messages", "pending_peak",
        "clock_merges", "short_messages", "libc_time_unrecorded", "libc_random_unrecorded",
        "libc_pid_unrecorded", "libc_host_unrecorded", "libc_unrecorded_sources"};
    _Static_assert(MPIRR_CTR_LIBC_UNRECORDED_SOURCES - MPIRR_CTR_LIBC_UNRECORDED ==
                       MPIRR_LIBC_GROUP_COUNT, "one libc counter per group");
    return which < MPIRR_CTR_LIMIT ? names[which] : "?";
}

void mpirr_log_path(char *buf, size_t n, const char *dir, int rank, const char *suffix)
{
    snprintf(buf, n, "%s/rank-%05d.%s", dir, rank, suffix);
}

void mpirr_sync_log_path(char *buf, size_t n, const char *dir, int rank, int thread,
                         const char *suffix)
{
    snprintf(buf, n, "%s/sync-%05d-%04d.%s", dir, rank, thread, suffix);
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
    copy_field(out + FH_MPI, h->mpi_library, FH_MPI_BYTES);
    memcpy(out + FH_RUN_ID, h->run_id.b, MPIRR_RUN_ID_BYTES);
    if (h->flags & MPIRR_LOG_FLAG_WTIME_UNIT) mpirr_put_u32(out + FH_WTIME_UNIT, h->wtime_unit_ns);
    mpirr_put_u64(out + FH_CHECK, mpirr_fnv64(MPIRR_FNV64_OFFSET, out, FH_CHECK));
}


static void fail(mpirr_log_writer *w, const char *what)
{
    snprintf(w->err, sizeof w->err, "cannot %s %s: %s", what, w->log_path, strerror(errno));
}

/* Staged bytes and their check in one store: a reader (or a death) sees either the old pair or
 * the new one, and the check covers the stage header, so damage anywhere in it is caught. */
static void publish(mpirr_log_writer *w, uint32_t used)
{
    if (used == 0 || used < w->used) { /* a new stage: its check starts over */
        w->check = MPIRR_FNV32_OFFSET;
        w->used = 0;
    }
    w->check = mpirr_fnv32(w->check, w->tail + TAIL_HEADER_BYTES + w->used, used - w->used);
    w->used = used;
    __atomic_store_n((uint64_t *)(void *)(w->tail + TL_PUBLISHED),
                     (uint64_t)used | (uint64_t)w->check << 32, __ATOMIC_RELEASE);
}

/* Starts an empty stage after the frames written so far: first published empty (a death now
 * leaves no staged records, and the frames hold them all), then with its header. */
static void tail_reset(mpirr_log_writer *w)
{
    uint8_t *stage = w->tail + TAIL_HEADER_BYTES;
    publish(w, 0);
    mpirr_codec_rebase(&w->codec, w->codec.prev_written, w->codec.prev_wtime);
    mpirr_put_u32(stage + ST_FRAMES, w->frames);
    mpirr_put_u64(stage + ST_BASE_WRITTEN, w->codec.prev_written);
    mpirr_put_u64(stage + ST_BASE_WTIME, w->codec.prev_wtime);
    publish(w, STAGE_HEADER_BYTES);
    w->nrec = 0;
    w->nlows = 0;
    w->base = w->codec;
}

mpirr_log_writer *mpirr_log_writer_open(const char *dir, const mpirr_log_header *h,
                                        size_t stage_bytes, char *err, size_t errlen)
{
    char path[4096];
    mpirr_log_path(path, sizeof path, dir, h->rank, "log");
    return mpirr_log_writer_open_at(path, h, stage_bytes, err, errlen);
}

mpirr_log_writer *mpirr_log_writer_open_at(const char *log_path, const mpirr_log_header *h,
                                           size_t stage_bytes, char *err, size_t errlen)
{
    mpirr_log_writer *w = calloc(1, sizeof *w);
    char path[4096], dir[4096];
    snprintf(path, sizeof path, "%s", log_path);
    snprintf(dir, sizeof dir, "%s", log_path);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = 0;
    else snprintf(dir, sizeof dir, ".");
    if (!w) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    w->log_fd = -1;
    w->stage_cap = STAGE_HEADER_BYTES + (stage_bytes ? stage_bytes : DEFAULT_STAGE_BYTES);
    struct statvfs vfs;
    if (!stage_bytes && statvfs(dir, &vfs) == 0 &&
        (unsigned long long)vfs.f_bavail * vfs.f_frsize < SMALL_STAGE_BELOW)
        w->stage_cap = STAGE_HEADER_BYTES + SMALL_STAGE_BYTES;
    /* the tail beside the log: …/NAME.log -> …/NAME.tail */
    size_t len = strlen(path);
    if (len < 4 || strcmp(path + len - 4, ".log")) {
        snprintf(err, errlen, "%s: a log's name ends in .log", path);
        free(w);
        return NULL;
    }
    snprintf(w->tail_path, sizeof w->tail_path, "%.*s.tail", (int)(len - 4), path);
    memcpy(w->log_path, path, sizeof w->log_path);
    /* The tail first, then the log, whole with its header: a process killed in between (a
     * thread's first synchronization as another thread's MPI_Abort ends the job) leaves no log,
     * or a stray tail that nothing reads, never a log without its header or its tail. */
    w->tail = mpirr_map_create(w->tail_path, TAIL_HEADER_BYTES + w->stage_cap, err, errlen);
    if (!w->tail && errno == ENOSPC && !stage_bytes &&
        w->stage_cap != STAGE_HEADER_BYTES + SMALL_STAGE_BYTES) {
        w->stage_cap = STAGE_HEADER_BYTES + SMALL_STAGE_BYTES;
        w->tail = mpirr_map_create(w->tail_path, TAIL_HEADER_BYTES + w->stage_cap, err, errlen);
    }
    if (!w->tail)
        goto fail;
    memcpy(w->tail, TAIL_MAGIC, 8);
    mpirr_put_u32(w->tail + TL_VERSION, TAIL_VERSION);
    mpirr_put_u32(w->tail + TL_CAPACITY, (uint32_t)w->stage_cap);
    mpirr_run_id_put_checked(w->tail + TL_RUN_ID, &h->run_id);
    mpirr_log_set_ending(w, MPIRR_END_CUT, 0);
    *mpirr_log_progress(w) = mpirr_progress_word(0, 0);
    w->codec.wtime_ns = 1;
    w->codec.wtime_split = 1;
    w->codec.wtime_unit = h->wtime_unit_ns > 1 ? h->wtime_unit_ns : 1;
    tail_reset(w);
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
    mpirr_log_header coded = *h;
    coded.flags |= MPIRR_LOG_FLAG_WTIME_NS | MPIRR_LOG_FLAG_WTIME_SPLIT;
    if (w->codec.wtime_unit > 1) coded.flags |= MPIRR_LOG_FLAG_WTIME_UNIT;
    mpirr_header_encode(hdr, &coded);
    /* written under a new name, then linked to its own (which must not exist yet) */
    snprintf(w->new_path, sizeof w->new_path, "%s.new", path);
    w->log_fd = mpirr_create_file(w->new_path, O_WRONLY);
    if (w->log_fd < 0) {
        snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
        goto fail;
    }
    if (mpirr_write_all(w->log_fd, hdr, sizeof hdr)) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        goto fail;
    }
    if (link(w->new_path, path) &&
        /* a file system without hard links: a rename, where nothing has the name yet */
        ((errno != EPERM && errno != EOPNOTSUPP) || !access(path, F_OK) ||
         rename(w->new_path, path))) {
        snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
        goto fail;
    }
    unlink(w->new_path);
    w->log_bytes = sizeof hdr;
    return w;
fail:
    /* Nothing half-made stays behind: a .log without its tail would read as damage. */
    if (w->tail) {
        munmap(w->tail, TAIL_HEADER_BYTES + w->stage_cap);
        unlink(w->tail_path);
    }
    if (w->log_fd >= 0) {
        close(w->log_fd);
        unlink(w->new_path);
    }
    ZSTD_freeCCtx(w->zc);
    free(w->zbuf);
    free(w);
    return NULL;
}

/* Header flag bit 9: a frame holds a varint, its records without the bits below each MPI_Wtime
 * step's leading one (that many bytes), then those bits as one column (record_codec.h). The
 * staged records carry them inline, at their ends; lows[] says where each such record ends
 * (in data) and how many bits: the bytes are copied around them, the bits into the column. */
static int split_frame(mpirr_log_writer *w, const uint8_t **data, size_t *len,
                       const uint32_t *lows, uint32_t nlows)
{
    size_t need = MPIRR_VARINT_MAX + 2 * *len;
    if (need > w->split_cap) {
        uint8_t *grown = realloc(w->split, need);
        if (!grown) {
            snprintf(w->err, sizeof w->err, "out of memory");
            return -1;
        }
        w->split = grown;
        w->split_cap = need;
    }
    uint8_t *recs = w->split + MPIRR_VARINT_MAX;
    mpirr_bit_column col = {.out = recs + *len};
    const uint8_t *in = *data;
    size_t n = 0, from = 0;
    for (uint32_t i = 0; i < nlows; i++) {
        size_t end = lows[i] >> 6;
        size_t bytes = mpirr_bit_column_take(&col, in + end, lows[i] & 63);
        memcpy(recs + n, in + from, end - bytes - from);
        n += end - bytes - from;
        from = end;
    }
    memcpy(recs + n, in + from, *len - from);
    n += *len - from;
    size_t colbytes = (size_t)((col.pos + 7) / 8);
    memmove(recs + n, col.out, colbytes);
    size_t k = mpirr_varint_len(n);
    mpirr_varint_put(recs - k, n);
    *data = recs - k;
    *len = k + n + colbytes;
    return 0;
}

/* Notes a record staged to end at byte `end` of the stage's records, whose encoding (codec
 * state st) left low bits inline. */
static int note_lows(mpirr_log_writer *w, size_t end, const mpirr_codec_state *st)
{
    if (!st->low_bits) return 0;
    if (w->nlows == w->lows_cap) {
        uint32_t cap = w->lows_cap ? 2 * w->lows_cap : 1024;
        uint32_t *grown = realloc(w->lows, cap * sizeof *grown);
        if (!grown) {
            snprintf(w->err, sizeof w->err, "out of memory");
            return -1;
        }
        w->lows = grown;
        w->lows_cap = cap;
    }
    w->lows[w->nlows++] = (uint32_t)end << 6 | st->low_bits;
    return 0;
}

/* Compresses data (encoded with codec base b) into one frame appended to the .log. */
static int write_frame(mpirr_log_writer *w, const uint8_t *data, size_t len, uint32_t nrec,
                       const mpirr_codec_state *b, const uint32_t *lows, uint32_t nlows)
{
    if (b->wtime_split && split_frame(w, &data, &len, lows, nlows)) return -1;
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
    if (w->failed || mpirr_write_all(w->log_fd, w->zbuf, FRAME_HEADER_BYTES + z)) {
        if (w->failed) return -1;
        fail(w, "write");
        /* A full disk takes part of a frame: cut it off again, so the .log ends with whole
         * frames and the records stay in the stage alone; no write follows (a later one,
         * after space came back, would put a frame after a hole in the stream). */
        w->failed = 1;
        int cut = ftruncate(w->log_fd, (off_t)w->log_bytes);
        (void)cut; /* if even that fails, the reader takes the partial frame for a death's */
        return -1;
    }
    w->log_bytes += FRAME_HEADER_BYTES + z;
    w->frames++;
    return 0;
}

int mpirr_log_flush(mpirr_log_writer *w)
{
    if (!w->nrec) return 0;
    if (write_frame(w, w->tail + TAIL_HEADER_BYTES + STAGE_HEADER_BYTES,
                    w->used - STAGE_HEADER_BYTES, w->nrec, &w->base, w->lows, w->nlows))
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
    w->codec.low_bits = 0;
    mpirr_codec_state before = w->codec;
    size_t len = mpirr_record_encode(buf, r, &w->codec);
    uint32_t used = w->used;
    int rc = 0;
    if (used + len > w->stage_cap) {
        /* Re-encode against the state the next frame starts from. */
        w->codec = before;
        if (mpirr_log_flush(w)) {
            rc = -1;
            goto out;
        }
        len = mpirr_record_encode(buf, r, &w->codec);
        used = w->used;
        if (used + len > w->stage_cap) { /* a huge index list: a frame of its own */
            uint32_t lows = (uint32_t)len << 6 | w->codec.low_bits;
            rc = write_frame(w, buf, len, 1, &w->base, &lows, w->codec.low_bits ? 1 : 0);
            if (!rc) tail_reset(w);
            goto out;
        }
    }
    if (note_lows(w, used + len - STAGE_HEADER_BYTES, &w->codec)) {
        w->codec = before;
        rc = -1;
        goto out;
    }
    memcpy(w->tail + TAIL_HEADER_BYTES + used, buf, len);
    w->nrec++;
    /* Publishing the new length last makes a record visible only once complete. */
    publish(w, (uint32_t)(used + len));
out:
    if (buf != small) free(buf);
    return rc;
}

void mpirr_log_set_ending(mpirr_log_writer *w, int ending, int detail)
{
    if (!w || !w->tail) return;
    uint64_t word = mpirr_guard_encode((uint64_t)(uint8_t)ending | (uint64_t)(uint32_t)detail << 8);
    __atomic_store_n((uint64_t *)(void *)(w->tail + TL_ENDING), word, __ATOMIC_RELAXED);
}

uint64_t *mpirr_log_progress(mpirr_log_writer *w)
{
    return (uint64_t *)(void *)(w->tail + TL_PROGRESS);
}

void mpirr_log_note_pending(mpirr_log_writer *w, int present)
{
    if (!w || !w->tail) return;
    *(uint64_t *)(void *)(w->tail + TL_PENDING) = mpirr_guard_encode(present != 0);
}

uint64_t *mpirr_log_counters(mpirr_log_writer *w)
{
    _Static_assert(TL_COUNTERS + 8 * MPIRR_CTR_LIMIT <= TL_COUNTERS_END, "counters fit");
    return (uint64_t *)(void *)(w->tail + TL_COUNTERS);
}

uint64_t *mpirr_log_call_counts(mpirr_log_writer *w)
{
    _Static_assert(TL_CALL_COUNTS >= TL_RUN_ID + 24, "after the run id");
    _Static_assert(TL_CALL_COUNTS + 8 * MPIRR_CALL_COUNT_SLOTS <= TAIL_HEADER_BYTES, "slots fit");
    return (uint64_t *)(void *)(w->tail + TL_CALL_COUNTS);
}

int mpirr_log_close(mpirr_log_writer *w)
{
    int rc = mpirr_log_flush(w);
    if (close(w->log_fd) && !rc) {
        fail(w, "close");
        rc = -1;
    }
    if (!rc) {
        /* Every record is in the .log now; keep only the header page, which holds the ending
         * (a failed flush keeps the stage: its records exist nowhere else). */
        publish(w, 0);
        munmap(w->tail, TAIL_HEADER_BYTES + w->stage_cap);
        if (truncate(w->tail_path, TAIL_HEADER_BYTES)) rc = -1;
    } else {
        munmap(w->tail, TAIL_HEADER_BYTES + w->stage_cap);
    }
    ZSTD_freeCCtx(w->zc);
    free(w->zbuf);
    free(w->split);
    free(w->lows);
    free(w);
    return rc;
}

const char *mpirr_log_writer_error(const mpirr_log_writer *w) { return w->err; }

uint64_t mpirr_log_writer_bytes(const mpirr_log_writer *w)
{
    return w->log_bytes + w->used - STAGE_HEADER_BYTES;
}
