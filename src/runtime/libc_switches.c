/* libc_switches.c: which libc groups (time, random, pid, host) a recording holds, and the
 * interposers' decision whether a call goes to the log. Record mode takes the groups from
 * MPIRR_LIBC_* and writes them into the log header's flags; replay takes them from the
 * header, so it needs no option. The application's calls of a group that is off are counted
 * per group: while recording in the tail's counters (mpirr record names them at the end),
 * while replaying, where they get live values, also in the rank's replay control slot (the
 * verdict says the replay was not exact); if a replay diverges, its message names them.
 * The MPI library's calls are never counted (nor recorded). Only the interposers of a group
 * that is off count: a program that never calls one pays nothing, one that does pays the
 * cached caller check and an atomic add per call. */
#include <stdio.h>

#include "libc_runtime.h"
#include "replay_control.h"
#include "settings.h"

int mpirr_libc_watch;
__thread int mpirr_libc_mpi_thread __attribute__((tls_model("initial-exec")));

static unsigned groups;     /* bit g: group g is recorded or replayed */
static uint64_t unrecorded; /* replay: bit s: the program called source s, not recorded */

/* settings.def lists the LIBC_* rows in the order of the groups */
_Static_assert(MPIRR_SET_LIBC_HOST - MPIRR_SET_LIBC_TIME == MPIRR_LIBC_GROUP_HOST,
               "settings.def's LIBC_* rows follow enum mpirr_libc_group");

static void watch(void)
{
    mpirr_libc_mpi_thread = 1;
    mpirr_libc_watch = groups != 0 || mpirr_rt.mode == MPIRR_MODE_REPLAY;
}

uint32_t mpirr_libc_record_flags(void)
{
    uint32_t flags = 0;
    groups = 0;
    for (unsigned g = 0; g < MPIRR_LIBC_GROUP_COUNT; g++)
        if (mpirr_setting_value((mpirr_setting_id)(MPIRR_SET_LIBC_TIME + g))) {
            groups |= 1u << g;
            flags |= MPIRR_LOG_FLAG_LIBC(g);
        }
    watch();
    return flags;
}

void mpirr_libc_replay_flags(uint32_t flags)
{
    groups = 0;
    for (unsigned g = 0; g < MPIRR_LIBC_GROUP_COUNT; g++)
        if (flags & MPIRR_LOG_FLAG_LIBC(g)) groups |= 1u << g;
    watch();
}

/* Sets bit in *mask; a load first, so that the calls after the first write nothing. */
static void set_bit(uint64_t *mask, uint64_t bit)
{
    if (!(__atomic_load_n(mask, __ATOMIC_RELAXED) & bit)) __atomic_fetch_or(mask, bit, __ATOMIC_RELAXED);
}

/* The application called source, of group g, which is off: counts it, in the tail's counters
 * while recording (also a flipped replay's new recording), in the control slot while
 * replaying. */
static void note_unrecorded(unsigned source, enum mpirr_libc_group g)
{
    if (mpirr_rt.writer) {
        set_bit(&mpirr_rt.counters[MPIRR_CTR_LIBC_UNRECORDED_SOURCES], 1ull << source);
        __atomic_fetch_add(&mpirr_rt.counters[MPIRR_CTR_LIBC_UNRECORDED + g], 1, __ATOMIC_RELAXED);
    }
    if (mpirr_rt.mode != MPIRR_MODE_REPLAY) return;
    set_bit(&unrecorded, 1ull << source);
    mpirr_ctl_slot *slot = mpirr_control_slot();
    if (!slot) return;
    set_bit(&slot->libc_sources, 1ull << source);
    __atomic_fetch_add(&slot->libc_calls[g], 1, __ATOMIC_RELAXED);
}

int mpirr_libc_wanted_slow(unsigned source, const void *caller)
{
    if (!mpirr_rt.active || !(mpirr_rt.threaded || mpirr_libc_mpi_thread)) return 0;
    enum mpirr_libc_group g = mpirr_libc_source_group(source);
    int held = groups >> g & 1;
    if (!mpirr_libc_caller_is_app(caller)) return 0;
    if (!held) note_unrecorded(source, g);
    return held;
}

void mpirr_libc_divergence_note(char *buf, size_t n)
{
    uint64_t seen = __atomic_load_n(&unrecorded, __ATOMIC_RELAXED);
    size_t len = 0;
    buf[0] = 0;
    for (unsigned g = 0; g < MPIRR_LIBC_GROUP_COUNT && len < n; g++) {
        char names[512];
        if (!mpirr_libc_group_names(seen, g, names, sizeof names)) continue;
        int on = mpirr_libc_group_default_on(g);
        len += (size_t)snprintf(buf + len, n - len, "%s%s, not in its recording (recorded %s --%slibc-%s)",
                                len ? "; the program called " : " - the program called ", names,
                                on ? "with" : "without", on ? "no-" : "", mpirr_libc_group_word(g));
    }
}
