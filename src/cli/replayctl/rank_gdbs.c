/* rank_gdbs.c: see rank_gdbs.h. Each rank's gdb is in one of these states: none (no gdb
 * process), detached (a gdb with no process: a relaunch or `gdb R` took it away), running (its
 * rank runs, as far as gdb is concerned), stopped by us for a command (run again after it), or
 * holding the rank at a stop the user sees (held[]). */
#include "rank_gdbs.h"

#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "control.h"
#include "gdb_attach.h"
#include "gdb_mi.h"
#include "gdb_remote.h"
#include "paths.h"
#include "rank_process.h"

/* gdb reads the rank's libraries' symbols when it attaches: seconds under load, each. */
#define ATTACH_TIMEOUT_S 180.0
#define COMMAND_TIMEOUT_S 60.0
#define REMOTE_CLOSE_WAIT_S 5.0

struct rank_gdb {
    struct gdb_mi mi;
    pid_t pid;          /* the process attached to, or 0 */
    int held;           /* its gdb keeps it stopped where the user sees it: stop says where */
    char stop[400];
    int points;         /* breakpoints or watchpoints were set: re-attach after a relaunch */
    int reattach;       /* the job was re-executed: attach to the rank's new process */
    int transient;      /* started for one call (stacks without a kept gdb) */
    int recording;      /* gdb's process record is on (rank_gdbs_record) */
    int reversed;       /* and the rank was stepped back: gdb replays its log */
    /* the host its gdb runs on when the rank runs on another host than mpirr's ("" here):
     * gdb/MI through the remote shell (gdb_remote.h), its pipes forwarded */
    char host[sizeof ((mpirr_ctl_slot *)0)->host];
};

struct rank_gdbs {
    struct replay_control *control;
    int nranks;
    struct rank_gdb *g;
    char gdb[PATH_MAX], ext[PATH_MAX];
    int have_ext;
    int found;          /* gdb and ext looked up (0 not yet, 1 found, -1 no gdb) */
};

struct rank_gdbs *rank_gdbs_new(struct replay_control *control, int nranks)
{
    struct rank_gdbs *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->g = calloc((size_t)nranks, sizeof *d->g);
    if (!d->g) {
        free(d);
        return NULL;
    }
    d->control = control;
    d->nranks = nranks;
    return d;
}

static int find_gdb(struct rank_gdbs *d, FILE *out)
{
    if (!d->found) {
        d->found = path_find_exec("gdb", NULL, d->gdb, sizeof d->gdb) == 0 ? 1 : -1;
        d->have_ext = gdb_extension_path(d->ext, sizeof d->ext) == 0;
    }
    if (d->found < 0) fprintf(out, "mpirr: gdb: not found in PATH (apt-get install gdb)\n");
    else if (!d->have_ext)
        fprintf(out, "mpirr: gdb: the mpirr extension is missing (%s): stacks and bt need it\n",
                d->ext);
    return d->found > 0 ? 0 : -1;
}

/* Whether rank's process can be attached to; if not, one line on out. host: "" when it runs
 * on this host, else its host (whose pids are not ours to look at: its state says). */
static pid_t attachable(struct rank_gdbs *d, int rank, char *host, FILE *out)
{
    mpirr_ctl_slot sl;
    replay_control_read(d->control, rank, &sl);
    if (sl.state == MPIRR_CTL_NOT_STARTED || sl.pid <= 0) {
        fprintf(out, "mpirr: rank %d has not started (it has not reached the end of MPI_Init)\n",
                rank);
        return 0;
    }
    int here = rank_on_this_host(&sl);
    snprintf(host, sizeof sl.host, "%.*s", (int)sizeof sl.host - 1, here ? "" : sl.host);
    if ((here && !rank_pid_alive(sl.pid)) || sl.state >= MPIRR_CTL_FINISHED) {
        if (sl.state != MPIRR_CTL_END_OF_RECORDING && sl.state != MPIRR_CTL_HELD_SIGNAL) {
            fprintf(out, "mpirr: rank %d is %s: there is no process to attach to\n", rank,
                    mpirr_ctl_state_name(sl.state));
            return 0;
        }
    }
    return sl.pid;
}

