/* log_layout.h: byte layout of the rank log file header, frame headers and the tail file,
 * private to the writer and the reader (docs/format.md is the public description). */
#ifndef MPIRR_LOG_LAYOUT_H
#define MPIRR_LOG_LAYOUT_H

#include <stdint.h>

#include "rank_log.h"

#define LOG_MAGIC "MPIRRLG1"
#define TAIL_MAGIC "MPIRRTL5"
#define TAIL_VERSION 5 /* 3: the run id at TL_RUN_ID; 4: the call counts at TL_CALL_COUNTS;
                          5: those counts in self-describing slots (call_count_slots.h) */
#define TAIL_MAGIC_V4 "MPIRRTL4" /* version 4 (a count per call id < 256), still read */
#define TAIL_MAGIC_V3 "MPIRRTL3" /* version 3 (no call counts), still read */
#define TAIL_MAGIC_V2 "MPIRRTL2" /* version 2 (no run id), still read */
#define FRAME_MAGIC 0x4d52464du /* "MFRM" little-endian */

enum {
    FILE_HEADER_BYTES = MPIRR_LOG_HEADER_BYTES,
    FH_VERSION = 8, FH_FLAGS = 12, FH_RANK = 16, FH_NRANKS = 20, FH_PID = 24,
    FH_FINGERPRINT = 32, FH_START = 40, FH_EXE = 48, FH_HOST = 560, FH_MPI = 624,
    FH_MPI_BYTES = 112, FH_MPI_BYTES_V1 = 128, /* version 1 had no run id */
    FH_RUN_ID = 736, /* version 2: the run id (run_id.h), 16 bytes */
    FH_WTIME_UNIT = 752, /* u32, with MPIRR_LOG_FLAG_WTIME_UNIT; else 0 */
    FH_CHECK = 760, /* FNV-1a 64 of bytes [0, FH_CHECK) */

    FRAME_HEADER_BYTES = 48,
    FR_MAGIC = 0, FR_ZLEN = 4, FR_RAWLEN = 8, FR_NREC = 12, FR_BASE_WRITTEN = 16,
    FR_BASE_WTIME = 24, FR_ZCHECK = 32, /* FNV-1a 64 of the compressed payload */
    FR_CHECK = 40,                      /* FNV-1a 64 of bytes [0, FR_CHECK) */

    TAIL_HEADER_BYTES = 4096,
    TL_VERSION = 8,
    TL_PUBLISHED = 16, /* u64: staged bytes (low 32) | FNV-1a 32 of them (high 32), one store */
    TL_ENDING = 24,    /* guard word (guard_word.h): ending | detail << 8 */
    TL_CAPACITY = 48,  /* stage capacity, for the writer (readers go by the file size) */
    TL_PROGRESS = 56,  /* guard word: event << 1 | inside that call (progress_word) */
    TL_COUNTERS = 64, /* MPIRR_CTR_LIMIT little-endian u64 counters (rank_log.h), live */
    TL_COUNTERS_END = 1024,
    TL_PENDING = 1024, /* guard word: 1 while a rank-N.pending file holds undecided outcomes */
    TL_RUN_ID = 1032,  /* version 3: the run id, checked (MPIRR_RUN_ID_CHECKED_BYTES) */
    TL_CALL_COUNTS = 2048, /* the calls whose outcomes are not replayed, live: version 4, 256
                              little-endian u64 counts by call id; version 5,
                              MPIRR_CALL_COUNT_SLOTS slots id << 48 | count */

    /* The stage starts with its own header, covered by the published check with the records:
     * how many .log frames precede these records, and the codec bases they are encoded from. */
    ST_FRAMES = 0, ST_BASE_WRITTEN = 4, ST_BASE_WTIME = 12, STAGE_HEADER_BYTES = 20,

    MAX_FRAME_RAW = 64 << 20, /* readers refuse larger frames as corrupt */
};

void mpirr_header_encode(uint8_t out[FILE_HEADER_BYTES], const mpirr_log_header *h);
/* 0 ok, -1 bad (msg set). */
int mpirr_header_decode(const uint8_t in[FILE_HEADER_BYTES], mpirr_log_header *h,
                        const char **msg);

#endif
