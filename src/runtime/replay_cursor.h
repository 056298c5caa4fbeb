/* replay_cursor.h: replay mode's reading of the rank log (replay_cursor.c): the records that
 * fix each call's outcome, handed to the files that make those calls, and where the recording
 * ends (a rank that reaches that end is held there). */
#ifndef MPIRR_REPLAY_CURSOR_H
#define MPIRR_REPLAY_CURSOR_H

#include <stddef.h>
#include <stdint.h>

#include "runtime.h"

struct replay_cursor *mpirr_cursor_open(const char *path, char *err, size_t errlen);
void mpirr_cursor_close(struct replay_cursor *cur);
/* The in-order record keyed at this call, or NULL if the recording has none there (then the
 * call had no nondeterministic outcome worth a record, e.g. an unsuccessful test). Consumes. */
int mpirr_replay_take(const mpirr_call *c, mpirr_record *out);
/* Like take, but the call cannot go on without it: a missing record is divergence (or the end
 * of a cut-off recording). */
void mpirr_replay_expect(const mpirr_call *c, unsigned kind, const char *what, mpirr_record *out);
/* Likewise for one of the call's several records, told apart by sub (the turns of an eager
 * MPI_Win_lock_all, one per target): a threaded recording's are found by (event, sub). */
void mpirr_replay_expect_sub(const mpirr_call *c, uint32_t sub, unsigned kind, const char *what,
                             mpirr_record *out);
/* The deferred record of kind keyed (event, sub); 0 if the recording has none. */
int mpirr_replay_deferred(uint64_t event, uint32_t sub, unsigned kind, mpirr_record *out);
/* Describes the next in-order record for error messages. */
void mpirr_cursor_describe_next(char *buf, size_t n);
const mpirr_log_header *mpirr_cursor_header(struct replay_cursor *cur);
/* MPI_THREAD_MULTIPLE recordings: reads every MPI record into the map, found by key event
 * (records follow the order calls returned in, not their events'). */
void mpirr_cursor_preload_threaded(struct replay_cursor *cur);
/* Races mode: reads every RECV_DONE record of the log at path into the deferred map. */
void mpirr_cursor_preload(struct replay_cursor *cur, const char *path);
/* Positions on the first record; call once the runtime is active. */
void mpirr_cursor_start(struct replay_cursor *cur);
/* The event before which the replay must hold this rank (0: none). */
uint64_t mpirr_cursor_hold_event(struct replay_cursor *cur);

/* The replay reached the point where the recorded run was stopped from outside (killed,
 * signalled, recording stopped early): hold the rank there until the CLI ends the job. */
_Noreturn void mpirr_hold_at_end(const mpirr_call *c);
/* The same before what (a call's name) at event. */
_Noreturn void mpirr_hold_before(uint64_t event, const char *what);

#endif