static void forget(struct rank_gdb *r)
{
    if (r->mi.pid > 0) rank_tracer_own(r->mi.pid, 0);
    gdb_mi_close(&r->mi);
    memset(r, 0, sizeof *r);
}

/* Starts rank's gdb on host ("" here; else through the remote shell, after checking that the
 * host answers and has gdb). 0, or -1 after one line on out. */
static int spawn(struct rank_gdbs *d, int rank, const char *host, int transient, FILE *out)
{
    struct rank_gdb *g = &d->g[rank];
    char *argv[GDB_MI_ARGV_MAX], **rsh = NULL, err[256];
    int have_ext = d->have_ext;
    if (host[0] && gdb_remote_check(host, rank, have_ext ? d->ext : NULL, &have_ext, out))
        return -1;
    int argc = gdb_mi_argv(host[0] ? "gdb" : d->gdb, have_ext ? d->ext : NULL, argv);
    if (host[0] && !(rsh = gdb_remote_argv(host, argc, argv, GDB_REMOTE_PIPE, out))) return -1;
    int rc = gdb_mi_spawn(&g->mi, rsh ? rsh : argv, err, sizeof err);
    gdb_remote_free(rsh);
    if (rc) {
        fprintf(out, "mpirr: rank %d: %s\n", rank, err);
        return -1;
    }
    snprintf(g->host, sizeof g->host, "%s", host);
    /* a remote gdb exits, and its ssh with it, a few round trips after -gdb-exit; an ssh
     * killed before would leave gdb on its node until it noticed the end of its input */
    if (host[0]) g->mi.close_wait_s = REMOTE_CLOSE_WAIT_S;
    g->transient = transient;
    rank_tracer_own(g->mi.pid, 1);
    return 0;
}

/* Attaches the gdbs of the ranks of set that have none attached, in parallel; a rank that
 * cannot be attached leaves set (one line on out). */
static void attach_set(struct rank_gdbs *d, unsigned char *set, int transient, FILE *out)
{
    struct gdb_mi **wait = calloc((size_t)d->nranks, sizeof *wait);
    if (!wait) {
        memset(set, 0, (size_t)d->nranks);
        return;
    }
    for (int r = 0; r < d->nranks; r++) {
        struct rank_gdb *g = &d->g[r];
        if (!set[r] || g->pid > 0) continue;
        char host[sizeof g->host];
        pid_t pid = attachable(d, r, host, out);
        if (pid && g->mi.pid > 0 && strcmp(host, g->host)) forget(g); /* moved: a gdb there */
        if (!pid || (g->mi.pid <= 0 && spawn(d, r, host, transient, out))) {
            set[r] = 0;
            continue;
        }
        if (gdb_mi_start(&g->mi, 1, "-target-attach %d", (int)pid)) {
            fprintf(out, "mpirr: rank %d: gdb exited\n", r);
            forget(g);
            set[r] = 0;
            continue;
        }
        g->pid = pid;
        g->reattach = 0;
        wait[r] = &g->mi;
    }
    gdb_mi_wait_all(wait, d->nranks, ATTACH_TIMEOUT_S);
    for (int r = 0; r < d->nranks; r++) {
        struct rank_gdb *g = &d->g[r];
        if (!wait[r]) continue;
        struct mi_stop st;
        gdb_mi_take_stop(&g->mi, &st);
        if (!gdb_mi_busy(&g->mi) && !g->mi.error && !g->mi.exited) continue;
        fprintf(out, "mpirr: rank %d: gdb cannot attach to its process %d: %s\n", r, (int)g->pid,
                g->mi.error ? g->mi.message : gdb_mi_busy(&g->mi) ? "no answer" : "it is gone");
        forget(g);
        set[r] = 0;
    }
    free(wait);
}

