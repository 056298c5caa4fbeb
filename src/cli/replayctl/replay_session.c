/* replay_session.c: see replay_session.h. The session lives inside child_run's watch: while ranks run
 * towards a stopline the watch returns at once (child_run keeps polling the job); once every
 * rank is there the watch reads commands until one releases the ranks again or ends the job.
 * undo re-executes the job from the start (child_restart) to the previous stopline: the replay
 * is deterministic, so the state there is the same every time (p2d2's rollback). */
#include "replay_session.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analysis_load.h"
#include "child.h"
#include "debug_commands.h"
#include "diag.h"
#include "did_you_mean.h"
#include "event_trace.h"
#include "gdb_attach.h"
#include "mono_clock.h"
#include "number_parse.h"
#include "rank_gdbs.h"
#include "rank_process.h"
#include "rank_log.h"
#include "replay_hold.h"
#include "stopline.h"
#include "where.h"

#define STALL_SECONDS 1.0 /* inside one MPI call this long without progress: blocked */

/* Loads the event history once, if the recording has one: the stoplines' frontiers and the
 * arguments in `where` come from it. */
static void load_history(struct replay_session *s)
{
    if (s->an_tried) return;
    s->an_tried = 1;
    char err[700];
    mpirr_ev_reader *r = mpirr_evr_open(s->rec->dir, 0, err, sizeof err);
    if (!r) return; /* no history: stoplines without frontiers */
    mpirr_evr_close(r);
    s->an = calloc(1, sizeof *s->an);
    if (s->an && analysis_open(s->rec->dir, s->an, 0, 1)) {
        free(s->an);
        s->an = NULL;
    }
}

int replay_session_open(struct replay_session *s, const struct recording *rec,
                        const struct recorded_end *ends, struct replay_hold *hold)
{
    memset(s, 0, sizeof *s);
    s->rec = rec;
    s->ends = ends;
    s->hold = hold;
    s->nranks = rec->m.nranks;
    s->in = stdin;
    s->tty = isatty(0);
    s->stall_s = STALL_SECONDS;
    teardown_watch_init(&s->teardown);
    s->stepping = -1;
    s->stops = calloc((size_t)s->nranks + 1, sizeof *s->stops);
    s->next = calloc((size_t)s->nranks + 1, sizeof *s->next);
    if (!s->stops || !s->next) {
        cli_error("out of memory");
        return CLI_EXIT_FAIL;
    }
    for (int r = 0; r < s->nranks; r++) s->stops[r] = MPIRR_POS_NONE;
    if (replay_control_create(&s->control, s->nranks)) return CLI_EXIT_FAIL;
    for (int r = 0; r < s->nranks; r++)
        replay_control_set_ends_itself(&s->control, r, ends[r].ending, ends[r].detail);
    return 0;
}

/* Checks p against the recording; 0, or -1 after a line on out. */
static int check_point(struct replay_session *s, const struct stop_point *p, FILE *out)
{
    if (p->event == 1 && !p->after) {
        fprintf(out, "mpirr: rank %d event 1 is MPI_Init, which a replay cannot stop before "
                     "(stop after it: %d:1 --after)\n", p->rank, p->rank);
        return -1;
    }
    uint64_t events = s->ends[p->rank].events;
    if (events && p->event > events) {
        fprintf(out, "mpirr: rank %d's recording ends at event %" PRIu64 ": there is no event %"
                     PRIu64 " to stop at\n", p->rank, events, p->event);
        return -1;
    }
    return 0;
}

/* The stopline of p into stops (and its description into how). 0, or -1 after a line. */
static int make_stopline(struct replay_session *s, const struct stop_point *p, int past,
                         uint64_t *stops, char *how, size_t hown, FILE *out)
{
    if (check_point(s, p, out)) return -1;
    load_history(s);
    char err[1400];
    if (stopline_compute(s->an, s->nranks, p, past, stops, how, hown, err, sizeof err)) {
        fprintf(out, "mpirr: %s\n", err);
        return -1;
    }
    return 0;
}

/* The session reads commands once the ranks stand at their first stopline. */
static void begin_interactive(struct replay_session *s)
{
    s->interactive = 1;
    s->watching = 1;
    s->first = 1;
}

