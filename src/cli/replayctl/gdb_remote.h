/* gdb_remote.h: the remote half of the session's `gdb R`: for a rank on another host than
 * mpirr's, gdb runs on the rank's host through the remote shell MPIRR_RSH ("ssh" unless set,
 * as Open MPI's plm_rsh_agent), called as
 *     MPIRR_RSH -o BatchMode=yes -o ConnectTimeout=10 (-t | -n) HOST 'gdb -q -p PID ...'
 * BatchMode forbids a password or passphrase prompt: an ssh that would ask fails at once (exit
 * 255), and mpirr says so in one line. The program, the extension and gdb's arguments are the
 * local attach's, at the same paths (a cluster's shared file system). The extension's session
 * commands talk to mpirr over a local socket: on another host they are not served. */
#ifndef MPIRR_CLI_REPLAYCTL_GDB_REMOTE_H
#define MPIRR_CLI_REPLAYCTL_GDB_REMOTE_H

#include <stdio.h>

/* Before gdb: can host be reached without a prompt, and does it have gdb? 0 if so, with
 * *ext_ok telling whether ext (NULL: none) is readable there (if not, one line says gdb runs
 * without it); else -1 after one line (unreachable: ssh's last error line and the remedy; no
 * gdb there). Bounded: a remote shell that does not answer within a minute is ended. */
int gdb_remote_check(const char *host, int rank, const char *ext, int *ext_ok, FILE *out);

/* What the remote gdb's standard input is: nothing (ssh -n), mpirr's terminal (ssh -t: gdb
 * is interactive there), or a pipe from mpirr (ssh -T: the session's kept gdb/MI, whose
 * commands and answers are lines on its standard input and output). */
enum gdb_remote_stdin { GDB_REMOTE_NONE, GDB_REMOTE_TTY, GDB_REMOTE_PIPE };
/* The remote shell's command line that runs gdb_argv (argc words) on host, each word quoted
 * for the remote shell. A malloc'ed NULL-terminated array for gdb_remote_free, or NULL after
 * one line. */
char **gdb_remote_argv(const char *host, int argc, char *const *gdb_argv,
                       enum gdb_remote_stdin in, FILE *out);
void gdb_remote_free(char **argv);

/* After the remote shell ended with wait status st: one line if it says the connection failed
 * (exit 255). 0, or -1 after that line. */
int gdb_remote_ended(const char *host, int rank, int st, FILE *out);

#endif
