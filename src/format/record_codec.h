/* record_codec.h: the byte encoding of records (see docs/format.md, "Records"). Records are
 * delta-coded against the previous record of the same frame, so a codec state is reset at every
 * frame boundary to the base values stored in the frame (or tail) header. */
#ifndef MPIRR_RECORD_CODEC_H
#define MPIRR_RECORD_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "libc_sources.h"
#include "record.h"

typedef struct mpirr_codec_state {
    uint64_t prev_written; /* written event of the previous record */
    uint64_t prev_wtime;   /* bits of the previous MPI_Wtime value */
    int wtime_ns;          /* Wtime values as nanosecond deltas (MPIRR_LOG_FLAG_WTIME_NS); kept
                              across rebases */
    uint64_t prev_libc[MPIRR_LIBC_FAMILY_COUNT]; /* previous LIBC value of each family;
                                                    0 at the start of every frame and stage */
} mpirr_codec_state;

/* The state a frame or stage starts from: the bases its header stores, the rest zero. */
static inline void mpirr_codec_rebase(mpirr_codec_state *st, uint64_t written, uint64_t wtime)
{
    *st = (mpirr_codec_state){.prev_written = written, .prev_wtime = wtime, .wtime_ns = st->wtime_ns};
}

/* Upper bound of the encoded size of r. */
size_t mpirr_record_encoded_max(const mpirr_record *r);
/* Encodes r at out (room for mpirr_record_encoded_max bytes), updates st; returns bytes. */
size_t mpirr_record_encode(uint8_t *out, const mpirr_record *r, mpirr_codec_state *st);
/* Decodes one record from [*p, end). Indices (if any) are stored in *idx (grown with realloc,
 * capacity *idx_cap) and r->indices points there. 0 ok, -1 malformed (msg set). */
int mpirr_record_decode(const uint8_t **p, const uint8_t *end, mpirr_record *r,
                        mpirr_codec_state *st, int32_t **idx, size_t *idx_cap,
                        const char **msg);

#endif