int replay_session_first_stop_at_init(struct replay_session *s)
{
    begin_interactive(s);
    /* after MPI_Init, not before it: a replay cannot stop before event 1 (check_point) */
    for (int r = 0; r < s->nranks; r++) s->stops[r] = mpirr_pos_after(1);
    snprintf(s->how, sizeof s->how, "every rank stops just after MPI_Init (event 1): no --stop "
             "given");
    replay_control_set_stops(&s->control, s->stops);
    return 0;
}

int replay_session_first_stop(struct replay_session *s, const char *spec, int after, int past)
{
    begin_interactive(s);
    if (!spec) { /* --hold-on-signal alone: stop only where something goes wrong */
        snprintf(s->how, sizeof s->how, "no stopline: the ranks run until they end or block");
        return 0;
    }
    struct stop_point p = {.after = after};
    char err[PATH_MAX + 200];
    if (!strcmp(spec, "crash")) {
        if (stopline_crash(s->rec, s->ends, &p, err, sizeof err)) {
            cli_error("%s", err);
            return CLI_EXIT_USAGE;
        }
    } else if (stopline_parse(spec, s->nranks, &p, err, sizeof err)) {
        cli_error("--stop: %s", err);
        return CLI_EXIT_USAGE;
    }
    if (make_stopline(s, &p, past, s->stops, s->how, sizeof s->how, stderr))
        return CLI_EXIT_USAGE;
    replay_control_set_stops(&s->control, s->stops);
    return 0;
}

/* The position rank has reached: where it is held, else what its progress says (a rank in
 * call E has passed "before E"). */
static uint64_t position(struct replay_session *s, int rank)
{
    mpirr_ctl_slot sl;
    replay_control_read(&s->control, rank, &sl);
    if (sl.state == MPIRR_CTL_NOT_STARTED) return 0;
    if (sl.state == MPIRR_CTL_HELD) return sl.held_pos;
    uint64_t event;
    int in_call;
    return mpirr_pos_of_progress(sl.progress, &event, &in_call);
}

/* Whether the job ends without the user, so there is nothing to stop at: every rank has
 * ended by itself (none held, blocked, or held on a signal) - or, with no stopline left, some
 * are held where their recording ends: the hold watch then ends the job as the recorded run
 * ended (when a rank crashed there, by waiting for the replayed crash to end it). */
static int all_ended(struct replay_session *s)
{
    int no_stopline = 1;
    for (int r = 0; r < s->nranks; r++)
        if (s->stops[r] != MPIRR_POS_NONE) no_stopline = 0;
    for (int r = 0; r < s->nranks; r++) {
        mpirr_ctl_slot sl;
        replay_control_read(&s->control, r, &sl);
        if (sl.state < MPIRR_CTL_FINISHED) return 0;
        if (sl.state == MPIRR_CTL_END_OF_RECORDING && !(no_stopline && s->hold)) return 0;
    }
    return 1;
}

/* Whether every rank is where the stopline puts it: at its stop, or ended, or blocked, or
 * stopped by its gdb (a breakpoint: its line is printed here). */
static int stopline_reached(struct replay_session *s)
{
    int reached = 1;
    rank_gdbs_poll(s->gdbs, stdout);
    for (int r = 0; r < s->nranks; r++) {
        enum rank_view v = replay_control_view(&s->control, r, s->stall_s);
        if ((v == RANK_STARTING || v == RANK_RUNNING) && !rank_gdbs_held(s->gdbs, r)) reached = 0;
    }
    return reached;
}

static void push_undo(struct replay_session *s)
{
    if (s->nundo == s->undo_cap) {
        int cap = s->undo_cap ? 2 * s->undo_cap : 8;
        struct session_undo *u = realloc(s->undo, (size_t)cap * sizeof *u);
        if (!u) return; /* undo then goes back less far; nothing else suffers */
        s->undo = u;
        s->undo_cap = cap;
    }
    struct session_undo *u = &s->undo[s->nundo];
    u->stops = malloc((size_t)s->nranks * sizeof *u->stops);
    if (!u->stops) return;
    memcpy(u->stops, s->stops, (size_t)s->nranks * sizeof *u->stops);
    snprintf(u->how, sizeof u->how, "%s", s->how);
    s->nundo++;
}

