/* gdb_attach.h: the session's `gdb R [ARGS...]`: gdb attached to a held rank, its frame at the
 * application's call site, with the mpirr gdb extension (mpirr-gdb.py) loaded and served.
 *
 * gdb runs as `gdb -q -p PID -x .../share/mpirr/mpirr-gdb.py -ex "mpirr frame" ARGS...`. While
 * it runs, mpirr serves the extension's session commands on a Unix socket in the abstract
 * namespace, named by MPIRR_SESSION_SOCKET in gdb's environment (MPIRR_SESSION_RANK: the rank);
 * only gdb itself (its pid, through SO_PEERCRED) is answered. docs/cli/replay.md, "Inside gdb".
 *
 * The protocol: one connection per request; the extension sends one line, mpirr writes the
 * reply and closes. A line longer than SESSION_LINE_MAX is refused whole. A line is a session
 * command (where, continue, step, stop, undo: served by the link's command callback), or
 *     wait        the where table once the stopline is reached (the link's wait callback)
 *     pid R       rank R's pid, a decimal line
 *     resume R    after a command: "idle" (nothing was released), "stay" (rank R's stop did
 *                 not move: it stays held), or "run" (it moves: gdb continues it; if it
 *                 blocks or ends without reaching its stop, mpirr interrupts it with SIGINT
 *                 once the session would call it blocked)
 *     disarm      gdb stopped the rank elsewhere (a breakpoint of the user's): no interrupt */
#ifndef MPIRR_CLI_REPLAYCTL_GDB_ATTACH_H
#define MPIRR_CLI_REPLAYCTL_GDB_ATTACH_H

#include <stdio.h>

#include "gdb_link.h"

/* Runs gdb on rank's process with the words of args_line passed through (split on blanks;
 * '...' and "..." group words, and a backslash escapes the next character outside single
 * quotes and before " or \ inside double ones: -ex 'print i'). Returns when gdb exits; the
 * rank stays held (if the extension released ranks without waiting for them, this waits for
 * the stopline first). For a rank on another host gdb runs there (gdb_remote.h), without the
 * extension's session socket. 0, or -1 after a one-line message on out (gdb missing, rank out
 * of range, never started or gone, bad quoting, the host unreachable). */
int gdb_attach(const struct gdb_link *s, int rank, const char *args_line, FILE *out);
/* The extension next to the executable: <bin>/../share/mpirr/mpirr-gdb.py in the build tree and
 * in an install (runtime_lib.c does the same for the runtime). 0, or -1 with the path tried. */
int gdb_extension_path(char *out, size_t n);


#endif
