/* endings.h: how a rank's run ends, noted where mpirr looks for it afterwards: in the rank's
 * recording tail while recording (crash.c), in its replay control slot while replaying
 * (replay_signals.c). Both watch the same fatal signals through one guard (crash.c), which
 * notes the signal and then lets it take the course it would have taken without mpirr. */
#ifndef MPIRR_ENDINGS_H
#define MPIRR_ENDINGS_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

/* ---- crash.c: the fatal-signal guard shared by record and replay ---- */
/* Called first when a guarded signal arrives (async-signal context); when it returns, the
 * previous disposition is restored and the signal goes on to it. */
typedef void mpirr_signal_note(int sig, siginfo_t *info, void *ucontext);
/* Guards the signals the program raises itself (faults, abort()), and with sent_too also those
 * sent to it (SIGTERM, SIGINT, ...), with note; registers the exit() hook once. Signals the
 * program ignores stay ignored. mpirr_crash_guard_remove (runtime.h) undoes it. */
void mpirr_signal_guard_install(mpirr_signal_note *note, int sent_too);

/* ---- replay_signals.c: a replayed rank's ending, in its control slot ---- */
/* Replay steered by mpirr: guards the program's own fatal signals, which note the crash in
 * the slot (or hold the rank there, --hold-on-signal). Call after mpirr_control_start. */
void mpirr_replay_signals_install(void);
/* Notes how this replayed rank ends (enum mpirr_ctl_state; detail: signal or error code) at
 * position pos (replay_control.h; MPIRR_POS_NONE: where its progress says it is). The first
 * ending wins: the abort that follows a divergence, or an exit() inside MPI_Abort, is not how
 * the rank ended. Async-signal-safe; nothing when mpirr does not steer the replay. */
void mpirr_replay_ended(unsigned state, int detail, uint64_t pos);
/* A replayed MPI_Abort, before the MPI library ends the job: notes MPIRR_CTL_ABORTING (the
 * error code as detail) and waits until every other rank whose recorded run ended by itself
 * (the CLI's ends_itself) has ended or is held, so that another rank's abort never kills it
 * before the end it came to when recording; then notes MPIRR_CTL_ABORTED. Gives up, with one
 * line, once none of the awaited ranks has moved for MPIRR_STALL_SECONDS (or mpirr is gone).
 * Nothing when mpirr does not steer the replay. */
void mpirr_replay_abort(int errorcode);
/* The object holding pc (its path) and pc's offset from that object's load bias; 0 if
 * unknown. For a debugger or addr2line given the path. */
int mpirr_locate_pc(const void *pc, char *module, size_t n, uint64_t *offset);

#endif