/* Re-executes the job from the start: the new job starts while the old one's launcher ends it
 * (child_restart). The ranks' reports are forgotten, and the old job's connections ignored
 * from then on (control.h), so that nothing of the old job's ranks reaches the new one's
 * state, whenever they connect (the new job's ranks get a token of their own). The old job's
 * ranks on this host are killed outright once their launcher has its SIGTERM (it is ending
 * its job then: a rank killed is no failure to report); they are held, nothing of theirs is
 * worth a clean end, and their launcher then ends sooner and takes no CPU from the new job.
 * A rank under the user's own debugger is waited for, as on quit. 0, or -1 if the job could
 * not be started again. */
static int relaunch(struct replay_session *s)
{
    rank_gdbs_detach_all(s->gdbs, 1);
    rank_tracers_wait(&s->control, stderr);
    pid_t *old = malloc((size_t)s->nranks * sizeof *old);
    int nold = old ? rank_live_pids_here(&s->control, old) : 0;
    char was[sizeof s->control.address];
    memcpy(was, s->control.address, sizeof was);
    replay_control_reset(&s->control); /* the new job's token in its address */
    int rc = child_restart(was, s->control.address);
    for (int i = 0; i < nold; i++) kill(old[i], SIGKILL);
    free(old);
    return rc;
}

/* Makes stops the stopline in force: released ranks run on to it; if some rank is already
 * past it, the job is re-executed from the start to reach it. */
static enum session_step go_to(struct replay_session *s, const uint64_t *stops, FILE *out)
{
    int behind = -1;
    for (int r = 0; r < s->nranks && behind < 0; r++)
        if (stops[r] != MPIRR_POS_NONE && stops[r] < position(s, r)) behind = r;
    memcpy(s->stops, stops, (size_t)s->nranks * sizeof *stops);
    replay_control_set_stops(&s->control, s->stops);
    rank_gdbs_release(s->gdbs, s->stepping); /* a `step R` moves rank R alone */
    if (behind >= 0) {
        fprintf(out, "mpirr: rank %d is past that stopline: re-executing the replay from the "
                     "start to reach it\n", behind);
        fflush(out);
        if (relaunch(s)) return SESSION_QUIT;
        s->launched_at = 0;
        s->first = 1;
    }
    s->watching = 1;
    return SESSION_RUN;
}

/* Splits line into words (blanks separate; '...' and "..." quote), in place. */
static int split_words(char *line, char **argv, int max)
{
    int argc = 0;
    for (char *p = line; *p && argc < max;) {
        while (isspace((unsigned char)*p)) p++;
        if (!*p) break;
        char *w = p, *o = p;
        for (char q = 0; *p && (q || !isspace((unsigned char)*p)); p++) {
            if (!q && (*p == '\'' || *p == '"')) q = *p;
            else if (q && *p == q) q = 0;
            else *o++ = *p;
        }
        if (*p) p++;
        *o = 0;
        argv[argc++] = w;
    }
    return argc;
}

/* What follows the first n words of line (gdb's own arguments, quoted as typed). */
static const char *after_words(const char *line, int n)
{
    const char *p = line;
    for (int i = 0; i < n; i++) {
        while (isspace((unsigned char)*p)) p++;
        while (*p && !isspace((unsigned char)*p)) p++;
    }
    while (isspace((unsigned char)*p)) p++;
    return p;
}

/* Each command's usage and what it does: `help` prints them, and the line that refuses
 * missing or extra words names the usage. The debugger's commands (debug_commands.h) keep
 * their own rows, listed where the NULL row stands. */
static const struct command_help commands[] = {
    {"where", "where", "one line per rank: where it is, the call, its source line"},
    {"gdb", "gdb R [GDB ARGS...]", "gdb attached to rank R at its call site (ARGS go to gdb)"},
    {"continue", "continue [R:E [--after] [--past]]",
     "run to the next stopline (R:E, or the one `stop` set), or to the end"},
    {"step", "step R [N]", "rank R alone executes N more events (default 1)"},
    {"stop", "stop R:E [--after] [--past]", "set the next stopline (continue goes there)"},
    {"undo", "undo", "back to the previous stopline (re-executes the replay to it)"},
    {NULL, NULL, NULL}, /* the debugger's */
    {"quit", "quit", "end the job"},
    {"help", "help", "this list"},
};
enum { NSESSION = sizeof commands / sizeof commands[0], MAX_COMMANDS = NSESSION + 32 };

