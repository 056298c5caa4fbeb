/* pending_slots.h: the verdicts races mode has not reached yet, kept where a dying process
 * cannot lose them (rank-NNNNN.pending, a small file mapped into memory).
 *
 * In races mode a wildcard receive is logged only once a later message shows it raced, or
 * dropped once no message can race with it any more; until then its outcome sits in a slot
 * here. If the rank dies (even by SIGKILL) the slots still hold every undecided outcome, and
 * the log reader returns them as RECV_DONE records: logging too much is always safe. A clean
 * end removes the file. Layout in docs/format.md. */
#ifndef MPIRR_PENDING_SLOTS_H
#define MPIRR_PENDING_SLOTS_H

#include <stddef.h>
#include <stdint.h>

#include "record.h"

#include "run_id.h"

#define MPIRR_PENDING_MAGIC "MPIRRPD3"
#define MPIRR_PENDING_MAGIC_V2 "MPIRRPD2" /* no run id; still read */
enum { PENDING_HEADER_BYTES = 64, PENDING_SLOT_BYTES = 32,
       PENDING_RUN_ID = 16 /* the run id, checked (MPIRR_RUN_ID_CHECKED_BYTES) */ };

typedef struct mpirr_pending_slots mpirr_pending_slots;

/* Creates <dir>/rank-NNNNN.pending with room for capacity outcomes (the file's blocks are
 * allocated: a full disk fails here, not in a later store). NULL on error (err). */
mpirr_pending_slots *mpirr_pending_open(const char *dir, int rank, const mpirr_run_id *run_id,
                                        uint32_t capacity, char *err, size_t errlen);
/* Makes room for capacity slots (more than now): the file is extended and allocated first,
 * then its header says so. -1 on failure (err: e.g. a full disk), with the slots as they were. */
int mpirr_pending_grow(mpirr_pending_slots *p, uint32_t capacity, char *err, size_t errlen);
/* Stores r (a RECV_DONE outcome) in slot i, then marks it live. Async-signal-safe. */
void mpirr_pending_set(mpirr_pending_slots *p, uint32_t i, const mpirr_record *r);
void mpirr_pending_clear(mpirr_pending_slots *p, uint32_t i);
/* Unmaps; removes the file when remove is set (every verdict was reached). */
void mpirr_pending_close(mpirr_pending_slots *p, int remove);

/* Reader side: the live slots of the file at path, as RECV_DONE records (malloc'ed array in
 * *out, count in *n). 1 loaded, 0 the file is absent, -1 damaged (one line in err),
 * MPIRR_PENDING_OTHER_RUN when its run id is not the recording's (mpirr_run_id_check against
 * the expected id, else sibling: its log's; one line in err). */
#define MPIRR_PENDING_OTHER_RUN (-2)
int mpirr_pending_load(const char *path, const mpirr_run_id *sibling, mpirr_record **out,
                       size_t *n, char *err, size_t errlen);

#endif
