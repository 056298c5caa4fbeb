/* libc_switches.c: which libc groups (time, random, pid, host) a recording holds, and the
 * interposers' decision whether a call goes to the log. Record mode takes the groups from
 * MPIRR_LIBC_* and writes them into the log header's flags; replay takes them from the
 * header, so it needs no option. A replayed program calling a group its recording does not
 * hold runs on with live values; if it then diverges, the message names those calls. */
#include <stdio.h>
#include <string.h>

#include "libc_runtime.h"
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

int mpirr_libc_wanted_slow(unsigned source, const void *caller)
{
    if (!mpirr_rt.active || !(mpirr_rt.threaded || mpirr_libc_mpi_thread)) return 0;
    int held = groups >> mpirr_libc_source_group(source) & 1;
    if (!held && mpirr_rt.mode != MPIRR_MODE_REPLAY) return 0;
    if (!mpirr_libc_caller_is_app(caller)) return 0;
    /* a replay of a recording without this group: note what the program used */
    if (!held) __atomic_fetch_or(&unrecorded, 1ull << source, __ATOMIC_RELAXED);
    return held;
}

void mpirr_libc_divergence_note(char *buf, size_t n)
{
    uint64_t seen = __atomic_load_n(&unrecorded, __ATOMIC_RELAXED);
    size_t len = 0;
    buf[0] = 0;
    for (unsigned g = 0; g < MPIRR_LIBC_GROUP_COUNT && len < n; g++) {
        const char *sep = len ? "; the program called " : " - the program called ";
        int named = 0;
        for (unsigned s = 1; s < MPIRR_LIBC_SOURCE_LIMIT && len < n; s++)
            if (seen >> s & 1 && mpirr_libc_source_group(s) == g) {
                len += (size_t)snprintf(buf + len, n - len, "%s%s", named++ ? ", " : sep,
                                        mpirr_libc_source_name(s));
            }
        if (!named || len >= n) continue;
        int on = !strcmp(mpirr_settings[MPIRR_SET_LIBC_TIME + g].dflt, "1");
        len += (size_t)snprintf(buf + len, n - len, ", not in its recording (recorded %s --%slibc-%s)",
                                on ? "with" : "without", on ? "no-" : "", mpirr_libc_group_word(g));
    }
}
