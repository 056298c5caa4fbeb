/* debug_commands.c: see debug_commands.h. Each command parses its rank set (rank_set.h), hands
 * the gdb commands to every rank's gdb at once (rank_gdbs_on) and prints one line per rank
 * ("rank R  ...") from what each gdb answered. */
#include "debug_commands.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "app_stacks.h"
#include "gdb_link.h"
#include "gdb_mi.h"
#include "number_parse.h"
#include "rank_gdbs.h"
#include "rank_set.h"
#include "replay_session.h"
#include "stack_merge.h"
#include "where.h"

enum { MAX_FRAMES = 256 };

static struct rank_gdbs *gdbs_of(struct replay_session *s, FILE *out)
{
    if (!s->gdbs) s->gdbs = rank_gdbs_new(&s->control, s->nranks);
    if (!s->gdbs) fprintf(out, "mpirr: out of memory\n");
    return s->gdbs;
}

/* A rank's answer was ^error: its line. 1 if so. */
static int said_error(int rank, const struct gdb_mi *g, FILE *out)
{
    if (!g->error) return 0;
    fprintf(out, "rank %d  error: %s\n", rank, g->message);
    return 1;
}

/* ---- stacks ---- */

static void add_stack(int rank, struct gdb_mi *g, void *arg, FILE *out)
{
    char *labels[MAX_FRAMES];
    if (said_error(rank, g, out)) return;
    int n = app_stack_labels(g->console, labels, MAX_FRAMES);
    if (n == 0) fprintf(out, "rank %d  no application frame on its stack\n", rank);
    else if (stack_tree_add(arg, rank, (const char *const *)labels, n))
        fprintf(out, "mpirr: out of memory\n");
    app_stack_free(labels, n);
}

/* stacks --threads: every thread of the rank, its thread numbers in the leaves. */
static void add_thread_stacks(int rank, struct gdb_mi *g, void *arg, FILE *out)
{
    if (said_error(rank, g, out)) return;
    int n = app_stacks_add_threads(arg, rank, g->console);
    if (n == 0) fprintf(out, "rank %d  no application frame on any thread's stack\n", rank);
    else if (n < 0) fprintf(out, "mpirr: out of memory\n");
}

/* Whether rank is stopped (held, blocked, held by its gdb): it has a stack to show. */
static int is_stopped(struct replay_session *s, int rank)
{
    if (rank_gdbs_held(s->gdbs, rank)) return 1;
    mpirr_ctl_slot sl;
    replay_control_read(&s->control, rank, &sl);
    if (sl.state == MPIRR_CTL_HELD_SIGNAL || sl.state == MPIRR_CTL_END_OF_RECORDING) return 1;
    enum rank_view v = replay_control_view(&s->control, rank, s->stall_s);
    return v == RANK_AT_STOP || v == RANK_BLOCKED;
}

/* threads: every thread's stack (`stacks --threads`), else the held thread's. */
static void cmd_stacks(struct replay_session *s, int threads, FILE *out)
{
    unsigned char *set = calloc((size_t)s->nranks, 1), *rest = calloc((size_t)s->nranks, 1);
    struct stack_tree *t = stack_tree_new(s->nranks);
    struct rank_gdbs *d = gdbs_of(s, out);
    if (set && rest && t && d) {
        for (int r = 0; r < s->nranks; r++) {
            set[r] = (unsigned char)is_stopped(s, r);
            rest[r] = !set[r];
        }
        const char *cmds[] = {threads ? "mpirr frames --threads" : "mpirr frames"};
        if (rank_set_count(set, s->nranks) == 0)
            fprintf(out, "mpirr: stacks: no rank is held or blocked\n");
        else
            rank_gdbs_on(d, set, cmds, 1, 1, threads ? add_thread_stacks : add_stack, t, out);
        stack_tree_print(t, out);
        char text[1024];
        rank_set_format(rest, s->nranks, text, sizeof text);
        if (text[0]) fprintf(out, "%s  (running or ended: no stack)\n", text);
    }
    stack_tree_free(t);
    free(set);
    free(rest);
}