/* Every command's row in help's order, the debugger's in place of the NULL row; how many. */
static int all_commands(struct command_help *rows)
{
    int n = 0;
    for (int i = 0; i < NSESSION && n < MAX_COMMANDS; i++) {
        if (commands[i].name) rows[n++] = commands[i];
        else
            for (int k = 0; n < MAX_COMMANDS && !debug_command_row(k, &rows[n]); k++) n++;
    }
    return n;
}

static const char *usage_of(const char *command)
{
    struct command_help rows[MAX_COMMANDS];
    int n = all_commands(rows);
    for (int i = 0; i < n; i++)
        if (!strcmp(rows[i].name, command)) return rows[i].usage;
    return command;
}

/* The session command a mistyped word probably meant, or NULL. */
static const char *suggest(const char *word)
{
    struct command_help rows[MAX_COMMANDS];
    const char *names[MAX_COMMANDS];
    int n = all_commands(rows);
    for (int i = 0; i < n; i++) names[i] = rows[i].name;
    return did_you_mean(word, names, (size_t)n);
}

static void print_help(FILE *out)
{
    struct command_help rows[MAX_COMMANDS];
    int n = all_commands(rows);
    for (int i = 0; i < n; i++) fprintf(out, "%-35s %s\n", rows[i].usage, rows[i].what);
}

/* Whether command got between min and max words after its name (max < 0: any); if not, one
 * line "CMD: which rank? usage: ..." or "CMD: unexpected 'WORD' (usage: ...)" on out. */
static int arity_ok(const char *command, int argc, char **argv, int min, int max,
                    const char *missing, FILE *out)
{
    if (argc - 1 < min) {
        fprintf(out, "mpirr: %s: %s usage: %s\n", command, missing, usage_of(command));
        return 0;
    }
    if (max >= 0 && argc - 1 > max) {
        fprintf(out, "mpirr: %s: unexpected '%s' (usage: %s)\n", command, argv[max + 1],
                usage_of(command));
        return 0;
    }
    return 1;
}

static int parse_rank(struct replay_session *s, const char *command, const char *word,
                      int *rank, FILE *out)
{
    int64_t r;
    if (mpirr_parse_int(word, 0, s->nranks - 1, &r)) {
        fprintf(out, "mpirr: %s: '%s' is not a rank: the job has ranks 0 to %d\n", command, word,
                s->nranks - 1);
        return -1;
    }
    *rank = (int)r;
    return 0;
}

/* continue/stop's stopline arguments: R:E [--after|--before] [--past]. */
static int parse_stopline_args(struct replay_session *s, int argc, char **argv, uint64_t *stops,
                               char *how, size_t hown, FILE *out)
{
    struct stop_point p = {0};
    int past = 0;
    const char *spec = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--after")) p.after = 1;
        else if (!strcmp(argv[i], "--before")) p.after = 0;
        else if (!strcmp(argv[i], "--past")) past = 1;
        else if (!spec) spec = argv[i];
        else {
            fprintf(out, "mpirr: %s: unexpected '%s'\n", argv[0], argv[i]);
            return -1;
        }
    }
    char err[512];
    if (!spec) {
        fprintf(out, "mpirr: %s: which stopline? usage: %s\n", argv[0], usage_of(argv[0]));
        return -1;
    }
    if (stopline_parse(spec, s->nranks, &p, err, sizeof err)) {
        fprintf(out, "mpirr: %s: %s\n", argv[0], err);
        return -1;
    }
    return make_stopline(s, &p, past, stops, how, hown, out);
}

