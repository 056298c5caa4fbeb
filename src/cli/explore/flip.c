/* flip.c: `mpirr replay DIR --flip R:E=SRC -o NEWDIR`: replays a recording up to a racing
 * receive, makes it take another message the race analysis proved could have arrived there,
 * and records the rest of the run freely into NEWDIR (the runtime's half: src/runtime/flip.c).
 *
 * Soundness (docs/explore.md): the receive at R:E and the send S of SRC's message are
 * concurrent (S does not happen after the receive completed, or the analysis would not list
 * the message as a candidate). Every rank replays exactly the events that happened before the
 * receive or before and including S - a consistent cut: every message received inside it was
 * sent inside it, so the replay can make those receives as recorded - and nothing else; the
 * rest runs free. At the receive, SRC's message is the first unreceived one from SRC it
 * accepts (earlier ones from SRC were taken by earlier receives, all inside the cut), so
 * posting it with source SRC makes it take exactly that message: an order the real program
 * can take. A wildcard probe (MPI_Probe, MPI_Iprobe, MPI_Mprobe, MPI_Improbe) is flipped the
 * same way: it is posted with source SRC and sees that message (a nonblocking one waits for
 * it: it was sent inside the cut, so some poll of the real program could have found it). */
#include "flip.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_load.h"
#include "call_ids.h"
#include "diag.h"
#include "number_parse.h"
#include "opts.h"
#include "out_file.h"
#include "recdir.h"

/* "R:E=SRC" or "R:E=req:P" */
static int parse_spec(const char *spec, struct flip *f)
{
    char head[64];
    const char *eq = strchr(spec, '=');
    int64_t src;
    if (!eq || (size_t)(eq - spec) >= sizeof head) return -1;
    memcpy(head, spec, (size_t)(eq - spec));
    head[eq - spec] = 0;
    if (opt_rank_event(head, &f->rank, &f->event) || f->event == 0) return -1;
    if (strncmp(eq + 1, "req:", 4) == 0) {
        int64_t post;
        if (mpirr_parse_int(eq + 5, 1, INT64_MAX, &post)) return -1;
        f->req_post = (uint64_t)post;
        f->source = -1;
        return 0;
    }
    if (mpirr_parse_int(eq + 1, 0, 1 << 30, &src)) return -1;
    f->source = (int)src;
    return 0;
}

const char *flip_unforceable(const an_op *o, const an_msg *m)
{
    switch (o->call) {
    case MPIRR_ID_MPI_Recv: case MPIRR_ID_MPI_Irecv: case MPIRR_ID_MPI_Sendrecv:
    case MPIRR_ID_MPI_Sendrecv_replace: case MPIRR_ID_MPI_Mprobe: case MPIRR_ID_MPI_Improbe:
    case MPIRR_ID_MPI_Probe: case MPIRR_ID_MPI_Iprobe:
        break;
    default:
        return "flip forces receives and probes where they are posted with their source "
               "rewritten (MPI_Recv, MPI_Irecv, MPI_Sendrecv, MPI_Probe, MPI_Iprobe, MPI_Mprobe, "
               "MPI_Improbe), not this call";
    }
    /* the receiver's half-event 2*post (its sends) or later happened before the send */
    if (m->hb_dest >= 2 * o->post)
        return "that message is sent after the receive is posted (it can arrive before the "
               "receive completes, but a flip forces the receive where it is posted)";
    return NULL;
}

/* The racing receive or probe posted at the flip's event, or NULL. */
static const an_race *find_race(const an_run *run, const an_races *rs, const struct flip *f)
{
    const an_race *lists[2] = {rs->races, rs->probes};
    const size_t lens[2] = {rs->nraces, rs->nprobes};
    for (int l = 0; l < 2; l++)
        for (size_t i = 0; i < lens[l]; i++) {
            const an_race *x = &lists[l][i];
            if (x->rank == f->rank && run->ranks[x->rank].ops[x->op].post == f->event) return x;
        }
    return NULL;
}

/* The candidates of x (cands, as an_race_list lists them) as "0 (taken), 2, 3". */
static void list_candidates(const an_run *run, const an_race *x, const uint32_t *cands, char *buf,
                            size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    for (uint32_t k = 0; k < x->n && len < n; k++) {
        const an_msg *m = &run->msgs[cands[k]];
        len += (size_t)snprintf(buf + len, n - len, "%s%u%s", k ? ", " : "", m->sender,
                                k ? "" : " (taken)");
    }
}

