/* crash.c: makes a dying program leave a record of how it died. Records themselves are
 * already safe (the writer stages them in a mapped file); this only notes the ending: a fatal
 * signal, or exit() without MPI_Finalize. The guard here serves both modes (endings.h): while
 * recording it notes the ending in the tail, while replaying replay_signals.c notes it in the
 * control slot. Handlers chain to whatever was installed before (e.g. the MPI library's own
 * backtrace handler) so behaviour is otherwise unchanged. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "endings.h"
#include "replay_control.h"
#include "runtime.h"

/* The first NSIG_OWN come from the program itself (a replay meets them again); the others are
 * sent to it, by the user or the launcher. */
static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT,
                                    SIGTERM, SIGINT, SIGQUIT, SIGHUP, SIGPIPE};
enum { NSIG_GUARDED = sizeof fatal_signals / sizeof fatal_signals[0], NSIG_OWN = 5 };
static struct sigaction previous[NSIG_GUARDED];
static mpirr_signal_note *note_fn;
static int installed, atexit_registered;

static int is_fault(int sig)
{
    return sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL;
}

static void on_signal(int sig, siginfo_t *info, void *ucontext)
{
    for (int i = 0; i < NSIG_GUARDED; i++) {
        if (fatal_signals[i] != sig) continue;
        note_fn(sig, info, ucontext);
        /* Re-deliver to the previous disposition: for faults, returning re-executes the
         * faulting instruction, which then meets the restored handler. */
        sigaction(sig, &previous[i], NULL);
        if (!is_fault(sig)) raise(sig);
        return;
    }
}

static void note_in_tail(int sig, siginfo_t *info, void *ucontext)
{
    (void)info, (void)ucontext;
    mpirr_log_set_ending(mpirr_rt.writer, MPIRR_END_SIGNAL, sig);
    mpirr_local_finish();
}

/* on_exit, not atexit: the ending keeps the status the program exited with */
static void on_exit_without_finalize(int status, void *arg)
{
    (void)arg;
    if (!mpirr_rt.active) return;
    if (mpirr_rt.writer) mpirr_log_set_ending(mpirr_rt.writer, MPIRR_END_EXIT, status);
    else if (mpirr_rt.mode == MPIRR_MODE_REPLAY) mpirr_replay_ended(MPIRR_CTL_EXITED, status, MPIRR_POS_NONE);
}

void mpirr_signal_guard_install(mpirr_signal_note *note, int sent_too)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    note_fn = note;
    int n = sent_too ? NSIG_GUARDED : NSIG_OWN;
    for (int i = 0; i < NSIG_GUARDED; i++) {
        struct sigaction old;
        sigaction(fatal_signals[i], NULL, &old);
        previous[i] = old;
        /* unguarded, or the program ignores it: not fatal */
        if (i >= n || old.sa_handler == SIG_IGN) continue;
        sigaction(fatal_signals[i], &sa, NULL);
    }
    installed = 1;
    if (!atexit_registered) {
        on_exit(on_exit_without_finalize, NULL);
        atexit_registered = 1;
    }
}

void mpirr_crash_guard_install(void) { mpirr_signal_guard_install(note_in_tail, 1); }

void mpirr_crash_guard_remove(void)
{
    if (!installed) return;
    for (int i = 0; i < NSIG_GUARDED; i++) {
        struct sigaction cur;
        sigaction(fatal_signals[i], NULL, &cur);
        if ((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == on_signal)
            sigaction(fatal_signals[i], &previous[i], NULL);
    }
    installed = 0;
}
