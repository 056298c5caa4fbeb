/* pending_slots.c: the mapped file of undecided races-mode outcomes (pending_slots.h).
 * Slot: u64 event, u32 sub, i32 source, i32 tag, u16 call, u8 has_match, u8 zero, then the
 * state word: 0 for a free slot, or FNV-1a 32 of bytes 0-23 << 8 | 1 for a live one, stored
 * last in one write, so a slot is live only once whole and damage to a slot is detected.
 * The file starts small and grows by whole allocated extents (mpirr_pending_grow), so a full
 * disk is an error to handle, never a fault on a page the file system cannot back. */
#include "pending_slots.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file_io.h"
#include "rank_log.h"
#include "varint.h"

enum { SL_EVENT = 0, SL_SUB = 8, SL_SOURCE = 12, SL_TAG = 16, SL_CALL = 20, SL_MATCH = 22,
       SL_ZERO = 23, SL_STATE = 24 };

static uint64_t live_word(const uint8_t *s)
{
    return (uint64_t)mpirr_fnv32(MPIRR_FNV32_OFFSET, s, SL_STATE) << 8 | 1;
}

struct mpirr_pending_slots {
    uint8_t *map;
    size_t len;
    char path[4200];
};

mpirr_pending_slots *mpirr_pending_open(const char *dir, int rank, const mpirr_run_id *run_id,
                                        uint32_t capacity, char *err, size_t errlen)
{
    mpirr_pending_slots *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    mpirr_log_path(p->path, sizeof p->path, dir, rank, "pending");
    p->len = PENDING_HEADER_BYTES + (size_t)capacity * PENDING_SLOT_BYTES;
    p->map = mpirr_map_create(p->path, p->len, err, errlen);
    if (!p->map) {
        free(p);
        return NULL;
    }
    memcpy(p->map, MPIRR_PENDING_MAGIC, 8);
    mpirr_put_u32(p->map + 8, capacity);
    mpirr_run_id_put_checked(p->map + PENDING_RUN_ID, run_id);
    return p;
}

/* The file grows first (zeros), then the header says so: a death in between leaves a file
 * longer than its capacity whose extra bytes are all zero, which the reader accepts. */
int mpirr_pending_grow(mpirr_pending_slots *p, uint32_t capacity, char *err, size_t errlen)
{
    size_t len = PENDING_HEADER_BYTES + (size_t)capacity * PENDING_SLOT_BYTES;
    void *map = p->map;
    if (mpirr_map_grow(p->path, &map, p->len, len, err, errlen)) return -1;
    p->map = map;
    p->len = len;
    __atomic_store_n((uint32_t *)(void *)(p->map + 8), capacity, __ATOMIC_RELEASE);
    return 0;
}

static uint8_t *slot(mpirr_pending_slots *p, uint32_t i)
{
    return p->map + PENDING_HEADER_BYTES + (size_t)i * PENDING_SLOT_BYTES;
}

void mpirr_pending_set(mpirr_pending_slots *p, uint32_t i, const mpirr_record *r)
{
    uint8_t *s = slot(p, i);
    mpirr_put_u64(s + SL_EVENT, r->event);
    mpirr_put_u32(s + SL_SUB, r->sub);
    mpirr_put_u32(s + SL_SOURCE, (uint32_t)r->source);
    mpirr_put_u32(s + SL_TAG, (uint32_t)r->tag);
    s[SL_CALL] = (uint8_t)r->call;
    s[SL_CALL + 1] = (uint8_t)(r->call >> 8);
    s[SL_MATCH] = r->has_match;
    s[SL_ZERO] = 0;
    __atomic_store_n((uint64_t *)(void *)(s + SL_STATE), live_word(s), __ATOMIC_RELEASE);
}

void mpirr_pending_clear(mpirr_pending_slots *p, uint32_t i)
{
    __atomic_store_n((uint64_t *)(void *)(slot(p, i) + SL_STATE), 0, __ATOMIC_RELEASE);
}

