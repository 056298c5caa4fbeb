/* rank_log_reader.c: reads a rank log: header, compressed frames, then the tail's staged
 * records. Damage stops the reader with one message naming the file, the place and the last
 * good event; everything before it has been returned. */
#include "rank_log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zstd.h>

#include "file_io.h"
#include "guard_word.h"
#include "call_count_slots.h"
#include "call_ids.h"
#include "log_layout.h"
#include "pending_slots.h"
#include "record_codec.h"
#include "varint.h"

struct mpirr_log_reader {
    FILE *f;
    char path[4096];
    mpirr_log_header header;
    uint8_t *raw;          /* current frame or tail, decompressed */
    size_t raw_cap;
    const uint8_t *pos, *end;
    uint32_t left;         /* records left in the current frame/tail */
    mpirr_codec_state codec;
    mpirr_bit_column col;  /* the current frame's MPI_Wtime bits (MPIRR_LOG_FLAG_WTIME_SPLIT) */
    uint32_t frames;       /* complete frames read */
    int in_tail, done;
    int32_t *idx;
    size_t idx_cap;
    uint64_t last_event;   /* last key event returned, for messages */
    uint64_t bytes, raw_bytes;
    int saw_end;
    /* undecided races-mode outcomes of a rank that died (pending_slots.h), read last */
    mpirr_record *pend;
    size_t npend, pend_next;
    /* tail, loaded at open; tail_err says what is wrong with it (reported once the frames
     * before it have been read) */
    uint8_t *tail;
    size_t tail_len;
    uint32_t tail_version; /* 2 to 5 (TAIL_VERSION) */
    uint32_t staged;       /* verified staged bytes, stage header included (0: none) */
    int ending, detail;
    uint64_t events, hold_event;
    int in_call;
    char tail_err[512];
    char err[512];
};

int mpirr_header_decode(const uint8_t in[FILE_HEADER_BYTES], mpirr_log_header *h,
                        const char **msg)
{
    if (memcmp(in, LOG_MAGIC, 8)) {
        *msg = "not an mpirr rank log (bad magic)";
        return -1;
    }
    if (mpirr_get_u64(in + FH_CHECK) != mpirr_fnv64(MPIRR_FNV64_OFFSET, in, FH_CHECK)) {
        *msg = "corrupt header (checksum mismatch)";
        return -1;
    }
    memset(h, 0, sizeof *h);
    h->version = mpirr_get_u32(in + FH_VERSION);
    if (h->version != MPIRR_LOG_VERSION && h->version != 1) {
        *msg = "unsupported log format version";
        return -1;
    }
    h->flags = mpirr_get_u32(in + FH_FLAGS);
    if (h->flags & ~MPIRR_LOG_FLAGS_KNOWN) {
        *msg = "unknown header flags (written by a newer mpirr)";
        return -1;
    }
    h->rank = (int32_t)mpirr_get_u32(in + FH_RANK);
    h->nranks = (int32_t)mpirr_get_u32(in + FH_NRANKS);
    h->pid = (int32_t)mpirr_get_u32(in + FH_PID);
    h->exe_fingerprint = mpirr_get_u64(in + FH_FINGERPRINT);
    h->start_time_ns = mpirr_get_u64(in + FH_START);
    memcpy(h->exe_path, in + FH_EXE, sizeof h->exe_path - 1);
    memcpy(h->host, in + FH_HOST, sizeof h->host - 1);
    memcpy(h->mpi_library, in + FH_MPI, h->version == 1 ? FH_MPI_BYTES_V1 - 1 : FH_MPI_BYTES - 1);
    if (h->version > 1) memcpy(h->run_id.b, in + FH_RUN_ID, MPIRR_RUN_ID_BYTES);
    h->wtime_unit_ns = 1;
    if (h->flags & MPIRR_LOG_FLAG_WTIME_UNIT) {
        uint32_t need = MPIRR_LOG_FLAG_WTIME_NS | MPIRR_LOG_FLAG_WTIME_SPLIT;
        h->wtime_unit_ns = mpirr_get_u32(in + FH_WTIME_UNIT);
        if ((h->flags & need) != need || h->wtime_unit_ns < 2 ||
            h->wtime_unit_ns > MPIRR_WTIME_UNIT_MAX) {
            *msg = "impossible MPI_Wtime resolution in header";
            return -1;
        }
    }
    if (h->nranks <= 0 || h->rank < 0 || h->rank >= h->nranks) {
        *msg = "implausible rank numbers in header";
        return -1;
    }
    return 0;
}

