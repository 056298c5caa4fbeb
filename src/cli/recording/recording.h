/* recording.h: an existing recording as replay and stat see it: the absolute directory and
 * its manifest, completed from the rank logs when `mpirr record` could not finish it. */
#ifndef MPIRR_CLI_RECORDING_H
#define MPIRR_CLI_RECORDING_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "manifest.h"

struct recording {
    const char *name;  /* the directory as the user wrote it, for messages */
    char dir[PATH_MAX];
    mpirr_manifest m;
};

/* 0, or an exit status after a one-line message (no such directory, bad manifest, a file of
 * another recording in it). From then on every reader expects the manifest's run id. */
int recording_open(const char *dir_arg, struct recording *r);
void recording_close(struct recording *r);

/* path receives <dir>/rank-NNNNN.log. */
void recording_log_path(char *path, size_t n, const char *dir, int rank);

/* Fills nranks, exe and fingerprint of m from the rank logs in dir (which must carry m's run
 * id, expected from then on): nranks from rank 0's
 * header (else the number of rank logs), exe and fingerprint from rank 0's header. Warns
 * (one line) when they disagree with rank 0; no logs at all is nranks 0, and the caller says
 * what that means for it. */
void recording_fill_from_logs(const char *dir, mpirr_manifest *m);

/* A new recording's run id: 128 bits from getrandom(2), never none (run_id.h). 0, or
 * CLI_EXIT_FAIL after a one-line message. */
int recording_new_run_id(mpirr_run_id *id);
/* The manifest of a new recording as known before its run (the rest is filled in afterwards:
 * recording_fill_from_logs, exit_status). 0, or CLI_EXIT_FAIL after "out of memory". */
int recording_manifest_start(mpirr_manifest *m, const mpirr_run_id *run_id, const char *mode,
                             const char *mpi, int wtime, const char *cwd, int argc,
                             char *const *argv);
/* Writes dir/manifest: 0, or -1 after a one-line message. */
int recording_manifest_write(const char *dir, const mpirr_manifest *m);

/* One record of a rank log, as tools cross-check it against the event history. */
struct log_key {
    uint64_t event;
    unsigned call, kind; /* call id, record kind (record.h) */
};
/* The keys of rank's log records that name an event, sorted by event; NULL with *n = SIZE_MAX
 * if the log cannot be read (reported). */
struct log_key *recording_log_keys(const char *dir, int rank, size_t *n);

#endif