/* "breakpoint 1, prog.c:30 (settle)": what stopped a rank, for its line and `where`. */
static void describe_stop(const struct mi_stop *st, char *out, size_t n)
{
    char what[80];
    if (!strcmp(st->reason, "breakpoint-hit"))
        snprintf(what, sizeof what, "breakpoint %d, ", st->number);
    else if (strstr(st->reason, "watchpoint"))
        snprintf(what, sizeof what, "watchpoint %d, ", st->number);
    else if (!strcmp(st->reason, "signal-received"))
        snprintf(what, sizeof what, "signal %s, ", st->signal);
    else
        what[0] = 0;
    if (st->file[0])
        snprintf(out, n, "%s%s:%d (%s)", what, st->file, st->line, st->func[0] ? st->func : "??");
    else
        snprintf(out, n, "%s%s", what, st->func[0] ? st->func : "an address without a symbol");
}

/* A stop the user sees: the rank is held by its gdb. */
static void hold(struct rank_gdbs *d, int rank, const struct mi_stop *st, FILE *out)
{
    struct rank_gdb *g = &d->g[rank];
    describe_stop(st, g->stop, sizeof g->stop);
    g->held = 1;
    fprintf(out, "rank %d stopped at %s\n", rank, g->stop);
    fflush(out);
}

/* Interrupts the running ranks of set; those a breakpoint stopped first are held (reported). */
static void stop_set(struct rank_gdbs *d, const unsigned char *set, FILE *out)
{
    struct gdb_mi **wait = calloc((size_t)d->nranks, sizeof *wait);
    if (!wait) return;
    for (int r = 0; r < d->nranks; r++) {
        struct rank_gdb *g = &d->g[r];
        if (!set[r] || g->pid <= 0) continue;
        gdb_mi_pump(&g->mi, 0);
        if (g->mi.running && !g->mi.exited && gdb_mi_start(&g->mi, 1, "-exec-interrupt") == 0)
            wait[r] = &g->mi;
    }
    gdb_mi_wait_all(wait, d->nranks, COMMAND_TIMEOUT_S);
    for (int r = 0; r < d->nranks; r++) {
        struct mi_stop st;
        if (!set[r] || d->g[r].pid <= 0 || !gdb_mi_take_stop(&d->g[r].mi, &st)) continue;
        if (strcmp(st.reason, "signal-received") || strcmp(st.signal, "SIGINT"))
            if (strncmp(st.reason, "exited", 6)) hold(d, r, &st, out);
    }
    free(wait);
}

/* Ends gdb's process record in g's stopped rank: the rank is live where it is (after a
 * reverse step, at that earlier state), and runs on for real from there. */
static void record_off(struct rank_gdb *g)
{
    if (!g->recording) return;
    if (g->pid > 0 && !g->mi.exited) {
        gdb_mi_run(&g->mi, 0, COMMAND_TIMEOUT_S, "record stop");
        gdb_mi_run(&g->mi, 0, COMMAND_TIMEOUT_S, "set scheduler-locking replay");
    }
    g->recording = g->reversed = 0;
}

/* Lets the ranks of set that their gdbs stopped run again (not the held ones). */
static void resume_set(struct rank_gdbs *d, const unsigned char *set)
{
    struct gdb_mi **wait = calloc((size_t)d->nranks, sizeof *wait);
    if (!wait) return;
    for (int r = 0; r < d->nranks; r++) {
        struct rank_gdb *g = &d->g[r];
        if (!set[r] || g->pid <= 0 || g->held || g->mi.running || g->mi.exited) continue;
        record_off(g); /* recorded, the rank would crawl and stop at its first AVX instruction */
        if (gdb_mi_start(&g->mi, 0, "-exec-continue") == 0) wait[r] = &g->mi;
    }
    gdb_mi_wait_all(wait, d->nranks, COMMAND_TIMEOUT_S);
    free(wait);
}