/* Loads <log path with .tail> if present; a missing tail means a clean close removed nothing
 * we need (the ending then comes from the END record). */
static void sibling(const mpirr_log_reader *r, const char *suffix, char *out, size_t outlen)
{
    size_t n = strlen(r->path);
    if (n > 4 && !strcmp(r->path + n - 4, ".log"))
        snprintf(out, outlen, "%.*s.%s", (int)(n - 4), r->path, suffix);
    else
        snprintf(out, outlen, "%s.%s", r->path, suffix);
}

static void tail_damaged(mpirr_log_reader *r, const char *tpath, const char *what)
{
    snprintf(r->tail_err, sizeof r->tail_err, "%s: %s", tpath, what);
    free(r->tail);
    r->tail = NULL;
}

/* The tail's run id (none in version 2): 0, 1 damaged (reported as damage), or -1 when it
 * belongs to another recording (err: refused at open, not read as damage later). */
static int tail_run_id(mpirr_log_reader *r, const char *tpath, char *err, size_t errlen)
{
    const uint8_t *t = r->tail;
    mpirr_run_id id = {{0}};
    static const char *const magics[] = {[2] = TAIL_MAGIC_V2, [3] = TAIL_MAGIC_V3, [4] = TAIL_MAGIC_V4,
                                          [5] = TAIL_MAGIC};
    uint32_t v = mpirr_get_u32(t + TL_VERSION);
    if (v < 2 || v > TAIL_VERSION || memcmp(t, magics[v], 8)) {
        tail_damaged(r, tpath, "not an mpirr tail of this version (bad magic)");
        return 1;
    }
    r->tail_version = v;
    if (v >= 3 && mpirr_run_id_get_checked(t + TL_RUN_ID, &id)) {
        tail_damaged(r, tpath, "corrupt run id (check mismatch)");
        return 1;
    }
    return mpirr_run_id_check(tpath, &id, &r->header.run_id, err, errlen);
}

/* The guard words (ending, progress, pending file) and the published stage, all checked: a
 * damaged tail is reported, never read as a shorter or different recording. -1: the tail or
 * the pending file belongs to another recording (err). */
static int check_tail(mpirr_log_reader *r, const char *tpath, char *err, size_t errlen)
{
    const uint8_t *t = r->tail;
    uint64_t ending, progress, pending;
    int id = tail_run_id(r, tpath, err, errlen);
    if (id) return id < 0 ? -1 : 0;
    if (mpirr_guard_decode(mpirr_get_u64(t + TL_ENDING), &ending) ||
        mpirr_guard_decode(mpirr_get_u64(t + TL_PROGRESS), &progress) ||
        mpirr_guard_decode(mpirr_get_u64(t + TL_PENDING), &pending) || pending > 1)
        return tail_damaged(r, tpath, "corrupt tail header (check mismatch)"), 0;
    uint64_t published = mpirr_get_u64(t + TL_PUBLISHED);
    uint32_t used = (uint32_t)published, check = (uint32_t)(published >> 32);
    size_t room = r->tail_len - TAIL_HEADER_BYTES;
    if (used > room || (used && used < STAGE_HEADER_BYTES) ||
        mpirr_fnv32(MPIRR_FNV32_OFFSET, t + TAIL_HEADER_BYTES, used) != check)
        return tail_damaged(r, tpath, "corrupt staged records (check mismatch)"), 0;
    r->staged = used;
    r->ending = (int)(ending & 0xff);
    r->detail = (int)(uint32_t)(ending >> 8);
    r->events = progress >> 1;
    r->in_call = (int)(progress & 1);
    if (r->ending != MPIRR_END_FINALIZED && mpirr_ending_is_external(r->ending, r->detail))
        r->hold_event = (progress & 1) ? r->events : r->events + 1;
    if (pending && r->ending != MPIRR_END_FINALIZED) {
        char ppath[4112], perr[512];
        sibling(r, "pending", ppath, sizeof ppath);
        int got = mpirr_pending_load(ppath, &r->header.run_id, &r->pend, &r->npend, perr,
                                     sizeof perr);
        if (got == MPIRR_PENDING_OTHER_RUN) {
            snprintf(err, errlen, "%s", perr);
            return -1;
        }
        if (got == 0)
            snprintf(r->tail_err, sizeof r->tail_err, "%s: missing (the tail says this rank "
                     "died with undecided races-mode outcomes there)", ppath);
        else if (got < 0)
            snprintf(r->tail_err, sizeof r->tail_err, "%s", perr);
    }
    return 0;
}

