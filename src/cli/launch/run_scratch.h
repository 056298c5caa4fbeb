/* run_scratch.h: this mpirr's private directory for a replay's files: the ranks' one-line
 * errors and the notes of ranks held where their recording ends, which mpirr writes from what
 * the ranks send it (replayctl/control_server.h; the ranks never read the directory). They live outside the recording so that any number of replays of one
 * recording run side by side, and a recording on a read-only mount or a full disk replays.
 *
 * The directory is made at the first use (mkdtemp, mode 0700) under $MPIRR_TMPDIR, else
 * $TMPDIR, else /tmp, and removed with what is in it when mpirr exits, also after SIGINT,
 * SIGTERM or SIGHUP; only SIGKILL leaves it behind. */
#ifndef MPIRR_CLI_RUN_SCRATCH_H
#define MPIRR_CLI_RUN_SCRATCH_H

#include <stddef.h>

/* The path of name inside the directory (made now if it is not yet) into out. 0, or -1
 * after a message. */
int run_scratch_path(const char *name, char *out, size_t n);
/* Leaves name (a file inside the directory) and the directory in place at exit: the user is
 * told to read it. */
void run_scratch_keep(const char *name);

#endif