static enum session_step cmd_continue(struct replay_session *s, int argc, char **argv, FILE *out)
{
    uint64_t *stops = s->next;
    char how[sizeof s->how];
    if (argc > 1) {
        if (parse_stopline_args(s, argc, argv, stops, how, sizeof how, out)) return SESSION_STAY;
    } else if (s->have_next) {
        snprintf(how, sizeof how, "%s", s->next_how);
    } else {
        for (int r = 0; r < s->nranks; r++) stops[r] = MPIRR_POS_NONE;
        snprintf(how, sizeof how, "none: the ranks run to the end of the recording");
    }
    s->have_next = 0;
    push_undo(s);
    snprintf(s->how, sizeof s->how, "%s", how);
    return go_to(s, stops, out);
}

static enum session_step cmd_step(struct replay_session *s, int argc, char **argv, FILE *out)
{
    int rank;
    uint64_t n = 1;
    if (!arity_ok("step", argc, argv, 1, 2, "which rank?", out) ||
        parse_rank(s, "step", argv[1], &rank, out))
        return SESSION_STAY;
    if (argc == 3 && (mpirr_parse_uint(argv[2], UINT64_MAX, &n) || n == 0)) {
        fprintf(out, "mpirr: step %d: '%s' is not a number of events (an integer from 1 up)\n",
                rank, argv[2]);
        return SESSION_STAY;
    }
    mpirr_ctl_slot sl;
    replay_control_read(&s->control, rank, &sl);
    if (rank_gdbs_held(s->gdbs, rank)) {
        fprintf(out, "mpirr: rank %d is stopped at %s by its gdb, between events: `next %d` steps "
                     "its lines, `continue` lets it run\n", rank, rank_gdbs_held(s->gdbs, rank), rank);
        return SESSION_STAY;
    }
    if (sl.state != MPIRR_CTL_HELD &&
        replay_control_view(&s->control, rank, s->stall_s) == RANK_BLOCKED) {
        fprintf(out, "mpirr: rank %d is not held at a stopline, it cannot step: it is blocked in "
                     "MPI", rank);
        where_put_blocked(s, rank, out);
        fputc('\n', out);
        return SESSION_STAY;
    }
    if (sl.state != MPIRR_CTL_HELD) {
        fprintf(out, "mpirr: rank %d is not held at a stopline (it is %s): it cannot step\n", rank,
                mpirr_ctl_state_name(sl.state));
        return SESSION_STAY;
    }
    /* how far it can go, computed so that nothing wraps: a position is 2E or 2E+1 and
     * MPIRR_POS_NONE (2^64-1) means "no stop"; a known recording ends before event events+1 */
    uint64_t events = s->ends[rank].events, at = mpirr_pos_event(sl.held_pos);
    uint64_t most = (MPIRR_POS_NONE - 1 - sl.held_pos) / 2;
    if (events && at <= events + 1 && events + 1 - at < most) most = events + 1 - at;
    if (n > most) {
        if (events)
            fprintf(out, "mpirr: rank %d's recording ends at event %" PRIu64 ": it cannot step %"
                         PRIu64 " events from event %" PRIu64 " (at most %" PRIu64 ")\n",
                    rank, events, n, at, events + 1 > at ? events + 1 - at : 0);
        else
            fprintf(out, "mpirr: step %d: %" PRIu64 " events would go past any recording\n",
                    rank, n);
        return SESSION_STAY;
    }
    uint64_t target = sl.held_pos + 2 * n;
    push_undo(s);
    memcpy(s->next, s->stops, (size_t)s->nranks * sizeof *s->next);
    s->next[rank] = target;
    snprintf(s->how, sizeof s->how, "rank %d stepped %" PRIu64 " event%s; the others stay", rank,
             n, n == 1 ? "" : "s");
    s->stepping = rank;
    return go_to(s, s->next, out);
}

static enum session_step cmd_undo(struct replay_session *s, FILE *out)
{
    if (s->nundo == 0) {
        fprintf(out, "mpirr: nothing to undo: this is the first stopline\n");
        return SESSION_STAY;
    }
    struct session_undo *u = &s->undo[--s->nundo];
    memcpy(s->stops, u->stops, (size_t)s->nranks * sizeof *s->stops);
    snprintf(s->how, sizeof s->how, "%s", u->how);
    free(u->stops);
    replay_control_set_stops(&s->control, s->stops);
    fprintf(out, "mpirr: undo: re-executing the replay from the start to the previous stopline\n");
    fflush(out);
    if (relaunch(s)) return SESSION_QUIT;
    s->launched_at = 0;
    s->first = 1;
    s->watching = 1;
    return SESSION_RUN;
}