/* Every rank log has a tail beside it (a clean close keeps its header page, with the ending).
 * -1: the tail or the pending file belongs to another recording (err). */
static int load_tail(mpirr_log_reader *r, char *err, size_t errlen)
{
    int rc = 0;
    char tpath[4112];
    sibling(r, "tail", tpath, sizeof tpath);
    FILE *t = mpirr_fopen_regular(tpath, r->tail_err, sizeof r->tail_err);
    if (!t) {
        if (errno == ENOENT)
            snprintf(r->tail_err, sizeof r->tail_err, "%s: %s (every rank log has one)", tpath,
                     strerror(errno));
        return 0;
    }
    uint64_t size;
    if (mpirr_stream_size(t, &size) != 0 || size < TAIL_HEADER_BYTES ||
        size > TAIL_HEADER_BYTES + STAGE_HEADER_BYTES + MAX_FRAME_RAW) {
        snprintf(r->tail_err, sizeof r->tail_err, "%s: implausible size", tpath);
    } else {
        r->tail = malloc((size_t)size);
        if (r->tail && fread(r->tail, 1, (size_t)size, t) == (size_t)size) {
            r->tail_len = (size_t)size;
            rc = check_tail(r, tpath, err, errlen);
        } else {
            tail_damaged(r, tpath, r->tail ? "cannot read" : "out of memory");
        }
    }
    fclose(t);
    return rc;
}

mpirr_log_reader *mpirr_log_reader_open(const char *path, char *err, size_t errlen)
{
    mpirr_log_reader *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    snprintf(r->path, sizeof r->path, "%s", path);
    r->f = mpirr_fopen_regular(path, err, errlen);
    if (!r->f) {
        free(r);
        return NULL;
    }
    uint8_t hdr[FILE_HEADER_BYTES];
    const char *msg = NULL;
    if (fread(hdr, 1, sizeof hdr, r->f) != sizeof hdr)
        msg = "truncated header (not an mpirr rank log, or cut off at creation)";
    else
        mpirr_header_decode(hdr, &r->header, &msg);
    if (msg) snprintf(err, errlen, "%s: %s", path, msg);
    if (msg || mpirr_run_id_check(path, &r->header.run_id, NULL, err, errlen)) {
        fclose(r->f);
        free(r);
        return NULL;
    }
    r->bytes = sizeof hdr;
    r->codec.wtime_ns = (r->header.flags & MPIRR_LOG_FLAG_WTIME_NS) != 0;
    r->codec.wtime_split = r->codec.wtime_ns && (r->header.flags & MPIRR_LOG_FLAG_WTIME_SPLIT);
    r->codec.wtime_unit = r->header.wtime_unit_ns;
    if (load_tail(r, err, errlen)) {
        mpirr_log_reader_close(r);
        return NULL;
    }
    return r;
}

const mpirr_log_header *mpirr_log_reader_header(const mpirr_log_reader *r) { return &r->header; }

static int damaged(mpirr_log_reader *r, const char *what)
{
    snprintf(r->err, sizeof r->err, "%s: %s in frame %u (after event %llu)", r->path, what,
             r->frames + 1, (unsigned long long)r->last_event);
    r->done = 1;
    return -1;
}

