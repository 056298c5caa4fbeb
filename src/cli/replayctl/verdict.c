/* verdict.c: see verdict.h. Each rank's ending is put in one of a few kinds, the same for the
 * recorded run (its tail) and the replay (its control slot), and the two are compared rank by
 * rank. The ranks the program ended itself (a fault, abort(), MPI_Abort, exit() without
 * MPI_Finalize, MPI_Finalize) must end the same way at the same event; a rank the recorded run
 * was stopped from outside (killed, signalled by the launcher, recording stopped early) must be
 * held at the end of its recording, or be stopped by the launcher after another rank's
 * replayed crash stopped the job, as in the recorded run. A replay that followed the recording
 * but gave the program live libc values its recording does not hold (a group recorded off:
 * getpid() by default) is not exact: the line says so, and one line per group names the calls,
 * how many (over every rank), and the record option that would have held them. Likewise a
 * program that made MPI calls whose outcomes mpirr does not replay (one-sided lock grants and
 * fetched values, shared file pointers, dynamic processes: mpi_unreplayed.h), read from the
 * recording's tails: the line names them, per rank. */
#include "verdict.h"

#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "libc_unrecorded.h"
#include "mpi_unreplayed.h"
#include "rank_log.h"

enum kind {
    K_NONE,     /* replay: no ending noted (ended by the launcher or the user, or never started) */
    K_FINISHED, /* MPI_Finalize */
    K_SIGNAL,   /* a fault or abort(): the program's own signal */
    K_ABORT,    /* MPI_Abort */
    K_EXIT,     /* exit() without MPI_Finalize */
    K_OUTSIDE,  /* recorded: stopped from outside; replay: held at the end of its recording */
    K_DIVERGED, /* replay: divergence or a fatal error of the runtime (it printed why) */
};

struct ending {
    enum kind kind;
    int detail;       /* signal number, MPI_Abort's error code */
    int raw, raw_detail; /* recorded: the tail's ending (enum mpirr_log_ending) and detail */
    uint64_t event;   /* where it ended (recorded: events begun) */
    int started;      /* replay: the rank got through MPI_Init */
};

static int is_own(enum kind k) { return k == K_SIGNAL || k == K_ABORT || k == K_EXIT; }

static void recorded_ending(const struct recorded_end *r, struct ending *e)
{
    memset(e, 0, sizeof *e);
    e->raw = r->ending;
    e->raw_detail = r->detail;
    e->event = r->events;
    e->detail = e->raw_detail;
    if (e->raw == MPIRR_END_FINALIZED) e->kind = K_FINISHED;
    else if (mpirr_ending_is_external(e->raw, e->raw_detail)) e->kind = K_OUTSIDE;
    else if (e->raw == MPIRR_END_SIGNAL) e->kind = K_SIGNAL;
    else if (e->raw == MPIRR_END_ABORT) e->kind = K_ABORT;
    else e->kind = K_EXIT;
}

static void replayed_ending(struct replay_control *c, int rank, struct ending *e)
{
    mpirr_ctl_slot s;
    replay_control_read(c, rank, &s);
    memset(e, 0, sizeof *e);
    e->detail = s.signal;
    e->started = s.state != MPIRR_CTL_NOT_STARTED;
    int in_call;
    mpirr_pos_of_progress(s.progress, &e->event, &in_call);
    switch (s.state) {
    case MPIRR_CTL_FINISHED: e->kind = K_FINISHED; break;
    case MPIRR_CTL_CRASHED:
    case MPIRR_CTL_HELD_SIGNAL: e->kind = K_SIGNAL; break;
    case MPIRR_CTL_ABORTING: /* killed while it waited for the others' own endings */
    case MPIRR_CTL_ABORTED: e->kind = K_ABORT; break;
    case MPIRR_CTL_EXITED: e->kind = K_EXIT; break;
    case MPIRR_CTL_END_OF_RECORDING: e->kind = K_OUTSIDE; e->event = mpirr_pos_event(s.held_pos); break;
    case MPIRR_CTL_DIVERGED: e->kind = K_DIVERGED; e->event = mpirr_pos_event(s.held_pos); break;
    default: e->kind = K_NONE; break;
    }
}