/* ---- the commands on a set ---- */

static void put_bt(int rank, struct gdb_mi *g, void *arg, FILE *out)
{
    (void)arg;
    char *labels[MAX_FRAMES];
    if (said_error(rank, g, out)) return;
    int n = app_stack_labels(g->console, labels, MAX_FRAMES);
    fprintf(out, "rank %d  ", rank);
    for (int i = n - 1; i >= 0; i--) fprintf(out, "%s%s", labels[i], i ? " <- " : "");
    fprintf(out, "%s\n", n ? "" : "no application frame on its stack");
    app_stack_free(labels, n);
}

static void put_value(int rank, struct gdb_mi *g, void *arg, FILE *out)
{
    if (said_error(rank, g, out)) return;
    const char *v = gdb_mi_result_text(g, "value");
    fprintf(out, "rank %d  %s = %s\n", rank, (const char *)arg, v ? v : "?");
}

struct point_arg {
    struct rank_gdbs *d;
    const char *what;
};

static void put_point(int rank, struct gdb_mi *g, void *arg, FILE *out)
{
    struct point_arg *p = arg;
    if (said_error(rank, g, out)) return;
    rank_gdbs_note_points(p->d, rank);
    const char *num = gdb_mi_result_text(g, "bkpt.number");
    if (num) {
        const char *file = gdb_mi_result_text(g, "bkpt.file"), *line = gdb_mi_result_text(g, "bkpt.line");
        const char *base = file ? strrchr(file, '/') : NULL;
        if (file && line)
            fprintf(out, "rank %d  breakpoint %s at %s:%s\n", rank, num, base ? base + 1 : file, line);
        else
            fprintf(out, "rank %d  breakpoint %s at %s (pending)\n", rank, num, p->what);
        return;
    }
    if (!(num = gdb_mi_result_text(g, "wpt.number")) && !(num = gdb_mi_result_text(g, "hw-awpt.number")))
        num = "?";
    fprintf(out, "rank %d  watchpoint %s: %s\n", rank, num, p->what);
}

static void put_console(int rank, struct gdb_mi *g, void *arg, FILE *out)
{
    (void)arg;
    if (said_error(rank, g, out)) return;
    char *copy = strdup(g->console ? g->console : ""), *save = NULL;
    if (!copy) return;
    int any = 0;
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        fprintf(out, "rank %d  %s\n", rank, line);
        any = 1;
    }
    if (!any) fprintf(out, "rank %d  done\n", rank);
    free(copy);
}

/* The usage line of each command, what it does (the session's `help`), and how many words it
 * takes after its name. */
static const struct {
    const char *name, *usage, *what;
    int words;          /* after the set: 0 none, 1 the rest of the line (required) */
} commands[] = {
    {"stacks", "stacks [--threads]",
     "every held or blocked rank's stack (--threads: every thread's), merged into one tree", -1},
    {"bt", "bt SET", "each rank's stack, one line a rank (SET: 0-3, 1,5 or all)", 0},
    {"print", "print SET EXPR", "EXPR in each rank of SET, in its application frame", 1},
    {"break", "break SET LOCATION", "a breakpoint in each rank of SET (kept across continue)", 1},
    {"watch", "watch SET EXPR", "a watchpoint in each rank of SET (kept across continue)", 1},
    {"delete", "delete SET N", "delete breakpoint or watchpoint N in each rank of SET", 1},
    {"info", "info breakpoints [SET]", "the breakpoints and watchpoints of each rank", -2},
    {"next", "next R", "rank R, stopped by its gdb, runs one source line (over calls)", -3},
    {"stepin", "stepin R", "rank R, stopped by its gdb, runs one source line (into calls)", -3},
    {"record", "record R [stop]", "gdb's process record of rank R from here (reverse-* go back)",
     -4},
    {"reverse-next", "reverse-next R", "rank R, recorded, goes back one source line (over calls)",
     -3},
    {"reverse-step", "reverse-step R", "rank R, recorded, goes back one source line (into calls)",
     -3},
    {"reverse-continue", "reverse-continue R",
     "rank R, recorded, goes back to a breakpoint or its record's start", -3},
};
enum { NCOMMANDS = sizeof commands / sizeof commands[0] };