/* Detaches the gdbs of set (in parallel); transient ones are ended. */
static void detach_set(struct rank_gdbs *d, const unsigned char *set, int only_transient)
{
    struct gdb_mi **wait = calloc((size_t)d->nranks, sizeof *wait);
    unsigned char *mine = calloc((size_t)d->nranks, 1);
    if (!wait || !mine) {
        free(wait);
        free(mine);
        return;
    }
    for (int r = 0; r < d->nranks; r++) {
        struct rank_gdb *g = &d->g[r];
        if (!set[r] || g->mi.pid <= 0 || (only_transient && !g->transient)) continue;
        mine[r] = 1;
    }
    stop_set(d, mine, stdout); /* gdb detaches from a stopped process only */
    for (int r = 0; r < d->nranks; r++) {
        struct rank_gdb *g = &d->g[r];
        if (!mine[r] || g->pid <= 0) continue;
        record_off(g);
        if (!g->mi.exited && gdb_mi_start(&g->mi, 0, "-target-detach") == 0) wait[r] = &g->mi;
    }
    gdb_mi_wait_all(wait, d->nranks, COMMAND_TIMEOUT_S);
    for (int r = 0; r < d->nranks; r++) {
        struct rank_gdb *g = &d->g[r];
        if (!mine[r]) continue;
        g->pid = 0;
        g->held = 0;
        if (g->transient) forget(g);
    }
    free(wait);
    free(mine);
}

int rank_gdbs_on(struct rank_gdbs *d, const unsigned char *set_in, const char *const *cmds, int n,
                 int transient, rank_gdb_fn fn, void *arg, FILE *out)
{
    if (find_gdb(d, out)) return -1;
    unsigned char *set = malloc((size_t)d->nranks);
    struct gdb_mi **wait = calloc((size_t)d->nranks, sizeof *wait);
    if (!set || !wait) {
        free(set);
        free(wait);
        fprintf(out, "mpirr: out of memory\n");
        return -1;
    }
    memcpy(set, set_in, (size_t)d->nranks);
    attach_set(d, set, transient, out);
    stop_set(d, set, out);
    int any = 0;
    for (int i = 0; i < n; i++) {
        for (int r = 0; r < d->nranks; r++) {
            wait[r] = NULL;
            if (set[r] && gdb_mi_start(&d->g[r].mi, 0, "%s", cmds[i]) == 0) wait[r] = &d->g[r].mi;
        }
        gdb_mi_wait_all(wait, d->nranks, COMMAND_TIMEOUT_S);
    }
    for (int r = 0; r < d->nranks; r++) {
        if (!set[r]) continue;
        any = 1;
        if (gdb_mi_busy(&d->g[r].mi))
            fprintf(out, "rank %d  error: gdb did not answer within %.0f s\n", r,
                    COMMAND_TIMEOUT_S);
        else
            fn(r, &d->g[r].mi, arg, out);
    }
    detach_set(d, set, 1);
    resume_set(d, set);
    free(set);
    free(wait);
    fflush(out);
    return any ? 0 : -1;
}

/* A gdb whose job was re-executed attaches to its rank's new process once it reports. */
static void reattach(struct rank_gdbs *d, int rank, FILE *out)
{
    mpirr_ctl_slot sl;
    replay_control_read(d->control, rank, &sl);
    if (sl.state == MPIRR_CTL_NOT_STARTED || sl.pid <= 0) return;
    unsigned char *set = calloc((size_t)d->nranks, 1);
    if (!set) return;
    set[rank] = 1;
    attach_set(d, set, 0, out);
    resume_set(d, set);
    free(set);
}

void rank_gdbs_poll(struct rank_gdbs *d, FILE *out)
{
    if (!d) return;
    for (int r = 0; r < d->nranks; r++) {
        struct rank_gdb *g = &d->g[r];
        if (g->reattach && g->mi.pid > 0) reattach(d, r, out);
        if (g->pid <= 0 || g->mi.pid <= 0) continue;
        if (gdb_mi_pump(&g->mi, 0) != 0) { /* gdb died: its rank is on its own again */
            fprintf(out, "mpirr: rank %d's gdb exited\n", r);
            forget(g);
            continue;
        }
        struct mi_stop st;
        if (gdb_mi_busy(&g->mi) || !gdb_mi_take_stop(&g->mi, &st)) continue;
        if (g->mi.exited) g->pid = 0; /* the rank's process is gone: the job says how */
        else hold(d, r, &st, out);
    }
}