static int link_command(void *s, const char *line, FILE *out);
static int link_wait(void *s, FILE *out);

static void cmd_gdb(struct replay_session *s, int argc, char **argv, const char *line, FILE *out)
{
    int rank;
    if (!arity_ok("gdb", argc, argv, 1, -1, "which rank?", out) ||
        parse_rank(s, "gdb", argv[1], &rank, out))
        return;
    struct gdb_link link = {.control = &s->control, .nranks = s->nranks, .stall_s = s->stall_s,
                            .session = s, .command = link_command, .wait = link_wait};
    if (rank_gdbs_lend(s->gdbs, rank, 0, out)) return; /* one ptrace per process */
    gdb_attach(&link, rank, after_words(line, 2), out);
    rank_gdbs_lend(s->gdbs, rank, 1, out);
}

/* From the prompt, the gdb extension (whose rank gdb keeps stopped) and the --ui page: nothing
 * here waits for the stopline (the watch, or the extension's "wait", sees the ranks arrive). */
enum session_step replay_session_execute(struct replay_session *s, const char *line, FILE *out)
{
    char buf[SESSION_LINE_MAX], *argv[64];
    if (strlen(line) >= sizeof buf) { /* the readers refuse longer lines: never cut one */
        fprintf(out, "mpirr: a session command is at most %d bytes\n", SESSION_LINE_MAX - 1);
        return SESSION_STAY;
    }
    snprintf(buf, sizeof buf, "%s", line);
    buf[strcspn(buf, "\r\n")] = 0;
    int argc = split_words(buf, argv, 64);
    if (argc == 0) return SESSION_STAY;
    static const char *const aliases[][2] = {{"q", "quit"}, {"c", "continue"}, {"s", "step"}};
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (!strcmp(argv[0], aliases[i][0])) argv[0] = (char *)aliases[i][1];
    const char *c = argv[0];
    int bare = !strcmp(c, "where") || !strcmp(c, "help") || !strcmp(c, "quit") ||
               !strcmp(c, "undo");
    enum session_step step = SESSION_STAY;
    if (bare && !arity_ok(c, argc, argv, 0, 0, "", out)) {
        /* said why */
    } else if (!strcmp(c, "where")) {
        where_print(s, out);
    } else if (!strcmp(c, "help")) {
        print_help(out);
    } else if (!strcmp(c, "quit")) {
        step = SESSION_QUIT;
    } else if (!strcmp(c, "continue")) {
        step = cmd_continue(s, argc, argv, out);
    } else if (!strcmp(c, "step")) {
        step = cmd_step(s, argc, argv, out);
    } else if (!strcmp(c, "undo")) {
        step = cmd_undo(s, out);
    } else if (!strcmp(c, "stop")) {
        if (!parse_stopline_args(s, argc, argv, s->next, s->next_how, sizeof s->next_how, out)) {
            s->have_next = 1;
            fprintf(out, "next stopline: %s (continue goes there)\n", s->next_how);
        }
    } else if (!strcmp(c, "gdb")) {
        cmd_gdb(s, argc, argv, line, out);
    } else if (debug_is_command(c)) {
        debug_command(s, argc, argv, after_words(line, 2), out);
    } else {
        const char *meant = suggest(c);
        if (meant)
            fprintf(out, "mpirr: unknown command '%s': did you mean '%s'? (help lists the "
                         "commands)\n", c, meant);
        else
            fprintf(out, "mpirr: unknown command '%s' (help lists the commands)\n", c);
    }
    fflush(out);
    return step;
}

/* The ranks reached the stopline: say where they are. */
static void arrived(struct replay_session *s, FILE *out)
{
    s->watching = 0;
    if (s->stepping >= 0) where_print_rank(s, s->stepping, out);
    else where_print(s, out);
    s->stepping = -1;
}

/* Waits until every rank is at its stop, ended or blocked, then prints the `where` table to
 * out. 0, or -1 if the job is gone. */