int debug_command_row(int i, struct command_help *row)
{
    if (i < 0 || i >= NCOMMANDS) return -1;
    *row = (struct command_help){commands[i].name, commands[i].usage, commands[i].what};
    return 0;
}

static int find_command(const char *word)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(commands[i].name, word)) return (int)i;
    return -1;
}

int debug_is_command(const char *word)
{
    return find_command(word) >= 0;
}

/* The rank word names, or -1 after a line naming the command. */
static int rank_of(struct replay_session *s, const char *name, const char *word, FILE *out)
{
    int64_t rank;
    if (mpirr_parse_int(word, 0, s->nranks - 1, &rank)) {
        fprintf(out, "mpirr: %s: '%s' is not a rank: the job has ranks 0 to %d\n", name, word,
                s->nranks - 1);
        return -1;
    }
    return (int)rank;
}

/* next R / stepin R: the rank's stop becomes just before its next event, so that it holds at
 * its next MPI call (the stopline's bookkeeping: `where` shows it there). */
static void cmd_next(struct replay_session *s, int into, const char *word, FILE *out)
{
    int rank = rank_of(s, into ? "stepin" : "next", word, out);
    struct rank_gdbs *d = rank < 0 ? NULL : gdbs_of(s, out);
    if (!d) return;
    mpirr_ctl_slot sl;
    replay_control_read(&s->control, (int)rank, &sl);
    uint64_t event;
    int in_call;
    mpirr_pos_of_progress(sl.progress, &event, &in_call);
    /* in its own code, the rank's last call has returned, whatever the word says */
    uint64_t stop = mpirr_pos_before(event + 1);
    uint64_t events = s->ends[rank].events;
    if (events && mpirr_pos_event(stop) > events) stop = MPIRR_POS_NONE; /* no event left */
    uint64_t old = s->stops[rank];
    int held = rank_gdbs_held(d, (int)rank) != NULL;
    if (held) {
        s->stops[rank] = stop;
        replay_control_set_stops(&s->control, s->stops);
    }
    int got = rank_gdbs_next(d, (int)rank, into, stop, s->stall_s, out);
    if (got < 0 && held) { /* it did not step: its stop stays */
        s->stops[rank] = old;
        replay_control_set_stops(&s->control, s->stops);
    }
    if (got == 1) where_print_rank(s, (int)rank, out);
}