const char *rank_gdbs_held(const struct rank_gdbs *d, int rank)
{
    return d && d->g[rank].held ? d->g[rank].stop : NULL;
}

int rank_gdbs_has(const struct rank_gdbs *d, int rank)
{
    return d && d->g[rank].mi.pid > 0;
}

/* Interrupts rank's gdb in the middle of a step, and lets the rank run again unless hold. */
static void interrupt_step(struct rank_gdbs *d, int rank, int hold_it, FILE *out)
{
    struct rank_gdb *g = &d->g[rank];
    struct mi_stop st;
    if (gdb_mi_start(&g->mi, 1, "-exec-interrupt") == 0)
        gdb_mi_wait_all((struct gdb_mi *[]){&g->mi}, 1, COMMAND_TIMEOUT_S);
    if (!gdb_mi_take_stop(&g->mi, &st)) return;
    if (hold_it) {
        hold(d, rank, &st, out);
        return;
    }
    g->held = 0;
    unsigned char *set = calloc((size_t)d->nranks, 1);
    if (!set) return;
    set[rank] = 1;
    resume_set(d, set);
    free(set);
}

int rank_gdbs_next(struct rank_gdbs *d, int rank, int into, unsigned long long stop,
                   double stall_s, FILE *out)
{
    struct rank_gdb *g = &d->g[rank];
    const char *what = into ? "stepin" : "next";
    if (!g->held || g->pid <= 0) {
        fprintf(out, "mpirr: %s: rank %d is not stopped in its own code by the session's gdb "
                     "(`break %d FILE:LINE` and `continue` get it there; `step %d` moves it by "
                     "MPI events)\n", what, rank, rank, rank);
        return -1;
    }
    if (g->reversed) { /* a memory write in replay mode would cut the log: go live here */
        record_off(g);
        fprintf(out, "rank %d: process record stopped: it runs on for real from here\n", rank);
    }
    /* the stop in the rank's own memory before it runs: the control channel brings the same
     * stop, but maybe only after the rank reached the call it must hold at. The runtime's
     * slot is where its progress pointer points, less the progress field's offset; the word
     * its calls compare with is *mpirr_rt.stop, min(slot stop, flush point). Needs the
     * runtime's debug information (mpirr_rt's type). */
    if (gdb_mi_run(&g->mi, 0, COMMAND_TIMEOUT_S, "-data-evaluate-expression \"*(unsigned long "
                   "long *)((char *)mpirr_rt.progress - %zu) = %lluULL\"",
                   offsetof(mpirr_ctl_slot, progress), stop) != 0 ||
        gdb_mi_run(&g->mi, 0, COMMAND_TIMEOUT_S, "-data-evaluate-expression \"*(unsigned long "
                   "long *)mpirr_rt.stop = (%lluULL < *mpirr_rt.stop ? %lluULL : "
                   "*mpirr_rt.stop)\"", stop, stop) != 0) {
        fprintf(out, "mpirr: %s: rank %d: gdb cannot set the rank's stop in its runtime (%s): "
                     "is mpirr's runtime built without debug information?\n", what, rank,
                g->mi.message ? g->mi.message : "no answer");
        return -1;
    }
    /* recorded, the rank's other threads do not run during the step, so the runtime could not
     * report it held at its next MPI call, and the call's own code (libc's AVX string functions)
     * would stop the record: a watchpoint on the event counter, which the runtime counts up
     * first in every call, ends the record there */
    int guard = 0;
    if (g->recording && gdb_mi_run(&g->mi, 0, COMMAND_TIMEOUT_S, "-break-watch "
                                   "mpirr_current_event") == 0) {
        const char *num = gdb_mi_result_text(&g->mi, "wpt.number");
        guard = num ? atoi(num) : 0;
    }
    if (gdb_mi_start(&g->mi, 1, into ? "-exec-step" : "-exec-next") != 0) {
        fprintf(out, "mpirr: %s: rank %d's gdb exited\n", what, rank);
        forget(g);
        return -1;
    }
    g->held = 0;
    for (;;) {
        if (gdb_mi_pump(&g->mi, 50) != 0) {
            fprintf(out, "mpirr: %s: rank %d's gdb exited\n", what, rank);
            forget(g);
            return -1;
        }
        if (!gdb_mi_busy(&g->mi)) break;
        mpirr_ctl_slot sl;
        replay_control_read(d->control, rank, &sl);
        if (sl.state == MPIRR_CTL_HELD && sl.held_pos >= stop) { /* at its next MPI call */
            interrupt_step(d, rank, 0, out);
            return 1;
        }
        if (replay_control_view(d->control, rank, stall_s) == RANK_BLOCKED) {
            fprintf(out, "mpirr: %s: rank %d blocked in MPI before its next event: its gdb "
                         "interrupted it\n", what, rank);
            interrupt_step(d, rank, 1, out);
            return 0;
        }
    }
    struct mi_stop st;
    if (guard && !g->mi.error && gdb_mi_take_stop(&g->mi, &st)) {
        if (st.number == guard && strstr(st.reason, "watchpoint")) {
            /* gdb 13 cannot continue a multi-threaded rank right after `record stop` here
             * ("Couldn't get registers: No such process"): its gdb keeps it at the call */
            fprintf(out, "rank %d: process record stopped: it reached its next MPI call "
                         "(gdb's record cannot step back over MPI); `continue` or `step %d` "
                         "moves it on\n", rank, rank);
            record_off(g);
            gdb_mi_run(&g->mi, 0, COMMAND_TIMEOUT_S, "-break-delete %d", guard);
            hold(d, rank, &st, out);
            return 0;
        }
        g->mi.stop_new = 1; /* the stop is the step's: taken below */
    }
    if (guard) gdb_mi_run(&g->mi, 0, COMMAND_TIMEOUT_S, "-break-delete %d", guard);
    if (g->mi.error) {
        fprintf(out, "mpirr: %s: rank %d: %s\n", what, rank, g->mi.message);
        g->held = 1;
        return 0;
    }
    if (!gdb_mi_take_stop(&g->mi, &st) || g->mi.exited) {
        fprintf(out, "mpirr: %s: rank %d's process has exited\n", what, rank);
        g->pid = 0;
        return -1;
    }
    hold(d, rank, &st, out);
    return 0;
}

