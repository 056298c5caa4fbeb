/* where.c: see where.h. */
#include "where.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_load.h"
#include "call_ids.h"
#include "event_print.h"
#include "event_trace.h"
#include "rank_gdbs.h"
#include "replay_session.h"
#include "symbols.h"
#include "text_escape.h"

/* What the history says of rank's event: its call, call site, the rank it waits on (the peer
 * it names, else the source a receive matched; -1 if none) and its arguments as text (malloc'd,
 * or NULL). The arguments are printed while the reader is open: the record's items (a Wait's
 * done= requests) live in the reader's buffers, which closing it frees. 1 found, 0 not. */
struct history_call {
    unsigned kind;
    uint32_t site;
    int peer;
    char *args;
};

static int history_event(struct replay_session *s, int rank, uint64_t event,
                         struct history_call *hc)
{
    char err[700];
    mpirr_ev_reader *r = mpirr_evr_open(s->rec->dir, rank, err, sizeof err);
    if (!r) return 0;
    mpirr_event e;
    int found = 0;
    while (!found && mpirr_evr_next(r, &e) == 1)
        found = mpirr_ev_is_call(e.kind) && e.event == event;
    if (found) {
        hc->kind = e.kind;
        hc->site = e.site;
        hc->peer = -1;
        if ((e.fields & MPIRR_EVF_PEER) && e.peer >= 0) hc->peer = e.peer;
        else if ((e.fields & MPIRR_EVF_MATCH) && e.src >= 0) hc->peer = e.src;
        for (uint32_t i = 0; hc->peer < 0 && (e.fields & MPIRR_EVF_DONE) && i < e.nitems; i++)
            if ((e.items[i].flags & MPIRR_EVI_RECV) && e.items[i].src >= 0)
                hc->peer = e.items[i].src;
        hc->args = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&hc->args, &len);
        if (m) {
            event_print_args(&e, m);
            fclose(m);
        }
    }
    mpirr_evr_close(r);
    return found;
}

/* " MPI_Recv(comm=0 peer=ANY tag=7 ...) at FILE:LINE (FUNCTION)" for event of rank: arguments
 * and call site from the history; else the call the rank reported and its own call site.
 * *peer: the rank the call waits on, from the history; else -1. */
static void put_call(struct replay_session *s, int rank, uint64_t event, const mpirr_ctl_slot *sl,
                     int use_slot_site, int *peer, FILE *out)
{
    struct history_call hc;
    *peer = -1;
    if (s->an && history_event(s, rank, event, &hc)) {
        fprintf(out, ": %s(%s", mpirr_call_name(hc.kind),
                hc.args && hc.args[0] == ' ' ? hc.args + 1 : "");
        free(hc.args);
        char site[512], esc[512];
        analysis_site(s->an, rank, hc.site, site, sizeof site);
        fprintf(out, ") at %s", text_escape(site, esc, sizeof esc));
        *peer = hc.peer;
        return;
    }
    if (use_slot_site) fprintf(out, ": %s", mpirr_call_name(sl->call));
    if (use_slot_site && sl->site_module[0]) {
        if (!s->sym) s->sym = mpirr_sym_open(); /* one for the session: it caches per object */
        char site[512] = "?", esc[512];
        if (s->sym) mpirr_sym_lookup(s->sym, sl->site_module, sl->site_offset, site, sizeof site);
        fprintf(out, " at %s", text_escape(site, esc, sizeof esc));
    }
}

/* A blocked rank's remedy: the held rank it waits on (from the history), else every held rank,
 * and the command that moves it: " (waits on held rank 2: `step 2` or `continue` moves it)". */
static void put_blocked_on(struct replay_session *s, int rank, int peer, FILE *out)
{
    mpirr_ctl_slot sl;
    int target = -1, held = 0;
    if (peer >= 0 && peer < s->nranks && peer != rank) {
        replay_control_read(&s->control, peer, &sl);
        if (sl.state == MPIRR_CTL_HELD) target = peer;
    }
    for (int r = 0; target < 0 && r < s->nranks; r++) {
        replay_control_read(&s->control, r, &sl);
        if (r == rank || sl.state != MPIRR_CTL_HELD) continue;
        if (held++ == 0) target = r;
    }
    if (held > 1)
        fprintf(out, " (waits on a held rank, one of %d: `step R` for one of them, or "
                     "`continue`, moves it)", held);
    else if (target >= 0)
        fprintf(out, " (waits on held rank %d: `step %d` or `continue` moves it)", target, target);
    else
        fprintf(out, " (waits on a held rank)");
}

void where_put_blocked(struct replay_session *s, int rank, FILE *out)
{
    mpirr_ctl_slot sl;
    replay_control_read(&s->control, rank, &sl);
    uint64_t event;
    int in_call;
    struct history_call hc = {.peer = -1};
    if (mpirr_pos_of_progress(sl.progress, &event, &in_call) && s->an &&
        history_event(s, rank, event, &hc))
        free(hc.args);
    put_blocked_on(s, rank, hc.peer, out);
}

void where_print_rank(struct replay_session *s, int rank, FILE *out)
{
    mpirr_ctl_slot sl;
    replay_control_read(&s->control, rank, &sl);
    enum rank_view v = replay_control_view(&s->control, rank, s->stall_s);
    uint64_t event;
    int in_call, peer;
    int progress_ok = mpirr_pos_of_progress(sl.progress, &event, &in_call) != 0;
    fprintf(out, "rank %d  %s  pid %d  ", rank, sl.host[0] ? sl.host : "?", (int)sl.pid);
    if (sl.state == MPIRR_CTL_NOT_STARTED) {
        fprintf(out, "not started (before the end of MPI_Init)\n");
        return;
    }
    const char *gdb_stop = rank_gdbs_held(s->gdbs, rank);
    if (gdb_stop && progress_ok) { /* stopped by the session's gdb, in its own code */
        fprintf(out, "stopped at %s, after event %" PRIu64 "\n", gdb_stop, event);
        return;
    }
    if (sl.state == MPIRR_CTL_HELD) {
        uint64_t e = mpirr_pos_event(sl.held_pos);
        fprintf(out, "%s %s event %" PRIu64, v == RANK_AT_STOP ? "stopped" : "held",
                mpirr_pos_is_after(sl.held_pos) ? "after" : "before", e);
        put_call(s, rank, e, &sl, 1, &peer, out);
    } else if (sl.state == MPIRR_CTL_RUNNING) {
        if (!progress_ok) {
            fprintf(out, "running\n");
            return;
        }
        fprintf(out, "%s event %" PRIu64, v == RANK_BLOCKED ? "blocked in"
                                                 : in_call ? "running in" : "running after",
                event);
        put_call(s, rank, event, &sl, 0, &peer, out);
        if (v == RANK_BLOCKED) put_blocked_on(s, rank, peer, out);
    } else {
        fprintf(out, "%s", mpirr_ctl_state_name(sl.state));
        if (sl.state == MPIRR_CTL_CRASHED || sl.state == MPIRR_CTL_HELD_SIGNAL)
            fprintf(out, " (signal %d)", sl.signal);
        fprintf(out, " at event %" PRIu64, event);
        put_call(s, rank, event, &sl, 0, &peer, out);
    }
    fputc('\n', out);
}

void where_print(struct replay_session *s, FILE *out)
{
    if (s->how[0]) fprintf(out, "stopline: %s\n", s->how);
    for (int r = 0; r < s->nranks; r++) where_print_rank(s, r, out);
    fflush(out);
}
