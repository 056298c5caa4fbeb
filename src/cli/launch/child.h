/* child.h: running other programs: the user's command (waited for, with SIGINT/SIGTERM
 * forwarded) and short probes whose output mpirr reads (`mpirun --version`). */
#ifndef MPIRR_CLI_CHILD_H
#define MPIRR_CLI_CHILD_H

#include <stddef.h>

#include "env_var.h"

struct child_spec {
    char *const *argv;         /* NULL-terminated; argv[0] is looked up in PATH */
    const char *workdir;       /* chdir here first, or NULL */
    const struct env_var *env; /* set in the child's environment */
    int nenv;
    /* Optional: asked every few milliseconds while the command runs; nonzero ends it (SIGTERM,
     * then SIGKILL if it is still there 10 s later). */
    int (*watch)(void *arg);
    void *watch_arg;
    int stdin_null; /* the command's standard input is /dev/null */
    int launcher;   /* the command is an MPI launcher: ended if it stops reaping its ranks
                       (launcher_reaping.h) */
};

/* Runs the command to completion. Returns its exit status, 128+N if signal N killed it,
 * 127 if it could not be started (reported by the child), -1 if fork failed (reported).
 * If mpirr received SIGINT or SIGTERM meanwhile and the command still exited 0, 128+N. */
int child_run(const struct child_spec *c);

/* The SIGINT or SIGTERM mpirr received during the last child_run, 0 if none (a caller that
 * runs one command after another stops there). */
int child_stop_signal(void);

/* From inside the watch of a running child_run only: ends the command (SIGTERM, SIGKILL 10 s
 * later, reaped while the new one runs and before child_run returns) and starts it again the
 * same way (a replay session's undo), but for text `was` replaced by `now` (as long) wherever
 * it stands in the command's arguments: a variable of the new job (MPIRR_CONTROL's token) that
 * a launcher carries to the ranks as its own option (launch_rewrite.h); was NULL: none. An
 * environment value (env) is the caller's string: changed in place by the caller. 0, or -1
 * after a message (then child_run returns once the watch returns). */
int child_restart(const char *was, const char *now);
/* From inside the watch: whether the command has ended (its status is left for child_run). */
int child_exited(void);

/* Runs argv with stdin from /dev/null and collects up to n-1 bytes of its stdout and stderr
 * into buf (NUL-terminated). Returns the number of bytes, or -1 if it could not run. */
int child_capture(char *const *argv, char *buf, size_t n);

#endif