int flip_cut(an_run *run, const struct flip *f, int q0, uint64_t e0, const char *spec, uint64_t *cut)
{
    uint64_t *other = calloc((size_t)run->nranks, 2 * sizeof *other);
    char err[1200];
    if (!other) {
        cli_error("out of memory");
        return CLI_EXIT_FAIL;
    }
    if (an_frontier(run, f->rank, f->event, 0, cut, other + run->nranks, err, sizeof err) ||
        an_frontier(run, q0, e0, 1, other, other + run->nranks, err, sizeof err)) {
        cli_error("replay --flip %s: %s", spec, err);
        free(other);
        return CLI_EXIT_USAGE;
    }
    for (int q = 0; q < run->nranks; q++) {
        if (other[q] > cut[q]) cut[q] = other[q];
        /* a rank's MPI_Finalize is never inside the cut: it switches to recording by then */
        const an_rank *rk = &run->ranks[q];
        if (rk->events && cut[q] >= rk->events) cut[q] = rk->events - 1;
    }
    free(other);
    if (cut[f->rank] >= f->event) return -1;
    cut[f->rank] = f->event - 1;
    return 0;
}

/* Checks the flip against the analysis and fills the cut (nranks entries). */
static int check_and_cut(struct analysis *a, const struct recording *parent, const char *spec,
                         struct flip *f, uint64_t *cut)
{
    an_run *run = a->run;
    an_races rs;
    if (f->rank >= run->nranks || f->source >= run->nranks) {
        cli_error("replay --flip %s: %s has ranks 0 to %d", spec, parent->name, run->nranks - 1);
        return CLI_EXIT_USAGE;
    }
    if (f->req_post) return flip_request_check(run, parent, spec, f, cut);
    if (an_find_races(run, &rs)) {
        cli_error("out of memory");
        return CLI_EXIT_FAIL;
    }
    int rc = CLI_EXIT_USAGE;
    const an_race *x = find_race(run, &rs, f);
    char cands[512];
    if (!x) {
        cli_error("replay --flip %s: rank %d's event %" PRIu64 " in %s is not a racing receive "
                  "or probe (mpirr races %s lists them)", spec, f->rank, f->event, parent->name,
                  parent->name);
        goto out;
    }
    const uint32_t *cand = an_race_list(&rs, x);
    list_candidates(run, x, cand, cands, sizeof cands);
    const an_msg *taken = &run->msgs[cand[0]], *m = NULL;
    f->taken = (int)taken->sender;
    for (uint32_t k = 1; k < x->n && !m; k++)
        if (run->msgs[cand[k]].sender == (uint32_t)f->source)
            m = &run->msgs[cand[k]];
    if (!m) {
        if (f->source == f->taken)
            cli_error("replay --flip %s: the receive took rank %d's message in the recording "
                      "already; its candidates are %s", spec, f->source, cands);
        else
            cli_error("replay --flip %s: no message of rank %d could have arrived at rank %d's "
                      "event %" PRIu64 " (the race analysis finds its candidates: %s)", spec,
                      f->source, f->rank, f->event, cands);
        goto out;
    }
    const an_op *recv = &run->ranks[x->rank].ops[x->op];
    const char *why = flip_unforceable(recv, m);
    if (why) {
        cli_error("replay --flip %s: rank %d's event %" PRIu64 " is %s, which could have taken "
                  "rank %d's message, but %s", spec, f->rank, f->event,
                  mpirr_call_name(recv->call), f->source, why);
        goto out;
    }
    f->send_event = run->ranks[m->sender].ops[m->send_op].post;
    /* the cut: what happened before the receive, and the send with what happened before it */
    rc = flip_cut(run, f, f->source, f->send_event, spec, cut);
    if (rc > 0) { /* flip_unforceable said no such send: a bad history */
        cli_error("replay --flip %s: the event history of %s is inconsistent (rank %d's message "
                  "is sent after rank %d's event %" PRIu64 ")", spec, parent->name, f->source,
                  f->rank, f->event);
        rc = CLI_EXIT_USAGE;
    }
out:
    an_races_free(&rs);
    return rc;
}

