/* crash.c: makes a dying program leave a recording that says how it died. Records themselves
 * are already safe (the writer stages them in a mapped file); this only notes the ending:
 * a fatal signal, or exit() without MPI_Finalize. Handlers chain to whatever was installed
 * before (e.g. the MPI library's own backtrace handler) so behaviour is otherwise unchanged. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT,
                                    SIGTERM, SIGINT, SIGQUIT, SIGHUP, SIGPIPE};
enum { NSIG_GUARDED = sizeof fatal_signals / sizeof fatal_signals[0] };
static struct sigaction previous[NSIG_GUARDED];
static int installed, atexit_registered;

static void on_signal(int sig)
{
    for (int i = 0; i < NSIG_GUARDED; i++) {
        if (fatal_signals[i] != sig) continue;
        mpirr_log_set_ending(mpirr_rt.writer, MPIRR_END_SIGNAL, sig);
        /* Re-deliver to the previous disposition: for faults, returning re-executes the
         * faulting instruction, which then meets the restored handler. */
        sigaction(sig, &previous[i], NULL);
        if (sig != SIGSEGV && sig != SIGBUS && sig != SIGFPE && sig != SIGILL) raise(sig);
        return;
    }
}

static void on_exit_without_finalize(void)
{
    if (!mpirr_rt.active || !mpirr_rt.writer) return;
    mpirr_log_set_ending(mpirr_rt.writer, MPIRR_END_EXIT, 0);
}

void mpirr_crash_guard_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_NODEFER;
    for (int i = 0; i < NSIG_GUARDED; i++) {
        struct sigaction old;
        sigaction(fatal_signals[i], NULL, &old);
        if (old.sa_handler == SIG_IGN) continue; /* the program ignores it: not fatal */
        previous[i] = old;
        sigaction(fatal_signals[i], &sa, NULL);
    }
    installed = 1;
    if (!atexit_registered) {
        atexit(on_exit_without_finalize);
        atexit_registered = 1;
    }
}

void mpirr_crash_guard_remove(void)
{
    if (!installed) return;
    for (int i = 0; i < NSIG_GUARDED; i++) {
        struct sigaction cur;
        sigaction(fatal_signals[i], NULL, &cur);
        if (cur.sa_handler == on_signal) sigaction(fatal_signals[i], &previous[i], NULL);
    }
    installed = 0;
}
