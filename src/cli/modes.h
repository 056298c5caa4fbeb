/* modes.h: the recording modes (what `mpirr record --mode` records). A mode is one row of the
 * table in modes.c; its name reaches the runtime as MPIRR_RECORD_MODE=<name> and is stored in
 * the manifest (replay needs nothing: the runtime reads the mode from the log header).
 *
 *   sources  (default) the outcome of every wildcard receive, no piggyback
 *   races    vector timestamps piggybacked on every point-to-point message; only the
 *            wildcard receives that actually raced are logged (Netzer & Miller); Test/Iprobe
 *            counts, Waitany/Waitsome choices and MPI_Wtime are logged as in sources
 *   all      the traditional baseline: the source of every received message, no piggyback
 *            (for comparison) */
#ifndef MPIRR_CLI_MODES_H
#define MPIRR_CLI_MODES_H

struct rec_mode {
    const char *name; /* as given to --mode, passed as MPIRR_RECORD_MODE, in the manifest */
};

/* The default mode (the first row). */
const struct rec_mode *rec_mode_default(void);
/* NULL for a name that is not a mode. */
const struct rec_mode *rec_mode_find(const char *name);
/* "sources, ...": for the error message listing the valid modes. */
const char *rec_mode_valid_names(void);

#endif
