/* record_codec.h: the byte encoding of records (see docs/format.md, "Records"). Records are
 * delta-coded against the previous record of the same frame, so a codec state is reset at every
 * frame boundary to the base values stored in the frame (or tail) header. */
#ifndef MPIRR_RECORD_CODEC_H
#define MPIRR_RECORD_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "libc_sources.h"
#include "record.h"

/* The bits below the leading one of each MPI_Wtime step (MPIRR_LOG_FLAG_WTIME_SPLIT), most
 * significant first: a frame keeps them in one column after its records, where they are not
 * padded to bytes one by one and do not dilute the statistics zstd keeps of the records' bytes;
 * a stage keeps each record's own inline, in whole bytes, so that every record stands alone. */
typedef struct mpirr_bit_column {
    uint8_t *out;      /* writing: room for as many bytes as the records' inline bits take */
    const uint8_t *in; /* reading: the column, len bytes */
    size_t len;
    uint64_t pos;      /* bits written or read so far */
} mpirr_bit_column;

/* Appends the k low bits of v (k <= 64), most significant first. */
void mpirr_bit_column_put(mpirr_bit_column *c, uint64_t v, unsigned k);
/* Moves the k bits a staged record carries inline (its codec state's low_bits), which end it
 * at record_end, into c; returns the bytes they took there. */
size_t mpirr_bit_column_take(mpirr_bit_column *c, const uint8_t *record_end, unsigned k);
/* Whether a column was read to its end: whole, with only zero bits padding its last byte. */
int mpirr_bit_column_done(const mpirr_bit_column *c);

typedef struct mpirr_codec_state {
    uint64_t prev_written; /* written event of the previous record */
    uint64_t prev_wtime;   /* bits of the previous MPI_Wtime value */
    int wtime_ns;          /* Wtime values as nanosecond deltas (MPIRR_LOG_FLAG_WTIME_NS); kept
                              across rebases */
    int wtime_split;       /* ... as bit length and the bits below the leading one
                              (MPIRR_LOG_FLAG_WTIME_SPLIT); kept across rebases */
    uint32_t wtime_unit;   /* ... the steps in units of this many ns (MPIRR_LOG_FLAG_WTIME_UNIT;
                              0 or 1: ns); kept across rebases */
    mpirr_bit_column *col; /* where those bits go: NULL inline (a stage), else a frame's column */
    /* How many such bits an encode wrote inline (left alone by others): the writer moves
     * them to a frame's column (mpirr_bit_column_take). */
    unsigned low_bits;
    uint64_t prev_libc[MPIRR_LIBC_FAMILY_COUNT]; /* previous LIBC value of each family;
                                                    0 at the start of every frame and stage */
} mpirr_codec_state;

/* The state a frame or stage starts from: the bases its header stores, the rest zero (no
 * column: a frame's reader or writer sets its own). */
static inline void mpirr_codec_rebase(mpirr_codec_state *st, uint64_t written, uint64_t wtime)
{
    *st = (mpirr_codec_state){.prev_written = written, .prev_wtime = wtime,
                              .wtime_ns = st->wtime_ns, .wtime_split = st->wtime_split,
                              .wtime_unit = st->wtime_unit};
}

/* The MPI_Wtime value t rounded down to a whole multiple of unit_ns nanoseconds, as the double
 * the codec codes in that unit (t itself for a unit of 1 or a value the codec cannot take as
 * nanoseconds): what a recording at that resolution gives the program. */
double mpirr_wtime_round(double t, uint32_t unit_ns);

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