static int ensure_raw(mpirr_log_reader *r, size_t n)
{
    if (n <= r->raw_cap) return 0;
    uint8_t *g = realloc(r->raw, n);
    if (!g) return -1;
    r->raw = g;
    r->raw_cap = n;
    return 0;
}

/* The tail follows the last complete frame; if a frame was written but the tail not yet reset
 * (death between the two), the tail's records are already in that frame. */
static int open_tail(mpirr_log_reader *r)
{
    r->in_tail = 1;
    if (r->tail_err[0]) {
        snprintf(r->err, sizeof r->err, "%s (after event %llu)", r->tail_err,
                 (unsigned long long)r->last_event);
        r->done = 1;
        return -1;
    }
    if (!r->staged) return 0;
    const uint8_t *stage = r->tail + TAIL_HEADER_BYTES;
    if (mpirr_get_u32(stage + ST_FRAMES) != r->frames) return 0;
    r->pos = stage + STAGE_HEADER_BYTES;
    r->end = stage + r->staged;
    /* Records are published whole: read to the end of the published bytes. */
    r->left = UINT32_MAX;
    mpirr_codec_rebase(&r->codec, mpirr_get_u64(stage + ST_BASE_WRITTEN),
                       mpirr_get_u64(stage + ST_BASE_WTIME));
    r->bytes += r->staged - STAGE_HEADER_BYTES;
    r->raw_bytes += r->staged - STAGE_HEADER_BYTES;
    return 0;
}

static uint32_t tail_frames(const mpirr_log_reader *r)
{
    return r->tail && r->staged ? mpirr_get_u32(r->tail + TAIL_HEADER_BYTES + ST_FRAMES) : 0;
}

/* 1: a frame is loaded; 0: no more frames (tail opened); -1: damage. */
static int next_frame(mpirr_log_reader *r)
{
    uint8_t fh[FRAME_HEADER_BYTES];
    size_t got = fread(fh, 1, sizeof fh, r->f);
    if (got == 0) return open_tail(r);
    /* A partial frame at the very end, with the tail still holding its records, is a write
     * interrupted by death: not damage. */
    int tail_covers = r->tail && r->staged && tail_frames(r) == r->frames;
    if (got < sizeof fh) return tail_covers ? open_tail(r) : damaged(r, "truncated frame header");
    if (mpirr_get_u32(fh + FR_MAGIC) != FRAME_MAGIC ||
        mpirr_get_u64(fh + FR_CHECK) != mpirr_fnv64(MPIRR_FNV64_OFFSET, fh, FR_CHECK))
        return damaged(r, "corrupt frame header");
    uint32_t zlen = mpirr_get_u32(fh + FR_ZLEN), rawlen = mpirr_get_u32(fh + FR_RAWLEN);
    if (rawlen > MAX_FRAME_RAW || zlen > ZSTD_compressBound(rawlen))
        return damaged(r, "implausible frame size");
    uint8_t *z = malloc(zlen ? zlen : 1);
    if (!z || ensure_raw(r, rawlen ? rawlen : 1)) {
        free(z);
        return damaged(r, "out of memory");
    }
    if (fread(z, 1, zlen, r->f) != zlen) {
        free(z);
        return tail_covers ? open_tail(r) : damaged(r, "truncated frame");
    }
    if (mpirr_fnv64(MPIRR_FNV64_OFFSET, z, zlen) != mpirr_get_u64(fh + FR_ZCHECK)) {
        free(z);
        return damaged(r, "corrupt frame (checksum mismatch)");
    }
    size_t d = ZSTD_decompress(r->raw, rawlen, z, zlen);
    free(z);
    if (ZSTD_isError(d) || d != rawlen) return damaged(r, "corrupt compressed data");
    r->pos = r->raw;
    r->end = r->raw + rawlen;
    r->left = mpirr_get_u32(fh + FR_NREC);
    mpirr_codec_rebase(&r->codec, mpirr_get_u64(fh + FR_BASE_WRITTEN),
                       mpirr_get_u64(fh + FR_BASE_WTIME));
    if (r->codec.wtime_split) { /* the records' length, the records, their Wtime bits */
        uint64_t n;
        if (mpirr_varint_get(&r->pos, r->end, &n) || n > (uint64_t)(r->end - r->pos))
            return damaged(r, "corrupt frame (records longer than the frame)");
        r->col = (mpirr_bit_column){.in = r->pos + n, .len = (size_t)(r->end - r->pos - n)};
        r->end = r->pos + n;
        r->codec.col = &r->col;
    }
    r->frames++;
    r->bytes += FRAME_HEADER_BYTES + zlen;
    r->raw_bytes += rawlen;
    return 1;
}

