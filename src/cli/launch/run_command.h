/* run_command.h: one run of the user's command under the runtime, shared by record, replay and
 * run: the runtime library to preload, the MPIRR_* variables, and how they reach the ranks
 * (launcher options, or the environment of a singleton). */
#ifndef MPIRR_CLI_RUN_COMMAND_H
#define MPIRR_CLI_RUN_COMMAND_H

#include <limits.h>

#include "launch.h"
#include "mpi_impl.h"

struct session {
    /* set by the command */
    const char *mode;    /* MPIRR_MODE: "record", "replay" or "run" */
    const char *dir;     /* MPIRR_DIR (absolute), or NULL */
    const char *record_mode; /* MPIRR_RECORD_MODE (record --mode), or NULL */
    const char *run_id;  /* MPIRR_RUN_ID: the new recording's run id (record), or NULL */
    int wtime;           /* MPIRR_WTIME 1/0, or -1 to leave it unset */
    const char *noise;   /* MPIRR_NOISE_US, or NULL */
    int events;          /* MPIRR_EVENTS=1: keep the event history (and pass MPIRR_EVENTS_*) */
    const char *workdir; /* run the command there, or NULL for the current directory */
    int dry_run;         /* print the command (one shell line on stdout) instead of running it */
    const char *control; /* replay: MPIRR_CONTROL, where the ranks reach mpirr
                            (replayctl/control.h) */
    const char *flip;    /* replay --flip: MPIRR_FLIP, the flip file (explore/flip.h) */
    /* asked every few ms while the job runs (child_spec.watch), with watch_arg, or NULL */
    int (*watch)(void *arg);
    void *watch_arg;
    int stdin_null;      /* the job reads /dev/null: mpirr's standard input is for commands */
    int no_exe_check;    /* replay: MPIRR_EXE_CHECK=0, ranks may run another executable */
    int private_errlog;  /* replay: the ranks' error file is in mpirr's private directory
                            (run_scratch.h), not in the recording (read-only, replayed by
                            others at the same time) */
    /* filled by session_prepare */
    struct launch_info li;
    enum mpi_impl impl;
    char runtime_lib[PATH_MAX];
};

/* Inspects the command (relative names against base) into s->li. 0, or an exit status after
 * a message. */
int session_inspect(struct session *s, int argc, char **argv, const char *base);
/* Picks the runtime (preferred, else from the command) and finds its library. 0, or an exit
 * status after a message. */
int session_choose_runtime(struct session *s, enum mpi_impl preferred);
/* Both of the above. */
int session_prepare(struct session *s, int argc, char **argv, const char *base,
                    enum mpi_impl preferred);
/* Runs the command and returns its exit status (128+N for signal N), or an mpirr exit
 * status after a message if it could not be started. */
int session_run(const struct session *s);

#endif
