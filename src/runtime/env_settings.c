/* env_settings.c: the runtime's settings from the environment the CLI sets (MPIRR_MODE,
 * MPIRR_DIR, MPIRR_RECORD_MODE, MPIRR_WTIME, MPIRR_NOISE_US, ...; settings.def has them all).
 * They are read in a constructor, before MPI_Init, where a bad value cannot end the job: the
 * library may be loaded into mpirun or a daemon (LD_PRELOAD), which must not die, and MPI_Abort
 * needs MPI. So a bad value reads as its default there (inert, noiseless: nothing can hang or
 * overflow), and mpirr_settings_verify ends the job at MPI_Init, before any file is opened. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env_settings.h"
#include "runtime.h"
#include "settings.h"

static int is(mpirr_setting_id id, const char *word)
{
    const char *text = mpirr_setting_text(id);
    return text && !strcmp(text, word);
}

__attribute__((constructor)) static void read_settings(void)
{
    if (is(MPIRR_SET_MODE, "record")) mpirr_rt.mode = MPIRR_MODE_RECORD;
    else if (is(MPIRR_SET_MODE, "replay")) mpirr_rt.mode = MPIRR_MODE_REPLAY;
    else if (is(MPIRR_SET_MODE, "run")) mpirr_rt.mode = MPIRR_MODE_RUN;
    mpirr_rt.noise_us = (unsigned)mpirr_setting_value(MPIRR_SET_NOISE_US);
    const char *dir = mpirr_setting_text(MPIRR_SET_DIR);
    if (dir) snprintf(mpirr_rt.dir, sizeof mpirr_rt.dir, "%s", dir);
    /* MPICH's blocking calls spin without yielding; Open MPI's yield when oversubscribed. */
#ifdef OPEN_MPI
    mpirr_rt.poll_waits = 0;
#else
    mpirr_rt.poll_waits = 1;
#endif
    if (mpirr_setting_text(MPIRR_SET_REPLAY_WAIT)) mpirr_rt.poll_waits = is(MPIRR_SET_REPLAY_WAIT, "poll");
    if (is(MPIRR_SET_RECORD_MODE, "races")) mpirr_rt.rec_mode = MPIRR_REC_RACES;
    else if (is(MPIRR_SET_RECORD_MODE, "all")) mpirr_rt.rec_mode = MPIRR_REC_ALL;
    mpirr_rt.clock_merge = (int)mpirr_setting_value(MPIRR_SET_CLOCK_MERGE);
    mpirr_rt.bounded_clock = !is(MPIRR_SET_RACE_CLOCK, "vector");
    mpirr_rt.wtime = (int)mpirr_setting_value(MPIRR_SET_WTIME);
    mpirr_rt.wtime_unit = (uint32_t)mpirr_setting_value(MPIRR_SET_WTIME_UNIT_NS);
    /* without it (a recording made without `mpirr record`) the files carry no id: ranks
     * cannot agree on a random one before MPI_Init (run_id.h) */
    const char *run_id = mpirr_setting_text(MPIRR_SET_RUN_ID);
    if (run_id) mpirr_run_id_parse(run_id, &mpirr_rt.run_id);
    /* (a directory set but unacceptable is mpirr_settings_verify's to report) */
    if ((mpirr_rt.mode == MPIRR_MODE_RECORD || mpirr_rt.mode == MPIRR_MODE_REPLAY) &&
        !getenv("MPIRR_DIR")) {
        fprintf(stderr, "mpirr: MPIRR_MODE=%s needs MPIRR_DIR; running without mpirr\n",
                mpirr_setting_text(MPIRR_SET_MODE));
        mpirr_rt.mode = MPIRR_MODE_OFF;
    }
}

void mpirr_settings_verify(void)
{
    char bad[512];
    /* The ranks normally share one environment: rank 0 speaks for all. */
    if (mpirr_settings_check_env(MPIRR_SETTING_RUNTIME, bad, sizeof bad)) mpirr_fatal_shared("%s", bad);
}
