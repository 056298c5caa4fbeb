/* mpi_unreplayed.h: the MPI calls a recorded program made whose outcomes mpirr does not replay
 * (the UNREPLAYED rows of mpi_calls.def: one-sided lock grants, fetched values and accumulates,
 * shared file pointers, dynamic processes), per rank and per call, as the ranks' tails counted
 * them; and the words that name them: the clause of the replay's verdict ("but not exact: rank
 * 1 called MPI_Fetch_and_op 6 times, ...") and `mpirr stat`'s lines. */
#ifndef MPIRR_CLI_RECORDING_MPI_UNREPLAYED_H
#define MPIRR_CLI_RECORDING_MPI_UNREPLAYED_H

#include <stddef.h>
#include <stdint.h>

#include "call_ids.h"
#include "rank_log.h"

struct mpi_unreplayed_rank {
    int rank;
    uint64_t calls[MPIRR_CALL_ID_LIMIT]; /* by call id; only UNREPLAYED ids are non-zero */
};

struct mpi_unreplayed {
    struct mpi_unreplayed_rank *ranks; /* the ranks that made such calls, in rank order */
    int n;
};

/* calls[id] = the rank's calls of each UNREPLAYED id (0 for the rest); returns whether any. */
int mpi_unreplayed_read(const mpirr_log_reader *rd, uint64_t calls[MPIRR_CALL_ID_LIMIT]);
/* Reads the tails of the rank logs of dir (ranks 0..nranks-1; an unreadable log adds nothing). */
void mpi_unreplayed_from_logs(struct mpi_unreplayed *u, const char *dir, int nranks);
void mpi_unreplayed_free(struct mpi_unreplayed *u);
/* "MPI_Fetch_and_op 6 times, MPI_Win_lock 6 times" (by name); "" when none. */
void mpi_unreplayed_list(const uint64_t calls[MPIRR_CALL_ID_LIMIT], char *buf, size_t n);
/* "rank 1 called MPI_Fetch_and_op 6 times, MPI_Win_lock 6 times; rank 2 called ...: their
 * outcomes (the order of the lock grants, the values fetched) are not replayed" (up to
 * MPI_UNREPLAYED_NAMED_RANKS ranks, then "and N more ranks"); "" when no rank made such calls. */
enum { MPI_UNREPLAYED_NAMED_RANKS = 8 };
void mpi_unreplayed_clause(const struct mpi_unreplayed *u, char *buf, size_t n);

#endif
