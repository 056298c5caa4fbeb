/* stopline.c: the rank's side of the replay control state (replay_control.h). In a replay the
 * rank publishes its progress in its slot, and reads there the position it must stop at: when
 * a call reaches it (before the call is made, or just after it returned), the rank notes where
 * it is and the application's call site, lets any debugger attach, and waits in the runtime
 * until mpirr moves the stop on. How it ends (finished, crashed, ...) goes to the slot too.
 * The slot and the header copy are the rank's own memory; control_channel.c carries them to
 * and from mpirr. */
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
static mpirr_ctl_slot own_slot;
static mpirr_ctl_header own_header;
static mpirr_ctl_slot *slot;
/* The word the calls compare their positions with (mpirr_rt.stop): the slot's stop, or sooner
 * the position just after the rank's last recorded event when its recording was cut off. A
 * rank that dies there (killed outright, as when recording) sends nothing more, and the
 * progress mpirr last heard of may be up to a report period old; so the rank reports its
 * progress there and waits for mpirr to have it, once, before going on (flush_at). */
static uint64_t effective_stop = MPIRR_POS_NONE;
static uint64_t flush_at = MPIRR_POS_NONE;

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

void mpirr_control_stop_changed(void)
{
    __atomic_store_n(&effective_stop,
                     min_u64(__atomic_load_n(&own_slot.stop, __ATOMIC_ACQUIRE),
                             __atomic_load_n(&flush_at, __ATOMIC_ACQUIRE)),
                     __ATOMIC_RELEASE);
}

/* Before the rank reaches mpirr, and after it leaves: nothing stops a call. */
__attribute__((constructor)) static void no_stopline(void) { mpirr_rt.stop = &no_stop; }

void mpirr_control_start(void)
{
    const char *addr = mpirr_setting_text(MPIRR_SET_CONTROL);
    if (!addr) return;
    own_slot.stop = MPIRR_POS_NONE;
    if (mpirr_rt.hold_event > 1) flush_at = mpirr_pos_after(mpirr_rt.hold_event - 1);
    own_slot.pid = (int32_t)getpid();
    if (gethostname(own_slot.host, sizeof own_slot.host - 1) != 0) strcpy(own_slot.host, "?");
    __atomic_store_n(&own_slot.progress, *mpirr_rt.progress, __ATOMIC_RELAXED);
    mpirr_channel_open(addr, &own_slot, &own_header); /* the first stop is in the slot now */
    slot = &own_slot;
    mpirr_rt.progress = &slot->progress;
    mpirr_control_stop_changed();
    mpirr_rt.stop = &effective_stop;
    __atomic_store_n(&slot->state, MPIRR_CTL_RUNNING, __ATOMIC_RELEASE);
}

void mpirr_control_ending(unsigned state, int detail)
{
    if (!slot) return;
    slot->signal = detail;
    __atomic_store_n(&slot->state, state, __ATOMIC_RELEASE);
    mpirr_channel_flush(); /* mpirr has it before the rank goes on to end */
    if (state == MPIRR_CTL_HELD_SIGNAL) return;
    mpirr_rt.stop = &no_stop;
    /* the slot stays: a signal handler may still store the progress word */
}

void mpirr_control_stop(void)
{
    mpirr_channel_close();
}

mpirr_ctl_slot *mpirr_control_slot(void) { return slot; }

const mpirr_ctl_header *mpirr_control_header(void) { return slot ? &own_header : NULL; }

int mpirr_control_cli_gone(void)
{
    return slot && mpirr_channel_gone();
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
    if (!slot) return;
    if (pos < __atomic_load_n(&slot->stop, __ATOMIC_ACQUIRE)) {
        /* not a stop: the last recorded event's end (flush_at), or a stale effective stop */
        if (pos >= __atomic_load_n(&flush_at, __ATOMIC_ACQUIRE) &&
            __atomic_exchange_n(&flush_at, MPIRR_POS_NONE, __ATOMIC_ACQ_REL) != MPIRR_POS_NONE)
            mpirr_channel_flush();
        mpirr_control_stop_changed();
        return;
    }
    slot->call = id;
    slot->held_pos = pos;
    find_call_site();
    slot->held_generation = __atomic_load_n(&own_header.generation, __ATOMIC_ACQUIRE);
    /* a debugger may attach to a held rank even where ptrace is limited to descendants */
    prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
    __atomic_store_n(&slot->state, MPIRR_CTL_HELD, __ATOMIC_RELEASE);
    /* mpirr sends any stop it set before it got this ahead of its acknowledgement: a rank that
     * gdb let run on after `mpirr continue` meets its old stop before its thread applied the
     * new one, and must not hold there */
    mpirr_channel_flush();
    if (pos >= __atomic_load_n(&slot->stop, __ATOMIC_ACQUIRE)) {
        mpirr_stopline_held();
        wait_released(pos);
    }
    __atomic_store_n(&slot->state, MPIRR_CTL_RUNNING, __ATOMIC_RELEASE);
}