void debug_command(struct replay_session *s, int argc, char **argv, const char *line_rest,
                   FILE *out)
{
    int i = find_command(argv[0]);
    char rest[SESSION_LINE_MAX];
    snprintf(rest, sizeof rest, "%s", line_rest);
    rest[strcspn(rest, "\r\n")] = 0;
    const char *set_word = argc > 1 ? argv[1] : NULL;
    if (commands[i].words == -1) { /* stacks [--threads] */
        int threads = argc > 1 && !strcmp(argv[1], "--threads");
        if (argc > 1 + threads)
            fprintf(out, "mpirr: stacks: unexpected '%s' (usage: %s)\n", argv[1 + threads],
                    commands[i].usage);
        else cmd_stacks(s, threads, out);
        return;
    }
    if (commands[i].words <= -3) { /* next R, stepin R, reverse-* R; record R [stop] */
        int record = commands[i].words == -4;
        if (argc < 2 || argc > 2 + record || (argc == 3 && strcmp(argv[2], "stop")))
            fprintf(out, "mpirr: %s: %s usage: %s\n", argv[0], argc < 2 ? "which rank?" : "one rank:",
                    commands[i].usage);
        else if (!strncmp(argv[0], "reverse-", 8) || record) {
            int rank = rank_of(s, argv[0], argv[1], out);
            struct rank_gdbs *d = rank < 0 ? NULL : gdbs_of(s, out);
            if (d && record) rank_gdbs_record(d, rank, argc == 2, out);
            else if (d) rank_gdbs_reverse(d, rank, argv[0] + 8, out);
        } else cmd_next(s, !strcmp(argv[0], "stepin"), argv[1], out);
        return;
    }
    if (commands[i].words == -2) { /* info breakpoints [SET] */
        if (argc < 2 || (strcmp(argv[1], "breakpoints") && strcmp(argv[1], "break") &&
                         strcmp(argv[1], "watchpoints")) || argc > 3) {
            fprintf(out, "mpirr: info: usage: %s\n", commands[i].usage);
            return;
        }
        set_word = argc == 3 ? argv[2] : NULL;
    } else if (!set_word || (commands[i].words == 1 && !rest[0]) ||
               (commands[i].words == 0 && argc > 2)) {
        fprintf(out, "mpirr: %s: %s usage: %s\n", argv[0],
                !set_word ? "which ranks?" : commands[i].words ? "what?" : "one rank set:",
                commands[i].usage);
        return;
    }
    struct rank_gdbs *d = gdbs_of(s, out);
    unsigned char *set = calloc((size_t)s->nranks, 1);
    char err[256], quoted[4200], cmd[4300];
    if (!d || !set) {
        free(set);
        return;
    }
    if (set_word && rank_set_parse(set_word, s->nranks, set, err, sizeof err)) {
        fprintf(out, "mpirr: %s: %s\n", argv[0], err);
    } else if (commands[i].words == 1 && gdb_mi_quote(rest, quoted, sizeof quoted)) {
        fprintf(out, "mpirr: %s: too long\n", argv[0]);
    } else if (!strcmp(argv[0], "bt")) {
        static const char *const cmds[] = {"mpirr frames"};
        rank_gdbs_on(d, set, cmds, 1, 0, put_bt, NULL, out);
    } else if (!strcmp(argv[0], "print")) {
        snprintf(cmd, sizeof cmd, "-data-evaluate-expression %s", quoted);
        const char *cmds[] = {"mpirr frame", cmd};
        rank_gdbs_on(d, set, cmds, 2, 0, put_value, rest, out);
    } else if (!strcmp(argv[0], "break") || !strcmp(argv[0], "watch")) {
        int brk = !strcmp(argv[0], "break");
        snprintf(cmd, sizeof cmd, "%s %s", brk ? "-break-insert -f" : "-break-watch", quoted);
        const char *cmds[] = {"mpirr frame", cmd};
        struct point_arg p = {d, rest};
        rank_gdbs_on(d, set, cmds + brk, 2 - brk, 0, put_point, &p, out);
    } else if (!strcmp(argv[0], "delete")) {
        snprintf(cmd, sizeof cmd, "delete %s", rest);
        const char *cmds[] = {cmd};
        rank_gdbs_on(d, set, cmds, 1, 0, put_console, NULL, out);
    } else { /* info breakpoints: without a set, the ranks that have a gdb */
        if (!set_word)
            for (int r = 0; r < s->nranks; r++) set[r] = (unsigned char)rank_gdbs_has(d, r);
        static const char *const cmds[] = {"info breakpoints"};
        if (rank_set_count(set, s->nranks) == 0)
            fprintf(out, "mpirr: info breakpoints: no rank has a gdb yet (break SET LOCATION)\n");
        else
            rank_gdbs_on(d, set, cmds, 1, 0, put_console, NULL, out);
    }
    free(set);
}
