/* rank_pack_layout.h: the bytes of a node pack (docs/format.md "Node packs"), shared by its
 * reader (rank_pack.c) and writer (rank_pack_write.c). Integers are little-endian. */
#ifndef MPIRR_RANK_PACK_LAYOUT_H
#define MPIRR_RANK_PACK_LAYOUT_H

#define PK_MAGIC "MPIRRPAK"
#define PK_END_MAGIC "MPIRRPKE"

/* header: magic, version, node ordinal, run id (checked form), host (NUL-padded), FNV-1a 64 of
 * the bytes before the check */
enum {
    PK_H_MAGIC = 0,
    PK_H_VERSION = 8,
    PK_H_ORDINAL = 12,
    PK_H_RUN_ID = 16,
    PK_H_HOST = 16 + 24, /* MPIRR_RUN_ID_CHECKED_BYTES */
    PK_H_CHECK = PK_H_HOST + 64, /* MPIRR_PACK_HOST_BYTES */
    PK_HEADER_BYTES = 128,
};

/* an index entry: offset, length, FNV-1a 64 of the member's bytes, name length (2 bytes), name */
enum {
    PK_E_OFFSET = 0,
    PK_E_LENGTH = 8,
    PK_E_CHECKSUM = 16,
    PK_E_NAME_LEN = 24,
    PK_ENTRY_FIXED = 26,
};

/* trailer, the pack's last bytes: the index's offset and length, its entries, FNV-1a 64 of the
 * index, the end magic */
enum {
    PK_T_INDEX_OFFSET = 0,
    PK_T_INDEX_LENGTH = 8,
    PK_T_COUNT = 16,
    PK_T_INDEX_CHECK = 24,
    PK_T_MAGIC = 32,
    PK_TRAILER_BYTES = 40,
};

/* An index larger than this is damage (a million members of 64-byte names fit). */
#define PK_INDEX_MAX (UINT64_C(1) << 27)

#endif