/* The application's libc calls that got live values, over every rank. */
static void unrecorded_libc(struct replay_control *c, int n, struct libc_unrecorded *u)
{
    memset(u, 0, sizeof *u);
    for (int k = 0; k < n; k++) {
        mpirr_ctl_slot s;
        replay_control_read(c, k, &s);
        libc_unrecorded_add(u, s.libc_sources, s.libc_calls);
    }
}

/* What follows "replay finished as recorded (...)" &c. when the replay was not exact: libc
 * values it did not hold, the MPI calls it does not replay (mpi, a clause, or ""). */
static const char *exactness(const struct libc_unrecorded *u, const char *mpi, char *buf,
                             size_t n)
{
    if (!u->any && !*mpi) return "";
    snprintf(buf, n, ", but not exact: %s%s%s", u->any ? "libc values were not recorded" : "",
             u->any && *mpi ? "; " : "", mpi);
    return buf;
}

/* Whether the replayed ending rep of a rank follows its recorded ending rec; own_seen: some
 * replayed rank ended by itself (then the launcher stops the others, as it did recording). */
static int follows(const struct ending *rec, const struct ending *rep, int own_seen)
{
    switch (rec->kind) {
    case K_OUTSIDE: return rep->kind == K_OUTSIDE || (rep->kind == K_NONE && own_seen);
    /* a rank that finished when recording may be torn down a little earlier by the launcher
     * after another rank's replayed crash: the teardown's timing is the launcher's, not the
     * recording's */
    case K_FINISHED: return rep->kind == K_FINISHED || (rep->kind == K_NONE && own_seen);
    case K_SIGNAL:
    case K_ABORT: return rep->kind == rec->kind && rep->detail == rec->detail && rep->event == rec->event;
    case K_EXIT: return rep->kind == K_EXIT && rep->event == rec->event && rep->detail == rec->detail;
    default: return 0;
    }
}

static void signal_name(int sig, char *buf, size_t n)
{
    const char *abbrev = sigabbrev_np(sig);
    if (abbrev) snprintf(buf, n, "SIG%s", abbrev);
    else snprintf(buf, n, "signal %d", sig);
}

/* How an ending reads after "rank R " (replay) or "recorded: " (recording). */
static void describe(const struct ending *e, int recorded, char *buf, size_t n)
{
    char sig[32];
    unsigned long long ev = (unsigned long long)e->event;
    switch (e->kind) {
    case K_FINISHED: snprintf(buf, n, "finished"); break;
    case K_SIGNAL:
        signal_name(e->detail, sig, sizeof sig);
        snprintf(buf, n, "%s at event %llu", sig, ev);
        break;
    case K_ABORT: snprintf(buf, n, "called MPI_Abort (code %d) at event %llu", e->detail, ev); break;
    case K_EXIT: snprintf(buf, n, "called exit(%d) without MPI_Finalize at event %llu", e->detail, ev); break;
    case K_OUTSIDE:
        if (!recorded) {
            snprintf(buf, n, "held at the end of its recording, before event %llu", ev);
        } else if (e->raw == MPIRR_END_SIGNAL) {
            signal_name(e->raw_detail, sig, sizeof sig);
            snprintf(buf, n, "stopped by %s at event %llu", sig, ev);
        } else if (e->raw == MPIRR_END_INCOMPLETE) {
            snprintf(buf, n, "recording stopped early at event %llu", ev);
        } else {
            snprintf(buf, n, "killed at event %llu", ev);
        }
        break;
    case K_DIVERGED: snprintf(buf, n, "diverged at event %llu", ev); break;
    default: snprintf(buf, n, "ended by the launcher at event %llu", ev); break;
    }
}

