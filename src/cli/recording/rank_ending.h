/* rank_ending.h: how a rank's recording ended, in words, as stat and the races report say it. */
#ifndef MPIRR_CLI_RANK_ENDING_H
#define MPIRR_CLI_RANK_ENDING_H

#include <stddef.h>

/* A rank's ending as read from its log (rank_log.h): missing and readable say whether there
 * was a log to read at all; ending is enum mpirr_log_ending, detail its number. */
struct rank_ending {
    int missing, readable;
    int ending, detail;
};

/* "finalized", "signal 11 (SIGSEGV)", "MPI_Abort(3)", "cut off", "no log" or "unreadable". */
void rank_ending_text(const struct rank_ending *e, char *out, size_t n);
/* Whether the ending carries a detail number (signal, abort code, exit status). */
int rank_ending_has_detail(int ending);

#endif