void mpirr_pending_close(mpirr_pending_slots *p, int remove)
{
    if (!p) return;
    munmap(p->map, p->len);
    if (remove) unlink(p->path);
    free(p);
}

/* Bytes past the capacity come only from a growth cut short by a death, before any slot
 * there was used: all zero. Anything else there means the capacity itself was damaged. */
static int zeros_to_end(FILE *f)
{
    uint8_t buf[4096];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        for (size_t i = 0; i < got; i++)
            if (buf[i]) return 0;
    return !ferror(f);
}

/* The header's magic and run id (none in version 2): NULL, or what is wrong. */
static const char *header_run_id(const uint8_t *hdr, mpirr_run_id *id)
{
    memset(id, 0, sizeof *id);
    if (!memcmp(hdr, MPIRR_PENDING_MAGIC_V2, 8)) return NULL;
    if (memcmp(hdr, MPIRR_PENDING_MAGIC, 8))
        return "not a pending file of this version (bad magic or truncated)";
    if (mpirr_run_id_get_checked(hdr + PENDING_RUN_ID, id)) return "corrupt run id (check mismatch)";
    return NULL;
}

int mpirr_pending_load(const char *path, const mpirr_run_id *sibling, mpirr_record **out,
                       size_t *n, char *err, size_t errlen)
{
    mpirr_run_id id;
    *out = NULL;
    *n = 0;
    FILE *f = mpirr_fopen_regular(path, err, errlen);
    if (!f) {
        if (errno == ENOENT) return 0;
        return -1;
    }
    uint64_t size = 0;
    uint8_t hdr[PENDING_HEADER_BYTES];
    const char *bad = NULL;
    uint64_t cap = 0;
    if (mpirr_stream_size(f, &size) != 0 || fread(hdr, 1, sizeof hdr, f) != sizeof hdr)
        bad = "not a pending file of this version (bad magic or truncated)";
    else if ((bad = header_run_id(hdr, &id)))
        ;
    else if (mpirr_run_id_check(path, &id, sibling, err, errlen)) {
        fclose(f);
        return MPIRR_PENDING_OTHER_RUN;
    } else if (cap = mpirr_get_u32(hdr + 8),
             PENDING_HEADER_BYTES + cap * PENDING_SLOT_BYTES > size)
        bad = "size does not match its capacity";
    else if (!(*out = calloc(cap ? cap : 1, sizeof **out)))
        bad = "out of memory";
    uint8_t s[PENDING_SLOT_BYTES];
    for (uint64_t i = 0; !bad && i < cap; i++) {
        if (fread(s, 1, sizeof s, f) != sizeof s) {
            bad = "cannot read";
            break;
        }
        uint64_t state = mpirr_get_u64(s + SL_STATE);
        if (!state) continue;
        if (state != live_word(s) || s[SL_ZERO] || s[SL_MATCH] > 1) {
            snprintf(err, errlen, "%s: corrupt slot %llu (check mismatch)", path,
                     (unsigned long long)i);
            fclose(f);
            free(*out);
            *out = NULL;
            *n = 0;
            return -1;
        }
        mpirr_record *r = &(*out)[(*n)++];
        r->kind = MPIRR_REC_RECV_DONE;
        r->event = r->written = mpirr_get_u64(s + SL_EVENT);
        r->sub = mpirr_get_u32(s + SL_SUB);
        r->source = (int32_t)mpirr_get_u32(s + SL_SOURCE);
        r->tag = (int32_t)mpirr_get_u32(s + SL_TAG);
        r->call = (uint16_t)(s[SL_CALL] | s[SL_CALL + 1] << 8);
        r->has_match = s[SL_MATCH] != 0;
    }
    if (!bad && !zeros_to_end(f)) bad = "size does not match its capacity";
    fclose(f);
    if (bad) {
        snprintf(err, errlen, "%s: %s", path, bad);
        free(*out);
        *out = NULL;
        *n = 0;
        return -1;
    }
    return 1;
}
