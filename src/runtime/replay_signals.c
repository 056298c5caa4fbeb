/* replay_signals.c: how a replayed rank ends, in its replay control slot (replay_control.h),
 * so that mpirr can say whether the replay ended as the recording did: a fault or abort()
 * (with the faulting pc's object and offset), MPI_Abort, exit() without MPI_Finalize,
 * divergence, or the end of a cut-off recording (endings.h). In a replay session (by default)
 * or with --hold-on-signal (the header's MPIRR_CTL_HOLD_ON_SIGNAL) a fault holds the rank
 * inside the signal handler, where a debugger attached to it sees the faulting frame, until
 * mpirr releases it; the signal then takes its course and the rank dies as it would have.
 *
 * The slot is stopline.c's (mpirr_control_slot): this file only writes how the rank ended (one
 * store publishes the state, after the fields it describes; stopline.c sends it to mpirr). */
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "endings.h"
#include "replay_control.h"
#include "runtime.h"
#include "settings.h"

__thread unsigned mpirr_tls_call __attribute__((tls_model("initial-exec")));

static mpirr_ctl_slot *slot;
static int ended;

int mpirr_locate_pc(const void *pc, char *module, size_t n, uint64_t *offset)
{
    Dl_info info;
    struct link_map *map = NULL;
    if (!pc || !dladdr1(pc, &info, (void **)&map, RTLD_DL_LINKMAP) || !map) return 0;
    const char *path = map->l_name && map->l_name[0] ? map->l_name : NULL;
    char exe[4096];
    if (!path) { /* the main program */
        ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (len <= 0) return 0;
        exe[len] = 0;
        path = exe;
    }
    snprintf(module, n, "%s", path);
    *offset = (uint64_t)((uintptr_t)pc - (uintptr_t)map->l_addr);
    return 1;
}

/* Where the rank is: inside call E (position 2E: it began, did not return) or after it (2E+1). */
static uint64_t position_now(uint64_t *event, int *in_call)
{
    return mpirr_pos_of_progress(__atomic_load_n(&slot->progress, __ATOMIC_RELAXED), event, in_call);
}

void mpirr_replay_ended(unsigned state, int detail, uint64_t pos)
{
    if (!slot || __atomic_exchange_n(&ended, 1, __ATOMIC_ACQ_REL)) return;
    uint64_t event;
    int in_call;
    uint64_t now = position_now(&event, &in_call);
    slot->held_pos = pos == MPIRR_POS_NONE ? now : pos;
    slot->call = mpirr_tls_call;
    mpirr_control_ending(state, detail);
}

void mpirr_replay_abort(int errorcode)
{
    if (!slot) return;
    /* mpirr answers the ABORTING slot with its view of the other ranks before it acknowledges
     * it, and sends it again whenever one of them changes */
    mpirr_replay_ended(MPIRR_CTL_ABORTING, errorcode, MPIRR_POS_NONE);
    long stall_ms = 1000 * (long)mpirr_setting_value(MPIRR_SET_STALL_SECONDS), still_ms = 0;
    uint64_t seen = 0, sum;
    int first = -1;
    struct timespec ms = {0, 1000 * 1000};
    int wait = stall_ms != 0; /* MPIRR_STALL_SECONDS=0: no wait */
    /* The ranks polled for are inside MPI calls or about to make them: MPI progress here may
     * be what completes a send of this rank's that they receive (a rendezvous), as it was when
     * recording, when this rank reached MPI_Abort later or the launcher took its time. */
    for (int n; wait && (n = mpirr_channel_abort_view(&first, &sum)) > 0; nanosleep(&ms, NULL)) {
        int flag;
        PMPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, mpirr_rt.have_shadow ? mpirr_rt.shadow : MPI_COMM_SELF,
                    &flag, MPI_STATUS_IGNORE);
        still_ms = sum == seen ? still_ms + 1 : 0;
        seen = sum;
        if (mpirr_control_cli_gone()) break; /* no verdict to keep, no view coming */
        if (still_ms < stall_ms) continue;
        mpirr_say("replay of rank %d: rank %d%s made no progress toward the end its "
                  "recorded run came to by itself for %ld s after this rank's MPI_Abort "
                  "(MPIRR_STALL_SECONDS): the job ends without it", mpirr_rt.rank, first,
                  n > 1 ? " and others" : "", stall_ms / 1000);
        break;
    }
    mpirr_control_ending(MPIRR_CTL_ABORTED, errorcode);
}

