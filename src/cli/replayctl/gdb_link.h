/* gdb_link.h: what `gdb R` (gdb_attach) is handed of the session that runs it: the control
 * file, the rank count, the stall time, and two callbacks into the session. gdb_attach knows
 * nothing else of a session, so the session can call it without the two including each other.
 * Also the longest command line a session accepts, from stdin or from the gdb extension. */
#ifndef MPIRR_CLI_REPLAYCTL_GDB_LINK_H
#define MPIRR_CLI_REPLAYCTL_GDB_LINK_H

#include <stdio.h>

struct replay_control;

/* A session command line, newline included, is at most this many bytes - 1; a longer one is
 * refused whole (never cut into several commands). */
enum { SESSION_LINE_MAX = 4096 };

struct gdb_link {
    struct replay_control *control; /* the ranks' slots: pids, states, stops */
    int nranks;
    double stall_s;  /* a rank inside a call without progress this long is blocked */
    void *session;   /* handed back to the callbacks */
    /* Runs one session command line for the gdb extension (its rank is stopped by gdb: the
     * command does not wait for the stopline); what it prints goes to out. 1 if it released
     * ranks, else 0. */
    int (*command)(void *session, const char *line, FILE *out);
    /* Waits until the ranks are at the stopline and prints the where table to out. 0, or -1
     * if the job is gone. */
    int (*wait)(void *session, FILE *out);
};

#endif
