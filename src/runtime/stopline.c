/* stopline.c: the rank's side of the replay control file (replay_control.h). In a replay the
 * rank publishes its progress in its slot, and reads there the position it must stop at: when
 * a call reaches it (before the call is made, or just after it returned), the rank notes where
 * it is and the application's call site, lets any debugger attach, and waits in the runtime
 * until mpirr moves the stop on. How it ends (finished, crashed, ...) goes to the slot too. */
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <link.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "endings.h"
#include "replay_control.h"
#include "runtime.h"
#include "settings.h"

static const uint64_t no_stop = MPIRR_POS_NONE;
static mpirr_ctl ctl;
static mpirr_ctl_slot *slot;

/* Before the control file is mapped, and after the rank leaves it: nothing stops a call. */
__attribute__((constructor)) static void no_stopline(void) { mpirr_rt.stop = &no_stop; }

void mpirr_control_start(void)
{
    const char *path = mpirr_setting_text(MPIRR_SET_CONTROL);
    if (!path) return;
    char err[600];
    if (mpirr_ctl_open(&ctl, path, mpirr_rt.nranks, err, sizeof err)) {
        /* the file is in mpirr's private directory, on mpirr's host (docs/cli/replay.md) */
        int gone = errno == ENOENT;
        mpirr_fatal("replay of rank %d: %s%s", mpirr_rt.rank, err,
                    gone ? " (a rank on another host than mpirr's finds it only if MPIRR_TMPDIR "
                           "is a directory both hosts share)" : "");
    }
    slot = mpirr_ctl_slot_of(&ctl, mpirr_rt.rank);
    slot->pid = (int32_t)getpid();
    if (gethostname(slot->host, sizeof slot->host - 1) != 0) strcpy(slot->host, "?");
    __atomic_store_n(&slot->progress, *mpirr_rt.progress, __ATOMIC_RELAXED);
    mpirr_rt.progress = &slot->progress;
    mpirr_rt.stop = &slot->stop;
    __atomic_store_n(&slot->state, MPIRR_CTL_RUNNING, __ATOMIC_RELEASE);
}

void mpirr_control_ending(unsigned state, int detail)
{
    if (!slot) return;
    slot->signal = detail;
    __atomic_store_n(&slot->state, state, __ATOMIC_RELEASE);
    if (state == MPIRR_CTL_HELD_SIGNAL) return;
    mpirr_rt.stop = &no_stop;
    /* the mapping stays: a signal handler may still store the progress word (it is dropped
     * when the process ends) */
}

mpirr_ctl_slot *mpirr_control_slot(void) { return slot; }

const mpirr_ctl_header *mpirr_control_header(void) { return slot ? ctl.h : NULL; }

int mpirr_control_cli_gone(void)
{
    /* a pid means something on its own host only: a rank elsewhere cannot tell (and kill
     * would look at whatever process has that number here) */
    if (!slot || ctl.h->cli_pid <= 0 ||
        (ctl.h->cli_host[0] && strncmp(ctl.h->cli_host, slot->host, sizeof slot->host)))
        return 0;
    return kill(ctl.h->cli_pid, 0) && errno == ESRCH;
}

/* Whether the object at base is part of mpirr or of the MPI library: its frames are not the
 * application's call site (MPICH's Fortran bindings call the C functions mpirr wraps). */
static int is_mpi_or_mpirr(const char *path, const void *base)
{
    static Dl_info self;
    if (!self.dli_fbase) dladdr((void *)mpirr_control_start, &self);
    if (base == self.dli_fbase) return 1;
    const char *name = strrchr(path, '/');
    name = name ? name + 1 : path;
    static const char *const mpi_libs[] = {"libmpi", "libpmpi", "libopen-", "libmpich",
                                           "libmpifort", "libmpicxx", "libmpl"};
    for (size_t i = 0; i < sizeof mpi_libs / sizeof mpi_libs[0]; i++)
        if (!strncmp(name, mpi_libs[i], strlen(mpi_libs[i]))) return 1;
    return 0;
}

/* The application's call site: the first frame outside mpirr and the MPI library. */
static void find_call_site(void)
{
    void *frames[64];
    int n = backtrace(frames, 64);
    slot->site_offset = 0;
    slot->site_module[0] = 0;
    for (int i = 1; i < n; i++) {
        Dl_info info;
        if (!dladdr(frames[i], &info) || !info.dli_fname) continue;
        if (is_mpi_or_mpirr(info.dli_fname, info.dli_fbase)) continue;
        mpirr_locate_pc(frames[i], slot->site_module, sizeof slot->site_module, &slot->site_offset);
        return;
    }
}

/* Waits until mpirr moves the stop past pos. A held rank outlives nothing: if mpirr itself is
 * gone (killed), nobody will release it, so it ends the job rather than wait forever. */
static void wait_released(uint64_t pos)
{
    struct timespec ts = {0, 2 * 1000 * 1000};
    for (unsigned polls = 1; __atomic_load_n(&slot->stop, __ATOMIC_ACQUIRE) <= pos; polls++) {
        nanosleep(&ts, NULL);
        if (polls % 500 == 0 && mpirr_control_cli_gone())
            mpirr_fatal("replay of rank %d: mpirr, which held it %s event %llu, is gone; ending "
                        "the job", mpirr_rt.rank, mpirr_pos_is_after(pos) ? "after" : "before",
                        (unsigned long long)mpirr_pos_event(pos));
    }
}

/* Called once the rank is held: a debugger's breakpoint (the mpirr gdb extension continues a
 * rank it is attached to until it stops here again). Never inlined, so the symbol is there. */
__attribute__((noinline)) void mpirr_stopline_held(void) { __asm__ volatile(""); }

void mpirr_stopline_reached(uint64_t pos, unsigned id)
{
    if (!slot || pos < __atomic_load_n(&slot->stop, __ATOMIC_ACQUIRE)) return;
    slot->call = id;
    slot->held_pos = pos;
    find_call_site();
    slot->held_generation = __atomic_load_n(&ctl.h->generation, __ATOMIC_ACQUIRE);
    /* a debugger may attach to a held rank even where ptrace is limited to descendants */
    prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
    __atomic_store_n(&slot->state, MPIRR_CTL_HELD, __ATOMIC_RELEASE);
    mpirr_stopline_held();
    wait_released(pos);
    __atomic_store_n(&slot->state, MPIRR_CTL_RUNNING, __ATOMIC_RELEASE);
}