enum verdict_outcome replay_verdict(const struct recording *r, const struct recorded_end *ends,
                                    struct replay_control *c, int status, FILE *out)
{
    int n = r->m.nranks;
    if (!c || n <= 0 || c->nranks != n) return VERDICT_COMPARED; /* no control state */
    struct ending *rec = calloc((size_t)n, sizeof *rec), *rep = calloc((size_t)n, sizeof *rep);
    if (!rec || !rep) {
        free(rec);
        free(rep);
        return VERDICT_COMPARED;
    }
    char a[256], b[256];
    int own_seen = 0, started = 0, diverged = -1;
    uint64_t events = 0;
    for (int k = 0; k < n; k++) {
        recorded_ending(&ends[k], &rec[k]);
        replayed_ending(c, k, &rep[k]);
        events += rec[k].event;
        own_seen |= is_own(rep[k].kind);
        started += rep[k].started;
        if (diverged < 0 && rep[k].kind == K_DIVERGED) diverged = k;
    }
    /* the MPI calls it does not replay: part of the verdict, or after it a likely cause */
    struct mpi_unreplayed mu;
    mpi_unreplayed_from_logs(&mu, r->dir, n);
    char mpi[4096], exact[4200];
    mpi_unreplayed_clause(&mu, mpi, sizeof mpi);
    mpi_unreplayed_free(&mu);
    int mpi_said = 0;
    if (diverged >= 0) {
        fprintf(out, "mpirr: replay diverged at rank %d event %" PRIu64 " (see the line above)\n",
                diverged, rep[diverged].event);
    } else if (!started) {
        fprintf(out, "mpirr: replay ended (status %d) before any rank got through MPI_Init\n",
                status);
    } else {
        struct libc_unrecorded u;
        unrecorded_libc(c, n, &u);
        /* The rank a difference is named by: one whose replay ended differently by itself,
         * else one that was stopped before its recorded end. */
        int odd = -1, cut = -1, finished = 0, held = 0;
        for (int k = 0; k < n; k++) {
            finished += rep[k].kind == K_FINISHED;
            held += rep[k].kind == K_OUTSIDE;
            if (follows(&rec[k], &rep[k], own_seen)) continue;
            if (rep[k].kind != K_NONE && rep[k].kind != K_OUTSIDE) {
                if (odd < 0) odd = k;
            } else if (cut < 0) {
                cut = k;
            }
        }
        if (odd >= 0) {
            describe(&rep[odd], 0, a, sizeof a);
            describe(&rec[odd], 1, b, sizeof b);
            fprintf(out, "mpirr: replay ended differently from the recording: rank %d %s, "
                         "recorded: %s\n", odd, a, b);
        } else if (cut >= 0) {
            describe(&rec[cut], 1, b, sizeof b);
            fprintf(out, "mpirr: replay ended differently from the recording: the job was ended "
                         "before the recorded end (rank %d at event %" PRIu64 ", recorded: %s)\n",
                    cut, rep[cut].event, b);
        } else if (finished == n) {
            fprintf(out, "mpirr: replay finished as recorded (%d ranks, %" PRIu64 " events)%s\n", n,
                    events, exactness(&u, mpi, exact, sizeof exact));
            mpi_said = 1;
        } else if (own_seen) {
            /* every rank that ended by itself, in rank order; a few are enough to name */
            char list[700] = "";
            int named = 0, more = 0;
            for (int k = 0; k < n; k++) {
                if (!is_own(rep[k].kind)) continue;
                if (named == 3) {
                    more++;
                    continue;
                }
                describe(&rep[k], 0, a, sizeof a);
                size_t len = strlen(list);
                snprintf(list + len, sizeof list - len, "%srank %d %s", named++ ? ", " : "", k, a);
            }
            if (more) {
                size_t len = strlen(list);
                snprintf(list + len, sizeof list - len, " and %d more rank%s", more,
                         more > 1 ? "s" : "");
            }
            fprintf(out, "mpirr: replay followed the recording: %s, as recorded%s\n", list,
                    exactness(&u, mpi, exact, sizeof exact));
            mpi_said = 1;
        } else {
            fprintf(out, "mpirr: replay followed the recording up to where the recorded run was "
                         "stopped from outside (%d rank%s held there)%s\n", held,
                    held > 1 ? "s" : "", exactness(&u, mpi, exact, sizeof exact));
            mpi_said = 1;
        }
        libc_unrecorded_print(&u, out);
    }
    if (!mpi_said && *mpi && started)
        fprintf(out, "mpirr: a likely cause: %s\n", mpi);
    free(rec);
    free(rep);
    return diverged >= 0 ? VERDICT_DIVERGED : !started ? VERDICT_NOT_REPLAYED : VERDICT_COMPARED;
}