int rank_gdbs_record(struct rank_gdbs *d, int rank, int on, FILE *out)
{
    struct rank_gdb *g = &d->g[rank];
    if (!g->held || g->pid <= 0) {
        fprintf(out, "mpirr: record: rank %d is not stopped in its own code by the session's gdb "
                     "(`break %d FILE:LINE` and `continue` get it there)\n", rank, rank);
        return -1;
    }
    if (!on) {
        if (!g->recording) fprintf(out, "mpirr: record: rank %d is not recorded\n", rank);
        else fprintf(out, "rank %d: process record stopped%s\n", rank,
                     g->reversed ? ": it runs on for real from here" : "");
        record_off(g);
        return 0;
    }
    if (g->recording) {
        fprintf(out, "mpirr: record: rank %d is already recorded (since `record %d`)\n", rank, rank);
        return -1;
    }
    /* recorded, a step must run the rank's own thread alone: its other threads (the runtime's
     * mpirr-control, the MPI library's progress threads) loop in poll() forever, and gdb
     * would record them without end */
    if (gdb_mi_run(&g->mi, 0, COMMAND_TIMEOUT_S, "set scheduler-locking step") != 0 ||
        gdb_mi_run(&g->mi, 0, COMMAND_TIMEOUT_S, "record full") != 0 || g->mi.error) {
        gdb_mi_run(&g->mi, 0, COMMAND_TIMEOUT_S, "set scheduler-locking replay");
        fprintf(out, "mpirr: record: rank %d: gdb cannot record it: %s\n", rank,
                g->mi.message ? g->mi.message : "no answer");
        return -1;
    }
    g->recording = 1;
    fprintf(out, "rank %d: process record on at %s\n", rank, g->stop);
    return 0;
}

