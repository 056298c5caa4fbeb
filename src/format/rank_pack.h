/* rank_pack.h: node packs (docs/format.md "Node packs"): the rank files of the ranks of one node
 * (rank-N.log, .tail, .pending, .events, .events.tail, sync-N-T.log/.tail, ...) in one file,
 * node-NNNNN.pack, so that a recording's file count grows with its nodes, not its ranks. A pack
 * is a header, the members' bytes, an index (name, offset, length, checksum of each) written
 * last, and a trailer pointing at the index: a pack cut short has no trailer and is refused.
 *
 * Readers never see packs: mpirr_fopen_regular (file_io.h) opens a rank file that is not in the
 * directory as a stream over its bytes in a pack, and mpirr_rank_files_list lists a recording's
 * rank files whether loose or packed. A file both loose and packed (an interrupted `mpirr pack`)
 * must equal its member: the loose one is read then; a difference is damage. */
#ifndef MPIRR_RANK_PACK_H
#define MPIRR_RANK_PACK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "run_id.h"

/* Packs are numbered from 0 without a gap: node-00000.pack, node-00001.pack, ... */
#define MPIRR_PACK_NAME_FMT "node-%05d.pack"
#define MPIRR_PACK_TMP_FMT ".node-%05d.pack.tmp"
#define MPIRR_PACK_VERSION 1
#define MPIRR_PACK_HOST_BYTES 64
/* Bytes of a member's name (a rank file's name: mpirr_local_rank_of). */
#define MPIRR_PACK_NAME_MAX 255

/* Where a packed file's bytes are. */
typedef struct mpirr_pack_member {
    char pack[4200];   /* the pack's path */
    uint64_t offset, length, checksum;
} mpirr_pack_member;

/* Whether the file at path ("DIR/NAME") is a member of one of DIR's packs: 1 (*m filled), 0 (no
 * pack holds it, or DIR has none), -1 when DIR's packs are damaged (one line in err naming the
 * pack and what was expected). The packs' indexes are read once and kept while DIR is unchanged
 * (in per-rank mode, below, only the members of the name's rank). Thread-safe. */
int mpirr_pack_lookup(const char *path, mpirr_pack_member *m, char *err, size_t errlen);
/* Per-rank mode (on: the runtime, each of whose ranks reads its own files): a lookup keeps only
 * the members of the rank its name is of, read from the packs up to the first that holds any
 * (a rank's files are all in its node's pack; the CLI, in the default mode, checks the whole
 * directory: a name in two packs). A lookup of another rank's file reads them again for it. */
void mpirr_pack_cache_per_rank(int on);
/* The members the cache holds now (for the tests). */
size_t mpirr_pack_cache_members(void);
/* Frees what the cache holds (the runtime at MPI_Finalize: nothing kept past it). */
void mpirr_pack_cache_free(void);
/* A read-only, seekable stream over m's bytes, checked against its checksum first. NULL with
 * errno (EINVAL: damaged) and one line in err naming path (the member's name) and the pack. */
FILE *mpirr_pack_member_open(const char *path, const mpirr_pack_member *m, char *err,
                             size_t errlen);
/* For a file present both loose (fd, already open) and as m: 0 when they are the same bytes,
 * else -1 with one line in err. */
int mpirr_pack_same_as_loose(const char *path, int fd, const mpirr_pack_member *m, char *err,
                             size_t errlen);

/* A recording's rank files, by name. */
typedef struct mpirr_name_list {
    char **v;
    size_t n, cap;
} mpirr_name_list;
void mpirr_name_list_free(mpirr_name_list *l);
/* The names of DIR's rank files, loose (regular files only) and packed, sorted, each once; with
 * packed (if not NULL) set to how many of them are packed. 0, or -1 with errno and one line in
 * err: DIR unreadable (opendir's errno), damaged packs (EINVAL), out of memory (ENOMEM). */
int mpirr_rank_files_list(const char *dir, mpirr_name_list *out, size_t *packed, char *err,
                          size_t errlen);
/* Number of packs in DIR (node-00000.pack on, until one is missing). */
int mpirr_pack_count(const char *dir);

/* Writes DIR/node-<ordinal>.pack with the n rank files names of the folder from (read with
 * mpirr_fopen_regular: loose or packed; DIR itself for `mpirr pack`, a node's local folder for
 * `mpirr gather`), host (untrusted: kept, never used in a path) and run id: to
 * DIR/.node-<ordinal>.pack.tmp, fsync'ed, then renamed into place. Nothing is removed.
 * 0, or -1 with one line in err (the temporary is removed). */
int mpirr_pack_write(const char *dir, const char *from, int ordinal, const char *host,
                     const mpirr_run_id *id, char *const *names, size_t n, char *err,
                     size_t errlen);

#endif
