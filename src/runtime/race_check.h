/* race_check.h: races mode's on-the-fly race detection (Netzer & Miller, Figure 3, with the
 * MPI matching rules of PDT), deciding for each MPI_ANY_SOURCE receive whether its outcome
 * must be logged. docs/races.md has the rule and the proof that logging these receives (and
 * only the earlier receive of each race) makes source-forcing replay exact.
 *
 * A wildcard receive is "posted" from its post to its completion, then "done" until a verdict:
 *  - raced: a message from another source, acceptable to it (communicator, tag), arrived at
 *    another receive of this rank while it was posted, or afterwards with a send that did not
 *    happen after its completion (the header's entry for this rank is below its completion
 *    event). Its outcome is logged (a RECV_DONE record keyed by its post).
 *  - closed: every other rank that can send on its communicator has sent this rank a message
 *    that happened after its completion, and every message it sent before that one has been
 *    received. No race is possible any more; nothing is logged.
 * Undecided outcomes wait in the mapped pending file (pending_slots.h), so a rank that dies
 * leaves them readable; when that bound fills, the oldest is logged (safe). At MPI_Finalize
 * the ranks exchange how many messages each sent to each other: if every message sent to this
 * rank was received, the remaining receives are closed, otherwise logged.
 * Every function but mpirr_race_next_seq takes the runtime lock itself. */
#ifndef MPIRR_RACE_CHECK_H
#define MPIRR_RACE_CHECK_H

#include <mpi.h>
#include <stdint.h>

#include "comm_registry.h"

int mpirr_race_init(void);
/* MPI_Finalize: exchanges message counts, reaches every verdict, frees everything. */
void mpirr_race_finish(void);
/* Drops all state without verdicts (the pending file keeps them): abort paths. */
/* The recording stopped early: the outcomes undecided now stay in the pending file, which is
 * no longer written nor removed (the races checking itself goes on: peers expect headers). */
void mpirr_race_keep_pending(void);
void mpirr_race_abandon(void);

/* A receive with MPI_ANY_SOURCE was posted (key: the post event and index, call id). Returns
 * the entry's id, or -1 when the runtime is not in races mode. */
int mpirr_race_posted(const mpirr_comm_info *ci, int tag, uint64_t key, uint32_t sub, unsigned call);
/* A message arrived (its header was read): seq and knows_me from the header (seq 0: a
 * message without a number, sent while its sender's clock was all zero, knows_me 0), src its
 * sender's world rank; receiver is the id of the wildcard entry that received it, or -1. */
void mpirr_race_arrived(const mpirr_comm_info *ci, int src, int tag, uint64_t seq,
                        uint64_t knows_me, int receiver);
/* Entry id completed: matched (source, tag as in the status; src its world rank), or
 * cancelled, or failed before matching (has_match 0). One that waits for a verdict advances
 * this rank's clock (vector_clock.h). */
void mpirr_race_completed(int id, int has_match, int source, int tag, int src, int cancelled);
/* Entry id will never complete (freed, or its receive call failed). */
void mpirr_race_dropped(int id);

/* At a collective that orders every member before every other (collective_clock.c): whether
 * this rank has enough undecided receives to want the members to exchange message counts
 * (the members agree through the collective's own reduction), and the exchange itself: once
 * every message a member sent before the collective is in, the rest it sends know this
 * rank's clock entry `knows` (its value in the merge), which closes the receives completed
 * before it even if that member never sends here. */
int mpirr_race_wants_counts(void);
void mpirr_race_exchange_counts(const mpirr_comm_info *ci, uint64_t knows);

/* Counts a message to world rank dest and returns its number (caller holds the lock). */
uint64_t mpirr_race_next_seq(int dest);

#endif
