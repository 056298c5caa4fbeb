/* event_layout.h: byte layout of the event-history file header, chunk headers and tail,
 * private to event_writer.c and event_reader.c (docs/format.md is the public description). */
#ifndef MPIRR_EVENT_LAYOUT_H
#define MPIRR_EVENT_LAYOUT_H

#include "run_id.h"

#define EV_MAGIC "MPIRREV1"
#define EV_TAIL_MAGIC "MPIRRET1"
#define EV_CHUNK_MAGIC 0x4356454du /* "MEVC" little-endian */
#define EV_CODEC_ZSTD 1u
#define EV_FLAG_EXACT 1u
#define EV_FLAG_SIZE_CODES 2u /* sizes are size codes (mpirr_ev_codec.size_codes) */
#define EV_FLAG_SIZE_COLUMN 4u /* message sizes in each block's size column (.size_column) */
#define EV_FLAG_TIMES_V3 8u /* time columns may be coded with TC_V3 (EV_TIMES_CODED3) */
/* call records may carry one-sided fields (MPIRR_EVF_RMA; .rma_fields): readers from before
 * them refuse such a history for this flag instead of misreading its records */
#define EV_FLAG_RMA 16u
#define EV_FLAGS_KNOWN (EV_FLAG_EXACT | EV_FLAG_SIZE_CODES | EV_FLAG_SIZE_COLUMN | EV_FLAG_TIMES_V3 | EV_FLAG_RMA)
/* How a block's time column is stored (third varint of its header). */
#define EV_TIMES_RAW 0u   /* the bytes as staged (the tail's block, as --raw shows it) */
#define EV_TIMES_CODED 1u /* range-coded with time_coder.h's TC_V1 model (older writers) */
#define EV_TIMES_CODED2 2u /* range-coded with its TC_V2 model (older writers) */
#define EV_TIMES_CODED3 3u /* range-coded with its TC_V3 model (what the writer writes) */

enum {
    EV_HEADER_BYTES = 80, EV_HEADER_BYTES_V1 = 64,
    EH_VERSION = 8, EH_RANK = 12, EH_NRANKS = 16, EH_TICK_SHIFT = 20, EH_FLAGS = 24,
    EH_CODEC = 28, EH_BASE_NS = 32, EH_REALTIME_NS = 40,
    EH_RUN_ID = 56, /* version 2: the run id, 16 bytes */
    EH_CHECK = 72, /* FNV-1a 64 of bytes [0, EH_CHECK) */
    EH_CHECK_V1 = 56, /* version 1: no run id, the check here */

    EV_CHUNK_BYTES = 32,
    EC_MAGIC = 0, EC_ZLEN = 4,
    EC_RAW_END = 8,  /* raw stream bytes (whole blocks) decodable once this chunk is read */
    EC_ZCHECK = 16,  /* FNV-1a 64 of the payload */
    EC_CHECK = 24,   /* FNV-1a 64 of bytes [0, EC_CHECK) */

    /* The tail stages the next block: its records' bytes at EV_TAIL_HEADER_BYTES, their time
     * codes after capacity more bytes, their sizes (EV_FLAG_SIZE_COLUMN) after as many again. */
    EV_TAIL_HEADER_BYTES = 4096,
    ET_VERSION = 8, ET_CAPACITY = 12,
    ET_RAW_START = 16, /* raw stream offset where the staged block will start */
    ET_USED = 24,      /* record bytes staged, stored after them and after their time codes */
    ET_TUSED = 32,     /* time-code bytes staged, stored before the records' count grows */
    ET_SUSED = 40,     /* size bytes staged, likewise */
    ET_RUN_ID = 48,    /* version 2: the run id, checked (MPIRR_RUN_ID_CHECKED_BYTES) */
    ET_HEADER_READ = ET_RUN_ID + MPIRR_RUN_ID_CHECKED_BYTES, /* what readers look at */

    EV_MAX_CHUNK = 64 << 20, /* readers refuse larger chunks as corrupt */
    /* and larger blocks (records or time column): a block is what one stage holds, and the
     * runtime stages far less (128 KiB by default) */
    EV_MAX_BLOCK = 64 << 20,
    /* Readers refuse a stream that decompresses to more than this many times the bytes of
     * the file read so far (plus EV_EXPANSION_SLACK) as crafted or corrupt: zstd alone would
     * let 33 KB become a gigabyte. The writer pays a 32-byte chunk header per staged block,
     * so a real history stays far below: the most regular program possible (every call the
     * same, same duration: test_event_trace's repetition) reaches 2,539 with the default
     * stage of 128 KiB (1,397 with 64 KiB, 3,689 with 256). */
    EV_MAX_EXPANSION = 8192,
    EV_EXPANSION_SLACK = 1 << 20,
};

#endif
