/* manifest.h: the small text file "manifest" at the top of a recording directory. Written by
 * `mpirr record` before launch and completed after the run; see docs/format.md. */
#ifndef MPIRR_MANIFEST_H
#define MPIRR_MANIFEST_H

#include <stddef.h>
#include <stdint.h>

#include "run_id.h"

#define MPIRR_MANIFEST_VERSION 1
/* The most ranks a recording can name: readers refuse more as damage rather than allocate
 * for them (the event history's communicators have the same bound). */
#define MPIRR_MAX_RANKS (1 << 24)
#define MPIRR_MAX_RANKS_TEXT "16777216"
/* File where the ranks append their one-line errors during a run (the CLI relays and removes
 * it): in the recording directory while recording, in mpirr's private directory during a
 * replay (which must not write into the recording). */
#define MPIRR_ERRLOG_NAME "runtime-errors"
/* File in the recording directory where a replay notes the ranks it holds at their recorded
 * end (src/cli/replayctl/replay_hold.c). */
#define MPIRR_HOLDLOG_NAME "replay-held"

typedef struct mpirr_manifest {
    int version;
    char mode[32];        /* "sources" */
    char mpi[32];         /* "openmpi" or "mpich" */
    int wtime;            /* MPI_Wtime values recorded */
    char cwd[4096];
    int argc;
    char **argv;          /* the recorded command line, heap-owned */
    int64_t created;      /* seconds since the epoch */
    mpirr_run_id run_id;  /* every file of the recording carries it (run_id.h); none in a
                             manifest of an mpirr before run ids */
    /* filled in after the run (absent while the run is going on, or if mpirr was killed) */
    int nranks;           /* -1 unknown */
    char exe[4096];       /* application executable, "" unknown */
    uint64_t fingerprint; /* fingerprint.h of exe, 0 unknown */
    int exit_status;      /* launcher's exit status, -1 unknown */
    /* record --local (local_files.h) */
    char local_dir[4096]; /* the ranks' node-local DIR, "" without --local */
    int local_pending;    /* ranks whose files are still on their nodes: 0 complete */
} mpirr_manifest;

void mpirr_manifest_init(mpirr_manifest *m);
/* Writes <dir>/manifest atomically (temp file + rename). 0 ok, -1 error with message. */
int mpirr_manifest_write(const char *dir, const mpirr_manifest *m, char *err, size_t errlen);
/* 0 ok; -1 with a one-line message naming the file and what is wrong. */
int mpirr_manifest_read(const char *dir, mpirr_manifest *m, char *err, size_t errlen);
void mpirr_manifest_free(mpirr_manifest *m);

#endif