int mpirr_log_read(mpirr_log_reader *r, mpirr_record *out)
{
    if (r->done) return r->err[0] ? -1 : 0;
    while (!r->left || (r->in_tail && r->pos >= r->end)) {
        if (r->in_tail) {
            if (r->pend_next < r->npend) {
                *out = r->pend[r->pend_next++];
                return 1;
            }
            r->done = 1;
            return 0;
        }
        int rc = next_frame(r);
        if (rc < 0) return -1;
    }
    const char *msg = NULL;
    if (mpirr_record_decode(&r->pos, r->end, out, &r->codec, &r->idx, &r->idx_cap, &msg)) {
        if (r->in_tail) { /* the stage is raw bytes: say so */
            snprintf(r->err, sizeof r->err, "%s: corrupt staged record in the tail (after event %llu): %s",
                     r->path, (unsigned long long)r->last_event, msg);
            r->done = 1;
            return -1;
        }
        return damaged(r, msg);
    }
    r->left--;
    if (!r->left && r->pos != r->end && !r->in_tail) return damaged(r, "trailing bytes");
    if (!r->left && r->codec.col && !mpirr_bit_column_done(r->codec.col))
        return damaged(r, "MPI_Wtime bits left over after the frame's records");
    r->last_event = out->event;
    if (out->kind == MPIRR_REC_END) r->saw_end = 1;
    return 1;
}

const char *mpirr_log_reader_error(const mpirr_log_reader *r) { return r->err; }

int mpirr_log_reader_ending(const mpirr_log_reader *r, int *detail)
{
    if (detail) *detail = r->detail;
    if (r->ending != MPIRR_END_CUT) return r->ending;
    return r->saw_end ? MPIRR_END_FINALIZED : MPIRR_END_CUT;
}

uint64_t mpirr_log_reader_events(const mpirr_log_reader *r) { return r->events; }

uint64_t mpirr_log_reader_hold_event(const mpirr_log_reader *r) { return r->hold_event; }

int mpirr_log_reader_in_call(const mpirr_log_reader *r) { return r->in_call; }

uint64_t mpirr_log_reader_bytes(const mpirr_log_reader *r) { return r->bytes; }
uint64_t mpirr_log_reader_raw_bytes(const mpirr_log_reader *r) { return r->raw_bytes; }

uint64_t mpirr_log_reader_counter(const mpirr_log_reader *r, unsigned which)
{
    if (!r->tail || which >= MPIRR_CTR_LIMIT) return 0;
    return mpirr_get_u64(r->tail + TL_COUNTERS + 8 * which);
}

uint64_t mpirr_log_reader_call_count(const mpirr_log_reader *r, unsigned id)
{
    if (!r->tail || r->tail_version < 4 || id == 0 || id >= MPIRR_CALL_ID_LIMIT) return 0;
    if (r->tail_version == 4) /* by id, ids below 256 */
        return id < 256 ? mpirr_get_u64(r->tail + TL_CALL_COUNTS + 8 * id) : 0;
    return mpirr_call_count_get(r->tail + TL_CALL_COUNTS, id);
}

uint64_t mpirr_log_reader_pending(const mpirr_log_reader *r) { return r->npend; }

void mpirr_log_reader_close(mpirr_log_reader *r)
{
    if (!r) return;
    fclose(r->f);
    free(r->raw);
    free(r->idx);
    free(r->tail);
    free(r->pend);
    free(r);
}
