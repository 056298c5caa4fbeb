/* local_files.h: a recording made to node-local storage (`mpirr record --local DIR`, docs/format.md
 * "Node-local recording"). Each rank writes its files into DIR/mpirr-<run id> on its node and one
 * placement file, OUT/local/rank-NNNNN, into the recording; when it ends it moves its files into
 * OUT and removes its placement file. A placement file left over names where a rank's files still
 * are: `mpirr record` (or the user, with `mpirr gather`) fetches them from there.
 *
 * With --local --pack (MPIRR_LOCAL_PACK) the recording sees one file per node instead: the ranks
 * of a node find each other at MPI_Init and the lowest writes one node placement file,
 * OUT/local/node-NNNNN (N: the node's ordinal, the number of its pack), naming the host, the
 * folder and the node's ranks; the ranks leave their files in the folder, and `mpirr gather`
 * on that node writes them into the recording as one node pack (rank_pack.h). */
#ifndef MPIRR_LOCAL_FILES_H
#define MPIRR_LOCAL_FILES_H

#include <stddef.h>

#include "run_id.h"

/* The recording's folder "OUT/local" of placement files. */
#define MPIRR_LOCAL_SUBDIR "local"
/* The folder of one recording inside DIR: "mpirr-" and the run id's 32 digits. */
#define MPIRR_LOCAL_FOLDER_PREFIX "mpirr-"
#define MPIRR_LOCAL_FOLDER_NAME_MAX (sizeof MPIRR_LOCAL_FOLDER_PREFIX + MPIRR_RUN_ID_DIGITS)

typedef struct mpirr_placement {
    int rank;
    char host[256];   /* the node's host name */
    char folder[4096]; /* absolute: DIR/mpirr-<run id> */
    long pid;
} mpirr_placement;

/* A node's placement (--local --pack): which ranks' files its folder holds. */
typedef struct mpirr_node_placement {
    int node;          /* ordinal: its pack is node-<node>.pack */
    char host[256];
    char folder[4096];
    int *ranks;        /* ascending, each once (malloc'ed) */
    size_t nranks;
} mpirr_node_placement;

/* "mpirr-<run id>". */
void mpirr_local_folder_name(const mpirr_run_id *id, char out[MPIRR_LOCAL_FOLDER_NAME_MAX]);
/* The rank of a rank file's name ("rank-NNNNN.SUFFIX" or "sync-NNNNN-TTTT.SUFFIX", five digits
 * or more), or -1 for any other name. Async-signal-safe. */
int mpirr_local_rank_of(const char *name);
/* Whether s (from a placement file or a rank: untrusted) may go on a command line as a host:
 * letters, digits, '.', '-', '_' only, and never a leading '-' that ssh or srun would take for
 * an option. */
int mpirr_host_name_ok(const char *s);
/* The rank of a placement file's name ("rank-NNNNN", five digits or more), or -1. */
int mpirr_placement_rank_of(const char *name);
/* OUT/local/rank-NNNNN. */
void mpirr_placement_path(char *buf, size_t n, const char *out, int rank);
/* Writes p as OUT/local/rank-NNNNN (new; the folder exists). 0, or -1 with one line in err. */
int mpirr_placement_write(const char *out, const mpirr_placement *p, char *err, size_t errlen);
/* Reads the placement file at path (untrusted: the host must be a host name, the folder absolute
 * and named for the run id id). 0, or -1 with one line in err naming the file and the fault. */
int mpirr_placement_read(const char *path, int rank, const mpirr_run_id *id, mpirr_placement *p,
                         char *err, size_t errlen);
/* The node of a node placement file's name ("node-NNNNN", five digits or more), or -1. */
int mpirr_node_placement_node_of(const char *name);
/* OUT/local/node-NNNNN. */
void mpirr_node_placement_path(char *buf, size_t n, const char *out, int node);
/* Writes p as OUT/local/node-NNNNN (new; the folder exists), the ranks as ascending ranges
 * ("0-3,8"). 0, or -1 with one line in err. */
int mpirr_node_placement_write(const char *out, const mpirr_node_placement *p, char *err,
                               size_t errlen);
/* Reads the node placement file at path (untrusted, as mpirr_placement_read; the ranks ascending,
 * each below max_ranks). 0 (p->ranks to free), or -1 with one line in err naming the file. */
int mpirr_node_placement_read(const char *path, int node, const mpirr_run_id *id, int max_ranks,
                              mpirr_node_placement *p, char *err, size_t errlen);
void mpirr_node_placement_free(mpirr_node_placement *p);

/* Moves every file of rank (mpirr_local_rank_of) from the folder from into the folder to
 * (mpirr_file_move, through a temporary ".NAME.moving" in to). Async-signal-safe: a dying rank's
 * handler calls it. The number of the rank's files left in from (0: all moved), or -1 with errno
 * if from cannot be listed. */
int mpirr_local_move_rank(const char *from, const char *to, int rank);

#endif