static const void *faulting_pc(const void *ucontext)
{
    const ucontext_t *uc = ucontext;
#if defined(__x86_64__)
    return (const void *)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    return (const void *)uc->uc_mcontext.pc;
#else
    (void)uc;
    return NULL;
#endif
}

/* "SIGSEGV", or "signal 40". */
static void signal_name(int sig, char *buf, size_t n)
{
    const char *abbrev = sigabbrev_np(sig);
    if (abbrev) snprintf(buf, n, "SIG%s", abbrev);
    else snprintf(buf, n, "signal %d", sig);
}

/* --hold-on-signal: says where the rank is held, and waits until the CLI sets a new stopline
 * that moves its stop past the position (a new generation: the stop in force when the signal
 * came may already lie past it), or until the CLI is gone. Polls, as a held rank at a stopline
 * does: the handler may run with any lock of the program held. */
static void hold_here(int sig, uint64_t pos, uint64_t event, int in_call)
{
    char name[32], where[160];
    signal_name(sig, name, sizeof name);
    /* the name of the call is this thread's if the latest event is its own */
    const char *call = mpirr_tls_event == event ? mpirr_call_name(mpirr_tls_call) : NULL;
    if (in_call)
        snprintf(where, sizeof where, "inside %s", call ? call : "that call");
    else
        snprintf(where, sizeof where, "in its own code after %s", call ? call : "that call");
    uint64_t generation = __atomic_load_n(&mpirr_control_header()->generation, __ATOMIC_ACQUIRE);
    slot->held_generation = generation;
    /* a debugger may attach to a held rank even where ptrace is limited to descendants */
    prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
    mpirr_control_ending(MPIRR_CTL_HELD_SIGNAL, sig);
    mpirr_say("rank %d got %s at event %llu (%s); held for a debugger (replay "
              "--no-hold-on-signal lets it die)",
              mpirr_rt.rank, name, (unsigned long long)event, where);
    struct timespec ts = {0, 2 * 1000 * 1000};
    for (unsigned polls = 1;; polls++) {
        if (__atomic_load_n(&mpirr_control_header()->generation, __ATOMIC_ACQUIRE) != generation &&
            __atomic_load_n(&slot->stop, __ATOMIC_ACQUIRE) > pos)
            break;
        /* the signal then ends the rank, as it would have without mpirr */
        if (polls % 500 == 0 && mpirr_control_cli_gone()) break;
        nanosleep(&ts, NULL);
    }
}

static void note_in_slot(int sig, siginfo_t *info, void *ucontext)
{
    (void)info;
    if (__atomic_exchange_n(&ended, 1, __ATOMIC_ACQ_REL)) return;
    uint64_t event;
    int in_call;
    uint64_t pos = position_now(&event, &in_call);
    slot->held_pos = pos;
    slot->call = mpirr_tls_call;
    slot->fault_offset = 0;
    slot->fault_module[0] = 0;
    mpirr_locate_pc(faulting_pc(ucontext), slot->fault_module, sizeof slot->fault_module,
                    &slot->fault_offset);
    if (mpirr_control_header()->flags & MPIRR_CTL_HOLD_ON_SIGNAL) hold_here(sig, pos, event, in_call);
    mpirr_control_ending(MPIRR_CTL_CRASHED, sig);
}

void mpirr_replay_signals_install(void)
{
    if (slot || !(slot = mpirr_control_slot())) return;
    /* the launcher's SIGTERM is not the program's doing: left to its default */
    mpirr_signal_guard_install(note_in_slot, 0);
}
