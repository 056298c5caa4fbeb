/* gdb_mi.h: one gdb/MI child process (`gdb --interpreter=mi3`) driven through pipes: starting
 * it, sending one command at a time, and reading what it writes back without blocking, so that
 * many of them (one per rank) are driven in parallel. It knows the MI output syntax (result
 * records ^done/^error, async records (*stopped, *running, =...), console streams ~"...") through a
 * small parser; it knows nothing of ranks or sessions (rank_gdbs.h does).
 *
 * A command is started (gdb_mi_start), then gdb_mi_pump (or gdb_mi_wait_all for several) reads
 * until its result record arrives - and, for a command that stops the inferior (attach,
 * interrupt, next), until the *stopped record too. The console text gdb printed meanwhile is
 * kept, and the latest *stopped record is remembered until gdb_mi_take_stop consumes it. */
#ifndef MPIRR_CLI_REPLAYCTL_GDB_MI_H
#define MPIRR_CLI_REPLAYCTL_GDB_MI_H

#include <stddef.h>
#include <sys/types.h>

/* A parsed MI value: a string constant, a tuple {a=..,b=..} or a list [..]. */
enum mi_kind { MI_CONST, MI_TUPLE, MI_LIST };
struct mi_value {
    char *name;                 /* "a" of a=..., or NULL in a list of values */
    enum mi_kind kind;
    char *text;                 /* MI_CONST: the unescaped string */
    struct mi_value *child;     /* MI_TUPLE / MI_LIST: the first member */
    struct mi_value *next;      /* the next member of the parent */
};

/* Where and why the inferior last stopped (a *stopped record). */
struct mi_stop {
    char reason[40];            /* "breakpoint-hit", "end-stepping-range", "signal-received",
                                   "exited", ... ("" when gdb gave none, as after an attach) */
    int number;                 /* bkptno / wpt number, else 0 */
    char func[128], file[256];  /* the stop's frame (file: its base name); "" if unknown */
    int line;
    char signal[24];            /* signal-name, for signal-received */
};

struct gdb_mi {
    pid_t pid;                  /* gdb, or 0 when not running */
    int to_gdb, from_gdb;       /* pipes */
    char *buf;                  /* bytes read, not yet a complete line */
    size_t len, cap;
    /* the command in progress */
    int want_result, want_stop;
    int error;                  /* its result was ^error */
    char *message;              /* ^error's msg, malloc'd */
    struct mi_value *result;    /* ^done's results (tuple members), or NULL */
    char *console;              /* ~"..." text since the command started, malloc'd */
    size_t console_len;
    /* the inferior */
    int running;                /* *running seen since the last *stopped */
    int stop_new;               /* a *stopped record not yet taken */
    struct mi_stop stop;
    int exited;                 /* =thread-group-exited: no inferior any more */
    double close_wait_s;        /* how long gdb_mi_close waits for it to exit (0: a second) */
};

/* The words of `GDB --interpreter=mi3 -q -nx [-x EXTENSION]` (extension may be NULL) in
 * argv[GDB_MI_ARGV_MAX], NULL-terminated; their number. */
enum { GDB_MI_ARGV_MAX = 8 };
int gdb_mi_argv(const char *gdb, const char *extension, char **argv);
/* Starts argv (gdb_mi_argv's words, or a remote shell that runs them on another host, its
 * standard input and output forwarded) in its own process group, with async execution on and
 * every signal passed to the inferior without a stop (a replay's signals are the runtime's
 * business; SIGINT stays gdb's, for interrupts). The setting commands are queued: the first
 * gdb_mi_start waits for them. 0, or -1 with a reason in err. */
int gdb_mi_spawn(struct gdb_mi *g, char *const *argv, char *err, size_t n);
/* Sends one command line (a MI command, or a CLI one). stops: also wait for the inferior's
 * next *stopped record. 0, or -1 if gdb is gone. */
int gdb_mi_start(struct gdb_mi *g, int stops, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Whether the command in progress still waits for its result or stop. */
int gdb_mi_busy(const struct gdb_mi *g);
/* Reads what gdb has written, waiting at most timeout_ms for something. 0, or -1 once gdb's
 * output has ended (it exited). */
int gdb_mi_pump(struct gdb_mi *g, int timeout_ms);
/* Pumps every gdb of gs (NULL entries skipped) until none is busy, or timeout_s passes. The
 * number still busy then (their gdbs are stuck, or gone). */
int gdb_mi_wait_all(struct gdb_mi **gs, int n, double timeout_s);
/* Starts a command and waits for it: 0 on ^done, 1 on ^error (message in g->message), -1 if
 * gdb is gone or did not answer within timeout_s. */
int gdb_mi_run(struct gdb_mi *g, int stops, double timeout_s, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* 1 and the latest *stopped in *stop if one arrived since the last take; else 0. */
int gdb_mi_take_stop(struct gdb_mi *g, struct mi_stop *stop);
/* The constant at path ("bkpt.number") under the latest result, or NULL. */
const char *gdb_mi_result_text(const struct gdb_mi *g, const char *path);
/* Writes s as an MI c-string (quoted, escaped) into out (n bytes). -1 if it does not fit. */
int gdb_mi_quote(const char *s, char *out, size_t n);
/* Ends gdb: -gdb-exit, then SIGKILL to its group if it has not exited within close_wait_s (a
 * second if 0); reaps it. The inferior must be detached first (gdb_mi_run(g, 0, .., "-target-detach")), or it
 * dies with gdb. */
void gdb_mi_close(struct gdb_mi *g);

/* The parser, for tests and callers that hold a record's text. */
struct mi_value *mi_parse_results(const char *text);
const struct mi_value *mi_find(const struct mi_value *results, const char *path);
void mi_free(struct mi_value *v);

#endif
