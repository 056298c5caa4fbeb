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
#include "replay_session.h"
#include "symbols.h"
#include "text_escape.h"

/* The recorded call record of rank's event, from the history. 1 found, 0 not. */
static int history_event(struct replay_session *s, int rank, uint64_t event, mpirr_event *out)
{
    char err[700];
    mpirr_ev_reader *r = mpirr_evr_open(s->rec->dir, rank, err, sizeof err);
    if (!r) return 0;
    int found = 0;
    while (!found && mpirr_evr_next(r, out) == 1)
        found = mpirr_ev_is_call(out->kind) && out->event == event;
    mpirr_evr_close(r);
    return found;
}

/* " MPI_Recv(comm=0 peer=ANY tag=7 ...) at FILE:LINE (FUNCTION)" for event of rank: arguments
 * and call site from the history; else the call the rank reported and its own call site. */
static void put_call(struct replay_session *s, int rank, uint64_t event, const mpirr_ctl_slot *sl,
                     int use_slot_site, FILE *out)
{
    mpirr_event e;
    if (s->an && history_event(s, rank, event, &e)) {
        fprintf(out, ": %s(", mpirr_call_name(e.kind));
        char *args = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&args, &len);
        if (m) {
            event_print_args(&e, m);
            fclose(m);
            fputs(args && args[0] == ' ' ? args + 1 : "", out);
            free(args);
        }
        char site[512], esc[512];
        analysis_site(s->an, rank, e.site, site, sizeof site);
        fprintf(out, ") at %s", text_escape(site, esc, sizeof esc));
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

void where_print_rank(struct replay_session *s, int rank, FILE *out)
{
    mpirr_ctl_slot sl;
    replay_control_read(&s->control, rank, &sl);
    enum rank_view v = replay_control_view(&s->control, rank, s->stall_s);
    uint64_t event;
    int in_call;
    int progress_ok = mpirr_pos_of_progress(sl.progress, &event, &in_call) != 0;
    fprintf(out, "rank %d  %s  pid %d  ", rank, sl.host[0] ? sl.host : "?", (int)sl.pid);
    if (sl.state == MPIRR_CTL_NOT_STARTED) {
        fprintf(out, "not started (before the end of MPI_Init)\n");
        return;
    }
    if (sl.state == MPIRR_CTL_HELD) {
        uint64_t e = mpirr_pos_event(sl.held_pos);
        fprintf(out, "%s %s event %" PRIu64, v == RANK_AT_STOP ? "stopped" : "held",
                mpirr_pos_is_after(sl.held_pos) ? "after" : "before", e);
        put_call(s, rank, e, &sl, 1, out);
    } else if (sl.state == MPIRR_CTL_RUNNING) {
        if (!progress_ok) {
            fprintf(out, "running\n");
            return;
        }
        fprintf(out, "%s event %" PRIu64, v == RANK_BLOCKED ? "blocked in"
                                                 : in_call ? "running in" : "running after",
                event);
        put_call(s, rank, event, &sl, 0, out);
        if (v == RANK_BLOCKED) fprintf(out, " (waits on a held rank)");
    } else {
        fprintf(out, "%s", mpirr_ctl_state_name(sl.state));
        if (sl.state == MPIRR_CTL_CRASHED || sl.state == MPIRR_CTL_HELD_SIGNAL)
            fprintf(out, " (signal %d)", sl.signal);
        fprintf(out, " at event %" PRIu64, event);
        put_call(s, rank, event, &sl, 0, out);
    }
    fputc('\n', out);
}

void where_print(struct replay_session *s, FILE *out)
{
    if (s->how[0]) fprintf(out, "stopline: %s\n", s->how);
    for (int r = 0; r < s->nranks; r++) where_print_rank(s, r, out);
    fflush(out);
}