static int session_wait(struct replay_session *s, FILE *out)
{
    while (s->watching) {
        if (child_exited()) {
            fprintf(out, "mpirr: the job has ended\n");
            return -1;
        }
        if (stopline_reached(s)) {
            arrived(s, out);
            break;
        }
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    return 0;
}

/* gdb_link's callbacks (gdb_link.h) */
static int link_command(void *s, const char *line, FILE *out)
{
    return replay_session_execute(s, line, out) == SESSION_RUN;
}

static int link_wait(void *s, FILE *out)
{
    return session_wait(s, out);
}

/* Reads one command line, at most n - 1 bytes without its newline, into line. 0; 1 at the
 * end of the input; or -1 for a longer line, read to its end and dropped: run as pieces, its
 * tail could be any command (a long `gdb ... -ex '...'` cut before a `quit`). */
static int read_line(FILE *in, char *line, size_t n)
{
    if (!fgets(line, (int)n, in)) return 1;
    if (strchr(line, '\n')) return 0;
    int c = getc(in); /* the buffer is full, or the input ends without a newline */
    if (c == EOF || c == '\n') return 0;
    while ((c = getc(in)) != EOF && c != '\n') {}
    return -1;
}

/* Reads and runs commands until one releases the ranks (0) or ends the job (1). */
static int command_loop(struct replay_session *s)
{
    char line[SESSION_LINE_MAX];
    for (;;) {
        if (s->tty) {
            fputs("(mpirr) ", stdout);
            fflush(stdout);
        }
        if (s->side.wait) { /* the page's commands run meanwhile */
            enum session_step step = s->side.wait(s->side.arg, fileno(s->in));
            if (step == SESSION_QUIT) s->quit = 1;
            if (step != SESSION_STAY) return step == SESSION_QUIT;
        }
        int got = read_line(s->in, line, sizeof line);
        if (got > 0) { /* end of the commands: end the job */
            s->quit = 1;
            return 1;
        }
        if (!s->tty) { /* a script: echo the command, so the transcript reads like a session */
            printf("(mpirr) %.*s%s\n", got ? 60 : (int)strcspn(line, "\n"), line,
                   got ? "..." : "");
        }
        if (got < 0) {
            printf("mpirr: a session command is at most %d bytes: this one is longer and was "
                   "ignored whole\n", SESSION_LINE_MAX - 1);
            fflush(stdout);
            continue;
        }
        enum session_step step = replay_session_execute(s, line, stdout);
        if (step == SESSION_QUIT) {
            s->quit = 1;
            return 1;
        }
        if (step == SESSION_RUN) return 0;
    }
}

/* The watch proper; 1 ends the job. */
static int watch(struct replay_session *s)
{
    if (teardown_watch_due(&s->teardown, &s->control, stderr)) return 1;
    if (s->hold && s->hold->expected > 0 && replay_hold_watch(s->hold)) return 1;
    if (!s->interactive) return 0;
    if (s->watching) {
        if (s->side.poll) s->side.poll(s->side.arg); /* the page asks while the ranks run */
        if (s->launched_at == 0) s->launched_at = mono_seconds();
        if (!stopline_reached(s)) return 0;
        if (all_ended(s)) return 0; /* the job ends by itself: the verdict follows */
        if (s->first) {
            s->first = 0;
            fprintf(stdout, "mpirr: every rank is at the stopline (%.2f s after the launch)\n",
                    mono_seconds() - s->launched_at);
        }
        arrived(s, stdout);
    }
    return command_loop(s);
}

int replay_session_watch(void *arg)
{
    struct replay_session *s = arg;
    if (!watch(s)) return 0;
    rank_gdbs_detach_all(s->gdbs, 0); /* the job ends: no rank stays under a gdb of ours */
    /* ending the job would kill a rank under the user's own debugger (gdb -p at a breakpoint) */
    rank_tracers_wait(&s->control, stderr);
    return 1;
}

void replay_session_close(struct replay_session *s)
{
    rank_gdbs_free(s->gdbs);
    replay_control_finish(&s->control);
    for (int i = 0; i < s->nundo; i++) free(s->undo[i].stops);
    free(s->undo);
    free(s->stops);
    free(s->next);
    mpirr_sym_close(s->sym);
    if (s->an) {
        analysis_close(s->an);
        free(s->an);
    }
    memset(s, 0, sizeof *s);
}
