/* replay_session.h: a replay session (`mpirr replay --stop`): the job runs under the replay control state,
 * every rank stops at the stopline, and mpirr reads commands (where, gdb, continue, step,
 * stop, undo, quit; and the debugger commands of debug_commands.h) from its standard input while they are held. docs/cli/replay.md. */
#ifndef MPIRR_CLI_REPLAYCTL_SESSION_H
#define MPIRR_CLI_REPLAYCTL_SESSION_H

#include <stdint.h>
#include <stdio.h>

#include "control.h"
#include "recording.h"
#include "replay_check.h"
#include "teardown.h"

struct replay_hold;
struct analysis;
struct rank_gdbs;

/* What a command asks of the job. */
enum session_step {
    SESSION_STAY = 0, /* the ranks stay where they are: read the next command */
    SESSION_RUN = 1,  /* ranks were released: watch them until the stopline is reached */
    SESSION_QUIT = 2, /* end the job */
};

/* Another source of commands beside `in`: the --ui page (replayui/). wait blocks until fd
 * (in's) is readable (SESSION_STAY), or until a command it ran released the ranks or ended
 * the job, or a signal (SIGTERM, ^C) ends the session (SESSION_QUIT); poll answers what is
 * pending, without blocking, while the ranks run. */
struct session_side {
    enum session_step (*wait)(void *arg, int fd);
    void (*poll)(void *arg);
    void *arg;
};

/* A stopline to go back to. */
struct session_undo {
    uint64_t *stops;
    char how[512];
};

struct replay_session {
    const struct recording *rec;
    struct replay_control control;
    struct replay_hold *hold;  /* ranks held where the recording ends (or NULL) */
    int nranks;
    int interactive;           /* --stop given: stop, then read commands */
    FILE *in;                  /* the commands */
    int tty;                   /* in is a terminal: prompt */
    double stall_s;            /* a rank inside a call without progress this long is blocked */
    uint64_t *stops;           /* the stopline in force (per rank position, MPIRR_POS_NONE) */
    struct session_undo *undo; /* earlier stoplines, newest last */
    int nundo, undo_cap;
    char how[512];             /* how the current stopline was chosen, for `where` */
    uint64_t *next;            /* the stopline `stop` set for the next `continue` */
    char next_how[512];
    int have_next;
    const struct recorded_end *ends; /* how each rank's recording ended (replay_check.h) */
    int stepping;              /* the rank a `step` moves (only its line is shown), or -1 */
    int first;                 /* the job was (re)launched: say how long the stopline took */
    double launched_at;
    int watching;              /* released: waiting for the stopline to be reached */
    int quit;                  /* the user ended the job */
    struct analysis *an;       /* the event history, loaded when first needed; NULL: none */
    struct mpirr_symbolizer *sym; /* call sites of held ranks without a history, for `where` */
    int an_tried;
    int hold_on_signal;
    struct teardown_watch teardown; /* a job its launcher fails to end */
    struct session_side side;  /* the --ui page, or zeros */
    struct rank_gdbs *gdbs;    /* the persistent gdbs (rank_gdbs.h), made on first use */
};

/* Sets up s for rec (creates the control state, listening for the ranks). 0, or an exit status after a message. */
int replay_session_open(struct replay_session *s, const struct recording *rec,
                        const struct recorded_end *ends, struct replay_hold *hold);
/* Parses and applies the first stopline (--stop SPEC, --before/--after, --past), before the
 * job starts. 0, or an exit status after a message. */
int replay_session_first_stop(struct replay_session *s, const char *spec, int after, int past);
/* The first stopline when none is given (`--ui` alone): every rank just after MPI_Init, where
 * the page's "stop here", `stop R:E` + `continue` or `step R` take it on. 0. */
int replay_session_first_stop_at_init(struct replay_session *s);
/* Runs one command line as typed at the prompt (at most SESSION_LINE_MAX - 1 bytes); what it
 * prints goes to out. */
enum session_step replay_session_execute(struct replay_session *s, const char *line, FILE *out);
/* child_spec.watch: reaches stoplines and runs the command loop; 1 ends the job. */
int replay_session_watch(void *s);
void replay_session_close(struct replay_session *s);

#endif
