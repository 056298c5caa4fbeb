/* diag.h: how mpirr reports trouble: one line on stderr starting "mpirr: ", and the exit
 * statuses mpirr uses for its own failures (the launcher's status is passed through as is). */
#ifndef MPIRR_CLI_DIAG_H
#define MPIRR_CLI_DIAG_H

enum {
    CLI_EXIT_FAIL = 1,     /* mpirr could not do its job: I/O error, runtime missing, damaged log */
    CLI_EXIT_USAGE = 2,    /* bad command line, or a recording that cannot be used */
    CLI_EXIT_HELD = 3,     /* replay: the ranks reached where the recorded run was stopped from
                              outside (killed, signalled), and mpirr ended the job there */
    CLI_EXIT_NOEXEC = 127, /* the command to launch does not exist or cannot be run */
};

/* Prints "mpirr: <message>\n" on stderr; newlines inside the message become spaces so that
 * every diagnostic stays one line (scripts grep for them). */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