int rank_gdbs_reverse(struct rank_gdbs *d, int rank, const char *how, FILE *out)
{
    struct rank_gdb *g = &d->g[rank];
    if (!g->held || g->pid <= 0 || !g->recording) {
        fprintf(out, "mpirr: reverse-%s: rank %d has no process record to go back in (`record %d` "
                     "where its gdb holds it, then `next %d`)\n", how, rank, rank, rank);
        return -1;
    }
    struct mi_stop st;
    /* going back, even a continue must move the recorded thread alone: gdb waits without end
     * for the others, which have no history to replay */
    gdb_mi_run(&g->mi, 0, COMMAND_TIMEOUT_S, "set scheduler-locking on");
    int failed = gdb_mi_run(&g->mi, 1, COMMAND_TIMEOUT_S, "-exec-%s --reverse", how) != 0 ||
                 !gdb_mi_take_stop(&g->mi, &st);
    gdb_mi_run(&g->mi, 0, COMMAND_TIMEOUT_S, "set scheduler-locking step");
    if (failed) {
        fprintf(out, "mpirr: reverse-%s: rank %d: %s\n", how, rank,
                g->mi.message ? g->mi.message : "gdb did not stop it");
        return -1;
    }
    g->reversed = 1;
    hold(d, rank, &st, out);
    if (!strcmp(st.reason, "no-history") || !st.reason[0])
        fprintf(out, "rank %d: at the start of its process record (where `record %d` began)\n",
                rank, rank);
    return 0;
}

void rank_gdbs_release(struct rank_gdbs *d, int only)
{
    if (!d) return;
    unsigned char *set = calloc((size_t)d->nranks, 1);
    if (!set) return;
    for (int r = 0; r < d->nranks; r++) {
        if (!d->g[r].held || (only >= 0 && r != only)) continue;
        d->g[r].held = 0;
        set[r] = 1;
    }
    resume_set(d, set);
    free(set);
}

void rank_gdbs_note_points(struct rank_gdbs *d, int rank)
{
    d->g[rank].points = 1;
}

void rank_gdbs_detach_all(struct rank_gdbs *d, int relaunch)
{
    if (!d) return;
    unsigned char *set = malloc((size_t)d->nranks);
    if (!set) return;
    memset(set, 1, (size_t)d->nranks);
    detach_set(d, set, 0);
    for (int r = 0; r < d->nranks; r++)
        d->g[r].reattach = relaunch && d->g[r].points && d->g[r].mi.pid > 0;
    free(set);
}

int rank_gdbs_lend(struct rank_gdbs *d, int rank, int back, FILE *out)
{
    if (!d || d->g[rank].mi.pid <= 0) return 0;
    struct rank_gdb *g = &d->g[rank];
    unsigned char *set = calloc((size_t)d->nranks, 1);
    if (!set) return -1;
    set[rank] = 1;
    int rc = 0;
    if (!back && g->held) {
        fprintf(out, "mpirr: gdb: rank %d is stopped at %s by the session's gdb: `continue` or "
                     "`step %d` first (detached there, it would run on)\n", rank, g->stop, rank);
        rc = -1;
    } else if (!back) {
        detach_set(d, set, 0);
    } else {
        attach_set(d, set, 0, out);
        resume_set(d, set);
    }
    free(set);
    return rc;
}

void rank_gdbs_free(struct rank_gdbs *d)
{
    if (!d) return;
    rank_gdbs_detach_all(d, 0);
    for (int r = 0; r < d->nranks; r++) forget(&d->g[r]);
    free(d->g);
    free(d);
}
