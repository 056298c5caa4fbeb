/* rank_gdbs.h: the session's persistent debuggers: one gdb/MI child (gdb_mi.h) per rank,
 * attached on first use and kept, so that breakpoints and watchpoints survive the session's
 * continue and step. docs/cli/replay.md, "Persistent gdbs".
 *
 * The design: an attached rank runs under its gdb (`-exec-continue` in the background) whenever
 * the session lets it run - also while the runtime holds it at a stopline, where it waits in
 * mpirr_stopline_held's loop. For a command, its gdb interrupts it, runs the command and lets it
 * run again. A breakpoint or watchpoint that stops it is reported in one line, "rank R stopped
 * at breakpoint N, FILE:LINE (FUNC)", and the rank then counts as held for the session (its gdb
 * keeps it stopped) until the session releases ranks again (continue, or a step of that rank).
 * A rank on another host gets its gdb there, through the remote shell (gdb_remote.h).
 *
 * Before the job is re-executed (undo) or ended, every gdb detaches; gdbs whose rank had
 * breakpoints or watchpoints re-attach to the rank's new process as soon as it reports, so the
 * points are inserted again. `gdb R` borrows the rank (rank_gdbs_lend). The gdbs are marked as
 * the session's own tracers (rank_process.h), never waited for as a user's debugger. */
#ifndef MPIRR_CLI_REPLAYCTL_RANK_GDBS_H
#define MPIRR_CLI_REPLAYCTL_RANK_GDBS_H

#include <stdio.h>

struct replay_control;
struct gdb_mi;
struct rank_gdbs;

/* What a command makes of one rank's gdb after its commands ran (on_ranks). */
typedef void (*rank_gdb_fn)(int rank, struct gdb_mi *g, void *arg, FILE *out);

struct rank_gdbs *rank_gdbs_new(struct replay_control *control, int nranks);
/* Detaches every gdb and ends them. NULL is fine. */
void rank_gdbs_free(struct rank_gdbs *d);

/* Runs cmds (n MI or CLI lines) in the gdb of every rank of set (nranks bytes), in parallel,
 * attaching first where needed (a rank that cannot be attached gets one line on out and is
 * skipped); then calls fn for each rank in order, with its gdb holding the last command's
 * results and console text. transient: ranks without a gdb get one for this call only. The
 * ranks run on as before. 0, or -1 if no rank could be reached. */
int rank_gdbs_on(struct rank_gdbs *d, const unsigned char *set, const char *const *cmds, int n,
                 int transient, rank_gdb_fn fn, void *arg, FILE *out);
/* Reads what the gdbs of running ranks reported: a stop at a breakpoint, a watchpoint, a
 * signal gets its line on out and holds the rank. Cheap; the session calls it while it waits. */
void rank_gdbs_poll(struct rank_gdbs *d, FILE *out);
/* "breakpoint 1, prog.c:30 (settle)" if rank's gdb holds it stopped, else NULL. */
const char *rank_gdbs_held(const struct rank_gdbs *d, int rank);
/* After rank's gdb stepped it: where it stopped (held again, stop its text), or, with stop
 * NULL, that the runtime holds it now (its gdb lets it run in the stopline's loop). */
void rank_gdbs_stepped(struct rank_gdbs *d, int rank, const char *stop);
/* Whether rank has a gdb (attached or waiting to re-attach). */
int rank_gdbs_has(const struct rank_gdbs *d, int rank);
/* Breakpoints or watchpoints were set in rank's gdb: after a relaunch it re-attaches at once. */
void rank_gdbs_note_points(struct rank_gdbs *d, int rank);
/* `next` (into 0) or `step` into calls (into 1) of a rank its gdb holds, whose runtime stop is
 * then stop (the session set it: just before its next event). Waits for gdb's stop: the rank is
 * held by its gdb again (its line on out), or it reached its stop and the runtime holds it
 * (its gdb lets it wait there), or it blocked (interrupted, held by its gdb). 1 if the runtime
 * holds it, 0 if its gdb does, -1 after a line (no gdb holds it, its process ended). */
int rank_gdbs_next(struct rank_gdbs *d, int rank, int into, unsigned long long stop,
                   double stall_s, FILE *out);
/* Process record (gdb's `record full`) of a rank its gdb holds: on 1 starts it, on 0 ends it
 * (the rank is live where it is). The record ends by itself when the rank reaches its next MPI
 * call, runs on (continue, step) or is detached. 0, or -1 after a line. */
int rank_gdbs_record(struct rank_gdbs *d, int rank, int on, FILE *out);
/* Steps a recorded rank back (how: "next", "step", "continue": gdb's -exec-HOW --reverse)
 * within its record; held by its gdb where it stops (its line on out). 0, or -1 after a line. */
int rank_gdbs_reverse(struct rank_gdbs *d, int rank, const char *how, FILE *out);
/* The session releases ranks: every rank its gdb holds (only that one, if only >= 0) runs on. */
void rank_gdbs_release(struct rank_gdbs *d, int only);
/* Before the job is re-executed (relaunch 1: re-attach to the new ranks that had points) or
 * ended: every gdb detaches. */
void rank_gdbs_detach_all(struct rank_gdbs *d, int relaunch);
/* `gdb R` is about to attach (back 0): rank's gdb detaches (-1 and a line if it holds the rank
 * at a breakpoint: detached, the rank would run away); then (back 1) re-attaches, inserting
 * its points again. */
int rank_gdbs_lend(struct rank_gdbs *d, int rank, int back, FILE *out);

#endif