static int write_flip_file(const struct flip *f, const char *parent, const uint64_t *cut, int n)
{
    FILE *out = out_file_new(f->file);
    if (!out) {
        cli_error("cannot create %s: %s", f->file, strerror(errno));
        return CLI_EXIT_FAIL;
    }
    char id[MPIRR_RUN_ID_DIGITS + 1];
    mpirr_run_id_text(&f->run_id, id);
    if (f->req_post)
        fprintf(out, "parent %s\nrun-id %s\ncomplete %d %" PRIu64 " %" PRIu64 "\ntaken-request "
                "%" PRIu64 "\ncut", parent, id, f->rank, f->event, f->req_post, f->taken_req);
    else
        fprintf(out, "parent %s\nrun-id %s\nforce %d %" PRIu64 " %d %" PRIu64 "\ntaken %d\ncut",
                parent, id, f->rank, f->event, f->source, f->send_event, f->taken);
    for (int q = 0; q < n; q++) fprintf(out, " %" PRIu64, cut[q]);
    fputc('\n', out);
    if (fclose(out)) {
        cli_error("cannot write %s", f->file);
        return CLI_EXIT_FAIL;
    }
    return 0;
}

int flip_prepare(struct flip *f, const struct recording *parent, const char *spec,
                 const char *out, int force)
{
    memset(f, 0, sizeof *f);
    mpirr_manifest_init(&f->m);
    if (parse_spec(spec, f)) {
        cli_error("replay: --flip needs RANK:EVENT=SOURCE (e.g. 1:226=3) or RANK:EVENT=req:POST "
                  "(e.g. 1:230=req:224), not '%s'", spec);
        return CLI_EXIT_USAGE;
    }
    if (!out) {
        cli_error("replay --flip records the flipped run: give its directory with -o NEWDIR");
        return CLI_EXIT_USAGE;
    }
    if (strcmp(parent->m.mode, "sources") && strcmp(parent->m.mode, "all")) {
        cli_error("replay --flip: %s was recorded in %s mode, whose replay does not log every "
                  "wildcard match; flip a recording made with --mode sources or all",
                  parent->name, parent->m.mode);
        return CLI_EXIT_USAGE;
    }
    struct analysis a;
    int rc = analysis_open(parent->dir, &a, 1, 1);
    if (rc) return rc;
    uint64_t *cut = calloc((size_t)a.run->nranks, sizeof *cut);
    if (!cut) {
        cli_error("out of memory");
        rc = CLI_EXIT_FAIL;
    } else {
        rc = check_and_cut(&a, parent, spec, f, cut);
    }
    if (!rc) rc = recording_new_run_id(&f->run_id);
    if (!rc) rc = recdir_prepare(out, force, f->dir, sizeof f->dir);
    if (!rc) {
        snprintf(f->file, sizeof f->file, "%s/flip", f->dir);
        rc = write_flip_file(f, parent->dir, cut, a.run->nranks);
    }
    free(cut);
    analysis_close(&a);
    return rc;
}

int flip_start_manifest(struct flip *f, const struct recording *parent, const char *mpi,
                        const char *cwd, int argc, char *const *argv)
{
    if (recording_manifest_start(&f->m, &f->run_id, parent->m.mode, mpi, parent->m.wtime, cwd, argc, argv))
        return CLI_EXIT_FAIL;
    return recording_manifest_write(f->dir, &f->m) ? CLI_EXIT_FAIL : 0;
}

int flip_finish(struct flip *f, int status)
{
    recording_fill_from_logs(f->dir, &f->m);
    f->m.exit_status = status;
    int rc = recording_manifest_write(f->dir, &f->m) ? CLI_EXIT_FAIL : status;
    if (f->req_post)
        cli_error("flipped rank %d's event %" PRIu64 " (%s) to return the request posted at its "
                  "event %" PRIu64 " (the recording had the one posted at event %" PRIu64 "); the "
                  "run is recorded in %s", f->rank, f->event, mpirr_call_name(f->call), f->req_post,
                  f->taken_req, f->dir);
    else
        cli_error("flipped rank %d's event %" PRIu64 " to rank %d's message (its event %" PRIu64
                  "; the recording had rank %d's); the run is recorded in %s", f->rank, f->event,
                  f->source, f->send_event, f->taken, f->dir);
    mpirr_manifest_free(&f->m);
    return rc;
}
